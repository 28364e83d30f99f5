"""The server's upkeep: WAL checkpoints in their own thread, tables that leave no reference
cycles for the garbage collector when they are unloaded, and the search compiled as the server
starts."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import sqlite3
import time
from collections import Counter
from pathlib import Path

import pytest

from chibre.server.models import TableRequest
from chibre.server.store import Store
from chibre.server.tables import Settings, Tables
from chibre.server.upkeep import Checkpointer
from server_support import running_server


def test_the_checkpoint_thread_moves_the_log_into_the_file_and_truncates_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (x TEXT)")
    checkpointer = Checkpointer(db, path, interval=0.1)
    assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    for _ in range(3000):
        db.execute("INSERT INTO t VALUES (?)", ("x" * 500,))  # far past 1,000 pages of log
    deadline = time.monotonic() + 10
    while path.stat().st_size < 1_000_000 and time.monotonic() < deadline:
        time.sleep(0.05)
    in_file = path.stat().st_size
    checkpointer.close()
    wal = Path(str(path) + "-wal")
    assert in_file >= 1_000_000  # the thread copied the log's pages into the database file
    assert not wal.exists() or wal.stat().st_size == 0  # and truncated the log at the end
    assert db.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 3000
    db.close()


def test_unloaded_tables_leave_no_reference_cycles(tmp_path: Path) -> None:
    async def play() -> tuple[int, Counter[str]]:
        store = Store(tmp_path / "chibre.sqlite")
        tables = Tables(store, Settings(bot_delay=0, deal_delay=0))
        sent: list[int] = []

        async def send(text: str) -> None:
            sent.append(len(text))

        made = []
        for _ in range(10):
            table = tables.create(TableRequest(seats=["rule"] * 4, options={"target": 300}))
            made.append((table, table.join(None, send)))
        deadline = time.monotonic() + 60
        while not all(t.game.is_over for t, _ in made) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        over = sum(t.game.is_over for t, _ in made)
        for table, conn in made:
            table.leave(conn)
            tables.release(table)
        del made
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            garbage = Counter(type(o).__module__ for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        tables.close()
        store.close()
        return over, garbage

    gc.collect()
    gc.disable()  # every cycle made while they play stays until the collection below
    try:
        over, garbage = asyncio.run(play())
    finally:
        gc.enable()
    assert over == 10
    assert not any(module.startswith("chibre") for module in garbage), garbage


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="needs numba")
def test_the_server_compiles_the_search_as_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an empty cache, as on a fresh install: the first computer move would wait ~20 s for it
    cache = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    with running_server(tmp_path):  # no table is created
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not _compiled(cache):
            time.sleep(0.2)
        assert _compiled(cache), sorted(p.name for p in cache.rglob("*"))


def _compiled(cache: Path) -> bool:
    """Whether numba's cache in ``cache`` holds the compiled search's main loop."""
    return any(cache.rglob("solver_core._run-*.nbc"))
