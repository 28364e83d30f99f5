"""The horizon's network: the share of the points out that the leader's team takes from a
trick's start in a trump contract, learned from exact solves.

Its input is the deal itself: for each card left, which seat holds it counted from the leader
(36 cards × 4 holders, the trump suit first, the side suits in their order), each a 1; one
hidden layer (``NET_HIDDEN`` units, ReLU) and a logistic output. The search keeps the weights
in fixed point in the contract's table (``solver_core._net_share``): a card left adds its row
to the hidden units, so a horizon costs a few hundred additions.

The weights ship in the package (``horizon_net.json``, with the command and seed that made
them); ``chibre.bots.horizon_train`` makes them. Where the file has no network for a kind of
contract, the search keeps the linear horizon (``solver_core.HORIZON_WEIGHTS``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

NET_HIDDEN = 32
"""The hidden units."""
NET_INPUTS = 36 * 4
"""The inputs: each card with each of the four holders, counted from the leader."""
WEIGHTS_FILE = "horizon_net.json"


@dataclass(frozen=True)
class Net:
    """A network's weights: ``w1`` by input (``NET_INPUTS`` rows of ``NET_HIDDEN``), then the
    hidden biases, the output weights and the output bias."""

    w1: tuple[tuple[float, ...], ...]
    b1: tuple[float, ...]
    w2: tuple[float, ...]
    b2: float


def input_rows(contract: int) -> list[int]:
    """For each card 0..35, its first input in a trump ``contract``: 4 × its place in the
    order trump suit first, then the side suits in their order, each by rank."""
    suits = [contract] + [s for s in range(4) if s != contract]
    place = {s: i for i, s in enumerate(suits)}
    return [4 * (9 * place[c // 9] + c % 9) for c in range(36)]


def inputs(hands: tuple[int, ...] | list[int], contract: int, leader: int) -> list[int]:
    """The inputs that are 1 at a trick's start (``hands``, the leader ``leader``)."""
    rows = input_rows(contract)
    return [
        rows[c] + ((seat - leader) & 3)
        for seat in range(4)
        for c in range(36)
        if hands[seat] >> c & 1
    ]


def from_json(data: dict[str, object]) -> Net:
    """A network from its JSON form (``to_json``)."""
    w1 = data["w1"]
    b1 = data["b1"]
    w2 = data["w2"]
    assert isinstance(w1, list) and isinstance(b1, list) and isinstance(w2, list)
    if len(w1) != NET_INPUTS or any(len(r) != NET_HIDDEN for r in w1):
        raise ValueError(f"w1 must be {NET_INPUTS} rows of {NET_HIDDEN}")
    if len(b1) != NET_HIDDEN or len(w2) != NET_HIDDEN:
        raise ValueError(f"b1 and w2 must have {NET_HIDDEN} weights")
    return Net(
        w1=tuple(tuple(float(x) for x in r) for r in w1),
        b1=tuple(float(x) for x in b1),
        w2=tuple(float(x) for x in w2),
        b2=float(data["b2"]),  # type: ignore[arg-type]
    )


def to_json(net: Net) -> dict[str, object]:
    """The JSON form of ``net``, rounded to what the fixed point of the search keeps."""
    return {
        "w1": [[round(x, 5) for x in r] for r in net.w1],
        "b1": [round(x, 5) for x in net.b1],
        "w2": [round(x, 5) for x in net.w2],
        "b2": round(net.b2, 6),
    }


@cache
def shipped_net(kind: str) -> Net | None:
    """The shipped network for ``kind`` (``trump``, ``obenabe``, ``undenufe``), or None."""
    text = resources.files("chibre.bots").joinpath(WEIGHTS_FILE).read_text()
    nets = json.loads(text)["nets"]
    return from_json(nets[kind]) if kind in nets else None
