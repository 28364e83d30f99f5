"""``random``: a uniform choice among the legal actions — the baseline of the arena."""

from __future__ import annotations

from chibre.actions import Action, Declare, Thank
from chibre.bots.player import decision_rng, may_thank
from chibre.observation import Observation


class RandomPlayer:
    """Plays any legal card or contract with equal chance (and thanks when that wins)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        if may_thank(observation):
            return Thank()
        # declarations outside the card are left aside: weis and stöck go with the card
        legal = [a for a in observation.legal_actions if not isinstance(a, Thank | Declare)]
        return decision_rng(self.seed, observation).choice(legal)
