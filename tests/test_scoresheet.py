"""The calculator: hands written as a scorer writes them, checked against RULES.md §6–§8 and
against the engine's own games."""

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chibre.actions import Thank
from chibre.cards import parse_cards
from chibre.errors import ChibreError, IllegalAction
from chibre.game import Game
from chibre.hand import Hand, team_of
from chibre.rules import MAX_TARGET, Rules, Striche
from chibre.scoresheet import (
    InvalidEntry,
    ScoreSheet,
    hand_entry,
    parse_contract,
    parse_weis,
    weis_values,
)

D, H, S, C, OBE, UNDE = range(6)
FRENCH = Rules.make(multipliers="french")


# --- one hand --------------------------------------------------------------------------------


def test_worked_example_of_rules_section_6():
    """A chose ♠ (×2): A 98 + weis 50 + stöck 20 → 336; B 59 → 118."""
    sheet = ScoreSheet(FRENCH)
    r = sheet.add({"contract": "S", "points": 98, "team": 0, "weis": [[50], []], "stoeck": 0})
    assert r.score.factor == 2
    assert r.score.stoeck == (20, 0)
    assert r.score.weis == (50, 0)
    assert r.score.tricks == (98, 59)
    assert r.score.match == (0, 0)
    assert r.score.totals == (336, 118)
    assert sheet.totals == (336, 118)


def test_worked_example_with_match():
    """Had A taken all nine: (257 + 50 + 20) × 2 = 654, B 0."""
    sheet = ScoreSheet(FRENCH)
    r = sheet.add({"contract": "pique", "match": 0, "weis": [["♠6 ♠7 ♠8 ♠9"], []], "stoeck": 0})
    assert r.score.tricks == (157, 0)
    assert r.score.match == (100, 0)
    assert r.score.totals == (654, 0)


def test_the_other_team_is_counted_from_157():
    sheet = ScoreSheet()
    r = sheet.add({"contract": "H", "points": 40, "team": 1})
    assert r.score.tricks == (117, 40)
    assert sheet.totals == (117, 40)


def test_other_teams_weis_and_stoeck_stay_valid_after_a_match():
    sheet = ScoreSheet()
    r = sheet.add({"contract": "D", "match": 0, "weis": [[], [100, 20]], "stoeck": 1})
    assert r.score.totals == (257, 140)


@pytest.mark.parametrize(
    ("preset", "contract", "factor"),
    [
        ("romand", "O", 1),
        ("schieber-2500", "obenabe", 3),
        ("schieber-2500", "U", 3),
        ("jasvel", "undenufe", 4),
        ("schieber-2500", "C", 2),
        ("pique-double", "S", 2),
        ("pique-double", "C", 1),
    ],
)
def test_the_factor_comes_from_the_grid(preset, contract, factor):
    sheet = ScoreSheet(Rules.preset(preset))
    r = sheet.add({"contract": contract, "points": 100})
    assert r.score.factor == factor
    assert sheet.totals == (100 * factor, 57 * factor)


def test_pique_double_by_choice():
    rules = Rules.make(pique_double="choice")
    sheet = ScoreSheet(rules)
    assert sheet.add({"contract": "S", "double": True, "points": 100}).score.factor == 2
    assert sheet.add({"contract": "S", "points": 100}).score.factor == 1
    with pytest.raises(InvalidEntry, match="only ♠ can be played double"):
        sheet.add({"contract": "H", "double": True, "points": 100})


@pytest.mark.parametrize(
    ("text", "contract"),
    [("D", D), ("h", H), ("♠", S), ("clubs", C), ("trèfle", C), ("Obenabe", OBE),
     ("u", UNDE), ("Rosen", H), ("Eicheln", D), ("Schellen", C), ("Schilten", S), (5, UNDE)],
)  # fmt: skip
def test_contracts_are_read_in_the_players_words(text, contract):
    assert parse_contract(text) == contract


