"""The learned horizon of the budgeted search: a small network, fitted to exact solves, that
values a trick's start better than the linear horizon (``chibre.bots.horizon``), and the
command that makes its weights.

    python -m chibre.bots.horizon_net --positions 200000 --seed 11 --jobs 2

draws trick starts with 5 to 7 tricks left for each kind of contract as ``chibre.bots.horizon``
does (trump gets ``--positions``, Obenabe and Undenufe each 40% of them), solves each exactly
in ``--jobs`` processes, and fits one network a kind: the 36 cards — the trump suit first, each
suit strongest first — one-hot by the seat holding each (counted from the leader), ``HIDDEN``
ReLU units, out the leader's team's share of the points out; by Adam on the squared error in
points, the side suits shuffled each epoch. It prints the error of the linear horizon and of
the network on a tenth held out and on trick starts of four ``rule`` players' hands, and
writes the weights (``WEIGHTS``, inside the package; ``--out`` elsewhere) with the command
that made them. The search takes them where its caller asks (``Level.net``).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time
from functools import cache
from pathlib import Path
from random import Random

import numpy as np

from chibre.bots import horizon
from chibre.bots.solver import _POWER_ORDER, Position, estimate, solve_exact

HIDDEN = 64
"""The hidden units of each network."""

WEIGHTS = Path(__file__).with_name("horizon_net.npz")
"""The shipped weights: ``KIND_W1`` (144 × ``HIDDEN``), ``KIND_b1``, ``KIND_W2``, ``KIND_b2``
for each kind of ``chibre.bots.horizon.KINDS``, and ``command``."""

Row = tuple[int, ...]
"""A solved trick start: the four hands, the contract, the leader, the leader's team's exact
points from it, the points out."""


def solved(seed: int, n: int, kind: str) -> list[Row]:
    """``n`` trick starts of a contract of ``kind`` drawn from ``seed``, solved exactly."""
    rng = Random(seed)
    rows: list[Row] = []
    for i in range(n):
        tricks_left = horizon.TRICKS_LEFT[i % len(horizon.TRICKS_LEFT)]
        p = horizon.trick_start(rng, tricks_left, rng.choice(horizon.KINDS[kind]))
        rows.append((*p.hands, p.contract, p.leader, solve_exact(p).score, p.points_out()))
    return rows


def _solved(args: tuple[int, int, str]) -> list[Row]:
    return solved(*args)


def played(n: int, seed: int) -> np.ndarray:
    """``n`` trick starts (5 to 7 tricks left) of hands four ``rule`` players play, solved."""
    from chibre import CHANCE, Game
    from chibre.arena import STRENGTH_RULES
    from chibre.bots import make_player
    from chibre.deal import deal_cards
    from chibre.rules import MAX_TARGET

    rules = STRENGTH_RULES.replace(target=MAX_TARGET)
    bot = make_player("rule", seed)
    rows: list[Row] = []
    i = 0
    while len(rows) < n:
        rng = Random(f"{seed}:{i}")
        i += 1
        game = Game(rules)
        game.apply(deal_cards(rng, rng.randrange(4)))
        while game.hand is not None and not game.hand.is_over and len(rows) < n:
            seat = game.current_player
            if seat is None or seat == CHANCE:
                break
            o = game.observation(seat)
            if o.phase == "play" and not o.trick and 9 - len(o.tricks) in horizon.TRICKS_LEFT:
                h = game.hand.hands
                p = Position((h[0], h[1], h[2], h[3]), o.contract, seat, match_bonus=0)
                rows.append((*p.hands, o.contract, seat, solve_exact(p).score, p.points_out()))
            game.apply(bot.act(o), seat)
    return np.array(rows, dtype=np.int64).reshape(-1, 8)


def card_slots(contract: int, side: list[int] | None = None) -> list[int]:
    """Each card's slot in the network's inputs (``9 × suit slot + rank from the strongest``):
    the trump suit first, then the side suits in the order ``side`` (by default ascending)."""
    suits = side if side is not None else [s for s in range(4) if s != contract]
    if contract < 4:
        suits = [contract, *suits]
    slots = [0] * 36
    for slot, s in enumerate(suits):
        for i, c in enumerate(_POWER_ORDER[contract][s]):
            slots[c] = 9 * slot + i
    return slots


def encode(rows: np.ndarray, rng: random.Random | None = None) -> np.ndarray:
    """The inputs of ``rows``: for each card slot, four ones-or-zeros — the seat holding it
    from the leader; the side suits shuffled by ``rng`` when given."""
    x = np.zeros((len(rows), 144), dtype=np.float32)
    for n, row in enumerate(rows):
        contract, leader = int(row[4]), int(row[5])
        side = [s for s in range(4) if s != contract]
        if rng is not None:
            rng.shuffle(side)
        slots = card_slots(contract, side)
        for seat in range(4):
            hand = int(row[seat])
            while hand:
                c = (hand & -hand).bit_length() - 1
                hand &= hand - 1
                x[n, 4 * slots[c] + ((seat - leader) & 3)] = 1
    return x


class Net:
    """One hidden layer of ReLU units, out the leader's team's share; fitted by Adam."""

    def __init__(self, hidden: int, seed: int) -> None:
        g = np.random.default_rng(seed)
        self.params = [
            g.normal(0, 0.1, (144, hidden)).astype(np.float32),
            np.zeros(hidden, np.float32),
            g.normal(0, 0.1, hidden).astype(np.float32),
            np.array([0.5], np.float32),
        ]
        self._m = [np.zeros_like(a) for a in self.params]
        self._v = [np.zeros_like(a) for a in self.params]
        self._t = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hidden layer and the share for inputs ``x``."""
        w1, b1, w2, b2 = self.params
        hidden = np.maximum(x @ w1 + b1, 0)
        return hidden, hidden @ w2 + b2[0]

    def step(self, x: np.ndarray, share: np.ndarray, out: np.ndarray, rate: float) -> None:
        """One Adam step on the squared error in points (the share times the points out)."""
        hidden, pred = self.forward(x)
        g = 2 * (pred - share) * (out / 100.0) ** 2 / len(x)
        gh = np.outer(g, self.params[2]) * (hidden > 0)
        grads = [x.T @ gh, gh.sum(0), hidden.T @ g, np.array([g.sum()], np.float32)]
        self._t += 1
        for k, grad in enumerate(grads):
            self._m[k] = 0.9 * self._m[k] + 0.1 * grad
            self._v[k] = 0.999 * self._v[k] + 0.001 * grad * grad
            m = self._m[k] / (1 - 0.9**self._t)
            v = self._v[k] / (1 - 0.999**self._t)
            self.params[k] -= (rate * m / (np.sqrt(v) + 1e-8)).astype(np.float32)

    def error(self, rows: np.ndarray) -> float:
        """Root mean square error in points on solved ``rows``."""
        _, pred = self.forward(encode(rows))
        points = np.clip(pred, 0, 1) * rows[:, 7]
        return float(np.sqrt(np.mean((points - rows[:, 6]) ** 2)))


