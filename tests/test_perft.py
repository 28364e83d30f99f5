"""Perft: legal play sequences over the first two tricks from fixed deals.

The pinned counts were computed once with the engine (``chibre.perft``); the test derives them
again with the engine and with a deliberately simple enumerator written here from RULES.md §4
alone — cards as (suit, rank) pairs, plain lists, no bitboards, no engine tables.
"""

from __future__ import annotations

import pytest

from chibre import Hand, Rules
from chibre.notation import parse_deal
from chibre.perft import perft

PINNED = [
    # deal (seat 0 deals, seat 1 leads), contract, sequences of 8 cards
    ("0:JT.AK.T6.QJ6/Q9.T.98.AT98/8.Q96.AKJ7.K/AK76.J87.Q.7", 0, 142238),
    ("0:AK6.Q7.J7.Q6/Q.T6.Q98.K98/JT98.J9.T6.T/7.AK8.AK.AJ7", 1, 111816),
    ("0:8.J7.8.AKJT9/Q.T8.KT97.76/KJ7.Q96.J6.Q/AT96.AK.AQ.8", 4, 6528),
    ("0:Q6.QJ6.A9.J6/AT.8.KT86.AT/KJ987.AKT..9/.97.QJ7.KQ87", 5, 82464),
    ("0:AT7.AT.6.AQ9/KQ8.K9.AT8.J/.QJ87.KJ.KT6/J96.6.Q97.87", 3, 576970),
]

# --- the simple enumerator -------------------------------------------------------------------

TRUMP_ORDER = [0, 1, 2, 4, 6, 7, 8, 3, 5]  # ranks 6 7 8 10 Q K A 9 J, weakest first


def simple_hands(deal_text: str) -> list[list[tuple[int, int]]]:
    """Read the deal by hand: ranks high to low per suit ♦.♥.♠.♣, T for 10."""
    chars = "6789TJQKA"
    hands = []
    for hand_text in deal_text.split(":")[1].split("/"):
        cards = []
        for suit, ranks in enumerate(hand_text.split(".")):
            cards += [(suit, chars.index(r)) for r in ranks]
        hands.append(cards)
    return hands


def simple_legal(hand, trick, contract):
    if not trick:
        return list(hand)
    led = trick[0][0]
    same = [c for c in hand if c[0] == led]
    if contract >= 4:
        return same if same else list(hand)
    trumps = [c for c in hand if c[0] == contract]
    if led == contract:
        if trumps and trumps != [(contract, 5)]:
            return trumps
        return list(hand)
    options = same + trumps if same else list(hand)
    played_trumps = [c for c in trick if c[0] == contract]
    if played_trumps and len(trumps) != len(hand):
        top = max(TRUMP_ORDER.index(c[1]) for c in played_trumps)
        options = [c for c in options if c[0] != contract or TRUMP_ORDER.index(c[1]) > top]
    return options


def simple_winner(trick, contract):
    def power(c):
        if contract < 4 and c[0] == contract:
            return 100 + TRUMP_ORDER.index(c[1])
        if c[0] != trick[0][0]:
            return -1
        return 8 - c[1] if contract == 5 else c[1]

    return max(range(len(trick)), key=lambda i: power(trick[i]))


def simple_count(hands, contract, leader, trick, plies):
    if plies == 0:
        return 1
    seat = (leader + len(trick)) % 4
    total = 0
    for card in simple_legal(hands[seat], trick, contract):
        hands[seat].remove(card)
        now = [*trick, card]
        if len(now) == 4:
            winner = (leader + simple_winner(now, contract)) % 4
            total += simple_count(hands, contract, winner, [], plies - 1)
        else:
            total += simple_count(hands, contract, leader, now, plies - 1)
        hands[seat].append(card)
    return total


# --- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize(("deal", "contract", "expected"), PINNED)
def test_engine_perft_matches_pinned(deal, contract, expected):
    d = parse_deal(deal)
    hand = Hand(Rules(), d.dealer, (d.dealer + 1) % 4, d.hands)
    hand.choose(contract)
    assert perft(hand, 8) == expected


@pytest.mark.parametrize(("deal", "contract", "expected"), PINNED)
def test_simple_enumerator_matches_pinned(deal, contract, expected):
    hands = simple_hands(deal)
    assert simple_count(hands, contract, 1, [], 8) == expected


def test_perft_of_one_ply_is_the_leaders_hand():
    d = parse_deal(PINNED[0][0])
    hand = Hand(Rules(), 0, 1, d.hands)
    hand.choose(0)
    assert perft(hand, 1) == 9