def test_weis_from_cards_and_values():
    rules = Rules()
    assert parse_weis("H6 H7 H8", rules).points == 20
    assert parse_weis(["DJ", "HJ", "SJ", "CJ"], rules).points == 200
    assert parse_weis("♣9 ♣10 ♣J ♣Q ♣K ♣A", rules).points == 150
    assert parse_weis(150, rules).cards == 0
    assert parse_weis({"points": 50, "cards": "S6 S7 S8 S9"}, rules).points == 50
    assert 300 in weis_values(rules)
    assert 300 not in weis_values(Rules.make(big_sequences=False))
    assert parse_weis("♣9 ♣10 ♣J ♣Q ♣K ♣A", Rules.make(big_sequences=False)).points == 100


# --- refused input: a clear error, nothing changes --------------------------------------------


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ({"contract": "H", "points": 158}, "from 0 to 157"),
        ({"contract": "H", "points": -1}, "from 0 to 157"),
        ({"contract": "H", "points": "ten"}, "whole number"),
        ({"contract": "H"}, "trick points of one team"),
        ({"contract": "X", "points": 10}, "unknown contract"),
        ({"contract": 6, "points": 10}, "unknown contract"),
        ({"contract": "O", "points": 10, "stoeck": 0}, "no stöck in Obenabe or Undenufe"),
        ({"contract": "U", "points": 10, "stoeck": 1}, "no stöck in Obenabe or Undenufe"),
        ({"contract": "H", "points": 10, "weis": [[20], [50]]}, "only one team scores weis"),
        ({"contract": "H", "points": 10, "weis": [[30], []]}, "no weis is worth 30"),
        ({"contract": "H", "points": 10, "weis": [["H6 H7 H9"], []]}, "sequence"),
        ({"contract": "H", "points": 10, "weis": [["H6 H7 H8", "H8 H9 H10"], []]}, "share"),
        ({"contract": "H", "points": 10, "weis": [["D6 H6 S6 C6"], []]}, "no weis"),
        ({"contract": "H", "points": 10, "weis": [["HZ H7 H8"], []]}, "cannot read"),
        ({"contract": "H", "points": 10, "team": 2}, "team 0 or 1"),
        ({"contract": "H", "match": 0, "points": 100}, "with a match"),
        ({"contract": "H", "points": 10, "shout": 1}, "unknown field"),
        ({"contract": "H", "points": 10, "first_out": 0}, "nobody reaches the target"),
    ],
)
def test_bad_input_is_refused_and_nothing_changes(hand, message):
    sheet = ScoreSheet()
    sheet.add({"contract": "D", "points": 80})
    before = sheet.to_json()
    with pytest.raises(InvalidEntry, match=message) as err:
        sheet.add(hand)
    assert isinstance(err.value, ChibreError) and isinstance(err.value, IllegalAction)
    assert sheet.to_json() == before
    assert sheet.totals == (80, 77)


def test_kreuzweis_off_refuses_a_card_in_two_weis():
    hand = {"contract": "H", "points": 10, "weis": [["HJ HQ HK", "DJ HJ SJ CJ"], []]}
    assert ScoreSheet().add(hand).score.weis == (220, 0)
    with pytest.raises(InvalidEntry, match="kreuzweis is off"):
        ScoreSheet(Rules.make(kreuzweis=False)).add(hand)


def test_weis_and_stoeck_off():
    with pytest.raises(InvalidEntry, match="weis are off"):
        ScoreSheet(Rules.make(weis=False)).add({"contract": "H", "points": 1, "weis": [[20], []]})
    with pytest.raises(InvalidEntry, match="stöck are off"):
        ScoreSheet(Rules.make(weis=False, stoeck=False)).add(
            {"contract": "H", "points": 1, "stoeck": 0}
        )


# --- the game: target, counting order, Striche ------------------------------------------------


