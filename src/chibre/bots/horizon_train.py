"""Training the horizon's network (``chibre.bots.horizon_net``): exact solves, then a numpy fit.

    python -m chibre.bots.horizon_train --positions 20000 --seed 1 --jobs 2 \\
        --out src/chibre/bots/horizon_net.json

**Data:** ``positions`` trick starts of trump contracts with 5 to 8 tricks left (random deals,
the tricks before played at random among the legal cards: ``horizon.trick_start``), drawn in
chunks of ``CHUNK`` each seeded by its number (so any number of processes draws the same
positions), each solved exactly; the label is the share of the points out that the leader's
team takes. The last ``HELD_OUT`` of them are held out. **Fit:** one hidden layer, a logistic
output; the loss is the squared error in points; Adam on shuffled mini-batches (numpy,
seeded), every position seen with its three side suits in each of their six orders (the
value does not depend on it). The same command with the same seed gives the same weights on
the same machine.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from multiprocessing import get_context
from random import Random
from typing import Any

import numpy as np

from chibre.bots.horizon import trick_start
from chibre.bots.horizon_net import NET_HIDDEN, NET_INPUTS, Net, inputs, to_json
from chibre.bots.solver import horizon_features, solve_exact
from chibre.bots.solver_core import HORIZON_WEIGHTS

CHUNK = 250
"""Positions drawn from one seed."""
HELD_OUT = 0.15
"""The share of the positions held out to report the fit."""
TRICKS_LEFT = (5, 6, 7, 8)

Row = tuple[tuple[int, int, int, int], int, int, int, int]
"""A solved trick start: hands, contract, leader, the leader's team's points, points out."""


def _chunk(args: tuple[int, int, int]) -> list[Row]:
    """The ``n`` positions of chunk ``index``."""
    seed, index, n = args
    rng = Random(f"horizon:{seed}:{index}")
    rows: list[Row] = []
    for i in range(n):
        p = trick_start(rng, TRICKS_LEFT[i % len(TRICKS_LEFT)], rng.randrange(4))
        hands = (p.hands[0], p.hands[1], p.hands[2], p.hands[3])
        rows.append((hands, p.contract, p.leader, solve_exact(p).score, p.points_out()))
    return rows


def solved_positions(n: int, seed: int, jobs: int = 1, chunk: int = CHUNK) -> list[Row]:
    """``n`` trick starts of trump contracts, solved exactly, the same for any ``jobs``."""
    work = [(seed, i, min(chunk, n - i * chunk)) for i in range((n + chunk - 1) // chunk)]
    if jobs <= 1:
        return [r for w in work for r in _chunk(w)]
    with get_context("spawn").Pool(jobs) as pool:
        return [r for chunk in pool.map(_chunk, work) for r in chunk]


def _side_orders(hands: tuple[int, ...], contract: int) -> list[list[int]]:
    """``hands`` with the side suits in each of their six orders."""
    sides = [s for s in range(4) if s != contract]
    out = []
    for order in itertools.permutations(sides):
        to = {contract: contract, **dict(zip(sides, order, strict=True))}
        out.append(
            [sum(1 << (9 * to[c // 9] + c % 9) for c in range(36) if h >> c & 1) for h in hands]
        )
    return out


def examples(rows: list[Row], every_order: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs (N × ``NET_INPUTS``), the leader's team's share and the points out."""
    x, share, out = [], [], []
    for hands, contract, leader, score, points in rows:
        for h in _side_orders(hands, contract) if every_order else [list(hands)]:
            row = np.zeros(NET_INPUTS, np.float32)
            row[inputs(h, contract, leader)] = 1.0
            x.append(row)
            share.append(score / points)
            out.append(points)
    return np.array(x), np.array(share, np.float32), np.array(out, np.float32)


def _forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w1, b1, w2, b2 = params
    hidden = np.maximum(x @ w1 + b1, 0.0)
    return hidden, 1.0 / (1.0 + np.exp(-(hidden @ w2 + b2[0])))


