"""The versions of the server's SQLite file, and the migrations from one to the next.

The tables' store (``chibre.server.store``) and the score sheets' store
(``chibre.server.sheets``) share one file, and both open it through :func:`bring_up_to_date`.
The file's version is SQLite's ``PRAGMA user_version``; ``MIGRATIONS`` lists, in order, what
each version adds. A file is brought up to date in one transaction per migration, the version
written with it, so a migration is done entirely or not at all.

Version 0 is a file from before versions were kept: its tables are those of version 1, except
that it may lack the score sheets (older still) or their ``key`` column. Every table a version
has must be there: a file of a known version that lacks one is damaged (``StoreDamaged``) — it
is never silently given an empty table in its place, which would deal every game again from
scratch. A file of a version newer than this program knows is refused (``StoreTooNew``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from chibre.errors import ChibreError


class StoreDamaged(ChibreError):
    """The file lacks a table its version has, or SQLite finds it damaged."""


class StoreTooNew(ChibreError):
    """The file was written by a newer version of chibre, with a schema this one does not
    know."""


class StoreRefused(ChibreError):
    """The file cannot be served: nothing could be read from it, it was written by a newer
    chibre, or it is damaged and cannot be replaced. The message says what to do."""


GAME_TABLES = """
CREATE TABLE IF NOT EXISTS game_tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    watch TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS game_entries (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS game_tables_open ON game_tables (finished);
"""

SCORE_SHEETS = """
CREATE TABLE IF NOT EXISTS score_sheets (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    sheet TEXT NOT NULL
);
"""

DAMAGED_TABLES = """
CREATE TABLE IF NOT EXISTS damaged_tables (
    id TEXT PRIMARY KEY,
    noted REAL NOT NULL,
    reason TEXT NOT NULL
);
"""


def _run(db: sqlite3.Connection, script: str) -> None:
    """The statements of ``script``, one by one, inside the transaction under way
    (``executescript`` would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _tables(db: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}


def _first(db: sqlite3.Connection) -> None:
    """Version 1: the tables, their record, and the score sheets with their keys."""
    _run(db, GAME_TABLES + SCORE_SHEETS)
    columns = {row[1] for row in db.execute("PRAGMA table_info(score_sheets)")}
    if "key" not in columns:  # a file from before sheets had keys: they open no more
        db.execute("ALTER TABLE score_sheets ADD COLUMN key TEXT NOT NULL DEFAULT ''")


def _damaged_tables(db: sqlite3.Connection) -> None:
    """Version 2: the ids of the tables that were damaged and could not be restored."""
    _run(db, DAMAGED_TABLES)


TABLE_ACTIVITY = """
CREATE TABLE IF NOT EXISTS table_activity (
    id TEXT PRIMARY KEY,
    active REAL NOT NULL
) WITHOUT ROWID;
"""


def _activity(db: sqlite3.Connection) -> None:
    """Version 3: when each unfinished table was last played or opened (for putting unused
    tables to rest after a restart too)."""
    _run(db, TABLE_ACTIVITY)


TOURNAMENTS = """
CREATE TABLE IF NOT EXISTS table_deals (
    table_id TEXT PRIMARY KEY,
    seed TEXT NOT NULL,
    turned INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    organiser TEXT NOT NULL,
    code TEXT NOT NULL,
    seed TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tournament_entries (
    tournament_id TEXT NOT NULL,
    id TEXT NOT NULL,
    n INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    members TEXT NOT NULL,
    token TEXT NOT NULL,
    status TEXT NOT NULL,
    since INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    opened REAL NOT NULL,
    draw TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    key TEXT NOT NULL DEFAULT '',
    seen TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, number)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tournament_flags (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    entry TEXT NOT NULL,
    noted REAL NOT NULL,
    PRIMARY KEY (tournament_id, round, number, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tournament_audit (
    tournament_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    at REAL NOT NULL,
    who TEXT NOT NULL,
    what TEXT NOT NULL,
    PRIMARY KEY (tournament_id, n)
) WITHOUT ROWID;
"""


def _tournaments(db: sqlite3.Connection) -> None:
    """Version 4: the tournaments (entries, rounds, their tables, flags, the audit log) and
    the committed deal seeds of tables."""
    _run(db, TOURNAMENTS)


TABLE_TERMS = """
CREATE TABLE IF NOT EXISTS table_terms (
    table_id TEXT PRIMARY KEY,
    hands INTEGER NOT NULL DEFAULT 0,
    grace REAL,
    move REAL NOT NULL DEFAULT 0,
    shared INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
"""


def _table_terms(db: sqlite3.Connection) -> None:
    """Version 5: what a tournament fixes for its tables — a Passe's number of hands, the
    time limits, and whether the deals are shared with the round's other tables."""
    _run(db, TABLE_TERMS)


TABLE_HINTS = """
CREATE TABLE IF NOT EXISTS table_hints (
    table_id TEXT PRIMARY KEY
) WITHOUT ROWID;
"""


def _table_hints(db: sqlite3.Connection) -> None:
    """Version 6: the tables played with the coach's hints on."""
    _run(db, TABLE_HINTS)


TABLE_CLOCKS = """
CREATE TABLE IF NOT EXISTS table_clocks (
    table_id TEXT PRIMARY KEY,
    move REAL NOT NULL
) WITHOUT ROWID;
"""


def _table_clocks(db: sqlite3.Connection) -> None:
    """Version 7: the seconds a player has for a move at a table that is not a tournament's
    (a tournament's are in its ``table_terms``)."""
    _run(db, TABLE_CLOCKS)


GAME_REVIEWS = """
CREATE TABLE IF NOT EXISTS game_reviews (
    table_id TEXT NOT NULL,
    seats TEXT NOT NULL,
    made REAL NOT NULL,
    review TEXT NOT NULL,
    PRIMARY KEY (table_id, seats)
) WITHOUT ROWID;
"""


def _game_reviews(db: sqlite3.Connection) -> None:
    """Version 8: the coach's reviews of finished games, kept over a restart."""
    _run(db, GAME_REVIEWS)


TOURNAMENT_CLOSED = """
CREATE TABLE IF NOT EXISTS tournament_closed (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    closed REAL NOT NULL,
    totals TEXT NOT NULL,
    striche TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round, number)
) WITHOUT ROWID;
"""


def _tournament_closed(db: sqlite3.Connection) -> None:
    """Version 9: the tournament tables the organiser closed unfinished (time called), with
    the score they stood at."""
    _run(db, TOURNAMENT_CLOSED)


OLD_COMPUTER_NAME = "Computer"
"""The name the computer seats that fill a tournament's tables were stored with before
version 10 (they have no name of their own: the table names them by their level)."""


def _filling_seats(db: sqlite3.Connection) -> dict[str, set[int]]:
    """The online tournament tables and, for each, the seats its round's draw left to the
    computer (the draw's empty seat id)."""
    draws: dict[tuple[str, object], object] = {}  # by the rows' own values (damaged or not)
    for tid, number, draw in db.execute("SELECT tournament_id, round, draw FROM tournament_rounds"):
        draws[str(tid), number] = _json(draw)
    out: dict[str, set[int]] = {}
    for tid, number, table, ref in db.execute(
        "SELECT tournament_id, round, number, ref FROM tournament_tables WHERE kind = 'online'"
    ):
        tables = draws.get((str(tid), number))
        for d in tables if isinstance(tables, list) else []:
            seats = d.get("seats") if isinstance(d, dict) else None
            if isinstance(seats, list) and d.get("table") == table:
                out[str(ref)] = {n for n, seat in enumerate(seats) if seat == ""}
    return out


def _json(text: object) -> object:
    """``text`` read as JSON; ``None`` where it cannot be (a damaged row is left as it is:
    reading it says so)."""
    try:
        return json.loads(str(text))
    except ValueError:
        return None


def computers_by_level(db: sqlite3.Connection) -> None:
    """Version 10: the computer seats that fill a tournament's tables, stored with the name
    "Computer", have no name of their own (the tables name them by their level), as at any
    other table. A computer entrant's name, and any table that is not a tournament's, stay.
    Run again on the rows a salvage copies from an older file (it changes nothing twice)."""
    for ref, filled in _filling_seats(db).items():
        row = db.execute("SELECT seats FROM game_tables WHERE id = ?", (ref,)).fetchone()
        if row is None or not filled:
            continue
        seats = _json(row[0])
        if not isinstance(seats, list):
            continue
        changed = False
        for n in filled:
            seat = seats[n] if n < len(seats) else None
            if isinstance(seat, dict) and seat.get("name") == OLD_COMPUTER_NAME:
                seat["name"] = seat.get("kind", "")
                changed = True
        if changed:
            db.execute(
                "UPDATE game_tables SET seats = ? WHERE id = ?",
                (json.dumps(seats, ensure_ascii=False), ref),
            )


@dataclass(frozen=True)
class Migration:
    """What brings a file to ``version``, and the tables that version adds."""

    version: int
    does: str
    tables: tuple[str, ...]
    apply: Callable[[sqlite3.Connection], None]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "the tables, their records and the score sheets",
        ("game_tables", "game_entries", "score_sheets"),
        _first,
    ),
    Migration(2, "the record of damaged tables", ("damaged_tables",), _damaged_tables),
    Migration(3, "when each table was last used", ("table_activity",), _activity),
    Migration(
        4,
        "the tournaments and the tables' committed deals",
        (
            "table_deals",
            "tournaments",
            "tournament_entries",
            "tournament_rounds",
            "tournament_tables",
            "tournament_flags",
            "tournament_audit",
        ),
        _tournaments,
    ),
    Migration(
        5, "the terms of tournament tables (Passe, time limits)", ("table_terms",), _table_terms
    ),
    Migration(6, "the tables with the coach's hints on", ("table_hints",), _table_hints),
    Migration(7, "the move limits of tables", ("table_clocks",), _table_clocks),
    Migration(8, "the coach's reviews of finished games", ("game_reviews",), _game_reviews),
    Migration(
        9, "the tournament tables closed unfinished", ("tournament_closed",), _tournament_closed
    ),
    Migration(
        10, "the computers of tournament tables named by their level", (), computers_by_level
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
OURS = frozenset(t for m in MIGRATIONS for t in m.tables)


def expected_tables(version: int) -> set[str]:
    """The tables a file of ``version`` has (version 0: those both halves of the record need,
    when one of them is there)."""
    return {t for m in MIGRATIONS if m.version <= version for t in m.tables}


def version_of(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def missing_tables(db: sqlite3.Connection) -> list[str]:
    """The tables the file's version has that the file lacks (empty: none is missing).

    In a file from before versions, a table's record is two tables: one without the other is
    damage too."""
    version = version_of(db)
    present = _tables(db)
    if version == 0:
        pair = {"game_tables", "game_entries"}
        return sorted(pair - present) if pair & present else []
    return sorted(expected_tables(min(version, SCHEMA_VERSION)) - present)


def check_version(db: sqlite3.Connection) -> int:
    """The file's version; ``StoreTooNew`` or ``StoreDamaged`` when it cannot be used."""
    version = version_of(db)
    if version > SCHEMA_VERSION:
        raise StoreTooNew(
            f"the store was written by a newer version of chibre (schema version {version}; "
            f"this one knows versions up to {SCHEMA_VERSION}): update chibre to open it"
        )
    if version == 0 and _tables(db) and not _tables(db) & OURS:
        raise StoreDamaged("this SQLite file belongs to another program: it holds no chibre table")
    missing = missing_tables(db)
    if missing:
        raise StoreDamaged(
            f"the store (schema version {version}) has lost its table"
            f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        )
    return version


def bring_up_to_date(db: sqlite3.Connection) -> list[Migration]:
    """Apply every migration the file still needs, each in its own transaction; returns
    those applied. ``StoreDamaged`` or ``StoreTooNew`` (nothing changed) when the file cannot
    be used; ``sqlite3.Error`` when it cannot be written."""
    if check_version(db) == SCHEMA_VERSION:
        return []
    applied: list[Migration] = []
    for migration in MIGRATIONS:
        db.execute("BEGIN IMMEDIATE")
        try:
            if version_of(db) < migration.version:  # not done meanwhile by another connection
                migration.apply(db)
                db.execute(f"PRAGMA user_version = {migration.version:d}")
                applied.append(migration)
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return applied
