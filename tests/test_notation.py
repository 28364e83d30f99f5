"""The text notation (deals, actions, game records) and the JSON record: round trips on random
games under several tables, exact error positions, and hand-made deals whose score is known."""

from __future__ import annotations

import json
from random import Random

import pytest

from chibre import CHANCE, Chibre, Choose, Game, NotationError, Play, Rules, Thank
from chibre.cards import parse_card, parse_cards
from chibre.deal import deal_cards
from chibre.events import CardPlayed, HandScored, StoeckDeclared, TrickTaken, WeisScored
from chibre.notation import (
    format_action,
    format_deal,
    format_hand,
    format_record,
    parse_action,
    parse_deal,
    parse_hand,
    parse_record,
    record_from_dict,
    record_from_json,
    record_to_dict,
    record_to_json,
)

DEAL = "0:JT.AK.T6.QJ6/Q9.T.98.AT98/8.Q96.AKJ7.K/AK76.J87.Q.7"
SEGREGATED = "AKQJT9876.../.AKQJT9876../..AKQJT9876./...AKQJT9876"
"""Seat 0 holds every ♦, seat 1 every ♥, seat 2 every ♠, seat 3 every ♣."""


def cards(text: str) -> int:
    return parse_cards(text)


# --- hands and deals -------------------------------------------------------------------------


def test_format_hand_writes_ranks_high_to_low_per_suit() -> None:
    m = cards("D6 DA DK HJ HQ H9 S10 S8 S7 CA")
    assert format_hand(m) == "AK6.QJ9.T87.A"
    assert format_hand(cards("C6 C7")) == "...76"
    assert format_hand(0) == "..."


def test_parse_hand_reads_t_and_10_case_insensitively() -> None:
    assert parse_hand("AK6.QJ9.T87.A") == cards("DA DK D6 HQ HJ H9 S10 S8 S7 CA")
    assert parse_hand("ak6.qj9.t87.a") == parse_hand("AK6.QJ9.T87.A")
    assert parse_hand("...") == 0


@pytest.mark.parametrize("seed", range(20))
def test_seeded_deals_round_trip(seed: int) -> None:
    dealer = seed % 4
    deal = deal_cards(Random(seed), dealer)
    text = format_deal(deal)
    assert text.startswith(f"{dealer}:")
    assert len(text.split("/")) == 4
    assert parse_deal(text) == deal
    for h in deal.hands:
        assert parse_hand(format_hand(h)) == h
    # 36 rank characters, 12 suit dots, 3 slashes, dealer and colon
    assert len(text) == 36 + 12 + 3 + 2


def test_seeded_deal_is_reproducible() -> None:
    assert format_deal(deal_cards(Random(5), 2)) == format_deal(deal_cards(Random(5), 2))
    assert format_deal(deal_cards(Random(5), 2)) != format_deal(deal_cards(Random(6), 2))


def test_parse_deal_known_text() -> None:
    deal = parse_deal(DEAL)
    assert deal.dealer == 0
    assert deal.hands[0] == cards("DJ D10 HA HK S10 S6 CQ CJ C6")
    assert deal.hands[3] == cards("DA DK D7 D6 HJ H8 H7 SQ C7")
    assert format_deal(deal) == DEAL


