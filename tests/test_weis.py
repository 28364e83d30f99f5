"""Weis (annonces): values, kreuzweis and the comparison ladder — RULES.md §5."""

import pytest

from chibre.actions import Choose
from chibre.cards import RANK_MASKS, SUIT_MASKS, cards_of, parse_cards
from chibre.errors import IllegalAction
from chibre.hand import Hand
from chibre.rules import Rules
from chibre.weis import (
    best_weis,
    check_declaration,
    weis_key,
    weis_of,
    weis_reason,
    weis_winner,
)

D, H, S, C, OBE, UNDE = range(6)
R = Rules()


def w(text, rules=R):
    return weis_of(parse_cards(text), rules)


def values(ws):
    return sorted((x.points for x in ws), reverse=True)


def run(suit, low, length):
    """The cards of a run in ``suit`` from natural rank ``low``."""
    return ((1 << length) - 1) << (9 * suit + low)


# --- values --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "big", "classic"),
    [
        (3, 20, 20),
        (4, 50, 50),
        (5, 100, 100),
        (6, 150, 100),
        (7, 200, 100),
        (8, 250, 100),
        (9, 300, 100),
    ],
)
def test_sequence_value(length, big, classic):
    cards = run(H, 0, length)
    assert weis_of(cards, Rules(big_sequences=True)).points == big
    assert weis_of(cards, Rules(big_sequences=False)).points == classic
    assert weis_of(cards, R).points == big  # big_sequences is on by default


@pytest.mark.parametrize(("length", "big"), [(3, 20), (4, 50), (5, 100), (6, 150), (7, 200)])
def test_best_weis_sequence_counts_once_whole(length, big):
    hand = run(C, 9 - length, length) | parse_cards("♦6 ♥8")
    ws = best_weis(hand, R)
    assert values(ws) == [big]
    assert ws[0].cards == run(C, 9 - length, length)


def test_eight_card_run():
    hand = run(S, 0, 8) | parse_cards("♦A")
    assert values(best_weis(hand, Rules(big_sequences=True))) == [250]
    assert values(best_weis(hand, Rules(big_sequences=False))) == [100, 20]


def test_nine_card_run():
    hand = SUIT_MASKS[D]
    assert values(best_weis(hand, Rules(big_sequences=True))) == [300]
    split = best_weis(hand, Rules(big_sequences=False))
    assert values(split) == [100, 50]
    assert split[0].cards & split[1].cards == 0


def test_two_runs_in_one_suit_and_no_run():
    hand = parse_cards("♥6 ♥7 ♥8 ♥10 ♥J ♥Q ♥K ♠6 ♠8")
    assert values(best_weis(hand, R)) == [50, 20]
    assert best_weis(parse_cards("♥6 ♥7 ♥9 ♥10 ♠Q ♠K ♣6 ♣8 ♦A"), R) == ()


def test_sequences_use_natural_order_in_every_contract():
    # trump J and 9 are an ordinary J and 9 in a sequence: 9 10 J is a sequence, J 9 A is not.
    assert w("♥9 ♥10 ♥J").points == 20
    with pytest.raises(IllegalAction):
        w("♥J ♥9 ♥A")
    with pytest.raises(IllegalAction):
        w("♥6 ♥7 ♠8")


@pytest.mark.parametrize(
    ("rank", "value", "low_100"),
    [
        ("J", 200, 200),
        ("9", 150, 150),
        ("A", 100, 100),
        ("K", 100, 100),
        ("Q", 100, 100),
        ("10", 100, 100),
        ("8", 0, 100),
        ("7", 0, 100),
        ("6", 0, 100),
    ],
)
def test_carre_values(rank, value, low_100):
    four = parse_cards(" ".join(s + rank for s in "♦♥♠♣"))
    for rules, expected in ((R, value), (Rules(low_carres_100=True), low_100)):
        assert values(best_weis(four, rules)) == ([expected] if expected else [])
        if expected:
            got = weis_of(four, rules)
            assert (got.points, got.kind, got.length) == (expected, "carre", 4)
        else:
            with pytest.raises(IllegalAction):
                weis_of(four, rules)


