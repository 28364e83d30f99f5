"""A first bot for chibre: it names the contract it holds most cards of and plays its lowest
legal card (the highest when it leads). Seat it at any chibre server:

    chibre bot 'http://127.0.0.1:8000/t/ID?seat=TOKEN' --player examples.lowest_card:LowestCard

or run this file with the link: ``python examples/lowest_card.py URL``. A bot is any object
with a ``name`` and an ``act(observation)`` that returns one of ``observation.legal_actions``
(chibre.observation.Observation: the seat's own cards, the public plays, the scores — never
another seat's cards).
"""

from __future__ import annotations

import asyncio
import sys

from chibre.actions import Action, Choose, Play
from chibre.cards import cards_of
from chibre.client import play_seat
from chibre.observation import Observation


class LowestCard:
    name = "lowest-card"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if observation.phase == "contract":
            suits = [0, 0, 0, 0]
            for card in cards_of(observation.hand):
                suits[card // 9] += 1
            best = Choose(max(range(4), key=lambda s: suits[s]))
            return best if best in legal else legal[0]
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        by_rank = sorted(plays, key=lambda a: a.card % 9)  # 6 lowest … A highest
        return by_rank[-1] if not observation.trick else by_rank[0]


if __name__ == "__main__":
    result = asyncio.run(play_seat(sys.argv[1], LowestCard()))
    print(f"totals {result.view['totals']}, {result.decisions} decisions")
