"""Declarations outside the card (``Declare``) and stöck shown before play — RULES.md §5, §7.

Weis declared after one's own card at the first trick, further weis until the lead to the
second trick, stöck shown with no card; and the counting order deciding when stöck shown
before play are credited. Every deal below was checked by hand.
"""

import pytest

from chibre.actions import Choose, Deal, Declare, Play
from chibre.cards import parse_card, parse_cards
from chibre.errors import IllegalAction
from chibre.events import GameWon, StoeckDeclared, WeisAdded, WeisAnnounced, WeisScored
from chibre.game import Game
from chibre.notation import (
    action_from_dict,
    action_to_dict,
    format_record,
    parse_action,
    parse_deal,
    parse_record,
)
from chibre.rules import Rules
from deals import EXAMPLE

D, H, S, C, OBE, UNDE = range(6)

# RULES.md §7 (the audit's example): seat 0 holds ♥K ♥Q, seat 1 a 50 in ♦ (♦6–♦9); ♥ trump.
STOECK_BEFORE_PLAY = "3:QT.KQ9.T86.6/AKJ9876.7.9./.AJT8.AK7.K9/.6.QJ.AQJT87"

# Obenabe, seat 0 leads: seat 0 ♦Q-♦A (20) and ♥6-♥9 (50); seat 1 ♦6-♦8 (20) and ♠J-♠A (50);
# seat 2 ♦9-♦J (20) and ♥10-♥A (100); seat 3 ♠6-♠10 (100) and ♣9-♣Q (50). Seat 0's ♦A
# takes the first trick (♦A ♦6 ♦9 ♣9).
WEIS_DEAL = "3:AKQ.9876..76/876..AKQJ.AK/JT9.AKQJT..8/..T9876.QJT9"


def cards(text):
    return parse_cards(text)


def manual(**options):
    return Rules.make(auto_weis=False, first_chooser="right_of_dealer", **options)


def weis_game(rules=None):
    game = Game(rules or manual())
    game.apply(parse_deal(WEIS_DEAL))
    game.apply(Choose(OBE), 0)
    return game


def names(events):
    return [type(e).__name__ for e in events]


# --- 1. stöck shown before play, and the counting order (immediate) --------------------------


@pytest.mark.parametrize("auto_stoeck", [True, False])
@pytest.mark.parametrize(
    ("order", "at_naming", "winner"),
    [
        ("stoeck,weis,tricks", True, 0),
        ("stoeck,tricks,weis", True, 0),
        ("weis,stoeck,tricks", False, 1),
    ],
)
def test_stoeck_before_play_are_credited_in_the_counting_order(
    order, at_naming, winner, auto_stoeck
):
    # Target 20. Stöck first: seat 0's stöck win as soon as they are shown. Weis first: they
    # are credited right after the first trick's weis, and seat 1's 50 reach the target first.
    rules = Rules.make(
        target=20, end_order=order, first_chooser="right_of_dealer", auto_stoeck=auto_stoeck
    )
    game = Game(rules)
    game.apply(parse_deal(STOECK_BEFORE_PLAY))
    events = game.apply(Choose(H))
    if not auto_stoeck:
        assert Declare((), True) in game.legal_actions(0)
        assert not any(isinstance(e, StoeckDeclared) for e in events)
        events = game.apply(Declare((), True), 0)
    assert StoeckDeclared(0, 20) in events
    assert game.is_over is at_naming
    assert game.observation(1).stoeck_seat == 0  # shown: public at once
    if not at_naming:
        assert game.totals == [0, 0]  # shown, not yet credited
        while not game.is_over:
            events = game.apply(game.legal_actions()[0])
        assert len(game.hand.tricks) == 1
        assert [(c.team, c.block) for c in game.written_credits()] == [(1, "weis")]
    assert game.winner == winner
    assert isinstance(events[-1], GameWon) and events[-1].team == winner


