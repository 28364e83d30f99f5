"""One hand played through ``Hand``: contract, stöck, weis, tricks, match, multipliers —
RULES.md §2, §5, §6. Every deal and every trick below was checked by hand against the rules."""

from random import Random

import pytest

from chibre.actions import Chibre, Choose, Play
from chibre.cards import cards_of, parse_card, parse_cards
from chibre.deal import deal_cards
from chibre.errors import GameOver, IllegalAction, IllegalCard, NotYourTurn
from chibre.events import WeisAnnounced, WeisScored
from chibre.hand import Hand, Phase
from chibre.rules import Rules
from deals import EXAMPLE, MATCH, MATCH_LEADS, STOECK_3

D, H, S, C, OBE, UNDE = range(6)

# (leader, cards in play order, winner, card points [+5 on the last]), ♠ trump.
EXAMPLE_TRICKS = [
    (0, "♣A ♣10 ♠K ♣K", 2, 11 + 10 + 4 + 4),  # seat 2 trumps although able to follow
    (2, "♥K ♠8 ♠9 ♥8", 0, 4 + 0 + 14 + 0),  # nell overtrumps
    (0, "♠A ♠6 ♠Q ♠10", 0, 11 + 0 + 3 + 10),  # ♠Q: seat 2's stöck
    (0, "♦8 ♦10 ♦K ♦A", 3, 0 + 10 + 4 + 11),
    (3, "♦J ♠J ♦Q ♣8", 0, 2 + 20 + 3 + 0),
    (0, "♦6 ♥7 ♣J ♣9", 0, 0 + 0 + 2 + 0),
    (0, "♥A ♠7 ♥J ♥Q", 1, 11 + 0 + 2 + 3),
    (1, "♥6 ♥9 ♥10 ♦7", 3, 0 + 0 + 10 + 0),
    (3, "♣7 ♦9 ♣Q ♣6", 1, 0 + 0 + 3 + 0 + 5),
]


# The same plan, with the stöck (♠Q ♠K) in seat 1's hand (team 1) instead.
MATCH_STOECK_1 = (
    parse_cards("♠6 ♠7 ♠8 ♠9 ♠J ♠A ♦A ♥A ♦K"),
    parse_cards("♥6 ♥7 ♥8 ♠Q ♠K ♦6 ♦8 ♣6 ♣8"),
    parse_cards("♠10 ♦7 ♦J ♥9 ♥J ♣7 ♣9 ♣J ♣K"),
    parse_cards("♦9 ♦10 ♦Q ♥10 ♥Q ♥K ♣Q ♣10 ♣A"),
)


# EXAMPLE with seat 2 holding ♥J ♥Q ♥K (20) too: seats 2 and 3 swap ♥9 / ♥Q.
WEIS_TEAM = (
    EXAMPLE[0],
    EXAMPLE[1],
    parse_cards("♥Q ♥J ♥K ♣6 ♣8 ♣J ♠Q ♠K ♦K"),
    parse_cards("♥10 ♥9 ♣7 ♣9 ♣K ♠8 ♠10 ♦J ♦A"),
)

FULL = (1 << 36) - 1


def cs(text):
    return [parse_card(t) for t in text.split()]


def lowest(hand):
    return cards_of(hand.legal_cards())[0]


def play_lowest(hand):
    while not hand.is_over:
        hand.play(lowest(hand))


def play_plan(hand, seat, plan):
    """``seat`` plays the cards of ``plan`` in order, the others their lowest legal card."""
    plan = cs(plan)
    while not hand.is_over:
        hand.play(plan.pop(0) if hand.to_act == seat else lowest(hand))
    assert plan == []


def play_tricks(hand, tricks):
    for leader, cards, winner, pts in tricks:
        assert hand.to_act == leader
        for c in cs(cards):
            hand.play(c)
        t = hand.tricks[-1]
        assert (t.leader, t.winner, t.points) == (leader, winner, pts)


def new_hand(rules=None, deal=EXAMPLE, dealer=3, chooser=0):
    return Hand(rules or Rules(), dealer, chooser, deal)