def test_correct_and_delete_recount_everything():
    sheet = ScoreSheet()
    sheet.add({"contract": "D", "points": 100})
    sheet.add({"contract": "H", "points": 50, "weis": [[], [50]]})
    sheet.add({"contract": "S", "points": 157, "team": 1})
    assert [r.totals for r in sheet.results] == [(100, 57), (150, 214), (150, 371)]
    sheet.replace(1, {"contract": "D", "points": 60})
    assert [r.totals for r in sheet.results] == [(60, 97), (110, 254), (110, 411)]
    sheet.delete(2)
    assert [r.totals for r in sheet.results] == [(60, 97), (60, 254)]
    assert [r.number for r in sheet.results] == [1, 2]
    with pytest.raises(InvalidEntry, match="no hand 3"):
        sheet.delete(3)
    with pytest.raises(InvalidEntry, match="no hand 0"):
        sheet.replace(0, {"contract": "D", "points": 1})


def test_the_first_to_the_target_wins_and_the_striche():
    rules = Rules.make(target=500, striche=Striche(sieg=3, match=5, kontermatsch=7,
                                                   bergpreis=11, schneider=13))  # fmt: skip
    sheet = ScoreSheet(rules)
    sheet.add({"contract": "D", "chooser": 0, "match": 0})  # 257 : 0, a match for team 0
    assert sheet.bergpreis == 0 and sheet.winner == -1
    assert sheet.marks["match"] == (5, 0) and sheet.marks["bergpreis"] == (11, 0)
    sheet.add({"contract": "H", "chooser": 0, "match": 1})  # 257 : 257, a Kontermatsch for B
    assert sheet.marks["kontermatsch"] == (0, 7)
    sheet.add({"contract": "C", "chooser": 1, "points": 150, "team": 0, "weis": [[100], []]})
    assert sheet.winner == 0 and sheet.decided_in == 3
    assert sheet.marks["sieg"] == (3, 0) and sheet.marks["schneider"] == (0, 0)
    assert sheet.striche == (3 + 5 + 11, 7)
    with pytest.raises(InvalidEntry, match="the game is over"):
        sheet.add({"contract": "D", "points": 1})
    # a correction that ends the game earlier cannot leave hands after the end
    with pytest.raises(InvalidEntry, match="comes after the end"):
        sheet.replace(1, {"contract": "D", "chooser": 0, "match": 0, "weis": [[300], []]})


def test_schneider():
    sheet = ScoreSheet(Rules.make(target=500))
    sheet.add({"contract": "D", "points": 150, "weis": [[200], []]})  # 350 : 7
    sheet.add({"contract": "D", "points": 150})  # 500 : 14
    assert sheet.winner == 0
    assert sheet.marks["schneider"] == (2, 0) and sheet.striche == (2 + 1 + 2, 0)


def test_an_undecided_bergpreis_at_a_table_without_it_goes_to_nobody():
    """Both teams pass half of 300 with the tricks of the same hand; the table plays no
    Bergpreis, so the scorer is not asked and neither team is credited with it."""
    rules = Rules.make(target=300, striche=Striche(bergpreis=0))
    sheet = ScoreSheet(rules)
    sheet.add({"contract": "D", "points": 80})  # 80 : 77
    sheet.add({"contract": "D", "points": 80})  # 160 : 154, both past 150 in the tricks
    assert sheet.totals == (160, 154) and sheet.winner == -1
    assert sheet.bergpreis == -1
    assert sheet.marks["bergpreis"] == (0, 0) and sheet.striche == (0, 0)
    sheet.add({"contract": "D", "points": 80})  # later hands do not credit it either
    assert sheet.bergpreis == -1
    # with a Bergpreis the same hand needs the scorer to say who got there first
    with pytest.raises(InvalidEntry, match="reach half the target") as asked:
        ScoreSheet(Rules.make(target=300), sheet.hands[:2])
    assert (asked.value.key, asked.value.field) == ("ask_berg_first", "berg_first")
    credited = ScoreSheet(Rules.make(target=300), [*sheet.hands[:1], {"contract": "D",
                          "points": 80, "berg_first": 1}])  # fmt: skip
    assert credited.bergpreis == 1 and credited.marks["bergpreis"] == (0, 1)


