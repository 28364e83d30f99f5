"""Fitting the contract values of ``chibre.bots.contract_value`` to hands played out.

    python -m chibre.bots.contract_value_train --deals 2400 --seed 1 --player medium \\
        --jobs 2 --out src/chibre/bots/contract_values.json

**Data:** ``deals`` seeded deals, each played out six times — once in each contract, named by
the seat to choose — by four copies of ``player`` (card points only: no weis, no stöck, factor
1). Each play-out gives two examples, both with the choosing team's margin as the target: the
chooser's hand (it leads) and its partner's (as after a chibre). **Fit:** one network per kind
of contract (one hidden layer, squared error, Adam on shuffled mini-batches, numpy, seeded),
a tenth of the deals held out to report the error against the quick hand count's margin.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any

import numpy as np

from chibre.actions import Choose
from chibre.arena import _NO_TARGET, STRENGTH_RULES
from chibre.bots import make_player
from chibre.bots.contract_value import FEATURES, KINDS, SCALE, ContractValues, features, kind_of
from chibre.bots.policy import Array, Network
from chibre.bots.solver import jit_available
from chibre.deal import deal_cards
from chibre.game import CHANCE, Game

Example = tuple[int, int, bool, int, int]
"""A hand, a contract, whether the hand leads, the team's margin, the deal's number."""


def play_deal(seed: int, index: int, player: str) -> list[Example]:
    """Deal ``index`` of ``seed`` played out in each of the six contracts."""
    rng = Random(f"{seed}:contract-values:{index}")
    deal = deal_cards(rng, rng.randrange(4))
    seeds = [rng.getrandbits(32) for _ in range(4)]
    rules = STRENGTH_RULES.replace(target=_NO_TARGET)
    out: list[Example] = []
    for contract in range(6):
        game = Game(rules)
        game.apply(deal)
        chooser = game.current_player
        assert chooser is not None and chooser != CHANCE
        hand = game.hand
        assert hand is not None
        hands = list(hand.hands)
        game.apply(Choose(contract), chooser)
        seats = [make_player(player, s) for s in seeds]
        while not hand.is_over:
            seat = game.current_player
            assert seat is not None and seat != CHANCE
            game.apply(seats[seat].act(game.observation(seat)), seat)
        totals = hand.score().totals
        team = chooser & 1
        margin = totals[team] - totals[1 - team]
        out.append((hands[chooser], contract, True, margin, index))
        out.append((hands[(chooser + 2) & 3], contract, False, margin, index))
    return out


def _chunk(task: tuple[int, int, int, str]) -> list[Example]:
    seed, start, stop, player = task
    return [e for i in range(start, stop) for e in play_deal(seed, i, player)]


def generate(deals: int, seed: int, player: str, jobs: int = 1) -> list[Example]:
    """Every example of ``deals`` deals, in the deals' order (the same for any ``jobs``)."""
    step = max(1, min(25, deals // max(1, 4 * jobs)))
    tasks = [(seed, lo, min(lo + step, deals), player) for lo in range(0, deals, step)]
    if jobs <= 1:
        return [e for t in tasks for e in _chunk(t)]
    with ProcessPoolExecutor(jobs) as pool:
        return [e for part in pool.map(_chunk, tasks) for e in part]


def _arrays(examples: list[Example], kind: int) -> tuple[Array, Array, Array]:
    rows = [e for e in examples if kind_of(e[1]) == kind]
    x = np.array([features(h, k, lead) for h, k, lead, _, _ in rows], dtype=np.float32)
    y = np.array([m / SCALE for _, _, _, m, _ in rows], dtype=np.float32)
    deal = np.array([d for *_, d in rows])
    return x.reshape(-1, FEATURES), y, deal


def fit(x: Array, y: Array, hidden: int, epochs: int, seed: int, batch: int = 64) -> Network:
    """A one-hidden-layer network fitted to ``y`` by squared error (Adam, seeded)."""
    rng = np.random.default_rng(seed)
    f = x.shape[1]
    params = [
        rng.normal(0, (2 / f) ** 0.5, (f, hidden)).astype(np.float32),
        np.zeros(hidden, np.float32),
        rng.normal(0, (1 / hidden) ** 0.5, hidden).astype(np.float32),
        np.array([float(y.mean()) if len(y) else 0.0], np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, beta1, beta2, eps, decay = 0.003, 0.9, 0.999, 1e-8, 1e-4
    order = np.arange(len(y))
    t = 0
    for _ in range(epochs):
        rng.shuffle(order)
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            w1, b1, w2, b2 = params
            pre = x[idx] @ w1 + b1
            h = np.maximum(pre, 0)
            d = (h @ w2 + b2[0] - y[idx]) * (2 / len(idx))
            dh = np.outer(d, w2)
            dh[pre <= 0] = 0
            grads = [
                x[idx].T @ dh + decay * w1,
                dh.sum(axis=0),
                h.T @ d + decay * w2,
                np.array([d.sum()]),
            ]
            t += 1
            for i, g in enumerate(grads):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                step = lr * (m[i] / (1 - beta1**t)) / (np.sqrt(v[i] / (1 - beta2**t)) + eps)
                params[i] = (params[i] - step).astype(np.float32)
    return Network(params[0], params[1], params[2], float(params[3][0]))


def train(
    examples: list[Example], seed: int, hidden: int, epochs: int
) -> tuple[ContractValues, dict[str, Any]]:
    """Fit the three networks, holding out one deal in ten to report their error."""
    from chibre.bots.strong import count_margin  # the margin the hand count stands for

    nets: list[Network] = []
    report: dict[str, Any] = {}
    for kind, name in enumerate(KINDS):
        x, y, deal = _arrays(examples, kind)
        held = deal % 10 == 9
        net = fit(x[~held], y[~held], hidden, epochs, seed + kind)
        count = np.array([count_margin(round(c * 100)) for c in x[held, 37]]) / SCALE
        error = float(np.sqrt(np.mean((net.scores(x[held]) - y[held]) ** 2))) * SCALE
        plain = float(np.sqrt(np.mean((count - y[held]) ** 2))) * SCALE
        spread = float(np.std(y[held])) * SCALE
        report[name] = {
            "examples": len(y),
            "held_out_error": round(error, 2),
            "hand_count_error": round(plain, 2),
            "held_out_spread": round(spread, 2),
        }
        nets.append(Network.from_dict(net.to_dict()))
        if kind == 0:
            print("fitted", name, report[name], file=sys.stderr)
    final = [fit(*_arrays(examples, k)[:2], hidden, epochs, seed + k) for k in range(3)]
    values = ContractValues(
        (final[0], final[1], final[2]),
        {"version": 1, "seed": seed, "hidden": hidden, "epochs": epochs, "fit": report},
    )
    return values, report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=2400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--player", default="medium")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--data", help="a JSON file of examples: read when it exists, else written")
    p.add_argument("--out", default="-", help="the weights file (JSON); - for standard output")
    args = p.parse_args(argv)
    start = time.perf_counter()
    examples: list[Example]
    try:
        with open(args.data or "", encoding="utf-8") as f:
            examples = [(h, k, bool(lead), m, d) for h, k, lead, m, d in json.load(f)]
    except FileNotFoundError:
        examples = generate(args.deals, args.seed, args.player, args.jobs)
        if args.data:
            with open(args.data, "w", encoding="utf-8") as f:
                json.dump(examples, f)
    made = time.perf_counter() - start
    values, report = train(examples, args.seed, args.hidden, args.epochs)
    values.meta.update(
        command=(
            f"python -m chibre.bots.contract_value_train --deals {args.deals} --seed {args.seed}"
            f" --player {args.player} --hidden {args.hidden} --epochs {args.epochs}"
        ),
        deals=args.deals,
        player=args.player,
        compiled_solver=jit_available(),
    )
    text = json.dumps(values.to_dict(), separators=(",", ":")) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"data {made:.1f} s", json.dumps(report), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
