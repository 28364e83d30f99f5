"""The cost of a protocol: time per decision of our ``rule`` player when it plays in-process,
over our table protocol, over the Jass Challenge protocol and over the jass-kit's HTTP player
service — median and p99, side by side in the same run.

- **in-process**: games of four ``rule`` players driven by ``chibre.game.Game``; a decision is
  the observation, ``act`` and the move applied.
- **table protocol**: ``chibre serve`` (a subprocess, bot and deal delays 0), one table of four
  human seats, each played by ``chibre.client.play_seat`` with ``rule`` (all four in this
  process). A decision is the time from one seat's action leaving to the next seat's action
  leaving: the server applies and stores the move and sends every seat its state, the next
  seat reads its observation, decides and sends.
- **Jass Challenge**: the same server's Jass Challenge endpoint, four
  ``chibre.jass_challenge.ChallengeClient`` with ``rule``; measured the same way.
- **jass-kit HTTP**: ``chibre player-service --player rule`` (a subprocess) asked by
  ``chibre.remote.JasskitHttpPlayer`` for every decision of in-process games under the kit's
  rules: V0.2 JSON built, POSTed, read back into an observation, decided, answered.

    python bench/protocols.py [--games 3]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Coroutine
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from chibre.actions import Action  # noqa: E402
from chibre.bots import make_player  # noqa: E402
from chibre.client import play_seat  # noqa: E402
from chibre.game import CHANCE, Game  # noqa: E402
from chibre.jass_challenge import ChallengeClient, play_challenge  # noqa: E402
from chibre.jasskit import RULES as JASSKIT_RULES  # noqa: E402
from chibre.observation import Observation  # noqa: E402
from chibre.remote import JasskitHttpPlayer  # noqa: E402
from chibre.rules import Rules  # noqa: E402
from server_support import create_table, server_env, start_server, stop_server  # noqa: E402

PRINTED = re.compile(r"player rule at (http://127\.0\.0\.1:\d+)/rule")


class Stamped:
    """``rule``, noting when each of its decisions was made (into a shared list)."""

    def __init__(self, seed: int, stamps: list[float]) -> None:
        self.inner = make_player("rule", seed)
        self.name = "rule"
        self.stamps = stamps

    def act(self, observation: Observation) -> Action:
        action = self.inner.act(observation)
        self.stamps.append(time.perf_counter())
        return action


def gaps(stamps: list[float]) -> list[float]:
    """Seconds between consecutive decisions of a game (its first is left out)."""
    s = sorted(stamps)
    return [b - a for a, b in itertools.pairwise(s)]


async def all_of(tasks: list[Coroutine[Any, Any, Any]]) -> None:
    await asyncio.gather(*tasks)


def in_process(games: int, rules: Rules, player: Callable[[int], Any]) -> list[float]:
    times: list[float] = []
    for g in range(games):
        rng = Random(g)
        game = Game(rules)
        seats = [player(s) for s in range(4)]
        while not game.is_over:
            seat = game.current_player
            if seat == CHANCE:
                game.deal(rng)
                continue
            assert seat is not None
            start = time.perf_counter()
            game.apply(seats[seat].act(game.observation(seat)), seat)
            times.append(time.perf_counter() - start)
    return times


def table_protocol(base: str, games: int) -> list[float]:
    times: list[float] = []
    for _ in range(games):
        answer = create_table(base, ["human"] * 4)
        links = [base + s["link"] for s in answer["seats"]]
        stamps: list[float] = []
        asyncio.run(all_of([play_seat(link, Stamped(s, stamps)) for s, link in enumerate(links)]))
        times += gaps(stamps)
    return times


def jass_challenge(base: str, games: int) -> list[float]:
    url = base.replace("http://", "ws://") + "/jass-challenge"
    times: list[float] = []
    for g in range(games):
        stamps: list[float] = []
        clients = [
            ChallengeClient(Stamped(s, stamps), f"bench {s}", session=f"bench {g}")
            for s in range(4)
        ]
        asyncio.run(all_of([play_challenge(url, c) for c in clients]))
        times += gaps(stamps)
    return times


def player_service(games: int) -> list[float]:
    command = [sys.executable, "-m", "chibre.cli", "player-service", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--player", "rule"], env=server_env(), stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        found = PRINTED.search(process.stdout.readline())
        assert found, "the player service printed no address"
        base = found.group(1)
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/rule", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        remote = JasskitHttpPlayer(base + "/rule")
        times = in_process(games, JASSKIT_RULES.replace(target=1000), lambda s: remote)
        assert not remote.incidents, remote.incidents[:3]
        return times
    finally:
        process.terminate()
        process.wait(timeout=10)


def line(name: str, times: list[float], reference: float | None) -> str:
    q = statistics.quantiles(times, n=100)
    median = statistics.median(times)
    ratio = f"{median / reference:8.1f}×" if reference else "        —"
    return f"{name:<22} {len(times):>6} {median * 1e3:9.3f} {q[98] * 1e3:9.3f} {ratio}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=3, help="games per protocol (3)")
    args = p.parse_args(argv)
    results: list[tuple[str, list[float]]] = []
    results.append(
        ("in-process", in_process(args.games, Rules(), lambda s: make_player("rule", s)))
    )
    with tempfile.TemporaryDirectory() as tmp:
        process, base = start_server(Path(tmp) / "bench.sqlite")
        try:
            results.append(("table protocol (WS)", table_protocol(base, args.games)))
            results.append(("Jass Challenge (WS)", jass_challenge(base, args.games)))
        finally:
            stop_server(process)
    results.append(("jass-kit HTTP", player_service(args.games)))
    print(f"rule, time per decision ({args.games} games per protocol; ms)")
    print(f"{'protocol':<22} {'n':>6} {'median':>9} {'p99':>9} {'vs in-process':>9}")
    reference = statistics.median(results[0][1])
    for name, times in results:
        print(line(name, times, None if name == "in-process" else reference))
    return 0


if __name__ == "__main__":
    sys.exit(main())
