"""The game: end of game, counting order, claims, Striche, dealer rotation — RULES.md §2, §7, §8.
Every deal and every trick below was checked by hand against the rules."""

from random import Random

import pytest

from chibre.actions import Chibre, Choose, Deal, Play, Thank
from chibre.cards import cards_of, parse_card, parse_cards
from chibre.errors import GameOver, IllegalAction
from chibre.events import GameWon, Thanked
from chibre.game import CHANCE, Game
from chibre.hand import Hand
from chibre.rules import Rules, Striche
from deals import EXAMPLE, MATCH, MATCH_LEADS, STOECK_3

D, H, S, C, OBE, UNDE = range(6)

OBENABE_TRICK_1 = "♦6 ♦10 ♦K ♦A"

# ♠ trump, leader seat 0: the first three tricks of RULES.md §6's example as played in
# test_hand_scoring: 29 (team 0), 18 (team 0), then ♠A ♠6 ♠Q(stöck, seat 2) ♠10.
SPADES_TRICKS = "♣A ♣10 ♠K ♣K  ♥K ♠8 ♠9 ♥8  ♠A ♠6 ♠Q ♠10"


STRICHE = Striche(sieg=3, match=5, kontermatsch=7, bergpreis=11, schneider=13)


def cs(text):
    return [parse_card(t) for t in text.split()]


def play(game, text):
    """Play these cards, each by the seat to act."""
    for c in cs(text):
        game.apply(Play(c), game.hand.to_act)


def play_out(game, plans=None):
    """Finish the hand: seats with a plan play it in order, the others their lowest legal card."""
    plans = {seat: cs(text) for seat, text in (plans or {}).items()}
    while not game.is_over and not game.hand.is_over:
        seat = game.hand.to_act
        c = plans[seat].pop(0) if plans.get(seat) else cards_of(game.hand.legal_cards())[0]
        game.apply(Play(c), seat)
    assert all(not p for p in plans.values()) or game.is_over


def start(rules, deal=EXAMPLE, dealer=3):
    game = Game(rules)
    game.apply(Deal(deal, dealer))
    return game


# --- the counting order at one moment (immediate) --------------------------------------------


@pytest.mark.parametrize(
    ("order", "winner"),
    [("stoeck,weis,tricks", 0), ("weis,stoeck,tricks", 0), ("stoeck,tricks,weis", 1)],
)
def test_immediate_first_trick_order_decides(order, winner):
    # Target 25: at the end of trick 1 team 0 gets its weis (50) and team 1 the trick (25);
    # both reach the target at the same moment and the counting order decides.
    game = start(Rules(target=25, end_order=order))
    assert game.hand.chooser == 0
    game.apply(Choose(OBE), 0)
    play(game, "♦6 ♦10 ♦K")
    assert not game.is_over
    events = game.apply(Play(parse_card("♦A")), 3)
    assert game.winner == winner
    assert game.is_over
    assert any(isinstance(e, GameWon) and e.team == winner for e in events)
    assert game.current_player is None
    with pytest.raises(GameOver):
        game.apply(Play(parse_card("♦7")), 3)
    with pytest.raises(GameOver):
        game.apply(Deal(EXAMPLE, 0))


@pytest.mark.parametrize(
    ("order", "winner"),
    [("stoeck,weis,tricks", 0), ("weis,stoeck,tricks", 0), ("stoeck,tricks,weis", 1)],
)
def test_end_of_hand_order_decides(order, winner):
    game = start(Rules(target=25, end_mode="end_of_hand", end_order=order))
    game.apply(Choose(OBE), 0)
    play(game, OBENABE_TRICK_1)
    assert not game.is_over  # the hand is played out first
    play_out(game)
    assert game.hand.is_over
    assert game.winner == winner


