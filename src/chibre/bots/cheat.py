"""``cheat``: a player that sees every hand — only for measuring the ceiling.

Before each decision the arena shows it all four hands (``see``). It plays the double-dummy
optimum (an estimate within a node budget early in the hand, exact from a few tricks left)
and names the contract that is worth most on the real deal. No table with humans seats it.
"""

from __future__ import annotations

from chibre.actions import Action, Choose, Play, Thank
from chibre.bots.player import choices, may_thank
from chibre.bots.solver import Position, card_results, solve_exact, warm_up
from chibre.bots.strong import card_position, margin
from chibre.observation import Observation
from chibre.weis import STOECK_CARDS, STOECK_POINTS


class CheatPlayer:
    """Le tricheur / der Schummler: solves the real deal, every hand open."""

    name = "cheat"

    def __init__(self, seed: int = 0, max_nodes: int = 20000, exact_tricks: int = 6) -> None:
        self.seed = seed
        self.max_nodes = max_nodes
        self.exact_tricks = exact_tricks
        self.hands: tuple[int, int, int, int] | None = None
        warm_up()

    def see(self, hands: tuple[int, int, int, int]) -> None:
        """Be shown every seat's cards not yet played."""
        self.hands = hands

    def _hands(self, o: Observation) -> tuple[int, int, int, int]:
        if self.hands is None or self.hands[o.seat] != o.hand:
            raise RuntimeError("the cheat player must be shown the hands (see) before it acts")
        return self.hands

    def act(self, observation: Observation) -> Action:
        o = observation
        if may_thank(o):
            return Thank()
        options = choices(o)
        if len(options) == 1:
            return options[0]
        hands = self._hands(o)
        if o.phase == "contract":
            return self._contract(o, options, hands)
        budget = None if 9 - len(o.tricks) <= self.exact_tricks else self.max_nodes
        values = card_results(
            card_position(o, hands), budget
        ).card_scores  # a conceded match counts
        plays = {a.card: a for a in options if isinstance(a, Play)}
        best = max(v for c, v in values.items() if c in plays)
        return plays[min(c for c, v in values.items() if c in plays and v == best)]

    def _contract(
        self, o: Observation, options: list[Action], hands: tuple[int, int, int, int]
    ) -> Action:
        """The contract worth most to our team on this deal (the partner could name no
        better one: the chooser leads either way, so the cheat never chibres)."""
        ours = o.seat & 1
        best: Action = options[0]
        best_score: float | None = None
        for a in options:
            if not isinstance(a, Choose):
                continue
            position = Position(hands=hands, contract=a.contract, leader=o.chooser)
            score = margin(
                solve_exact(position, self.max_nodes).score
            )  # the chooser is on our team
            sc = STOECK_CARDS[a.contract]
            if o.rules.stoeck and sc and any(hands[s] & sc == sc for s in (ours, ours + 2)):
                score += STOECK_POINTS
            score *= o.rules.factor(a.contract, a.double)
            if best_score is None or score > best_score:
                best, best_score = a, score
        return best
