"""The server's SQLite file itself: its versions and migrations, ``chibre store check`` and
``chibre store backup``, and the sheets' store on a damaged row or a read-only file."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from chibre.game import CHANCE
from chibre.rules import Rules
from chibre.scoresheet import ScoreSheet
from chibre.server import migrations, recovery, salvage
from chibre.server.migrations import SCHEMA_VERSION, StoreDamaged, StoreTooNew
from chibre.server.sheets import SheetKey, SheetStore
from chibre.server.store import Store, StoreUnavailable, encode_entry
from server_support import opened
from test_server_store import play_game, store_game

SRC = Path(__file__).resolve().parents[1] / "src"
ROMAND = Rules.preset("romand")

BEFORE_VERSIONS = """
CREATE TABLE game_tables (id TEXT PRIMARY KEY, created REAL NOT NULL, preset TEXT NOT NULL,
    rules TEXT NOT NULL, seats TEXT NOT NULL, watch TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE game_entries (table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
    entry TEXT NOT NULL, PRIMARY KEY (table_id, n)) WITHOUT ROWID;
CREATE INDEX game_tables_open ON game_tables (finished);
CREATE TABLE score_sheets (id TEXT PRIMARY KEY, name TEXT NOT NULL, created REAL NOT NULL,
    updated REAL NOT NULL, sheet TEXT NOT NULL);
"""
"""The schema as chibre wrote it before versions were kept (sheets without keys yet)."""


def tables_of(db: Path) -> set[str]:
    with opened(db) as c:
        return {r[0] for r in c.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}


def version(db: Path) -> int:
    with opened(db) as c:
        return int(c.execute("PRAGMA user_version").fetchone()[0])


def old_file(db: Path) -> list[tuple[int, str]]:
    """A file from before versions with one unfinished game; returns its entries as stored."""
    game = play_game(ROMAND, seed=5, stop_after=12)
    with opened(db) as c:
        c.executescript(BEFORE_VERSIONS)
        c.execute(
            "INSERT INTO game_tables VALUES ('old', 1.0, 'romand', ?, ?, 'w', 0)",
            (game.rules.to_json(), '[{"kind": "human", "name": "A", "token": "t"},'
             '{"kind": "rule", "name": "r"}, {"kind": "rule", "name": "r"},'
             '{"kind": "rule", "name": "r"}]'),
        )  # fmt: skip
        rows = [
            ("old", n, seat, encode_entry(seat, e))
            for n, (seat, e) in enumerate(game.record.entries)
        ]
        c.executemany("INSERT INTO game_entries VALUES (?, ?, ?, ?)", rows)
        c.execute(
            "INSERT INTO score_sheets VALUES ('s', 'Old', 0, 0, ?)", (ScoreSheet().to_json(),)
        )
    return [(seat, text) for _, _, seat, text in rows]


def test_a_file_from_before_versions_is_brought_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    entries = old_file(db)
    assert version(db) == 0 and "damaged_tables" not in tables_of(db)

    store = Store(db)
    try:
        table = store.load("old")
        assert table is not None and len(table.entries) == len(entries) == 12
        table.replay()  # the game goes on where it was
        assert store.damaged() == set()
        store.mark_damaged("gone", "a test")
        assert store.damaged() == {"gone"}
    finally:
        store.close()
    assert version(db) == SCHEMA_VERSION == migrations.MIGRATIONS[-1].version
    assert {"game_tables", "game_entries", "score_sheets", "damaged_tables"} <= tables_of(db)
    with opened(db) as c:
        columns = {r[1] for r in c.execute("PRAGMA table_info(score_sheets)")}
    assert "key" in columns
    assert Store(db).load("old") is not None  # a second opening migrates nothing more


def test_the_migrations_are_ordered_and_each_adds_its_tables(tmp_path: Path) -> None:
    versions = [m.version for m in migrations.MIGRATIONS]
    assert versions == list(range(1, len(versions) + 1))
    db = tmp_path / "steps.sqlite"
    with opened(db) as c:
        for m in migrations.MIGRATIONS:  # applied one at a time: each leaves a usable file
            c.execute("BEGIN")
            m.apply(c)
            c.execute(f"PRAGMA user_version = {m.version}")
            c.execute("COMMIT")
            assert migrations.missing_tables(c) == []
            assert set(m.tables) <= tables_of(db)
    with opened(db) as c:
        assert migrations.bring_up_to_date(c) == []


def test_a_file_of_a_known_version_missing_a_table_is_damaged(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    Store(db).close()
    with opened(db) as c:
        c.execute("DROP TABLE game_entries")
    with pytest.raises(StoreDamaged, match="lost its table game_entries"):
        Store(db)
    with pytest.raises(StoreDamaged):
        SheetStore(db).summaries([SheetKey("a", "b")])
    assert "game_entries" not in tables_of(db)  # not silently made again, empty


def test_a_file_from_before_versions_with_half_a_record_is_damaged(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    old_file(db)
    with opened(db) as c:
        c.execute("DROP TABLE game_entries")
    with pytest.raises(StoreDamaged):
        Store(db)
    assert "game_entries" not in tables_of(db) and version(db) == 0


def test_a_newer_file_and_another_programs_file_are_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite"
    Store(newer).close()
    with opened(newer) as c:
        c.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreTooNew, match="newer version of chibre"):
        Store(newer)
    with pytest.raises(recovery.StoreRefused, match="newer version of chibre"):
        recovery.prepare(newer)
    other = tmp_path / "other.sqlite"
    with opened(other) as c:
        c.execute("CREATE TABLE invoices (n INTEGER)")
    with pytest.raises(StoreDamaged, match="another program"):
        Store(other)
    assert tables_of(other) == {"invoices"}


# --- chibre store check / backup -------------------------------------------------------------


def chibre(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "chibre.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def filled(tmp_path: Path) -> Path:
    """A file with a few games and many sheets (several pages of each)."""
    db = tmp_path / "chibre.sqlite"
    store = Store(db)
    for i in range(30):
        store_game(store, f"t{i:02d}", play_game(ROMAND, seed=i, stop_after=20))
    store.close()
    sheets = SheetStore(db)
    for i in range(60):
        sheets.create(ScoreSheet(name=f"sheet-{i:03d}"))
    return db


def test_store_check_says_sound_damaged_or_unreadable(filled: Path, tmp_path: Path) -> None:
    sound = chibre("store", "check", str(filled))
    assert sound.returncode == 0, sound.stderr
    assert "sound" in sound.stdout and "30 tables, 60 score sheets" in sound.stdout

    data = bytearray(filled.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    damaged = tmp_path / "damaged.sqlite"
    pages = len(data) // size
    data[(pages - 2) * size : (pages - 1) * size] = bytes(range(256)) * (size // 256)
    damaged.write_bytes(bytes(data))
    found = chibre("store", "check", str(damaged))
    assert found.returncode == 1, found.stdout + found.stderr
    assert "damaged" in found.stdout and "Traceback" not in found.stderr

    text = tmp_path / "text.sqlite"
    text.write_text("hello\n" * 100)
    for path in (text, tmp_path / "nowhere.sqlite"):
        unreadable = chibre("store", "check", str(path))
        assert unreadable.returncode == 2 and "unreadable" in unreadable.stdout
        assert "Traceback" not in unreadable.stderr
    assert not (tmp_path / "nowhere.sqlite").exists()  # checking makes no file


def test_store_backup_while_another_connection_writes(filled: Path, tmp_path: Path) -> None:
    writing = threading.Event()
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:
        store = Store(filled)
        try:
            n = 0
            while not stop.is_set():
                # a table and its first deal in one transaction: a copy has both or neither
                store_game(store, f"w{n:05d}", play_game(ROMAND, n, stop_after=1))
                written.append(n)
                n += 1
                writing.set()
        finally:
            store.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert writing.wait(30)
        copies = [tmp_path / f"copy{i}.sqlite" for i in range(3)]
        for copy in copies:
            done = chibre("store", "backup", str(filled), str(copy))
            assert done.returncode == 0, done.stderr
    finally:
        stop.set()
        thread.join(30)
    counts = []
    for copy in copies:
        assert recovery.examine(copy, thorough=True).ok
        with opened(copy) as c:
            tables = {r[0] for r in c.execute("SELECT id FROM game_tables")}
            recorded = {r[0] for r in c.execute("SELECT DISTINCT table_id FROM game_entries")}
            counts.append(len(tables))
        assert tables == recorded  # every table copied with its record: a consistent copy
    assert 30 < counts[-1] <= 30 + len(written)
    again = chibre("store", "backup", str(filled), str(copies[0]))
    assert again.returncode == 2 and "exists already" in again.stderr
    missing = chibre("store", "backup", str(tmp_path / "none.sqlite"), str(tmp_path / "x"))
    assert missing.returncode == 2 and not (tmp_path / "x").exists()
    nowhere = chibre("store", "backup", str(filled), str(tmp_path / "no" / "copy.sqlite"))
    assert nowhere.returncode == 2 and f"there is no folder {tmp_path / 'no'}" in nowhere.stderr


def page_of(data: bytes, marker: str) -> int:
    size = int.from_bytes(data[16:18], "big")
    return data.index(marker.encode()) // size + 1


def test_salvage_reads_past_several_damaged_pages(filled: Path) -> None:
    data = bytearray(filled.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    names = [f"sheet-{i:03d}" for i in range(60)]
    pages = [page_of(data, name) for name in names]
    assert len(set(pages)) >= 4  # the sheets fill several pages
    first, third = sorted(set(pages))[0], sorted(set(pages))[2]
    for page in (first, third):  # the first page of sheets, and another further on
        data[(page - 1) * size : page * size] = b"\xa5" * size
    filled.write_bytes(bytes(data))
    kept = {n for n, p in zip(names, pages, strict=True) if p not in (first, third)}

    saved = salvage.salvage(filled)

    with opened(filled) as c:
        names_now = {r[0] for r in c.execute("SELECT name FROM score_sheets")}
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert names_now == kept and saved.sheets == len(kept)
    assert saved.tables == 30 and not saved.lost_tables  # the tables' pages were not touched
    assert len(saved.lost_sheets) == 60 - len(kept)  # the index still knew their ids
    assert saved.aside is not None and saved.aside.read_bytes() == bytes(data)


def test_a_record_cut_short_is_damaged_not_played_on_from_where_it_stops(filled: Path) -> None:
    game = play_game(ROMAND, seed=3, stop_after=250)
    assert not game.is_over
    store = Store(filled)
    store_game(store, "long", game)
    store.close()
    deals = [encode_entry(seat, e) for seat, e in game.record.entries if seat == CHANCE]
    assert len(deals) >= 3
    data = bytearray(filled.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    page = page_of(data, deals[-1])  # the last hand's deal: the record before it reads
    assert page != page_of(data, deals[0])
    data[(page - 1) * size : page * size] = b"\x00" * size
    filled.write_bytes(bytes(data))

    saved = salvage.salvage(filled)

    assert "long" in saved.lost_tables
    kept = {f"t{i:02d}" for i in range(30)} - set(saved.lost_tables)
    assert kept and saved.tables == len(kept)
    store = Store(filled)
    try:
        assert store.damaged() == set(saved.lost_tables)
        for table_id in kept:  # every table kept has its whole record, and plays on
            table = store.load(table_id)
            assert table is not None and len(table.entries) == 20
            table.replay()
    finally:
        store.close()


def test_a_record_with_a_hole_is_damaged(filled: Path) -> None:
    with opened(filled) as c:  # a hole SQLite itself cannot see: the file is sound
        c.execute("DELETE FROM game_entries WHERE table_id = 't05' AND n = 10")
    assert recovery.examine(filled, thorough=True).ok

    saved = salvage.salvage(filled)

    assert saved.lost_tables == ["t05"] and saved.tables == 29
    with opened(filled) as c:
        assert c.execute("SELECT id FROM damaged_tables").fetchall() == [("t05",)]
        assert c.execute("SELECT count(*) FROM game_entries").fetchone() == (30 * 20 - 1,)


# --- the sheets' store ------------------------------------------------------------------------


def test_a_damaged_sheet_row_is_marked_and_the_others_are_listed(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    store = SheetStore(db)
    keys = [store.create(ScoreSheet(name=f"s{i}")) for i in range(3)]
    with opened(db) as c:
        c.execute("UPDATE score_sheets SET sheet = '{not json' WHERE id = ?", (keys[1].id,))
    listed = store.summaries(keys)
    assert [s["name"] for s in listed[:2]] == ["s2", "s0"]  # the newest first
    damaged = listed[2]
    assert damaged == {
        "id": keys[1].id,
        "damaged": True,
        "error": "this score sheet was damaged and cannot be read",
    }
    assert len(listed) == 3


@pytest.fixture
def immutable(tmp_path: Path) -> Iterator[Path]:
    """A sheets' file made read-only (for root, whom file modes do not stop: immutable)."""
    db = tmp_path / "chibre.sqlite"
    SheetStore(db).create(ScoreSheet(name="kept"))
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(db)], check=True)
    else:
        db.chmod(0o444)
    try:
        yield db
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(db)], check=True)


def test_the_sheets_store_on_a_read_only_file_refuses_writes_plainly(immutable: Path) -> None:
    store = SheetStore(immutable)
    with pytest.raises(StoreUnavailable, match="cannot be read or written"):
        store.create(ScoreSheet(name="new"))
    assert recovery.prepare(immutable) == [recovery.READ_ONLY.format(path=immutable)]
