"""The coach: verdicts, reasons, honesty and reproducibility of a review."""

from __future__ import annotations

import dataclasses
import json
import re
from random import Random

import numpy as np
import pytest

from chibre.actions import Choose, Deal, Play, Thank
from chibre.bots import make_player
from chibre.bots.sampling import sample_deals
from chibre.cards import card_symbol, cards_of, parse_card, parse_cards
from chibre.coach import Budget, Verdict, assess, decisions, grade, review_record
from chibre.coach.reasons import Reason, card_reason, partner_signal
from chibre.coach.report import (
    action_text,
    assessment_line,
    card_text,
    html_report,
    reason_text,
    text_report,
)
from chibre.coach.review import Assessment, assessment_from_json, assessment_to_json
from chibre.coach.value import Valuation, paired_loss, sure_match
from chibre.coach.verdict import BLUNDER, INACCURACY, MISTAKE
from chibre.game import Game, GameRecord
from chibre.observation import Observation
from chibre.rules import Rules
from coach_positions import (
    ALL_EQUAL,
    BOCK,
    FORCED_MATCH,
    NEAR_MATCH,
    OBVIOUS_CHIBRE,
    SCHMIEREN,
    TRUMP_PULL,
    deal_with,
)
from coach_positions import record as position_record

QUICK = Budget(samples=16, contract_samples=12)


def played_hand(seed: int, rules: Rules | None = None) -> GameRecord:
    """One hand between four ``rule`` players."""
    game = Game(rules or Rules())
    players = [make_player("rule", seed + s) for s in range(4)]
    game.deal(Random(seed))
    while game.current_player is not None and game.current_player >= 0:
        s = game.current_player
        game.apply(players[s].act(game.observation(s)), s)
    return game.record


# --- the verdict ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loss", "error", "verdict"),
    [
        (0.0, 0.0, Verdict.GOOD),
        (INACCURACY - 0.1, 0.0, Verdict.GOOD),
        (INACCURACY, 0.0, Verdict.INACCURACY),
        (MISTAKE, 0.0, Verdict.MISTAKE),
        (BLUNDER, 0.0, Verdict.BLUNDER),
        (BLUNDER + 10, 5.0, Verdict.BLUNDER),
        (BLUNDER + 10, 6.0, Verdict.MISTAKE),  # the error takes the loss under the threshold
        (30.0, 20.0, Verdict.GOOD),  # noise is no mistake
    ],
)
def test_the_verdict_counts_only_the_loss_the_error_makes_clear(
    loss: float, error: float, verdict: Verdict
) -> None:
    assert grade(loss, error) is verdict


def test_the_loss_is_paired_over_the_same_deals() -> None:
    # Two options that differ by exactly 10 on every deal, however much the deals vary.
    base = np.array([0.0, 50.0, 100.0, 20.0])
    v = Valuation(
        options=(Play(0), Play(1)),
        values=np.stack([base + 10, base], axis=1),
        times=np.array([1.0, 1.0, 2.0, 1.0]),
        deals=(),
        exact=True,
    )
    loss, error = paired_loss(v, 0, 1)
    assert loss == pytest.approx(10.0)
    assert error == pytest.approx(0.0)
    assert v.best() == 0


def test_sure_match_reads_the_hand_alone() -> None:
    assert sure_match(parse_cards("HJ H9 HA HK H10 H8 SA CA DA"), 1)
    assert not sure_match(parse_cards("HJ H9 HA HK H10 H8 SA CA DA"), 4)  # ♥Q is out
    assert sure_match(parse_cards("DA DK DQ HA HK SA SK CA CK"), 4)
    assert not sure_match(parse_cards("H9 HA HK HQ H10 H8 SA CA DA"), 1)  # no bourg


# --- constructed positions -----------------------------------------------------------------


def only(record: GameRecord, seat: int = 0) -> list:
    return list(review_record(record, [seat], QUICK).assessments)