@pytest.mark.parametrize(
    ("order", "winner"),
    [("stoeck,weis,tricks", 1), ("weis,stoeck,tricks", 0), ("stoeck,tricks,weis", 1)],
)
def test_weis_against_stoeck_in_the_counting_order(order, winner):
    """A needs 20 and shows a weis of 20; B needs 20 and shows the stöck."""
    rules = Rules.make(target=277, end_mode="end_of_hand", end_order=order)
    sheet = ScoreSheet(rules)
    sheet.add({"contract": "D", "points": 157, "team": 0, "weis": [[100], []]})  # 257 : 0
    sheet.add({"contract": "D", "points": 0, "team": 0, "weis": [[], [100]]})  # 257 : 257
    sheet.add({"contract": "H", "points": 0, "weis": [[20], []], "stoeck": 1})
    assert sheet.winner == winner


@pytest.mark.parametrize("end_mode", ["immediate", "end_of_hand"])
def test_both_teams_out_with_the_tricks_needs_the_scorer(end_mode):
    sheet = ScoreSheet(Rules.make(target=300, end_mode=end_mode))
    sheet.add({"contract": "D", "points": 140, "weis": [[100], []]})  # 240 : 17
    sheet.add({"contract": "D", "points": 0, "weis": [[], [100]]})  # 240 : 274
    hand = {"contract": "D", "points": 100}  # A needs 60, B 26: both go out with the tricks
    with pytest.raises(InvalidEntry, match="say which team got there first") as asked:
        sheet.add(hand)
    assert asked.value.field == "first_out" and len(sheet.hands) == 2
    sheet.add({**hand, "first_out": 1})
    assert sheet.winner == 1 and sheet.totals == (340, 331)


def test_stoeck_before_tricks_decides_only_when_counted_by_blocks():
    for end_mode in ("end_of_hand", "immediate"):
        sheet = ScoreSheet(Rules.make(target=300, end_mode=end_mode))
        sheet.add({"contract": "D", "points": 140, "weis": [[100, 50], []]})  # 290 : 17
        sheet.add({"contract": "D", "points": 0, "weis": [[], [100]]})  # 290 : 274
        hand = {"contract": "H", "points": 40, "team": 0, "stoeck": 0}  # A: stöck; B: tricks
        if end_mode == "end_of_hand":
            with pytest.raises(InvalidEntry, match="team A reaches the target"):
                sheet.add({**hand, "first_out": 1})
            sheet.add(hand)
            assert sheet.winner == 0 and sheet.decided_at == (310, 274)
        else:  # the stöck may have been shown after B's tricks: the table says
            with pytest.raises(InvalidEntry, match="reach the target") as asked:
                sheet.add(hand)
            assert asked.value.field == "first_out"
            sheet.add({**hand, "first_out": 1})
            assert sheet.winner == 1


def test_weis_that_reach_the_target_count_before_any_card_points():
    """In ``immediate`` the weis are credited as the first trick is complete, before its card
    points: a team its weis alone take to the target wins over one that needs tricks, and
    the sheet does not ask (a different answer is refused)."""
    sheet = ScoreSheet(Rules.make(target=300))
    sheet.add({"contract": "D", "points": 140, "weis": [[100], []]})  # 240 : 17
    sheet.add({"contract": "D", "points": 0, "weis": [[], [100]]})  # 240 : 274
    hand = {"contract": "D", "points": 100, "weis": [[], [50]]}  # A: tricks; B: weis
    with pytest.raises(InvalidEntry, match="team B reaches the target"):
        sheet.add({**hand, "first_out": 0})
    sheet.add(hand)
    assert sheet.winner == 1 and sheet.decided_at == (240, 324)
    # weis counted after the card points (stoeck,tricks,weis): the table says
    after = ScoreSheet(Rules.make(target=300, end_order="stoeck,tricks,weis"))
    after.add({"contract": "D", "points": 140, "weis": [[100], []]})
    after.add({"contract": "D", "points": 0, "weis": [[], [100]]})
    with pytest.raises(InvalidEntry, match="reach the target") as asked:
        after.add(hand)
    assert asked.value.field == "first_out"


