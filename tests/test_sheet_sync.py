"""Changes sent with the page's own id (``write=``) are made once, however often they are
sent; a correction of a hand that another device changed meanwhile (``was=``) is refused."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chibre.scoresheet import ScoreSheet
from chibre.server.sheets import MAX_WRITES, SheetStore
from server_support import http_json, running_server


def test_a_change_with_a_known_id_is_not_made_again(tmp_path: Path) -> None:
    store = SheetStore(tmp_path / "s.sqlite")
    opened = store.create(ScoreSheet())
    hand = {"contract": "H", "points": 90}
    first = store.write(*opened, "phone-1-a", lambda s: s.add(hand).number)
    again = store.write(*opened, "phone-1-a", lambda s: s.add(hand).number)
    assert (first.hand, first.replayed) == (1, False)
    assert (again.hand, again.replayed) == (1, True)
    assert len(store.load(*opened).hands) == 1
    other = store.write(*opened, "phone-2-a", lambda s: s.add(hand).number)
    assert (other.hand, other.replayed) == (2, False)
    # the export is the sheet alone: the ids stay in the store
    assert "writes" not in store.load(*opened).to_dict()


def test_a_refused_change_keeps_no_id(tmp_path: Path) -> None:
    store = SheetStore(tmp_path / "s.sqlite")
    opened = store.create(ScoreSheet())
    with pytest.raises(ValueError):
        store.write(*opened, "phone-1-a", lambda s: s.add({"contract": "H", "points": 200}).number)
    done = store.write(
        *opened, "phone-1-a", lambda s: s.add({"contract": "H", "points": 20}).number
    )
    assert not done.replayed and len(done.sheet.hands) == 1


def test_a_sheet_remembers_its_last_ids_only(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    store = SheetStore(db)
    opened = store.create(ScoreSheet())
    store.write(*opened, "oldest-id", lambda s: None)
    for i in range(MAX_WRITES):
        store.write(*opened, f"change-{i:05d}", lambda s: None)
    with sqlite3.connect(db) as c:
        writes = json.loads(c.execute("SELECT sheet FROM score_sheets").fetchone()[0])["writes"]
    assert len(writes) == MAX_WRITES and "oldest-id" not in writes
    assert list(writes)[-1] == f"change-{MAX_WRITES - 1:05d}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("sync")) as base:
        yield base


def new_sheet(server: str) -> tuple[str, str]:
    status, view = http_json(server, "/api/sheets", {"name": "Sync"})
    assert status == 201
    return view["id"], view["key"]


def test_a_hand_sent_twice_is_written_once(server: str) -> None:
    sheet, key = new_sheet(server)
    path = f"/api/sheets/{sheet}/hands?key={key}&write=a1b2c3d4e5"
    hand: dict[str, Any] = {"contract": "S", "points": 98, "team": 0}
    status, first = http_json(server, path, hand)
    assert status == 201 and first["written"] == 1 and first["replayed"] is False
    status, again = http_json(server, path, hand)
    assert status == 201 and again["written"] == 1 and again["replayed"] is True
    assert len(again["hands"]) == 1 and again["totals"] == first["totals"]
    status, other = http_json(server, f"/api/sheets/{sheet}/hands?key={key}&write=b1b2c3d4e5", hand)
    assert status == 201 and other["written"] == 2 and len(other["hands"]) == 2


def test_a_correction_of_a_hand_changed_meanwhile_is_refused(server: str) -> None:
    sheet, key = new_sheet(server)
    base = f"/api/sheets/{sheet}/hands"
    for points in (98, 40):
        assert http_json(server, f"{base}?key={key}", {"contract": "H", "points": points})[0] == 201
    _, view = http_json(server, f"/api/sheets/{sheet}?key={key}")
    first, second = (h["stamp"] for h in view["hands"])
    assert first != second
    # another device strikes hand 1: hand 1 is now the 40, not the 98 this device saw
    status, _ = http_json(server, f"{base}/1?key={key}&was={first}", method="DELETE")
    assert status == 200
    status, refused = http_json(
        server, f"{base}/1?key={key}&was={first}", {"contract": "H", "points": 100}, "PUT"
    )
    assert status == 409 and refused["field"] == "was"
    status, refused = http_json(server, f"{base}/1?key={key}&was={first}", method="DELETE")
    assert status == 409
    _, view = http_json(server, f"/api/sheets/{sheet}?key={key}")
    assert [h["points"] for h in view["hands"]] == [40]  # nothing changed
    # with the hand's own stamp the correction is made, once
    path = f"{base}/1?key={key}&was={second}&write=fix-0001"
    for _ in range(2):
        status, done = http_json(server, path, {"contract": "H", "points": 100}, "PUT")
        assert status == 200 and done["written"] == 1
    assert [h["points"] for h in done["hands"]] == [100]
    assert done["replayed"] is True


@pytest.mark.parametrize("write", ["short", "x" * 41, "a%20b%20c%20d"])
def test_bad_ids_and_stamps_are_refused(server: str, write: str) -> None:
    sheet, key = new_sheet(server)
    hand = {"contract": "H", "points": 1}
    status, body = http_json(server, f"/api/sheets/{sheet}/hands?key={key}&write={write}", hand)
    assert status == 400 and body["field"] == "write", body
    assert http_json(server, f"/api/sheets/{sheet}/hands?key={key}", hand)[0] == 201
    status, body = http_json(
        server, f"/api/sheets/{sheet}/hands/1?key={key}&was=XYZ", None, "DELETE"
    )
    assert status == 400 and body["field"] == "was", body
    _, view = http_json(server, f"/api/sheets/{sheet}?key={key}")
    assert len(view["hands"]) == 1


def test_the_service_worker_is_served_from_the_root(server: str) -> None:
    with urllib.request.urlopen(server + "/tafel-sw.js", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/javascript")
        assert b'addEventListener("fetch"' in r.read()


def test_a_sheet_begun_without_a_connection_is_made_once_with_its_own_link(server: str) -> None:
    body = {"name": "Offline", "id": "abcdefghijk", "key": "k" * 22}
    status, made = http_json(server, "/api/sheets", body)
    assert status == 201 and made["link"] == "/tafel#abcdefghijk." + "k" * 22
    assert made["replayed"] is False
    hand = {"contract": "H", "points": 90}
    assert http_json(server, f"/api/sheets/abcdefghijk/hands?key={'k' * 22}", hand)[0] == 201
    status, again = http_json(server, "/api/sheets", body)  # its answer was lost: sent again
    assert status == 200 and again["replayed"] is True and len(again["hands"]) == 1
    status, taken = http_json(server, "/api/sheets", {**body, "key": "x" * 22})
    assert status == 409 and taken["field"] == "id"
    _, view = http_json(server, f"/api/sheets/abcdefghijk?key={'k' * 22}")
    assert view["name"] == "Offline" and len(view["hands"]) == 1


@pytest.mark.parametrize(
    "chosen",
    [{"id": "abcdefghijk"}, {"id": "short", "key": "k" * 22}, {"id": "a" * 11, "key": "weak"}],
    ids=["no key", "short id", "weak key"],
)
def test_a_chosen_id_needs_a_strong_key(server: str, chosen: dict[str, str]) -> None:
    status, body = http_json(server, "/api/sheets", {"name": "Nope", **chosen})
    assert status == 400, body
