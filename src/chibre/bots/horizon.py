"""The fitted horizon of the budgeted search (``solver_core._estimate``): its weights, and the
command that fits them.

    python -m chibre.bots.horizon --positions 3000 --seed 1

draws, for each kind of contract (a trump suit, Obenabe, Undenufe), trick starts with 5 to 7
tricks left (random deals, the cards before played at random among the legal ones), solves
each exactly, and fits by least squares the share of the points out that team 0 takes against
``solver_core.horizon_features``. It prints the weights of each kind, which
``solver_core.HORIZON_WEIGHTS`` holds, and the error of the fitted and the unfitted horizon
(points, root mean square) on trick starts of the next seed.
"""

from __future__ import annotations

import argparse
from random import Random

import numpy as np

from chibre.bots import solver_core
from chibre.bots.solver import Position, solve_exact
from chibre.play import legal_cards, trick_winner

TRICKS_LEFT = (5, 6, 7)


def _cards(mask: int) -> list[int]:
    return [c for c in range(36) if mask >> c & 1]


def trick_start(rng: Random, tricks_left: int, contract: int) -> Position:
    """A trick's start with ``tricks_left`` tricks to play: a random deal, the tricks before
    played at random among the legal cards."""
    cards = list(range(36))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[9 * i : 9 * i + 9]) for i in range(4)]
    leader = rng.randrange(4)
    taken = [False, False]
    for _ in range(9 - tricks_left):
        trick: list[int] = []
        for j in range(4):
            seat = (leader + j) & 3
            c = rng.choice(_cards(legal_cards(hands[seat], trick, contract)))
            trick.append(c)
            hands[seat] &= ~(1 << c)
        leader = (leader + trick_winner(trick, contract)) & 3
        taken[leader & 1] = True
    return Position(
        hands=(hands[0], hands[1], hands[2], hands[3]),
        contract=contract,
        leader=leader,
        taken=(taken[0], taken[1]),
        match_bonus=0,
    )


KINDS = {"trump": (0, 1, 2, 3), "obenabe": (4,), "undenufe": (5,)}
"""The kinds of contract the horizon is fitted for, and their contracts."""


def samples(
    n: int, seed: int, kind: str = "trump"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``n`` trick starts in a contract of ``kind``: (features, team 0's exact share, points
    out, the unfitted horizon's share)."""
    rng = Random(seed)
    x, y, out, plain = [], [], [], []
    for i in range(n):
        p = trick_start(rng, TRICKS_LEFT[i % len(TRICKS_LEFT)], rng.choice(KINDS[kind]))
        score = solve_exact(p).score  # for the leader's team
        team0 = score if p.leader & 1 == 0 else p.points_out() - score
        total, *features = solver_core.horizon_features(p.hands, p.contract, p.leader)
        x.append(features)
        y.append(team0 / total)
        out.append(total)
        plain.append(features[1])
    return np.array(x), np.array(y), np.array(out), np.array(plain)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chibre.bots.horizon", description=__doc__)
    parser.add_argument("--positions", type=int, default=3000, help="trick starts fitted")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for kind in KINDS:
        x, y, _, _ = samples(args.positions, args.seed, kind)
        weights, *_ = np.linalg.lstsq(x, y, rcond=None)
        tx, ty, total, plain = samples(max(args.positions // 3, 1), args.seed + 1, kind)
        fitted = np.clip(tx @ weights, 0.0, 1.0)
        print(f"{kind}:", "(" + ", ".join(f"{w:.4f}" for w in weights) + ")")
        for name, share in (("unfitted", plain), ("fitted", fitted)):
            error = float(np.sqrt(np.mean(((share - ty) * total) ** 2)))
            print(f"  {name}: {error:.1f} points (root mean square, {len(ty)} trick starts)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
