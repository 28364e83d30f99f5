"""What can still be read of a damaged SQLite file of the server, copied into a fresh one.

:func:`salvage` reads the rows the way SQLite's ``.recover`` does, without the ``sqlite3``
program: a working copy of the file is opened (its header rewritten from what can be inferred
when it no longer says SQLite), each table is walked by rowid — a walk that meets a damaged
page goes on past it, from both ends — and each row is then read on its own, by rowid, and by
the ids its primary key's index still knows; whatever raises is skipped. A table's record is
read entry by entry from the first; a table whose record cannot be read whole, or does not
replay, is kept in ``damaged_tables``. The tables without rowid (the tables' committed deals and
terms, the tournaments and their entries, rounds, tables, flags and audit log) are walked by
their keys from both ends, and the rows of each tournament known by its id from both ends of
its range. A tournament is copied with its entries and the rounds read from the first on (a
round lost ends what is copied of it: the rounds after it would be renumbered); one whose row
is lost, or whose draws name a player whose entry is lost, is not copied, and said. A
tournament's online table whose committed deals are lost is damaged (dealing on would break
the commitment). The damaged file is copied aside
(``NAME.damaged-YYYYmmdd-HHMMSS``, with its ``-wal`` and ``-shm``) before the fresh file takes
its place; when nothing at all can be read, ``StoreRefused`` and the file is left as it is.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import struct
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from chibre.errors import ChibreError
from chibre.server import migrations
from chibre.server.migrations import StoreRefused
from chibre.server.store import SeatInfo, StoredTable, TableTerms, decode_entry

MAGIC = b"SQLite format 3\x00"
SIDES = ("-wal", "-shm")
HIGHEST_ROWID = 2**63 - 1
MAX_GAP = 1_000_000
"""Rowids between two rows read are each looked up when they span at most this many."""

TABLE_COLUMNS = ("id", "created", "preset", "rules", "seats", "watch", "finished")
SHEET_COLUMNS = ("id", "key", "name", "created", "updated", "sheet")
DAMAGED_COLUMNS = ("id", "noted", "reason")
DEALS_COLUMNS = ("table_id", "seed", "turned")
TERMS_COLUMNS = ("table_id", "hands", "grace", "move", "shared")
HINTS_COLUMNS = ("table_id",)
CLOCKS_COLUMNS = ("table_id", "move")
TOURNAMENT_COLUMNS = ("id", "created", "name", "settings", "organiser", "code", "seed")
TOURNAMENT_PARTS: dict[str, tuple[int, tuple[str, ...]]] = {
    "tournament_entries": (
        2,
        ("tournament_id", "id", "n", "name", "kind", "members", "token", "status", "since"),
    ),
    "tournament_rounds": (2, ("tournament_id", "round", "opened", "draw")),
    "tournament_tables": (3, ("tournament_id", "round", "number", "kind", "ref", "key", "seen")),
    "tournament_flags": (4, ("tournament_id", "round", "number", "seat", "entry", "noted")),
    "tournament_audit": (2, ("tournament_id", "n", "at", "who", "what")),
}
"""Each table of a tournament's rows: how many of its first columns are its key, and its
columns (the key first)."""


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None, timeout=10)


def _scan(db: sqlite3.Connection, table: str, descending: bool) -> tuple[set[int], bool]:
    """The rowids of ``table`` a walk in one direction reads, and whether it met damage: on
    a damaged page, the walk starts again further on, ever further until a start reads."""
    found: set[int] = set()
    damaged = False
    op, order = ("<", "DESC") if descending else (">", "ASC")
    bound: int | None = None
    while True:
        where = "" if bound is None else f"WHERE rowid {op} ?"
        last = bound
        try:
            cursor = db.execute(
                f"SELECT rowid FROM {table} NOT INDEXED {where} ORDER BY rowid {order}",
                () if bound is None else (bound,),
            )
            for (rowid,) in cursor:
                found.add(int(rowid))
                last = int(rowid)
            return found, damaged
        except sqlite3.DatabaseError:
            damaged = True
        bound = _past(db, table, last, descending)
        if bound is None:
            return found, damaged


def _past(db: sqlite3.Connection, table: str, last: int | None, descending: bool) -> int | None:
    """A rowid beyond ``last`` from which a walk reads again; ``None`` if there is none."""
    if last is None and descending:
        return None  # the walk from the end could not start: the walk from the start reads
    sign = -1 if descending else 1
    start = 0 if last is None else last  # the rowids SQLite gives start at 1
    op = "<" if descending else ">"
    for power in range(64):
        bound = start + sign * (1 << power)
        if abs(bound) > HIGHEST_ROWID:
            return None
        try:
            db.execute(
                f"SELECT rowid FROM {table} NOT INDEXED WHERE rowid {op} ? "
                f"ORDER BY rowid {'DESC' if descending else 'ASC'} LIMIT 1",
                (bound,),
            ).fetchall()
            return bound
        except sqlite3.DatabaseError:
            continue
    return None


def _index_ids(db: sqlite3.Connection, table: str) -> set[str]:
    """The ids the primary key's index of ``table`` still knows (from both ends)."""
    ids: set[str] = set()
    for order in ("ASC", "DESC"):
        try:
            for (key,) in db.execute(
                f"SELECT id FROM {table} INDEXED BY sqlite_autoindex_{table}_1 ORDER BY id {order}"
            ):
                ids.add(str(key))
        except sqlite3.DatabaseError:
            continue
    return ids