def test_a_refused_deletion_names_the_hands_as_the_sheet_shows_them():
    sheet = ScoreSheet(Rules.make(target=300))
    sheet.add({"contract": "D", "points": 140, "weis": [[100], []]})  # 240 : 17
    sheet.add({"contract": "D", "points": 0, "weis": [[], [100]]})  # 240 : 274
    sheet.add({"contract": "D", "points": 100, "first_out": 1})  # 340 : 331, B said first
    with pytest.raises(InvalidEntry, match="in hand 3 team A reaches the target"):
        sheet.delete(2)  # without it, A alone reaches the target in the hand now third
    assert len(sheet.hands) == 3 and sheet.winner == 1


def test_weis_written_out_in_words_and_refused_in_the_scorer_s_language():
    sheet = ScoreSheet(Rules.preset("schieber-2500"))
    sheet.add({"contract": "Rosen", "points": 98, "weis": [["Rosen 6 Rosen 7 Rosen 8"], []]})
    assert sheet.hands[0].weis[0][0].points == 20
    assert parse_cards("dame de cœur, roi de cœur") == parse_cards("HQ HK")
    with pytest.raises(InvalidEntry) as refused:
        sheet.add({"contract": "H", "points": 10, "weis": [["Rosen 6 Rosen 7 Rosen 9"], []]})
    assert refused.value.said("de").startswith("„Rosen 6 Rosen 7 Rosen 9“: ein Weis sind")
    with pytest.raises(InvalidEntry) as unread:
        sheet.add({"contract": "H", "points": 10, "weis": [["Rosen sechs Rosen"], []]})
    assert "Leerzeichen" in unread.value.said("de") and len(sheet.hands) == 1


# --- JSON ------------------------------------------------------------------------------------


def test_json_round_trip():
    sheet = ScoreSheet(Rules.preset("schieber-2500"), name="Vendredi", teams=("Nous", "Eux"))
    sheet.add({"contract": "Rosen", "points": 98, "weis": [["♦6 ♦7 ♦8 ♦9", 20], []],
               "stoeck": 0})  # fmt: skip
    sheet.add({"contract": "O", "chooser": 1, "match": 1})
    again = ScoreSheet.from_json(sheet.to_json())
    assert again.to_dict() == sheet.to_dict()
    assert again.summary() == sheet.summary()
    assert again.rules == sheet.rules
    assert again.teams == ("Nous", "Eux")
    with pytest.raises(InvalidEntry, match="not a score sheet"):
        ScoreSheet.from_json('{"hands": []}')
    with pytest.raises(InvalidEntry, match="not valid JSON"):
        ScoreSheet.from_json("{")
    broken = sheet.to_dict()
    broken["hands"][0]["points"] = 200
    with pytest.raises(InvalidEntry, match="from 0 to 157"):
        ScoreSheet.from_dict(broken)


# --- the Schneider the blocks cannot tell ------------------------------------------------------

# RULES.md §8, target 1119 under the `current` grid: after three hands A 495, B 744 (B over
# half the target, 560: its Bergpreis). B wins in an Undenufe hand (×4).
BEFORE_THE_LAST = [
    {"contract": "U", "points": 60, "team": 0},  # 240 : 388
    {"contract": "S", "points": 100, "team": 0},  # 440 : 502
    {"contract": "D", "points": 55, "team": 0, "weis": [[], [100, 20, 20]]},  # 495 : 744
]


def sheet_before_the_last(end_mode):
    rules = Rules.make(target=1119, multipliers="current", end_mode=end_mode)
    sheet = ScoreSheet(rules, BEFORE_THE_LAST)
    assert sheet.totals == (495, 744) and sheet.bergpreis == 1 and sheet.winner == -1
    return sheet


