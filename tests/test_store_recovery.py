"""A damaged SQLite file at start: the real server, started on a real file damaged in the ways
files are (a page of garbage, a file cut in half, a bad header, a dropped table, a read-only
file), keeps every table and sheet that was intact, says what it lost, and tells the players of
a lost table that it was damaged; a file nothing can be read from is refused with exit status 2.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import websockets

from server_support import (
    create_table,
    http_json,
    opened,
    server_command,
    server_env,
    start_server,
    stop_server,
    ws_url,
)

TABLES = 40
SHEETS = 40


@dataclass
class Made:
    """What a server put into a file: its tables (as created) and sheets (id, key, name)."""

    db: Path
    tables: list[dict[str, Any]]
    sheets: list[dict[str, str]]


def token(table: dict[str, Any]) -> str:
    return str(table["seats"][0]["link"].partition("=")[2])


def watch(table: dict[str, Any]) -> str:
    return str(table["watch"].partition("=")[2])


def make_store(tmp_path: Path) -> Made:
    """A file written by a real server: tables (each waiting for its human) and sheets."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    tables, sheets = [], []
    try:
        for i in range(max(TABLES, SHEETS)):
            if i < TABLES:
                tables.append(create_table(base) if i % 4 else timed_table(base, 20.0 + i))
            if i < SHEETS:
                name = f"Sheet-{i:03d}-of-the-test"
                status, sheet = http_json(base, "/api/sheets", {"name": name})
                assert status == 201, sheet
                sheets.append({"id": sheet["id"], "key": sheet["key"], "name": name})
    finally:
        stop_server(process)
    assert not Path(f"{db}-wal").exists()  # all of it is in the file itself
    return Made(db, tables, sheets)


def timed_table(base: str, move_limit: float) -> dict[str, Any]:
    """A table with a time per move (kept in a table of its own: a salvage must keep it)."""
    body = {"seats": ["human", "rule", "rule", "rule"], "move_limit": move_limit}
    status, table = http_json(base, "/api/tables", body)
    assert status == 200, table
    return {**table, "move_limit": move_limit}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    return make_store(tmp_path_factory.mktemp("made"))


@pytest.fixture
def db(made: Made, tmp_path: Path) -> Path:
    """A copy of the made file, to be damaged."""
    copy = tmp_path / "chibre.sqlite"
    copy.write_bytes(made.db.read_bytes())
    return copy


def page_size(db: Path) -> int:
    return int.from_bytes(db.read_bytes()[16:18], "big")


