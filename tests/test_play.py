"""Playing a trick: legal cards, trick winners, card points — RULES.md §3–§4."""

import pytest

from chibre.cards import ALL_CARDS, SUIT_MASKS, card, parse_card, parse_cards
from chibre.play import legal_cards, points, trick_winner, why_illegal

D, H, S, C, OBE, UNDE = range(6)


def cs(text):
    """A list of cards in order, from symbols."""
    return [parse_card(t) for t in text.split()]


# --- legal cards ---------------------------------------------------------------------------------
# (contract, trick so far, hand, legal cards) — every case checked against RULES.md §4 by hand.
LEGAL_CASES = [
    # Leading: anything.
    pytest.param(H, "", "♥J ♠6 ♣A", "♥J ♠6 ♣A", id="lead-anything"),
    pytest.param(OBE, "", "♥J ♠6 ♣A", "♥J ♠6 ♣A", id="lead-anything-obenabe"),
    # Rule 1: non-trump led, holding the led suit: follow or trump, no discard.
    pytest.param(H, "♣6", "♣A ♥6 ♠6", "♣A ♥6", id="trump-although-able-to-follow"),
    pytest.param(H, "♣6", "♣A ♣7 ♠6 ♦K", "♣A ♣7", id="must-follow-no-trump-held"),
    pytest.param(H, "♣6 ♣7", "♣A ♥J ♥6 ♠6", "♣A ♥J ♥6", id="follow-or-any-trump"),
    # Rule 1: void in the led suit: anything.
    pytest.param(H, "♣6", "♥6 ♠6 ♦6", "♥6 ♠6 ♦6", id="void-play-anything"),
    # Rule 2: trump led: must play trump...
    pytest.param(H, "♥6", "♥9 ♠A ♣A", "♥9", id="trump-led-must-trump"),
    pytest.param(H, "♥A", "♥6 ♠6", "♥6", id="trump-led-lower-trump-still-forced"),
    pytest.param(H, "♥6", "♥J ♥7 ♠6", "♥J ♥7", id="trump-led-bourg-plus-trump"),
    pytest.param(H, "♥6", "♠6 ♣7 ♦A", "♠6 ♣7 ♦A", id="trump-led-no-trump"),
    # ... except the bourg: never forced out.
    pytest.param(H, "♥6", "♥J ♠6 ♣7", "♥J ♠6 ♣7", id="bourg-alone-not-forced"),
    pytest.param(S, "♠A ♠K", "♠J ♦6 ♦7 ♥Q", "♠J ♦6 ♦7 ♥Q", id="bourg-alone-not-forced-spades"),
    pytest.param(H, "♥6", "♥J", "♥J", id="bourg-only-card"),
    # Rule 3: no undertrumping.
    pytest.param(H, "♣10 ♥J ♥10", "♥A ♠6 ♠7", "♠6 ♠7", id="key-case-no-undertrump"),
    pytest.param(H, "♣6 ♥9", "♣A ♥6 ♥J", "♣A ♥J", id="follow-or-overtrump"),
    pytest.param(H, "♣6 ♥9", "♥6 ♠7", "♠7", id="void-lower-trump-must-discard"),
    pytest.param(H, "♣6 ♥A", "♥9 ♥K ♠6", "♥9 ♠6", id="nell-overtrumps-ace"),
    pytest.param(H, "♣6 ♥6", "♥7 ♠6", "♥7 ♠6", id="overtrump-allowed"),
    pytest.param(H, "♣6 ♥9 ♥J", "♥A ♥K ♣7", "♣7", id="no-undertrump-the-bourg"),
    # Rule 3: only trumps in hand: any of them.
    pytest.param(H, "♣6 ♥9", "♥6 ♥7", "♥6 ♥7", id="only-trumps-undertrump-ok"),
    pytest.param(H, "♣6 ♥9", "♥6 ♥A ♥J", "♥6 ♥A ♥J", id="only-trumps-any"),
    # Obenabe / Undenufe: follow suit if you can, else anything.
    pytest.param(OBE, "♣6", "♣A ♥6 ♥A", "♣A", id="obenabe-follow"),
    pytest.param(OBE, "♣6", "♥6 ♦A", "♥6 ♦A", id="obenabe-void"),
    pytest.param(UNDE, "♦A ♦K", "♦6 ♦7 ♠6", "♦6 ♦7", id="undenufe-follow"),
    pytest.param(UNDE, "♦A", "♠6 ♥J", "♠6 ♥J", id="undenufe-void"),
    pytest.param(OBE, "♥6", "♥J ♠6", "♥J", id="obenabe-jack-has-no-privilege"),
]


