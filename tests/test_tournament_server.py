"""Tournaments on a real server: entries, rounds, standings recomputed from the SQLite file,
real-card tables with corrections in the audit log, kill -9 mid-round."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.sync.client import connect as ws_connect

from chibre.game import CHANCE, Game
from chibre.notation import record_from_dict
from chibre.rules import MAX_TARGET, Rules
from chibre.scoresheet import ScoreSheet
from chibre.server.store import decode_entry
from chibre.tournament import COMPUTER
from chibre.tournament.fairdeal import verify
from server_support import (
    create_table,
    http_json,
    opened,
    running_server,
    start_server,
    stop_server,
    ws_url,
)

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
                game = Game(table_rules(c, ref, rules))
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


def table_rules(c: sqlite3.Connection, ref: str, rules: str) -> Rules:
    """A stored table's rules as its game plays them: a Passe (``table_terms``) never reaches
    a target."""
    terms = c.execute("SELECT hands FROM table_terms WHERE table_id = ?", (ref,)).fetchone()
    played = Rules.from_json(rules)
    return played.replace(target=MAX_TARGET) if terms and terms[0] else played


def hand_points(c: sqlite3.Connection, ref: str, rules: str) -> list[tuple[int, int]]:
    """Each complete hand's points of a stored table, replayed from its record."""
    game = Game(table_rules(c, ref, rules))
    for seat, text in c.execute(
        "SELECT seat, entry FROM game_entries WHERE table_id = ? ORDER BY n", (ref,)
    ):
        game.apply(decode_entry(seat, text), None if seat == CHANCE else seat)
    return [h.score().totals for h in game.hands if h.is_over]


def recompute_duplicate(db: Path, tid: str) -> dict[str, float]:
    """Each entry's duplicate result, from the stored draws and records alone: per round and
    deal, a team's points minus the mean of the other teams that held the same cards (at the
    even tables the cards of seats 0 and 2 are held by seats 1 and 3)."""
    result: dict[str, float] = defaultdict(float)
    with opened(db) as c:
        entry_of: dict[str, str] = {}
        for eid, members in c.execute(
            "SELECT id, members FROM tournament_entries WHERE tournament_id = ?", (tid,)
        ):
            entry_of.update({m["id"]: eid for m in json.loads(members)})
        for r, draw in c.execute(
            "SELECT round, draw FROM tournament_rounds WHERE tournament_id = ?", (tid,)
        ).fetchall():
            held: dict[tuple[int, int], list[tuple[set[str], int]]] = defaultdict(list)
            plays = []
            for table in json.loads(draw):
                (ref,) = c.execute(
                    "SELECT ref FROM tournament_tables WHERE tournament_id = ? AND round = ? "
                    "AND number = ?",
                    (tid, r, table["table"]),
                ).fetchone()
                (rules,) = c.execute(
                    "SELECT rules FROM game_tables WHERE id = ?", (ref,)
                ).fetchone()
                plays.append((table, hand_points(c, ref, rules)))
            deals = min(len(points) for _, points in plays)
            for table, points in plays:
                seats = table["seats"]
                for team in (0, 1):
                    who = {entry_of[p] for p in (seats[team], seats[team + 2]) if p != COMPUTER}
                    cards = team if table["table"] % 2 else 1 - team
                    for k in range(deals):
                        held[k, cards].append((who, points[k][team]))
            for scores in held.values():
                for n, (who, made) in enumerate(scores):
                    others = [m for i, (_, m) in enumerate(scores) if i != n]
                    for eid in who:
                        result[eid] += made - sum(others) / len(others)
    return dict(result)


def moves_of(db: Path, table_id: str, seat: int) -> int:
    """How many actions of ``seat`` the table's stored record holds."""
    with opened(db) as c:
        (n,) = c.execute(
            "SELECT COUNT(*) FROM game_entries WHERE table_id = ? AND seat = ?", (table_id, seat)
        ).fetchone()
    return int(n)


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
            assert len(fillers) == 3  # no name of their own: the pages name them by level
            assert all((f["name"], f["kind"]) == ("", "rule") for f in fillers)
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
            csv_bytes = r.read()
        assert csv_bytes.startswith(b"\xef\xbb\xbf")  # UTF-8 said to spreadsheets: Zürich
        csv_text = csv_bytes.decode("utf-8-sig")
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
        fixed = {"hands": 2, "duplicate": True, "options": {"first_chooser": "first_seat"}}
        status, answer = http_json(base, "/api/tournaments", fixed)  # cannot turn with the cards
        assert status == 400 and "not first_seat" in answer["error"], answer
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
        for blank in ("", "   ", "\u00a0", "\u2028"):  # nothing a page could show
            status, answer = http_json(
                base, f"/api/tournaments/{tid}/entries?code={t['code']}", {"name": blank}
            )
            assert status == 400 and answer["field"] == "name", (blank, answer)
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
        status, _ = enter(base, t, " Beat\u2028 Meier ")  # one line, as it is shown
        assert status == 201
        entries = {e["name"]: e for e in state(base, t)["entries"]}
        assert entries["Anna"]["status"] == "withdrawn" and "Late" not in entries
        assert "Beat Meier" in entries


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
                if status == 400 and answer.get("field") == "schneider":
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
        assert status == 400 and answer["error"].startswith("say what to correct"), answer
        corrections = f"/api/tournaments/{t['id']}/corrections?key={t['key']}"
        whole = {"contract": 0, "points": 1}
        for body in (
            {"round": 1, "table": 1, "hand": 2, "entry": whole, "team": 1},
            {"round": 1, "table": 1, "hand": 2, "points": 110, "team": 1, "match": True},
        ):
            status, answer = http_json(base, corrections, body)
            assert status == 400 and "match" in answer["error"], answer
        # the sheet's own refusal, in the page's language
        status, answer = http_json(base, corrections, body, lang="de-CH")
        assert status == 400 and answer["error"].startswith("bei einem Match hat Team"), answer
        assert state(base, t)["audit"] == audit  # a refused correction changes nothing
        # the scorer wrote 110 for the wrong team: the organiser gives the other team's 47
        flip = {"round": 1, "table": 1, "hand": 2, "points": 47, "team": 1, "reason": "theirs"}
        status, answer = http_json(base, corrections, flip)
        assert status == 200, answer
        assert (answer["before"]["team"], answer["after"]["team"]) == (0, 1)
        assert answer["after"]["points"] == 47
        assert state(base, t)["rounds"][0]["tables"][0]["totals"] == [310, 161]
        match = {"round": 1, "table": 1, "hand": 3, "points": 157, "team": 0, "match": True}
        status, answer = http_json(base, corrections, match)
        assert status == 200, answer
        assert answer["after"]["match"] == 0
        assert state(base, t)["rounds"][0]["tables"][0]["totals"] == [467, 104]
        # and back, the organiser saying (as the scorer had) that it was no Schneider
        back = {"round": 1, "table": 1, "hand": 3, "points": 100, "schneider": False}
        status, answer = http_json(base, corrections, back)
        assert status == 200, answer
        assert answer["after"]["schneider"] is False and answer["after"]["match"] is None
        assert state(base, t)["rounds"][0]["tables"][0]["totals"] == [310, 161]
        assert standings_points(state(base, t)) == recompute(db, t["id"])