def _error(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_deal(text)
    return info.value


def test_bad_rank_character_position() -> None:
    text = DEAL.replace("AK.T6", "AX.T6")
    err = _error(text)
    assert err.position == text.index("X") == 6


def test_card_twice_in_one_hand_position() -> None:
    text = "0:JJ.AK.T6.QJ6/Q9.T.98.AT98/8.Q96.AKJ7.K/AK76.J87.Q.7"
    err = _error(text)
    assert err.position == 3  # the second J


def test_card_in_two_hands_points_at_the_second_copy() -> None:
    # seat 3's last card, ♣7, becomes ♣J, which seat 0 already holds (position 12)
    text = DEAL[:-1] + "J"
    err = _error(text)
    assert "CJ" in str(err)
    assert err.position == len(text) - 1


def test_eight_cards_position() -> None:
    text = "0:JT.AK.T6.QJ/Q9.T.98.AT98/8.Q96.AKJ7.K/AK76.J87.Q.7"
    err = _error(text)
    assert "8 cards" in str(err)
    assert err.position == 2  # seat 0's hand


def test_eight_cards_in_a_later_hand_position() -> None:
    text = "0:JT.AK.T6.QJ6/Q9.T.98.AT9/8.Q96.AKJ7.K/AK76.J87.Q.78"
    err = _error(text)
    assert "seat 1" in str(err)
    assert err.position == text.index("/") + 1


def test_three_hands_position_is_the_end_of_the_text() -> None:
    text = DEAL.rsplit("/", 1)[0]
    err = _error(text)
    assert "four hands" in str(err)
    assert err.position == len(text)


def test_five_hands_position() -> None:
    text = DEAL + "/..."
    err = _error(text)
    assert err.position == len(DEAL) + 1


@pytest.mark.parametrize("dealer", ["4", "x", "", "-1"])
def test_bad_dealer_position(dealer: str) -> None:
    err = _error(dealer + DEAL[1:])
    assert err.position == 0


def test_three_suits_in_a_hand() -> None:
    text = "0:JT.AK.T6QJ6/Q9.T.98.AT98/8.Q96.AKJ7.K/AK76.J87.Q.7"
    err = _error(text)
    assert err.position == 2


def test_deal_error_position_counts_from_the_offset() -> None:
    source = "hand " + DEAL.replace("Q96", "Q9Z")
    with pytest.raises(NotationError) as info:
        parse_deal(source[5:], 5, source)
    assert info.value.position == source.index("Z")
    assert info.value.text == source


# --- actions ---------------------------------------------------------------------------------

ACTIONS = [
    (">", Chibre(), None, ">"),
    ("=D", Choose(0), None, "=D"),
    ("=H", Choose(1), None, "=H"),
    ("=S", Choose(2), None, "=S"),
    ("=C", Choose(3), None, "=C"),
    ("=O", Choose(4), None, "=O"),
    ("=U", Choose(5), None, "=U"),
    ("=S2", Choose(2, True), None, "=S2"),
    ("HA", Play(parse_card("HA")), None, "HA"),
    ("H10", Play(parse_card("H10")), None, "H10"),
    ("HT", Play(parse_card("H10")), None, "H10"),
    ("C6", Play(parse_card("C6")), None, "C6"),
    ("SK*", Play(parse_card("SK"), (), True), None, "SK*"),
    ("D8[D6-D7-D8]", Play(parse_card("D8"), (cards("D6 D7 D8"),)), None, "D8[D6-D7-D8]"),
    (
        "D9[D6-D7-D8,H9-D9-S9-C9]",
        Play(parse_card("D9"), (cards("D6 D7 D8"), cards("D9 H9 S9 C9"))),
        None,
        "D9[D6-D7-D8,D9-H9-S9-C9]",
    ),
    ("SQ[SQ-SK-SA]*", Play(parse_card("SQ"), (cards("SQ SK SA"),), True), None, "SQ[SQ-SK-SA]*"),
    ("!0", Thank(), 0, "!0"),
    ("!2", Thank(), 2, "!2"),
    ("!3", Thank(), 3, "!3"),
]


@pytest.mark.parametrize(("token", "action", "seat", "written"), ACTIONS)
def test_parse_and_format_action(
    token: str, action: object, seat: int | None, written: str
) -> None:
    parsed, parsed_seat = parse_action(token)
    assert parsed == action
    assert type(parsed) is type(action)
    assert parsed_seat == seat
    assert format_action(parsed, parsed_seat) == written
    again, again_seat = parse_action(written)
    assert (again, again_seat) == (parsed, parsed_seat)


def test_actions_read_in_lower_case() -> None:
    assert parse_action("=o") == (Choose(4), None)
    assert parse_action("ht")[0] == Play(parse_card("H10"))
    assert parse_action("=s2") == (Choose(2, True), None)


@pytest.mark.parametrize(
    "token", ["=X", "=H2", "=", "!4", "!", "!x", "ZZ", "H11", "H", "X6", "HA**x", "D8[D6-D7"]
)
def test_bad_action_position_is_the_token(token: str) -> None:
    source = "hand 0:... " + token
    with pytest.raises(NotationError) as info:
        parse_action(token, 11, source)
    assert info.value.position == 11


def test_bad_card_in_weis() -> None:
    with pytest.raises(NotationError):
        parse_action("HA[D6-XX-D8]")


def test_format_action_refuses_non_actions() -> None:
    with pytest.raises(TypeError):
        format_action("HA")  # type: ignore[arg-type]


# --- whole records ---------------------------------------------------------------------------


def play_random_game(rules: Rules, seed: int, max_hands: int = 40) -> tuple[Game, list[object]]:
    """Four random players; thanks (claim = thank) come from a random seat."""
    rng = Random(seed)
    game = Game(rules)
    events: list[object] = []
    hands = 0
    while not game.is_over and hands <= max_hands:
        if game.current_player == CHANCE:
            hands += 1
            events += game.deal(rng)
            continue
        action = rng.choice(game.legal_actions())
        if isinstance(action, Thank):
            events += game.apply(action, rng.randrange(4))
        else:
            events += game.apply(action)
    return game, events


TABLES = {
    "romand": Rules.preset("romand"),
    "jasvel": Rules.preset("jasvel"),
    "schieber-2500": Rules.preset("schieber-2500"),
    "pique-double": Rules.preset("pique-double"),
    "pique-double-choice": Rules.preset("pique-double", pique_double="choice"),
    "declared": Rules.preset("romand", auto_weis=False, auto_stoeck=False),
    "declared-stoeck-in-weis": Rules.preset(
        "romand", auto_weis=False, auto_stoeck=False, stoeck_in_weis=True, chibre_back=True
    ),
    "thank": Rules.preset("romand", claim="thank"),
    "geneve": Rules.preset("geneve-500", weis=False, end_order="stoeck,tricks,weis"),
}


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("seed", [1, 2])
def test_record_round_trip(table: str, seed: int) -> None:
    rules = TABLES[table]
    game, events = play_random_game(rules, seed)
    text = format_record(game.record)
    lines = text.splitlines()
    assert lines[0].startswith("rules ")
    assert len(lines) == 1 + len(game.hands)
    assert all(line.startswith("hand ") for line in lines[1:])

    parsed = parse_record(text)
    assert parsed.rules == rules
    assert parsed.entries == game.record.entries
    assert format_record(parsed) == text

    again, replay_events = parsed.replay()
    assert again.totals == game.totals
    assert again.winner == game.winner
    assert again.striche == game.striche
    assert replay_events == events

    via_json = record_from_json(record_to_json(game.record))
    assert via_json.rules == rules
    assert via_json.entries == game.record.entries
    assert format_record(via_json) == text
    assert record_from_dict(json.loads(json.dumps(record_to_dict(parsed)))).entries == (
        game.record.entries
    )


def test_round_trips_cover_every_action_form() -> None:
    """The random games above do write chibre, doubles, declarations and thanks."""
    seen: set[str] = set()
    for table in ("pique-double-choice", "declared", "declared-stoeck-in-weis", "thank"):
        for seed in range(1, 7):
            game, _ = play_random_game(TABLES[table], seed)
            for token in format_record(game.record).split():
                if token in (">", "=S2"):
                    seen.add(token)
                elif token.startswith("!"):
                    seen.add("!")
                elif "[" in token:
                    seen.add("[")
                elif token.endswith("*"):
                    seen.add("*")
    assert seen >= {">", "=S2", "!", "[", "*"}


def test_unfinished_game_round_trips() -> None:
    rng = Random(11)
    game = Game()
    game.deal(rng)
    for _ in range(10):
        game.apply(rng.choice(game.legal_actions()))
    text = format_record(game.record)
    parsed = parse_record(text)
    assert format_record(parsed) == text
    again, _ = parsed.replay()
    assert again.hand is not None
    assert again.hand.trick_number == game.hand.trick_number  # type: ignore[union-attr]
    assert again.hand.hands == game.hand.hands  # type: ignore[union-attr]


def test_record_stores_the_full_option_set() -> None:
    rules = Rules.preset(
        "schieber-2500",
        target=3000,
        kreuzweis=False,
        big_sequences=False,
        end_order="weis,stoeck,tricks",
        multipliers=[1, 2, 3, 4, 5, 6],
        striche={"sieg": 3, "schneider": 0},
        first_chooser_card="H7",
    )
    game, _ = play_random_game(rules, 3, max_hands=2)
    text = format_record(game.record)
    stored = json.loads(text.splitlines()[0].removeprefix("rules "))
    assert stored["target"] == 3000
    assert stored["kreuzweis"] is False
    assert stored["big_sequences"] is False
    assert stored["low_carres_100"] is True  # from the preset, not only the changes
    assert stored["deck"] == "swiss"
    assert stored["multipliers"] == [1, 2, 3, 4, 5, 6]
    assert stored["striche"]["sieg"] == 3
    assert stored["striche"]["schneider"] == 0
    assert stored["first_chooser_card"] == "H7"
    assert set(stored) == set(Rules().to_dict())
    parsed = parse_record(text)
    assert parsed.rules == rules
    assert parsed.rules != Rules.preset("schieber-2500")
    assert record_from_json(record_to_json(game.record)).rules == rules


def _first_hand_text(seed: int = 4) -> tuple[str, Game]:
    rng = Random(seed)
    game = Game(Rules.preset("romand"))
    game.deal(rng)
    while not game.hand.is_over:  # type: ignore[union-attr]
        game.apply(rng.choice(game.legal_actions()))
    return format_record(game.record), game


def test_illegal_card_in_record_points_at_its_token() -> None:
    text, game = _first_hand_text()
    hand = game.hand
    assert hand is not None
    lines = text.splitlines(keepends=True)
    tokens = lines[1].split()
    # the card of trick 1 played by the second seat: replace it with one it does not hold
    contract_at = next(i for i, t in enumerate(tokens) if t.startswith("="))
    index = contract_at + 2
    second_seat = (hand.chooser + 1) % 4
    foreign = next(c for c in range(36) if not hand.dealt[second_seat] >> c & 1)
    bad = format_action(Play(foreign))
    tokens[index] = bad
    bad_line = " ".join(tokens) + "\n"
    bad_text = lines[0] + bad_line
    with pytest.raises(NotationError) as info:
        parse_record(bad_text)
    expected = len(lines[0]) + len(" ".join(tokens[:index])) + 1
    assert info.value.position == expected
    assert bad_text[expected : expected + len(bad)] == bad
    assert bad in str(info.value)


def test_refused_actions_in_a_record_point_at_their_tokens() -> None:
    rules_line = "rules " + Rules().to_json() + "\n"
    # seat 0 holds ♦7 and chooses; a second chibre, a thank at an auto table, a card not
    # held and a simple contract written double are refused
    deal = "0:" + SEGREGATED
    for actions, bad in (("> >", ">"), ("!1", "!1"), ("=H S6", "S6"), ("=H2", "=H2")):
        text = rules_line + f"hand {deal} {actions}\n"
        with pytest.raises(NotationError) as info:
            parse_record(text)
        assert info.value.position == text.rindex(bad), actions


def test_malformed_token_in_record_points_at_it() -> None:
    text, _ = _first_hand_text()
    lines = text.splitlines(keepends=True)
    tokens = lines[1].split()
    tokens[5] = "Q?"
    bad_text = lines[0] + "# a comment line\n\n" + " ".join(tokens) + "\n"
    with pytest.raises(NotationError) as info:
        parse_record(bad_text)
    assert info.value.position == bad_text.index(" Q? ") + 1


def test_bad_deal_in_record_points_into_the_deal() -> None:
    text, _ = _first_hand_text()
    lines = text.splitlines(keepends=True)
    deal_text = lines[1].split()[1]
    at = next(i for i in range(5, len(deal_text)) if deal_text[i] in "6789TJQKA")
    broken = deal_text[:at] + "Z" + deal_text[at + 1 :]
    bad_text = lines[0] + lines[1].replace(deal_text, broken)
    with pytest.raises(NotationError) as info:
        parse_record(bad_text)
    assert "'Z' is not a rank" in str(info.value)
    assert info.value.position == len(lines[0]) + len("hand ") + at


def test_wrong_dealer_for_the_second_hand() -> None:
    rules = Rules.preset("romand", target=5000)
    game, _ = play_random_game(rules, 8, max_hands=1)
    rng = Random(99)
    # finish the first hand if needed, then deal a second one from the wrong seat
    while game.current_player != CHANCE:
        game.apply(rng.choice(game.legal_actions()))
    wrong = (game.next_dealer() + 1) % 4  # type: ignore[operator]
    deal = format_deal(deal_cards(rng, wrong))
    text = format_record(game.record) + f"hand {deal}\n"
    with pytest.raises(NotationError) as info:
        parse_record(text)
    assert info.value.position == text.rindex(deal)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "hand " + DEAL + "\n",
        "rules {}\nrules {}\n",
        'rules {"target": -5}\n',
        'rules {"bogus": 1}\n',
        "rules {}\nplay HA\n",
    ],
)
def test_malformed_records(text: str) -> None:
    with pytest.raises(NotationError):
        parse_record(text)