def test_immediate_ends_mid_hand_at_the_stoeck():
    # ♠, target 100, the player declares: trick 1 → weis 50 then trick 29 (79), trick 2 → 18
    # (97); in trick 3 seat 2's ♠Q with the stöck: 117, team 0 wins before the trick is complete.
    game = start(Rules(target=100, auto_stoeck=False))
    game.apply(Choose(S), 0)
    cards = cs(SPADES_TRICKS)
    for c in cards[:10]:
        game.apply(Play(c), game.hand.to_act)
    assert not game.is_over
    assert game.totals == [97, 0]
    game.apply(Play(cards[10], stoeck=True), 2)
    assert game.winner == 0
    assert game.totals == [117, 0]
    # what the table wrote for the hand is what reached the totals, nothing after the moment
    assert sum(game.observation(0).hand_points) == sum(game.totals)
    with pytest.raises(GameOver):
        game.apply(Play(cards[11]), 3)


def test_immediate_table_shows_the_stoeck_as_soon_as_they_win():
    # Same hand, the table declaring: at 97 after trick 2 the stöck (20) take team 0 past 100,
    # so the table shows them then, before either card is played.
    game = start(Rules(target=100))
    game.apply(Choose(S), 0)
    cards = cs(SPADES_TRICKS)
    events = []
    for c in cards[:8]:
        events = game.apply(Play(c), game.hand.to_act)
    assert [type(e).__name__ for e in events][-3:] == ["TrickTaken", "StoeckDeclared", "GameWon"]
    assert game.winner == 0
    assert game.totals == [117, 0]


@pytest.mark.parametrize(
    ("order", "at_naming", "winner"),
    [
        ("stoeck,weis,tricks", True, 1),
        ("stoeck,tricks,weis", True, 1),
        ("weis,stoeck,tricks", False, 0),
    ],
)
def test_immediate_stoeck_shown_before_play_follow_the_counting_order(order, at_naming, winner):
    # Target 20: team 1's stöck reach the target. With stöck counted before the weis they are
    # credited as soon as the contract is named; under weis, stöck, tricks right after the
    # first trick's weis — and team 0's weis (50) reach the target first (RULES.md §7).
    game = start(Rules(target=20, end_order=order), STOECK_3)
    assert not game.is_over
    game.apply(Choose(S), 0)
    assert game.is_over is at_naming
    play_out(game)
    assert game.winner == winner


@pytest.mark.parametrize(
    ("order", "winner"),
    [("weis,stoeck,tricks", 0), ("stoeck,weis,tricks", 1), ("stoeck,tricks,weis", 1)],
)
def test_end_of_hand_earlier_block_wins(order, winner):
    # Same deal, `end_of_hand`: the hand is played out, then the blocks are counted: team 0's
    # weis (50) or team 1's stöck (20) come first, by the order, even though team 0 ends the
    # hand with far more.
    game = start(Rules(target=20, end_mode="end_of_hand", end_order=order), STOECK_3)
    game.apply(Choose(S), 0)
    assert not game.is_over
    play_out(game)
    assert game.winner == winner
    totals = game.hand.score().totals
    assert totals[0] > totals[1]


# --- claim = thank -------------------------------------------------------------------------------


def thank_game():
    # Target 30: after Obenabe trick 1, team 0 has its weis (50), team 1 the trick (25).
    game = start(Rules(target=30, claim="thank"))
    game.apply(Choose(OBE), 0)
    return game


def test_thank_no_automatic_end():
    game = thank_game()
    play(game, OBENABE_TRICK_1)
    assert game.totals == [50, 25]
    assert not game.is_over  # nobody has thanked yet
    assert Thank() in game.legal_actions()
    play(game, "♦J ♦9 ♦Q ♣8")  # trick 2 (seat 3 leads): the game goes on
    assert not game.is_over


@pytest.mark.parametrize("seat", [0, 2])
def test_correct_claim_wins(seat):
    game = thank_game()
    play(game, OBENABE_TRICK_1)
    events = game.apply(Thank(), seat)
    assert game.winner == 0
    assert Thanked(seat, True) in events
    with pytest.raises(GameOver):
        game.apply(Play(parse_card("♦J")), 3)


