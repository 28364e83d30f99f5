"""Fair and verifiable deals (des donnes vérifiables): the table commits to every deal of a
game before its first card and proves it when the game is over.

Before the first deal the table draws a secret **seed** (32 random bytes, written in hex) and
publishes its **commitment**, ``sha256:`` followed by the SHA-256 of ``chibre-deals-1:SEED``.
Every deal of the game follows from the seed alone (scheme ``chibre-deals-1``):

- hand ``k`` (from 0): a generator ``random.Random`` seeded with the SHA-256 digest of
  ``chibre-deals-1:SEED:k`` shuffles the cards and deals them as ``chibre.deal.deal_cards``
  does for dealer 0, which fixes the cards of each seat;
- the first dealer: ``random.Random`` seeded with the digest of ``chibre-deals-1:SEED:dealer``,
  ``randrange(4)``; later dealers follow the rules (the previous chooser deals).

A **turned** table of a duplicate round (``chibre.tournament.duplicate``) gives seat ``s`` the
cards of seat ``s + 1`` and the deal to the seat before the dealer.

When the game is over the seed is revealed. ``chibre verify RECORD`` then checks that the seed
gives the commitment and that every deal of the record is the one the seed gives: a deal or a
seed changed afterwards is caught, and nobody could choose the seed for the cards it gives
without breaking SHA-256. The record's ``deals`` field carries the scheme, the commitment, the
seed and ``turned``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from random import Random
from typing import Any

from chibre.actions import Deal
from chibre.deal import deal_cards
from chibre.game import CHANCE, Game, GameRecord
from chibre.tournament import TournamentError

SCHEME = "chibre-deals-1"


def new_seed() -> str:
    """A fresh secret seed from the operating system's secure source."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The public commitment to ``seed``: ``sha256:`` and 64 hex digits."""
    return "sha256:" + hashlib.sha256(f"{SCHEME}:{seed}".encode()).hexdigest()


def _rng(seed: str, what: str) -> Random:
    return Random(hashlib.sha256(f"{SCHEME}:{seed}:{what}".encode()).digest())


@dataclass(frozen=True)
class DealSource:
    """The deals a seed gives, at a table held as dealt or ``turned``."""

    seed: str
    turned: bool = False

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def cards(self, hand: int) -> tuple[int, int, int, int]:
        """The cards of seats 0..3 in hand ``hand`` (from 0)."""
        h = deal_cards(_rng(self.seed, str(hand)), 0).hands
        return (h[1], h[2], h[3], h[0]) if self.turned else h

    def first_dealer(self) -> int:
        dealer = _rng(self.seed, "dealer").randrange(4)
        return (dealer - 1) % 4 if self.turned else dealer

    def next_deal(self, game: Game) -> Deal:
        """The deal of the game's next hand."""
        dealer = game.next_dealer()
        return Deal(self.cards(len(game.hands)), self.first_dealer() if dealer is None else dealer)

    def to_dict(self, reveal: bool) -> dict[str, Any]:
        """The record's ``deals`` field: the seed only when ``reveal``."""
        out: dict[str, Any] = {"scheme": SCHEME, "commitment": self.commitment}
        if self.turned:
            out["turned"] = True
        if reveal:
            out["seed"] = self.seed
        return out


def verify(record: GameRecord, deals: Any, published: str | None = None) -> list[str]:
    """What is wrong with the record's deals (empty: every deal is the one committed to).
    ``deals`` is the record's ``deals`` field; ``published``: the commitment shown at the
    table, when the checker noted it."""
    if not isinstance(deals, dict):
        return ['the record has no "deals" field: its deals were not committed to']
    if deals.get("scheme") != SCHEME:
        return [f"unknown deal scheme {deals.get('scheme')!r} (this chibre knows {SCHEME})"]
    seed, committed = deals.get("seed"), deals.get("commitment")
    if not isinstance(seed, str) or not seed:
        return ["the seed is not revealed yet: it is, once the game is over"]
    problems = []
    if committed != commitment(seed):
        problems.append(f"the seed does not give the commitment {committed}")
    if published is not None and published != committed:
        problems.append(
            f"the record's commitment {committed} is not the one published, {published}"
        )
    source = DealSource(seed, bool(deals.get("turned", False)))
    game = Game(record.rules)
    hand = 0
    for seat, entry in record.entries:
        if seat == CHANCE:
            assert isinstance(entry, Deal)
            expected = source.next_deal(game)
            if entry.hands != expected.hands:
                problems.append(f"hand {hand + 1}: the cards are not those the seed deals")
            elif entry.dealer != expected.dealer:
                problems.append(
                    f"hand {hand + 1}: seat {entry.dealer} deals, the seed says seat "
                    f"{expected.dealer}"
                )
            hand += 1
            game.apply(entry)
        else:
            game.apply(entry, seat)
    return problems


def check_seed(seed: str) -> str:
    """``seed`` if it can seed deals (text of 1 to 128 characters), else ``TournamentError``."""
    if not isinstance(seed, str) or not 0 < len(seed) <= 128:
        raise TournamentError("a deal seed is text of 1 to 128 characters")
    return seed


__all__ = ["SCHEME", "DealSource", "check_seed", "commitment", "new_seed", "verify"]
