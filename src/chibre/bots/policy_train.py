"""Training the policy of ``chibre.bots.policy``: self-play data, then a numpy fit.

    python -m chibre.bots.policy_train --hands 1200 --seed 1 --players rule medium \\
        --out src/chibre/bots/policy_weights.json

**Data:** ``hands`` seeded single hands (default rules, a random dealer), each played by four
copies of one of ``players`` (taken in turn) built with seeds drawn from ``seed``. Every
decision is a labelled example: at each card, the moment (what the seat saw), the seat's hand
and the card it played; at each contract choice, the hand, whether it could chibrer and what
it chose. **Fit:** each model is a one-hidden-layer network scoring every option; the loss is
the cross-entropy of the softmax over the legal options, minimised with Adam on shuffled
mini-batches (numpy, seeded), one tenth of the examples held out to report the fit. The same
command with the same seed gives the same weights on the same machine (floating point can
differ in the last digits across machines).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from random import Random
from typing import Any

import numpy as np

from chibre.actions import Chibre, Choose, Play, Thank
from chibre.bots import make_player
from chibre.bots.policy import (
    CARD_FEATURES,
    CHIBRE,
    CONTRACT_FEATURES,
    Array,
    Moment,
    Network,
    Policy,
    card_features,
    contract_features,
)
from chibre.bots.solver import jit_available
from chibre.deal import deal_cards
from chibre.game import CHANCE, Game
from chibre.rules import Rules


@dataclass
class Examples:
    """Options padded to a fixed width: features (N × W × F), legal mask (N × W), label."""

    x: Array
    mask: Array
    label: Array


@dataclass
class Records:
    """The raw decisions of self-play."""

    cards: list[tuple[Moment, int, int]]  # moment, hand before the card, card played
    contracts: list[tuple[int, bool, tuple[int, ...], int]]  # hand, may chibre, grid, choice


def generate(hands: int, seed: int, players: list[str], rules: Rules | None = None) -> Records:
    """Play ``hands`` seeded hands and record every decision."""
    rules = rules or Rules()
    rng = Random(seed)
    records = Records([], [])
    for i in range(hands):
        name = players[i % len(players)]
        seats = [make_player(name, rng.getrandbits(32)) for _ in range(4)]
        game = Game(rules)
        game.apply(deal_cards(rng, rng.randrange(4)))
        hand_state = game.hand
        assert hand_state is not None
        while not hand_state.is_over:
            seat = game.current_player
            if seat is None or seat == CHANCE:
                break
            o = game.observation(seat)
            action = seats[seat].act(o)
            if isinstance(action, Play):
                played = sum(1 << c for t in o.tricks for c in t.cards)
                played |= sum(1 << c for c in o.trick)
                m = Moment(seat, o.contract, o.trick, played, len(o.tricks))
                records.cards.append((m, o.hand, action.card))
            elif isinstance(action, Chibre | Choose):
                may = any(isinstance(a, Chibre) for a in o.legal_actions)
                choice = CHIBRE if isinstance(action, Chibre) else action.contract
                records.contracts.append((o.hand, may, rules.grid, choice))
            elif isinstance(action, Thank):
                break
            game.apply(action, seat)
    return records


def card_examples(records: Records) -> Examples:
    """The card decisions as examples: the hand's cards (at most 9) are the options."""
    n = len(records.cards)
    x = np.zeros((n, 9, CARD_FEATURES), dtype=np.float32)
    mask = np.zeros((n, 9), dtype=bool)
    label = np.zeros(n, dtype=np.int64)
    for i, (m, hand, card) in enumerate(records.cards):
        f, legal = card_features(m, np.array([hand], dtype=np.uint64))
        cards = [c for c in range(36) if hand >> c & 1]
        for j, c in enumerate(cards):
            x[i, j] = f[0, c]
            mask[i, j] = legal[0, c]
        label[i] = cards.index(card)
    return Examples(x, mask, label)


def contract_examples(records: Records) -> Examples:
    """The contract decisions as examples: six contracts and chibrer (masked when barred)."""
    n = len(records.contracts)
    x = np.zeros((n, 7, CONTRACT_FEATURES), dtype=np.float32)
    mask = np.zeros((n, 7), dtype=bool)
    label = np.zeros(n, dtype=np.int64)
    for i, (hand, may, grid, choice) in enumerate(records.contracts):
        rows = contract_features(hand, may, grid)
        x[i, : len(rows)] = rows
        mask[i, : len(rows)] = True
        label[i] = choice
    return Examples(x, mask, label)