@pytest.mark.parametrize(("contract", "trick", "hand", "legal"), LEGAL_CASES)
def test_legal_cards(contract, trick, hand, legal):
    got = legal_cards(parse_cards(hand), cs(trick), contract)
    assert got == parse_cards(legal)


def test_legal_cards_is_a_subset_and_never_empty():
    hand = parse_cards("♥6 ♥A ♠6 ♠K ♣9 ♦J ♦10")
    for contract in range(6):
        for lead in range(36):
            if hand >> lead & 1:
                continue
            legal = legal_cards(hand, [lead], contract)
            assert legal
            assert legal & ~hand == 0


# --- why illegal -------------------------------------------------------------------------------


def test_why_illegal_trump_led():
    msg = why_illegal(parse_cards("♥9 ♠A ♣A"), cs("♥6"), H, parse_card("♠A"))
    assert msg == "trump ♥ was led: you must play a trump — you hold ♥9"


def test_why_illegal_none_when_legal():
    assert why_illegal(parse_cards("♥9 ♠A ♣A"), cs("♥6"), H, parse_card("♥9")) is None
    assert why_illegal(parse_cards("♥J ♠A"), cs("♥6"), H, parse_card("♠A")) is None


def test_why_illegal_card_not_held():
    msg = why_illegal(parse_cards("♥9 ♠A"), [], H, parse_card("♣A"))
    assert msg is not None
    assert "♣A" in msg


def test_why_illegal_undertrump():
    msg = why_illegal(parse_cards("♥A ♠6 ♠7"), cs("♣10 ♥J ♥10"), H, parse_card("♥A"))
    assert msg is not None
    assert "undertrump" in msg
    assert "♥J" in msg and "♥A" in msg


def test_why_illegal_must_follow_or_trump():
    msg = why_illegal(parse_cards("♣A ♥6 ♠6"), cs("♣6"), H, parse_card("♠6"))
    assert msg is not None
    assert "♣" in msg and "follow" in msg
    assert "♣A" in msg


def test_why_illegal_obenabe_follow():
    msg = why_illegal(parse_cards("♣A ♥6"), cs("♣6"), OBE, parse_card("♥6"))
    assert msg is not None
    assert "follow suit" in msg and "♣A" in msg


# --- trick winners -------------------------------------------------------------------------------
WINNER_CASES = [
    # Trump contracts: highest trump, else highest of the led suit (A K Q J 10 9 8 7 6).
    pytest.param(H, "♣6 ♣A ♥6 ♣K", 2, id="small-trump-wins"),
    pytest.param(H, "♥A ♥9 ♥J ♥K", 2, id="bourg-wins"),
    pytest.param(H, "♥A ♥9 ♥K ♥Q", 1, id="nell-beats-ace"),
    pytest.param(H, "♥10 ♥K ♥Q ♥8", 1, id="king-beats-queen-beats-ten"),
    pytest.param(H, "♣6 ♣10 ♦A ♣9", 1, id="off-suit-never-wins"),
    pytest.param(H, "♣9 ♣10 ♣J ♣8", 2, id="plain-jack-beats-ten"),
    pytest.param(H, "♣J ♣Q ♣6 ♣7", 1, id="plain-queen-beats-jack"),
    pytest.param(H, "♣A ♥6 ♥7 ♣K", 2, id="higher-trump-wins"),
    pytest.param(S, "♣A ♠6 ♠J ♠9", 2, id="bourg-over-nell-on-plain-lead"),
    pytest.param(D, "♦6 ♣A ♥A ♠A", 0, id="lowest-trump-led-wins-vs-off-suits"),
    pytest.param(C, "♦6 ♦7 ♦8 ♦9", 3, id="no-trump-played"),
    # Obenabe: highest of the led suit.
    pytest.param(OBE, "♣6 ♣A ♦A ♣K", 1, id="obenabe-ace"),
    pytest.param(OBE, "♣J ♣9 ♣10 ♣6", 0, id="obenabe-jack-is-plain"),
    pytest.param(OBE, "♥6 ♠A ♦A ♣A", 0, id="obenabe-off-suit-never-wins"),
    # Undenufe: lowest of the led suit.
    pytest.param(UNDE, "♣7 ♣6 ♦6 ♣A", 1, id="undenufe-six"),
    pytest.param(UNDE, "♣A ♣K ♥6 ♣Q", 3, id="undenufe-queen-lowest"),
    pytest.param(UNDE, "♠A ♦6 ♥6 ♣6", 0, id="undenufe-off-suit-never-wins"),
]