def seen_by_tournament(base: str, t: dict[str, Any], hands: int) -> dict[str, Any]:
    """The state once the tournament has seen the scorers' first ``hands`` hands of table 1."""
    end = time.monotonic() + 30
    while True:
        s = state(base, t)
        seen = {n for a in s["audit"] if a["who"] == "scorer" for n in a["hands"]}
        if set(range(1, hands + 1)) <= seen:
            return s
        assert time.monotonic() < end, s["audit"]
        time.sleep(0.3)


def striche_of(s: dict[str, Any]) -> tuple[list[int], dict[str, int]]:
    """Table 1's Striche, and each player's score in the standings (counted in Striche)."""
    return s["rounds"][0]["tables"][0]["striche"], {x["name"]: x["score"] for x in s["standings"]}


def test_the_organiser_corrects_a_schneider(tmp_path: Path) -> None:
    """The Schneider of the hand that ends a game, corrected with the hand's points or alone
    (the hand kept as entered); refusals say why, in the page's language, and change
    nothing."""
    with running_server(tmp_path) as base:
        t = create(base, options=SHORT, rounds=1, real_tables=1, scoring="striche")
        for n in range(4):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        table = state(base, t)["rounds"][0]["tables"][0]
        winners = {table["seats"][0]["name"], table["seats"][2]["name"]}
        sheet_id, key = table["sheet"].removeprefix("/tafel#").split(".", 1)
        hands: list[dict[str, Any]] = [
            {"contract": 0, "chooser": 0, "points": 100, "team": 0},
            {"contract": 0, "chooser": 0, "points": 100, "team": 0},
            {"contract": 0, "chooser": 0, "match": 0},  # 457:114, the losers under 150
        ]
        for hand in hands:
            status, answer = http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand)
            assert status == 201, answer
        s = seen_by_tournament(base, t, 3)
        # Bergpreis 1, Match 1, Sieg 2, Schneider 2
        names = {x["name"] for x in s["standings"]}
        assert len(names) == 4 and winners < names
        assert striche_of(s) == ([6, 0], {n: 6 if n in winners else 0 for n in names})
        corrections = f"/api/tournaments/{t['id']}/corrections?key={t['key']}"

        def unchanged() -> None:
            assert state(base, t)["audit"] == s["audit"]  # a refused correction changes nothing
            assert striche_of(state(base, t)) == striche_of(s)
            assert http_json(base, f"/api/sheets/{sheet_id}?key={key}")[1]["hands"] == sheet

        sheet = http_json(base, f"/api/sheets/{sheet_id}?key={key}")[1]["hands"]
        # no match after all, 100 points: the sheet cannot tell whether it is Schneider, and
        # asks as it asks the scorer, in the page's language
        no_match = {"round": 1, "table": 1, "hand": 3, "points": 100}
        for lang, said in (
            ("en", "hand 3 ends the game, and the sheet cannot tell whether the losers had "),
            ("de-CH", "Spiel 3 beendet die Partie, und das Jassblatt kann nicht sagen, ob "),
            ("fr-CH", "la donne 3 termine la partie, et la feuille ne peut pas dire si "),
        ):
            status, answer = http_json(base, corrections, no_match, lang=lang)
            assert status == 400 and answer["error"].startswith(said), answer
            assert answer["field"] == "schneider"
        # the same hand corrected whole: the same question
        entry = {"contract": 0, "chooser": 0, "points": 100, "team": 0}
        status, answer = http_json(
            base, corrections, {"round": 1, "table": 1, "hand": 3, "entry": entry}, lang="fr"
        )
        assert status == 400 and answer["field"] == "schneider", answer
        assert answer["error"] == (
            "la donne 3 termine la partie, et la feuille ne peut pas dire si les perdants "
            "avaient atteint la moitié du but (150) à ce moment (ils avaient entre 114 et "
            "171)\u00a0: dites si c’est Schneider"
        )
        unchanged()
        # the Schneider on a hand that does not end the game
        status, answer = http_json(
            base, corrections, {"round": 1, "table": 1, "hand": 2, "schneider": True}, lang="de"
        )
        assert status == 400 and "beendet die Partie nicht" in answer["error"], answer
        # no Schneider where the match left the losers at 114
        wrong = {
            "round": 1,
            "table": 1,
            "hand": 3,
            "points": 157,
            "match": True,
            "schneider": False,
        }
        status, answer = http_json(base, corrections, wrong, lang="fr")
        assert status == 400 and answer["error"].endswith("c’est Schneider"), answer
        # the team or the match are corrected with the points only
        for body in (
            {"round": 1, "table": 1, "hand": 3, "schneider": True, "team": 1},
            {"round": 1, "table": 1, "hand": 3, "schneider": True, "match": True},
        ):
            status, answer = http_json(base, corrections, body, lang="de")
            assert status == 400 and answer["field"] == "points", answer
            assert answer["error"] == (
                "Team und Match werden mit den Punkten des Spiels korrigiert: "
                "gib auch die Punkte an"
            )
        # a Schneider at tables that count none is refused, not written without effect
        none = create(base, options={**SHORT, "striche": {"schneider": 0}}, rounds=1, real_tables=1)
        status, answer = http_json(
            base,
            f"/api/tournaments/{none['id']}/corrections?key={none['key']}",
            {"round": 1, "table": 1, "hand": 1, "schneider": True},
            lang="fr",
        )
        assert status == 400 and answer["field"] == "schneider", answer
        assert answer["error"] == "ces tables ne comptent pas de Schneider"
        # nothing said to correct: said so, not "not both"
        status, answer = http_json(base, corrections, {"round": 1, "table": 1, "hand": 3})
        assert status == 400 and answer["field"] == "points", answer
        assert answer["error"].startswith("say what to correct"), answer
        unchanged()

        status, answer = http_json(base, corrections, {**no_match, "schneider": False})
        assert status == 200, answer
        assert answer["after"]["match"] is None and answer["after"]["schneider"] is False
        s = state(base, t)
        assert striche_of(s)[0] == [3, 0]  # Bergpreis, Sieg
        # the Schneider alone: the hand kept as entered
        alone = {"round": 1, "table": 1, "hand": 3, "schneider": True, "reason": "Schneider"}
        status, answer = http_json(base, corrections, alone)
        assert status == 200, answer
        assert answer["before"] == {**answer["after"], "schneider": False}
        assert answer["after"]["points"] == 100 and answer["after"]["schneider"] is True
        s = state(base, t)
        assert s["rounds"][0]["tables"][0]["totals"] == [300, 171]
        line, scores = striche_of(s)
        assert line == [5, 0] and all(scores[n] == 5 for n in winners)
        assert [a["reason"] for a in s["audit"] if a["who"] == "organiser"] == ["", "Schneider"]
        # the stöck forgotten in hand 1: the whole hand again, the Schneider said still kept
        whole = {"contract": 0, "chooser": 0, "points": 100, "team": 0, "stoeck": 0}
        status, answer = http_json(
            base, corrections, {"round": 1, "table": 1, "hand": 1, "entry": whole}
        )
        assert status == 200 and answer["after"]["stoeck"] == 0, answer
        s = state(base, t)
        assert s["rounds"][0]["tables"][0]["totals"] == [320, 171]
        assert striche_of(s)[0] == [5, 0]


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
    """A table opened with fair deals shows its commitment, and once the game is over its
    record carries the seed, which ``chibre verify`` checks against every deal."""
    args = ("--bot-delay", "0", "--deal-delay", "0.05")
    with running_server(tmp_path, *args) as base:
        body = {"seats": ["human", "rule", "rule", "rule"], "fair_deals": True}
        status, table = http_json(base, "/api/tables", body)
        assert status == 200 and table["deals"]["commitment"].startswith("sha256:")
        assert "seed" not in table["deals"]  # revealed only once the game is over
        token = table["seats"][0]["link"].split("seat=")[1]
        _, summary = http_json(base, f"/api/tables/{table['table']}?token={token}")
        assert summary["deals"] == table["deals"]
        computers = {"seats": ["rule"] * 4, "fair_deals": True, "options": {"target": 300}}
        status, played = http_json(base, "/api/tables", computers)
        assert status == 200, played
        with ws_connect(ws_url(base, played["watch"]), max_queue=None) as ws:  # watched, it plays
            end = time.monotonic() + 60
            frame = json.loads(ws.recv(timeout=10))
            while not (frame.get("type") == "state" and frame["table"]["status"] == "finished"):
                assert time.monotonic() < end, frame
                frame = json.loads(ws.recv(timeout=10))
        watch = played["watch"].split("watch=")[1]
        url = f"{base}/api/tables/{played['table']}/record?format=json&watch={watch}"
        with urllib.request.urlopen(url) as r:
            document = json.loads(r.read())
        deals = document["deals"]
        assert deals["commitment"] == played["deals"]["commitment"] and deals["seed"]
        saved = tmp_path / "record.json"
        saved.write_text(json.dumps(document))
        checked = subprocess.run(
            [sys.executable, "-m", "chibre.cli", "verify", str(saved), "--commitment",
             played["deals"]["commitment"]],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert verify(record_from_dict(document), deals) == []
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


def test_a_duplicate_passe_online(tmp_path: Path) -> None:
    """Eight computer players, two rounds of duplicate Passe of three hands: both tables of a
    round play the same deals, turned at table 2; the seed is revealed when the round is over;
    the standings compare deal by deal, as recomputed from the stored records."""
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, "--bot-delay", "0", "--deal-delay", "0.05", db=db) as base:
        t = create(base, name="Duplicate", rounds=2, hands=3, duplicate=True, auto=True)
        for n in range(8):
            assert enter(base, t, f"Bot {n + 1}", kind="rule")[0] == 201
        status, _ = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        assert status == 201
        end = time.monotonic() + 120
        while not (s := state(base, t))["finished"]:
            assert time.monotonic() < end, s
            for rnd in s["rounds"]:
                tables = rnd["tables"]
                if not all(table["done"] for table in tables):  # a shared seed waits
                    assert all("seed" not in table["deals"] for table in tables)
                    watched = state(base, t, code=t["code"])["rounds"][rnd["round"] - 1]
                    if not all(table["done"] for table in watched["tables"]):  # still so
                        assert all("watch" not in table for table in watched["tables"])
            time.sleep(0.05)
        assert s["hands"] == 3 and s["duplicate"] is True
        for rnd in s["rounds"]:
            first, second = rnd["tables"]
            assert (first["turned"], second["turned"]) == (False, True)
            assert first["hands"] == second["hands"] == 3 and first["done"] and second["done"]
            assert first["deals"]["seed"] == second["deals"]["seed"]
            assert first["deals"]["commitment"] == second["deals"]["commitment"]
            assert second["deals"]["turned"] is True
            records = []
            for table in (first, second):
                table_id = table["watch"].split("/t/")[1].split("?")[0]
                watch = table["watch"].split("watch=")[1]
                status, record = http_json(
                    base, f"/api/tables/{table_id}/record?format=json&watch={watch}"
                )
                assert status == 200
                records.append(record_from_dict(record))
                assert verify(records[-1], table["deals"]) == []
                _, summary = http_json(base, f"/api/tables/{table_id}?watch={watch}")
                assert summary["passe"] == 3 and summary["deals"] == table["deals"]
                assert summary["tournament"]["link"] == t["join"]
            deals = [[e for seat, e in r.entries if seat == CHANCE] for r in records]
            for a, b in zip(*deals, strict=True):  # table 2 holds the cards turned
                assert b.hands == (a.hands[1], a.hands[2], a.hands[3], a.hands[0])
        # the standings: the duplicate comparison, recomputed from the stored records alone
        scores = {line["entrant"]: line["score"] for line in s["standings"]}
        expected = recompute_duplicate(db, t["id"])
        assert scores.keys() == expected.keys()
        assert all(abs(scores[e] - expected[e]) < 1e-6 for e in scores), (scores, expected)
        assert abs(sum(scores.values())) < 1e-6  # a duplicate round adds up to zero
        assert standings_points(s) == recompute(db, t["id"])
        ranked = [line["score"] for line in s["standings"]]
        assert ranked == sorted(ranked, reverse=True)