def _loss_and_grads(params: list[Array], ex: Examples, idx: Array) -> tuple[float, list[Array]]:
    w1, b1, w2, b2 = params
    x = ex.x[idx]
    mask = ex.mask[idx]
    y = ex.label[idx]
    b = len(idx)
    pre = x @ w1 + b1
    h = np.maximum(pre, 0)
    s = h @ w2 + b2[0]
    s = np.where(mask, s, -1e9)
    s = s - s.max(axis=1, keepdims=True)
    p = np.exp(s) * mask
    p /= p.sum(axis=1, keepdims=True)
    loss = float(-np.log(p[np.arange(b), y] + 1e-12).mean())
    ds = p.copy()
    ds[np.arange(b), y] -= 1
    ds /= b
    gw2 = np.einsum("bwh,bw->h", h, ds)
    gb2 = np.array([ds.sum()])
    dh = ds[:, :, None] * w2[None, None, :]
    dh[pre <= 0] = 0
    gw1 = np.einsum("bwf,bwh->fh", x, dh)
    gb1 = dh.sum(axis=(0, 1))
    return loss, [gw1, gb1, gw2, gb2]


def fit(
    ex: Examples, hidden: int, epochs: int, seed: int, batch: int = 256
) -> tuple[Network, dict[str, float]]:
    """Fit one network to ``ex`` (Adam, seeded); returns it and its held-out fit."""
    rng = np.random.default_rng(seed)
    n = len(ex.label)
    order = rng.permutation(n)
    held = order[: n // 10]
    train = order[n // 10 :]
    f = ex.x.shape[2]
    params = [
        rng.normal(0, (2 / f) ** 0.5, (f, hidden)).astype(np.float32),
        np.zeros(hidden, np.float32),
        rng.normal(0, (1 / hidden) ** 0.5, hidden).astype(np.float32),
        np.zeros(1, np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, beta1, beta2, eps = 0.01, 0.9, 0.999, 1e-8
    t = 0
    for _ in range(epochs):
        rng.shuffle(train)
        for start in range(0, len(train), batch):
            idx = train[start : start + batch]
            _, grads = _loss_and_grads(params, ex, idx)
            t += 1
            for i, g in enumerate(grads):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                step = lr * (m[i] / (1 - beta1**t)) / (np.sqrt(v[i] / (1 - beta2**t)) + eps)
                params[i] = (params[i] - step).astype(np.float32)
    net = Network(params[0], params[1], params[2], float(params[3][0]))
    report = {"examples": float(n)}
    if len(held):
        loss, _ = _loss_and_grads(params, ex, held)
        s = np.where(ex.mask[held], net.scores(ex.x[held]), -np.inf)
        report["held_out_log_loss"] = round(loss, 4)
        report["held_out_accuracy"] = round(float((s.argmax(axis=1) == ex.label[held]).mean()), 4)
        uniform = -np.log(1 / ex.mask[held].sum(axis=1)).mean()
        report["uniform_log_loss"] = round(float(uniform), 4)
    return net, report


def train(hands: int, seed: int, players: list[str], hidden: int = 24, epochs: int = 30) -> Policy:
    """Generate the data and fit both models; the policy records how it was made."""
    start = time.perf_counter()
    records = generate(hands, seed, players)
    made = time.perf_counter() - start
    card, card_fit = fit(card_examples(records), hidden, epochs, seed)
    contract, contract_fit = fit(contract_examples(records), max(4, hidden // 2), epochs, seed + 1)
    meta: dict[str, Any] = {
        "version": 1,
        "command": (
            f"python -m chibre.bots.policy_train --hands {hands} --seed {seed} "
            f"--players {' '.join(players)} --hidden {hidden} --epochs {epochs}"
        ),
        "seed": seed,
        "hands": hands,
        "compiled_solver": jit_available(),
        "players": players,
        "card_fit": card_fit,
        "contract_fit": contract_fit,
    }
    print(f"data {made:.1f} s, fit {time.perf_counter() - start - made:.1f} s", file=sys.stderr)
    return Policy(card, contract, meta)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=1200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", nargs="+", default=["rule", "medium"])
    p.add_argument("--hidden", type=int, default=24)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--out", default="-", help="the weights file (JSON); - for standard output")
    args = p.parse_args(argv)
    policy = train(args.hands, args.seed, args.players, args.hidden, args.epochs)
    text = json.dumps(policy.to_dict(), separators=(",", ":")) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    print(json.dumps(policy.meta), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