@pytest.mark.parametrize("end_mode", ["end_of_hand", "immediate"])
@pytest.mark.parametrize(
    ("a_points", "said", "striche_b"),
    [
        # A makes 57 (228): 495 before, 723 after — the sheet cannot tell, the scorer says
        (57, True, 5),  # Sieg 2 + Bergpreis 1 + Schneider 2
        (57, False, 3),
        (57, None, "ask"),
        # A makes 10 (40): at most 535 < 560 — Schneider whatever the order of the tricks
        (10, None, 5),
        (10, True, 5),
        (10, False, "refuse"),
    ],
)
def test_schneider_asked_when_the_blocks_cannot_tell(end_mode, a_points, said, striche_b):
    sheet = sheet_before_the_last(end_mode)
    last = {"contract": "U", "points": a_points, "team": 0, "schneider": said}
    if striche_b in ("ask", "refuse"):
        before = sheet.to_json()
        with pytest.raises(InvalidEntry, match="Schneider") as refused:
            sheet.add(last)
        # not said: the sheet asks; said wrongly: it says why, asking nothing — at that field
        asked = "ask_schneider" if said is None else "schneider_is"  # said no: it is Schneider
        assert (refused.value.key, refused.value.field) == (asked, "schneider")
        assert sheet.to_json() == before
        return
    sheet.add(last)
    assert sheet.winner == 1 and sheet.striche == (0, striche_b)
    assert sheet.marks["schneider"] == (0, 2 if striche_b == 5 else 0)
    again = ScoreSheet.from_json(sheet.to_json())
    assert again.striche == sheet.striche and again.hands[-1].schneider == said


def test_schneider_not_asked_where_it_is_off_or_the_losers_were_over_half():
    rules = Rules.make(target=1119, multipliers="current", end_mode="end_of_hand",
                       striche={"schneider": 0})  # fmt: skip
    sheet = ScoreSheet(rules, BEFORE_THE_LAST)
    sheet.add({"contract": "U", "points": 57, "team": 0})
    assert sheet.winner == 1 and sheet.striche == (0, 3)
    # A over half before the last hand: no Schneider, nothing to ask
    sheet = sheet_before_the_last("end_of_hand")
    sheet.replace(1, {"contract": "U", "points": 80, "team": 0})  # 320 + 200 + 55 = 575 : 664
    sheet.add({"contract": "U", "points": 40, "team": 0})  # B 664 + 468 = 1132
    assert sheet.winner == 1 and sheet.marks["schneider"] == (0, 0)
    with pytest.raises(InvalidEntry, match="does not end the game"):
        ScoreSheet(rules, [{"contract": "D", "points": 80, "schneider": True}])
    with pytest.raises(InvalidEntry, match="true, false"):
        ScoreSheet(rules, [{"contract": "D", "points": 80, "schneider": "yes"}])


# --- against the engine ----------------------------------------------------------------------

RULE_SETS = [
    Rules.preset("romand", end_mode="end_of_hand"),
    Rules.preset("jasvel"),
    Rules.preset("schieber-2500", end_mode="end_of_hand", target=1500),
    Rules.preset("pique-double", end_mode="end_of_hand", end_order="stoeck,tricks,weis"),
    Rules.preset("geneve-500", end_mode="end_of_hand", kreuzweis=False, big_sequences=False),
    Rules.preset("romand", end_mode="end_of_hand", pique_double="choice", target=700),
    Rules.preset("romand"),
    Rules.preset("schieber-2500", target=1500),
    Rules.preset("geneve-500", end_order="weis,stoeck,tricks"),
]


def random_game(rules: Rules, seed: int) -> Game:
    rng = Random(seed)
    game = Game(rules)
    while not game.is_over:
        if game.hand is None or game.hand.is_over:
            game.deal(rng)
            continue
        actions = [a for a in game.legal_actions() if not isinstance(a, Thank)]
        game.apply(rng.choice(actions))
    return game


def as_written(hand: Hand) -> dict[str, object]:
    """What a scorer writes down for a hand played out."""
    score = hand.score()
    entry: dict[str, object] = {
        "contract": hand.contract,
        "double": hand.double,
        "chooser": team_of(hand.contract_seat),
    }
    if score.match[0] or score.match[1]:
        entry["match"] = 0 if score.match[0] else 1
    else:
        counted = hand.dealer & 1  # whichever pile the table happens to count
        entry["team"] = counted
        entry["points"] = score.tricks[counted]
    weis: list[list[object]] = [[], []]
    if hand.weis_team >= 0:
        for seat in (hand.weis_team, hand.weis_team + 2):
            for w in hand.declared[seat]:
                # the scorer writes some weis by their cards, some by their value
                weis[hand.weis_team].append(w if w.cards & 1 or w.points > 50 else w.points)
    entry["weis"] = weis
    if score.stoeck[0] or score.stoeck[1]:
        entry["stoeck"] = 0 if score.stoeck[0] else 1
    return entry


