"""What a contract is worth to the hand that names it, learned from hands played out
(la valeur d'un atout / der Wert eines Trumpfs).

For a 9-card hand, a contract and who leads (the hand itself, or its partner after a chibre),
the network of its kind of contract — a trump suit, Obenabe, Undenufe — gives the expected
margin of the team (its card points, the last trick's 5 and the match, less the other team's;
factor 1) when the four seats play the hand out. It is fitted by
``chibre.bots.contract_value_train`` to hands really played out by the search players, every
deal played in all six contracts, so that it knows what the play makes of a hand — not what a
double-dummy solver, which sees every card, would make of it.

The hand is seen the same way in every contract of a kind: the trump suit first, then the side
suits (all four suits in Obenabe and Undenufe) longest first, the stronger first among equals.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from chibre.bots.policy import Array, Network
from chibre.bots.sampling import hand_counts

KINDS = ("trump", "obenabe", "undenufe")
FEATURES = 38
"""The card bits of the four suits in their order (36), whether the hand leads, its count."""
SCALE = 100.0
"""The networks give the margin in hundreds of points."""


def kind_of(contract: int) -> int:
    """0 for a trump suit, 1 for Obenabe, 2 for Undenufe."""
    return 0 if contract < 4 else contract - 3


def _suit(hand: int, s: int) -> int:
    return (hand >> (9 * s)) & 0x1FF


def _reversed(bits: int) -> int:
    return int(f"{bits:09b}"[::-1], 2)


def features(hand: int, contract: int, leads: bool) -> Array:
    """The row the network of ``contract``'s kind values."""
    suits = [_suit(hand, s) for s in range(4)]
    low = contract == 5  # in Undenufe the six is the strongest card

    def strength(bits: int) -> tuple[int, int]:
        return (bits.bit_count(), _reversed(bits) if low else bits)

    first = [suits[contract]] if contract < 4 else []
    rest = [b for s, b in enumerate(suits) if s != contract]
    order = first + sorted(rest, key=strength, reverse=True)
    row = np.zeros(FEATURES, dtype=np.float32)
    for i, bits in enumerate(order):
        for r in range(9):
            row[9 * i + r] = bits >> r & 1
    row[36] = leads
    row[37] = hand_counts(hand)[contract] / 100
    return row


@dataclass(frozen=True)
class ContractValues:
    """One network per kind of contract, and how they were made."""

    networks: tuple[Network, Network, Network]
    meta: dict[str, Any]

    def margins(self, hand: int, leads: bool) -> list[float]:
        """The expected margin of each of the six contracts for ``hand``."""
        out = []
        for k in range(6):
            x = features(hand, k, leads)
            out.append(float(self.networks[kind_of(k)].scores(x)) * SCALE)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "meta": self.meta,
            **{k: n.to_dict() for k, n in zip(KINDS, self.networks, strict=True)},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ContractValues:
        t, o, u = (Network.from_dict(d[k]) for k in KINDS)
        return cls((t, o, u), d["meta"])


@cache
def shipped_values() -> ContractValues:
    """The networks that ship with the package."""
    text = resources.files("chibre.bots").joinpath("contract_values.json").read_text("utf-8")
    return ContractValues.from_dict(json.loads(text))