@pytest.mark.parametrize("seat", [1, 3])
def test_wrong_claim_loses(seat):
    game = thank_game()
    play(game, OBENABE_TRICK_1)
    events = game.apply(Thank(), seat)
    assert game.winner == 0
    assert Thanked(seat, False) in events


def test_claim_before_the_trick_is_complete_is_wrong():
    # Only completed tricks count: before trick 1 is gathered team 0 has nothing yet.
    game = thank_game()
    play(game, "♦6 ♦10 ♦K")
    game.apply(Thank(), 0)
    assert game.winner == 1


def test_claim_counts_completed_tricks_mid_trick():
    game = thank_game()
    play(game, OBENABE_TRICK_1)
    play(game, "♦J")  # trick 2 begun
    game.apply(Thank(), 2)
    assert game.winner == 0


def test_thank_needs_claim_thank():
    game = start(Rules(target=30))
    game.apply(Choose(OBE), 0)
    assert Thank() not in game.legal_actions()
    with pytest.raises(IllegalAction):
        game.apply(Thank(), 0)
    assert not game.is_over


# --- Striche -------------------------------------------------------------------------------------


def test_striche_match_bergpreis_schneider():
    rules = Rules(
        target=300, end_mode="end_of_hand", first_chooser="right_of_dealer", striche=STRICHE
    )
    game = start(rules, MATCH, dealer=3)
    assert game.hand.chooser == 0
    game.apply(Choose(S), 0)
    play_out(game, {0: MATCH_LEADS})
    assert all(t.winner == 0 for t in game.hand.tricks)
    assert game.hand.score().totals == (327, 0)
    assert game.winner == 0
    assert game.bergpreis == 0
    # sieg + match + Bergpreis + Schneider (team 1 never reached 150)
    assert game.striche == [3 + 5 + 11 + 13, 0]
    assert game.striche_kinds == (
        {"sieg": 3, "match": 5, "bergpreis": 11, "schneider": 13},
        {},
    )


def test_striche_kontermatsch():
    # Dealer 0: seat 1 (team 1) chooses ♠ and leads ♥6; team 0 takes all nine tricks.
    rules = Rules(target=300, first_chooser="right_of_dealer", striche=STRICHE)
    game = start(rules, MATCH, dealer=0)
    assert game.hand.chooser == 1
    game.apply(Choose(S), 1)
    play_out(game, {0: "♥A " + MATCH_LEADS.replace(" ♥A", ""), 1: "♥6"})
    assert all(t.winner == 0 for t in game.hand.tricks)
    assert game.hand.is_over
    assert game.winner == 0  # 227 before the match bonus, 327 with it
    assert game.striche == [3 + 7 + 11 + 13, 0]
    assert game.striche_kinds[0] == {"sieg": 3, "kontermatsch": 7, "bergpreis": 11, "schneider": 13}


def test_the_hand_as_written_leaves_out_what_came_after_the_decision():
    """Decided at the last trick, before its match bonus (immediate; 201 before it, 227 after):
    the hand's score as the table wrote it — what a summary shows — has no match; under
    end_of_hand it has."""
    for end_mode, match in (("immediate", 0), ("end_of_hand", 100)):
        rules = Rules(target=220, first_chooser="right_of_dealer", end_mode=end_mode)
        game = start(rules, MATCH, dealer=0)
        game.apply(Choose(S), 1)
        play_out(game, {0: "♥A " + MATCH_LEADS.replace(" ♥A", ""), 1: "♥6"})
        assert game.hand.is_over and game.winner == 0
        assert game.hand.score().match == (100, 0)  # made, in the hand itself
        written = game.written_score()
        assert written.match == (match, 0)
        assert written.tricks == game.hand.score().tricks
        before = game.hand.totals_before
        assert written.totals == (game.totals[0] - before[0], game.totals[1] - before[1])