@pytest.mark.parametrize(("contract", "trick", "winner"), WINNER_CASES)
def test_trick_winner(contract, trick, winner):
    assert trick_winner(cs(trick), contract) == winner


TRUMP_ORDER = ("J", "9", "A", "K", "Q", "10", "8", "7", "6")  # high → low, RULES.md §3
PLAIN_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")


@pytest.mark.parametrize("trump", [D, H, S, C])
def test_full_trump_order(trump):
    sym = "♦♥♠♣"[trump]
    for i, hi in enumerate(TRUMP_ORDER):
        for lo in TRUMP_ORDER[i + 1 :]:
            a, b = parse_card(sym + hi), parse_card(sym + lo)
            assert trick_winner([a, b], trump) == 0, (hi, lo)
            assert trick_winner([b, a], trump) == 1, (hi, lo)


@pytest.mark.parametrize("contract", [D, H, S, C, OBE, UNDE])
def test_full_plain_order(contract):
    for suit in range(4):
        if suit == contract:
            continue
        sym = "♦♥♠♣"[suit]
        order = PLAIN_ORDER[::-1] if contract == UNDE else PLAIN_ORDER
        for i, hi in enumerate(order):
            for lo in order[i + 1 :]:
                a, b = parse_card(sym + hi), parse_card(sym + lo)
                assert trick_winner([a, b], contract) == 0, (contract, hi, lo)
                assert trick_winner([b, a], contract) == 1, (contract, hi, lo)


# --- card points ---------------------------------------------------------------------------------
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0, "6": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
OBENABE_POINTS = {"A": 11, "10": 10, "8": 8, "K": 4, "Q": 3, "J": 2, "9": 0, "7": 0, "6": 0}
UNDENUFE_POINTS = {"6": 11, "10": 10, "8": 8, "K": 4, "Q": 3, "J": 2, "A": 0, "9": 0, "7": 0}


@pytest.mark.parametrize("contract", range(6))
def test_card_values(contract):
    for suit, sym in enumerate("♦♥♠♣"):
        if contract == OBE:
            table = OBENABE_POINTS
        elif contract == UNDE:
            table = UNDENUFE_POINTS
        else:
            table = TRUMP_POINTS if suit == contract else PLAIN_POINTS
        for rank, value in table.items():
            c = parse_card(sym + rank)
            assert points(1 << c, contract) == value, (contract, sym + rank)
            assert points([c], contract) == value


@pytest.mark.parametrize("contract", range(6))
def test_points_per_suit_and_total(contract):
    for suit in range(4):
        expected = 38 if contract >= 4 else (62 if suit == contract else 30)
        assert points(SUIT_MASKS[suit], contract) == expected
    assert points(ALL_CARDS, contract) == 152
    assert points(list(range(36)), contract) == 152


def test_points_of_sequence_and_mask_agree():
    trick = [card(1, 5), card(1, 3), card(2, 8), card(0, 4)]  # ♥J ♥9 ♠A ♦10
    assert points(trick, H) == 20 + 14 + 11 + 10
    assert points(trick, S) == 2 + 0 + 11 + 10
    assert points(trick, OBE) == 2 + 0 + 11 + 10
    assert points(trick, UNDE) == 2 + 0 + 0 + 10
    m = sum(1 << c for c in trick)
    for k in range(6):
        assert points(m, k) == points(trick, k)