def fit(rows: np.ndarray, hidden: int, epochs: int, seed: int) -> Net:
    """A network fitted to solved ``rows``: Adam at 1e-3, 3e-4 from half the epochs, 1e-4
    from four fifths, batches of 256."""
    net = Net(hidden, seed)
    order_rng = np.random.default_rng(seed)
    side_rng = random.Random(seed)
    share = (rows[:, 6] / rows[:, 7]).astype(np.float32)
    out = rows[:, 7].astype(np.float32)
    for epoch in range(epochs):
        rate = 1e-3 if epoch < epochs * 0.5 else 3e-4 if epoch < epochs * 0.8 else 1e-4
        x = encode(rows, side_rng)
        order = order_rng.permutation(len(rows))
        for s in range(0, len(order), 256):
            j = order[s : s + 256]
            net.step(x[j], share[j], out[j], rate)
    return net


def linear_error(rows: np.ndarray) -> float:
    """The linear horizon's root mean square error in points on solved ``rows``."""
    errors = []
    for h0, h1, h2, h3, contract, leader, score, out in rows.tolist():
        team0 = estimate((h0, h1, h2, h3), contract, leader)
        errors.append((team0 if leader % 2 == 0 else out - team0) - score)
    return float(np.sqrt(np.mean(np.square(errors))))


@cache
def load(path: Path = WEIGHTS) -> dict[str, np.ndarray]:
    """The weights at ``path`` (the shipped ones by default)."""
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chibre.bots.horizon_net", description=__doc__)
    parser.add_argument("--positions", type=int, default=200_000, help="trump trick starts")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--played", type=int, default=3000, help="trick starts of play, to test")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    real = played(args.played, 77)
    weights: dict[str, np.ndarray] = {}
    for k, kind in enumerate(horizon.KINDS):
        start = time.time()
        n = int(args.positions * (1.0 if kind == "trump" else 0.4)) // args.jobs
        tasks = [(args.seed + 10 * k + j, n, kind) for j in range(args.jobs)]
        with mp.get_context("fork").Pool(args.jobs) as pool:
            parts = pool.map(_solved, tasks)
        rows = np.array([r for part in parts for r in part], dtype=np.int64)
        rows = rows[np.random.default_rng(args.seed).permutation(len(rows))]
        test, train = rows[: len(rows) // 10], rows[len(rows) // 10 :]
        net = fit(train, HIDDEN, args.epochs, args.seed)
        contracts = horizon.KINDS[kind]
        mine = real[np.isin(real[:, 4], contracts)]
        print(
            f"{kind}: {len(train)} trick starts fitted in {time.time() - start:.0f} s; error"
            f" (points, root mean square) on {len(test)} held out: linear"
            f" {linear_error(test):.2f}, network {net.error(test):.2f}; on {len(mine)} of"
            f" play: linear {linear_error(mine):.2f}, network {net.error(mine):.2f}",
            flush=True,
        )
        for name, array in zip(("W1", "b1", "W2", "b2"), net.params, strict=True):
            weights[f"{kind}_{name}"] = array
    command = "python -m chibre.bots.horizon_net " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    weights["command"] = np.array(command)
    np.savez(args.out, **weights)  # type: ignore[arg-type]
    print(f"weights written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
