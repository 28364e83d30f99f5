"""The horizon's network (``chibre.bots.horizon_net``) and its training
(``chibre.bots.horizon_train``)."""

from __future__ import annotations

import json
import math
from random import Random

import numpy as np

from chibre.bots import horizon, horizon_train, solver, solver_core
from chibre.bots.horizon_net import (
    NET_HIDDEN,
    NET_INPUTS,
    from_json,
    input_rows,
    inputs,
    shipped_net,
    to_json,
)
from chibre.bots.solver import solve_exact
from chibre.bots.solver_core import HORIZON_WEIGHTS


def rms(errors: list[float]) -> float:
    return math.sqrt(sum(e * e for e in errors) / len(errors))


def test_each_card_has_four_inputs_the_trump_suit_first() -> None:
    for contract in range(4):
        rows = input_rows(contract)
        assert sorted(rows) == list(range(0, NET_INPUTS, 4))
        assert [rows[9 * contract + r] for r in range(9)] == [4 * r for r in range(9)]
    hands = (0b111, 0b111000, 0b111000000, 1 << 35)
    got = inputs(hands, 0, 1)
    assert len(got) == len(set(got)) == 10
    assert got[:3] == [3, 7, 11]  # seat 0 plays last after leader 1
    assert got[-1] == 4 * 35 + 2  # the ace of the last suit, with the leader's partner


def test_the_search_evaluates_the_network_it_was_given() -> None:
    net = shipped_net("trump")
    assert net is not None
    w1, b1, w2 = np.array(net.w1), np.array(net.b1), np.array(net.w2)
    rng = Random(11)
    for i in range(60):
        p = horizon.trick_start(rng, 2 + i % 7, i % 4)
        x = np.zeros(NET_INPUTS)
        x[inputs(p.hands, p.contract, p.leader)] = 1.0
        share = 1 / (1 + math.exp(-(np.maximum(x @ w1 + b1, 0) @ w2 + net.b2)))
        team0 = share if p.leader & 1 == 0 else 1 - share
        assert abs(solver.estimate(p.hands, p.contract, p.leader) - team0 * p.points_out()) <= 1


def test_the_network_is_nearer_the_exact_value_than_the_linear_horizon() -> None:
    weights = np.array(HORIZON_WEIGHTS["trump"])
    rng = Random(8)
    net, linear = [], []
    for i in range(80):
        p = horizon.trick_start(rng, 6 + i % 2, i % 4)
        exact = solve_exact(p).score
        team0 = exact if p.leader & 1 == 0 else p.points_out() - exact
        total, *features = solver.horizon_features(p.hands, p.contract, p.leader)
        linear.append(total * min(max(float(weights @ np.array(features)), 0.0), 1.0) - team0)
        net.append(solver.estimate(p.hands, p.contract, p.leader) - team0)
    assert rms(net) < rms(linear), (rms(net), rms(linear))


def test_obenabe_and_undenufe_keep_the_linear_horizon() -> None:
    assert shipped_net("obenabe") is None and shipped_net("undenufe") is None
    assert [solver_core._contract(k)[solver_core._NET] for k in range(6)] == [1, 1, 1, 1, 0, 0]


def test_the_shipped_weights_say_how_they_were_made() -> None:
    from importlib import resources

    data = json.loads(resources.files("chibre.bots").joinpath("horizon_net.json").read_text())
    assert data["held_out_error"] < data["linear_held_out_error"]
    net = from_json(data["nets"]["trump"])
    assert len(net.w1) == NET_INPUTS and len(net.b1) == len(net.w2) == NET_HIDDEN


def test_the_training_is_reproducible_from_end_to_end() -> None:
    one = horizon_train.solved_positions(30, seed=3, chunk=10)
    assert one == horizon_train.solved_positions(30, seed=3, jobs=2, chunk=10)
    assert len(one) == 30 and all(0 <= score <= points for _, _, _, score, points in one)
    first, meta = horizon_train.train(40, seed=3, epochs=2)
    again, _ = horizon_train.train(40, seed=3, epochs=2)
    assert to_json(first) == to_json(again)
    assert (
        meta["command"] == "python -m chibre.bots.horizon_train --positions 40 --seed 3 --epochs 2"
    )
    assert meta["held_out"] == 6 and math.isfinite(meta["held_out_error"])
