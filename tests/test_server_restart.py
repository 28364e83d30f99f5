"""Killing the server (SIGKILL) in the middle of a hand loses nothing: started again on the
same SQLite file, the same hand continues with the same cards and the same trick."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path
from random import Random
from typing import Any

import websockets
from websockets.sync.client import connect as ws_connect

from chibre.notation import parse_record
from server_support import (
    create_table,
    http_json,
    printed_address,
    server_command,
    server_env,
    start_server,
    stop_server,
    wait_until_up,
    ws_url,
)

Frame = dict[str, Any]
TIMEOUT = 10


async def recv_state(ws: websockets.ClientConnection) -> Frame:
    frame: Frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    assert frame["type"] == "state", frame
    return frame


async def play_until(
    sockets: dict[int, websockets.ClientConnection], rng: Random, cards_played: int
) -> dict[int, Frame]:
    """Play random legal actions for the human seats until ``cards_played`` cards of the
    hand are on the table and a human seat is to act; returns each seat's last state."""
    last: dict[int, Frame] = {}
    acted = -1
    queue: asyncio.Queue[tuple[int, Frame]] = asyncio.Queue()

    async def reader(seat: int) -> None:
        while True:
            await queue.put((seat, await recv_state(sockets[seat])))

    readers = [asyncio.create_task(reader(s)) for s in sockets]
    try:
        while True:
            seat, frame = await asyncio.wait_for(queue.get(), TIMEOUT)
            last[seat] = frame
            view = frame["view"]
            played = sum(len(t["cards"]) for t in view["tricks"]) + len(view["trick"])
            to_act = view["to_act"]
            if (
                played >= cards_played
                and to_act in sockets
                and acted < frame["seq"]  # no action of ours is on its way
                and all(f["seq"] == frame["seq"] for f in last.values())
                and len(last) == len(sockets)
            ):
                return last
            if seat == to_act and view["legal"] and frame["seq"] > acted:
                acted = frame["seq"]
                await sockets[seat].send(
                    json.dumps({"type": "act", "action": rng.choice(view["legal"])})
                )
    finally:
        for task in readers:
            task.cancel()


def stored_entries(db: Path, table_id: str) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as c:
        return c.execute(
            "SELECT seat, entry FROM game_entries WHERE table_id = ? ORDER BY n", (table_id,)
        ).fetchall()


async def first_half(base: str) -> tuple[dict[str, Any], dict[int, Frame]]:
    t = create_table(base, ["human", "random", "human", "random"])
    links = {0: t["seats"][0]["link"], 2: t["seats"][2]["link"]}
    sockets = {s: await websockets.connect(ws_url(base, link)) for s, link in links.items()}
    last = await play_until(sockets, Random(8), cards_played=6)
    for ws in sockets.values():
        await ws.close()
    return t, last


async def second_half(
    base: str, t: dict[str, Any], before: dict[int, Frame]
) -> tuple[dict[int, Frame], list[str]]:
    links = {0: t["seats"][0]["link"], 2: t["seats"][2]["link"]}
    sockets = {s: await websockets.connect(ws_url(base, link)) for s, link in links.items()}
    again = {s: await recv_state(ws) for s, ws in sockets.items()}
    for seat in sockets:
        assert again[seat]["seq"] == before[seat]["seq"]
        assert again[seat]["view"] == before[seat]["view"]  # same cards, same trick, same turn
    # play the hand to its end: the computer seats continue too
    hand_number = again[0]["view"]["hand_number"]
    events: list[str] = []
    acted = -1
    rng = Random(9)
    queue: asyncio.Queue[tuple[int, Frame]] = asyncio.Queue()

    async def reader(seat: int) -> None:
        while True:
            await queue.put((seat, await recv_state(sockets[seat])))

    readers = [asyncio.create_task(reader(s)) for s in sockets]
    for seat, frame in again.items():
        await queue.put((seat, frame))
    try:
        while True:
            seat, frame = await asyncio.wait_for(queue.get(), TIMEOUT)
            view = frame["view"]
            if seat == 0:
                events += [e["type"] for e in frame["events"]]
                if view["hand_number"] > hand_number or view["phase"] in ("deal", "over"):
                    break
            if seat == view["to_act"] and view["legal"] and frame["seq"] > acted:
                acted = frame["seq"]
                await sockets[seat].send(
                    json.dumps({"type": "act", "action": rng.choice(view["legal"])})
                )
    finally:
        for task in readers:
            task.cancel()
        for ws in sockets.values():
            await ws.close()
    return again, events