def test_kreuzweis_on_counts_both():
    hand = RANK_MASKS[5] | parse_cards("♦9 ♦10 ♥6 ♠8 ♣A")  # four J + ♦9 ♦10 ♦J
    ws = best_weis(hand, Rules(kreuzweis=True))
    assert values(ws) == [200, 20]
    assert R.kreuzweis is True


def test_kreuzweis_off_keeps_best_single_weis():
    hand = RANK_MASKS[5] | parse_cards("♦9 ♦10 ♥6 ♠8 ♣A")
    ws = best_weis(hand, Rules(kreuzweis=False))
    assert values(ws) == [200]
    used = 0
    for x in ws:
        assert x.cards & used == 0
        used |= x.cards


def test_kreuzweis_off_sequence_beats_carre():
    # ♦7..♦Q (150) and four queens (100): sharing ♦Q is not allowed; the 150 is the best
    # single weis, so it is kept, although carré + ♦7..♦J (100 + 100) would total more.
    hand = run(D, 1, 6) | parse_cards("♥Q ♠Q ♣Q")
    assert values(best_weis(hand, Rules(kreuzweis=True))) == [150, 100]
    assert values(best_weis(hand, Rules(kreuzweis=False))) == [150]


def test_kreuzweis_off_carre_and_rest_of_run():
    # four jacks (200) and ♦9..♦A (150): keep the carré, then ♦Q ♦K ♦A (20) still counts.
    hand = run(D, 3, 6) | parse_cards("♥J ♠J ♣J")
    assert values(best_weis(hand, Rules(kreuzweis=False))) == [200, 20]
    assert values(best_weis(hand, Rules(kreuzweis=True))) == [200, 150]


def test_kreuzweis_off_longer_sequence_is_the_better_single_weis():
    # four 10 (100) or ♥6..♥10 (100, 5 cards: the better single weis, by length). Without
    # kreuzweis they may not share ♥10, and the five-card sequence is kept.
    hand = run(H, 0, 5) | parse_cards("♦10 ♠10 ♣10 ♣A")
    ws = best_weis(hand, Rules(kreuzweis=False))
    assert [(x.points, x.length) for x in ws] == [(100, 5)]
    assert values(best_weis(hand, Rules(kreuzweis=True))) == [100, 100]


def test_kreuzweis_off_then_highest_total():
    # four J (200), four 9 (150), ♦9 ♦10 ♦J (20). Without kreuzweis: the best single weis is
    # the 200 either way; keeping both carrés (350) beats the jacks alone or jacks + nothing.
    hand = RANK_MASKS[5] | RANK_MASKS[3] | parse_cards("♦10")
    assert values(best_weis(hand, Rules(kreuzweis=True))) == [200, 150, 20]
    assert values(best_weis(hand, Rules(kreuzweis=False))) == [200, 150]


# --- declarations (auto_weis off) ----------------------------------------------------------------


def test_check_declaration():
    hand = parse_cards("♥6 ♥7 ♥8 ♥9 ♥10 ♠J ♦J ♣J ♥J")
    seq5 = w("♥6 ♥7 ♥8 ♥9 ♥10")
    jacks = w("♠J ♦J ♣J ♥J")
    check_declaration(hand, [seq5], R)
    check_declaration(hand, [seq5, jacks], R)
    with pytest.raises(IllegalAction):  # not held
        check_declaration(hand, [w("♣Q ♣K ♣A")], R)
    with pytest.raises(IllegalAction):  # a run counts once, whole (big_sequences on)
        check_declaration(hand, [w("♥6 ♥7 ♥8"), w("♥9 ♥10 ♥J")], R)
    with pytest.raises(IllegalAction):  # two sequences sharing cards
        check_declaration(hand, [w("♥6 ♥7 ♥8"), w("♥8 ♥9 ♥10")], R)
    nokreuz = Rules(kreuzweis=False)
    seq_j = weis_of(parse_cards("♥8 ♥9 ♥10 ♥J"), nokreuz)
    with pytest.raises(IllegalAction):
        check_declaration(hand, [seq_j, weis_of(RANK_MASKS[5], nokreuz)], nokreuz)


