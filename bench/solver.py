"""Double-dummy solver speed: exact solves, plain Python beside numba, this tree beside a
reference (main by default), in the same run.

Positions are seeded random deals played on with random legal cards (chibre.play) to the start
of a trick with 5 or 7 tricks left (the six contracts in turn), and full deals in Obenabe and
Undenufe (and in a trump, numba only, unless --skip-trump). For each backend and kind: the
median, mean, 90th percentile and maximum time of one exact ``solve_exact``, the nodes per
second (cards tried / total time) and the median nodes (which do not depend on the machine).
Plain Python solves full deals only with --python-full (a full deal takes it tens of seconds).
The reference is the search (``chibre.bots.solver_core``) of the git revision ``--reference``,
read with ``git show`` into a cache folder and loaded beside this tree's (``--reference ''`` for
none); both solve the same positions, one after the other, and the last column gives the
reference's median over this tree's. Ends with one summary line.

    python bench/solver.py [--positions 12] [--seed 1] [--python-full] [--skip-trump]
                           [--numba-only] [--reference main]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from types import ModuleType

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


Solver = Callable[[Position], tuple[int, int]]
"""An exact solve: team 0's value and the nodes."""


def this_tree(backend: Backend) -> Solver:
    """This tree's exact solve on ``backend``."""

    def run(p: Position) -> tuple[int, int]:
        result = solve_exact(p, backend=backend)
        assert result.exact
        score = result.score if p.to_act & 1 == 0 else p.points_out() - result.score
        return score, result.nodes

    return run


def reference_core(revision: str, compiled: bool) -> ModuleType:
    """The search of git ``revision`` (its ``solver_core.py``), loaded under its own name from
    a cache folder (numba keeps its machine code beside it), compiled or plain."""
    root = Path(__file__).resolve().parent.parent
    sha = subprocess.run(
        ["git", "rev-parse", "--short", revision], cwd=root, capture_output=True, text=True,
        check=True,
    ).stdout.strip()  # fmt: skip
    source = subprocess.run(
        ["git", "show", f"{sha}:src/chibre/bots/solver_core.py"], cwd=root, capture_output=True,
        text=True, check=True,
    ).stdout  # fmt: skip
    folder = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "chibre-bench"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"solver_core_{sha}.py"
    if not path.exists() or path.read_text() != source:
        path.write_text(source)
    name = f"chibre_bench_solver_core_{sha}_{'jit' if compiled else 'plain'}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__dict__["COMPILE"] = compiled
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def reference(core: ModuleType) -> Solver:
    """The reference search's exact solve (its ``search``, the same call as this tree's)."""

    def run(p: Position) -> tuple[int, int]:
        v, _, nodes, _ = core.search(
            list(p.hands), p.contract, p.leader, p.trick, p.taken, p.match_bonus, None, False
        )
        return int(v), int(nodes)

    return run


def measure(positions: list[Position], run: Solver) -> tuple[list[float], list[int], list[int]]:
    """Seconds per exact solve (process time), the nodes and team 0's value of each."""
    times: list[float] = []
    nodes: list[int] = []
    values: list[int] = []
    for p in positions:
        start = time.process_time()
        v, n = run(p)
        times.append(time.process_time() - start)
        nodes.append(n)
        values.append(v)
    return times, nodes, values


def line(label: str, backend: str, times: list[float], nodes: list[int], ratio: str) -> str:
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    total = sum(times)

    def ms(t: float) -> str:
        return f"{t * 1000:9.2f}"

    return (
        f"{label:<22} {backend:<13} {len(times):>3} {ms(statistics.median(times))} "
        f"{ms(total / len(times))} {ms(p90)} {ms(times[-1])} "
        f"{sum(nodes) / max(total, 1e-9) / 1e6:8.2f} {statistics.median(nodes):>12,.0f} {ratio:>6}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12, help="positions per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python-full", action="store_true", help="plain Python on full deals")
    parser.add_argument("--skip-trump", action="store_true", help="no full trump deal")
    parser.add_argument("--numba-only", action="store_true", help="no plain Python at all")
    parser.add_argument("--reference", default="main", help="git revision to compare ('': none)")
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
    runs: list[tuple[str, bool, Solver]] = [
        ("python", False, this_tree("python")),
        ("numba", True, this_tree("numba")),
    ]
    ref = args.reference
    if ref:
        runs.insert(1, (f"python {ref}", False, reference(reference_core(ref, False))))
        if jit:
            runs.append((f"numba {ref}", True, reference(reference_core(ref, True))))
    if jit:
        start = time.perf_counter()
        solver.warm_up()
        for _, compiled, run in runs:
            if compiled:
                run(position(Random(0), 2, 0))
        print(f"numba warm-up (compile or load from cache): {time.perf_counter() - start:.2f} s")
    else:
        print("numba: not available (pip install 'chibre[fast]', and CHIBRE_NO_JIT unset)")
        runs = [r for r in runs if not r[1]]
    print(f"seed {args.seed}, cpu {os.cpu_count()}, times in ms (process time)")
    head = ("kind", "backend", "n", "median", "mean", "p90", "max", "Mnodes/s", "median nodes")
    print("{:<22} {:<13} {:>3} {:>9} {:>9} {:>9} {:>9} {:>8} {:>12}  ×ref".format(*head))
    summary: list[str] = []
    for label, positions, with_python in kinds:
        medians: dict[str, float] = {}
        ours: dict[bool, tuple[float, list[int]]] = {}
        for name, compiled, run in runs:
            if not compiled and (args.numba_only or not with_python):
                continue
            times, nodes, values = measure(positions, run)
            median = statistics.median(times)
            ratio = ""
            if name in ("python", "numba"):
                ours[compiled] = (median, values)
            elif compiled in ours:
                assert values == ours[compiled][1], f"{name} differs from this tree on {label}"
                ratio = f"{median / max(ours[compiled][0], 1e-9):.2f}"
            print(line(label, name, times, nodes, ratio), flush=True)
            medians[name] = median
        short = label.replace("full deal, ", "").replace(" tricks left", "t")
        summary.append(f"{short}: " + " ".join(f"{b} {t * 1000:.2f}ms" for b, t in medians.items()))
    print("solver medians: " + "; ".join(summary))


if __name__ == "__main__":
    main()
