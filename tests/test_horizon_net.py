"""The learned horizon of the budgeted search (``chibre.bots.horizon_net``)."""

from __future__ import annotations

import math
from pathlib import Path
from random import Random

import numpy as np
import pytest

from chibre.bots import horizon, horizon_net, solver
from chibre.bots.solver import card_results, solve_exact
from chibre.bots.strong import LEVELS_COMPILED
from chibre.play import BOURG


def rms(errors: list[int]) -> float:
    return math.sqrt(sum(e * e for e in errors) / len(errors))


def test_the_shipped_network_is_nearer_the_exact_value_than_the_linear_horizon() -> None:
    rng = Random(7)
    net, linear = [], []
    for i in range(120):
        p = horizon.trick_start(rng, 5 + i % 3, i % 6)
        exact = solve_exact(p).score
        team0 = exact if p.leader & 1 == 0 else p.points_out() - exact
        got = solver.estimate(p.hands, p.contract, p.leader, net=True)
        assert 0 <= got <= p.points_out()
        net.append(got - team0)
        linear.append(solver.estimate(p.hands, p.contract, p.leader) - team0)
    assert rms(net) < 0.85 * rms(linear), (rms(net), rms(linear))


def test_the_shipped_weights_name_their_command_and_fit_the_search() -> None:
    weights = horizon_net.load()
    assert str(weights["command"]).startswith("python -m chibre.bots.horizon_net ")
    for kind in horizon.KINDS:
        assert weights[f"{kind}_W1"].shape == (144, horizon_net.HIDDEN)
        assert weights[f"{kind}_b1"].shape == weights[f"{kind}_W2"].shape == (horizon_net.HIDDEN,)
        assert weights[f"{kind}_b2"].shape == (1,)
    assert LEVELS_COMPILED["strong"].net and LEVELS_COMPILED["expert"].net


@pytest.mark.parametrize("contract", range(6))
def test_each_card_has_its_own_slot_the_trump_suit_first(contract: int) -> None:
    slots = horizon_net.card_slots(contract)
    assert sorted(slots) == list(range(36))
    if contract < 4:
        assert sorted(slots[9 * contract : 9 * contract + 9]) == list(range(9))
        assert slots[BOURG[contract].bit_length() - 1] == 0


def test_the_network_is_what_the_search_uses_at_its_horizon() -> None:
    """A search one trick deep values each card by the horizon after it: with ``net`` those
    are the network's values, which differ from the linear horizon's."""
    rng = Random(3)
    differ = 0
    for i in range(20):
        p = horizon.trick_start(rng, 7, i % 6)
        plain = card_results(p, 1).card_scores
        learned = card_results(p, 1, net=True).card_scores
        assert plain.keys() == learned.keys()
        differ += plain != learned
    assert differ >= 10


@pytest.mark.skipif(not solver.jit_available(), reason="the compiled search is not installed")
def test_the_compiled_and_the_plain_network_agree() -> None:
    rng = Random(5)
    for i in range(40):
        p = horizon.trick_start(rng, 5 + i % 4, i % 6)
        args = (list(p.hands), p.contract, p.leader, (), (False, False), 0)
        compiled = solver._core("numba").search(*args, 3000, True, True)
        plain = solver._core("python").search(*args, 3000, True, True)
        assert compiled == plain, p


def test_fitting_lowers_the_error_and_the_command_writes_loadable_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = np.array(horizon_net.solved(4, 300, "trump"), dtype=np.int64)
    assert (rows == np.array(horizon_net.solved(4, 300, "trump"))).all()
    untrained = horizon_net.Net(16, 1).error(rows)
    assert horizon_net.fit(rows, 16, 40, 1).error(rows) < 0.85 * untrained
    out = tmp_path / "net.npz"
    argv = [
        "--positions",
        "40",
        "--epochs",
        "1",
        "--jobs",
        "1",
        "--played",
        "20",
        "--out",
        str(out),
    ]
    assert horizon_net.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == list(horizon.KINDS)
    assert lines[3] == f"weights written to {out}"
    weights = horizon_net.load(out)
    assert str(weights["command"]) == "python -m chibre.bots.horizon_net " + " ".join(argv)
    assert weights.keys() == horizon_net.load().keys()
    assert all(np.isfinite(a).all() for k, a in weights.items() if k != "command")
