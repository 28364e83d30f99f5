"""Perft: the number of legal play sequences from a position — a check of move generation.

As in chess engines, the counts from fixed deals are pinned in the tests and re-derived there
by a deliberately simple, independent enumerator.
"""

from __future__ import annotations

from chibre.cards import cards_of
from chibre.hand import Hand


def perft(hand: Hand, plies: int) -> int:
    """Legal card sequences of length ``plies`` from ``hand`` (in its play phase)."""
    legal = hand.legal_cards()
    if plies <= 1 or hand.is_over:
        return legal.bit_count() if plies == 1 else 1
    total = 0
    for c in cards_of(legal):
        child = hand.copy()
        child.play(c)
        total += perft(child, plies - 1) if not child.is_over else 1
    return total
