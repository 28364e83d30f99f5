"""The decisions of a game record, each with what the seat knew when it took it.

``decisions(record, seats)`` replays the record and stops before every action of those
seats where there was a choice: the contract (naming one, chibre, pique double) and each
card (with the weis and stöck declared with it). Each ``Decision`` keeps the seat's
``Observation`` — all the coach may use to judge it — and, apart, the hands as they really
were (``hands``), used only for the hindsight column.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chibre.actions import Action, Chibre, Choose, Deal, Play
from chibre.bots.player import choices
from chibre.game import Game, GameRecord
from chibre.observation import Observation

CONTRACT = "contract"
CARD = "card"


@dataclass(frozen=True)
class Decision:
    """One choice of ``seat``: ``kind`` ``contract`` or ``card``, ``action`` what it did,
    ``observation`` what it knew. ``hand_index``: the hand of the game (0 first);
    ``entry``: the action's place in the record; ``hands``: every seat's cards at that
    moment (hindsight only)."""

    seat: int
    kind: str
    action: Action
    observation: Observation
    hand_index: int
    entry: int
    hands: tuple[int, int, int, int]


def _is_decision(action: Action) -> bool:
    return isinstance(action, Play | Choose | Chibre)


def decisions(record: GameRecord, seats: Iterable[int] = (0, 1, 2, 3)) -> list[Decision]:
    """Every decision of ``seats`` in ``record`` that had more than one sensible option
    (``chibre.bots.player.choices``), in the order played."""
    wanted = set(seats)
    game = Game(record.rules)
    out: list[Decision] = []
    for i, (seat, action) in enumerate(record.entries):
        if isinstance(action, Deal):
            game.apply(action)
            continue
        hand = game.hand
        if seat in wanted and _is_decision(action) and hand is not None:
            o = game.observation(seat)
            if o.to_act == seat and len(choices(o)) > 1:
                kind = CARD if isinstance(action, Play) else CONTRACT
                h = hand.hands
                out.append(
                    Decision(
                        seat=seat,
                        kind=kind,
                        action=action,
                        observation=o,
                        hand_index=len(game.hands) - 1,
                        entry=i,
                        hands=(h[0], h[1], h[2], h[3]),
                    )
                )
        game.apply(action, seat)
    return out