# --- comparison ladder ---------------------------------------------------------------------------


def beats(a, b, contract=H, rules=R, pa=1, pb=0):
    """Does weis ``a`` (at position ``pa``) beat ``b`` (at ``pb``)? By default ``a`` sits later
    in play order, so it must win on its own merit."""
    return weis_key(a, contract, pa, rules) > weis_key(b, contract, pb, rules)


SEQ5 = "♣7 ♣8 ♣9 ♣10 ♣J"
SEQ6 = "♣6 ♣7 ♣8 ♣9 ♣10 ♣J"
SEQ7 = "♦6 ♦7 ♦8 ♦9 ♦10 ♦J ♦Q"
FOUR = {r: " ".join(s + r for s in "♦♥♠♣") for r in ("6", "9", "J", "Q", "K", "A")}


@pytest.mark.parametrize("contract", [D, H, S, C, OBE])
def test_ladder_examples(contract):
    # points first
    assert beats(w("♠6 ♠7 ♠8 ♠9"), w("♠Q ♠K ♠A"), contract)  # 50 > 20
    # 5-card sequence (100) beats four aces (100): more cards.
    assert beats(w(SEQ5), w(FOUR["A"]), contract)
    # six-card sequence (150) beats four nines (150).
    assert beats(w(SEQ6), w(FOUR["9"]), contract)
    # seven-card sequence (200) beats four jacks (200).
    assert beats(w(SEQ7), w(FOUR["J"]), contract)
    # four jacks (200) beat any 5-card sequence (100).
    assert beats(w(FOUR["J"]), w("♦10 ♦J ♦Q ♦K ♦A"), contract)
    # 7-8-9 beats 6-7-8 (top card).
    assert beats(w("♣7 ♣8 ♣9"), w("♣6 ♣7 ♣8"), contract)
    assert beats(w("♦7 ♦8 ♦9"), w("♣6 ♣7 ♣8"), contract)
    # four aces beat four kings.
    assert beats(w(FOUR["A"]), w(FOUR["K"]), contract)
    assert beats(w("♠Q ♠K ♠A"), w("♠9 ♠10 ♠J"), contract)


def test_ladder_classic_sequences_length_decides():
    classic = Rules(big_sequences=False)
    seq7 = weis_of(parse_cards(SEQ7), classic)
    seq5 = weis_of(parse_cards("♣10 ♣J ♣Q ♣K ♣A"), classic)
    assert seq7.points == seq5.points == 100
    assert beats(seq7, seq5, H, classic)  # more cards, although a lower top card
    assert beats(
        weis_of(parse_cards(SEQ6), classic), weis_of(parse_cards(FOUR["A"]), classic), H, classic
    )


def test_undenufe_low_weis():
    on = Rules(undenufe_low_weis=True)
    off = Rules(undenufe_low_weis=False)
    assert R.undenufe_low_weis is True
    low, high = w("♣6 ♣7 ♣8"), w("♣Q ♣K ♣A")
    assert beats(low, high, UNDE, on)
    assert beats(w("♦6 ♦7 ♦8"), w("♥Q ♥K ♥A"), UNDE, on)
    assert beats(w(FOUR["K"]), w(FOUR["A"]), UNDE, on)
    assert beats(w("♣6 ♣7 ♣8 ♣9"), w("♣10 ♣J ♣Q ♣K"), UNDE, on)
    # points and length still come first
    assert beats(w("♣J ♣Q ♣K ♣A"), w("♦6 ♦7 ♦8"), UNDE, on)
    assert beats(w(FOUR["A"]), w("♣6 ♣7 ♣8 ♣9"), UNDE, on)
    # off: natural order in Undenufe too
    assert beats(high, low, UNDE, off)
    assert beats(w(FOUR["A"]), w(FOUR["K"]), UNDE, off)
    # never reversed in Obenabe or a trump contract
    for contract in (D, H, S, C, OBE):
        assert beats(high, w("♦6 ♦7 ♦8"), contract, on)