@pytest.mark.parametrize(
    "deal", [EXAMPLE, MATCH, MATCH_STOECK_1, STOECK_3, WEIS_TEAM], ids=lambda d: hex(d[0])
)
def test_deals_are_complete(deal):
    assert sum(deal) == FULL
    assert all(h.bit_count() == 9 for h in deal)
    for i in range(4):
        for j in range(i):
            assert deal[i] & deal[j] == 0


def test_example_tricks_add_up():
    assert sum(t[3] for t in EXAMPLE_TRICKS) == 157
    assert sum(t[3] for t in EXAMPLE_TRICKS if t[2] % 2 == 0) == 98
    assert sum(t[3] for t in EXAMPLE_TRICKS if t[2] % 2 == 1) == 59


# --- the worked example ------------------------------------------------------------------------

DOUBLE_SPADES = [
    pytest.param(Rules(multipliers="french"), False, id="french-grid"),
    pytest.param(Rules(multipliers=(1, 1, 2, 1, 1, 1)), False, id="custom-grid"),
    pytest.param(Rules.preset("pique-double"), False, id="pique-double-always"),
    pytest.param(Rules.preset("pique-double", pique_double="choice"), True, id="pique-choice"),
]


@pytest.mark.parametrize(("rules", "double"), DOUBLE_SPADES)
def test_worked_example(rules, double):
    hand = new_hand(rules)
    hand.apply(Choose(S, double))
    assert hand.factor == 2
    play_tricks(hand, EXAMPLE_TRICKS)
    assert hand.is_over
    sc = hand.score()
    assert sc.factor == 2
    assert sc.stoeck == (20, 0)
    assert sc.weis == (50, 0)  # A's 50 beats B's 20: B scores no weis
    assert sc.tricks == (98, 59)
    assert sc.match == (0, 0)
    assert sc.totals == ((98 + 50 + 20) * 2, 59 * 2) == (336, 118)
    assert hand.weis_team == 0
    assert hand.announced == [50, 20, 0, 0]


@pytest.mark.parametrize(("rules", "double"), DOUBLE_SPADES)
def test_worked_example_with_match(rules, double):
    hand = new_hand(rules, MATCH)
    hand.apply(Choose(S, double))
    play_plan(hand, 0, MATCH_LEADS)
    assert all(t.winner == 0 for t in hand.tricks)
    sc = hand.score()
    assert sc.stoeck == (20, 0)
    assert sc.weis == (50, 0)
    assert sc.tricks == (157, 0)
    assert sc.match == (100, 0)
    assert sc.totals == ((257 + 50 + 20) * 2, 0) == (654, 0)


def test_credits_after_factor_add_up_to_totals():
    hand = new_hand(Rules(multipliers="french"))
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS)
    for team in (0, 1):
        assert sum(c.points for c in hand.credits if c.team == team) == hand.score().totals[team]


# --- tricks, last trick, match -------------------------------------------------------------------


@pytest.mark.parametrize("contract", range(6))
def test_trick_points_sum_to_157(contract):
    rng = Random(contract)
    for _ in range(5):
        deal = deal_cards(rng, 0)
        hand = Hand(Rules(weis=False, stoeck=False), 0, 1, deal.hands)
        hand.apply(Choose(contract))
        play_lowest(hand)
        sc = hand.score()
        assert len(hand.tricks) == 9
        assert sum(t.points for t in hand.tricks) == 157
        if sc.match == (0, 0):
            assert sc.tricks[0] + sc.tricks[1] == 157
        else:
            assert sorted(sc.tricks[t] + sc.match[t] for t in (0, 1)) == [0, 257]
        assert sc.stoeck == sc.weis == (0, 0)


def test_last_trick_five():
    hand = new_hand()
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS)
    last = hand.tricks[-1]
    assert last.points == 3 + 5
    assert hand.score().tricks == (98, 59)


def test_match_257():
    hand = new_hand(Rules(), MATCH)
    hand.apply(Choose(S))
    play_plan(hand, 0, MATCH_LEADS)
    sc = hand.score()
    assert sc.tricks[0] + sc.match[0] == 257
    assert sc.totals == (257 + 50 + 20, 0)


