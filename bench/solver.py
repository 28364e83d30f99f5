"""Double-dummy solver speed: exact solves, plain Python beside numba, in the same run.

Positions are seeded random deals played on with random legal cards (chibre.play) to the start
of a trick with 5 or 7 tricks left (the six contracts in turn), and full deals in Obenabe and
Undenufe (and in a trump, numba only, unless --skip-trump). For each backend and kind: the
median, mean, 90th percentile and maximum time of one exact ``solve_exact``, the nodes per
second (cards tried / total time) and the median nodes (which do not depend on the machine).
Plain Python solves full deals only with --python-full (a full deal takes it tens of seconds).
Ends with one summary line.

    python bench/solver.py [--positions 12] [--seed 1] [--python-full] [--skip-trump]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from random import Random

from chibre.bots import solver
from chibre.bots.solver import Backend, Position, solve_exact
from chibre.cards import cards_of
from chibre.deal import deal_cards
from chibre.play import legal_cards, trick_winner


def position(rng: Random, tricks_left: int, contract: int) -> Position:
    """A seeded deal played on at random to the start of a trick with ``tricks_left`` left."""
    hands = list(deal_cards(rng, rng.randrange(4)).hands)
    leader = rng.randrange(4)
    taken = [False, False]
    for _ in range(9 - tricks_left):
        trick: list[int] = []
        for i in range(4):
            seat = (leader + i) & 3
            c = rng.choice(cards_of(legal_cards(hands[seat], trick, contract)))
            hands[seat] ^= 1 << c
            trick.append(c)
        leader = (leader + trick_winner(trick, contract)) & 3
        taken[leader & 1] = True
    h0, h1, h2, h3 = hands
    return Position((h0, h1, h2, h3), contract, leader, (), (taken[0], taken[1]))


def measure(positions: list[Position], backend: Backend) -> tuple[list[float], list[int]]:
    """Seconds per exact solve (process time) and the nodes of each."""
    times: list[float] = []
    nodes: list[int] = []
    for p in positions:
        start = time.process_time()
        result = solve_exact(p, backend=backend)
        times.append(time.process_time() - start)
        assert result.exact
        nodes.append(result.nodes)
    return times, nodes


def line(label: str, backend: str, times: list[float], nodes: list[int]) -> str:
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    total = sum(times)

    def ms(t: float) -> str:
        return f"{t * 1000:9.2f}"

    return (
        f"{label:<22} {backend:<7} {len(times):>3} {ms(statistics.median(times))} "
        f"{ms(total / len(times))} {ms(p90)} {ms(times[-1])} "
        f"{sum(nodes) / max(total, 1e-9) / 1e6:8.2f} {statistics.median(nodes):>12,.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12, help="positions per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python-full", action="store_true", help="plain Python on full deals")
    parser.add_argument("--skip-trump", action="store_true", help="no full trump deal")
    args = parser.parse_args()
    n = args.positions
    rng = Random(args.seed)
    kinds: list[tuple[str, list[Position], bool]] = [
        ("5 tricks left", [position(rng, 5, i % 6) for i in range(n)], True),
        ("7 tricks left", [position(rng, 7, i % 6) for i in range(n)], True),
        ("full deal, Obenabe", [position(rng, 9, 4) for _ in range(n)], args.python_full),
        ("full deal, Undenufe", [position(rng, 9, 5) for _ in range(n)], args.python_full),
    ]
    if not args.skip_trump:
        trump = [position(rng, 9, i % 4) for i in range(max(1, n // 4))]
        kinds.append(("full deal, trump", trump, False))
    jit = solver.jit_available()
    if jit:
        start = time.perf_counter()
        solver.warm_up()
        print(f"numba warm-up (compile or load from cache): {time.perf_counter() - start:.2f} s")
    else:
        print("numba: not available (pip install 'chibre[fast]', and CHIBRE_NO_JIT unset)")
    print(f"seed {args.seed}, cpu {os.cpu_count()}, times in ms (process time)")
    head = ("kind", "backend", "n", "median", "mean", "p90", "max", "Mnodes/s", "median nodes")
    print("{:<22} {:<7} {:>3} {:>9} {:>9} {:>9} {:>9} {:>8} {:>12}".format(*head))
    summary: list[str] = []
    runs: list[tuple[Backend, bool]] = [("python", True), ("numba", jit)]
    for label, positions, with_python in kinds:
        medians: dict[str, float] = {}
        for backend, enabled in runs:
            if not enabled or (backend == "python" and not with_python):
                continue
            times, nodes = measure(positions, backend)
            print(line(label, backend, times, nodes), flush=True)
            medians[backend] = statistics.median(times)
        short = label.replace("full deal, ", "").replace(" tricks left", "t")
        summary.append(f"{short}: " + " ".join(f"{b} {t * 1000:.2f}ms" for b, t in medians.items()))
    print("solver medians: " + "; ".join(summary))


if __name__ == "__main__":
    main()