def test_trump_tiebreak():
    hearts, spades = w("♥7 ♥8 ♥9"), w("♠7 ♠8 ♠9")
    # the sequence in trump wins whatever the seats
    assert beats(spades, hearts, S, R, pa=3, pb=0)
    assert beats(hearts, spades, H, R, pa=3, pb=0)
    # but the top card comes first
    assert beats(w("♥8 ♥9 ♥10"), spades, S, R, pa=3, pb=0)


def test_seat_order_tiebreak():
    a, b = w("♦7 ♦8 ♦9"), w("♣7 ♣8 ♣9")
    for contract in (H, S, OBE, UNDE):
        assert weis_key(a, contract, 0, R) > weis_key(b, contract, 1, R)
        assert weis_key(b, contract, 0, R) > weis_key(a, contract, 1, R)
        assert weis_key(b, contract, 2, R) > weis_key(a, contract, 3, R)


# --- through a hand ------------------------------------------------------------------------------

# Seat 0 and seat 1 each hold a 20 in a plain suit (same top rank); nobody else has a weis.
TIE = (
    parse_cards("♦7 ♦8 ♦9 ♥6 ♥10 ♥A ♠9 ♠K ♣6"),
    parse_cards("♣7 ♣8 ♣9 ♥7 ♥J ♠6 ♠10 ♠A ♦6"),
    parse_cards("♥8 ♥Q ♠7 ♠J ♦10 ♦Q ♦A ♣J ♣K"),
    parse_cards("♥9 ♥K ♠8 ♠Q ♦J ♦K ♣10 ♣Q ♣A"),
)


def play_lowest(hand):
    while not hand.is_over:
        hand.play(cards_of(hand.legal_cards())[0])


def test_tie_deal_is_as_described():
    assert sum(TIE) == (1 << 36) - 1
    assert [values(best_weis(h, R)) for h in TIE] == [[20], [20], [], []]


@pytest.mark.parametrize(("chooser", "team"), [(0, 0), (1, 1), (2, 0), (3, 0)])
def test_seat_order_decides_in_a_hand(chooser, team):
    # Hearts trump: both 20s are in plain suits with the same top card, so whichever of seats
    # 0 and 1 comes first in play order from the leader (the chooser) wins: from seat 1 that is
    # seat 1; from 0, 2 (2 3 0 1) or 3 (3 0 1 2) it is seat 0.
    hand = Hand(R, (chooser - 1) % 4, chooser, TIE)
    hand.apply(Choose(H))
    play_lowest(hand)
    assert hand.weis_team == team
    assert hand.score().weis[team] == 20
    assert hand.score().weis[1 - team] == 0


def test_trump_decides_in_a_hand():
    # Clubs trump: seat 1's ♣7-8-9 beats seat 0's ♦7-8-9 although seat 0 leads.
    hand = Hand(R, 3, 0, TIE)
    hand.apply(Choose(C))
    play_lowest(hand)
    assert hand.weis_team == 1
    assert hand.score().weis == (0, 20)


def test_weis_off():
    hand = Hand(Rules(weis=False), 3, 0, TIE)
    hand.apply(Choose(H))
    play_lowest(hand)
    assert hand.score().weis == (0, 0)


# Seat 0 holds all nine ♦; seat 1 ♣7-♣J (a five); seats 2 and 3 no weis.
NINE = (
    SUIT_MASKS[D],
    parse_cards("♣7 ♣8 ♣9 ♣10 ♣J ♥6 ♥8 ♠6 ♠8"),
    parse_cards("♠7 ♠10 ♠Q ♠A ♥9 ♥J ♥K ♣6 ♣K"),
    parse_cards("♠9 ♠J ♠K ♥7 ♥10 ♥Q ♥A ♣Q ♣A"),
)