def test_a_shared_deal_table_s_replay_is_shared_once_the_round_is_over(tmp_path: Path) -> None:
    """At a duplicate round the other table plays the same deals: a player whose game is over
    is not given the spectators' token (its summary, the lobby's list of its games) before the
    round is over at every table — "share later" —, then ``share`` opens the replay as a
    spectator."""
    with running_server(tmp_path, "--bot-delay", "0", "--deal-delay", "0") as base:
        t = create(base, name="Duplicate", rounds=1, hands=1, duplicate=True, grace=5)
        for n in range(8):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        status, _ = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        assert status == 201
        first, second = state(base, t)["rounds"][0]["tables"]
        # the second table's players are all there and none of them moves: it waits
        with ExitStack() as waiting:
            for seat in second["seats"]:
                waiting.enter_context(ws_connect(ws_url(base, seat["link"])))
            link = first["seats"][0]["link"]  # no one came: computers play it after 5 s
            table_id, token = link.split("/t/")[1].split("?seat=")
            held = {"seats": [{"table": table_id, "token": token}]}
            end = time.monotonic() + 60
            while not (summary := http_json(base, f"/api/tables/{table_id}?token={token}")[1])[
                "finished"
            ]:
                assert summary["share"] is None and "share_later" not in summary
                assert time.monotonic() < end, summary
                time.sleep(0.2)
            _, listed = http_json(base, "/api/history", held)
            for told in (summary, listed["games"][0]):
                assert told["share"] is None and told["share_later"] is True
            assert "watch=" not in json.dumps([summary, listed])
            assert not state(base, t)["round_over"]
        # the second table's players gone: after the grace period computers finish the round
        s = wait_for(base, t, "round_over")
        watch = s["rounds"][0]["tables"][0]["watch"].split("watch=")[1]
        share = f"/t/{table_id}?watch={watch}&replay=1"
        _, summary = http_json(base, f"/api/tables/{table_id}?token={token}")
        _, listed = http_json(base, "/api/history", held)
        for told in (summary, listed["games"][0]):
            assert told["share"] == share and "share_later" not in told
        _, watched = http_json(base, f"/api/tables/{table_id}?watch={watch}")
        assert watched["you"]["spectator"] and watched["deals"]["seed"]
        status, record = http_json(base, f"/api/tables/{table_id}/record?format=json&watch={watch}")
        assert status == 200 and verify(record_from_dict(record), watched["deals"]) == []


