"""The fitted horizon of the budgeted search (``chibre.bots.horizon``, ``solver_core``)."""

from __future__ import annotations

import math
from dataclasses import replace
from random import Random

import numpy as np
import pytest

from chibre.bots import horizon, solver
from chibre.bots.solver import Position, solve_exact
from chibre.bots.solver_core import HORIZON_WEIGHTS, MATCH_WEIGHTS
from chibre.cards import card
from chibre.play import MATCH_BONUS

OBENABE = 4


def rms(errors: list[float]) -> float:
    return math.sqrt(sum(e * e for e in errors) / len(errors))


def test_the_fitted_horizon_is_nearer_the_exact_value_than_the_sure_tricks_share() -> None:
    rng = Random(7)
    fitted: list[float] = []
    plain: list[float] = []
    for i in range(90):
        p = horizon.trick_start(rng, 5, i % 4)
        exact = solve_exact(p).score
        team0 = exact if p.leader & 1 == 0 else p.points_out() - exact
        total, _, share, *_ = solver.horizon_features(p.hands, p.contract, p.leader)
        estimate = solver.estimate(p.hands, p.contract, p.leader)
        assert 0 <= estimate <= total == p.points_out()
        fitted.append(estimate - team0)
        plain.append(total * share - team0)
    assert rms(fitted) < 0.7 * rms(plain), (rms(fitted), rms(plain))


@pytest.mark.skipif(not solver.jit_available(), reason="the compiled search is not installed")
def test_the_compiled_and_the_plain_horizon_agree() -> None:
    compiled, plain = solver._core("numba"), solver._core("python")
    rng = Random(5)
    for i in range(600):
        p = horizon.trick_start(rng, 2 + i % 7, i % 6)
        args = (p.hands, p.contract, p.leader)
        assert compiled.horizon_features(*args) == plain.horizon_features(*args), p
        assert compiled.estimate(*args) == plain.estimate(*args), p
        for taken in ((True, False), (False, True), (False, False)):
            with_match = (*args, taken, MATCH_BONUS)
            assert compiled.estimate(*with_match) == plain.estimate(*with_match), (p, taken)


def test_the_fitting_command_is_reproducible_and_fits(capsys: pytest.CaptureFixture[str]) -> None:
    x, y, _, _ = horizon.samples(60, seed=3)
    again = horizon.samples(60, seed=3)
    assert (x == again[0]).all() and (y == again[1]).all()
    assert x.shape == (60, len(HORIZON_WEIGHTS["trump"]))
    assert horizon.main(["--positions", "45", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[::4]] == list(horizon.KINDS)
    heads = zip(lines[::4], lines[1::4], lines[2::4], lines[3::4], strict=True)
    for head, unfitted, fitted, match in heads:
        for line in (head, match):
            weights = line.split(": (")[1].split(")")[0].split(", ")
            assert len(weights) == x.shape[1] and all(math.isfinite(float(w)) for w in weights)
        assert unfitted.startswith("  unfitted: ") and fitted.startswith("  fitted: ")
        assert match.startswith("  match: (") and " log-loss " in match
    trump_error = {line.split(":")[0].strip(): float(line.split()[1]) for line in lines[1:3]}
    assert trump_error["fitted"] < trump_error["unfitted"]


def test_match_positions_are_labelled_by_the_exact_solve() -> None:
    x, y = horizon.match_samples(40, seed=4)
    assert x.shape == (40, len(HORIZON_WEIGHTS["trump"])) and set(y) <= {0.0, 1.0}
    rng = Random(4)
    for i in range(40):
        left = horizon.MATCH_TRICKS_LEFT[i % len(horizon.MATCH_TRICKS_LEFT)]
        p = horizon.trick_start(rng, left, rng.choice(horizon.KINDS["trump"]))
        p = replace(p, taken=(True, False), match_bonus=MATCH_BONUS)
        score = solve_exact(p).score
        team0 = score if p.leader & 1 == 0 else p.points_out() - score
        assert y[i] == (team0 == p.points_out() + MATCH_BONUS)


def test_the_shipped_match_weights_foresee_matches_better_than_their_rate() -> None:
    x, y = horizon.match_samples(150, seed=11)
    p = 1.0 / (1.0 + np.exp(-(x @ np.array(MATCH_WEIGHTS["trump"]))))
    rate = np.full(len(y), min(max(float(y.mean()), 0.01), 0.99))
    assert 0 < y.sum() < len(y)
    assert horizon.log_loss(p, y) < 0.7 * horizon.log_loss(rate, y)


def test_the_logistic_fit_separates_what_it_can() -> None:
    x = np.array([[1.0, v] for v in np.linspace(-2, 2, 41)])
    y = (x[:, 1] > 0).astype(float)
    w = horizon.fit_logistic(x, y)
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    assert (p[x[:, 1] > 0.3] > 0.9).all() and (p[x[:, 1] < -0.3] < 0.1).all()
    assert horizon.log_loss(p, y) < horizon.log_loss(np.full(41, 0.5), y) / 4


def sure_match() -> Position:
    """Obenabe, seat 0 to lead the first trick; team 0 holds the ace, king, queen and jack of
    every suit and two tens: it takes every trick whatever anybody plays."""
    tops = [card(s, r) for s in range(4) for r in (8, 7, 6, 5)]
    team0 = [*tops, card(0, 4), card(1, 4)]
    team1 = [c for c in range(36) if c not in team0]
    hands = (
        sum(1 << c for c in team0[0::2]),
        sum(1 << c for c in team1[0::2]),
        sum(1 << c for c in team0[1::2]),
        sum(1 << c for c in team1[1::2]),
    )
    return Position(hands, OBENABE, 0, (), (False, False), MATCH_BONUS)


def test_the_horizon_counts_a_match_in_the_making() -> None:
    p = sure_match()
    out = p.points_out()
    assert solve_exact(p).score == out + MATCH_BONUS
    # after one trick taken by team 0 (the hands as they are: the horizon reads the cards)
    plain = solver.estimate(p.hands, OBENABE, 0)
    in_reach = solver.estimate(p.hands, OBENABE, 0, (True, False), MATCH_BONUS)
    assert plain <= out < in_reach <= out + MATCH_BONUS
    assert in_reach > out + MATCH_BONUS * 0.8
    # the team that cannot take a trick: its match is no threat, team 0's match still counts
    assert solver.estimate(p.hands, OBENABE, 0, (False, True), MATCH_BONUS) > plain - 5
    # a budgeted search, its horizon one trick away, already sees the match
    shallow = solver.solve_exact(p, 1)
    assert shallow.depth < 9 and shallow.score > out + MATCH_BONUS * 0.8
