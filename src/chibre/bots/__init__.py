"""Computer players (les joueurs de l'ordinateur): each sees an ``Observation`` and answers
an action — never the game.

``make_player(name, seed)`` builds one by name: ``random``, ``rule``, ``easy``, ``medium``,
``strong`` and ``cheat`` (the last sees every hand and is only for measuring the ceiling).
"""

from __future__ import annotations

from collections.abc import Callable

from chibre.bots.player import Clairvoyant, Player, decision_rng, may_thank
from chibre.bots.random_player import RandomPlayer

PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
}

# Players that may sit at a table with humans (the cheat never does).
TABLE_PLAYERS = ("random",)


def make_player(name: str, seed: int = 0) -> Player:
    """The player called ``name``; raises ``ValueError`` naming the players there are."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise ValueError(f"no player {name!r}: choose one of {', '.join(PLAYERS)}") from None
    return factory(seed)


__all__ = [
    "PLAYERS",
    "TABLE_PLAYERS",
    "Clairvoyant",
    "Player",
    "RandomPlayer",
    "decision_rng",
    "make_player",
    "may_thank",
]