def test_passe_and_duplicate_refusals(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        for body, field in (
            ({"duplicate": True}, "hands"),  # duplicate rounds are a Passe
            ({"hands": 12, "scoring": "striche"}, "scoring"),
            ({"hands": 101}, "hands"),
            ({"hands": 6, "duplicate": True, "real_tables": 1}, "real_tables"),
            ({"move_limit": -1}, "move_limit"),
            ({"grace": 0}, "grace"),
        ):
            status, answer = http_json(base, "/api/tournaments", body)
            assert status == 400, (body, answer)
            assert answer["error"] and answer["field"] == field, answer
        # a duplicate round needs two tables: four players are refused, and nothing is drawn
        t = create(base, hands=2, duplicate=True)
        for n in range(4):
            assert enter(base, t, f"Bot {n + 1}", kind="rule")[0] == 201
        status, answer = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        assert status == 400 and "two tables" in answer["error"]
        assert state(base, t)["rounds"] == []


def test_the_organisers_time_limits(tmp_path: Path) -> None:
    """A tournament's grace (1 s, the server's 60) replaces a player who does not come, and
    its move limit (1 s) lets the computer play for a player who is seated but does not move
    — the seat stays theirs. Both are kept in the file: a restart keeps them."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db, "--grace", "60", "--bot-delay", "0", "--deal-delay", "0.1")
    try:
        t = create(base, options=SHORT, rounds=1, grace=1, move_limit=1.5)
        for n in range(4):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        s = state(base, t)
        assert (s["grace"], s["move_limit"]) == (1, 1.5)
        table = s["rounds"][0]["tables"][0]
        link = table["seats"][0]["link"]
        table_id, token = link.split("/t/")[1].split("?seat=")
        _, summary = http_json(base, f"/api/tables/{table_id}?token={token}")
        assert (summary["grace"], summary["move_limit"]) == (1, 1.5)
        assert summary["tournament"]["link"].startswith(f"/tournament/{t['id']}?player=")
        assert summary["you"]["seat"] == 0 and "links" not in summary  # the others' are theirs
        with ws_connect(ws_url(base, link), max_queue=None) as ws:  # seated, never moves
            # every state says when the computer makes the move awaited from a player
            frame = json.loads(ws.recv(timeout=10))
            until = frame["table"]["move_until"]
            assert until is None or until - time.time() <= 1.5
            # the three players who never came are replaced after the tournament's 1 s
            end = time.monotonic() + 30
            while sum(seat["flagged"] for seat in table["seats"]) < 3:
                assert time.monotonic() < end, table
                time.sleep(0.2)
                table = state(base, t)["rounds"][0]["tables"][0]
            assert not table["seats"][0]["flagged"]
            # seat 0 does not move: past 1.5 s the computer moves for it, and it stays theirs
            while not moves_of(db, table_id, seat=0):
                assert time.monotonic() < end, "nobody moved for the seated player"
                time.sleep(0.2)
            seat = state(base, t)["rounds"][0]["tables"][0]["seats"][0]
            assert seat["connected"] and not seat["flagged"]
            timed = []
            while len(timed) < 3:  # the computer players move at once: no limit for them
                frame = json.loads(ws.recv(timeout=10))
                if frame.get("type") == "state" and frame["view"].get("to_act") == 0:
                    timed.append(frame["table"]["move_until"])
            assert all(isinstance(u, float) for u in timed), timed
            _, summary = http_json(base, f"/api/tables/{table_id}?token={token}")
            assert summary["seats"][0]["bot"] is False
        process.send_signal(signal.SIGKILL)
        process.wait()
        process, base = start_server(db, "--grace", "60")
        _, summary = http_json(base, f"/api/tables/{table_id}?token={token}")
        assert (summary["grace"], summary["move_limit"]) == (1, 1.5)
    finally:
        stop_server(process)


def test_a_real_card_passe_refuses_a_hand_after_its_last(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, db=db) as base:
        t = create(base, rounds=1, hands=2, real_tables=1)
        for n in range(4):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        (real,) = state(base, t)["rounds"][0]["tables"]
        assert real["kind"] == "cards"
        sheet_id, key = real["sheet"].removeprefix("/tafel#").split(".", 1)
        hands = f"/api/sheets/{sheet_id}/hands?key={key}&lang=en"
        for points in (100, 60):
            hand = {"contract": 0, "chooser": 0, "points": points, "team": 0}
            assert http_json(base, hands, hand)[0] == 201
        _, before = http_json(base, f"/api/sheets/{sheet_id}?key={key}")
        third = {"contract": 1, "chooser": 1, "points": 80, "team": 1}
        status, answer = http_json(base, hands, third)
        assert status == 400 and "the Passe of 2 hands is complete" in answer["error"], answer
        _, after = http_json(base, f"/api/sheets/{sheet_id}?key={key}")
        assert after == before and len(after["hands"]) == 2  # nothing changed
        s = wait_for(base, t, "finished")
        assert s["rounds"][0]["tables"][0]["totals"] == before["totals"]
        # the hands of the Passe may still be corrected, by the scorer and by the organiser
        status, _ = http_json(
            base,
            f"/api/tournaments/{t['id']}/corrections?key={t['key']}",
            {"round": 1, "table": 1, "hand": 2, "points": 70, "reason": "miscounted"},
        )
        assert status == 200
        assert state(base, t)["rounds"][0]["tables"][0]["totals"] == [170, 144]
        assert http_json(base, hands, third)[0] == 400  # and the Passe stays complete


def test_a_tournament_table_offers_no_rematch(tmp_path: Path) -> None:
    """A friendly table plays another game on asking; a tournament's table refuses: its
    players go back to the tournament, and no game outside it is opened."""
    db = tmp_path / "chibre.sqlite"
    args = ("--bot-delay", "0", "--deal-delay", "0.05")
    with running_server(tmp_path, *args, db=db) as base:
        friendly = create_table(base, options={"claim": "thank"})
        with ws_connect(ws_url(base, friendly["seats"][0]["link"]), max_queue=None) as ws:
            assert json.loads(ws.recv(timeout=10))["table"]["rematch"] is True
        t = create(base, rounds=1, hands=1, grace=1, move_limit=0.2)
        for n in range(4):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        link = state(base, t)["rounds"][0]["tables"][0]["seats"][0]["link"]
        table_id = link.split("/t/")[1].split("?")[0]
        with ws_connect(ws_url(base, link), max_queue=None) as ws:
            frame = json.loads(ws.recv(timeout=10))
            assert frame["table"]["rematch"] is False  # the page shows no "Rematch"
            ws.send(json.dumps({"type": "rematch"}))  # nor before the end
            while frame.get("type") != "error":
                frame = json.loads(ws.recv(timeout=10))
            assert frame["code"] == "tournament_rematch"
            end = time.monotonic() + 60  # the computer plays for every seat: one hand
            while not (frame.get("type") == "state" and frame["table"]["status"] == "finished"):
                assert time.monotonic() < end, frame
                frame = json.loads(ws.recv(timeout=10))
            ws.send(json.dumps({"type": "language", "lang": "de"}))
            ws.send(json.dumps({"type": "rematch"}))
            while frame.get("type") != "error":
                frame = json.loads(ws.recv(timeout=10))
            assert frame["code"] == "tournament_rematch"
            assert "keine Revanche" in frame["message"] and "Turnier" in frame["message"]
        token = link.split("seat=")[1]
        _, summary = http_json(base, f"/api/tables/{table_id}?token={token}")
        assert summary["finished"] and summary["tournament"]["link"]
        with opened(db) as c:  # no other game was opened: the friendly table and this one
            assert c.execute("SELECT COUNT(*) FROM game_tables").fetchone() == (2,)


def refuse_writes_to(db: Path, table: str) -> None:
    """From now on SQLite refuses every new row of ``table``, as a full disk would."""
    with sqlite3.connect(db) as c:
        c.execute(
            f"CREATE TRIGGER refused_{table} BEFORE INSERT ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
        )


def allow_writes_to(db: Path, table: str) -> None:
    with sqlite3.connect(db) as c:
        c.execute(f"DROP TRIGGER refused_{table}")


def test_a_table_is_stored_with_its_link_or_not_at_all(tmp_path: Path) -> None:
    """A round's table whose link cannot be stored is not kept either (it would be a table
    no round knows, played on every start); the tournament opens it once it can."""
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, "--bot-delay", "0.05", db=db) as base:
        t = create(base, options=SHORT, rounds=1, real_tables=1)
        for n in range(8):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        refuse_writes_to(db, "tournament_tables")
        status, answer = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        assert status == 503, answer
        with sqlite3.connect(db) as c:
            assert c.execute("SELECT COUNT(*) FROM table_terms").fetchone() == (0,)
            assert c.execute("SELECT COUNT(*) FROM score_sheets").fetchone() == (0,)
        allow_writes_to(db, "tournament_tables")
        end = time.monotonic() + 30
        while not all(table["kind"] for table in state(base, t)["rounds"][0]["tables"]):
            assert time.monotonic() < end, state(base, t)["rounds"]
            time.sleep(0.3)
        tables = state(base, t)["rounds"][0]["tables"]
        assert [table["kind"] for table in tables] == ["cards", "online"]
        with sqlite3.connect(db) as c:
            stored = c.execute("SELECT table_id FROM table_terms").fetchall()
            sheets = c.execute("SELECT id FROM score_sheets").fetchall()
            links = c.execute("SELECT kind, ref FROM tournament_tables ORDER BY number").fetchall()
        assert links == [("cards", sheets[0][0]), ("online", stored[0][0])]
    said = db.with_suffix(".log").read_text()
    assert said.count("table 1 of round 1 is not open yet") == 1, said  # once, not every look


def test_a_correction_is_kept_with_its_line_in_the_log_or_not_at_all(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, db=db) as base:
        t = create(base, options=SHORT, rounds=1, real_tables=1)
        for n in range(4):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        link = state(base, t)["rounds"][0]["tables"][0]["sheet"]
        sheet_id, key = link.removeprefix("/tafel#").split(".", 1)
        hand = {"contract": 0, "chooser": 0, "points": 100, "team": 0}
        status, _ = http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand)
        assert status == 201
        end = time.monotonic() + 30
        while not state(base, t)["audit"]:  # the tournament has seen the scorer's hand
            assert time.monotonic() < end
            time.sleep(0.3)
        correction = {"round": 1, "table": 1, "hand": 1, "points": 30, "reason": "miscounted"}
        refuse_writes_to(db, "tournament_audit")
        status, answer = http_json(
            base, f"/api/tournaments/{t['id']}/corrections?key={t['key']}", correction
        )
        assert status == 503, answer
        status, sheet = http_json(base, f"/api/sheets/{sheet_id}?key={key}")
        assert status == 200 and sheet["hands"][0]["points"] == 100
        allow_writes_to(db, "tournament_audit")
        status, answer = http_json(
            base, f"/api/tournaments/{t['id']}/corrections?key={t['key']}", correction
        )
        assert status == 200, answer
        time.sleep(2.5)  # ticks that would log the change again as the scorer's
        audit = state(base, t)["audit"]
        assert [(a["who"], a["hands"]) for a in audit] == [("scorer", [1]), ("organiser", [1])]
        assert audit[1]["before"]["points"] == 100 and audit[1]["after"]["points"] == 30


def test_nobody_plays_a_computer_s_cards_at_a_real_card_table(tmp_path: Path) -> None:
    """The real-card tables go to tables of four people where the round has them; a table
    drawn with a computer seat (a bye's) is played online, whatever its number."""
    with running_server(tmp_path) as base:
        for players, real in ((5, 1), (9, 1), (10, 1), (10, 2), (13, 2)):
            t = create(base, options=SHORT, rounds=2, real_tables=real)
            for n in range(players):
                assert enter(base, t, f"P{n + 1}")[0] == 201
            status, _ = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
            assert status == 201
            tables = state(base, t)["rounds"][0]["tables"]
            assert [table["table"] for table in tables] == list(range(1, len(tables) + 1))
            people = [not any(s["computer"] for s in table["seats"]) for table in tables]
            cards = [table["kind"] == "cards" for table in tables]
            assert not any(c and not p for c, p in zip(cards, people, strict=True)), tables
            assert sum(cards) == min(real, sum(people)), (players, real, people, cards)
            assert not any(cards[real:])  # the tables the organiser set out for real cards


def test_the_tournament_s_refusals_in_the_page_s_language(tmp_path: Path) -> None:
    def post_as(base: str, path: str, body: dict[str, Any], lang: str) -> tuple[int, str]:
        request = urllib.request.Request(
            f"{base}{path}",
            data=json.dumps(body).encode(),
            headers={
                "Content-Type": "application/json",
                **({"Accept-Language": lang} if lang else {}),
            },
        )
        try:
            with urllib.request.urlopen(request) as r:
                return r.status, ""
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())["error"]

    with running_server(tmp_path) as base:
        # the form's refusals, the field named by its path and as the form names it
        for body, lang, said in (
            ({"rounds": 0}, "de-CH", "rounds (Runden): mindestens 1, nicht 0"),
            (
                {"options": {"target": 0}},
                "fr",
                "options.target (Objectif)\u00a0: au moins 1, pas 0",
            ),
            ({"options": {"foo": 1}}, "de", "options.foo: unbekanntes Feld"),
            ({"move_limit": 700}, "fr", "move_limit (Temps par coup)\u00a0: au plus 600, pas 700"),
            ({"rounds": 0}, "", "rounds: at least 1, not 0"),
        ):
            assert post_as(base, "/api/tournaments", body, lang) == (400, said), body
        with sqlite3.connect(tmp_path / "chibre.sqlite") as db:
            assert db.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0
        t = create(base, options=SHORT, rounds=1)
        entries = f"/api/tournaments/{t['id']}/entries?code={t['code']}"
        assert post_as(base, entries, {"name": "Aline"}, "fr-CH")[0] == 201
        assert post_as(base, entries, {"name": "  "}, "de") == (
            400,
            "name: ein Name braucht mindestens einen Buchstaben",
        )
        status, said = post_as(base, entries, {"name": "aline"}, "fr-CH")
        assert status == 400 and said.startswith("«\u00a0aline\u00a0» est déjà inscrit"), said
        said = post_as(base, entries, {"name": "Aline"}, "de-CH")[1]
        assert said.startswith("„Aline“ ist schon angemeldet"), said
        assert "is already entered" in post_as(base, entries, {"name": "Aline"}, "en")[1]
        for n in range(3):
            assert enter(base, t, f"P{n}")[0] == 201
        rounds = f"/api/tournaments/{t['id']}/rounds?key={t['key']}"
        assert post_as(base, rounds, {}, "en")[0] == 201
        status, said = post_as(base, entries, {"name": "Late"}, "de-CH")
        assert status == 400 and said.startswith("alle Runden sind ausgelost"), said
        close = f"/api/tournaments/{t['id']}/rounds/1/tables/9/close?key={t['key']}"
        assert post_as(base, close, {}, "fr") == (400, "le tour 1 n'a pas de table 9 ouverte")