@pytest.mark.parametrize(
    ("order", "winner"), [("stoeck,weis,tricks", 0), ("weis,stoeck,tricks", 1)]
)
def test_manual_stoeck_shown_with_a_first_trick_card_follow_the_counting_order(order, winner):
    # Seat 0 shows its stöck with its first card (♦Q): in the weis-first order they are held
    # until the first trick's weis are credited.
    rules = Rules.make(
        target=20, end_order=order, first_chooser="right_of_dealer", auto_stoeck=False
    )
    game = Game(rules)
    game.apply(parse_deal(STOECK_BEFORE_PLAY))
    game.apply(Choose(H))
    game.apply(Play(parse_card("♦Q"), (), True), 0)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.winner == winner


# --- 3. weis declared outside the card -------------------------------------------------------


def test_weis_announced_after_ones_card_until_the_next_player_plays():
    game = weis_game()
    game.apply(Play(parse_card("♦A")), 0)
    game.apply(Play(parse_card("♦6")), 1)
    # seat 1 has played: its window is open until seat 2 plays; seat 0's has closed
    best = Declare((cards("♦6 ♦7 ♦8"), cards("♠J ♠Q ♠K ♠A")))
    assert game.legal_actions(1) == [best]
    assert game.observation(1).legal_actions == (best,)
    assert game.legal_actions(0) == [] and game.observation(3).legal_actions == ()
    with pytest.raises(IllegalAction, match="next player has played"):
        game.apply(Declare((cards("♦Q ♦K ♦A"),)), 0)
    with pytest.raises(IllegalAction, match="with your card"):
        game.apply(Declare((cards("♦9 ♦10 ♦J"),)), 2)
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(Declare((cards("♦Q ♦K ♦A"),)), 1)
    assert game.hand.announced == [0, 0, 0, 0] and len(game.record.entries) == 4
    events = game.apply(Declare((cards("♠J ♠Q ♠K ♠A"),)), 1)
    assert events == [WeisAnnounced(1, 50)]
    assert game.observation(2).announced == (0, 50, 0, 0)
    game.apply(Play(parse_card("♦9")), 2)
    events = game.apply(Play(parse_card("♣9")), 3)
    scored = next(e for e in events if isinstance(e, WeisScored))
    assert (scored.team, scored.points) == (1, 50)
    assert game.totals == [11, 50]  # the weis, then the trick (♦A 11, ♦6 ♦9 ♣9 nothing)


def test_weis_not_announced_in_time_is_lost():
    game = weis_game()
    for c in ("♦A", "♦6", "♦9"):
        game.apply(Play(parse_card(c)), game.hand.to_act)
    with pytest.raises(IllegalAction, match="next player has played"):
        game.apply(Declare((cards("♦6 ♦7 ♦8"),)), 1)
    game.apply(Play(parse_card("♣9")), 3)
    with pytest.raises(IllegalAction, match="announced nothing"):
        game.apply(Declare((cards("♦6 ♦7 ♦8"),)), 1)
    assert game.hand.weis_team == -1 and game.totals == [11, 0]


def test_further_weis_count_for_the_winning_team_until_the_lead_to_trick_two():
    game = weis_game()
    game.apply(Play(parse_card("♦A"), (cards("♦Q ♦K ♦A"),)), 0)
    for c in ("♦6", "♦9", "♣9"):
        game.apply(Play(parse_card(c)), game.hand.to_act)
    assert game.hand.weis_team == 0 and game.totals == [31, 0]
    assert game.current_player == 0  # seat 0 took the trick and leads the next
    further = Declare((cards("♥6 ♥7 ♥8 ♥9"),))
    assert further in game.legal_actions(0) and further in game.observation(0).legal_actions
    assert game.legal_actions(2) == []  # seat 2 announced nothing
    with pytest.raises(IllegalAction, match="announced nothing"):
        game.apply(Declare((cards("♥10 ♥J ♥Q ♥K ♥A"),)), 2)
    with pytest.raises(IllegalAction, match="share cards"):
        game.apply(Declare((cards("♦Q ♦K ♦A"),)), 0)
    events = game.apply(further, 0)
    assert events == [WeisAdded(0, 50, ((0, game.hand.declared[0][1]),))]
    assert game.totals == [81, 0]
    assert [w.points for _, w in game.observation(1).shown_weis] == [20, 50]  # shown to all
    game.apply(Play(parse_card("♦K")), 0)
    with pytest.raises(IllegalAction, match="too late"):
        game.apply(Declare((cards("♥6 ♥7 ♥8 ♥9"),)), 0)
    assert game.legal_actions(0) == []


