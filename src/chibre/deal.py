"""Dealing: shuffle the 36 cards and give 3 × 3 to each seat, starting right of the dealer.

The shuffle comes from the generator passed in: a seeded ``random.Random`` makes a deal
reproducible (tests, replays); ``secure_deal`` uses the operating system's secure source, as
online play must (RULES.md §2).
"""

from __future__ import annotations

import secrets
from operator import itemgetter
from random import Random

from chibre.actions import Deal

_BITS = tuple(1 << c for c in range(36))
_RECEIVED = tuple(
    tuple(
        itemgetter(*(p for p in range(36) if (dealer + 1 + p // 3) % 4 == seat))
        for seat in range(4)
    )
    for dealer in range(4)
)
"""_RECEIVED[dealer][seat]: the positions in the shuffled deck that seat receives — 12
packets of 3, three rounds around the table starting right of the dealer."""


def deal_cards(rng: Random, dealer: int) -> Deal:
    """Shuffle with ``rng`` and deal three rounds of three, starting with seat dealer + 1.

    The order of the deck is that of 36 random keys (a tie: about 1 in 10¹³).
    """
    random = rng.random
    keys = [random() for _ in range(36)]
    deck = sorted(range(36), key=keys.__getitem__)
    bit = _BITS.__getitem__
    h0, h1, h2, h3 = (sum(map(bit, received(deck))) for received in _RECEIVED[dealer])
    return Deal((h0, h1, h2, h3), dealer)


def secure_deal(dealer: int | None = None) -> Deal:
    """A deal shuffled from ``secrets``; the dealer drawn at random when not given."""
    rng = secrets.SystemRandom()
    return deal_cards(rng, rng.randrange(4) if dealer is None else dealer)