def test_striche_default_counts():
    rules = Rules(target=300, end_mode="end_of_hand", first_chooser="right_of_dealer")
    game = start(rules, MATCH, dealer=3)
    game.apply(Choose(S), 0)
    play_out(game, {0: MATCH_LEADS})
    # win 2, match 1, Bergpreis 1, Schneider 2
    assert game.striche == [6, 0]


def test_bergpreis_to_the_loser_and_no_schneider():
    # Target 50 (half 25), tricks before weis: trick 1 takes team 1 to 25 (Bergpreis), then
    # team 0's weis take it to 50: team 0 wins; team 1 had reached half: no Schneider.
    game = start(Rules(target=50, end_order="stoeck,tricks,weis", striche=STRICHE))
    game.apply(Choose(OBE), 0)
    play(game, OBENABE_TRICK_1)
    assert game.winner == 0
    assert game.bergpreis == 1
    assert game.striche == [3, 11]


def test_bergpreis_and_schneider_to_the_winner():
    game = start(Rules(target=50, striche=STRICHE))
    game.apply(Choose(OBE), 0)
    play(game, OBENABE_TRICK_1)
    assert game.winner == 0
    assert game.bergpreis == 0
    assert game.striche == [3 + 11 + 13, 0]


def test_bergpreis_and_schneider_switched_off():
    game = start(Rules.make(target=50, striche={"sieg": 3, "bergpreis": 0, "schneider": 0}))
    game.apply(Choose(OBE), 0)
    play(game, OBENABE_TRICK_1)
    assert game.winner == 0
    assert game.striche == [3, 0]


def test_game_won_event_carries_striche():
    game = start(Rules(target=50, striche=STRICHE))
    game.apply(Choose(OBE), 0)
    play(game, "♦6 ♦10 ♦K")
    events = game.apply(Play(parse_card("♦A")), 3)
    won = [e for e in events if isinstance(e, GameWon)]
    assert len(won) == 1
    assert won[0].team == 0
    assert won[0].striche == (27, 0)


# --- dealing and choosing ------------------------------------------------------------------------


ROTATED = (EXAMPLE[2], EXAMPLE[3], EXAMPLE[0], EXAMPLE[1])  # ♦7 with seat 2, ♠6 with seat 3


@pytest.mark.parametrize(
    ("options", "dealer", "chooser"),
    [
        ({}, 0, 2),  # the holder of 7♦
        ({}, 1, 2),
        ({"first_chooser": "right_of_dealer"}, 0, 1),
        ({"first_chooser": "right_of_dealer"}, 3, 0),
        ({"first_chooser_card": "♠6"}, 0, 3),
        ({"first_chooser_card": "♣K"}, 2, 1),
    ],
)
def test_first_chooser(options, dealer, chooser):
    game = start(Rules.make(**options), ROTATED, dealer)
    assert game.hand.chooser == chooser
    assert game.hand.dealer == dealer
    assert game.current_player == chooser
    # the chooser leads the first trick
    game.apply(Choose(H), chooser)
    assert game.hand.to_act == chooser


def test_dealer_and_chooser_rotation():
    game = Game(Rules(target=10_000))
    assert game.current_player == CHANCE
    rng = Random(7)
    for n in range(6):
        game.deal(rng)
        hand = game.hand
        if n == 0:
            assert hand.dealt[hand.chooser] >> parse_card("♦7") & 1
        else:
            previous = game.hands[n - 1]
            assert hand.dealer == previous.chooser
            assert hand.chooser == (hand.dealer + 1) % 4
            assert hand.chooser == (previous.chooser + 1) % 4
        with pytest.raises(IllegalAction):  # the hand is not finished
            game.apply(Deal(EXAMPLE, hand.chooser))
        if n % 2:
            game.apply(Chibre(), hand.chooser)  # the partner names; the chooser still deals next
            game.apply(Choose(OBE), (hand.chooser + 2) % 4)
        else:
            game.apply(Choose(n % 6), hand.chooser)
        play_out(game)
        assert game.current_player == CHANCE
        assert game.next_dealer() == hand.chooser
    assert len(game.hands) == 6
    assert not game.is_over


