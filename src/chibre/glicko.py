"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), by which the Jass
Challenge's tournaments rank their bots: every pairing is one rating period for both of its
entrants (``chibre.server.jass_challenge``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Between the Glicko scale (1500 ± 350) and Glicko-2's (0 ± 2.01)."""
TAU = 0.5
"""How much the volatility may change in a period."""
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A rating, its deviation and its volatility (a new player's are the defaults)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def update(player: Rating, games: Sequence[tuple[Rating, float]]) -> Rating:
    """The player's rating after a period of ``games``: each the opponent's rating before the
    period and the player's score (1 won, 0.5 drawn, 0 lost)."""
    phi = player.deviation / SCALE
    if not games:  # no game: only the deviation grows
        grown = math.sqrt(phi**2 + player.volatility**2)
        return Rating(player.rating, SCALE * grown, player.volatility)
    mu = (player.rating - 1500) / SCALE
    gs, es, scores = [], [], []
    for opponent, score in games:
        g = 1 / math.sqrt(1 + 3 * (opponent.deviation / SCALE) ** 2 / math.pi**2)
        gs.append(g)
        es.append(1 / (1 + math.exp(-g * (mu - (opponent.rating - 1500) / SCALE))))
        scores.append(score)
    v = 1 / sum(g * g * e * (1 - e) for g, e in zip(gs, es, strict=True))
    gained = sum(g * (s - e) for g, e, s in zip(gs, es, scores, strict=True))
    delta = v * gained
    sigma = _volatility(phi, player.volatility, v, delta)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    return Rating(SCALE * (mu + phi_new**2 * gained) + 1500, SCALE * phi_new, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """The new volatility (step 5 of the paper: the Illinois algorithm)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)


__all__ = ["Rating", "update"]