def test_record_with_comments_and_defaults() -> None:
    text = "# a friendly game\nrules {}   # every option at its default\n"
    record = parse_record(text)
    assert record.rules == Rules()
    assert record.entries == []


def test_json_record_illegal_action_raises() -> None:
    text, _ = _first_hand_text()
    d = record_to_dict(parse_record(text))
    actions = d["hands"][0]["actions"]
    play_at = next(i for i, a in enumerate(actions) if "card" in a)
    actions[play_at + 1]["card"] = actions[play_at]["card"]  # a card already played
    with pytest.raises(NotationError) as info:
        record_from_dict(d)
    assert f"hand 1, action {play_at + 2}:" in str(info.value)  # counted from 1, as said
    with pytest.raises(NotationError):
        record_from_json("{not json")
    with pytest.raises(NotationError, match="version 99: this chibre reads version 1"):
        record_from_dict({**d, "version": 99})
    with pytest.raises(NotationError):
        record_from_json('{"format": "something else"}')


# --- hands written in notation whose score is known ------------------------------------------


def test_obenabe_the_chooser_holds_every_top_card() -> None:
    """Seat 1 holds A K Q of ♦ ♥ ♠ and takes all nine tricks in Obenabe: 157 + 100 match.
    Weis: seats 0, 1, 2 hold three 20-sequences each, seat 3 all nine ♣ (300): the best weis
    is seat 3's, so team 1 scores 300 + seat 1's 60 and team 0 no weis: 617 to 0."""
    rules = Rules.preset("romand", first_chooser="right_of_dealer")
    text = (
        f"rules {rules.to_json()}\n"
        "# dealer 0; seat 1 chooses and leads\n"
        "hand 0:JT9.JT9.JT9./AKQ.AKQ.AKQ./876.876.876./...AKQJT9876 =O"
        " DA D8 C6 DJ  DK D7 C7 DT  DQ D6 C8 D9"
        " HA H8 C9 HJ  HK H7 CT HT  HQ H6 CJ H9"
        " SA S8 CQ SJ  SK S7 CK ST  SQ S6 CA S9\n"
    )
    game, events = parse_record(text).replay()
    hand = game.hand
    assert hand is not None and hand.is_over
    assert [t.winner for t in hand.tricks] == [1] * 9
    assert next(e.points for e in events if isinstance(e, TrickTaken)) == 11 + 8 + 0 + 2
    score = hand.score()
    assert score.tricks == (0, 157)
    assert score.match == (0, 100)
    assert score.weis == (0, 360)
    assert score.stoeck == (0, 0)
    assert game.totals == [0, 617]
    assert HandScored((0, 617), 1) in events
    weis_scored = [e for e in events if isinstance(e, WeisScored)]
    assert len(weis_scored) == 1 and weis_scored[0].team == 1
    assert sorted(w.points for _, w in weis_scored[0].shown) == [20, 20, 20, 300]
    assert not game.is_over