def test_winner_leads_next_trick():
    hand = new_hand()
    hand.apply(Choose(S))
    for leader, cards, winner, _ in EXAMPLE_TRICKS:
        assert hand.to_act == hand.leader == leader
        for c in cs(cards):
            hand.play(c)
        if not hand.is_over:
            assert hand.to_act == winner


# --- stöck ---------------------------------------------------------------------------------------


def test_stoeck_with_weis_loser():
    # Team 1 loses the weis comparison (50 vs 20) but its stöck count.
    hand = new_hand(Rules(), STOECK_3)
    hand.apply(Choose(S))
    assert hand.stoeck_seat == 3
    play_lowest(hand)
    sc = hand.score()
    assert sc.weis == (50, 0)
    assert sc.stoeck == (0, 20)


def test_stoeck_stay_when_other_team_makes_match():
    hand = new_hand(Rules(), MATCH_STOECK_1)
    hand.apply(Choose(S))
    play_plan(hand, 0, MATCH_LEADS)
    sc = hand.score()
    assert all(t.winner == 0 for t in hand.tricks)
    assert sc.match == (100, 0)
    assert sc.stoeck == (0, 20)  # team 1 took no trick, still has its stöck
    assert sc.totals == (157 + 100 + 50, 20)


def test_stoeck_declared_with_second_card():
    hand = new_hand()
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS[:1])  # ♠K played
    assert not hand.stoeck_declared
    assert all(c.block != "stoeck" for c in hand.credits)
    play_tricks(hand, EXAMPLE_TRICKS[1:3])  # ♠Q played in trick 3
    assert hand.stoeck_declared
    assert [c for c in hand.credits if c.block == "stoeck"] == [(0, "stoeck", 20)]


@pytest.mark.parametrize("contract", [D, H, C, OBE, UNDE])
def test_no_stoeck_without_king_and_queen_of_trump(contract):
    # Seat 2's ♠K ♠Q only count with ♠ trump; never in Obenabe / Undenufe.
    hand = new_hand()
    hand.apply(Choose(contract))
    assert hand.stoeck_seat == -1
    play_lowest(hand)
    assert hand.score().stoeck == (0, 0)


def test_stoeck_only_in_trump_contracts():
    # ♥K ♥Q in one hand: stöck with ♥ trump, none in Obenabe / Undenufe.
    deal = (
        parse_cards("♥K ♥Q ♦6 ♦8 ♦10 ♠6 ♠8 ♣6 ♣8"),
        parse_cards("♥6 ♥8 ♥10 ♦7 ♦9 ♠7 ♠9 ♣7 ♣9"),
        parse_cards("♥7 ♥9 ♥J ♦J ♦K ♠10 ♠Q ♣10 ♣Q"),
        parse_cards("♥A ♦Q ♦A ♠J ♠K ♠A ♣J ♣K ♣A"),
    )
    assert sum(deal) == FULL
    for contract, expected in ((H, (20, 0)), (OBE, (0, 0)), (UNDE, (0, 0))):
        hand = new_hand(Rules(), deal)
        hand.apply(Choose(contract))
        play_lowest(hand)
        assert hand.score().stoeck == expected, contract


def test_stoeck_lost_when_not_declared():
    hand = new_hand(Rules(auto_stoeck=False))
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS)
    assert hand.score().stoeck == (0, 0)
    assert hand.score().tricks == (98, 59)


def test_stoeck_declared_by_hand():
    hand = new_hand(Rules(auto_stoeck=False))
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS[:2])
    # trick 3: ♠A ♠6, then seat 2 plays ♠Q, the second of king and queen, declaring stöck
    hand.play(parse_card("♠A"))
    hand.play(parse_card("♠6"))
    assert Play(parse_card("♠Q"), (), True) in hand.legal_actions()
    hand.apply(Play(parse_card("♠Q"), stoeck=True), 2)
    hand.play(parse_card("♠10"))
    play_tricks(hand, EXAMPLE_TRICKS[3:])
    assert hand.score().stoeck == (20, 0)


