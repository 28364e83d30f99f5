"""Score sheets kept in SQLite and served over HTTP by a real server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chibre.rules import Rules
from chibre.scoresheet import InvalidEntry, ScoreSheet
from chibre.server.sheets import NoSuchSheet, SheetStore

SRC = Path(__file__).resolve().parents[1] / "src"


# --- the store -------------------------------------------------------------------------------


def test_store_keeps_lists_changes_and_deletes(tmp_path):
    db = tmp_path / "chibre.sqlite3"
    store = SheetStore(db)
    sheet = ScoreSheet(Rules.preset("schieber-2500"), name="Freitag", teams=("Wir", "Ihr"))
    sheet.add({"contract": "O", "points": 100})
    first = store.create(sheet)
    second = store.create(ScoreSheet(name="other"))
    assert store.load(first).to_dict() == sheet.to_dict()
    listed = {s["id"]: s for s in store.list()}
    assert listed[first]["totals"] == [300, 171]
    assert listed[first]["teams"] == ["Wir", "Ihr"]
    assert listed[first]["hands"] == 1 and listed[second]["hands"] == 0
    store.change(first, lambda s: s.delete(1))
    assert store.load(first).totals == (0, 0)
    assert store.list()[0]["id"] == first  # the most recently changed first
    store.delete(second)
    with pytest.raises(NoSuchSheet):
        store.load(second)
    with pytest.raises(NoSuchSheet):
        store.delete(second)
    # a new store on the same file sees everything (nothing is kept in memory only)
    assert SheetStore(db).load(first).name == "Freitag"


def test_a_refused_change_stores_nothing(tmp_path):
    store = SheetStore(tmp_path / "s.sqlite3")
    sheet_id = store.create(ScoreSheet())
    store.change(sheet_id, lambda s: s.add({"contract": "H", "points": 90}))
    before = store.load(sheet_id).to_json()
    with pytest.raises(InvalidEntry, match="from 0 to 157"):
        store.change(sheet_id, lambda s: s.add({"contract": "H", "points": 190}))

    def half_done(s: ScoreSheet) -> None:
        s.add({"contract": "H", "points": 1})
        raise InvalidEntry("stop")

    with pytest.raises(InvalidEntry):
        store.change(sheet_id, half_done)
    assert store.load(sheet_id).to_json() == before


def test_same_file_as_the_tables_in_wal_mode(tmp_path):
    from chibre.server.store import Store

    db = tmp_path / "chibre.sqlite3"
    tables = Store(db)
    store = SheetStore(db)
    store.create(ScoreSheet())
    con = sqlite3.connect(db)
    try:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"score_sheets", "game_tables", "game_entries"} <= names
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()
        tables.close()


# --- over HTTP -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("sheets") / "chibre.sqlite3"
    port = free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "chibre.server.sheets", "--db", str(db), "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/api/sheets", timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def call(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            raw = r.read().decode()
            kind = r.headers.get("Content-Type", "")
            return r.status, json.loads(raw) if "json" in kind else raw
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode())


def test_a_sheet_over_http(server):
    status, view = call(server, "POST", "/api/sheets",
                        {"name": "Jeudi", "teams": ["Nous", "Eux"], "preset": "romand",
                         "rules": {"multipliers": "french"}})  # fmt: skip
    assert status == 201
    sid = view["id"]
    assert view["rules"]["multipliers"] == "french" and view["teams"] == ["Nous", "Eux"]
    hand = {"contract": "S", "points": 98, "weis": [[50], []], "stoeck": 0}
    status, view = call(server, "POST", f"/api/sheets/{sid}/hands", hand)
    assert status == 201 and view["totals"] == [336, 118]
    assert view["hands"][0]["blocks"]["weis"] == [100, 0]
    assert "<svg" in view["svg"]
    status, view = call(server, "POST", f"/api/sheets/{sid}/hands", {"contract": "H", "match": 1})
    assert view["totals"] == [336, 375]
    # bad input: 400 with the message, nothing stored
    for bad, message in [
        ({"contract": "H", "points": 158}, "from 0 to 157"),
        ({"contract": "O", "points": 10, "stoeck": 1}, "no stöck in Obenabe"),
        ({"contract": "H", "points": 10, "weis": [[20], [20]]}, "only one team scores weis"),
        ({"contract": "Z", "points": 10}, "unknown contract"),
    ]:
        status, answer = call(server, "POST", f"/api/sheets/{sid}/hands", bad)
        assert status == 400 and message in answer["error"]
    status, answer = call(
        server, "PUT", f"/api/sheets/{sid}/hands/9", {"contract": "H", "points": 1}
    )
    assert status == 400 and "no hand 9" in answer["error"]
    assert call(server, "GET", f"/api/sheets/{sid}")[1]["totals"] == [336, 375]
    # correct hand 1 and strike hand 2
    status, view = call(
        server, "PUT", f"/api/sheets/{sid}/hands/1", {"contract": "S", "points": 100}
    )
    assert status == 200 and view["totals"] == [200, 371]
    status, view = call(server, "DELETE", f"/api/sheets/{sid}/hands/2")
    assert view["totals"] == [200, 114] and len(view["hands"]) == 1
    status, view = call(server, "PATCH", f"/api/sheets/{sid}", {"name": "Vendredi"})
    assert view["name"] == "Vendredi"
    # export, import as a new sheet, list, delete
    status, exported = call(server, "GET", f"/api/sheets/{sid}/export")
    assert status == 200 and exported["format"] == "chibre-scoresheet"
    status, imported = call(server, "POST", "/api/sheets/import", exported)
    assert status == 201 and imported["id"] != sid and imported["totals"] == [200, 114]
    ids = [s["id"] for s in call(server, "GET", "/api/sheets")[1]["sheets"]]
    assert sid in ids and imported["id"] in ids
    assert call(server, "DELETE", f"/api/sheets/{imported['id']}")[0] == 200
    assert call(server, "GET", f"/api/sheets/{imported['id']}")[0] == 404
    status, answer = call(server, "POST", "/api/sheets/import", {"format": "nope"})
    assert status == 400 and "not a score sheet" in answer["error"]
    status, svg = call(server, "GET", f"/api/sheets/{sid}/tafel.svg?lang=fr")
    assert status == 200 and "Contre-match" in svg


def test_bad_sheets_are_refused(server):
    before = len(call(server, "GET", "/api/sheets")[1]["sheets"])
    for bad, message in [
        ({"preset": "nowhere"}, "unknown preset"),
        ({"rules": {"target": -5}}, "positive"),
        ({"colour": "red"}, "unknown field"),
        ([1, 2], "JSON object"),
    ]:
        status, answer = call(server, "POST", "/api/sheets", bad)
        assert status == 400 and message in answer["error"], answer
    req = urllib.request.Request(server + "/api/sheets", data=b"{oops", method="POST")
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=5)
    assert err.value.code == 400 and "not valid JSON" in err.value.read().decode()
    assert len(call(server, "GET", "/api/sheets")[1]["sheets"]) == before


def test_any_slate_as_svg_and_the_page(server):
    query = "team0=98,59,336&team1=59&striche0=sieg:2&label0=Nous"
    status, svg = call(server, "GET", "/api/tafel.svg?" + query)
    assert status == 200
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    counts = [g.get("data-count") for g in root.iter(f"{ns}g") if g.get("class") == "line hundreds"]
    assert counts == ["3", "0"]
    assert 'class="strich sieg" data-count="2"' in svg
    status, answer = call(server, "GET", "/api/tafel.svg?team0=a,b")
    assert status == 400 and "whole numbers" in answer["error"]
    status, answer = call(server, "GET", "/api/tafel.svg?striche1=win:3")
    assert status == 400 and "kind:count" in answer["error"]
    for path, marker in [("/tafel", "tafel.js"), ("/static/tafel.js", "fetch"),
                         ("/static/tafel.css", "@media print")]:  # fmt: skip
        with urllib.request.urlopen(server + path, timeout=5) as r:
            assert r.status == 200 and marker in r.read().decode()
    presets = call(server, "GET", "/api/sheets/presets")[1]
    assert presets["presets"]["schieber-2500"]["target"] == 2500