def test_nine_deal_is_as_described():
    assert sum(NINE) == (1 << 36) - 1
    assert [values(best_weis(h, R)) for h in NINE] == [[300], [100], [], []]


def test_classic_split_best_in_undenufe():
    # big_sequences off: all nine ♦ count 100 + 50, split into a five and a four. In Undenufe
    # with undenufe_low_weis the low end ranks a sequence, so the best split keeps ♦6-♦10 as
    # the five (♦J-♦A the four): it beats seat 1's ♣7-♣J, which ♦10-♦A would lose to.
    rules = Rules(big_sequences=False)
    hand = Hand(rules, 0, 1, NINE)  # seat 1 leads: seat order does not favour seat 0
    hand.apply(Choose(UNDE))
    play_lowest(hand)
    assert hand.weis_team == 0
    assert hand.score().weis == (150, 0)


def test_classic_split_best_in_obenabe():
    rules = Rules(big_sequences=False)
    hand = Hand(rules, 0, 1, NINE)
    hand.apply(Choose(OBE))
    play_lowest(hand)
    assert hand.weis_team == 0  # ♦10-♦A beats ♣7-♣J
    assert hand.score().weis == (150, 0)


# --- the audit's cases: kreuzweis off, classic runs in Undenufe, the jasvel preset -------------


@pytest.mark.parametrize(
    ("diamonds", "expected"),
    [
        # the carré takes ♦8; ♦9-♦J, three in a row, still count as a shorter run
        ("♦8 ♦9 ♦10 ♦J", [(100, "carre"), (20, "sequence")]),
        # ♦8-♦K (150) is the better single weis than the carré (100): the run is kept whole
        ("♦8 ♦9 ♦10 ♦J ♦Q ♦K", [(150, "sequence")]),
        # what the carré leaves, ♦9 ♦10, is no run: the carré alone
        ("♦8 ♦9 ♦10", [(100, "carre")]),
    ],
)
def test_kreuzweis_off_rest_of_a_run_after_four_eights(diamonds, expected):
    rules = Rules(kreuzweis=False, low_carres_100=True)
    hand = parse_cards(diamonds + " ♥8 ♠8 ♣8")
    ws = best_weis(hand, rules)
    assert sorted(((x.points, x.kind) for x in ws), reverse=True) == expected
    used = 0
    for x in ws:
        assert x.cards & used == 0
        used |= x.cards
    if len(expected) == 2:
        assert next(x for x in ws if x.kind == "sequence").cards == parse_cards("♦9 ♦10 ♦J")


@pytest.mark.parametrize(
    ("low_weis", "length", "five", "rest"),
    [
        # the five where it ranks highest: at the bottom under undenufe_low_weis…
        (True, 9, "♦6 ♦7 ♦8 ♦9 ♦10", "♦J ♦Q ♦K ♦A"),
        (True, 8, "♦6 ♦7 ♦8 ♦9 ♦10", "♦J ♦Q ♦K"),
        # … at the top in the natural order
        (False, 9, "♦10 ♦J ♦Q ♦K ♦A", "♦6 ♦7 ♦8 ♦9"),
        (False, 8, "♦9 ♦10 ♦J ♦Q ♦K", "♦6 ♦7 ♦8"),
    ],
)
def test_classic_long_run_in_undenufe_is_split_the_way_that_ranks_highest(
    low_weis, length, five, rest
):
    rules = Rules(big_sequences=False, undenufe_low_weis=low_weis)
    hand = run(D, 0, length) | (parse_cards("♣A") if length == 8 else 0)
    ws = best_weis(hand, rules, UNDE)
    assert {x.cards for x in ws} == {parse_cards(five), parse_cards(rest)}
    # every other split of the run ranks lower on the ladder
    top = max(ws, key=lambda x: weis_key(x, UNDE, 0, rules))
    for low in range(length - 4):
        other = weis_of(run(D, low, 5), rules)
        assert weis_key(other, UNDE, 0, rules) <= weis_key(top, UNDE, 0, rules)


