"""The server's upkeep, kept off the moments when a player waits.

Two chores would otherwise stall the event loop for tens or hundreds of milliseconds at a
time, whatever the load: SQLite's WAL checkpoint, which by default runs inside whichever
commit finds the log past 1,000 pages (copying the pages back into the database file and
syncing it), and Python's full garbage collection, which walks every object the tables hold.

- ``Checkpointer``: the store's own connection stops checkpointing
  (``PRAGMA wal_autocheckpoint=0``); a thread with a connection of its own checkpoints the log
  (``PASSIVE``: it never waits for a writer, nor a writer for it) every ``interval`` seconds,
  and truncates it when the server stops. Every commit is still written to the log before the
  move is told to anyone.
- ``Collector``: Python's own collections, started by allocations, are turned off; instead,
  every second, the objects made since the last second are collected (a few milliseconds) and
  the survivors frozen (``gc.freeze``), so that no collection walks the games again. Tables
  leave no reference cycles behind when they are unloaded (tested), so little of what
  freezing keeps is garbage; what is — a closed socket's cycles, say — is collected by one
  full collection every ``full_every`` seconds (an hour), the only long pause left.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger("chibre.server")


class Checkpointer:
    """WAL checkpoints in a thread of their own."""

    def __init__(self, db: sqlite3.Connection, path: Path, interval: float = 1.0) -> None:
        db.execute("PRAGMA wal_autocheckpoint=0")
        self.path = path
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
        try:
            while not self._stop.wait(self.interval):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error:
                    log.exception("the WAL checkpoint failed; it is tried again")
            try:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error:
                log.exception("the last WAL checkpoint failed")
        finally:
            db.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)


class Collector:
    """The garbage collector driven by a timer of the event loop instead of by allocations:
    every ``interval`` seconds the objects made since the last time are collected and the
    survivors frozen; every ``full_every`` seconds everything is collected once."""

    def __init__(self, interval: float = 1.0, full_every: float = 3600.0) -> None:
        self.interval = interval
        self.full_every = full_every
        gc.disable()  # no collection starts in the middle of a move
        gc.collect()
        gc.freeze()  # what the start loaded (the restored tables) is kept
        loop = asyncio.get_running_loop()
        self._full_at = loop.time() + full_every
        self._timer = loop.call_later(interval, self._tick)

    def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        if loop.time() >= self._full_at:
            gc.unfreeze()
            gc.collect()
            self._full_at = loop.time() + self.full_every
        else:
            gc.collect(0)  # the objects of the last second only
        gc.freeze()
        self._timer = loop.call_later(self.interval, self._tick)

    def close(self) -> None:
        self._timer.cancel()
        gc.unfreeze()
        gc.enable()
