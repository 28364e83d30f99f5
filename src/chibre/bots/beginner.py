"""``beginner``: plays like a casual player — the learned policy, with noise.

Each card is drawn from the policy's probabilities (``chibre.bots.policy``) flattened by a
temperature, and now and then a legal card is taken at random; the contract is drawn the same
way from the contract model. It never searches, so it answers at once, and it errs the way a
casual player errs: plausible cards, often not the best.
"""

from __future__ import annotations

from random import Random

from chibre.actions import Action, Chibre, Choose, Play, Thank
from chibre.bots.player import choices, decision_rng, may_thank
from chibre.bots.policy import CHIBRE, Moment, shipped_policy
from chibre.observation import Observation

TEMPERATURE = 2.0
"""The policy's probabilities are raised to 1 / TEMPERATURE before drawing."""
BLUNDER = 0.15
"""The share of decisions taken at random among the legal ones."""


class BeginnerPlayer:
    """Le débutant / der Anfänger."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.name = "beginner"
        self.policy = shipped_policy()

    def act(self, observation: Observation) -> Action:
        if may_thank(observation):
            return Thank()
        options = choices(observation)
        if len(options) == 1:
            return options[0]
        rng = decision_rng(self.seed, observation)
        if rng.random() < BLUNDER:
            return rng.choice(options)
        if observation.phase == "contract":
            return self._contract(observation, options, rng)
        return self._card(observation, options, rng)

    def _card(self, o: Observation, options: list[Action], rng: Random) -> Action:
        plays = {a.card: a for a in options if isinstance(a, Play)}
        played = sum(1 << c for t in o.tricks for c in t.cards) | sum(1 << c for c in o.trick)
        m = Moment(o.seat, o.contract, o.trick, played, len(o.tricks))
        probs = self.policy.card_probs(m, o.hand)
        cards = [c for c in sorted(plays) if c in probs]
        if not cards:
            return rng.choice(options)
        w = [probs[c] ** (1 / TEMPERATURE) for c in cards]
        return plays[rng.choices(cards, weights=w)[0]]

    def _contract(self, o: Observation, options: list[Action], rng: Random) -> Action:
        may = any(isinstance(a, Chibre) for a in options)
        probs = self.policy.contract_probs(o.hand, may, o.rules.grid)
        by_choice: dict[int, Action] = {}
        for a in options:
            if isinstance(a, Chibre):
                by_choice[CHIBRE] = a
            elif isinstance(a, Choose) and a.contract not in by_choice:
                by_choice[a.contract] = a
        keys = sorted(by_choice)
        w = [probs[k] ** (1 / TEMPERATURE) if k < len(probs) else 0.0 for k in keys]
        if sum(w) <= 0:
            return rng.choice(options)
        return by_choice[rng.choices(keys, weights=w)[0]]