def test_jasvel_undenufe_weis_keep_the_natural_order():
    # Seat 0 announces ♣6-♣8, seat 1 ♥Q-♥A (20 each), Undenufe: the default reverses the
    # order (6-7-8 wins), the jasvel preset keeps it (Q-K-A wins).
    seat0 = parse_cards("♣6 ♣7 ♣8 ♦6 ♦8 ♦10 ♠6 ♠8 ♠10")
    seat1 = parse_cards("♥Q ♥K ♥A ♦7 ♦9 ♦J ♠7 ♠9 ♠J")
    rest = [c for c in range(36) if not (seat0 | seat1) >> c & 1]
    deal = (seat0, seat1, sum(1 << c for c in rest[0::2]), sum(1 << c for c in rest[1::2]))
    for rules, team in (
        (Rules(), 0),
        (Rules.preset("jasvel"), 1),
    ):
        hand = Hand(rules, 3, 0, deal)
        assert [values(best_weis(h, rules, UNDE)) for h in deal[:2]] == [[20], [20]]
        hand.apply(Choose(UNDE))
        while not hand.tricks:
            hand.play(cards_of(hand.legal_cards())[0])
        assert hand.weis_team == team


# --- why the best weis won: the step of the ladder that parts the two teams ---------------------


def why(seats, contract=H, rules=R, leader=0):
    """``weis_winner`` and ``weis_reason`` of the weis each seat announced (texts, by seat)."""
    compared = [tuple(w(x, rules) for x in seat) for seat in seats]
    return (
        weis_winner(compared, contract, leader, rules),
        weis_reason(compared, contract, leader, rules),
    )


@pytest.mark.parametrize(
    ("seats", "contract", "rules", "expected"),
    [
        # RULES.md §5's examples, the winner sitting later in play order than the loser
        ([["♠Q ♠K ♠A"], ["♠6 ♠7 ♠8 ♠9"], [], []], H, R, (1, "points")),  # 50 > 20
        ([[FOUR["A"]], [SEQ5], [], []], H, R, (1, "cards")),  # 100 of five cards beat four aces
        ([[FOUR["9"]], [SEQ6], [], []], H, R, (1, "cards")),  # 150 of six cards, four nines
        ([[FOUR["J"]], [SEQ7], [], []], H, R, (1, "cards")),  # 200 of seven cards, four jacks
        ([["♦10 ♦J ♦Q ♦K ♦A"], [FOUR["J"]], [], []], H, R, (1, "points")),  # 200 > 100
        ([["♣6 ♣7 ♣8"], ["♦7 ♦8 ♦9"], [], []], H, R, (1, "top")),  # 7-8-9 beats 6-7-8
        ([[FOUR["K"]], [FOUR["A"]], [], []], H, R, (1, "top")),  # four aces beat four kings
        # Undenufe under undenufe_low_weis: the order reversed, 6-7-8 beats Q-K-A
        ([["♥Q ♥K ♥A"], ["♣6 ♣7 ♣8"], [], []], UNDE, R, (1, "top")),
        ([[FOUR["A"]], [FOUR["K"]], [], []], UNDE, R, (1, "top")),
        ([["♣6 ♣7 ♣8"], ["♥Q ♥K ♥A"], [], []], UNDE, Rules.preset("jasvel"), (1, "top")),
        # the same points, cards and top card: the sequence in trump, wherever it sits
        ([["♠7 ♠8 ♠9"], ["♥7 ♥8 ♥9"], [], []], H, R, (1, "trump")),
        ([["♥7 ♥8 ♥9"], [], [], ["♠7 ♠8 ♠9"]], S, R, (3, "trump")),
        # all equal: the earlier in play order from the leader
        ([["♦7 ♦8 ♦9"], ["♣7 ♣8 ♣9"], [], []], H, R, (0, "order")),
        ([[], ["♣7 ♣8 ♣9"], ["♦7 ♦8 ♦9"], []], OBE, R, (1, "order")),
        # each team's best counts, not the partner's smaller one or a second weis
        ([["♣6 ♣7 ♣8", FOUR["Q"]], ["♠6 ♠7 ♠8 ♠9"], ["♦6 ♦7 ♦8"], []], H, R, (0, "points")),
        ([["♣6 ♣7 ♣8"], [SEQ5], [FOUR["A"]], ["♦6 ♦7 ♦8"]], H, R, (1, "cards")),
    ],
)
def test_why_the_best_weis_won(seats, contract, rules, expected):
    assert why(seats, contract, rules) == expected