def test_further_weis_do_not_enter_the_comparison_and_stay_private_when_they_lose():
    # Seat 0 announces ♦Q-♦A (20), seat 1 ♦6-♦8 (20), then adds ♠J-♠A (50) before seat 2
    # plays: the comparison is between the announcements (♦A beats ♦8), so team 0 scores.
    game = weis_game()
    game.apply(Play(parse_card("♦A"), (cards("♦Q ♦K ♦A"),)), 0)
    game.apply(Play(parse_card("♦6"), (cards("♦6 ♦7 ♦8"),)), 1)
    assert game.legal_actions(1) == [Declare((cards("♠J ♠Q ♠K ♠A"),))]
    events = game.apply(Declare((cards("♠J ♠Q ♠K ♠A"),)), 1)
    assert events == [WeisAdded(1, 0, ())]  # public: seat 1 declared more; nothing else
    game.apply(Play(parse_card("♦9")), 2)
    events = game.apply(Play(parse_card("♣9")), 3)
    scored = next(e for e in events if isinstance(e, WeisScored))
    assert (scored.team, scored.points) == (0, 20)
    assert game.hand.announced == [20, 20, 0, 0]
    seen_by_0 = game.observation(0)
    assert all(s % 2 == 0 for s, _ in seen_by_0.shown_weis)
    assert not seen_by_0.hand & cards("♠J ♠Q ♠K ♠A")


def test_the_fourth_player_announces_with_its_card_and_adds_before_the_lead():
    # The trick is gathered when its fourth card is played: the fourth player announces with
    # it; its further weis count when declared before the lead to the second trick.
    game = weis_game()
    for c in ("♦A", "♦6", "♦9"):
        game.apply(Play(parse_card(c)), game.hand.to_act)
    game.apply(Play(parse_card("♣9"), (cards("♠6 ♠7 ♠8 ♠9 ♠10"),)), 3)
    assert game.hand.weis_team == 1
    # weis are held from the deal: ♣9, already played, still belongs to ♣9-♣Q
    assert game.legal_actions(3) == [Declare((cards("♣9 ♣10 ♣J ♣Q"),))]
    with pytest.raises(IllegalAction, match="share cards"):
        game.apply(Declare((cards("♠8 ♠9 ♠10"),)), 3)
    events = game.apply(Declare((cards("♣9 ♣10 ♣J ♣Q"),)), 3)
    assert isinstance(events[0], WeisAdded) and events[0].points == 50
    assert game.totals == [11, 150]


def test_declarations_need_manual_weis_and_something_to_declare():
    game = Game(Rules(first_chooser="right_of_dealer"))
    game.apply(parse_deal(WEIS_DEAL))
    game.apply(Choose(OBE), 0)
    game.apply(Play(parse_card("♦A")), 0)
    with pytest.raises(IllegalAction, match="table declares weis"):
        game.apply(Declare((cards("♦Q ♦K ♦A"),)), 0)
    with pytest.raises(IllegalAction, match="nothing to declare"):
        game.apply(Declare(), 0)
    with pytest.raises(IllegalAction, match=r"0\.\.3"):
        game.apply(Declare((), True), 7)
    assert all(not isinstance(a, Declare) for s in range(4) for a in game.legal_actions(s))
    assert len(game.record.entries) == 3


def test_declarations_are_written_read_and_replayed():
    game = weis_game()
    game.apply(Play(parse_card("♦A")), 0)
    game.apply(Play(parse_card("♦6")), 1)
    declare = Declare((cards("♦6 ♦7 ♦8"),))
    game.apply(declare, 1)
    assert parse_action("+1[D6-D7-D8]") == (declare, 1)
    assert parse_action("+2*") == (Declare((), True), 2)
    assert action_from_dict(action_to_dict(1, declare)) == (1, declare)
    text = format_record(game.record)
    assert "+1[D6-D7-D8]" in text.split()
    replayed = parse_record(text)
    assert replayed.entries == game.record.entries
    assert replayed.replay()[0].hand.announced == [0, 20, 0, 0]


# --- 4. stöck declared with no card ----------------------------------------------------------