def test_time_called_on_an_unfinished_table(tmp_path: Path) -> None:
    """The organiser closes a table that would not finish: it counts at the score it stood
    at, with no winner, and the next round may be drawn; later hands change nothing."""
    with running_server(tmp_path, "--bot-delay", "0.05") as base:
        t = create(base, options={"target": 5000}, rounds=2, real_tables=1)
        for n in range(8):
            assert enter(base, t, f"P{n + 1}")[0] == 201
        http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        tables = state(base, t)["rounds"][0]["tables"]
        cards = next(table for table in tables if table["kind"] == "cards")
        sheet_id, key = cards["sheet"].removeprefix("/tafel#").split(".", 1)
        hand = {"contract": 0, "chooser": 0, "points": 100, "team": 0}
        assert http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand)[0] == 201
        close = f"/api/tournaments/{t['id']}/rounds/1/tables/{{}}/close"
        status, answer = http_json(base, close.format(cards["table"]) + f"?code={t['code']}", {})
        assert status == 403, answer  # the organiser's alone
        for table in tables:
            status, answer = http_json(base, close.format(table["table"]) + f"?key={t['key']}", {})
            assert status == 200, answer
        s = state(base, t)
        closed = {table["table"]: table for table in s["rounds"][0]["tables"]}
        assert all(table["done"] and table["closed"] for table in closed.values())
        assert (
            closed[cards["table"]]["totals"] == [100, 57] and closed[cards["table"]]["winner"] == -1
        )
        assert s["round_over"]
        status, answer = http_json(base, close.format(cards["table"]) + f"?key={t['key']}", {})
        assert status == 400 and "over already" in answer["error"]
        assert http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand)[0] == 201
        time.sleep(1.5)  # the tournament looks at its sheets every second
        later = state(base, t)

        def results(of: dict[str, Any]) -> list[tuple[Any, ...]]:
            fields = ("totals", "striche", "winner", "done")
            return [tuple(table[f] for f in fields) for table in of["rounds"][0]["tables"]]

        assert results(later) == results(s)
        assert later["standings"] == s["standings"]
        status, _ = http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})
        assert status == 201


