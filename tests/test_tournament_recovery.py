"""A damaged SQLite file holding tournaments: the real server, started on a real file damaged
as files are, copies the tournaments with their entries, rounds, tables, flags and audit log,
and the tables' committed deals and terms (a Passe, time limits), into the fresh file — and
says which tournaments it lost."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from server_support import http_json, opened, start_server, stop_server
from test_store_recovery import aside_files, page_size, pages_of, tree_paths

ARGS = ("--grace", "600")  # nobody comes, and nobody is replaced: the file stays as it is
TOURNAMENTS = 12
LEAF_INDEX_PAGE = 0x0A  # the b-tree page type of a table without rowid's leaves


@dataclass
class Made:
    db: Path
    tournaments: list[dict[str, Any]]  # as created, with "state": the organiser's view
    tables: dict[str, dict[str, Any]]  # each online table's summary, by its watch link


def organiser_state(base: str, t: dict[str, Any]) -> tuple[int, Any]:
    return http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")


def summaries(base: str, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for rnd in state["rounds"]:
        for table in rnd["tables"]:
            if "watch" in table:
                table_id, watch = table["watch"].removeprefix("/t/").split("?watch=")
                status, summary = http_json(base, f"/api/tables/{table_id}?watch={watch}")
                assert status == 200, summary
                for seat in summary["seats"]:  # when the computer comes is counted from start
                    seat.pop("grace_until")
                out[table["watch"]] = summary
    return out


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """What a tournament must keep through a recovery (who is connected may change)."""
    for rnd in state["rounds"]:
        for table in rnd["tables"]:
            for seat in table["seats"]:
                seat.pop("connected", None)
    return state


def make_store(tmp_path: Path) -> Made:
    """Tournaments written by a real server: a duplicate Passe with a time limit, an evening
    with a real-card table and a correction, fixed teams, and some waiting for entries."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db, *ARGS)
    made: list[dict[str, Any]] = []
    try:
        for n in range(TOURNAMENTS):
            body: dict[str, Any] = {"name": f"Tournament-{n:02d}-of-the-test", "rounds": 2}
            if n % 3 == 0:
                body |= {"hands": 4, "duplicate": True, "grace": 300, "move_limit": 0}
            elif n % 3 == 1:
                body |= {"options": {"target": 300}, "real_tables": 1}
            else:
                body |= {"format": "swiss"}
            status, t = http_json(base, "/api/tournaments", body)
            assert status == 201, t
            if n < TOURNAMENTS // 2:
                for p in range(8):
                    entry = {"name": f"P{p + 1}"} | ({"partner": f"Q{p + 1}"} if n % 3 == 2 else {})
                    status, _ = http_json(
                        base, f"/api/tournaments/{t['id']}/entries?code={t['code']}", entry
                    )
                    assert status == 201
                status, _ = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
                assert status == 201
            if n % 3 == 1 and n < TOURNAMENTS // 2:  # a hand on the real-card sheet, corrected
                status, s = organiser_state(base, t)
                sheet_id, key = (
                    s["rounds"][0]["tables"][0]["sheet"].removeprefix("/tafel#").split(".")
                )
                hand = {"contract": 0, "chooser": 0, "points": 100, "team": 0}
                assert http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand)[0] == 201
                fix = {"round": 1, "table": 1, "hand": 1, "points": 110, "reason": "miscounted"}
                status, _ = http_json(
                    base, f"/api/tournaments/{t['id']}/corrections?key={t['key']}", fix
                )
                assert status == 200
            made.append(t)
        tables: dict[str, dict[str, Any]] = {}
        for t in made:
            status, t["state"] = organiser_state(base, t)
            assert status == 200
            tables |= summaries(base, t["state"])
    finally:
        stop_server(process)
    assert not Path(f"{db}-wal").exists()
    return Made(db, made, tables)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    return make_store(tmp_path_factory.mktemp("made"))


@pytest.fixture
def db(made: Made, tmp_path: Path) -> Path:
    copy = tmp_path / "chibre.sqlite"
    copy.write_bytes(made.db.read_bytes())
    return copy


