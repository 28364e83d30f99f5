"""The fitted horizon of the budgeted search (``chibre.bots.horizon``, ``solver_core``)."""

from __future__ import annotations

import math
from random import Random

import pytest

from chibre.bots import horizon, solver
from chibre.bots.solver import solve_exact
from chibre.bots.solver_core import HORIZON_WEIGHTS


def rms(errors: list[float]) -> float:
    return math.sqrt(sum(e * e for e in errors) / len(errors))


def test_the_fitted_horizon_is_nearer_the_exact_value_than_the_sure_tricks_share() -> None:
    rng = Random(7)
    fitted, plain = [], []
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


def test_the_fitting_command_is_reproducible_and_fits(capsys: pytest.CaptureFixture[str]) -> None:
    x, y, _, _ = horizon.samples(60, seed=3)
    again = horizon.samples(60, seed=3)
    assert (x == again[0]).all() and (y == again[1]).all()
    assert x.shape == (60, len(HORIZON_WEIGHTS["trump"]))
    assert horizon.main(["--positions", "45", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[::3]] == list(horizon.KINDS)
    for head, unfitted, fitted in zip(lines[::3], lines[1::3], lines[2::3], strict=True):
        weights = head.split(": (")[1].removesuffix(")").split(", ")
        assert len(weights) == x.shape[1] and all(math.isfinite(float(w)) for w in weights)
        assert unfitted.startswith("  unfitted: ") and fitted.startswith("  fitted: ")
    trump_error = {line.split(":")[0].strip(): float(line.split()[1]) for line in lines[1:3]}
    assert trump_error["fitted"] < trump_error["unfitted"]