def test_sigkill_in_the_middle_of_a_hand_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        t, before = asyncio.run(first_half(base))
        entries_before = stored_entries(db, t["table"])
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        stop_server(process)
    assert process.returncode == -signal.SIGKILL
    view = before[0]["view"]
    assert view["phase"] == "play" and len(view["hand"]) < 9
    assert len(entries_before) == before[0]["seq"]

    process, base = start_server(db)
    try:
        again, events = asyncio.run(second_half(base, t, before))
    finally:
        stop_server(process)
    assert again[0]["view"]["trick"] == view["trick"] and again[0]["view"]["hand"] == view["hand"]
    assert "HandScored" in events  # the same hand was played to its end
    entries_after = stored_entries(db, t["table"])
    assert entries_after[: len(entries_before)] == entries_before
    assert sum(1 for seat, _ in entries_after if seat == -1) >= 1
    assert sum(1 for seat, _ in entries_after[len(entries_before) :] if seat in (1, 3)) >= 1


async def finish_quickly(base: str, target: int = 100) -> dict[str, Any]:
    t = create_table(base, ["human", "random", "random", "random"], options={"target": target})
    rng = Random(10)
    async with websockets.connect(ws_url(base, t["seats"][0]["link"])) as ws:
        acted = -1
        while True:
            frame = await recv_state(ws)
            if frame["table"]["status"] == "finished":
                return t
            legal = frame["view"]["legal"]
            if legal and frame["seq"] > acted:
                acted = frame["seq"]
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)}))


def test_a_finished_game_keeps_its_record_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        t = asyncio.run(finish_quickly(base))
        token = t["seats"][0]["link"].partition("=")[2]
        path = f"/api/tables/{t['table']}/record?format=text&token={token}"
        with urllib.request.urlopen(base + path) as r:
            before = r.read().decode()
    finally:
        stop_server(process)
    process, base = start_server(db)
    try:
        with urllib.request.urlopen(base + path) as r:
            after = r.read().decode()
        status, summary = http_json(base, f"/api/tables/{t['table']}?token={token}")
    finally:
        stop_server(process)
    assert after == before and before.startswith("rules {")
    game, _ = parse_record(after).replay()
    assert game.is_over
    assert status == 200 and summary["finished"] and summary["winner"] == game.winner


def reviewed(base: str, path: str) -> dict[str, Any]:
    """The review at ``path`` once done (asked for first when it is not there)."""
    status, answer = http_json(base, path)
    if answer.get("status") == "none":
        status, answer = http_json(base, path, {})
    deadline = time.monotonic() + 120
    while answer.get("status") == "running" and time.monotonic() < deadline:
        time.sleep(0.5)
        status, answer = http_json(base, path)
    assert status in (200, 202) and answer["status"] == "done", answer
    return answer


