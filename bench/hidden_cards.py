"""What the hidden cards cost against double-dummy values, and the horizon fitted to play.

Plays seeded hands with four players of one kind (``strong`` by default, card points only) and
records, at each trick start with 8 to 4 tricks left, the horizon's features on the true hands
(``solver.horizon_features``), the points team 0 then took in the play, and — with 7 tricks left
or fewer — the exact double-dummy value of the same hands. It prints, by kind of contract and
tricks left, how far the points taken in play fall from the exact value (root mean square, mean
and mean absolute difference, for team 0): what players who cannot see the cards make of
positions the solver values as if they could. Then, for each kind, the shipped horizon
(``solver_core.HORIZON_WEIGHTS``, fitted to exact solves) beside the same features refitted by
least squares to the points taken in play: their errors against the play and against the exact
values in every fourth hand (held out from the refit), and the weights refitted to all hands.

    python bench/hidden_cards.py --hands 1200 --seed 1001 --jobs 2

A hand of four ``strong`` players takes about 2.5 s of one core here (the exact solves with 7
tricks left included).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from multiprocessing import Pool
from random import Random

import numpy as np

from chibre import CHANCE, Game
from chibre.arena import STRENGTH_RULES
from chibre.bots import make_player
from chibre.bots.solver import Position, horizon_features, solve_exact
from chibre.bots.solver_core import HORIZON_WEIGHTS
from chibre.deal import deal_cards
from chibre.rules import MAX_TARGET

TRICKS_LEFT = (8, 7, 6, 5, 4)
EXACT_FROM = 7
"""Trick starts with this many tricks left or fewer are also solved exactly."""


@dataclass(frozen=True)
class TrickStart:
    """A trick start in played hand number ``hand``, for team 0: the horizon's features (the
    points out first), the points taken in the play from there, and the exact value (``None``
    when not solved)."""

    hand: int
    kind: str
    tricks_left: int
    features: tuple[float, ...]
    played: int
    exact: int | None


def kind_of(contract: int) -> str:
    return "trump" if contract < 4 else ("obenabe", "undenufe")[contract - 4]


def play_hand(job: tuple[str, int, int]) -> list[TrickStart]:
    """Hand ``index`` of ``seed`` played by four ``player``s, its trick starts recorded."""
    player, seed, index = job
    rng = Random(f"{seed}:{index}")
    players = [make_player(player, rng.getrandbits(32)) for _ in range(4)]
    game = Game(STRENGTH_RULES.replace(target=MAX_TARGET))
    game.apply(deal_cards(rng, rng.randrange(4)))
    seen: list[tuple[int, int, tuple[float, ...], int | None]] = []  # tricks done, contract, …
    while True:
        hand = game.hand
        seat = game.current_player
        if hand is None or hand.is_over or seat is None or seat == CHANCE:
            break
        done = len(hand.tricks)
        left = 9 - done
        starts = hand.contract >= 0 and not hand.trick and left in TRICKS_LEFT
        if starts and (not seen or seen[-1][0] != done):
            hands = (hand.hands[0], hand.hands[1], hand.hands[2], hand.hands[3])
            features = horizon_features(hands, hand.contract, hand.leader)
            exact = None
            if left <= EXACT_FROM:
                p = Position(hands, hand.contract, hand.leader, match_bonus=0)
                score = solve_exact(p).score  # for the leader's team
                exact = score if hand.leader % 2 == 0 else p.points_out() - score
            seen.append((done, hand.contract, features, exact))
        game.apply(players[seat].act(game.observation(seat)), seat)
    tricks = game.hand.tricks if game.hand is not None else []
    return [
        TrickStart(
            index,
            kind_of(contract),
            9 - done,
            features,
            sum(t.points for t in tricks[done:] if t.winner % 2 == 0),
            exact,
        )
        for done, contract, features, exact in seen
    ]


def _rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x**2)))


def report(starts: list[TrickStart]) -> None:
    print("points taken in play less the exact value, team 0 (points):")
    print(f"{'kind':<9} {'left':>4} {'n':>5} {'rms':>6} {'mean':>6} {'mean abs':>9}")
    for kind in ("trump", "obenabe", "undenufe"):
        for left in TRICKS_LEFT:
            d = np.array(
                [
                    s.played - s.exact
                    for s in starts
                    if s.kind == kind and s.tricks_left == left and s.exact is not None
                ],
                dtype=float,
            )
            if len(d):
                print(
                    f"{kind:<9} {left:>4} {len(d):>5} {_rms(d):>6.1f} {d.mean():>+6.1f} "
                    f"{np.abs(d).mean():>9.1f}"
                )
    print("\nthe horizon against play (8 to 5 tricks left; errors in points, root mean square):")
    for kind in ("trump", "obenabe", "undenufe"):
        rows = [s for s in starts if s.kind == kind and s.tricks_left >= 5]
        if len(rows) < 40:
            continue
        x = np.array([s.features[1:] for s in rows])
        out = np.array([s.features[0] for s in rows])
        played = np.array([s.played for s in rows]) / out
        exact = np.array([np.nan if s.exact is None else s.exact for s in rows]) / out
        held = np.array([s.hand % 4 == 0 for s in rows])
        refit, *_ = np.linalg.lstsq(x[~held], played[~held], rcond=None)
        shipped = np.array(HORIZON_WEIGHTS[kind])
        solved = held & ~np.isnan(exact)
        print(f"{kind}: {len(rows)} trick starts, {int(held.sum())} held out")
        for name, w in (("shipped (fitted to exact solves)", shipped), ("refitted to play", refit)):
            share = np.clip(x @ w, 0.0, 1.0)
            print(
                f"  {name:<33} against play {_rms((share - played)[held] * out[held]):5.1f}, "
                f"against exact {_rms((share - exact)[solved] * out[solved]):5.1f}"
            )
        weights, *_ = np.linalg.lstsq(x, played, rcond=None)
        print("  refitted to all: (" + ", ".join(f"{w:.4f}" for w in weights) + ")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--player", default="strong")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    jobs = [(args.player, args.seed, i) for i in range(args.hands)]
    with Pool(args.jobs) as pool:
        starts = [s for hand in pool.map(play_hand, jobs, chunksize=4) for s in hand]
    wall = time.perf_counter() - began
    print(f"{args.hands} hands of four {args.player} players, seed {args.seed}: ", end="")
    print(f"{len(starts)} trick starts, {wall:.0f} s\n")
    report(starts)


if __name__ == "__main__":
    main()