def test_stoeck_not_with_first_card():
    hand = new_hand(Rules(auto_stoeck=False))
    hand.apply(Choose(S))
    hand.play(parse_card("♣A"))
    hand.play(parse_card("♣10"))
    before = (list(hand.hands), list(hand.trick), list(hand.credits), hand.to_act)
    with pytest.raises(IllegalAction):
        hand.apply(Play(parse_card("♠K"), stoeck=True), 2)
    assert (list(hand.hands), list(hand.trick), list(hand.credits), hand.to_act) == before


def test_stoeck_off():
    hand = new_hand(Rules(stoeck=False))
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS)
    assert hand.score().stoeck == (0, 0)
    assert hand.score().weis == (50, 0)


def test_weis_off_keeps_stoeck():
    hand = new_hand(Rules(weis=False))
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS)
    sc = hand.score()
    assert sc.weis == (0, 0)
    assert sc.stoeck == (20, 0)
    assert sc.totals == (98 + 20, 59)


# --- weis ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", [D, OBE])
def test_winning_team_scores_all_its_weis(contract):
    # seat 0: 50, seat 2: 20 (team 0); seat 1: 20 (team 1). Team 0 scores 70, team 1 none.
    hand = new_hand(Rules(), WEIS_TEAM)
    hand.apply(Choose(contract))
    play_lowest(hand)
    assert hand.score().weis == (70, 0)
    assert hand.weis_team == 0


def test_declared_weis_auto_weis_off():
    rules = Rules(auto_weis=False)
    seq = parse_cards("♦6 ♦7 ♦8 ♦9")
    hand = new_hand(rules)
    hand.apply(Choose(S))
    assert Play(parse_card("♣A"), (seq,)) in hand.legal_actions()
    hand.apply(Play(parse_card("♣A"), (seq,)), 0)
    for c in cs("♣10 ♠K ♣K"):
        hand.play(c)  # seat 1 announces nothing
    play_tricks(hand, EXAMPLE_TRICKS[1:])
    assert hand.score().weis == (50, 0)


def test_undeclared_weis_do_not_count():
    rules = Rules(auto_weis=False)
    hand = new_hand(rules)
    hand.apply(Choose(S))
    hand.play(parse_card("♣A"))  # seat 0 announces nothing
    hand.apply(Play(parse_card("♣10"), (parse_cards("♥6 ♥7 ♥8"),)), 1)
    hand.play(parse_card("♠K"))
    hand.play(parse_card("♣K"))
    assert hand.weis_team == 1
    with pytest.raises(IllegalAction):  # weis only at the first trick
        hand.apply(Play(parse_card("♥K"), (parse_cards("♥6 ♥7 ♥8"),)), 2)
    play_tricks(hand, EXAMPLE_TRICKS[1:])
    assert hand.score().weis == (0, 20)


def test_weis_of_cards_not_held_refused():
    hand = new_hand(Rules(auto_weis=False))
    hand.apply(Choose(S))
    with pytest.raises(IllegalAction):
        hand.apply(Play(parse_card("♣A"), (parse_cards("♥6 ♥7 ♥8"),)), 0)
    assert hand.hands == list(EXAMPLE)


# --- choosing the contract -----------------------------------------------------------------------


def test_chibre_partner_chooses_chooser_leads():
    hand = new_hand()
    assert Chibre() in hand.legal_actions()
    hand.apply(Chibre(), 0)
    assert hand.to_act == 2
    assert Chibre() not in hand.legal_actions()
    with pytest.raises(IllegalAction):
        hand.apply(Chibre(), 2)
    with pytest.raises(NotYourTurn):
        hand.apply(Choose(S), 0)
    hand.apply(Choose(S), 2)
    assert hand.contract == S
    assert hand.contract_seat == 2
    assert hand.phase is Phase.PLAY
    assert hand.to_act == 0 and hand.leader == 0  # the chooser, not the partner, leads
    play_tricks(hand, EXAMPLE_TRICKS)
    assert hand.score().totals == (98 + 50 + 20, 59)


def test_chibre_with_7_of_diamonds():
    # Chibrer is allowed even when holding the 7♦ (seat 0 holds it).
    hand = new_hand()
    assert EXAMPLE[0] >> parse_card("♦7") & 1
    hand.chibre()
    assert hand.to_act == 2