def test_a_review_is_kept_across_a_restart(tmp_path: Path) -> None:
    """A finished game's review is made once: after a restart it is there when asked for,
    the same, and asking again does not make it anew."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        t = asyncio.run(finish_quickly(base, target=300))  # two hands at least: seat 0 decides
        token = t["seats"][0]["link"].partition("=")[2]
        path = f"/api/tables/{t['table']}/review?token={token}&lang=de"
        before = reviewed(base, path)
    finally:
        stop_server(process)
    with sqlite3.connect(db) as c:
        kept = c.execute("SELECT seats FROM game_reviews WHERE table_id = ?", (t["table"],))
        assert kept.fetchall() == [("0",)]
    process, base = start_server(db)
    try:
        status, after = http_json(base, path)
        again_status, again = http_json(base, path, {})
        watch = t["watch"].partition("watch=")[2]
        other_status, other = http_json(base, f"/api/tables/{t['table']}/review?watch={watch}")
    finally:
        stop_server(process)
    assert status == 200 and after == before
    assert before["review"]["assessments"] and before["total"] == before["done"] > 0
    assert again_status == 202 and again == before  # not made again
    # the spectators' review (all seats) is another, not asked for
    assert other_status == 200 and other == {"status": "none"}


async def to_act_of(base: str, link: str, seat: int) -> Frame:
    """The table's state once ``seat`` is to act (the computers' moves before it made)."""
    async with websockets.connect(ws_url(base, link)) as ws:
        while True:
            frame = await recv_state(ws)
            if frame["view"]["to_act"] == seat:
                return frame


def test_an_unreadable_table_is_left_out_and_the_others_are_restored(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        damaged = create_table(base, ["human", "rule", "rule", "rule"])
        kept = create_table(base, ["human", "rule", "rule", "rule"])
        before = asyncio.run(to_act_of(base, kept["watch"], 0))
    finally:
        stop_server(process)
    with sqlite3.connect(db) as c:  # the first deal of one table is damaged
        c.execute(
            "UPDATE game_entries SET entry = 'not a deal' WHERE table_id = ? AND n = 0",
            (damaged["table"],),
        )
    process, base = start_server(db)
    try:
        after = asyncio.run(to_act_of(base, kept["watch"], 0))
        token = kept["seats"][0]["link"].partition("=")[2]
        status, summary = http_json(base, f"/api/tables/{kept['table']}?token={token}")
        damaged_token = damaged["seats"][0]["link"].partition("=")[2]
        gone, answer = http_json(base, f"/api/tables/{damaged['table']}?token={damaged_token}")
    finally:
        stop_server(process)
    assert after["seq"] == before["seq"] and after["view"] == before["view"]
    assert status == 200 and summary["status"] == "playing"
    assert gone == 410 and answer["error"] == "this table was damaged and could not be restored"
    log = db.with_suffix(".log").read_text()
    assert f"table {damaged['table']} cannot be read from the store" in log


async def play_seat_0_until_seat_2(base: str) -> tuple[dict[str, Any], Frame]:
    """A table where seat 0 has played and seat 2 — whose player never came — is to act."""
    for _ in range(40):
        t = create_table(base, ["human", "rule", "human", "rule"])
        rng = Random(13)
        async with websockets.connect(ws_url(base, t["seats"][0]["link"])) as ws:
            acted = -1
            while True:
                frame = await recv_state(ws)
                view = frame["view"]
                if view["to_act"] == 2 and acted >= 0:
                    return t, frame
                if view["to_act"] == 2:  # seat 0 never got a move: another table
                    break
                if view["legal"] and frame["seq"] > acted:
                    acted = frame["seq"]
                    await ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal"])}))
    raise AssertionError("no table came to seat 2 after a move of seat 0")


def test_after_a_restart_a_seat_whose_player_never_came_keeps_waiting(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        t, waiting = asyncio.run(play_seat_0_until_seat_2(base))
    finally:
        stop_server(process)
    process, base = start_server(db, "--grace", "0.2")
    try:
        time.sleep(1.0)  # far longer than the grace period and the computers' moves
        frame = asyncio.run(to_act_of(base, t["watch"], 2))
    finally:
        stop_server(process)
    seats = frame["table"]["seats"]
    assert seats[0]["bot"] is True  # seat 0 had played: a computer holds it after the grace
    assert seats[2]["bot"] is False and seats[2]["connected"] is False
    assert frame["seq"] == waiting["seq"] == len(stored_entries(db, t["table"]))
    assert frame["view"]["to_act"] == 2  # the table waits for seat 2's player


async def first_state(base: str, link: str) -> Frame:
    async with websockets.connect(ws_url(base, link)) as ws:
        return await recv_state(ws)


def test_a_table_s_hints_stay_on_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        seats = ["human", "rule", "rule", "rule"]
        status, with_hints = http_json(base, "/api/tables", {"seats": seats, "hints": True})
        assert status == 200, with_hints
        without = create_table(base, seats)
        process.send_signal(signal.SIGKILL)
        process.wait(TIMEOUT)
    finally:
        stop_server(process)
    process, base = start_server(db)
    try:
        on = asyncio.run(first_state(base, with_hints["seats"][0]["link"]))
        off = asyncio.run(first_state(base, without["seats"][0]["link"]))
    finally:
        stop_server(process)
    assert on["table"]["hints"] is True
    assert off["table"]["hints"] is False


def test_a_friends_table_s_move_limit(tmp_path: Path) -> None:
    """A table opened with a time per move: a seated player who does not move has the
    computer move for them once the time is out — the seat stays theirs and says when —
    the rematch keeps the limit, and so does a restart. A limit out of range is refused and
    opens nothing."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db, "--bot-delay", "0", "--deal-delay", "0.05")
    try:
        body = {"seats": ["human", "rule", "rule", "rule"], "options": {"target": 150}}
        for wrong in (-1, 601, "soon"):
            status, refused = http_json(base, "/api/tables", body | {"move_limit": wrong})
            assert (status, refused["field"]) == (400, "move_limit"), refused
        with sqlite3.connect(db) as c:
            assert c.execute("SELECT COUNT(*) FROM game_tables").fetchone() == (0,)
        status, t = http_json(base, "/api/tables", body | {"move_limit": 0.4})
        assert status == 200, t
        table_id, token = t["seats"][0]["link"].split("/t/")[1].split("?seat=")
        untimed = create_table(base)
        timed: list[float | None] = []
        with ws_connect(ws_url(base, t["seats"][0]["link"]), max_queue=None) as ws:
            frame = json.loads(ws.recv(timeout=TIMEOUT))
            end = time.monotonic() + 120  # seated, never moves: the computer plays every move
            while not (frame.get("type") == "state" and frame["table"]["status"] == "finished"):
                assert time.monotonic() < end, frame
                frame = json.loads(ws.recv(timeout=TIMEOUT))
                if frame.get("type") == "state" and frame["view"].get("to_act") == 0:
                    timed.append(frame["table"]["move_until"])
            assert frame["table"]["seats"][0]["bot"] is False  # still the player's seat
            ws.send(json.dumps({"type": "rematch"}))
            while not (frame.get("type") == "state" and frame["table"]["next"]):
                frame = json.loads(ws.recv(timeout=TIMEOUT))
            rematch = frame["table"]["next"]
        assert timed and all(isinstance(u, float) for u in timed), timed
        # the game is over and seat 0's player never moved: the computer made each of its
        # moves (a game to 150 may end before seat 0 has played its nine cards)
        assert stored_entries_of_seat(db, table_id, 0) >= 1
        process.send_signal(signal.SIGKILL)
        process.wait(TIMEOUT)
    finally:
        stop_server(process)
    process, base = start_server(db)
    try:
        for table in (table_id, rematch):
            status, summary = http_json(base, f"/api/tables/{table}?token={token}")
            assert status == 200 and summary["move_limit"] == 0.4, summary
            assert "passe" not in summary and "grace" not in summary  # not a tournament's
        untimed_id, untimed_token = untimed["seats"][0]["link"].split("/t/")[1].split("?seat=")
        _, summary = http_json(base, f"/api/tables/{untimed_id}?token={untimed_token}")
        assert "move_limit" not in summary
        frame = asyncio.run(first_state(base, untimed["seats"][0]["link"]))
        assert "move_until" not in frame["table"]
    finally:
        stop_server(process)