def test_a_forced_match_is_named_and_its_reason_is_the_match() -> None:
    (a,) = only(FORCED_MATCH)
    assert a.kind == "contract"
    assert a.best.contract == 1 and not a.best.double
    assert a.reason.key == "contract_match"
    assert a.verdict is Verdict.BLUNDER


def test_a_contract_is_valued_as_it_is_played_not_as_the_first_card_s_search_sees_it() -> None:
    # Obenabe with three aces and the ♥A ♥K over six hearts makes match on nearly every deal
    # (exactly solved: on 98% of them); a double-dummy search from the first card with a
    # node budget cannot see that far and called it a blunder of 52 points
    (a,) = only(NEAR_MATCH)
    assert a.best.contract == 1
    assert a.loss < 25
    assert a.verdict in (Verdict.GOOD, Verdict.INACCURACY)


def test_an_obvious_chibre_is_found() -> None:
    (a,) = only(OBVIOUS_CHIBRE)
    assert type(a.best).__name__ == "Chibre"
    assert a.reason.key == "chibre"
    assert a.verdict in (Verdict.MISTAKE, Verdict.BLUNDER)


def test_schmieren_on_the_partner_s_sure_trick() -> None:
    a = only(SCHMIEREN)[-1]
    assert a.best == Play(parse_cards("D10").bit_length() - 1)
    assert a.reason.key == "schmieren"


def test_the_bock_to_cash() -> None:
    a = only(BOCK, 1)[-1]
    assert a.best == Play(parse_cards("SA").bit_length() - 1)
    assert a.reason.key == "bock"
    assert a.verdict is not Verdict.GOOD
    assert a.hindsight is not None and a.best.card in a.hindsight  # open cards agree


def test_the_trump_pull_with_the_bourg_out() -> None:
    a = only(TRUMP_PULL)[-1]
    assert isinstance(a.best, Play) and a.best.card // 9 == 1  # a trump: ♥9 or ♥A
    assert a.reason.key == "trump_pull"
    assert a.verdict is not Verdict.GOOD


def test_two_equal_cards_are_never_a_mistake() -> None:
    review = only(ALL_EQUAL)
    card = next(a for a in review if a.kind == "card")
    assert card.verdict is Verdict.GOOD
    contract = next(a for a in review if a.kind == "contract")
    assert contract.verdict is Verdict.GOOD and contract.reason.key == "contract_match"


# --- honesty and reproducibility -----------------------------------------------------------


def redealt(record: GameRecord, upto: int, seat: int, seed: int) -> GameRecord:
    """The record up to entry ``upto`` with the cards ``seat`` cannot see dealt anew, as
    one of the deals consistent with what it has seen."""
    game = Game(record.rules)
    for seat_, action in record.entries[:upto]:
        game.apply(action, None if isinstance(action, Deal) else seat_)
    o = game.observation(seat)
    (now,) = sample_deals(o, Random(seed), 1)
    hand = game.hand
    assert hand is not None
    dealt = tuple(now[s] | (hand.dealt[s] & ~hand.hands[s]) for s in range(4))
    out = GameRecord(record.rules)
    first, rest = record.entries[0], record.entries[1 : upto + 1]
    deal = first[1]
    assert isinstance(deal, Deal)
    out.entries = [(first[0], Deal(dealt, deal.dealer)), *rest]  # type: ignore[arg-type]
    out.replay()  # the same actions are legal with the new cards
    return out


def without_hindsight(review: list) -> list:
    return [{**a.to_dict(), "hindsight": None} for a in review]


