"""Decision time and memory of the computer players, beside the ``random`` player.

Plays seeded random games (random legal actions) and, at seeded random moments — contract
choices and cards alike —, asks each player for its decision on one core. Prints, per player,
the median, 90th percentile and maximum time of a decision (contract and play separately and
together) and the peak memory of the process (``resource.getrusage``), then a one-line summary.
The times are the process's CPU time (``time.process_time``): on a machine shared with other
work the wall clock counts the others' turns too; the wall median is printed beside it.

    python bench/players.py --decisions 60 --seed 1 --players random easy medium strong
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from random import Random

from chibre import CHANCE, Game, Rules, Thank
from chibre.bots import make_player
from chibre.observation import Observation


def positions(n: int, seed: int) -> list[Observation]:
    """``n`` observations of the seat to act, at random moments of random games."""
    rng = Random(seed)
    out: list[Observation] = []
    while len(out) < n:
        game = Game(Rules())
        while not game.is_over and len(out) < n:
            if game.current_player == CHANCE:
                game.deal(rng)
                continue
            seat = game.current_player
            assert seat is not None
            obs = game.observation(seat)
            if rng.random() < (0.5 if obs.phase == "contract" else 0.12):
                out.append(obs)
            actions = [a for a in game.legal_actions() if not isinstance(a, Thank)]
            game.apply(rng.choice(actions), seat)
    return out


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--decisions", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    levels = ["random", "beginner", "easy", "medium", "strong", "expert"]
    p.add_argument("--players", nargs="+", default=levels)
    args = p.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    obs = positions(args.decisions, args.seed)
    n_contract = sum(o.phase == "contract" for o in obs)
    print(
        f"{len(obs)} decisions ({n_contract} contract, {len(obs) - n_contract} play), "
        f"seed {args.seed}, one core, CPU time"
    )
    print(
        f"{'player':>8} {'median':>9} {'p90':>9} {'max':>9}   contract median/max   play median/max"
    )
    summary = []
    for name in args.players:
        start = time.perf_counter()
        player = make_player(name, args.seed)
        setup = time.perf_counter() - start
        times: list[tuple[str, float]] = []
        walls: list[float] = []
        for o in obs:
            t, w = time.process_time(), time.perf_counter()
            action = player.act(o)
            times.append((o.phase, time.process_time() - t))
            walls.append(time.perf_counter() - w)
            assert action in o.legal_actions
        every = [t for _, t in times]
        con = [t for ph, t in times if ph == "contract"] or [0.0]
        play = [t for ph, t in times if ph != "contract"] or [0.0]
        med = statistics.median(every)
        print(
            f"{name:>8} {med * 1e3:8.1f}ms {percentile(every, 0.9) * 1e3:8.1f}ms "
            f"{max(every) * 1e3:8.1f}ms   "
            f"{statistics.median(con) * 1e3:7.1f}/{max(con) * 1e3:7.1f}ms"
            f"      {statistics.median(play) * 1e3:7.1f}/{max(play) * 1e3:7.1f}ms"
            f"   (wall median {statistics.median(walls) * 1e3:.1f}ms, setup {setup:.2f}s)"
        )
        summary.append(f"{name}={med * 1e3:.1f}ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if sys.platform == "darwin":
        peak /= 1024
    print(f"peak memory of the process: {peak:.0f} MB")
    print("median_decision " + " ".join(summary) + f" peak_mb={peak:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