def test_trump_hand_after_chibre_with_stoeck() -> None:
    """Each seat holds one whole suit. Seat 0 holds ♦7, so it chooses: it chibres and seat 2
    names ♥. Seat 0 leads ♦A; seat 1 holds nothing but trumps, trumps with the bourg and then
    leads trumps, and nobody else can follow: seat 1 takes all nine tricks, 157 + 100, and
    its ♥ K Q are stöck: 277 to 0 (no weis at this table)."""
    rules = Rules.preset("romand", weis=False)
    text = (
        f"rules {rules.to_json()}\n"
        f"hand 3:{SEGREGATED} > =H"
        " DA HJ SA CA"
        "  H9 SK CK DK  HA SQ CQ DQ  HK SJ CJ DJ  HQ ST CT DT"
        "  HT S9 C9 D9  H8 S8 C8 D8  H7 S7 C7 D7  H6 S6 C6 D6\n"
    )
    game, events = parse_record(text).replay()
    hand = game.hand
    assert hand is not None and hand.is_over
    assert hand.chooser == 0 and hand.contract_seat == 2 and hand.chibred == 1
    assert [t.winner for t in hand.tricks] == [1] * 9
    assert hand.tricks[0].points == 11 + 20 + 11 + 11
    # stöck are declared with the second of king and queen: the ♥Q, at trick 5
    stoeck_at = next(i for i, e in enumerate(events) if isinstance(e, StoeckDeclared))
    assert events[stoeck_at] == StoeckDeclared(1, 20)
    assert events[stoeck_at - 1] == CardPlayed(1, parse_card("HQ"))
    score = hand.score()
    assert score.tricks == (0, 157)
    assert score.match == (0, 100)
    assert score.stoeck == (0, 20)
    assert game.totals == [0, 277]
    assert format_record(parse_record(text)).splitlines()[1] == (
        f"hand 3:{SEGREGATED} > =H DA HJ SA CA H9 SK CK DK HA SQ CQ DQ HK SJ CJ DJ"
        " HQ S10 C10 D10 H10 S9 C9 D9 H8 S8 C8 D8 H7 S7 C7 D7 H6 S6 C6 D6"
    )


