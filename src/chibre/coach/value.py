"""What each option of a decision is worth, from the seat's observation only.

The deals are those the strong players reason over: drawn consistent with the observation
and resampled by how likely each makes what the other seats did
(``chibre.bots.reading.weighted_deals`` under the shipped policy), from a generator seeded by
the review's seed and the public moment (``chibre.bots.player.decision_rng``) — so the same
observation always gets the same deals, whatever the hidden cards really were.

- A card: on every deal the double-dummy solver values each legal card — the points our team
  takes from here on (card points, the last trick's 5, our match bonus; minus the bonus when
  the other team makes match) — exactly in the last tricks (``Budget.exact_tricks``), with a
  node budget before.
- The contract: each contract is played out with the chooser leading as the players value
  it (``chibre.bots.rollout.rollout_score``): every seat plays the policy's likeliest card for
  its own hand down to ``exact_tricks`` tricks left, and the rest is solved exactly — no seat
  plays the early tricks as if it saw the others' cards, and a match is seen where a budgeted
  search from the first card stops short of it. A contract's value is half our margin (our
  points less theirs, with both teams' stöck) times its factor, so that one card point taken
  from the other team counts one, as for a card. Chibre is valued by the contract the
  partner's own hand counts best in (``chibre.bots.sampling.hand_counts``, the multiplier
  weighed as the players weigh it), played out on the same deal. A contract the chooser's own
  hand takes every trick in (``sure_match``) is worth the match on every deal: exact, where
  the play-out would only estimate it.

The values of every option share the deals, so the loss of one option against another is
measured paired, deal by deal (``paired_loss``), with its standard error over the effective
number of distinct deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from random import Random

import numpy as np

from chibre.actions import Action, Chibre, Choose, Play
from chibre.bots.player import choices, decision_rng
from chibre.bots.policy import shipped_policy
from chibre.bots.reading import weighted_deals
from chibre.bots.rollout import rollout_score
from chibre.bots.sampling import Deal4, hand_counts
from chibre.bots.solver import Position, card_results
from chibre.bots.strong import COUNT_PER_FACTOR, HAND_POINTS, card_position, margin
from chibre.cards import SUIT_MASKS, cards_of
from chibre.observation import Observation
from chibre.play import MATCH_BONUS, TRUMP_STRENGTH
from chibre.weis import STOECK_CARDS, STOECK_POINTS

Array = np.ndarray


@dataclass(frozen=True)
class Budget:
    """How hard the coach looks: deals per decision, solver nodes per deal early in the hand
    (``nodes``) and from ``exact_tricks`` tricks left (``end_nodes``, enough to be exact),
    deals for the contract; ``seed`` makes a review reproducible."""

    samples: int = 32
    nodes: int = 60_000
    exact_tricks: int = 5
    end_nodes: int = 400_000
    contract_samples: int = 24
    pool: int = 2
    seed: int = 0


@dataclass(frozen=True)
class Valuation:
    """The options of a decision and their values: ``values[i, j]`` is option ``j`` on deal
    ``i``, which counts ``times[i]`` times; ``deals`` the deals themselves; ``exact``
    whether every value is the exact double-dummy one; ``points_out`` the points still to
    take in the hand (a card's value above it includes our match)."""

    options: tuple[Action, ...]
    values: Array
    times: Array
    deals: tuple[Deal4, ...]
    exact: bool
    points_out: int = 0

    @classmethod
    def over(
        cls,
        options: tuple[Action, ...],
        rows: Sequence[Sequence[float]],
        deals: list[tuple[Deal4, int]],
        exact: bool,
        points_out: int = 0,
    ) -> Valuation:
        """The valuation of ``options`` whose values on each of the weighed ``deals`` are
        the ``rows``."""
        return cls(
            options=options,
            values=np.array(rows, dtype=float),
            times=np.array([t for _, t in deals], dtype=float),
            deals=tuple(d for d, _ in deals),
            exact=exact,
            points_out=points_out,
        )

    def means(self) -> Array:
        """The expected value of each option."""
        result: Array = self.times @ self.values / self.times.sum()
        return result

    def best(self) -> int:
        """The index of the best option (the first of equals, in the order of ``options``)."""
        return int(np.argmax(self.means()))

    def index(self, action: Action) -> int:
        """The index of the option ``action`` stands for (a card: whatever it declared)."""
        for j, a in enumerate(self.options):
            if a == action or (
                isinstance(a, Play) and isinstance(action, Play) and a.card == action.card
            ):
                return j
        raise ValueError(f"{action!r} is not one of the options")


def paired_loss(v: Valuation, better: int, taken: int) -> tuple[float, float]:
    """The mean loss of option ``taken`` against ``better`` and its standard error, deal by
    deal; the error divides by the effective number of deals (a deal drawn twice by the
    resampling counts as one and a bit, not two)."""
    d = v.values[:, better] - v.values[:, taken]
    w = v.times / v.times.sum()
    mean = float(w @ d)
    n_eff = 1.0 / float(w @ w)
    if n_eff <= 1.0:
        return mean, 0.0
    var = float(w @ (d - mean) ** 2) * n_eff / (n_eff - 1.0)
    return mean, sqrt(max(var, 0.0) / n_eff)


def _deals(o: Observation, budget: Budget, n: int) -> list[tuple[Deal4, int]]:
    rng: Random = decision_rng(budget.seed, o)
    return weighted_deals(o, rng, n, shipped_policy(), budget.pool)


def value_cards(o: Observation, budget: Budget) -> Valuation:
    """Every legal card of the seat to play, valued over the deals."""
    plays = tuple(a for a in choices(o) if isinstance(a, Play))
    tricks_left = 9 - len(o.tricks)
    nodes = budget.end_nodes if tricks_left <= budget.exact_tricks else budget.nodes
    deals = _deals(o, budget, budget.samples)
    rows, exact, points_out = [], True, 0
    for hands, _ in deals:
        position = card_position(o, hands)
        result = card_results(position, nodes)
        exact = exact and result.exact
        points_out = position.points_out()
        rows.append([result.card_scores[p.card] for p in plays])
    return Valuation.over(plays, rows, deals, exact, points_out)


def partner_contract(hand: int, grid: tuple[int, ...]) -> int:
    """The contract a partner handed the choice names, by its own hand's count."""
    counts = hand_counts(hand)
    return max(range(6), key=lambda k: counts[k] + COUNT_PER_FACTOR * grid[k])


def _stoeck_margin(hands: Deal4, seat: int, contract: int, on: bool) -> int:
    """Stöck in ``contract``: +20 when our team holds them, -20 when theirs does."""
    if not on or contract >= 4:
        return 0
    sc = STOECK_CARDS[contract]
    ours = hands[seat] & sc == sc or hands[seat ^ 2] & sc == sc
    theirs = hands[seat ^ 1] & sc == sc or hands[seat ^ 3] & sc == sc
    return STOECK_POINTS * (int(ours) - int(theirs))


def sure_match(hand: int, contract: int) -> bool:
    """Whether ``hand``, leading, takes all nine tricks in ``contract`` whatever the others
    hold: in a trump contract its unbroken run of top trumps outnumbers the trumps out and
    every other card is the top of an unbroken run of its suit; without trump every card is.
    """
    rest = hand
    if contract < 4:
        trumps = hand & SUIT_MASKS[contract]
        order = sorted(cards_of(SUIT_MASKS[contract]), key=lambda c: -TRUMP_STRENGTH[c % 9])
        top = 0
        while top < 9 and trumps >> order[top] & 1:
            top += 1
        if top < 9 - trumps.bit_count():
            return False
        rest = hand & ~SUIT_MASKS[contract]
    for suit in range(4):
        if contract < 4 and suit == contract:
            continue
        held = (rest >> (9 * suit)) & 0x1FF
        ranks = range(8, -1, -1) if contract != 5 else range(9)
        run = 0
        for r in ranks:
            if not held >> r & 1:
                break
            run += 1
        if run != held.bit_count():
            return False
    return True


def value_contract(o: Observation, budget: Budget) -> Valuation:
    """Every contract the seat may name (and chibre, where it may), valued over the deals."""
    options = tuple(a for a in choices(o) if isinstance(a, Choose | Chibre))
    rules = o.rules
    deals = _deals(o, budget, budget.contract_samples)
    rows = []
    for hands, _ in deals:
        margins: dict[int, int] = {}

        def worth(k: int, hands: Deal4 = hands, margins: dict[int, int] = margins) -> int:
            if k not in margins and o.seat == o.chooser and sure_match(o.hand, k):
                margins[k] = margin(HAND_POINTS + MATCH_BONUS) + _stoeck_margin(
                    hands, o.seat, k, rules.stoeck
                )
            if k not in margins:
                position = Position(hands=hands, contract=k, leader=o.chooser)
                score = rollout_score(shipped_policy(), position, 0, 0, budget.exact_tricks)
                sign = 1 if o.chooser & 1 == o.seat & 1 else -1
                margins[k] = sign * margin(score) + _stoeck_margin(hands, o.seat, k, rules.stoeck)
            return margins[k]

        row = []
        for a in options:
            if isinstance(a, Choose):
                row.append(rules.factor(a.contract, a.double) * worth(a.contract) / 2)
            else:
                k = partner_contract(hands[o.seat ^ 2], rules.grid)
                row.append(rules.factor(k) * worth(k) / 2)
        rows.append(row)
    return Valuation.over(options, rows, deals, exact=False)


def hindsight(o: Observation, hands: Deal4) -> tuple[int, ...] | None:
    """The best cards with every hand open, where the solver is exact within
    ``exact_tricks`` (``None`` earlier): the cards of the highest value, lowest first."""
    position = card_position(o, hands)
    if position.tricks_left > Budget.exact_tricks:
        return None
    result = card_results(position)
    top = max(result.card_scores.values())
    return tuple(sorted(c for c, v in result.card_scores.items() if v == top))
