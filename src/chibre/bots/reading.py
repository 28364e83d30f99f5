"""Reading the table (lire le jeu / den Tisch lesen): possible deals weighed by how likely
each makes what the other seats did.

``sample_deals`` draws deals that agree with the hard facts — voids, shown weis, stöck —,
every one counting as much as any other. But a deal in which the partner would never have
chibred, or an opponent would never have led that card, is less likely than one in which
they would have. Under a model of how a seat plays (``chibre.bots.policy``), the likelihood
of a deal is the product, over every action another seat took this hand, of the probability
of that action given that seat's cards in the deal and what it could see then:

- the choice of the contract: the chooser's chibre or the contract it named, the partner's
  contract after a chibre;
- every card played: the leads, the discards, the schmieren, not following a trump lead.

``weighted_deals`` draws ``pool`` times the deals needed, weighs each by its likelihood
raised to ``temper`` (below 1: the model is trusted less than it claims), and resamples the
deals needed (systematic resampling: a deal of weight w is kept about n·w times). With a
model under which the actions tell nothing (``policy.Uninformed``) all weights are equal and
it returns exactly the first deals of the pool — today's unweighted sample.

Everything here reads the ``Observation`` only: the seat's own hand, the public plays and the
contract; the cards of the others come from the sampled deals.
"""

from __future__ import annotations

from random import Random

import numpy as np

from chibre.bots.policy import CHIBRE, ActionModel, Array, moments
from chibre.bots.sampling import Deal4, sample_deals
from chibre.observation import Observation

TEMPER = 0.5
"""The power of each deal's likelihood in its weight."""


def contract_decisions(o: Observation) -> list[tuple[int, bool, int]]:
    """The contract choices of this hand so far as (seat, may chibrer, choice 0..5 or
    ``CHIBRE``): the chibres, then the contract once it is named."""
    if o.chooser < 0 or o.phase not in ("contract", "play"):
        return []
    out = []
    seat = o.chooser
    for i in range(o.chibres + (1 if o.contract >= 0 else 0)):
        may = i == 0 or (i == 1 and o.rules.chibre_back)
        out.append((seat, may, CHIBRE if i < o.chibres else o.contract))
        seat = (seat + 2) & 3
    return out


def log_likelihoods(o: Observation, deals: list[Deal4], policy: ActionModel) -> Array:
    """log P(every action of the other seats this hand | the deal), one per deal."""
    n = len(deals)
    total = np.zeros(n)
    if not n:
        return total
    hidden = np.array(deals, dtype=np.uint64)  # n × 4: each seat's cards now
    seen = moments(o)
    played = [0, 0, 0, 0]
    for m, c in seen:
        played[m.seat] |= 1 << c
    grid = o.rules.grid
    for seat, may, choice in contract_decisions(o):
        if seat == o.seat:
            continue
        hands = [d[seat] | played[seat] for d in deals]
        total += policy.contract_log_probs(hands, may, grid, choice)
    later = list(played)  # each seat's cards played from the current moment on
    for m, c in seen:
        if m.seat != o.seat:
            at = hidden[:, m.seat] | np.uint64(later[m.seat])
            total += policy.card_log_probs(m, at, c)
        later[m.seat] &= ~(1 << c)
    return total


def weights(
    o: Observation, deals: list[Deal4], policy: ActionModel, temper: float = TEMPER
) -> Array:
    """The normalised weight of each deal: likelihood ** ``temper``, summing to 1."""
    log_l = temper * log_likelihoods(o, deals, policy)
    top = log_l.max()
    if not np.isfinite(top):
        return np.full(len(deals), 1 / len(deals))
    w = np.exp(log_l - top)
    result: Array = w / w.sum()
    return result


def weighted_deals(
    o: Observation,
    rng: Random,
    n: int,
    policy: ActionModel,
    pool: int = 2,
    temper: float = TEMPER,
) -> list[tuple[Deal4, int]]:
    """``n`` deals resampled by weight from ``pool · n`` drawn, as (deal, times drawn); the
    times add up to ``n``."""
    drawn = sample_deals(o, rng, pool * n)
    w = weights(o, drawn, policy, temper)
    if float(w.max() - w.min()) <= 1e-12:
        return [(d, 1) for d in drawn[:n]]
    edges = np.cumsum(w)
    start = rng.random()
    picks = np.searchsorted(edges, (start + np.arange(n)) / n * edges[-1], side="right")
    counts: dict[int, int] = {}
    for i in picks:
        j = min(int(i), len(drawn) - 1)
        counts[j] = counts.get(j, 0) + 1
    return [(drawn[j], k) for j, k in sorted(counts.items())]