LEVEL_NAMES = {"de": "mittel", "fr": "moyen", "en": "medium"}
"""The tournament level "medium" as a seat's name, in each language."""


def named_by_level(seats: list[dict[str, Any]], lang: str) -> list[str]:
    """A table's four names as a spectator is told them: the entrants' own; the computers
    that fill the table by the level's name, numbered by seat when there are two or more."""
    fillers = sum(s["filler"] for s in seats)
    level = LEVEL_NAMES[lang]
    return [
        (f"{level} ({s['seat'] + 1})" if fillers > 1 else level) if s["filler"] else s["name"]
        for s in seats
    ]


def sheet_names(base: str, table_id: str, watch: str, lang: str) -> tuple[list[str], str]:
    """The four seats' names heading a spectator's game sheet in ``lang``, and the sheet."""
    with urllib.request.urlopen(
        f"{base}/api/tables/{table_id}/sheet?watch={watch}&lang={lang}"
    ) as r:
        html = r.read().decode()
    head = re.findall(r"<th>([^<]*)</th>", html.split("</thead>")[0])
    return head[1:5], html


def test_a_tournament_table_s_computers_are_named_by_their_level(tmp_path: Path) -> None:
    """Five entries — two people who never come, three computer entrants — leave three seats
    to the tournament's computers: the tables, their game sheets and the tournament name them
    by their level ("mittel", "moyen (3)"), as at any table; an entrant keeps its own name."""
    with running_server(tmp_path, "--deal-delay", "0.05") as base:
        t = create(base, format="evening", rounds=1, level="medium", hands=2, grace=1)
        for name in ("Anna", "Köbi"):
            assert enter(base, t, name)[0] == 201
        for name, kind in (("Bot1", "medium"), ("Beat", "medium"), ("Robi", "rule")):
            assert enter(base, t, name, kind=kind)[0] == 201
        assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
        s = wait_for(base, t, "finished")
        tables = s["rounds"][0]["tables"]
        fillers = [seat for table in tables for seat in table["seats"] if seat["filler"]]
        assert len(fillers) == 3
        assert all((f["name"], f["kind"], f["computer"]) == ("", "medium", True) for f in fillers)
        assert any(sum(seat["filler"] for seat in table["seats"]) > 1 for table in tables)
        for table in tables:
            table_id = table["watch"].split("/t/")[1].split("?")[0]
            watch = table["watch"].split("watch=")[1]
            seats = table["seats"]
            # the table keeps no name for them: the level is their name, as at any table
            _, summary = http_json(base, f"/api/tables/{table_id}?watch={watch}")
            stored = [(x["kind"], x["name"]) for x in summary["seats"]]
            assert stored == [
                ("medium", "medium") if x["filler"] else (x["kind"], x["name"]) for x in seats
            ]
            for lang in ("de", "fr"):
                names, html = sheet_names(base, table_id, watch, lang)
                assert names == named_by_level(seats, lang), (lang, names)
                assert "Computer" not in html and "ordinateur" not in html
                teams = f"{names[0]} &amp; {names[2]} — {names[1]} &amp; {names[3]}"
                assert teams in html
                chooser = "angesagt von" if lang == "de" else "choisi par"
                said = re.findall(rf"{chooser} ([^<·,]+)", html)
                assert said and set(said) <= {n.replace("&", "&amp;") for n in names}, said
            # the record names nobody: no "Computer" to carry into a file
            with urllib.request.urlopen(
                f"{base}/api/tables/{table_id}/record?format=json&watch={watch}"
            ) as r:
                assert "Computer" not in r.read().decode()