def test_chibre_back():
    hand = new_hand(Rules(chibre_back=True))
    hand.apply(Chibre(), 0)
    assert Chibre() in hand.legal_actions()
    hand.apply(Chibre(), 2)
    assert hand.to_act == 0
    assert Chibre() not in hand.legal_actions()
    with pytest.raises(IllegalAction):
        hand.apply(Chibre(), 0)
    hand.apply(Choose(OBE), 0)
    assert hand.contract == OBE and hand.contract_seat == 0 and hand.to_act == 0


def test_contract_actions():
    actions = new_hand().legal_actions()
    assert {a.contract for a in actions if isinstance(a, Choose)} == set(range(6))
    assert Choose(S, True) not in actions
    with pytest.raises(IllegalAction):
        new_hand().choose(S, True)
    with pytest.raises(IllegalAction):
        new_hand().choose(6)


def test_pique_double_choice():
    rules = Rules.preset("pique-double", pique_double="choice")
    assert Choose(S, True) in new_hand(rules).legal_actions()
    simple = new_hand(rules)
    simple.apply(Choose(S))
    assert simple.factor == 1
    play_tricks(simple, EXAMPLE_TRICKS)
    assert simple.score().totals == (98 + 50 + 20, 59)
    double = new_hand(rules)
    double.apply(Choose(S, True))
    assert double.factor == 2 and double.double
    play_tricks(double, EXAMPLE_TRICKS)
    assert double.score().totals == (336, 118)
    with pytest.raises(IllegalAction):
        new_hand(rules).apply(Choose(H, True))


def test_pique_double_always_other_suits_single():
    rules = Rules.preset("pique-double")
    for contract, factor in ((D, 1), (H, 1), (S, 2), (C, 1), (OBE, 1), (UNDE, 1)):
        hand = new_hand(rules)
        hand.apply(Choose(contract))
        assert hand.factor == factor


def test_multiplier_applies_to_both_teams_and_every_block():
    base = new_hand(Rules())
    base.apply(Choose(S))
    play_tricks(base, EXAMPLE_TRICKS)
    for factor in (2, 3, 7):
        hand = new_hand(Rules(multipliers=(1, 1, factor, 1, 1, 1)))
        hand.apply(Choose(S))
        play_tricks(hand, EXAMPLE_TRICKS)
        assert hand.score()[1:] == base.score()[1:]  # raw blocks unchanged
        assert hand.score().totals == tuple(factor * t for t in base.score().totals)


# --- refused actions change nothing ------------------------------------------------------------


def snapshot(hand):
    return (
        list(hand.hands),
        list(hand.trick),
        list(hand.credits),
        list(hand.tricks),
        hand.to_act,
        hand.phase,
        hand.contract,
        hand.leader,
        hand.legal_cards(),
    )


def test_refused_actions_leave_state_unchanged():
    hand = new_hand()
    before = snapshot(hand)
    with pytest.raises(IllegalAction):
        hand.play(parse_card("♣A"))  # no contract yet
    with pytest.raises(NotYourTurn):
        hand.apply(Choose(S), 1)
    assert snapshot(hand) == before
    hand.apply(Choose(S), 0)
    play_tricks(hand, EXAMPLE_TRICKS[:1])
    hand.play(parse_card("♥K"))  # seat 2 leads trick 2
    before = snapshot(hand)
    with pytest.raises(NotYourTurn):
        hand.apply(Play(parse_card("♠9")), 0)
    with pytest.raises(IllegalCard):
        hand.apply(Play(parse_card("♠Q")), 3)  # not held by seat 3
    with pytest.raises(IllegalCard) as e:
        hand.apply(Play(parse_card("♣7")), 3)  # holds ♥10 ♥Q: follow or trump
    assert "♥" in str(e.value)
    with pytest.raises(IllegalAction):
        hand.apply(Choose(H), 3)  # contract already named
    with pytest.raises(IllegalCard):
        hand.play(99)
    assert snapshot(hand) == before
    hand.apply(Play(parse_card("♠8")), 3)
    assert hand.trick == cs("♥K ♠8")