def pages_of(data: bytes, marker: str, size: int) -> set[int]:
    """The pages (numbered from 1) on which ``marker`` is written."""
    pages, at = set(), data.find(marker.encode())
    while at >= 0:
        pages.add(at // size + 1)
        at = data.find(marker.encode(), at + 1)
    return pages


def served(base: str, made: Made) -> tuple[set[str], set[str], set[str]]:
    """The tables that open, those answered "damaged", and the sheets listed."""
    tables, damaged = set(), set()
    for t in made.tables:
        status, answer = http_json(base, f"/api/tables/{t['table']}?token={token(t)}")
        if status == 200:
            assert answer.get("move_limit") == t.get("move_limit"), (t, answer)
            tables.add(t["table"])
        elif status == 410:
            assert answer["error"] == "this table was damaged and could not be restored"
            damaged.add(t["table"])
        else:
            raise AssertionError(f"table {t['table']}: {status} {answer}")
    mine = ",".join(f"{s['id']}.{s['key']}" for s in made.sheets)
    status, listed = http_json(base, f"/api/sheets?mine={mine}")
    assert status == 200, listed
    sheets = {s["id"] for s in listed["sheets"] if not s.get("damaged")}
    for s in listed["sheets"]:
        if not s.get("damaged"):
            assert s["name"] == next(m["name"] for m in made.sheets if m["id"] == s["id"])
    return tables, damaged, sheets


@dataclass
class Started:
    tables: set[str]
    damaged: set[str]
    sheets: set[str]
    log: str


def start_and_look(db: Path, made: Made) -> Started:
    log = db.with_suffix(".log")
    offset = log.stat().st_size if log.exists() else 0
    process, base = start_server(db)
    try:
        tables, damaged, sheets = served(base, made)
    finally:
        stop_server(process)
    return Started(tables, damaged, sheets, log.read_bytes()[offset:].decode(errors="replace"))


def intact(made: Made, db: Path, damaged_pages: set[int]) -> tuple[set[str], set[str]]:
    """The tables and sheets of the file ``db`` none of whose bytes are on ``damaged_pages``
    (a table: its row, its index entry and its record, and no damaged page of the record's
    b-tree where an entry of it might be: without that page, nothing says that its record
    ends where the intact pages end; a sheet: its row)."""
    data = db.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    bounds = entry_bounds(db, data)
    tables = {
        t["table"]
        for t in made.tables
        if not (pages_of(data, t["table"], size) | pages_of(data, watch(t), size)) & damaged_pages
        and not any(may_hold(bounds[page], t["table"]) for page in damaged_pages & set(bounds))
    }
    sheets = {s["id"] for s in made.sheets if not pages_of(data, s["name"], size) & damaged_pages}
    return tables, sheets


Key = tuple[bytes, int]
"""A key of the record's b-tree (``game_entries``, without rowid): table id, entry number."""


def varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``: its value, and where what follows starts."""
    value = 0
    for i in range(8):
        value = (value << 7) | (data[at + i] & 0x7F)
        if data[at + i] < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def entry_key(data: bytes, at: int) -> Key:
    """The key of the record at ``at`` (its header, then the table id and the entry number)."""
    header, start = varint(data, at)
    kind, after = varint(data, start)
    number, _ = varint(data, after)
    value = at + header
    length = (kind - 13) // 2  # the table id: text
    width = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}.get(number, 0)
    n = {8: 0, 9: 1}.get(number)
    if n is None:
        n = int.from_bytes(data[value + length : value + length + width], "big", signed=True)
    return data[value : value + length], n


def entry_bounds(db: Path, data: bytes) -> dict[int, tuple[Key | None, Key | None]]:
    """Every page of the record's b-tree, with the keys between which its keys lie (both
    excluded; ``None``: no bound), read from the interior pages' cells (SQLite's file format:
    a child page number, the payload's size, then the payload, a key)."""
    size = int.from_bytes(data[16:18], "big")
    with opened(db) as c:
        (root,) = c.execute(
            "SELECT rootpage FROM sqlite_schema WHERE name = 'game_entries'"
        ).fetchone()
    bounds: dict[int, tuple[Key | None, Key | None]] = {}
    todo: list[tuple[int, Key | None, Key | None]] = [(int(root), None, None)]
    while todo:
        page, low, high = todo.pop()
        bounds[page] = (low, high)
        start = (page - 1) * size
        if data[start] != 2:  # a leaf
            continue
        cells = int.from_bytes(data[start + 3 : start + 5], "big")
        below = low
        for i in range(cells):
            at = start + int.from_bytes(data[start + 12 + 2 * i : start + 14 + 2 * i], "big")
            child = int.from_bytes(data[at : at + 4], "big")
            _, payload = varint(data, at + 4)
            key = entry_key(data, payload)
            todo.append((child, below, key))
            below = key
        todo.append((int.from_bytes(data[start + 8 : start + 12], "big"), below, high))
    return bounds


def may_hold(bounds: tuple[Key | None, Key | None], table: str) -> bool:
    """Whether a page whose keys lie between ``bounds`` may hold an entry of ``table``."""
    low, high = bounds
    name = table.encode()
    if low is not None and low[0] > name:
        return False
    first = (name, low[1] + 1) if low is not None and low[0] == name else (name, 0)
    return high is None or first < high


def tree_paths(db: Path, data: bytes) -> dict[int, set[int]]:
    """Every page of the file's b-trees, with the interior pages on the way to it from its
    root (SQLite's file format: a page's type byte, then its cells' child page numbers)."""
    size = int.from_bytes(data[16:18], "big")
    with opened(db) as c:
        roots = [r[0] for r in c.execute("SELECT rootpage FROM sqlite_schema") if r[0]]
    paths: dict[int, set[int]] = {}
    todo = [(root, frozenset[int]()) for root in [1, *roots]]
    while todo:
        page, above = todo.pop()
        if page in paths or not 0 < page <= len(data) // size:
            continue
        paths[page] = set(above)
        start = (page - 1) * size + (100 if page == 1 else 0)
        kind = data[start]
        if kind not in (2, 5):  # a leaf
            continue
        cells = int.from_bytes(data[start + 3 : start + 5], "big")
        children = [int.from_bytes(data[start + 8 : start + 12], "big")]
        for i in range(cells):
            at = int.from_bytes(data[start + 12 + 2 * i : start + 14 + 2 * i], "big")
            children.append(int.from_bytes(data[(page - 1) * size + at :][:4], "big"))
        todo += [(child, above | {page}) for child in children]
    return paths


def aside_files(db: Path) -> list[Path]:
    return sorted(db.parent.glob(db.name + ".damaged-*"))


