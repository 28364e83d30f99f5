"""A damaged SQLite file of the server: found at start, said plainly, and what can be read
saved.

At start (``chibre serve``), :func:`prepare` looks at the file before anything uses it:

- SQLite's ``PRAGMA quick_check``, and the tables its version must have
  (``chibre.server.migrations``): on damage the file is copied aside
  (``chibre.sqlite.damaged-YYYYmmdd-HHMMSS``, with its ``-wal`` and ``-shm``), every table,
  record entry and score sheet that can still be read is copied, row by row, into a fresh file
  that takes its place, and one paragraph says what was found, what was saved and what was
  lost. A table whose record could not be read whole is kept in ``damaged_tables``: its players
  are told that it was damaged, not that it does not exist.
- A file none of whose rows can be read (not a database at all) is refused
  (``StoreRefused``) and left as it is.
- A read-only file is served as it is, with a warning: games cannot be saved.

How the rows are read is ``chibre.server.salvage``.

:func:`examine` is ``chibre store check``; :func:`backup` is ``chibre store backup``.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from chibre.server import migrations
from chibre.server.migrations import StoreRefused
from chibre.server.salvage import MAGIC, Salvage, salvage

__all__ = ["Health", "StoreRefused", "backup", "examine", "prepare", "prepare_once"]

MAX_PROBLEMS = 3
"""Problems of ``quick_check`` quoted in the report (the others are counted)."""


@dataclass
class Health:
    """What :func:`examine` found in a file."""

    path: Path
    exists: bool = True
    readable: bool = True
    """SQLite opens it and reads its schema."""
    problems: list[str] = field(default_factory=list)
    read_only: bool = False
    shut_in: bool = False
    """Read-only in a folder SQLite cannot write to either: it cannot even read the file (a
    file in write-ahead mode is read with a shared-memory file beside it)."""
    version: int | None = None
    too_new: bool = False
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.exists and self.readable and not self.problems and not self.too_new

    def describe(self) -> str:
        """The problems in one sentence: the first few quoted, the others counted."""
        shown = "; ".join(self.problems[:MAX_PROBLEMS])
        more = len(self.problems) - MAX_PROBLEMS
        return shown + (f"; and {more} more" if more > 0 else "")


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    return sqlite3.connect(path, isolation_level=None, timeout=10)


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def examine(path: Path | str, thorough: bool = False) -> Health:
    """The file's health: SQLite's ``quick_check`` (``integrity_check`` when ``thorough``)
    and the tables its version must have. Reads only."""
    path = Path(path)
    health = Health(path)
    if not path.is_file():
        health.exists = health.readable = False
        health.problems.append("there is no such file" if not path.exists() else "not a file")
        return health
    health.read_only = not _writable(path)
    if path.stat().st_size == 0:  # SQLite's empty database: a first start
        health.version = 0
        return health
    with path.open("rb") as f:
        head = f.read(len(MAGIC))
    if head != MAGIC:
        health.readable = False
        health.problems.append("its header does not say it is an SQLite database")
        return health
    try:
        db = _connect(path, read_only=health.read_only)
    except sqlite3.Error as e:
        health.readable = False
        health.problems.append(f"SQLite cannot open it ({e})")
        return health
    try:
        try:
            db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except sqlite3.DatabaseError as e:
            if isinstance(e, sqlite3.OperationalError) and health.read_only:
                # not damaged, perhaps: not to be read here
                health.shut_in = not os.access(path.parent, os.W_OK)
                if health.shut_in:
                    return health
            health.readable = False
            health.problems.append(f"SQLite cannot read its schema ({e})")
            return health
        try:
            pragma = "integrity_check" if thorough else "quick_check"
            lines = [str(r[0]) for r in db.execute(f"PRAGMA {pragma}(100)")]
        except sqlite3.DatabaseError as e:
            lines = [str(e)]
        if lines != ["ok"]:
            health.problems += lines
        health.version = migrations.version_of(db)
        health.too_new = health.version > migrations.SCHEMA_VERSION
        if not health.too_new:
            missing = migrations.missing_tables(db)
            if missing:
                health.problems.append(
                    f"the table{'s' if len(missing) > 1 else ''} {', '.join(missing)} of "
                    f"schema version {health.version} {'are' if len(missing) > 1 else 'is'} "
                    "missing"
                )
        for table in ("game_tables", "score_sheets", "damaged_tables"):
            with suppress(sqlite3.DatabaseError):
                (count,) = db.execute(f"SELECT count(*) FROM {table}").fetchone()
                health.counts[table] = int(count)
    finally:
        db.close()
    return health


# --- at start --------------------------------------------------------------------------------


def _listed(kind: str, ids: list[str], most: int = 10) -> str:
    shown = ", ".join(ids[:most]) + (f" and {len(ids) - most} more" if len(ids) > most else "")
    return f"{len(ids)} {kind}{'s' if len(ids) != 1 else ''} ({shown})"


def report(path: Path, health: Health, saved: Salvage) -> str:
    """The paragraph that says what was found, what was done, what was saved and lost."""
    sides = f" (with its {' and '.join(saved.aside_sides)})" if saved.aside_sides else ""
    lost = []
    if saved.lost_tables:
        lost.append(
            _listed("table", saved.lost_tables)
            + ", whose players will be told that the table was damaged and could not be restored"
        )
    if saved.lost_sheets:
        lost.append(_listed("score sheet", saved.lost_sheets))
    if saved.lost_tournaments:
        lost.append(_listed("tournament", saved.lost_tournaments))
    if saved.partial_tournaments:
        lost.append(
            _listed("tournament", saved.partial_tournaments)
            + " kept without a round or a table's link that could not be read"
        )
    if saved.unread:
        lost.append(
            "rows of " + ", ".join(saved.unread) + " that could not be read (their ids are unknown)"
        )
    return (
        f"the store {path} is damaged: {health.describe()}. It was copied aside to "
        f"{saved.aside}{sides}, and what could still be read was saved into a fresh "
        f"{path.name}: {saved.tables} table{'s' if saved.tables != 1 else ''} "
        f"({saved.entries} record entries), {saved.sheets} score "
        f"sheet{'s' if saved.sheets != 1 else ''} and {saved.tournaments} "
        f"tournament{'s' if saved.tournaments != 1 else ''}. "
        + ("Lost: " + "; ".join(lost) + ". " if lost else "Nothing else seems lost. ")
        + "The server starts with what was saved; the damaged copy is kept for a closer "
        "look and may be deleted when nothing more is wanted from it."
    )


READ_ONLY = (
    "the store {path} is read-only: games cannot be saved. Its tables and score "
    "sheets can be looked at, but new tables, moves and changes are refused until the file "
    "can be written again."
)


def prepare(path: Path | str) -> list[str]:
    """Make the file ready to be served: check it, save what can be saved when it is damaged,
    bring it up to date. Returns what the operator is to read (nothing when all is well);
    ``StoreRefused`` when it cannot be served."""
    path = Path(path)
    health = examine(path)
    if not health.exists and not path.exists():
        return []  # a first start: the stores make the file
    if not health.exists:
        raise StoreRefused(f"{path} is not a file: give --db the path of an SQLite file")
    if health.too_new:
        raise StoreRefused(
            f"the store {path} was written by a newer version of chibre (schema version "
            f"{health.version}; this one knows versions up to {migrations.SCHEMA_VERSION}): "
            "update chibre, or give another --db."
        )
    if health.shut_in:
        raise StoreRefused(
            f"the store {path} cannot be read where it is: its folder {path.parent} cannot be "
            "written, and SQLite writes a small file beside the store even to read it. Serve it "
            "from a folder that can be written (copy it there), or make this one writable."
        )
    notes: list[str] = []
    if not health.ok:
        if health.read_only:
            raise StoreRefused(
                f"the store {path} is damaged ({health.describe()}) and read-only, so it cannot "
                f"be repaired in place. Make it writable and start again, or copy it "
                f"(`chibre store backup {path} COPY`) and serve the copy."
            )
        saved = salvage(path)
        notes.append(report(path, health, saved))
    elif health.read_only:
        if (health.version or 0) < migrations.SCHEMA_VERSION:
            raise StoreRefused(
                f"the store {path} is read-only and from an older version of chibre (schema "
                f"version {health.version}): it must be brought up to date, which needs to "
                "write it. Make it writable and start again."
            )
        return [READ_ONLY.format(path=path)]
    db = _connect(path)
    try:
        applied = migrations.bring_up_to_date(db)
    except (migrations.StoreDamaged, migrations.StoreTooNew) as e:
        raise StoreRefused(f"the store {path} cannot be used: {e}") from e
    except sqlite3.Error as e:
        raise StoreRefused(f"the store {path} cannot be brought up to date: {e}") from e
    finally:
        db.close()
    if applied:
        notes.append(
            f"the store {path} was brought up to schema version "
            f"{migrations.SCHEMA_VERSION} ({'; '.join(m.does for m in applied)})."
        )
    return notes


_PREPARED: set[Path] = set()


def prepare_once(path: Path | str) -> list[str]:
    """:func:`prepare`, once a process for each file (``chibre serve`` prepares the file before
    it starts the application, whose start prepares it too when it runs on its own)."""
    key = Path(path).resolve()
    if key in _PREPARED:
        return []
    notes = prepare(path)
    _PREPARED.add(key)
    return notes


def backup(path: Path | str, dest: Path | str) -> Health:
    """Copy the store to ``dest`` with SQLite's online backup (safe while the server writes);
    returns the copy's health. ``StoreRefused`` when there is nothing to copy or ``dest``
    exists."""
    path, dest = Path(path), Path(dest)
    if not path.is_file():
        raise StoreRefused(f"there is no store {path} to back up")
    if dest.exists():
        raise StoreRefused(f"{dest} exists already: give the backup a new name")
    if not dest.parent.is_dir():
        raise StoreRefused(f"there is no folder {dest.parent} to write the backup {dest.name} in")
    try:
        source = sqlite3.connect(path, timeout=10)
    except sqlite3.Error as e:
        raise StoreRefused(f"the store {path} cannot be opened: {e}") from e
    try:
        try:
            target = sqlite3.connect(dest)
        except sqlite3.Error as e:
            raise StoreRefused(f"the backup {dest} cannot be written: {e}") from e
        try:
            source.backup(target)
        finally:
            target.close()
    except sqlite3.Error as e:
        dest.unlink(missing_ok=True)
        raise StoreRefused(f"the store {path} could not be backed up to {dest}: {e}") from e
    finally:
        source.close()
    return examine(dest, thorough=True)