def test_wrong_dealer_refused():
    game = start(Rules(target=10_000), EXAMPLE, dealer=3)
    game.apply(Choose(OBE), 0)
    play_out(game)
    with pytest.raises(IllegalAction):
        game.apply(Deal(EXAMPLE, 3))
    with pytest.raises(IllegalAction):
        game.apply(Deal(EXAMPLE, 1))
    assert len(game.hands) == 1
    game.apply(Deal(EXAMPLE, 0))  # the previous chooser deals
    assert game.hand.dealer == 0 and game.hand.chooser == 1


def test_bad_deal_refused():
    game = Game(Rules())
    with pytest.raises(IllegalAction):
        game.apply(Deal((EXAMPLE[0], EXAMPLE[0], EXAMPLE[2], EXAMPLE[3]), 0))
    with pytest.raises(IllegalAction):
        game.apply(Deal((EXAMPLE[0], EXAMPLE[1], EXAMPLE[2], EXAMPLE[3] & (EXAMPLE[3] - 1)), 0))
    with pytest.raises(IllegalAction):
        game.apply(Deal(EXAMPLE, 4))
    assert game.hands == []


def test_totals_carry_over_hands():
    game = start(Rules(target=10_000))
    game.apply(Choose(S), 0)
    play_out(game)
    first = tuple(game.totals)
    assert first == game.hand.score().totals
    game.apply(Deal(ROTATED, 0))
    game.apply(Choose(OBE), game.hand.chooser)
    play_out(game)
    second = game.hand.score().totals
    assert tuple(game.totals) == (first[0] + second[0], first[1] + second[1])


def test_record_replays():
    game = start(Rules(target=400, multipliers="current"))
    game.apply(Choose(S), 0)
    play_out(game)
    replayed, _ = game.record.replay()
    assert replayed.totals == game.totals
    assert replayed.winner == game.winner
    assert replayed.record.rules == game.rules


# --- stöck shown early when they win (immediate) -----------------------------------------------


def test_stoeck_shown_before_second_card_when_they_win():
    # RULES.md §7: in `immediate`, stöck that would take a team to the target may be shown at
    # any time, even before either card is played. Target 90, ♠ trump: trick 1 "♣A ♣10 ♣6 ♣K"
    # goes to seat 0 (11 + 10 + 0 + 4 = 25) and team 0's weis (50) count: 75. In trick 2
    # seat 2 trumps ♦ with ♠K — the first of its ♠K ♠Q — and shows the stöck: 95 ≥ 90.
    game = start(Rules(target=90, auto_stoeck=False))
    game.apply(Choose(S), 0)
    play(game, "♣A ♣10 ♣6 ♣K ♦6 ♦10")
    assert game.totals == [75, 0]
    game.apply(Play(parse_card("♠K"), stoeck=True), 2)
    assert game.winner == 0
    assert game.totals[0] == 95


def test_stoeck_shown_with_first_card_from_earlier_hands():
    # The same when the points come from earlier hands: 75 before the hand, target 90.
    hand = Hand(Rules(target=90, auto_stoeck=False), 3, 0, EXAMPLE, totals_before=(75, 0))
    hand.apply(Choose(S))
    for c in cs("♣A ♣10"):
        hand.play(c)
    hand.apply(Play(parse_card("♠K"), stoeck=True), 2)
    assert hand.score().stoeck == (20, 0)


# --- stöck shown at the first trick's moment, and what the table has written -------------------


