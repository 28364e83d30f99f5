"""Two players against a third on the same deals, and their difference paired by deal.

Plays A against the reference and B against the reference in duplicate (card points only,
``chibre.arena``), on the same deals with the same seeds, and prints each result and, paired by
deal, A's gain over B: the difference of their two results on each deal. A deal both play alike
adds nothing to the difference's spread, so the paired interval is narrower than the two
results' own. Players are the arena's names or ``module:Class`` (a module beside where the
command is started).

    python bench/paired.py expert strong --against rule --deals 1000 --seed 10

``strong`` against ``rule`` takes about 18 minutes of two cores for 1,000 deals, ``expert``
about five times as long.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from chibre.arena import ArenaResult, duplicate


def interval(xs: list[float]) -> str:
    """Mean ± the half-width of its 95% interval."""
    return f"{statistics.fmean(xs):+.2f} ± {1.96 * statistics.stdev(xs) / math.sqrt(len(xs)):.2f}"


def timed_match(
    player: str, against: str, deals: int, seed: int, jobs: int
) -> tuple[ArenaResult, float]:
    """``player`` against ``against`` in duplicate, and the wall time it took."""
    start = time.perf_counter()
    result = duplicate(player, against, deals, seed, jobs=jobs)
    return result, time.perf_counter() - start


def gains(result: ArenaResult, base: ArenaResult) -> list[float]:
    """Deal by deal, ``result``'s difference less ``base``'s (the same deals)."""
    return [a - b for a, b in zip(result.differences, base.differences, strict=True)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a", help="the player measured")
    p.add_argument("b", help="the player it is measured against, deal by deal")
    p.add_argument("--against", default="rule", help="the reference both play (default rule)")
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    if args.deals < 2:
        p.error("--deals: at least 2, for an interval")

    print(f"{args.deals} deals, seed {args.seed}, card points only, against {args.against}")
    print(f"{'player':<24} {'vs ' + args.against:>16} {'wall s':>7}")
    results = []
    for name in (args.a, args.b):
        result, wall = timed_match(name, args.against, args.deals, args.seed, args.jobs)
        results.append(result)
        print(f"{name:<24} {interval(result.differences):>16} {wall:7.0f}", flush=True)
    paired = gains(results[0], results[1])
    differ = sum(g != 0 for g in paired)
    print(f"{args.a} - {args.b}, paired by deal: {interval(paired)} ({differ} deals differ)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