def look(db: Path, made: Made) -> tuple[dict[str, Any], dict[str, dict[str, Any]], str]:
    """Start the server on ``db``: each tournament's state (or its status), each online
    table's summary, and what the server printed."""
    log = db.with_suffix(".log")
    offset = log.stat().st_size if log.exists() else 0
    process, base = start_server(db, *ARGS)
    try:
        states: dict[str, Any] = {}
        tables: dict[str, dict[str, Any]] = {}
        for t in made.tournaments:
            status, state = organiser_state(base, t)
            states[t["id"]] = comparable(state) if status == 200 else status
            if status == 200:
                tables |= summaries(base, state)
    finally:
        stop_server(process)
    return states, tables, log.read_bytes()[offset:].decode(errors="replace")


def test_a_bad_header_keeps_every_tournament_and_its_tables_deals(made: Made, db: Path) -> None:
    data = bytearray(db.read_bytes())
    data[:100] = bytes((b * 7 + 1) % 256 for b in range(100))
    db.write_bytes(bytes(data))

    states, tables, log = look(db, made)

    assert "header does not say it is an SQLite database" in log
    assert f"and {TOURNAMENTS} tournaments" in log and "Nothing else seems lost" in log
    for t in made.tournaments:
        assert states[t["id"]] == comparable(t["state"]), t["id"]
    assert tables == made.tables  # committed deals, a Passe's hands and the time limits kept
    passe = [s for s in tables.values() if s.get("passe") == 4]
    assert passe and all(s["deals"]["commitment"].startswith("sha256:") for s in passe)
    assert all(s["grace"] == 300 for s in passe)
    assert any(s["deals"].get("turned") for s in passe)
    audit = [a for t in made.tournaments for a in t["state"]["audit"] if a["who"] == "organiser"]
    assert len(audit) == 2 and all(a["reason"] == "miscounted" for a in audit)
    assert len(aside_files(db)) == 1


def test_a_page_of_garbage_loses_only_the_tournaments_on_it(made: Made, db: Path) -> None:
    data = db.read_bytes()
    size = page_size(db)
    # a leaf page of the tournaments' rows (a row on an interior page would take the rows
    # below it along: they are found through it)
    leaves = [
        page
        for t in made.tournaments[TOURNAMENTS // 2 :] + made.tournaments[: TOURNAMENTS // 2]
        for page in sorted(pages_of(data, t["state"]["name"], size))
        if data[(page - 1) * size + (100 if page == 1 else 0)] == LEAF_INDEX_PAGE
    ]
    damaged = leaves[0]  # its rows begin there: id, created, name… (the rest may overflow)
    # the rows on the interior pages above it may be lost with it: SQLite's cursor finds
    # them through the leaf on either side
    above = tree_paths(db, data)[damaged]

    def on(pages: set[int], t: dict[str, Any]) -> bool:
        return bool(pages & pages_of(data, t["state"]["name"], size))

    on_it = {t["id"] for t in made.tournaments if on({damaged}, t)}
    near = {t["id"] for t in made.tournaments if on(above, t)}
    assert on_it and len(on_it | near) < TOURNAMENTS
    with db.open("r+b") as f:
        f.seek((damaged - 1) * size)
        f.write(os.urandom(size))

    states, tables, log = look(db, made)

    assert "is damaged" in log and "copied aside" in log
    for t in made.tournaments:
        if t["id"] in on_it or (t["id"] in near and states[t["id"]] == 404):
            assert states[t["id"]] == 404  # lost, and said: by its id when its entries
            assert t["id"] in log or not t["state"]["entries"]  # name it
            assert "rows of tournaments that could not be read" in log
        else:
            assert states[t["id"]] == comparable(t["state"]), t["id"]
    kept = {w: s for w, s in made.tables.items() if w in tables}
    assert tables == kept and kept  # the tables of the kept tournaments, deals and all
    with opened(db) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kept = c.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0]
        assert (
            kept
            == sum(states[t["id"]] != 404 for t in made.tournaments)
            >= TOURNAMENTS - len(on_it | near)
        )
