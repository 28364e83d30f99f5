"""Computer players (les joueurs de l'ordinateur): each sees an ``Observation`` and answers
an action — never the game.

``make_player(name, seed)`` builds one by name: ``random``, ``rule``, the levels
``beginner``, ``easy``, ``medium``, ``strong`` and ``expert`` (``chibre.bots.levels``
describes each), ``strong-unread`` (``strong`` without reading the table, to measure it) and
``cheat`` (sees every hand; only for measuring the ceiling).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from chibre.bots.player import Clairvoyant, Player, decision_rng, may_thank
from chibre.bots.random_player import RandomPlayer

# name -> (module, class, keyword arguments); imported when first asked for.
PLAYERS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "random": ("chibre.bots.random_player", "RandomPlayer", {}),
    "rule": ("chibre.bots.rule", "RulePlayer", {}),
    "beginner": ("chibre.bots.beginner", "BeginnerPlayer", {}),
    "easy": ("chibre.bots.strong", "StrongPlayer", {"level": "easy"}),
    "medium": ("chibre.bots.strong", "StrongPlayer", {"level": "medium"}),
    "strong": ("chibre.bots.strong", "StrongPlayer", {"level": "strong"}),
    "expert": ("chibre.bots.strong", "StrongPlayer", {"level": "expert"}),
    # ``strong`` without reading the table: to measure what the reading is worth.
    "strong-unread": ("chibre.bots.strong", "StrongPlayer", {"level": "strong", "read": False}),
    "cheat": ("chibre.bots.cheat", "CheatPlayer", {}),
    # jass-kit's random agent, through the adapter (needs the `reference` extra).
    "jasskit-random": ("chibre.bots.jasskit_agents", "JasskitRandomPlayer", {}),
}

# Players that may sit at a table with humans (the cheat never does).
TABLE_PLAYERS = ("random", "rule", "beginner", "easy", "medium", "strong", "expert")


def make_player(name: str, seed: int = 0) -> Player:
    """The player called ``name`` — or named by a spec of ``chibre.remote`` (``module:Class``,
    ``jasskit-http:URL/NAME``); raises ``ValueError`` naming the players there are."""
    if ":" in name:
        from chibre.remote import make_remote

        return make_remote(name, seed)
    try:
        module, cls, kwargs = PLAYERS[name]
    except KeyError:
        raise ValueError(f"no player {name!r}: choose one of {', '.join(PLAYERS)}") from None
    player: Player = getattr(import_module(module), cls)(seed, **kwargs)
    return player


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