def test_illegal_card_message_trump_led():
    hand = new_hand()
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS[:2])
    hand.play(parse_card("♠A"))  # trump led; seat 1 holds ♠6 ♠7
    with pytest.raises(IllegalCard) as e:
        hand.play(parse_card("♥6"))
    assert str(e.value) == "trump ♠ was led: you must play a trump — you hold ♠6, ♠7"


def test_no_action_after_the_hand():
    hand = new_hand()
    hand.apply(Choose(S))
    play_tricks(hand, EXAMPLE_TRICKS)
    assert hand.legal_actions() == []
    with pytest.raises(GameOver):
        hand.apply(Play(parse_card("♣A")))


# --- stöck in a weis, what the weis show --------------------------------------------------------

# EXAMPLE with seats 0 and 2 swapping ♠J / ♣6: seat 2 holds ♠J ♠Q ♠K (20, with the stöck).
STOECK_IN_WEIS = (
    parse_cards("♦6 ♦7 ♦8 ♦9 ♣6 ♠9 ♠A ♣A ♥A"),
    EXAMPLE[1],
    parse_cards("♥9 ♥J ♥K ♠J ♣8 ♣J ♠Q ♠K ♦K"),
    EXAMPLE[3],
)


@pytest.mark.parametrize(("in_weis", "after_trick_1"), [(True, 20), (False, 0)])
def test_stoeck_in_weis(in_weis, after_trick_1):
    assert sum(STOECK_IN_WEIS) == FULL
    hand = new_hand(Rules(stoeck_in_weis=in_weis), STOECK_IN_WEIS)
    hand.apply(Choose(S))
    for _ in range(4):
        hand.play(lowest(hand))
    assert len(hand.tricks) == 1
    # with the option, the stöck in seat 2's ♠J-♠Q-♠K are credited with the weis at trick 1
    assert sum(c.points for c in hand.credits if c.block == "stoeck") == after_trick_1
    play_lowest(hand)
    sc = hand.score()
    assert sc.stoeck == (20, 0)  # counted once either way
    assert sc.weis == (70, 0)


def test_weis_shown_only_for_the_winning_team():
    hand = new_hand(Rules(multipliers="french"))
    hand.apply(Choose(S))
    events = []
    for c in cs("♣A ♣10 ♠K ♣K"):
        events += hand.play(c)
    announced = [(e.seat, e.points) for e in events if isinstance(e, WeisAnnounced)]
    assert announced == [(0, 50), (1, 20)]
    scored = [e for e in events if isinstance(e, WeisScored)]
    assert len(scored) == 1
    assert scored[0].team == 0
    assert scored[0].points == 100  # after the ×2
    assert [seat for seat, _ in scored[0].shown] == [0]  # seat 1's cards stay private
    assert scored[0].shown[0][1].cards == parse_cards("♦6 ♦7 ♦8 ♦9")


# --- declarations given as Weis, and junk refused ---------------------------------------------


def test_weis_may_be_declared_as_weis_objects():
    from chibre.weis import best_weis

    rules = Rules(auto_weis=False)
    hand = Hand(rules, 3, 0, EXAMPLE)
    hand.choose(S)
    best = best_weis(EXAMPLE[0], rules, S)
    events = hand.play(parse_card("♣A"), best)
    assert WeisAnnounced(0, 50) in events
    with pytest.raises(IllegalAction, match="set of cards"):
        hand.play(parse_card("♣10"), ("♥6 ♥7 ♥8",))


def test_bools_are_neither_contracts_nor_cards():
    hand = Hand(Rules(), 3, 0, EXAMPLE)
    with pytest.raises(IllegalAction):
        hand.apply(Choose(True))
    hand.apply(Choose(S))
    with pytest.raises(IllegalCard):
        hand.apply(Play(True))
    assert hand.trick == []