@dataclass
class Rows:
    """The rows of one table that could be read, and what is known of the others."""

    rows: list[tuple[object, ...]] = field(default_factory=list)
    lost_ids: set[str] = field(default_factory=set)
    """Ids the index still knows whose row could not be read."""
    damaged: bool = False
    """Some part of the table could not be read."""


def _columns(db: sqlite3.Connection, table: str, wanted: tuple[str, ...]) -> list[str] | None:
    """The columns to select, ``''`` for one an older file lacks; ``None`` without the table."""
    try:
        have = {str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        return None
    if not have:
        return None
    return [c if c in have else "''" for c in wanted]


def _read_rows(db: sqlite3.Connection, table: str, wanted: tuple[str, ...]) -> Rows:
    """Every row of a rowid table that can be read, one at a time."""
    out = Rows()
    columns = _columns(db, table, wanted)
    if columns is None:
        return out
    forward, damaged_forward = _scan(db, table, descending=False)
    rowids = forward
    if damaged_forward:
        backward, _ = _scan(db, table, descending=True)
        rowids = forward | backward
    out.damaged = damaged_forward
    if damaged_forward and rowids and max(rowids) - min(rowids) <= MAX_GAP:
        rowids = set(range(min(rowids), max(rowids) + 1))  # a walk may skip readable rows
    index_ids = _index_ids(db, table)
    select = f"SELECT {', '.join(columns)} FROM {table} NOT INDEXED WHERE rowid = ?"
    for rowid in sorted(rowids):
        try:
            row = db.execute(select, (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            out.damaged = True
            continue
        if row is not None:
            out.rows.append(tuple(row))
    read = {str(r[0]) for r in out.rows}
    for key in sorted(index_ids - read):  # the index knows it: one more try by its id
        try:
            row = db.execute(
                f"SELECT {', '.join(columns)} FROM {table} WHERE id = ?", (key,)
            ).fetchone()
        except sqlite3.DatabaseError:
            row = None
        if row is None:
            out.lost_ids.add(key)
            out.damaged = True
        else:
            out.rows.append(tuple(row))
    return out


def _walk(
    db: sqlite3.Connection, sql: str, params: tuple[object, ...] = ()
) -> tuple[list[tuple[object, ...]], bool]:
    """The rows a query reads before any damage, and whether it met damage."""
    rows: list[tuple[object, ...]] = []
    try:
        for row in db.execute(sql, params):
            rows.append(tuple(row))
    except sqlite3.DatabaseError:
        return rows, True
    return rows, False


def _read_keyed(
    db: sqlite3.Connection,
    table: str,
    key: int,
    wanted: tuple[str, ...],
    under: list[tuple[object, ...]] | None = None,
) -> Rows:
    """Every row of a table without rowid (its key: the first ``key`` columns of ``wanted``)
    that a walk by the key reads, from the start and, past damage, from the end; with
    ``under``, also the rows under each of those keys' first columns, from both ends."""
    out = Rows()
    columns = _columns(db, table, wanted)
    if columns is None:
        return out
    found: dict[tuple[object, ...], tuple[object, ...]] = {}
    select = f"SELECT {', '.join(columns)} FROM {table}"
    ranges: list[tuple[str, tuple[object, ...]]] = [("", ())]
    for prefix in under or []:
        where = " AND ".join(f"{c} = ?" for c in wanted[: len(prefix)])
        ranges.append((f" WHERE {where}", prefix))
    for where, params in ranges:
        for direction in ("ASC", "DESC"):
            order = ", ".join(f"{c} {direction}" for c in wanted[:key])
            rows, damaged = _walk(db, f"{select}{where} ORDER BY {order}", params)
            found.update((row[:key], row) for row in rows)
            out.damaged |= damaged and not where
            if not damaged:
                break
    out.rows = list(found.values())
    return out


@dataclass
class Tournaments:
    """The tournaments' rows that are copied, and the tournaments lost or cut short."""

    rows: dict[str, list[tuple[object, ...]]] = field(default_factory=dict)
    copied: int = 0
    lost: list[str] = field(default_factory=list)
    partial: list[str] = field(default_factory=list)
    online: set[str] = field(default_factory=set)
    """The online tables the copied tournaments play (their deals must be copied too)."""
    unread: bool = False
    """Some rows of ``tournaments`` could not be read (those of tournaments without entries
    have no id known elsewhere)."""


def _read_tournaments(db: sqlite3.Connection) -> Tournaments:
    """What can be copied of the tournaments: each one whose row reads, with its entries and
    its rounds from the first until one is lost, and their tables, flags and audit log."""
    heads = _read_keyed(db, "tournaments", 1, TOURNAMENT_COLUMNS)
    parts = {name: _read_keyed(db, name, k, cols) for name, (k, cols) in TOURNAMENT_PARTS.items()}
    known = {str(r[0]) for r in heads.rows}
    known |= {str(r[0]) for rows in parts.values() for r in rows.rows}
    if heads.damaged or any(rows.damaged for rows in parts.values()):
        under: list[tuple[object, ...]] = [(tid,) for tid in sorted(known)]
        heads = _read_keyed(db, "tournaments", 1, TOURNAMENT_COLUMNS, under)
        parts = {
            name: _read_keyed(db, name, k, cols, under)
            for name, (k, cols) in TOURNAMENT_PARTS.items()
        }
    out = Tournaments({"tournaments": [], **{name: [] for name in TOURNAMENT_PARTS}})
    out.unread = heads.damaged
    rows_of = {str(r[0]): r for r in heads.rows}
    for tid in sorted(known):
        if tid not in rows_of:
            out.lost.append(tid)
            continue
        mine = {name: [r for r in rows.rows if str(r[0]) == tid] for name, rows in parts.items()}
        rounds = sorted(mine["tournament_rounds"], key=lambda r: int(str(r[1])))
        kept = []  # the rounds from the first until one is lost
        for n, r in enumerate(rounds, 1):
            if int(str(r[1])) != n:
                break
            kept.append(r)
        try:
            draws = [json.loads(str(r[3])) for r in kept]
            players = {
                str(m["id"]) for r in mine["tournament_entries"] for m in json.loads(str(r[5]))
            }
            seated = {str(p) for draw in draws for table in draw for p in table["seats"]}
            settings = json.loads(str(rows_of[tid][3]))
        except (ValueError, TypeError, KeyError, RecursionError):
            out.lost.append(tid)
            continue
        if not isinstance(settings, dict) or not seated <= players | {""}:
            out.lost.append(tid)
            continue
        last = len(kept)
        links = [r for r in mine["tournament_tables"] if int(str(r[1])) <= last]
        drawn = sum(len(draw) for draw in draws)
        if last < len(rounds) or len(links) < drawn:
            out.partial.append(tid)
        out.rows["tournaments"].append(rows_of[tid])
        out.rows["tournament_entries"] += mine["tournament_entries"]
        out.rows["tournament_rounds"] += kept
        out.rows["tournament_tables"] += links
        out.rows["tournament_flags"] += [
            r for r in mine["tournament_flags"] if int(str(r[1])) <= last
        ]
        out.rows["tournament_audit"] += mine["tournament_audit"]
        out.online |= {str(r[4]) for r in links if r[3] == "online"}
        out.copied += 1
    return out


def _entry_table_ids(db: sqlite3.Connection) -> set[str]:
    """The table ids the record's rows name, read from both ends until damage stops it."""
    ids: set[str] = set()
    for order in ("ASC", "DESC"):
        try:
            rows = db.execute(f"SELECT table_id FROM game_entries ORDER BY table_id {order}")
            for (key,) in rows:
                ids.add(str(key))
        except sqlite3.DatabaseError:
            continue
    return ids


Entries = dict[int, tuple[int, str]]
"""A table's record as read: entry number ``n`` → ``(seat, entry)``."""


def _read_entries(db: sqlite3.Connection, table_id: str) -> tuple[Entries, bool]:
    """Every entry of a table's record that can be read, and whether the record is whole:
    every entry from the first to the last there is (reached from the end of the table's
    entries, which reads no page past that end) was read."""
    entries: Entries = {}
    whole = True
    try:
        while True:  # from the first: the entries a replay needs
            row = db.execute(
                "SELECT seat, entry FROM game_entries WHERE table_id = ? AND n = ?",
                (table_id, len(entries)),
            ).fetchone()
            if row is None:
                break
            entries[len(entries)] = (int(row[0]), str(row[1]))
    except (sqlite3.DatabaseError, ValueError, TypeError):
        whole = False
    try:
        (last,) = db.execute(
            "SELECT max(n) FROM game_entries WHERE table_id = ?", (table_id,)
        ).fetchone()
    except sqlite3.DatabaseError:
        return entries, False
    if last is None or last != len(entries) - 1:
        whole = False
    if not whole:  # the rest of what can be read is kept too, for a closer look
        for n in range(len(entries) + 1, int(last or 0) + 1):
            try:
                row = db.execute(
                    "SELECT seat, entry FROM game_entries WHERE table_id = ? AND n = ?",
                    (table_id, n),
                ).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row is not None:
                entries[n] = (int(row[0]), str(row[1]))
    return entries, whole


def _replays(
    row: tuple[object, ...], entries: Entries, terms: tuple[object, ...] | None = None
) -> bool:
    """Whether a table's row and record (under its ``terms``, a tournament's) make a game
    that can be played on."""
    from chibre.rules import Rules

    try:
        table_id, created, preset, rules, seats, watch, finished = row
        kept = None
        if terms is not None:
            _, hands, grace, move, shared = terms
            kept = TableTerms(
                int(str(hands)),
                None if grace is None else float(str(grace)),
                float(str(move)),
                shared == 1,
            )
        stored = StoredTable(
            id=str(table_id),
            rules=Rules.from_json(str(rules)),
            seats=tuple(SeatInfo.from_json(s) for s in json.loads(str(seats))),
            watch=str(watch),
            preset=str(preset),
            created=float(created),  # type: ignore[arg-type]
            finished=bool(finished),
            entries=[(seat, decode_entry(seat, text)) for seat, text in entries.values()],
            terms=kept,
        )
        game = stored.replay()
    except (ChibreError, ValueError, TypeError, KeyError, RecursionError):
        return False
    return len(stored.seats) == 4 and (game.is_over or not stored.finished)


def _sheet_readable(row: tuple[object, ...]) -> bool:
    try:
        return isinstance(json.loads(str(row[5])), dict)
    except (ValueError, RecursionError):
        return False


@dataclass
class Salvage:
    """What :func:`salvage` saved into the fresh file, and what it lost."""

    tables: int = 0
    entries: int = 0
    sheets: int = 0
    tournaments: int = 0
    lost_tournaments: list[str] = field(default_factory=list)
    """Tournaments not copied: their row is lost, or their draws name a lost entry."""
    partial_tournaments: list[str] = field(default_factory=list)
    """Tournaments copied without a round (and the rounds after it) or a table's link."""
    lost_tables: list[str] = field(default_factory=list)
    """Tables their players will be told were damaged."""
    lost_sheets: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    """The tables of the file of which some rows could not be read (ids unknown)."""
    aside: Path | None = None
    """Where the damaged file was copied."""
    aside_sides: list[str] = field(default_factory=list)
    """Its ``-wal`` and ``-shm``, when it had them, copied beside it."""

    @property
    def anything(self) -> bool:
        return bool(self.tables or self.sheets or self.tournaments)


def _repaired_header(path: Path) -> Iterator[None]:
    """Rewrite, in place, the header of the copy ``path`` from what can be inferred, once
    for each page size that may be the file's; yields after each rewrite."""
    size = path.stat().st_size
    with path.open("r+b") as f:
        original = f.read(100)
        stated = struct.unpack(">H", original[16:18])[0] if len(original) >= 18 else 0
        stated = 65536 if stated == 1 else stated
        sizes = [stated] if stated in [2**p for p in range(9, 17)] else []
        sizes += [s for s in (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512) if s not in sizes]
        for page_size in sizes:
            if size < page_size or size % page_size:
                continue
            version = struct.unpack(">I", original[60:64])[0] if len(original) >= 64 else 0
            header = bytearray(100)
            header[0:16] = MAGIC
            header[16:18] = struct.pack(">H", page_size if page_size < 65536 else 1)
            header[18:24] = bytes((1, 1, 0, 64, 32, 32))
            struct.pack_into(">I", header, 24, 1)  # change counter
            struct.pack_into(">I", header, 28, size // page_size)
            struct.pack_into(">I", header, 44, 4)  # schema format
            struct.pack_into(">I", header, 56, 1)  # UTF-8
            if version <= migrations.SCHEMA_VERSION:
                struct.pack_into(">I", header, 60, version)
            struct.pack_into(">I", header, 92, 1)
            struct.pack_into(">I", header, 96, sqlite3.sqlite_version_info[0] * 1_000_000)
            f.seek(0)
            f.write(header)
            f.flush()
            yield


def _open_copy(copy: Path) -> sqlite3.Connection | None:
    """A connection to the working copy whose schema reads, its header rewritten if need be;
    ``None`` when SQLite can read nothing of it."""

    def opened() -> sqlite3.Connection | None:
        try:
            db = _connect(copy)
        except sqlite3.Error:
            return None
        try:
            db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            return None
        return db

    db = opened()
    if db is not None:
        return db
    for side in SIDES:  # the header's page size must agree with no log of another size
        Path(f"{copy}{side}").unlink(missing_ok=True)
    for _ in _repaired_header(copy):
        db = opened()
        if db is not None:
            return db
    return None


def salvage(path: Path | str) -> Salvage:
    """Copy the damaged file aside and replace it by a fresh file holding every row that can
    still be read; ``StoreRefused`` (the file left as it is) when nothing can be."""
    path = Path(path)
    work = Path(tempfile.mkdtemp(prefix=".chibre-recover-", dir=path.parent))
    fresh = path.with_name(path.name + ".recovering")
    try:
        copy = work / "damaged.sqlite"
        shutil.copyfile(path, copy)
        if Path(f"{path}-wal").is_file():
            shutil.copyfile(f"{path}-wal", f"{copy}-wal")
        db = _open_copy(copy)
        if db is None:
            raise StoreRefused(
                f"the store {path} is not a database chibre can read, and nothing could be "
                "saved from it. It is left as it is. To start with an empty store, move it "
                f"away (mv {path} {path}.bad) or give another --db; `chibre store check "
                f"{path}` says what is wrong with it."
            )
        try:
            result = _copy_rows(db, fresh)
        finally:
            db.close()
        if not result.anything:
            raise StoreRefused(
                f"the store {path} is damaged and not one table or score sheet could be read "
                "from it. It is left as it is. To start with an empty store, move it away "
                f"(mv {path} {path}.bad) or give another --db."
            )
        result.aside, result.aside_sides = _set_aside(path)
        for side in SIDES:
            Path(f"{path}{side}").unlink(missing_ok=True)
        os.replace(fresh, path)
        return result
    finally:
        for name in (fresh, *(Path(f"{fresh}{side}") for side in SIDES)):
            name.unlink(missing_ok=True)
        shutil.rmtree(work, ignore_errors=True)


def _set_aside(path: Path) -> tuple[Path, list[str]]:
    """Copy the damaged file and its ``-wal``, ``-shm`` to ``NAME.damaged-YYYYmmdd-HHMMSS``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    shutil.copy2(path, aside)
    sides = [side for side in SIDES if Path(f"{path}{side}").is_file()]
    for side in sides:
        shutil.copy2(f"{path}{side}", f"{aside}{side}")
    return aside, sides


def _copy_rows(db: sqlite3.Connection, fresh: Path) -> Salvage:
    """Read what can be read from ``db`` and write it into the new file ``fresh``."""
    result = Salvage()
    tables = _read_rows(db, "game_tables", TABLE_COLUMNS)
    sheets = _read_rows(db, "score_sheets", SHEET_COLUMNS)
    noted = _read_rows(db, "damaged_tables", DAMAGED_COLUMNS)
    has_entries = _columns(db, "game_entries", ("table_id",)) is not None
    by_id = {str(r[0]): r for r in tables.rows}
    damaged = {str(r[0]) for r in noted.rows} | tables.lost_ids
    known = set(by_id) | tables.lost_ids | (_entry_table_ids(db) if has_entries else set())
    under: list[tuple[object, ...]] = [(t,) for t in sorted(known)]
    deals = _read_keyed(db, "table_deals", 1, DEALS_COLUMNS)
    terms = _read_keyed(db, "table_terms", 1, TERMS_COLUMNS)
    hints = _read_keyed(db, "table_hints", 1, HINTS_COLUMNS)
    clocks = _read_keyed(db, "table_clocks", 1, CLOCKS_COLUMNS)
    if deals.damaged or terms.damaged or hints.damaged or clocks.damaged:
        # each table's row looked up by its id
        deals = _read_keyed(db, "table_deals", 1, DEALS_COLUMNS, under)
        terms = _read_keyed(db, "table_terms", 1, TERMS_COLUMNS, under)
        hints = _read_keyed(db, "table_hints", 1, HINTS_COLUMNS, under)
        clocks = _read_keyed(db, "table_clocks", 1, CLOCKS_COLUMNS, under)
    dealt = {str(r[0]) for r in deals.rows}
    terms_of = {str(r[0]): r for r in terms.rows}
    tournaments = _read_tournaments(db)
    records: dict[str, Entries] = {}
    for table_id in sorted(known):
        entries, whole = _read_entries(db, table_id) if has_entries else ({}, False)
        records[table_id] = entries
        row = by_id.get(table_id)
        if row is None or not whole or not _replays(row, entries, terms_of.get(table_id)):
            damaged.add(table_id)
        elif table_id in tournaments.online and not (table_id in dealt and table_id in terms_of):
            damaged.add(table_id)  # its committed deals or its terms (a Passe's end) are lost
    good_sheets = [r for r in sheets.rows if _sheet_readable(r)]
    result.lost_sheets = sorted(
        {str(r[0]) for r in sheets.rows if not _sheet_readable(r)} | sheets.lost_ids
    )
    result.unread = [
        name
        for name, rows in (("game_tables", tables), ("score_sheets", sheets))
        if rows.damaged and not rows.lost_ids
    ]
    if tournaments.unread:
        result.unread.append("tournaments")
    if has_entries and not _entries_read_whole(db):
        result.unread.append("game_entries")
    out = sqlite3.connect(fresh, isolation_level=None)
    try:
        out.execute("PRAGMA journal_mode=WAL")
        migrations.bring_up_to_date(out)
        out.execute("BEGIN IMMEDIATE")
        out.executemany(
            f"INSERT INTO game_tables ({', '.join(TABLE_COLUMNS)}) VALUES (?,?,?,?,?,?,?)",
            tables.rows,
        )
        for table_id, entries in records.items():
            if table_id in by_id:
                out.executemany(
                    "INSERT INTO game_entries (table_id, n, seat, entry) VALUES (?, ?, ?, ?)",
                    [(table_id, n, seat, text) for n, (seat, text) in entries.items()],
                )
                result.entries += len(entries)
        out.executemany(
            f"INSERT INTO score_sheets ({', '.join(SHEET_COLUMNS)}) VALUES (?,?,?,?,?,?)",
            good_sheets,
        )
        copied = [
            ("table_deals", DEALS_COLUMNS, [r for r in deals.rows if str(r[0]) in by_id]),
            ("table_terms", TERMS_COLUMNS, [r for r in terms.rows if str(r[0]) in by_id]),
            ("table_hints", HINTS_COLUMNS, [r for r in hints.rows if str(r[0]) in by_id]),
            ("table_clocks", CLOCKS_COLUMNS, [r for r in clocks.rows if str(r[0]) in by_id]),
            ("tournaments", TOURNAMENT_COLUMNS, tournaments.rows["tournaments"]),
            *((name, cols, tournaments.rows[name]) for name, (_, cols) in TOURNAMENT_PARTS.items()),
        ]
        for name, columns, rows in copied:
            marks = ", ".join("?" for _ in columns)
            out.executemany(f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks})", rows)
        migrations.computers_by_level(out)  # the rows of an older file, as version 10 names them
        reasons = {str(r[0]): str(r[2]) for r in noted.rows}
        out.executemany(
            "INSERT INTO damaged_tables (id, noted, reason) VALUES (?, ?, ?)",
            [
                (t, time.time(), reasons.get(t, "its record was damaged in the store"))
                for t in sorted(damaged)
            ],
        )
        out.execute("COMMIT")
    finally:
        out.close()
    result.tables = len(set(by_id) - damaged)
    result.sheets = len(good_sheets)
    result.tournaments = tournaments.copied
    result.lost_tournaments = tournaments.lost
    result.partial_tournaments = tournaments.partial
    result.lost_tables = sorted(damaged - {str(r[0]) for r in noted.rows})
    return result


def _entries_read_whole(db: sqlite3.Connection) -> bool:
    try:
        db.execute("SELECT count(*) FROM game_entries").fetchone()
    except sqlite3.DatabaseError:
        return False
    return True