def test_a_friends_table_s_clock_waits_for_a_friend_who_is_not_there(tmp_path: Path) -> None:
    """At a friends' table the time per move runs only while the seat's player is there: a
    friend who has not opened the invitation is waited for (the computer does not play their
    cards), and a table everyone has left stops its clock."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db, "--bot-delay", "0", "--deal-delay", "0.05")
    try:
        body = {"seats": ["human", "rule", "human", "rule"], "move_limit": 0.3}
        status, t = http_json(base, "/api/tables", body)
        assert status == 200, t
        table_id = t["table"]
        with ws_connect(ws_url(base, t["seats"][0]["link"]), max_queue=None) as ws:
            frame = json.loads(ws.recv(timeout=TIMEOUT))
            end = time.monotonic() + 60  # seat 0 never moves: the computer moves for it, in time
            while not (frame.get("type") == "state" and frame["view"]["to_act"] == 2):
                assert time.monotonic() < end, frame
                frame = json.loads(ws.recv(timeout=TIMEOUT))
            assert frame["table"]["move_until"] is None  # no clock for the friend not there
            time.sleep(1.5)  # five times the limit
            assert stored_entries_of_seat(db, table_id, 2) == 0
        # seat 2's friend comes: their clock runs, the computer moves for them; once the play
        # comes round to seat 0, both leave the table
        with (
            ws_connect(ws_url(base, t["seats"][2]["link"]), max_queue=None),
            ws_connect(ws_url(base, t["seats"][0]["link"]), max_queue=None) as ws,
        ):
            end = time.monotonic() + 60
            frame = json.loads(ws.recv(timeout=TIMEOUT))
            while not (
                stored_entries_of_seat(db, table_id, 2)
                and frame.get("type") == "state"
                and frame["view"]["to_act"] == 0
            ):
                assert time.monotonic() < end, frame
                frame = json.loads(ws.recv(timeout=TIMEOUT))
            assert isinstance(frame["table"]["move_until"], float)
        watch = "/api/tables/" + t["watch"].split("/t/", 1)[1]
        end = time.monotonic() + 10  # the server has seen both go (a move before that counts)
        while any(s["connected"] for s in http_json(base, watch)[1]["seats"]):
            assert time.monotonic() < end
            time.sleep(0.05)
        mine = stored_entries_of_seat(db, table_id, 0)
        time.sleep(1.5)  # the table is left: its clock stopped with it
        assert stored_entries_of_seat(db, table_id, 0) == mine
    finally:
        stop_server(process)


def stored_entries_of_seat(db: Path, table_id: str, seat: int) -> int:
    return sum(1 for s, _ in stored_entries(db, table_id) if s == seat)


def test_a_killed_server_leaves_no_worker_behind(tmp_path: Path) -> None:
    process, _ = start_server(tmp_path / "chibre.sqlite")
    try:
        workers = children(process.pid)  # the computer players' first worker starts with it
        assert workers, "the server started no worker"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.2)
    assert not [pid for pid in workers if alive(pid)]


def test_a_stopped_server_leaves_nothing_behind(tmp_path: Path) -> None:
    """Stopped as a service manager stops it (SIGTERM), with both of its pools started — the
    players' and the coach's —, the server closes them whole: no worker left, and no
    semaphore for the system to clean up after it."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        status, advice = http_json(base, "/api/advice", {"hand": "HJ H9 HA HK H10 H8 SA CA DA"})
        assert status == 200, advice  # the coach's worker has answered
        workers = children(process.pid)
        assert len(workers) >= 2, workers
        process.send_signal(signal.SIGTERM)
        process.wait(TIMEOUT)
    finally:
        stop_server(process)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.2)
    assert not [pid for pid in workers if alive(pid)]
    log = db.with_suffix(".log").read_text()
    assert "leaked" not in log and "Traceback" not in log, log