SPADES_TRICKS = "♣A ♣10 ♠K ♣K  ♥K ♠8 ♠9 ♥8  ♠A ♠6 ♠Q ♠10"


def test_stoeck_that_win_shown_by_a_seat_not_to_act():
    # RULES.md §7, target 90, ♠: after trick 1 team 0 has 75 (weis 50, trick 25); seat 2's
    # stöck (20) take it to 95 — seat 2 shows them while seat 1 is to act, with no card.
    game = Game(Rules(target=90, auto_stoeck=False))
    game.apply(Deal(EXAMPLE, 3))
    game.apply(Choose(S), 0)
    with pytest.raises(IllegalAction, match="second of king and queen"):
        game.apply(Declare((), True), 2)  # 0 + 20 < 90: not yet
    assert game.legal_actions(2) == []
    for c in ("♣A", "♣10", "♣6", "♣K", "♦6"):
        game.apply(Play(parse_card(c)), game.hand.to_act)
    assert game.current_player == 1 and game.totals == [75, 0]
    assert game.legal_actions(2) == [Declare((), True)]
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(Declare((), True), 1)
    events = game.apply(Declare((), True), 2)
    assert events[0] == StoeckDeclared(2, 20) and game.winner == 0 and game.totals == [95, 0]


def test_stoeck_declared_after_the_second_card_until_the_next_player_plays():
    game = Game(Rules(auto_stoeck=False))
    game.apply(Deal(EXAMPLE, 3))
    game.apply(Choose(S), 0)
    played = [parse_card(c) for c in SPADES_TRICKS.split()]
    for c in played[:11]:
        game.apply(Play(c), game.hand.to_act)  # ♠Q, seat 2's second stöck card, last
    assert game.legal_actions(2) == [Declare((), True)]
    late = Game(game.rules)
    for seat, entry in game.record.entries:
        late.apply(entry, None if seat < 0 else seat)
    assert game.apply(Declare((), True), 2) == [StoeckDeclared(2, 20)]
    assert game.hand.score().stoeck == (20, 0)
    with pytest.raises(IllegalAction, match="already declared"):
        game.apply(Declare((), True), 2)
    late.apply(Play(played[11]), 3)
    with pytest.raises(IllegalAction, match="second of king and queen"):
        late.apply(Declare((), True), 2)
    assert late.hand.score().stoeck == (0, 0)


def test_stoeck_declaration_refused_when_the_table_declares_them():
    game = Game(Rules(target=20, first_chooser="right_of_dealer"))
    game.apply(parse_deal(STOECK_BEFORE_PLAY))
    game.apply(Choose(D))  # ♦: seat 0 holds no stöck; nobody does in ♦ here
    with pytest.raises(IllegalAction, match="table declares stöck"):
        game.apply(Declare((), True), 0)


# --- what the others may know: observations and the sampler ----------------------------------


def test_computer_players_read_declarations_from_the_observation():
    # After seat 0's further weis (♥6-♥9) are shown, every deal seat 1 imagines gives them to
    # seat 0; seat 1's own further weis that lost stay unknown to seat 0's sampler.
    from random import Random

    from chibre.bots.sampling import sample_deals

    game = weis_game()
    game.apply(Play(parse_card("♦A"), (cards("♦Q ♦K ♦A"),)), 0)
    game.apply(Play(parse_card("♦6"), (cards("♦6 ♦7 ♦8"),)), 1)
    game.apply(Declare((cards("♠J ♠Q ♠K ♠A"),)), 1)
    for c in ("♦9", "♣9"):
        game.apply(Play(parse_card(c)), game.hand.to_act)
    game.apply(Declare((cards("♥6 ♥7 ♥8 ♥9"),)), 0)
    for deal in sample_deals(game.observation(1), Random(3), 30):
        assert deal[0] & cards("♥6 ♥7 ♥8 ♥9") == cards("♥6 ♥7 ♥8 ♥9")
    seen_from_0 = sample_deals(game.observation(0), Random(3), 30)
    assert any(d[1] & cards("♠J ♠Q ♠K ♠A") != cards("♠J ♠Q ♠K ♠A") for d in seen_from_0)
    assert game.observation(0).own_weis != game.observation(1).own_weis
    assert [w.points for w in game.observation(1).own_weis] == [20, 50]