def test_manual_stoeck_shown_with_any_card_once_they_win():
    # Player-declared stöck in `immediate`: seat 2 holds ♠Q ♠K; at 990 the 20 take team 0 to
    # the target of 1000, so seat 2 may show them with its first card, whichever it is.
    rules = Rules(auto_stoeck=False)
    hand = Hand(rules, 3, 0, EXAMPLE, totals_before=(990, 0))
    hand.choose(S)
    hand.play(parse_card("♣A"))
    hand.play(parse_card("♣10"))
    events = hand.play(parse_card("♣6"), stoeck=True)
    assert hand.stoeck_declared and hand.score().stoeck == (20, 0)
    assert type(events[-1]).__name__ == "StoeckDeclared"
    # far from the target, the same card may not carry them
    other = Hand(rules, 3, 0, EXAMPLE)
    other.choose(S)
    other.play(parse_card("♣A"))
    other.play(parse_card("♣10"))
    with pytest.raises(IllegalAction, match="second"):
        other.play(parse_card("♣6"), stoeck=True)


def test_stoeck_in_weis_declared_by_the_player_while_the_table_announces_weis():
    # ♠ trump; seat 0 holds ♠Q ♠K ♠A (a 20 with the stöck in it). With stoeck_in_weis the
    # player may declare the stöck with the weis at the first trick, the table announcing it.
    deal = (
        parse_cards("♠Q ♠K ♠A ♦6 ♦8 ♥6 ♥8 ♣6 ♣8"),
        parse_cards("♠6 ♠7 ♦7 ♦9 ♥7 ♥9 ♣7 ♣9 ♦J"),
        parse_cards("♠8 ♠9 ♦10 ♦Q ♥10 ♥Q ♣10 ♣Q ♥J"),
        parse_cards("♠10 ♠J ♦K ♦A ♥K ♥A ♣K ♣A ♣J"),
    )
    rules = Rules(stoeck_in_weis=True, auto_stoeck=False)
    hand = Hand(rules, 3, 0, deal)
    hand.choose(S)
    hand.play(parse_card("♦6"), stoeck=True)
    assert hand.stoeck_declared
    while len(hand.tricks) < 1:
        hand.play(cards_of(hand.legal_cards())[0])
    assert hand.score().stoeck == (20, 0)
    # without the option the same declaration waits for the second card
    plain = Hand(Rules(auto_stoeck=False), 3, 0, deal)
    plain.choose(S)
    with pytest.raises(IllegalAction):
        plain.play(parse_card("♦6"), stoeck=True)


# --- the matched team keeps its weis; stöck stay out of the weis comparison -------------------


def test_the_team_that_is_matched_keeps_its_weis():
    from deals import MATCHED_LEADS, MATCHED_WITH_WEIS

    hand = Hand(Rules(), 3, 0, MATCHED_WITH_WEIS)
    hand.choose(S)
    play_plan(hand, 0, MATCHED_LEADS)
    score = hand.score()
    assert {t.winner for t in hand.tricks} == {0}
    assert score.tricks == (157, 0) and score.match == (100, 0)
    assert score.stoeck == (20, 0)
    assert hand.weis_team == 1
    assert score.weis == (0, 200 + 150 + 20)
    assert score.totals == (277, 370)


def test_stoeck_never_enter_the_weis_comparison():
    from deals import STOECK_AGAINST_WEIS

    hand = Hand(Rules(), 3, 0, STOECK_AGAINST_WEIS)
    hand.choose(S)
    play_lowest(hand)
    assert hand.weis_team == 1
    assert hand.score().weis == (0, 20)
    assert hand.score().stoeck == (20, 0)


def test_the_winning_team_shows_all_its_weis_after_the_first_trick():
    from chibre.actions import Deal
    from chibre.game import Game
    from deals import MATCHED_WITH_WEIS

    game = Game(Rules(first_chooser="right_of_dealer"))
    game.apply(Deal(MATCHED_WITH_WEIS, 3))
    game.apply(Choose(S))
    for _ in range(3):
        game.apply(Play(cards_of(game.hand.legal_cards())[0]))
    # during the first trick: the values are public, no card is
    watcher = game.observation(0)
    assert watcher.announced[:3] == (150, 200, 50)
    assert watcher.shown_weis == ()
    game.apply(Play(cards_of(game.hand.legal_cards())[0]))
    for seat in range(4):
        shown = game.observation(seat).shown_weis
        assert sorted((s, w.points) for s, w in shown) == [(1, 200), (3, 20), (3, 150)]
        assert all(s in (1, 3) for s, _ in shown)  # team 0's weis stay hidden
