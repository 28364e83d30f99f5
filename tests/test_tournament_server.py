"""Tournaments on a real server: entries, rounds, standings recomputed from the SQLite file,
real-card tables with corrections in the audit log, kill -9 mid-round."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any

from chibre.game import CHANCE, Game
from chibre.notation import record_from_dict
from chibre.rules import Rules
from chibre.scoresheet import ScoreSheet
from chibre.server.store import decode_entry
from chibre.tournament import COMPUTER
from chibre.tournament.fairdeal import verify
from server_support import http_json, opened, running_server, start_server, stop_server

SHORT = {"target": 300}


def create(base: str, **body: Any) -> dict[str, Any]:
    status, answer = http_json(base, "/api/tournaments", body)
    assert status == 201, answer
    return answer


def state(base: str, t: dict[str, Any], **query: str) -> dict[str, Any]:
    q = "&".join(f"{k}={v}" for k, v in (query or {"key": t["key"]}).items())
    status, answer = http_json(base, f"/api/tournaments/{t['id']}?{q}")
    assert status == 200, answer
    return answer


def enter(base: str, t: dict[str, Any], name: str, kind: str = "human", **more: Any) -> Any:
    secret = f"key={t['key']}" if kind != "human" else f"code={t['code']}"
    return http_json(
        base, f"/api/tournaments/{t['id']}/entries?{secret}", {"name": name, "kind": kind, **more}
    )


def wait_for(base: str, t: dict[str, Any], what: str, timeout: float = 120) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = state(base, t)
        if s[what]:
            return s
        time.sleep(0.3)
    raise AssertionError(f"the tournament is not {what} after {timeout} s: {s}")


def recompute(db: Path, tid: str) -> dict[str, int]:
    """Each entry's points, from the stored draws, game records and sheets alone."""
    points: dict[str, int] = defaultdict(int)
    with opened(db) as c:
        entry_of: dict[str, str] = {}
        for eid, members in c.execute(
            "SELECT id, members FROM tournament_entries WHERE tournament_id = ?", (tid,)
        ):
            entry_of.update({m["id"]: eid for m in json.loads(members)})
            points[eid] += 0
        draws = {
            r: json.loads(d)
            for r, d in c.execute(
                "SELECT round, draw FROM tournament_rounds WHERE tournament_id = ?", (tid,)
            )
        }
        tables = c.execute(
            "SELECT round, number, kind, ref FROM tournament_tables WHERE tournament_id = ?", (tid,)
        ).fetchall()
        for r, n, kind, ref in tables:
            if kind == "online":
                (rules,) = c.execute(
                    "SELECT rules FROM game_tables WHERE id = ?", (ref,)
                ).fetchone()
                game = Game(Rules.from_json(rules))
                for seat, text in c.execute(
                    "SELECT seat, entry FROM game_entries WHERE table_id = ? ORDER BY n", (ref,)
                ):
                    game.apply(decode_entry(seat, text), None if seat == CHANCE else seat)
                totals = list(game.totals)
            else:
                (text,) = c.execute(
                    "SELECT sheet FROM score_sheets WHERE id = ?", (ref,)
                ).fetchone()
                totals = list(ScoreSheet.from_json(text).totals)
            seats = next(d for d in draws[r] if d["table"] == n)["seats"]
            for team in (0, 1):
                credited = {entry_of[p] for p in (seats[team], seats[team + 2]) if p != COMPUTER}
                for eid in credited:
                    points[eid] += totals[team]
    return dict(points)


def standings_points(s: dict[str, Any]) -> dict[str, int]:
    return {line["entrant"]: line["points"] for line in s["standings"]}


def test_an_evening_of_computer_players_plays_itself(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, db=db) as base:
        t = create(base, name="Mardi", preset="geneve-500", options=SHORT, rounds=2, auto=True)
        for n in range(9):  # nine players: one computer seat a round
            status, answer = enter(base, t, f"Bot {n + 1}", kind="rule")
            assert status == 201, answer
        status, answer = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        assert status == 201 and len(answer["tables"]) == 3
        s = wait_for(base, t, "finished")
        assert s["current"] == 2 and len(s["rounds"]) == 2
        for rnd in s["rounds"]:
            fillers = [seat for table in rnd["tables"] for seat in table["seats"] if seat["filler"]]
            assert len(fillers) == 3 and all(f["name"] == "Computer" for f in fillers)
            for table in rnd["tables"]:
                assert table["done"] and max(table["totals"]) >= 300
                deals = table["deals"]
                assert deals["commitment"].startswith("sha256:") and deals["seed"]
                table_id = table["watch"].split("/t/")[1].split("?")[0]
                watch = table["watch"].split("watch=")[1]
                _, record = http_json(
                    base, f"/api/tables/{table_id}/record?format=json&watch={watch}"
                )
                assert verify(record_from_dict(record), deals) == []
        # the standings equal a recomputation from the file alone
        assert standings_points(s) == recompute(db, t["id"])
        ranks = [line["points"] for line in s["standings"]]
        assert ranks == sorted(ranks, reverse=True)
        # exports
        with urllib.request.urlopen(
            f"{base}/api/tournaments/{t['id']}/export.csv?key={t['key']}"
        ) as r:
            csv_text = r.read().decode()
        assert csv_text.splitlines()[0].startswith("rank,name,score,points")
        assert len(csv_text.splitlines()) == 10
        with urllib.request.urlopen(
            f"{base}/api/tournaments/{t['id']}/export.json?key={t['key']}"
        ) as r:
            exported = json.loads(r.read())
        assert exported["standings"] == s["standings"] and "players" not in exported