def crosses(before, after, threshold, team):
    return before[team] < threshold <= after[team]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32 - 1))
def test_the_calculator_writes_the_engines_games(rules, seed):
    game = random_game(rules, seed)
    sheet = ScoreSheet(rules)
    half = rules.half_target
    totals = (0, 0)
    immediate = rules.end_mode == "immediate"
    for i, hand in enumerate(game.hands):
        last = i == len(game.hands) - 1
        if last and not hand.is_over:
            assert immediate  # the game ended in the middle of this hand
            break
        entry = as_written(hand)
        after = (totals[0] + hand.score().total(0), totals[1] + hand.score().total(1))
        if all(crosses(totals, after, rules.target, t) for t in (0, 1)):
            entry["first_out"] = game.winner  # the table saw who got there first
        if all(crosses(totals, after, half, t) for t in (0, 1)):
            entry["berg_first"] = game.bergpreis
        try:
            result = sheet.add(entry)
        except InvalidEntry as e:
            # the losers' points when the winners went out: the table saw it, the sheet asks
            assert last and e.field == "schneider", e
            entry["schneider"] = game.decided_at[1 - game.winner] < half
            result = sheet.add(entry)
        assert result.score == hand.score()  # every block, the factor
        assert result.totals == after
        totals = after
        if not last:
            assert sheet.winner == -1
            assert game.hands[i + 1].totals_before == sheet.totals
    if not game.hand.is_over:
        assert sheet.winner == -1
        return
    assert sheet.winner == game.winner
    assert sheet.decided_in == len(game.hands)
    assert sheet.bergpreis == game.bergpreis
    if not immediate:
        assert sheet.totals == tuple(game.totals)
    lose = 1 - game.winner
    assert sheet.decided_at[game.winner] >= rules.target
    marks = sheet.marks
    assert sheet.striche == tuple(game.striche)
    assert marks["schneider"][game.winner] == (
        rules.striche.schneider if game.decided_at[lose] < half else 0
    )
    assert sum(marks["sieg"]) == rules.striche.sieg


def test_the_property_covers_every_end_mode():
    """The examples above include both end modes and games that end mid-hand."""
    modes = {r.end_mode for r in RULE_SETS}
    assert modes == {"immediate", "end_of_hand"}
    cut = [random_game(Rules.preset("romand"), s).hand.is_over for s in range(6)]
    assert not all(cut)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = ["contract", "chooser", "points", "team", "match", "weis", "stoeck", "double",
          "first_out", "berg_first", "schneider"]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(
    hand=st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=6)
    | st.fixed_dictionaries({"contract": st.sampled_from("DHSCOU"), "weis": JSON})
    | JSON
)
def test_any_json_is_written_or_refused_with_a_message(hand):
    sheet = ScoreSheet()
    sheet.add({"contract": "D", "points": 80})
    before = sheet.to_json()
    try:
        sheet.add(hand)
    except InvalidEntry as e:
        assert str(e)
        assert sheet.to_json() == before
    else:
        assert len(sheet.hands) == 2
        assert sum(sheet.results[1].score.tricks) == 157


@settings(max_examples=60, deadline=None)
@given(
    options=st.dictionaries(st.sampled_from(sorted(Rules().to_dict())), JSON, max_size=3),
    name=JSON,
    teams=JSON,
)
def test_any_imported_sheet_is_read_or_refused_with_a_message(options, name, teams):
    d = {"format": "chibre-scoresheet", "rules": options, "name": name, "teams": teams,
         "hands": [{"contract": "H", "points": 60}]}  # fmt: skip
    try:
        sheet = ScoreSheet.from_dict(d)
    except InvalidEntry as e:
        assert str(e)
    else:
        assert sheet.totals[0] == 60 * sheet.rules.factor(1)