def error(params: list[np.ndarray], x: np.ndarray, share: np.ndarray, out: np.ndarray) -> float:
    """The root mean square error in points."""
    _, p = _forward(params, x)
    return float(np.sqrt(np.mean(((p - share) * out) ** 2)))


def fit(
    x: np.ndarray,
    share: np.ndarray,
    out: np.ndarray,
    seed: int,
    epochs: int = 30,
    lr: float = 1e-3,
    l2: float = 1e-4,
    batch: int = 256,
) -> list[np.ndarray]:
    """Adam on the squared error in points (seeded)."""
    rng = np.random.default_rng(seed)
    params = [
        rng.normal(0, 0.1, (NET_INPUTS, NET_HIDDEN)).astype(np.float32),
        np.zeros(NET_HIDDEN, np.float32),
        rng.normal(0, 0.1, NET_HIDDEN).astype(np.float32),
        np.zeros(1, np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    t = 0
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            idx = order[start : start + batch]
            xb, yb, wb = x[idx], share[idx], out[idx]
            hidden, p = _forward(params, xb)
            # d/dz of ((p - y) · points)² / 100, z the output before the logistic
            g = (p - yb) * wb * wb * p * (1 - p) / (100.0 * len(idx))
            gh = np.outer(g, params[2]) * (hidden > 0)
            grads = [xb.T @ gh + l2 * params[0], gh.sum(0), hidden.T @ g, np.array([g.sum()])]
            t += 1
            for i, gr in enumerate(grads):
                m[i] = beta1 * m[i] + (1 - beta1) * gr
                v[i] = beta2 * v[i] + (1 - beta2) * gr * gr
                step = lr * (m[i] / (1 - beta1**t)) / (np.sqrt(v[i] / (1 - beta2**t)) + eps)
                params[i] = (params[i] - step).astype(np.float32)
    return params


def linear_error(rows: list[Row]) -> float:
    """The root mean square error in points of the linear horizon
    (``solver_core.HORIZON_WEIGHTS``) on ``rows``."""
    weights = np.array(HORIZON_WEIGHTS["trump"])
    errors = []
    for hands, contract, leader, score, points in rows:
        total, *features = horizon_features(hands, contract, leader)
        share = min(max(float(weights @ np.array(features)), 0.0), 1.0)
        errors.append(share * total - (score if leader & 1 == 0 else points - score))
    return float(np.sqrt(np.mean(np.square(errors))))


def train(positions: int, seed: int, jobs: int = 1, epochs: int = 30) -> tuple[Net, dict[str, Any]]:
    """Solve the positions and fit the network; returns it and how it was made."""
    start = time.perf_counter()
    rows = solved_positions(positions, seed, jobs)
    solved = time.perf_counter() - start
    cut = len(rows) - int(len(rows) * HELD_OUT)
    params = fit(*examples(rows[:cut], True), seed, epochs)
    held = examples(rows[cut:], False)
    w1, b1, w2, b2 = params
    net = Net(
        w1=tuple(tuple(float(v) for v in r) for r in w1),
        b1=tuple(float(v) for v in b1),
        w2=tuple(float(v) for v in w2),
        b2=float(b2[0]),
    )
    meta: dict[str, Any] = {
        "command": (
            f"python -m chibre.bots.horizon_train --positions {positions} --seed {seed} "
            f"--epochs {epochs}"
        ),
        "positions": positions,
        "seed": seed,
        "held_out": len(rows) - cut,
    }
    if len(rows) > cut:
        meta["held_out_error"] = round(error(params, *held), 2)
        meta["linear_held_out_error"] = round(linear_error(rows[cut:]), 2)
    print(
        f"solved {solved:.0f} s, fit {time.perf_counter() - start - solved:.0f} s", file=sys.stderr
    )
    return net, meta


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--jobs", type=int, default=1, help="processes solving the positions")
    p.add_argument("--out", default="-", help="the weights file (JSON); - for standard output")
    args = p.parse_args(argv)
    net, meta = train(args.positions, args.seed, args.jobs, args.epochs)
    text = json.dumps({**meta, "nets": {"trump": to_json(net)}}, separators=(",", ":")) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    print(json.dumps(meta), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