def test_entries_and_refusals(tmp_path: Path) -> None:
    with running_server(tmp_path, "--grace", "600") as base:
        status, answer = http_json(base, "/api/tournaments", {"format": "knockout"})
        assert status == 400 and answer["field"] == "format"
        status, answer = http_json(base, "/api/tournaments", {"rounds": 0})
        assert status == 400 and answer["field"] == "rounds"
        t = create(base, options=SHORT, rounds=2)
        tid = t["id"]
        assert http_json(base, f"/api/tournaments/{tid}?key=wrong")[0] == 403
        assert http_json(base, "/api/tournaments/nope?key=x")[0] == 404
        status, anna = enter(base, t, "Anna")
        assert status == 201 and anna["links"][0].startswith(f"/tournament/{tid}?player=")
        assert enter(base, t, "anna")[0] == 400  # the name is taken
        assert enter(base, t, "Bot", kind="rule")[0] == 201  # by the organiser
        status, answer = http_json(
            base, f"/api/tournaments/{tid}/entries?code={t['code']}", {"name": "X", "kind": "rule"}
        )
        assert status == 403  # computer players are the organiser's to enter
        status, answer = http_json(
            base, f"/api/tournaments/{tid}/entries?code={t['code']}", {"name": "A", "partner": "B"}
        )
        assert status == 400 and "alone" in answer["error"]
        status, answer = http_json(
            base, f"/api/tournaments/{tid}/entries?code={t['code']}", {"name": ""}
        )
        assert status == 400 and answer["field"] == "name"
        assert (
            http_json(base, f"/api/tournaments/{tid}/rounds?key={t['key']}", {})[0] == 400
        )  # 2 < 4
        for n in range(3):
            enter(base, t, f"Bot {n}", kind="rule")
        # a player's page: the player's own view
        token = anna["links"][0].split("player=")[1]
        mine = state(base, t, player=token)
        assert mine["role"] == "player" and mine["you"]["name"] == "Anna" and "audit" not in mine
        assert http_json(base, f"/api/tournaments/{tid}/rounds?key={token}", {})[0] == 403
        assert http_json(base, f"/api/tournaments/{tid}/rounds?key={t['key']}", {})[0] == 201
        mine = state(base, t, player=token)
        assert mine["you"]["table"]["link"].startswith("/t/")  # sent to the seat
        watcher = state(base, t, code=t["code"])
        assert watcher["role"] == "spectator"
        assert all(
            "link" not in seat
            for table in watcher["rounds"][0]["tables"]
            for seat in table["seats"]
        )
        assert watcher["rounds"][0]["tables"][0]["watch"]
        # Anna plays; the round cannot be followed by another before it is over
        status, answer = http_json(base, f"/api/tournaments/{tid}/rounds?key={t['key']}", {})
        assert status == 400 and "still being played" in answer["error"]
        # a late arrival is drawn from the next round; one who played withdraws, not removed
        status, late = enter(base, t, "Late")
        assert status == 201 and late["since"] == 2
        status, answer = http_json(
            base, f"/api/tournaments/{tid}/entries/{anna['entry']}?key={t['key']}", method="DELETE"
        )
        assert status == 400 and "withdraw" in answer["error"]
        status, answer = http_json(
            base, f"/api/tournaments/{tid}/entries/{late['entry']}?key={t['key']}", method="DELETE"
        )
        assert status == 200
        status, answer = http_json(
            base, f"/api/tournaments/{tid}/entries/{anna['entry']}/withdraw?key={t['key']}", {}
        )
        assert status == 200 and answer["status"] == "withdrawn"
        entries = {e["name"]: e for e in state(base, t)["entries"]}
        assert entries["Anna"]["status"] == "withdrawn" and "Late" not in entries