def test_a_passe_takes_its_hands_and_refuses_one_more():
    rules = Rules(target=MAX_TARGET)
    sheet = ScoreSheet(rules, (), "Passe", passe=2)
    for points in (100, 60):
        sheet.add({"contract": "hearts", "chooser": 0, "points": points, "team": 0})
    before = sheet.to_dict()
    with pytest.raises(InvalidEntry, match="the Passe of 2 hands is complete"):
        sheet.add({"contract": "hearts", "chooser": 1, "points": 80, "team": 0})
    assert sheet.to_dict() == before and len(sheet.hands) == 2
    sheet.replace(2, {"contract": "hearts", "chooser": 0, "points": 70, "team": 0})
    assert sheet.totals == (170, 144)  # a hand of the Passe may still be corrected
    again = ScoreSheet.from_json(sheet.to_json())
    assert again.passe == 2 and again.to_dict() == sheet.to_dict()
    with pytest.raises(InvalidEntry, match="has 3 hands written"):
        ScoreSheet(rules, [*sheet.hands, sheet.hands[0]], passe=2)
    with pytest.raises(InvalidEntry, match="a Passe is a number of hands"):
        ScoreSheet(rules, (), passe=-1)
    assert "passe" not in ScoreSheet(rules).to_dict()  # a game to the target, as before


def test_the_refusals_the_api_does_not_reach_are_said_in_every_language_at_their_field():
    """Points out of range (the page checks them itself, and the API's models before the
    sheet), the Passe's refusals (a tournament's sheet) and the teams' names."""
    rules = Rules(target=MAX_TARGET)
    passe = ScoreSheet(rules, (), "Passe", passe=1)
    passe.add({"contract": "H", "points": 100})
    cases = [
        (lambda: hand_entry(rules, contract="H", points=158), "points", (
            "trick points must be a whole number from 0 to 157, not 158 (a match is entered "
            "with Match)",
            "Stichpunkte sind eine ganze Zahl von 0 bis 157, nicht 158 (einen Match mit "
            "«Match» eintragen)",
            "les points des plis sont un nombre entier de 0 à 157, pas 158 (un match s’inscrit "
            "avec «\u00a0Match\u00a0»)",
        )),
        (lambda: passe.add({"contract": "S", "points": 1}), "passe", (
            "the Passe of 1 hand is complete: no hand after hand 1 (correct or strike a hand "
            "instead)",
            "die Passe von 1 Spiel ist voll: kein Spiel nach Spiel 1 (korrigiere oder streiche "
            "stattdessen ein Spiel)",
            "la Passe de 1 donne est complète\u00a0: pas de donne après la donne 1 (corrigez ou "
            "biffez plutôt une donne)",
        )),
        (lambda: ScoreSheet(rules, [*passe.hands] * 3, passe=2), "passe", (
            "the Passe of 2 hands has 3 hands written",
            "in der Passe von 2 Spielen sind 3 Spiele geschrieben",
            "la Passe de 2 donnes a 3 donnes écrites",
        )),
        (lambda: ScoreSheet(rules, (), passe=-1), "passe", (
            "a Passe is a number of hands (0: none), not -1",
            "eine Passe ist eine Anzahl Spiele (0: keine), nicht -1",
            "une Passe est un nombre de donnes (0\u00a0: aucune), pas -1",
        )),
        (lambda: ScoreSheet(rules, (), teams=("Wir", " ")), "teams", (
            "give the two teams' names",
            "gib die Namen der beiden Teams an",
            "donnez les noms des deux équipes",
        )),
    ]  # fmt: skip
    for refuse, field, said in cases:
        with pytest.raises(InvalidEntry) as refused:
            refuse()
        assert refused.value.field == field and str(refused.value) == said[0]
        assert [refused.value.said(lang) for lang in ("en", "de", "fr")] == list(said)
    assert len(passe.hands) == 1