def test_table_shows_stoeck_inside_the_first_trick_moment():
    # Seat 0 holds ♥K ♥Q and ♠6-♠8 (20) and names ♥; nobody else has a weis. From 960 : 990,
    # seat 3 takes trick 1 (♦6 ♦8 ♦9 ♦10: 10 points), which would take team 1 to 1000 — but
    # in the counting order stöck, weis, tricks the weis (980) and then the stöck the table
    # shows as soon as they win (1000) come first: team 0 reaches the target first.
    seat0 = parse_cards("♥K ♥Q ♠6 ♠7 ♠8 ♦6 ♦7 ♣6 ♣9")
    others = [c for c in range(36) if not seat0 >> c & 1]
    deal = (seat0, *(sum(1 << c for c in others[i::3]) for i in range(3)))
    hand = Hand(Rules(), 3, 0, deal, totals_before=(960, 990))
    hand.choose(H)
    while len(hand.tricks) == 0:
        hand.play(cards_of(hand.legal_cards())[0])
    first = hand.tricks[0]
    assert first.winner == 3 and first.points == 10
    assert [(c.team, c.block, c.points) for c in hand.credits] == [
        (0, "weis", 20),
        (0, "stoeck", 20),
        (1, "tricks", 10),
    ]
    totals, winner = [960, 990], -1
    for credit in hand.credits:
        totals[credit.team] += credit.points
        if totals[credit.team] >= 1000:
            winner = credit.team
            break
    assert winner == 0


def test_thank_before_the_first_deal_is_refused():
    game = Game(Rules(claim="thank"))
    with pytest.raises(IllegalAction, match="first deal"):
        game.apply(Thank(), 1)
    with pytest.raises(IllegalAction, match=r"0\.\.3"):
        game.apply(Thank(), "1")
    assert not game.is_over and game.record.entries == []


def test_a_refused_deal_draws_nothing_from_the_generator():
    rng = Random(1)
    game = Game(Rules())
    game.deal(rng)
    state = rng.getstate()
    with pytest.raises(IllegalAction):
        game.deal(rng)
    assert rng.getstate() == state


# --- Schneider at the winning moment; the 7♦ holder may chibre; ♠ double after a chibre -------


def test_schneider_is_measured_when_the_winner_reaches_the_target():
    # end_of_hand, order weis, stöck, tricks, target 300: team 1's weis (370) win in the weis
    # block while team 0 has 0 — Schneider, although team 0 ends the hand with 277 (match).
    from deals import MATCHED_LEADS, MATCHED_WITH_WEIS

    rules = Rules(
        target=300,
        end_mode="end_of_hand",
        end_order="weis,stoeck,tricks",
        first_chooser="right_of_dealer",
        striche=STRICHE,
    )
    game = start(rules, MATCHED_WITH_WEIS, dealer=3)
    game.apply(Choose(S), 0)
    play_out(game, {0: MATCHED_LEADS})
    assert game.winner == 1
    assert game.decided_at == (0, 370)
    assert game.totals == [277, 370]
    assert game.bergpreis == 1  # half the target (150) reached first in the weis block
    # team 0: its match; team 1: the win, the Bergpreis and the Schneider
    assert game.striche == [STRICHE.match, STRICHE.sieg + STRICHE.bergpreis + STRICHE.schneider]


def test_the_holder_of_the_seven_may_chibre():
    game = start(Rules(), EXAMPLE, dealer=1)  # seat 0 holds the 7♦
    assert game.hand.chooser == 0
    game.apply(Chibre(), 0)
    assert game.current_player == 2
    game.apply(Choose(H), 2)
    assert game.hand.to_act == 0  # the chooser leads, not the partner who named the trump


def test_spades_double_named_by_the_partner_after_a_chibre():
    from chibre.notation import format_record, parse_record

    game = start(Rules.make(pique_double="choice"), EXAMPLE, dealer=1)
    game.apply(Chibre(), 0)
    game.apply(Choose(S, True), 2)
    assert game.hand.factor == 2 and game.hand.double and game.hand.contract_seat == 2
    text = format_record(game.record)
    assert "> =S2" in text
    assert parse_record(text).entries == game.record.entries