def test_ctrl_c_stops_the_server_and_its_workers_without_a_word(tmp_path: Path) -> None:
    """Ctrl-C in a terminal interrupts every process of its group: the server stops its
    workers itself, and nobody prints a traceback."""
    db = tmp_path / "chibre.sqlite"
    log = db.with_suffix(".log")
    with log.open("ab") as out:
        process = subprocess.Popen(
            server_command(0, db),
            env=server_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group, as a terminal's command has
        )
    try:
        base = printed_address(process, log, 0)
        assert base is not None, log.read_text()
        wait_until_up(base, process, log=log)
        status, advice = http_json(base, "/api/advice", {"hand": "HJ H9 HA HK H10 H8 SA CA DA"})
        assert status == 200, advice  # both pools have a worker now
        workers = children(process.pid)
        assert len(workers) >= 2, workers
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(TIMEOUT) in (0, 130)  # stopped by uvicorn, or interrupted before it
    finally:
        stop_server(process)
    said = log.read_text()
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == parent:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is still running (a zombie is not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_second_server_on_the_same_file_is_refused(tmp_path: Path) -> None:
    """Two servers on one file would each play its tables and refuse each other's moves: the
    second is refused, the first plays on, and a server killed leaves the file to the next."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    try:
        table = create_table(base, ["human", "rule", "rule", "rule"])
        token = table["seats"][0]["link"].partition("=")[2]
        summary = f"/api/tables/{table['table']}?token={token}"
        second = subprocess.run(
            server_command(0, db), env=server_env(), capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 1
        assert f"another chibre serve is using {db}" in second.stderr
        assert "the table is at" not in second.stdout
        status, _ = http_json(base, summary)
        assert status == 200
        process.send_signal(signal.SIGKILL)
        process.wait()
        process, base = start_server(db)
        status, _ = http_json(base, summary)
        assert status == 200
    finally:
        stop_server(process)


def test_a_player_s_clock_runs_on_while_the_table_changes_elsewhere(tmp_path: Path) -> None:
    """A friend who leaves and is taken over by the computer, or the player's page opened
    again, gives the player who is thinking no more time: the move's deadline stays."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db, "--bot-delay", "0", "--deal-delay", "0.05", "--grace", "0.5")
    try:
        body = {"seats": ["human", "rule", "human", "rule"], "move_limit": 20}
        status, t = http_json(base, "/api/tables", body)
        assert status == 200, t
        with ws_connect(ws_url(base, t["seats"][0]["link"]), max_queue=None) as ws:
            with ws_connect(ws_url(base, t["seats"][2]["link"]), max_queue=None) as friend:
                seen = json.loads(friend.recv(timeout=TIMEOUT))  # the friend plays its turns
                acted = -1
                end = time.monotonic() + 60
                while not (seen.get("type") == "state" and seen["view"]["to_act"] == 0):
                    assert time.monotonic() < end, seen
                    mine = seen.get("type") == "state" and seen["view"]["to_act"] == 2
                    if mine and seen["seq"] != acted:
                        acted = seen["seq"]
                        act = {"type": "act", "action": seen["view"]["legal"][0]}
                        friend.send(json.dumps(act))
                    seen = json.loads(friend.recv(timeout=TIMEOUT))
                frame = json.loads(ws.recv(timeout=TIMEOUT))  # the player's own view of it
                while frame.get("type") != "state" or frame["seq"] != seen["seq"]:
                    frame = json.loads(ws.recv(timeout=TIMEOUT))
                deadline = frame["table"]["move_until"]
                seq = frame["seq"]
                assert isinstance(deadline, float)
            # the friend has gone: after the grace the computer takes the seat over
            while not (frame.get("type") == "state" and frame["table"]["seats"][2]["bot"]):
                frame = json.loads(ws.recv(timeout=TIMEOUT))
            assert frame["seq"] == seq and frame["view"]["to_act"] == 0
            assert frame["table"]["move_until"] == deadline
            # the page opened again (a reload): the same deadline, no new time
            with ws_connect(ws_url(base, t["seats"][0]["link"]), max_queue=None) as again:
                frame = json.loads(again.recv(timeout=TIMEOUT))
                while frame.get("type") != "state":
                    frame = json.loads(again.recv(timeout=TIMEOUT))
                assert frame["seq"] == seq and frame["table"]["move_until"] == deadline
    finally:
        stop_server(process)