def test_a_file_with_computers_named_computer_reads_them_by_level(tmp_path: Path) -> None:
    """Before store version 10 the computers that fill a tournament's tables were kept with
    the name "Computer": a file of version 9 is brought up to date, and they are then named
    by their level. A computer entrant called "Computer", and a friendly table's computer
    named so by its host, keep that name."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        names = [None, "Computer", None, None]
        friendly = create_table(base, seats=["human", "rule", "rule", "rule"], names=names)
        t = create(base, format="evening", rounds=1, level="medium", hands=2, grace=600)
        for name in ("Anna", "Köbi"):
            assert enter(base, t, name)[0] == 201
        for name in ("Computer", "Bot1", "Beat"):
            assert enter(base, t, name, kind="rule")[0] == 201
        assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
        tables = state(base, t)["rounds"][0]["tables"]
    finally:
        stop_server(process)
    links = [table["watch"].split("/t/")[1].split("?watch=") for table in tables]
    with opened(db) as c:  # the file as version 9 left it
        for (table_id, _), table in zip(links, tables, strict=True):
            row = c.execute("SELECT seats FROM game_tables WHERE id = ?", (table_id,)).fetchone()
            seats = json.loads(row[0])
            for s in table["seats"]:
                if s["filler"]:
                    assert seats[s["seat"]]["name"] == "medium"
                    seats[s["seat"]]["name"] = "Computer"
            c.execute(
                "UPDATE game_tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id)
            )
        c.execute("PRAGMA user_version = 9")
    process, base = start_server(db)
    try:
        entrant = 0
        for (table_id, watch), table in zip(links, tables, strict=True):
            _, summary = http_json(base, f"/api/tables/{table_id}?watch={watch}")
            for s, stored in zip(table["seats"], summary["seats"], strict=True):
                assert stored["name"] == ("medium" if s["filler"] else s["name"])
                entrant += stored["name"] == "Computer"  # an entrant's own name
        assert entrant == 1
        watch = friendly["watch"].split("watch=")[1]
        _, other = http_json(base, f"/api/tables/{friendly['table']}?watch={watch}")
        assert other["seats"][1]["name"] == "Computer"  # the host's word for it
    finally:
        stop_server(process)
    with opened(db) as c:
        assert c.execute("PRAGMA user_version").fetchone() == (10,)


def test_a_player_is_told_a_computer_s_turn_by_where_it_sits(tmp_path: Path) -> None:
    """A computer with no name of its own (its level, as the tournament's now are) is no name
    to tell a player whose turn it is: they are told where it sits, in their language."""
    with running_server(tmp_path, "--bot-delay", "5", "--deal-delay", "0") as base:
        made = create_table(base, seats=["human", "rule", "rule", "rule"])
        with ws_connect(ws_url(base, made["seats"][0]["link"]), max_queue=None) as ws:
            ws.send(json.dumps({"type": "language", "lang": "de"}))
            frame: dict[str, Any] = {}
            end = time.monotonic() + 30
            while True:  # the player moves until a computer is to (and takes 5 s to)
                assert time.monotonic() < end, frame
                frame = json.loads(ws.recv(timeout=10))
                if frame.get("type") != "state" or frame["view"].get("to_act") is None:
                    continue
                if frame["view"]["to_act"] != 0:
                    break
                ws.send(json.dumps({"type": "act", "action": frame["view"]["legal"][0]}))
            side = ("rechts", "Partner", "links")[frame["view"]["to_act"] - 1]
            ws.send(json.dumps({"type": "act", "action": {"kind": "chibre"}}))
            while frame.get("type") != "error":
                frame = json.loads(ws.recv(timeout=10))
            assert frame["code"] == "not_your_turn", frame
            assert side in frame["message"] and "rule" not in frame["message"], frame
