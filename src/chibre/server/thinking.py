"""Computer players that think away from the event loop.

``random`` and ``rule`` decide in well under a millisecond and play on the event loop. The
search players (``easy``, ``medium``, ``strong``) think for longer: they are built and asked in
a pool of worker processes (one fewer than the machine's cores, at least one), so that the
tables stay responsive and a player that fails — or crashes its process — costs a fallback to a
simpler player, never the server. A worker receives only the seat's ``Observation``, as a player
always does. The table gives each decision a time limit (``chibre.server.tables``). The
pool's first worker starts with the server and compiles the search at once (``prepare``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from chibre.actions import Action
from chibre.bots import Player, RandomPlayer, make_player
from chibre.bots.solver import warm_up
from chibre.observation import Observation

FAST_PLAYERS = ("random", "rule")
"""Players quick enough to decide on the event loop."""
FALLBACK_PLAYERS = ("rule", "random")
"""Who takes over from a player that cannot play: ``rule``, then ``random``."""

KEPT_PLAYERS = 64
"""How many players a worker process keeps built (the most recently used ones)."""

_players: OrderedDict[tuple[str, int], Player] = OrderedDict()
"""The players a worker process has built, by level and seed, least recently used first."""


def decide(level: str, seed: int, observation: Observation) -> Action:
    """A worker's job: the action of the ``level`` player with ``seed`` for one observation
    (the player is built once per worker and kept while it is among the ``KEPT_PLAYERS``
    most recently used)."""
    key = (level, seed)
    player = _players.get(key)
    if player is None:
        player = _players[key] = make_player(level, seed)
        while len(_players) > KEPT_PLAYERS:
            _players.popitem(last=False)
    else:
        _players.move_to_end(key)
    return player.act(observation)


def default_workers() -> int:
    """One worker per core but one (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def load_player(level: str, seed: int) -> Player:
    """A player to run on the event loop: ``level`` if it loads, else ``rule``, else
    ``random``."""
    for name in (level, *FALLBACK_PLAYERS):
        try:
            return make_player(name, seed)
        except Exception:  # a module not written yet, or broken: the next one plays
            continue
    return RandomPlayer(seed)


def fallback(level: str) -> str:
    """The level that replaces ``level`` when it failed to decide."""
    return "rule" if level not in FALLBACK_PLAYERS else "random"


class Thinkers:
    """A pool of worker processes (started on first use) for the search players."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with,
                initargs=(os.getpid(),),
            )
        return self._pool

    def prepare(self) -> Future[None]:
        """Start a worker now and have it compile the search, or load it from numba's cache:
        on a fresh install the first compile takes some 20 seconds, which the first computer
        move of the first table would otherwise wait (the server starts it as it starts)."""
        return self._executor().submit(warm_up)

    def decide(self, level: str, seed: int, observation: Observation) -> asyncio.Future[Action]:
        """The decision, as a future of the running event loop; it fails if the player
        fails or its process dies (the next call starts a new pool)."""
        try:
            job: Future[Action] = self._executor().submit(decide, level, seed, observation)
        except BrokenProcessPool:
            self._pool = None
            job = self._executor().submit(decide, level, seed, observation)
        job.add_done_callback(self._check)
        return asyncio.wrap_future(job)

    def _check(self, job: Future[Action]) -> None:
        if not job.cancelled() and isinstance(job.exception(), BrokenProcessPool):
            self._pool = None  # a worker died: the next decision starts a new pool

    def close(self) -> None:
        """Stop the workers, even one still thinking (the server shuts down)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)


def exit_with(server: int) -> None:
    """A worker's first step: watch the process that started it and leave as soon as it is
    gone — even killed outright, a server must not leave its workers behind. Ctrl-C is the
    server's to handle (the terminal sends it to every process of the group): the server
    stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-server", daemon=True).start()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now, stopping a worker still busy (it would keep the server alive),
    then wait (a few seconds at most) for the pool's manager to close its queues — else their
    semaphores are left for the system to clean up."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        if process.is_alive():
            process.terminate()
    if manager is not None:
        manager.join(5)
