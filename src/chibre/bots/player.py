"""The one interface of every computer player: an ``Observation`` in, an action out.

A player never receives the game. It is built from a name and a seed; its decisions depend on
nothing but the observation and that seed (``decision_rng``), so two games that differ only in
cards a seat cannot see give the same decision — the honesty the tests prove.
"""

from __future__ import annotations

from random import Random
from typing import Protocol, runtime_checkable

from chibre.actions import Action, Declare, Play, Thank
from chibre.observation import Observation


class Player(Protocol):
    """Un joueur / ein Spieler: answers the seat's observation with one of its legal actions."""

    name: str

    def act(self, observation: Observation) -> Action:
        """The action to take; ``observation.legal_actions`` is never empty when called."""
        ...


@runtime_checkable
class Clairvoyant(Protocol):
    """A player that is shown every hand before it acts (the ``cheat`` player, only for
    measuring the ceiling). Tables with humans never seat one."""

    def see(self, hands: tuple[int, int, int, int]) -> None: ...


def decision_rng(seed: int, observation: Observation) -> Random:
    """A generator for one decision, from the seed and the public moment only."""
    o = observation
    played = sum(len(t.cards) for t in o.tricks) + len(o.trick)
    return Random(f"{seed}:{o.seat}:{o.hand_number}:{o.chibres}:{o.contract}:{played}")


def may_thank(observation: Observation) -> bool:
    """Whether thanking now would win: our total has reached the target."""
    o = observation
    return o.rules.claim == "thank" and o.totals[o.seat & 1] >= o.rules.target


def choices(observation: Observation) -> list[Action]:
    """The legal actions a sensible player picks from: thank only when it wins, and never
    keep quiet about weis or stöck the table lets the player declare — with the card: the
    declarations outside the card (``Declare``) are left aside."""
    legal: list[Action] = [
        a for a in observation.legal_actions if not isinstance(a, Thank | Declare)
    ]
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        fullest: dict[int, Play] = {}
        for p in plays:
            best = fullest.get(p.card)
            if best is None or (len(p.weis), p.stoeck) > (len(best.weis), best.stoeck):
                fullest[p.card] = p
        return list(fullest.values())
    return legal