@pytest.mark.parametrize("seed", [3, 11])
def test_re_dealing_the_hidden_cards_changes_no_verdict(seed: int) -> None:
    record = played_hand(seed)
    mine = [d for d in decisions(record, [0]) if d.kind == "card"]
    upto = mine[len(mine) // 2].entry
    again = redealt(record, upto, 0, seed + 100)
    assert again.entries[0] != record.entries[0]  # the hidden cards did change
    prefix = GameRecord(record.rules, record.entries[: upto + 1])
    a = review_record(prefix, [0], QUICK).assessments
    b = review_record(again, [0], QUICK).assessments
    assert len(a) >= 2
    assert without_hindsight(list(a)) == without_hindsight(list(b))


def test_a_review_is_reproducible_for_a_seed() -> None:
    record = played_hand(5)
    one = review_record(record, [1], QUICK).to_dict()
    two = review_record(record, [1], QUICK).to_dict()
    assert one == two and one["assessments"]


def test_the_review_reads_in_three_languages() -> None:
    review = review_record(FORCED_MATCH, [0], QUICK)
    texts = {lang: text_report(review, lang) for lang in ("fr", "de", "en")}
    assert "Spiel 1" in texts["de"] and "Donne 1" in texts["fr"] and "Hand 1" in texts["en"]
    assert "Les plus grosses erreurs\u00a0:" in texts["fr"]  # the French colon
    assert "trump hearts: the hand makes match" in texts["en"]
    assert "??" in texts["en"]
    page = html_report(review, "de")
    assert page.startswith("<!doctype html>") and "Trumpf" in page
    assert 'name="viewport"' in page  # it reads on a phone
    head = re.findall(r"<th>([^<]*)</th>", page)
    assert head == ["Spiel", "Platz", "Gespielt", "Bewertung", "Verloren ± Unsicherheit",
                    "Am besten", "Grund", "Offene Karten"]  # fmt: skip


def test_a_line_speaks_the_deck_s_cards_the_language_s_numbers_and_small_gains_plainly() -> None:
    seen = Play(parse_card("♦10"))
    best = Play(parse_card("♦Q"))
    mistake = Assessment(
        seat=0, kind="card", hand_index=0, entry=5, taken=seen, best=best,
        options=((best, 20.0), (seen, 6.3)), loss=13.7, error=1.8, verdict=Verdict.MISTAKE,
        reason=Reason("points", {"card": best.card, "points": 14}), exact=False,
    )  # fmt: skip
    assert assessment_line(mistake, "en").startswith("♦10 ? lost 13.7 ± 1.8 — best ♦Q: ")
    swiss = assessment_line(mistake, "de", "swiss")  # Swisslos: ♦ are Eicheln
    assert swiss.startswith("Eicheln Banner ? ") and "am besten Eicheln Ober: " in swiss
    assert not any(sign in swiss for sign in "♦♥♠♣"), swiss
    french = assessment_line(mistake, "fr")
    assert "13,7 ± 1,8" in french and "la dame de carreau rapporte 14 points" in french, french
    # the French deck's cards with the rank letters of the language: dame, Dame, queen
    assert french.startswith("♦10 ? ") and "le mieux ♦D\u00a0: la dame" in french, french
    assert "am besten ♦D" in assessment_line(mistake, "de")
    assert [action_text(Play(parse_card("♠J")), lang) for lang in ("fr", "de", "en")] == [
        "♠V", "♠B", "♠J"
    ]  # fmt: skip
    # a gain of one point, and one under half a point, said as such (not "1 points", "0 points")
    one = dataclasses.replace(mistake, reason=Reason("point", {"card": best.card}))
    assert assessment_line(one, "en").endswith(
        "♦Q: queen of diamonds takes one point more on average"
    )
    level = dataclasses.replace(
        mistake, verdict=Verdict.GOOD, reason=Reason("about_as_good", {"card": best.card})
    )
    assert "about as good" in assessment_line(level, "en")
    assert "etwa gleich gut" in assessment_line(level, "de")


def test_the_summary_counts_points_lost_accuracy_and_biggest_mistakes() -> None:
    review = review_record(played_hand(7), [0, 1], QUICK)
    for s in review.summaries:
        mine = [a for a in review.assessments if a.seat == s.seat]
        assert s.decisions == len(mine)
        assert s.hands == 1
        assert s.lost == pytest.approx(sum(a.loss for a in mine))
        good = sum(a.verdict is Verdict.GOOD for a in mine)
        assert s.accuracy == pytest.approx(good / len(mine))
        assert len(s.biggest) <= 3
        assert all(b.verdict is not Verdict.GOOD for b in s.biggest)
        assert [b.loss for b in s.biggest] == sorted((b.loss for b in s.biggest), reverse=True)


def test_an_assessment_looks_only_at_its_seat_s_decision() -> None:
    d = decisions(FORCED_MATCH, [0])[0]
    a = assess(d, QUICK)
    assert a.seat == 0 and a.taken == d.action
    assert decisions(FORCED_MATCH, [1]) == []


def test_stoeck_and_weis_left_undeclared_are_the_coach_s_to_point_out() -> None:
    rules = Rules.make(auto_weis=False, auto_stoeck=False)
    for seed in range(40):
        record = played_hand(seed, rules)
        stripped = [
            (s, a._replace(weis=(), stoeck=False)) if isinstance(a, Play) else (s, a)
            for s, a in record.entries
        ]
        if stripped != record.entries:
            break
    else:
        pytest.fail("no hand with a declaration in 40 deals")
    declared = {(s, "stoeck") for s, a in record.entries if isinstance(a, Play) and a.stoeck}
    declared |= {(s, "weis") for s, a in record.entries if isinstance(a, Play) and a.weis}
    quiet = GameRecord(rules, stripped)
    quiet.replay()
    review = review_record(quiet, [0, 1, 2, 3], QUICK)
    missed = {(a.seat, a.kind) for a in review.assessments if a.kind in ("weis", "stoeck")}
    assert missed == declared
    shown = {}  # each seat's weis as it declared them
    for s, a in record.entries:
        if isinstance(a, Play) and a.weis:
            shown[s] = sum(getattr(w, "cards", w) for w in a.weis)
    for a in review.assessments:
        if a.kind == "stoeck":
            assert a.loss == 20 and a.verdict is Verdict.BLUNDER and a.reason.key == "stoeck"
            assert bin(int(a.reason.fields["cards"])).count("1") == 2  # king and queen
        if a.kind == "weis":  # named by its cards
            assert a.reason.fields["cards"] == shown[a.seat]
            line = assessment_line(a, "en")
            assert all(card_symbol(c) in line for c in cards_of(shown[a.seat])), line
            assert "would have been the best" in line, line
    assert not [
        a
        for a in review_record(record, [0, 1, 2, 3], QUICK).assessments
        if a.kind in ("weis", "stoeck")
    ]


def quiet_first_trick(hands: str, multipliers: str = "none") -> GameRecord:
    """A hand of ``rule`` players in Obenabe named by seat 1, seat 0 (last to play to the
    first trick) keeping its weis to itself."""
    rules = Rules(
        auto_weis=False,
        auto_stoeck=False,
        first_chooser="right_of_dealer",
        multipliers=multipliers,
    )
    game = Game(rules)
    game.apply(Deal(tuple(parse_cards(h) for h in hands.split(" / ")), 0))
    game.apply(Choose(4), 1)
    players = [make_player("rule", s) for s in range(4)]
    while game.hand is not None and not game.hand.is_over:
        seat = game.current_player
        assert seat is not None
        action = players[seat].act(game.observation(seat))
        if seat == 0 and isinstance(action, Play):
            action = Play(action.card)
        game.apply(action, seat)
    return game.record


def test_a_weis_that_could_not_have_counted_is_no_mistake() -> None:
    """Seat 0's 20 (♥6 ♥7 ♥8) left undeclared: nothing lost against the opponent's 100 (their
    weis wins the comparison either way, RULES.md §5); 20 lost where nobody else had one."""
    against_100 = quiet_first_trick(
        "H6 H7 H8 D6 D8 C6 C8 SJ SK / S6 S7 S8 S9 S10 DA DK CA HA / "
        "D7 D9 DQ H9 HJ HK C10 CQ SQ / D10 DJ H10 HQ C7 C9 CJ CK SA"
    )
    game, _ = against_100.replay()
    assert sum(w.points for w in game.hands[0].declared[1]) == 100
    review = review_record(against_100, [0], QUICK)
    assert [a for a in review.assessments if a.kind == "weis"] == []
    alone = quiet_first_trick(
        "H6 H7 H8 D6 D8 C6 C8 SJ SK / S6 S8 S10 SQ DA DK CA HA D7 / "
        "S7 S9 D9 DQ H9 HJ HK C10 CQ / D10 DJ H10 HQ C7 C9 CJ CK SA"
    )
    (missed,) = [a for a in review_record(alone, [0], QUICK).assessments if a.kind == "weis"]
    assert missed.loss == 20 and missed.verdict is Verdict.BLUNDER
    assert missed.reason.fields == {"points": 20, "cards": parse_cards("H6 H7 H8")}
    tripled = quiet_first_trick(  # Obenabe ×3: the weis are written three times over
        "H6 H7 H8 D6 D8 C6 C8 SJ SK / S6 S8 S10 SQ DA DK CA HA D7 / "
        "S7 S9 D9 DQ H9 HJ HK C10 CQ / D10 DJ H10 HQ C7 C9 CJ CK SA",
        multipliers="current",
    )
    (missed,) = [a for a in review_record(tripled, [0], QUICK).assessments if a.kind == "weis"]
    assert missed.loss == 20 * Rules(multipliers="current").factor(4)


def test_advice_depends_on_the_player_s_cards_and_the_play_only() -> None:
    from chibre.cards import parse_card
    from chibre.coach.advice import InvalidAdvice, advise, observation_for

    hand = parse_cards("HJ H9 HA HK H10 H8 SA CA DA")
    played = tuple(parse_card(c) for c in ["HJ", "H6", "H7", "HQ"])
    views = {observation_for(hand, 3, 1, played, seed=s) for s in range(4)}
    assert len(views) == 1  # however the unseen cards were filled in
    (o,) = views
    advice = advise(o, QUICK)  # every card takes all the tricks left: any is best
    assert isinstance(advice.best, Play)
    assert dict(advice.options)[advice.best] == max(v for _, v in advice.options)
    trump = bool(parse_cards("H9 HA HK H10 H8") >> advice.best.card & 1)
    assert advice.reason.key == ("trump_pull" if trump else "bock")
    with pytest.raises(InvalidAdvice, match="which contract"):
        observation_for(hand, 3, None, played)
    with pytest.raises(InvalidAdvice, match="the player on your right chooses"):
        observation_for(hand, 0)
    with pytest.raises(InvalidAdvice, match="all 36 cards"):
        observation_for(hand, 3, 1, tuple(range(36)))


def test_advice_after_a_chibre_reads_the_partner_s_choice() -> None:
    from chibre.bots.policy import shipped_policy
    from chibre.bots.reading import weighted_deals
    from chibre.cards import SUIT_MASKS
    from chibre.coach.advice import InvalidAdvice, observation_for

    hand = parse_cards("S6 S7 S8 C6 C7 C8 D6 D7 H6")  # nothing to name: seat 0 chibres
    chibred = observation_for(hand, 3, 1, (), chibred=True)
    assert (chibred.chibres, chibred.contract_seat, chibred.to_act) == (1, 2, 0)
    named = observation_for(hand, 3, 1, ())
    assert (named.chibres, named.contract_seat) == (0, 0)

    def partner_hearts(o: Observation) -> float:  # the mean, over the weighed deals
        deals = weighted_deals(o, Random(5), 200, shipped_policy(), 4)
        counted = sum(t * (d[2] & SUIT_MASKS[1]).bit_count() for d, t in deals)
        return counted / sum(t for _, t in deals)

    # the partner who named hearts after the chibre holds them; one who did not choose, less
    assert partner_hearts(chibred) > partner_hearts(named) + 0.5
    with pytest.raises(InvalidAdvice, match="you chibred: say which trump your partner named"):
        observation_for(hand, 3, None, (), chibred=True)
    # the partner chose first and chibred (dealer 1): the player names the trump, with the
    # flag or without it
    for flagged in (False, True):
        after = observation_for(hand, 1, None, (), chibred=flagged)
        assert (after.chibres, after.to_act, after.phase) == (1, 0, "contract")


def test_the_pique_double_is_one_of_the_contract_s_options() -> None:
    from coach_positions import deal_with, record

    rules = 'rules {"weis": false, "first_chooser": "right_of_dealer", "pique_double": "choice"}'
    strong_spades = record(deal_with(3, {0: "SJ S9 SA SK S10 HA HK CA D6"}), "=S", rules)
    (a,) = only(strong_spades)
    codes = {type(x).__name__ + str(getattr(x, "double", "")) for x, _ in a.options}
    assert {"ChooseTrue", "ChooseFalse", "Chibre"} <= codes
    assert a.best.contract == 2 and a.best.double
    assert a.reason.key == "pique_double"
    assert a.verdict is not Verdict.GOOD  # naming spades simple gave away half the hand


def test_an_assessment_is_kept_whole() -> None:
    """What the server keeps of a review reads back as the same assessments."""
    assessed = review_record(played_hand(7), [0, 1, 2, 3], QUICK).assessments
    kept = json.loads(json.dumps([assessment_to_json(a) for a in assessed]))
    assert [assessment_from_json(d) for d in kept] == list(assessed)
    assert any(a.hindsight for a in assessed) and any(a.kind == "contract" for a in assessed)


def observation_after(deal: str, actions: str, seat: int) -> Observation:
    """What ``seat`` sees once ``actions`` are played on ``deal`` (seat 0 chooses)."""
    game, _ = position_record(deal, actions).replay()
    return game.observation(seat)


SIGNAL_DEAL = deal_with(
    3, {0: "SA S6 HA HK", 1: "SK S7", 2: "DA DK DQ DJ D10 D9 D8 D7 D6", 3: "S8 S9"}
)


def test_points_on_our_own_trick_are_a_schmier_not_a_signal() -> None:
    schmier = observation_after(SIGNAL_DEAL, "=O SA S7 DT S8", 0)
    assert partner_signal(schmier) == -1
    signal = observation_after(SIGNAL_DEAL, "=O S6 SK DT S8", 0)  # on the opponents' trick
    assert partner_signal(signal) == 0


def valued(o: Observation, cards: str, means: list[float]) -> Valuation:
    """Two or more cards valued by one deal each way (enough for a reason)."""
    options = tuple(Play(parse_card(c)) for c in cards.split())
    return Valuation(options, np.array([means]), np.array([1.0]), (), exact=True)


def test_a_trump_led_when_nobody_else_holds_one_is_no_trump_pull() -> None:
    deal = deal_with(3, {0: "HJ H9 HA HK SA", 1: "H6 H7", 2: "H8 H10", 3: "HQ S6 S7 S8"})
    pulled = "=H HJ H6 H8 HQ H9 H7 HT S6"  # seat 0 leads again, the other trumps all out
    o = observation_after(deal, pulled, 0)
    assert o.seat == 0 and not o.trick and len(o.tricks) == 2
    reason = card_reason(o, valued(o, "HA SA", [40.0, 30.0]), 0, 1)
    assert reason.key != "trump_pull"
    early = observation_after(deal, "=H HJ H6 H8 HQ", 0)  # ♥7 and ♥10 are still out
    assert card_reason(early, valued(early, "H9 SA", [40.0, 30.0]), 0, 1).key == "trump_pull"


def test_not_overtaking_the_partner_is_said_as_such() -> None:
    """The partner's ♥K holds the trick; seat 0's ♥9 keeps ♥A, which would overtake it."""
    deal = deal_with(3, {0: "S6 HA H9", 1: "S7", 2: "SA HK", 3: "S8 H6"})
    o = observation_after(deal, "=O S6 S7 SA S8 HK H6", 0)
    assert o.trick == (parse_card("HK"), parse_card("H6"))
    reason = card_reason(o, valued(o, "H9 HA", [40.0, 30.0]), 0, 1)
    assert reason.key == "keep_partner"
    assert reason_text(reason, "en") == (
        "your partner holds the trick: play nine of hearts, keep ace of hearts"
    )


def test_the_open_cards_column_separates_the_swiss_cards_names() -> None:
    a = only(BOCK, 1)[-1]
    cards = (parse_card("SA"), parse_card("SK"))
    two = dataclasses.replace(a, hindsight=cards)
    ace, king = (card_text(c, "de", "swiss") for c in cards)
    assert " " in ace  # a name of words: "Schilten Ass"
    assert f"{ace}, {king}" in assessment_line(two, "de", "swiss")
    assert "♠A ♠K" in assessment_line(two, "en")


def test_a_thanks_that_lost_the_game_is_the_review_s_to_point_out() -> None:
    rules = Rules.make(claim="thank", target=300)
    game = Game(rules)
    game.deal(Random(7))
    players = [make_player("rule", s) for s in range(4)]
    while game.hand is not None and len(game.hand.tricks) < 2:  # two tricks, then thanks
        seat = game.current_player
        assert seat is not None
        game.apply(players[seat].act(game.observation(seat)), seat)
    thanker = game.current_player
    assert thanker is not None
    had = game.totals[thanker & 1]
    game.apply(Thank(), thanker)
    assert game.is_over and game.winner != thanker & 1
    review = review_record(game.record, [thanker], QUICK)
    (thanks,) = [a for a in review.assessments if a.kind == "thank"]
    assert thanks.seat == thanker and thanks.verdict is Verdict.BLUNDER
    assert thanks.loss == 300 - had  # what the team lacked
    line = assessment_line(thanks, "en")
    assert line == (
        f"thanks ?? — too early to thank: your team had {had} of the 300 needed, and the game "
        "went to the other team"
    )
    assert assessment_from_json(assessment_to_json(thanks)) == thanks
    (summary,) = review.summaries
    assert summary.biggest[0] == thanks  # before any card: it lost the game
    assert summary.lost == sum(a.loss for a in review.assessments if a.kind != "thank")
    assert "<td></td>" in html_report(review, "de")  # no better option named for a thanks
    assert "Bedanken ??" in text_report(review, "de")
    others = review_record(game.record, [thanker ^ 1], QUICK)
    assert not [a for a in others.assessments if a.kind == "thank"]


def test_the_accuracy_is_rounded_once_half_up_as_the_pages_round_it() -> None:
    from chibre.coach.report import percent
    from chibre.coach.review import Summary

    assert (percent(1 / 8), percent(13 / 17), percent(1.0)) == (13, 76, 100)
    summary = Summary(seat=0, decisions=17, hands=3, lost=12.0, accuracy=13 / 17, biggest=())
    assert summary.to_dict()["accuracy"] == 13 / 17  # a page gets it whole: 76, not 77 (0.765)


def test_the_summary_counts_one_decision_in_the_singular() -> None:
    from chibre.coach.review import Review, Summary

    def said(decisions: int, lang: str) -> str:
        one = Summary(seat=0, decisions=decisions, hands=1, lost=0.0, accuracy=1.0, biggest=())
        review = Review(seats=(0,), settings=QUICK, assessments=(), summaries=(one,))
        return text_report(review, lang) + html_report(review, lang)

    for lang, singular, plural in (
        ("en", "1 decision,", "2 decisions,"),
        ("de", "1 Entscheidung,", "2 Entscheidungen,"),
        ("fr", "1 décision,", "2 décisions,"),
    ):
        assert said(1, lang).count(singular) == 2 and plural.split()[1] not in said(1, lang)
        assert said(2, lang).count(plural) == 2
    assert "100\u00a0%" in said(1, "fr")  # the French percent sign kept on its number's line