def test_pique_double_choice_in_notation() -> None:
    """The same deal; seat 0 names ♠ double. Seat 2 holds every ♠: it trumps seat 0's ♦A and
    leads trumps to the end. Team 0 takes all nine with seat 2's stöck, all ×2:
    (157 + 100 + 20) × 2 = 554 to 0."""
    rules = Rules.preset("pique-double", pique_double="choice", weis=False)
    text = (
        f"rules {rules.to_json()}\n"
        f"hand 3:{SEGREGATED} =S2"
        " DA HA SJ CA"
        "  S9 CK DK HK  SA CQ DQ HQ  SK CJ DJ HJ  SQ CT DT HT"
        "  ST C9 D9 H9  S8 C8 D8 H8  S7 C7 D7 H7  S6 C6 D6 H6\n"
    )
    game, _ = parse_record(text).replay()
    hand = game.hand
    assert hand is not None and hand.is_over
    assert hand.factor == 2 and hand.double
    assert [t.winner for t in hand.tricks] == [2] * 9
    assert hand.score().stoeck == (20, 0)
    assert game.totals == [(157 + 100 + 20) * 2, 0]
    # the same hand played simple counts once
    simple, _ = parse_record(text.replace("=S2", "=S")).replay()
    assert simple.totals == [157 + 100 + 20, 0]


def test_follow_suit_error_in_notation_points_at_the_card() -> None:
    """Obenabe: seat 1 leads ♦A and seat 2 holds ♦8 7 6, so its ♥8 is refused."""
    rules = Rules.preset("romand", first_chooser="right_of_dealer")
    text = f"rules {rules.to_json()}\nhand 0:JT9.JT9.JT9./AKQ.AKQ.AKQ./876.876.876./...AKQJT9876"
    text += " =O DA H8 C6 DJ\n"
    with pytest.raises(NotationError) as info:
        parse_record(text)
    assert info.value.position == text.index("H8")
    assert "follow suit" in str(info.value)


def test_json_record_refuses_repeated_and_non_text_cards():
    game = Game(Rules())
    game.deal(Random(3))
    d = record_to_dict(game.record)
    hand0 = d["hands"][0]["cards"][0]
    hand0[1] = hand0[0]  # one card twice, another missing
    with pytest.raises(NotationError, match="twice"):
        record_from_dict(d)
    d = record_to_dict(game.record)
    d["hands"][0]["cards"][0][0] = 5
    with pytest.raises(NotationError, match="code"):
        record_from_dict(d)