def test_why_the_order_counts_from_the_leader():
    seats = [["♦7 ♦8 ♦9"], ["♣7 ♣8 ♣9"], [], []]
    assert why(seats, H, R, leader=1) == (1, "order")
    assert why(seats, H, R, leader=3) == (0, "order")


def test_nothing_is_compared_when_one_team_alone_announced():
    assert why([["♦7 ♦8 ♦9"], [], [FOUR["A"]], []]) == (2, None)
    assert why([[], ["♣6 ♣7 ♣8 ♣9"], [], []]) == (1, None)
    assert why([[], [], [], []]) == (-1, None)


@pytest.mark.parametrize(("contract", "team", "reason"), [(H, 0, "order"), (C, 1, "trump")])
def test_the_hand_says_why_its_weis_won(contract, team, reason):
    # TIE: seat 0 ♦7-8-9, seat 1 ♣7-8-9; seat 0 leads. Hearts: the seat order decides;
    # clubs: seat 1's sequence in trump.
    hand = Hand(R, 3, 0, TIE)
    hand.apply(Choose(contract))
    assert hand.weis_reason is None  # not compared before the first trick is complete
    while not hand.tricks:
        hand.play(cards_of(hand.legal_cards())[0])
    assert (hand.weis_team, hand.weis_reason) == (team, reason)
    play_lowest(hand)
    assert hand.weis_reason == reason  # it stays for the whole hand


def test_the_hand_says_more_points():
    hand = Hand(R, 0, 1, NINE)  # all nine ♦ (300) against ♣7-♣J (100)
    hand.apply(Choose(H))
    play_lowest(hand)
    assert (hand.weis_team, hand.weis_reason) == (0, "points")


def test_the_hand_says_nothing_when_one_team_alone_had_weis():
    deal = (TIE[0], TIE[2], TIE[1], TIE[3])  # both 20s in the team of seats 0 and 2
    hand = Hand(R, 3, 0, deal)
    hand.apply(Choose(H))
    play_lowest(hand)
    assert hand.weis_team == 0 and hand.score().weis == (40, 0)
    assert hand.weis_reason is None


@pytest.mark.parametrize(("preset", "team"), [("romand", 0), ("jasvel", 1)])
def test_the_hand_says_the_top_card_in_undenufe(preset, team):
    # as in test_jasvel_undenufe_weis_keep_the_natural_order: ♣6-♣8 against ♥Q-♥A
    seat0 = parse_cards("♣6 ♣7 ♣8 ♦6 ♦8 ♦10 ♠6 ♠8 ♠10")
    seat1 = parse_cards("♥Q ♥K ♥A ♦7 ♦9 ♦J ♠7 ♠9 ♠J")
    rest = [c for c in range(36) if not (seat0 | seat1) >> c & 1]
    deal = (seat0, seat1, sum(1 << c for c in rest[0::2]), sum(1 << c for c in rest[1::2]))
    rules = Rules.preset(preset)
    hand = Hand(rules, 2, 1, deal)  # seat 1 leads: the seat order would favour seat 1
    hand.apply(Choose(UNDE))
    while not hand.tricks:
        hand.play(cards_of(hand.legal_cards())[0])
    assert (hand.weis_team, hand.weis_reason) == (team, "top")
