"""Dealing: shuffle the 36 cards and give 3 × 3 to each seat, starting right of the dealer.

The shuffle comes from the generator passed in: a seeded ``random.Random`` makes a deal
reproducible (tests, replays); ``secure_deal`` uses the operating system's secure source, as
online play must (RULES.md §2).
"""

from __future__ import annotations

import secrets
from random import Random

from chibre.actions import Deal


def deal_cards(rng: Random, dealer: int) -> Deal:
    """Shuffle with ``rng`` and deal three rounds of three, starting with seat dealer + 1."""
    keys = [rng.random() for _ in range(36)]
    deck = sorted(range(36), key=keys.__getitem__)  # a uniformly random order
    hands = [0, 0, 0, 0]
    seats = _RECEIVER[dealer]
    for position, c in enumerate(deck):
        hands[seats[position]] |= 1 << c
    return Deal((hands[0], hands[1], hands[2], hands[3]), dealer)


_RECEIVER = tuple(tuple((dealer + 1 + p // 3) % 4 for p in range(36)) for dealer in range(4))
"""_RECEIVER[dealer][position]: who gets the card at that position of the shuffled deck —
12 packets of 3, three rounds around the table starting right of the dealer."""


def secure_deal(dealer: int | None = None) -> Deal:
    """A deal shuffled from ``secrets``; the dealer drawn at random when not given."""
    rng = secrets.SystemRandom()
    return deal_cards(rng, rng.randrange(4) if dealer is None else dealer)