def test_a_page_of_garbage_loses_only_what_was_on_it(made: Made, db: Path) -> None:
    data = db.read_bytes()
    size = page_size(db)
    # a page of the tables' rows and a page of the sheets' rows, chosen by what they hold
    table_page = min(pages_of(data, watch(made.tables[TABLES // 2]), size))
    sheet_page = min(pages_of(data, made.sheets[SHEETS // 2]["name"], size))
    damaged_pages = {table_page, sheet_page}
    keep_tables, keep_sheets = intact(made, db, damaged_pages)
    on_pages = {made.tables[TABLES // 2]["table"]}
    assert keep_tables and keep_sheets and on_pages.isdisjoint(keep_tables)
    with db.open("r+b") as f:
        for page in damaged_pages:
            f.seek((page - 1) * size)
            f.write(os.urandom(size))

    seen = start_and_look(db, made)

    assert keep_tables <= seen.tables and keep_sheets <= seen.sheets
    assert made.sheets[SHEETS // 2]["id"] not in seen.sheets
    assert on_pages <= seen.damaged  # its players are told, not "no such table"
    assert seen.tables | seen.damaged == {t["table"] for t in made.tables}
    assert "is damaged" in seen.log and "copied aside" in seen.log
    for lost in seen.damaged:
        assert lost in seen.log  # the report names every table it lost
    (aside,) = aside_files(db)
    assert aside.read_bytes()[: (table_page - 1) * size] == data[: (table_page - 1) * size]
    with opened(db) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    again = start_and_look(db, made)  # the fresh file is sound: no second recovery
    assert "is damaged" not in again.log and len(aside_files(db)) == 1
    assert (again.tables, again.damaged, again.sheets) == (seen.tables, seen.damaged, seen.sheets)


@pytest.mark.parametrize("layout", ["as written", "vacuumed"])
def test_a_file_cut_in_half_keeps_what_was_in_the_first_half(
    made: Made, db: Path, layout: str
) -> None:
    if layout == "vacuumed":  # each table's rows together: the records before the sheets
        with opened(db) as c:
            c.execute("VACUUM")
    data = db.read_bytes()
    size = page_size(db)
    pages = len(data) // size
    with opened(db) as c:  # the half of the pages after the schema's root pages
        first = 1 + int(c.execute("SELECT MAX(rootpage) FROM sqlite_schema").fetchone()[0])
    cut = first + (pages - first) // 2
    # lost: the second half, and the pages only a lost page of a b-tree leads to
    lost = set(range(cut + 1, pages + 1))
    lost |= {page for page, path in tree_paths(db, data).items() if path & lost}
    keep_tables, keep_sheets = intact(made, db, lost)
    # as the server writes it, the records are at the end; vacuumed, the sheets are
    assert keep_sheets if layout == "as written" else keep_tables
    db.write_bytes(data[: cut * size])

    seen = start_and_look(db, made)

    assert keep_tables <= seen.tables and keep_sheets <= seen.sheets
    assert seen.tables | seen.damaged == {t["table"] for t in made.tables}
    assert len(seen.sheets) < SHEETS  # what was in the second half is gone, and said
    assert "is damaged" in seen.log and "Lost:" in seen.log


@pytest.mark.parametrize("damage", ["magic", "whole header"])
def test_a_bad_header_is_rewritten_and_everything_is_kept(
    made: Made, db: Path, damage: str
) -> None:
    data = bytearray(db.read_bytes())
    end = 16 if damage == "magic" else 100
    data[:end] = bytes((b * 7 + 1) % 256 for b in range(end))
    db.write_bytes(bytes(data))
    with pytest.raises(sqlite3.DatabaseError), opened(db) as c:
        c.execute("SELECT count(*) FROM game_tables").fetchone()

    seen = start_and_look(db, made)

    assert seen.tables == {t["table"] for t in made.tables} and not seen.damaged
    assert seen.sheets == {s["id"] for s in made.sheets}
    assert "header does not say it is an SQLite database" in seen.log
    assert "Nothing else seems lost" in seen.log
    assert len(aside_files(db)) == 1


@pytest.mark.parametrize("before_versions", [False, True])
def test_a_dropped_record_is_damage_not_a_fresh_start(
    made: Made, db: Path, before_versions: bool
) -> None:
    with opened(db) as c:
        c.execute("DROP TABLE game_entries")
        if before_versions:  # the file as the server wrote it before versions were kept
            c.execute("DROP TABLE damaged_tables")
            c.execute("PRAGMA user_version = 0")

    seen = start_and_look(db, made)

    assert not seen.tables  # not one game dealt again from scratch
    assert seen.damaged == {t["table"] for t in made.tables}
    assert seen.sheets == {s["id"] for s in made.sheets}
    assert "game_entries" in seen.log and "is missing" in seen.log
    again = start_and_look(db, made)  # the lost tables stay lost, and said so
    assert again.damaged == seen.damaged and "is damaged" not in again.log


def test_a_lost_table_tells_its_players_over_the_socket(made: Made, db: Path) -> None:
    with opened(db) as c:
        c.execute("DROP TABLE game_entries")
    process, base = start_server(db)

    async def connect() -> tuple[dict[str, Any], int | None]:
        t = made.tables[0]
        async with websockets.connect(ws_url(base, t["seats"][0]["link"])) as ws:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            return frame, ws.close_code

    try:
        frame, code = asyncio.run(connect())
    finally:
        stop_server(process)
    assert frame == {
        "type": "error",
        "code": "damaged",
        "message": "this table was damaged and could not be restored",
    }
    assert code == 4403


@pytest.mark.parametrize("damage", ["text", "every page but the header"])
def test_a_file_nothing_can_be_read_from_is_refused(made: Made, db: Path, damage: str) -> None:
    data = db.read_bytes()
    if damage == "text":
        db.write_bytes(b"not a database at all\n" * 400)
    else:
        db.write_bytes(data[:100] + os.urandom(len(data) - 100))
    before = db.read_bytes()
    done = subprocess.run(server_command(0, db), env=server_env(), capture_output=True, timeout=60)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "Traceback" not in err and "nothing could be saved" in err
    assert f"mv {db} {db}.bad" in err
    assert db.read_bytes() == before and not aside_files(db)  # left as it was
    assert not done.stdout  # it never said it was serving


@contextmanager
def unwritable(path: Path, mode: int) -> Iterator[None]:
    """``path`` given ``mode``, so that it cannot be written (for root, whom modes do not
    stop: immutable); as it was afterwards."""
    was = path.stat().st_mode & 0o777
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    else:
        path.chmod(mode)
    assert not os.access(path, os.W_OK)
    try:
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(was)


@pytest.fixture
def read_only(db: Path) -> Iterator[Path]:
    """The file made read-only."""
    with unwritable(db, 0o444):
        yield db


@pytest.fixture
def shut_in(db: Path) -> Iterator[Path]:
    """The file in a folder nothing can be written to."""
    folder = db.parent / "shut"
    folder.mkdir()
    inside = folder / db.name
    db.rename(inside)
    with unwritable(folder, 0o555):
        yield inside


def test_a_file_in_a_folder_that_cannot_be_written_is_refused_plainly(shut_in: Path) -> None:
    """SQLite writes beside a store even to read it: the server says so in one line, and
    calls the sound file neither damaged nor served."""
    before = shut_in.read_bytes()
    done = subprocess.run(
        server_command(0, shut_in), env=server_env(), capture_output=True, timeout=60
    )
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "cannot be read where it is" in err and str(shut_in.parent) in err
    assert "Traceback" not in err and "damaged" not in err
    assert not done.stdout  # it never said it was serving
    check = subprocess.run(
        [sys.executable, "-m", "chibre.cli", "store", "check", str(shut_in)],
        env=server_env(), capture_output=True, timeout=60,
    )  # fmt: skip
    assert check.returncode == 2 and b"cannot be read where it is" in check.stdout
    assert shut_in.read_bytes() == before


def test_a_store_that_cannot_be_made_is_said_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    done = subprocess.run(
        server_command(0, tmp_path / "a-file" / "chibre.sqlite"),
        env=server_env(), capture_output=True, timeout=60,
    )  # fmt: skip
    err = done.stderr.decode()
    assert done.returncode == 2 and len(err.splitlines()) == 1, err
    assert f"the folder {tmp_path / 'a-file'} for --db cannot be made" in err
    assert not done.stdout


def test_a_read_only_file_is_served_with_a_warning(made: Made, read_only: Path) -> None:
    db = read_only
    before = db.read_bytes()
    process, base = start_server(db)
    try:
        tables, damaged, sheets = served(base, made)
        status, answer = http_json(
            base, "/api/tables", {"seats": ["human", "rule", "rule", "rule"]}
        )
        sheet_status, _ = http_json(base, "/api/sheets", {"name": "new"})
    finally:
        stop_server(process)
    assert tables == {t["table"] for t in made.tables} and not damaged
    assert sheets == {s["id"] for s in made.sheets}
    assert status == 503, answer
    assert sheet_status >= 400
    log = db.with_suffix(".log").read_text()
    assert "is read-only: games cannot be saved" in log
    assert db.read_bytes() == before