def test_a_real_card_round_with_a_correction(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, db=db) as base:
        t = create(base, options=SHORT, rounds=1, real_tables=2)
        for n in range(8):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        s = state(base, t)
        sheets = [table["sheet"] for table in s["rounds"][0]["tables"]]
        assert all(link.startswith("/tafel#") for link in sheets)
        assert all(table["kind"] == "cards" for table in s["rounds"][0]["tables"])
        for link, points in zip(sheets, (100, 60), strict=True):
            sheet_id, key = link.removeprefix("/tafel#").split(".", 1)
            winner = -1
            while winner < 0:
                hand: dict[str, Any] = {"contract": 0, "chooser": 0, "points": points, "team": 0}
                status, answer = http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand)
                if status == 400 and "(schneider)" in answer["error"]:
                    hand["schneider"] = False  # the scorer says: the losers had reached 150
                    status, answer = http_json(
                        base, f"/api/sheets/{sheet_id}/hands?key={key}", hand
                    )
                assert status == 201, answer
                winner = answer["winner"]
                time.sleep(1.2)  # the tournament sees each hand
        s = wait_for(base, t, "finished")
        first = s["rounds"][0]["tables"][0]
        assert first["totals"] == [300, 171]
        status, answer = http_json(
            base,
            f"/api/tournaments/{t['id']}/corrections?key={t['key']}",
            {
                "round": 1,
                "table": 1,
                "hand": 2,
                "entry": {"contract": 0, "chooser": 0, "points": 110, "team": 0},
                "reason": "miscounted",
            },
        )
        assert status == 200, answer
        s = state(base, t)
        assert s["rounds"][0]["tables"][0]["totals"] == [310, 161]
        assert standings_points(s) == recompute(db, t["id"])
        audit = s["audit"]
        organiser = [a for a in audit if a["who"] == "organiser"]
        assert len(organiser) == 1 and organiser[0]["reason"] == "miscounted"
        assert organiser[0]["before"]["points"] == 100 and organiser[0]["after"]["points"] == 110
        scorer = [a for a in audit if a["who"] == "scorer" and a["table"] == 1]
        assert [a["hands"] for a in scorer] == [[1], [2], [3]]
        status, answer = http_json(
            base,
            f"/api/tournaments/{t['id']}/corrections?key={t['key']}",
            {"round": 1, "table": 1, "hand": 9, "entry": {"contract": 0, "points": 1}},
        )
        assert status == 400 and "no hand 9" in answer["error"]
        status, answer = http_json(
            base,
            f"/api/tournaments/{t['id']}/corrections?key={t['key']}",
            {"round": 1, "table": 1, "hand": 1},
        )
        assert status == 400 and "or its points" in answer["error"]
        assert state(base, t)["audit"] == audit  # a refused correction changes nothing


def test_kill_9_mid_round_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    args = ("--bot-delay", "0.05")
    process, base = start_server(db, *args)
    try:
        t = create(base, options=SHORT, rounds=2)
        for n in range(8):
            enter(base, t, f"Bot {n + 1}", kind="rule")
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        time.sleep(1.0)
        before = state(base, t)
        assert not before["round_over"]
        process.send_signal(signal.SIGKILL)
        process.wait()
        process, base = start_server(db, *args)
        after = state(base, t)
        for b, a in zip(before["rounds"][0]["tables"], after["rounds"][0]["tables"], strict=True):
            assert a["hands"] >= b["hands"] and a["seats"] == b["seats"]
        s = wait_for(base, t, "round_over")
        assert standings_points(s) == recompute(db, t["id"])
        status, _ = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        assert status == 201
        wait_for(base, t, "finished")
    finally:
        stop_server(process)
    # a round written but not yet opened (a server killed in between) is opened at start
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM tournament_tables WHERE round = 2")
    process, base = start_server(db, *args)
    try:
        s = state(base, t)
        assert all(table["kind"] == "online" for table in s["rounds"][1]["tables"])
    finally:
        stop_server(process)


def test_any_table_may_commit_to_its_deals(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        body = {"seats": ["human", "rule", "rule", "rule"], "fair_deals": True}
        status, table = http_json(base, "/api/tables", body)
        assert status == 200 and table["deals"]["commitment"].startswith("sha256:")
        assert "seed" not in table["deals"]  # revealed only once the game is over
        token = table["seats"][0]["link"].split("seat=")[1]
        _, summary = http_json(base, f"/api/tables/{table['table']}?token={token}")
        assert summary["deals"] == table["deals"]
        status, plain = http_json(base, "/api/tables", {"seats": ["human", "rule", "rule", "rule"]})
        assert status == 200 and "deals" not in plain
        status, answer = http_json(base, "/api/tables", {**body, "fair_deals": "yes"})
        assert status == 400 and answer["field"] == "fair_deals"


def test_a_mixed_evening_and_players_who_never_come(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, "--grace", "1", db=db) as base:
        t = create(base, options=SHORT, rounds=1, real_tables=1)
        for n in range(8):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        s = state(base, t)
        real, online = s["rounds"][0]["tables"]
        assert (real["kind"], online["kind"]) == ("cards", "online")
        # nobody opens the online table: after the grace period computers play every seat
        end = time.monotonic() + 60
        while not all(seat["flagged"] for seat in online["seats"]):
            assert time.monotonic() < end, online
            time.sleep(0.3)
            online = state(base, t)["rounds"][0]["tables"][1]
        sheet_id, key = real["sheet"].removeprefix("/tafel#").split(".", 1)
        for _ in range(3):
            hand = {"contract": 0, "chooser": 0, "points": 120, "team": 0}
            assert http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand)[0] == 201
        s = wait_for(base, t, "finished")
        assert standings_points(s) == recompute(db, t["id"])
        assert [seat["flagged"] for seat in s["rounds"][0]["tables"][1]["seats"]] == [True] * 4
