"""The table server over real HTTP and real WebSockets (a ``chibre serve`` subprocess).

Every refused message gets an error frame and changes nothing; no frame ever carries a card its
connection may not see; a seat reconnects to the full current view; a dropped human is
replaced by a computer after the grace period and takes the seat back.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from chibre.actions import Choose, Deal, Play
from chibre.bots import make_player
from chibre.cards import card_code, cards_of, parse_cards
from chibre.game import CHANCE, Game
from chibre.notation import parse_record, record_from_json
from chibre.observation import observe
from chibre.rules import Rules
from chibre.server.cli import default_db, may_open_browser, network_address
from chibre.server.models import TableRequest
from chibre.server.protocol import CODES, ProtocolError, action_from_json, action_to_json
from chibre.server.protocol import read_message as read_client_message
from chibre.server.store import Store, decode_entry
from chibre.server.tables import MAX_REPLIES, Connection, Settings, Tables
from chibre.server.thinking import FAST_PLAYERS
from chibre.server.views import ViewCache, deciding_hand, game_scores, history, last_hand
from deals import further_weis_game, late_stoeck_game
from server_support import (
    create_table,
    http_json,
    printed_address,
    running_server,
    server_env,
    stop_server,
    wait_until_up,
    ws_url,
)
from test_server_store import play_game

Frame = dict[str, Any]
CODE_RE = re.compile(r"^[DHSC](?:10|[6-9JQKA])$")
TIMEOUT = 10


# --- a server for the module, and clients ----------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    path = tmp_path_factory.mktemp("server")
    db = path / "chibre.sqlite"
    with running_server(path, db=db) as base_url:
        yield base_url, db


class Client:
    """A WebSocket client that keeps every frame it receives."""

    def __init__(self, ws: websockets.ClientConnection, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.frames: list[Frame] = []
        self.state: Frame | None = None

    @classmethod
    async def open(cls, base_url: str, link: str, seat: int | None = None) -> Client:
        ws = await websockets.connect(ws_url(base_url, link), max_size=2**20)
        return cls(ws, seat)

    async def recv(self, timeout: float = TIMEOUT) -> Frame:
        frame: Frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        return frame

    async def until(self, pred: Callable[[Frame], bool], timeout: float = TIMEOUT) -> Frame:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            frame = await self.recv(max(left, 0.01))
            if pred(frame):
                return frame

    async def error(self) -> Frame:
        return await self.until(lambda f: f["type"] == "error")

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def act(self, action: dict[str, Any]) -> None:
        await self.send({"type": "act", "action": action})

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None
        view: dict[str, Any] = self.state["view"]
        return view

    async def close(self) -> None:
        await self.ws.close()


def token_of(link: str) -> str:
    return link.partition("=")[2]


def entry_count(db: Path, table_id: str) -> int:
    with sqlite3.connect(db) as c:
        n: int = c.execute(
            "SELECT COUNT(*) FROM game_entries WHERE table_id = ?", (table_id,)
        ).fetchone()[0]
    return n


def stored_game(db: Path, table_id: str) -> tuple[Rules, list[tuple[int, Any]]]:
    with sqlite3.connect(db) as c:
        rules = Rules.from_json(
            c.execute("SELECT rules FROM game_tables WHERE id = ?", (table_id,)).fetchone()[0]
        )
        rows = c.execute(
            "SELECT seat, entry FROM game_entries WHERE table_id = ? ORDER BY n", (table_id,)
        ).fetchall()
    return rules, [(seat, decode_entry(seat, text)) for seat, text in rows]


# --- what each seat may know, from the stored record -----------------------------------------


Known = dict[int, tuple[list[int], list[int], list[int]]]


def knowledge(db: Path, table_id: str) -> Known:
    """For each record length ``seq``: the cards of the current hand each of seats 0..3 and
    a spectator (4) may see in a VIEW (own cards as dealt, played cards, shown weis); the
    cards each may meet in the events (the same, and what it could see at the end of the
    previous hand: events sent together may reach back across a deal); and each seat's cards
    in hand."""
    rules, entries = stored_game(db, table_id)
    game = Game(rules)
    known = [0] * 5
    before = [0] * 5  # what each could see at the end of the previous hand
    out: Known = {}
    for seq, (seat, entry) in enumerate(entries, 1):
        if isinstance(entry, Deal):  # a new hand: what was seen belongs to the past
            before, known = known, [0] * 5
        game.apply(entry, None if isinstance(entry, Deal) else seat)
        hand = game.hand
        assert hand is not None
        played = sum(1 << c for t in hand.tricks for c in t.cards) | sum(1 << c for c in hand.trick)
        shown = 0
        if hand.weis_team >= 0:
            for s in (hand.weis_team, hand.weis_team + 2):
                for w in hand.declared[s]:
                    shown |= w.cards
        for s in range(4):
            known[s] |= hand.dealt[s] | played | shown
        known[4] |= played | shown
        out[seq] = (
            list(known),
            [k | b for k, b in zip(known, before, strict=True)],
            list(hand.hands),
        )
    return out


def card_codes(obj: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every card code in a frame, with where it stands; the rules (their first-chooser card)
    and the players' names are no cards in play."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            where = f"{path}.{key}"
            if where in (".view.rules", ".table"):
                continue
            yield from card_codes(value, where)
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from card_codes(value, f"{path}[{i}]")
    elif isinstance(obj, str) and CODE_RE.match(obj):
        yield obj, path


def check_frames(client: Client, known: Known) -> int:
    """Check every state frame of a client against what its seat may know; returns how many
    card codes were checked."""
    who = 4 if client.seat is None else client.seat
    checked = 0
    for frame in client.frames:
        if frame["type"] != "state":
            continue
        seq = frame["seq"]
        in_view, in_events, hands = known[seq]
        for code, where in card_codes(frame):
            allowed = in_events if where.startswith(".events") else in_view
            assert allowed[who] >> CODES[code] & 1, (
                f"{'spectator' if client.seat is None else f'seat {who}'} was sent {code} at "
                f"{where} (seq {seq}), a card it may not see"
            )
            checked += 1
        expected_hand = [] if client.seat is None else [card_code(c) for c in cards_of(hands[who])]
        assert frame["view"]["hand"] == expected_hand
        assert frame["you"] == {"seat": client.seat, "spectator": client.seat is None}
    return checked


# --- the HTTP routes -------------------------------------------------------------------------


def test_presets_and_players(server: tuple[str, Path]) -> None:
    base, db = server
    assert f"the table is at {base}/" in db.with_suffix(".log").read_text()  # what serve prints
    status, presets = http_json(base, "/api/presets")
    assert status == 200
    assert presets["default"] == "romand"
    assert presets["presets"]["schieber-2500"] == Rules.preset("schieber-2500").to_dict()
    assert presets["options"] == Rules().to_dict()
    status, players = http_json(base, "/api/players")
    names = ["random", "rule", "beginner", "easy", "medium", "strong", "expert"]
    assert (status, players["players"]) == (200, names)
    assert set(players["levels"]) == set(names)
    assert all(set(players["levels"][n]) == {"fr", "de", "en"} for n in names)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"preset": "belote", "seats": ["human", "rule", "rule", "rule"]}, "preset: 'belote'"),
        ({"options": {"target": -5}, "seats": ["human", "rule", "rule", "rule"]}, "target"),
        ({"options": {"trumps": 2}}, "options.trumps: unknown field"),
        ({"options": {"target": 10**4000}}, "options.target: at most 10000"),
        ({"options": {"multipliers": [1, 1, 1, 1, 1, 13]}}, "options.multipliers[5]: at most"),
        ({"options": {"striche": {"sieg": 2**60}}}, "options.striche.sieg: at most"),
        ({"options": {"weis": "yes"}}, "options.weis: must be true or false"),
        ({"names": ["\ud800", None, None, None]}, "not valid JSON"),
        ({"names": ["a\u0000b", None, None, None]}, "names[0]: the text holds a control"),
        ({"options": {"claim": "thank", "end_mode": "end_of_hand"}}, "claim"),
        ({"seats": ["human", "robot", "rule", "rule"]}, "'robot'"),
        ({"seats": ["human", "rule", "rule"]}, "seats: give at least 4 items, not 3"),
        ({"seats": ["human"] * 4, "names": ["x" * 41, None, None, None]}, "at most 40"),
        ([1, 2, 3], "JSON object"),
        ({"names": ["x" * 70_000, None, None, None]}, "too large"),
    ],
)
def test_a_bad_table_request_is_refused_and_nothing_is_stored(
    server: tuple[str, Path], body: Any, words: str
) -> None:
    base, db = server
    with sqlite3.connect(db) as c:
        before = c.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0]
    status, answer = http_json(base, "/api/tables", body)
    assert status == (413 if "too large" in words else 400)
    assert words in answer["error"]
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0] == before


def test_a_request_that_is_not_json_is_refused(server: tuple[str, Path]) -> None:
    base, _ = server
    status, answer = http_json(base, "/api/tables", "{not json", method="POST")
    assert status == 400 and "JSON" in answer["error"]
    for raw, said in (
        (b"", "the request needs a JSON object as its body"),  # no body at all
        (b"  \n", "the request must be a JSON object"),  # a blank one
        (b"{not json", "the request is not valid JSON"),
    ):
        request = urllib.request.Request(
            base + "/api/tables", raw, {"Content-Type": "application/json"}, method="POST"
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=TIMEOUT)
        assert refused.value.code == 400
        assert json.loads(refused.value.read())["error"].startswith(said), raw


NB = "\u00a0"
LEVELS = "human, random, rule, beginner, easy, medium, strong, expert"


@pytest.mark.parametrize(
    ("body", "lang", "field", "said"),
    [
        ({"options": {"foo": 1}}, "de-CH", "options.foo", "options.foo: unbekanntes Feld"),
        ({"options": {"foo": 1}}, "fr", "options.foo", f"options.foo{NB}: champ inconnu"),
        ({"options": {"foo": 1}}, "", "options.foo", "options.foo: unknown field"),
        (
            {"options": {"target": 100000}},
            "de",
            "options.target",
            "options.target (Ziel): höchstens 10000, nicht 100000",
        ),
        (
            {"options": {"target": 100000}},
            "fr-CH,fr;q=0.9",
            "options.target",
            f"options.target (Objectif){NB}: au plus 10000, pas 100000",
        ),
        (
            {"options": {"target": 100000}},
            "",
            "options.target",
            "options.target: at most 10000, not 100000",
        ),
        (
            {"options": {"target": 100000}},
            "en",
            "options.target",
            "options.target (Target): at most 10000, not 100000",
        ),
        (
            {"move_limit": 700},
            "de",
            "move_limit",
            "move_limit (Bedenkzeit pro Zug): höchstens 600, nicht 700",
        ),
        ({"move_limit": 700}, "", "move_limit", "move_limit: at most 600, not 700"),
        (
            {"move_limit": -1},
            "fr",
            "move_limit",
            f"move_limit (Temps par coup){NB}: au moins 0, pas -1",
        ),
        (
            {"options": {"target": 1500.5}},
            "de",
            "options.target",
            "options.target (Ziel): muss eine ganze Zahl sein, nicht 1500.5",
        ),
        (
            {"options": {"weis": "ja"}},
            "de",
            "options.weis",
            "options.weis (Weis): muss true oder false sein, nicht 'ja'",
        ),
        (
            {"preset": "belote"},
            "fr",
            "preset",
            f"preset (Règles){NB}: 'belote' n’est pas admis{NB}; au choix{NB}: "
            "romand, jasvel, schieber-2500, pique-double, geneve-500",
        ),
        (
            {"seats": ["human", "robot", "rule", "rule"]},
            "de",
            "seats[1]",
            f"seats[1] (Plätze): 'robot' ist nicht erlaubt; zur Wahl stehen {LEVELS}",
        ),
        (
            {"seats": ["human", "rule", "rule"]},
            "fr",
            "seats",
            f"seats (Places){NB}: au moins 4 éléments, pas 3",
        ),
        (
            {"names": ["a\u0000b", None, None, None]},
            "fr",
            "names[0]",
            f"names[0]{NB}: le texte contient un caractère de contrôle",
        ),
        (
            {"names": ["x" * 41, None, None, None]},
            "de",
            "names[0]",
            "names[0]: höchstens 40 Zeichen",
        ),
        ({"fair_deals": 1}, "de", "fair_deals", "fair_deals: muss true oder false sein, nicht 1"),
    ],
)
def test_a_refused_table_is_said_in_the_language_asked_for(
    server: tuple[str, Path], body: Any, lang: str, field: str, said: str
) -> None:
    """The lobby's refusals in the page's language (``Accept-Language``), the field named as
    its path (and the option as the form names it); English, by path alone, to a client that
    asks for no language. Nothing is created."""
    base, db = server
    with sqlite3.connect(db) as c:
        before = c.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0]
    status, answer = http_json(base, "/api/tables", body, lang=lang)
    assert (status, answer) == (400, {"error": said, "field": field})
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0] == before


def test_a_body_that_is_not_json_is_said_in_the_language_asked_for(
    server: tuple[str, Path],
) -> None:
    """To a page, "not valid JSON" in its language, without the parser's English; to a client
    that asks for no language, the parser's words after it."""
    base, _ = server
    for lang, said in (
        ("de", "die Anfrage ist kein gültiges JSON"),
        ("fr", "la requête n’est pas du JSON valide"),
        ("en", "the request is not valid JSON"),
    ):
        headers = {"Content-Type": "application/json", "Accept-Language": lang}
        request = urllib.request.Request(base + "/api/tables", b'{"foo": 1', headers, method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=TIMEOUT)
        assert (refused.value.code, json.loads(refused.value.read())) == (400, {"error": said})
    request = urllib.request.Request(
        base + "/api/tables", b'{"foo": 1', {"Content-Type": "application/json"}, method="POST"
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=TIMEOUT)
    plain = json.loads(refused.value.read())["error"]
    assert plain.startswith("the request is not valid JSON: ") and "line 1" in plain, plain


def test_summary_and_record_need_a_token_and_the_record_the_end(server: tuple[str, Path]) -> None:
    base, _ = server
    t = create_table(
        base, ["human", "human", "rule", "rule"], names=["Anna", "Marc\u2028 ", None, None]
    )
    tid = t["table"]
    assert [s["kind"] for s in t["seats"]] == ["human", "human", "rule", "rule"]
    assert "link" not in t["seats"][2]
    status, summary = http_json(base, f"/api/tables/{tid}?token={token_of(t['seats'][0]['link'])}")
    assert status == 200
    assert summary["you"] == {"seat": 0, "spectator": False}
    assert [s["name"] for s in summary["seats"]] == ["Anna", "Marc", "rule", "rule"]
    assert summary["status"] == "playing" and summary["rules"] == Rules().to_dict()
    assert summary["links"]["seats"] == [{"seat": 1, "link": t["seats"][1]["link"]}]
    status, other = http_json(base, f"/api/tables/{tid}?token={token_of(t['seats'][1]['link'])}")
    assert status == 200 and other["you"]["seat"] == 1 and "links" not in other
    status, watcher = http_json(base, f"/api/tables/{tid}?watch={token_of(t['watch'])}")
    assert status == 200 and watcher["you"] == {"seat": None, "spectator": True}
    assert http_json(base, f"/api/tables/{tid}?token=guess")[0] == 403
    assert http_json(base, f"/api/tables/{tid}?token=%C3%A9t%C3%A9&watch=%C3%A9")[0] == 403
    assert http_json(base, f"/api/tables/{tid}")[0] == 403
    assert http_json(base, "/api/tables/nosuch?token=x")[0] == 404
    status, refused = http_json(base, f"/api/tables/{tid}/record?watch={token_of(t['watch'])}")
    assert status == 403 and "once the game is over" in refused["error"]


# --- refused messages ------------------------------------------------------------------------


async def refused_messages(base: str, db: Path) -> None:
    t = create_table(base, ["human"] * 4)
    tid = t["table"]
    clients = [await Client.open(base, s["link"], s["seat"]) for s in t["seats"]]
    watcher = await Client.open(base, t["watch"])
    for c in [*clients, watcher]:
        await c.until(lambda f: f["type"] == "state")
    view = watcher.view
    assert view["phase"] == "contract"
    chooser = clients[view["to_act"]]
    partner = clients[(view["to_act"] + 2) % 4]
    other = clients[(view["to_act"] + 1) % 4]
    stored = entry_count(db, tid)
    assert stored == 1 == watcher.state["seq"]  # type: ignore[index]

    async def refused(client: Client, message: Any, code: str, words: str = "") -> None:
        await client.send(message)
        frame = await client.error()
        assert frame["code"] == code, frame
        assert words in frame["message"]
        assert frame["message"][:1].isalpha()

    play = {"kind": "play", "card": chooser.view["hand"][0]}
    not_mine = next(code for code in CODES if code not in chooser.view["hand"])
    await refused(chooser, {"type": "act", "action": play}, "illegal", "contract first")
    await refused(
        chooser, {"type": "act", "action": {"kind": "choose", "contract": 7}}, "malformed"
    )
    await refused(chooser, {"type": "act", "action": {"kind": "play", "card": "X1"}}, "malformed")
    await refused(chooser, {"type": "act", "action": {"kind": "pass"}}, "malformed", "pass")
    await refused(chooser, {"type": "act"}, "malformed")
    await refused(
        other, {"type": "act", "action": {"kind": "chibre"}}, "not_your_turn", "on your left"
    )
    await refused(watcher, {"type": "act", "action": {"kind": "chibre"}}, "spectator")
    await refused(watcher, {"type": "react", "reaction": "thanks"}, "spectator")
    await refused(chooser, "{not json", "malformed", "JSON")
    await refused(chooser, "[1, 2]", "malformed")
    await refused(chooser, b'{"type": "ping"}', "malformed", "binary")
    await refused(chooser, json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large", "4096")
    await refused(chooser, {"type": "shuffle"}, "unknown_type", "shuffle")
    # a move chosen on an earlier state than the table's (it moved on since)
    chibre = {"kind": "chibre"}
    await refused(chooser, {"type": "act", "action": chibre, "seq": stored - 1}, "moved_on")
    await refused(
        chooser, {"type": "act", "action": chibre, "seq": stored + 1}, "malformed", "ahead"
    )
    await refused(chooser, {"type": "act", "action": chibre, "seq": -1}, "malformed", "seq")
    # a seq given as null is a bad seq, not "no check" (only an absent seq means that)
    await refused(
        chooser, {"type": "act", "action": chibre, "seq": None}, "malformed", "act.seq: must be"
    )
    # what the table's rules forbid, in the socket's language (romand: no thanks; the table
    # declares the weis)
    await chooser.send({"type": "language", "lang": "de"})
    thank = {"type": "act", "action": {"kind": "thank"}}
    await refused(chooser, thank, "illegal", "hier bedankt man sich nicht")
    weis = {"kind": "declare", "weis": [["H6", "H7", "H8"]]}
    await refused(chooser, {"type": "act", "action": weis}, "illegal", "weist der Tisch selbst")
    await chooser.send({"type": "language", "lang": "en"})
    await chooser.send({"type": "ping"})
    assert (await chooser.until(lambda f: f["type"] != "state")) == {"type": "pong"}
    assert entry_count(db, tid) == stored
    # a fresh look at the table shows the very same state
    fresh = await Client.open(base, t["watch"])
    await fresh.until(lambda f: f["type"] == "state")
    assert fresh.state is not None and watcher.state is not None
    assert fresh.state["seq"] == stored and fresh.view == watcher.view

    # a legal chibre goes through (on the state it was chosen on); the partner may not chibre
    # back; a card not held is refused
    await chooser.send({"type": "act", "action": chibre, "seq": stored})
    await partner.until(lambda f: f["type"] == "state" and f["seq"] == stored + 1)
    assert partner.state is not None
    assert partner.state["events"] == [{"type": "Chibred", "seat": chooser.seat}]
    assert partner.view["to_act"] == partner.seat
    await refused(partner, {"type": "act", "action": {"kind": "chibre"}}, "illegal", "chibre")
    await partner.act({"kind": "choose", "contract": 4})
    await chooser.until(lambda f: f["type"] == "state" and f["view"]["phase"] == "play")
    # the engine's own refusals, in the socket's language too (no stöck in Obenabe)
    await chooser.send({"type": "language", "lang": "fr"})
    stoeck = {"type": "act", "action": {"kind": "declare", "stoeck": True}}
    await refused(chooser, stoeck, "illegal", "pas de stöck en obenabe ni en undenufe")
    await chooser.send({"type": "language", "lang": "en"})
    await refused(chooser, stoeck, "illegal", "there are no stöck in Obenabe or Undenufe")
    bad = {"kind": "play", "card": not_mine}
    await refused(chooser, {"type": "act", "action": bad}, "illegal")
    assert entry_count(db, tid) == stored + 2
    for c in [*clients, watcher, fresh]:
        await c.close()


def test_refused_messages_get_an_error_and_change_nothing(server: tuple[str, Path]) -> None:
    asyncio.run(refused_messages(*server))


async def thanks_on_an_earlier_state(base: str) -> None:
    t = create_table(base, ["human", "rule", "rule", "rule"], options={"claim": "thank"})
    me = await Client.open(base, t["seats"][0]["link"], 0)
    first = await me.until(lambda f: f["type"] == "state")
    if first["view"]["to_act"] == 0:  # the table waits for this seat: it moves, then thanks
        await me.act(next(a for a in first["view"]["legal"] if a["kind"] != "thank"))
    await me.until(lambda f: f["type"] == "state" and f["seq"] > first["seq"])  # moved on
    await me.send({"type": "act", "action": {"kind": "thank"}, "seq": first["seq"]})
    over = await me.until(lambda f: f["type"] == "error" or f["view"]["phase"] == "over")
    assert over["type"] == "state", over  # a thanks keeps its meaning: judged, not refused
    assert {"type": "Thanked", "seat": 0, "correct": False} in over["events"]
    await me.close()


def test_a_thanks_is_never_refused_for_an_earlier_state(server: tuple[str, Path]) -> None:
    asyncio.run(thanks_on_an_earlier_state(server[0]))


async def bad_tokens(base: str) -> None:
    t = create_table(base, ["human", "rule", "rule", "rule"])
    tid = t["table"]
    ws_base = base.replace("http://", "ws://")
    for query in ("token=wrong", "watch=wrong", "", f"token={token_of(t['watch'])}"):
        async with websockets.connect(f"{ws_base}/ws/{tid}?{query}") as ws:
            frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert frame["type"] == "error" and frame["code"] == "bad_token"
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    async with websockets.connect(f"{ws_base}/ws/nosuch?token=x") as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        assert frame["code"] == "bad_token" and "no such table" in frame["message"]


def test_a_bad_token_gets_an_error_then_the_socket_closes(server: tuple[str, Path]) -> None:
    asyncio.run(bad_tokens(server[0]))


# --- nothing hidden is ever sent -------------------------------------------------------------


async def play_hands(
    base: str, options: dict[str, Any], hands: int, seed: int
) -> tuple[str, list[Client]]:
    """Four human seats played by random clients and a spectator, for ``hands`` whole hands."""
    t = create_table(base, ["human"] * 4, options=options)
    clients = [await Client.open(base, s["link"], s["seat"]) for s in t["seats"]]
    watcher = await Client.open(base, t["watch"])
    rng = Random(seed)

    def done(frame: Frame) -> bool:
        view = frame["view"]
        return view["phase"] == "over" or len(view["history"]) >= hands

    async def play(client: Client) -> None:
        acted = -1
        waiting: tuple[object, ...] | None = None  # hand and moves a sent move was chosen from
        declarations = 0  # sent and not yet refused
        while True:
            frame = await client.recv()
            if frame["type"] == "error" and declarations and frame["code"] == "illegal":
                declarations -= 1
                continue  # a declaration out of turn can come too late: the next card was played
                # (its refusal may arrive after this seat has acted again on a newer state)
            assert frame["type"] == "state", frame
            if done(frame):
                return
            view = frame["view"]
            legal = view["legal"]
            moves = sorted(json.dumps(a, sort_keys=True) for a in legal if a["kind"] != "declare")
            choice = (*view["hand"], *moves)
            if choice == waiting:
                continue  # another seat's declaration came before this seat's move was taken
            if legal and frame["seq"] != acted:
                acted = frame["seq"]
                action = rng.choice(legal)
                declarations += action["kind"] == "declare"
                if action["kind"] != "declare":
                    waiting = choice
                await client.act(action)

    await asyncio.gather(*(play(c) for c in [*clients, watcher]))
    for c in [*clients, watcher]:
        await c.close()
    return t["table"], [*clients, watcher]


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({}, 1),
        ({"auto_weis": False, "auto_stoeck": False, "end_mode": "end_of_hand"}, 2),
        ({"multipliers": "current", "stoeck_in_weis": True}, 3),
    ],
    ids=["romand", "declared-weis", "multipliers"],
)
def test_no_frame_carries_a_card_its_connection_may_not_see(
    server: tuple[str, Path], options: dict[str, Any], seed: int
) -> None:
    base, db = server
    table_id, clients = asyncio.run(play_hands(base, options, 2, seed))
    known = knowledge(db, table_id)
    checked = [check_frames(c, known) for c in clients]
    assert all(n > 50 for n in checked[:4])  # each seat saw its cards and the plays
    assert checked[4] > 50  # the spectator saw the plays
    watcher = clients[4]
    assert watcher.state is not None and len(watcher.view["history"]) >= 2
    # the states shown in order tell the whole story: every played card appears as an event
    played = [e["card"] for f in watcher.frames for e in f["events"] if e["type"] == "CardPlayed"]
    _, entries = stored_game(db, table_id)
    seen = watcher.frames[-1]["seq"]  # a game may end within its second hand: as stored
    stored = [card_code(e.card) for _, e in entries[:seen] if isinstance(e, Play)]
    assert played == stored and len(played) > 36 and len(set(played[:36])) == 36


# --- reconnecting, dropping, taking the seat back --------------------------------------------


async def reconnect(base: str, db: Path) -> None:
    t = create_table(base, ["human", "random", "random", "random"])
    link = t["seats"][0]["link"]
    me = await Client.open(base, link, 0)
    rng = Random(4)
    for _ in range(4):  # a few moves of ours
        await me.until(lambda f: f["type"] == "state" and bool(f["view"]["legal"]))
        await me.act(rng.choice(me.view["legal"]))
    await me.until(lambda f: f["type"] == "state" and bool(f["view"]["legal"]))
    last = me.state
    assert last is not None
    await me.close()
    watcher = await Client.open(base, t["watch"])
    await watcher.until(lambda f: f["type"] == "state")
    assert watcher.state is not None
    seat = dict(watcher.state["table"]["seats"][0])
    left = seat.pop("grace_until") - time.time()  # the countdown to the computer's takeover
    assert 0 < left <= 60
    assert seat == {
        "seat": 0, "kind": "human", "name": "", "connected": False, "connections": 0,
        "bot": False,
    }  # fmt: skip
    assert watcher.state["seq"] == last["seq"]  # the table waits for us
    back = await Client.open(base, link, 0)
    first = await back.recv()
    assert first["type"] == "state" and first["events"] == []
    assert first["seq"] == last["seq"] == entry_count(db, t["table"])
    assert first["view"] == last["view"]  # the full current view: hand, trick, scores, legal
    assert first["table"]["seats"][0]["connected"] is True
    seen = await watcher.until(lambda f: f["table"]["seats"][0]["connected"])
    assert seen["seq"] == last["seq"]
    await back.act(first["view"]["legal"][0])
    await back.until(lambda f: f["type"] == "state" and f["seq"] > last["seq"])
    for c in (back, watcher):
        await c.close()


def test_reconnecting_with_the_token_resumes_the_seat(server: tuple[str, Path]) -> None:
    asyncio.run(reconnect(*server))


async def drop_and_reclaim(base: str, db: Path) -> None:
    t = create_table(base, ["human", "random", "human", "random"])
    tid = t["table"]
    me = await Client.open(base, t["seats"][0]["link"], 0)
    partner = await Client.open(base, t["seats"][2]["link"], 2)
    await me.until(lambda f: f["type"] == "state")
    await me.close()  # seat 0 drops
    rng = Random(5)

    def seat0(frame: Frame) -> dict[str, Any]:
        seats: list[dict[str, Any]] = frame["table"]["seats"]
        return seats[0]

    # the partner plays on; after the grace period a computer plays seat 0
    taken = None
    acted = -1
    for _ in range(400):
        frame = await partner.recv()
        assert frame["type"] == "state", frame
        if seat0(frame)["bot"]:
            taken = frame
            break
        if frame["view"]["legal"] and frame["seq"] != acted:
            acted = frame["seq"]
            await partner.act(rng.choice(frame["view"]["legal"]))
    assert taken is not None and seat0(taken)["connected"] is False
    _, entries = stored_game(db, tid)
    moved_before = sum(1 for seat, _ in entries if seat == 0)

    async def play_partner_until(pred: Callable[[Frame], bool]) -> Frame:
        acted = -1
        for _ in range(2000):
            frame = await partner.recv()
            assert frame["type"] == "state", frame
            if pred(frame):
                return frame
            legal = frame["view"]["legal"]
            if legal and frame["seq"] != acted:
                acted = frame["seq"]
                await partner.act(rng.choice(legal))
        raise AssertionError("the game did not get there")

    await play_partner_until(lambda f: f["view"]["phase"] == "over" or f["seq"] > taken["seq"] + 8)
    _, entries = stored_game(db, tid)
    assert sum(1 for seat, _ in entries if seat == 0) > moved_before  # the computer played

    # the player comes back: the seat is theirs again and waits for them
    back = await Client.open(base, t["seats"][0]["link"], 0)
    first = await back.recv()
    assert seat0(first) == {
        "seat": 0, "kind": "human", "name": "", "connected": True, "connections": 1,
        "bot": False, "grace_until": None,
    }  # fmt: skip
    if first["view"]["phase"] == "over":
        return
    frame = await play_partner_until(  # a state sent since seat 0 is back
        lambda f: (
            seat0(f)["connected"] and (f["view"]["to_act"] == 0 or f["view"]["phase"] == "over")
        )
    )
    if frame["view"]["phase"] == "over":
        return
    waiting = frame["seq"]
    await asyncio.sleep(0.6)  # longer than the grace period and many computer moves
    assert entry_count(db, tid) == waiting  # nobody plays for us
    state = back.state
    if state is None or state["seq"] != waiting:
        state = await back.until(lambda f: f["type"] == "state" and f["seq"] == waiting)
    await back.act(state["view"]["legal"][0])
    await back.until(lambda f: f["type"] == "state" and f["seq"] > waiting)
    for c in (back, partner):
        await c.close()


def test_a_dropped_player_is_replaced_after_the_grace_period_and_takes_the_seat_back(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path, "--grace", "0.3", "--bot-delay", "0.01") as base:
        asyncio.run(drop_and_reclaim(base, tmp_path / "chibre.sqlite"))


def finished(db: Path, tid: str) -> int:
    with sqlite3.connect(db) as c:
        row = c.execute("SELECT finished FROM game_tables WHERE id = ?", (tid,)).fetchone()
    return int(row[0])


async def everyone_leaves(base: str, db: Path) -> tuple[int, int, list[bool], int]:
    """A player with three computers makes a move and leaves. The entries when they had
    gone, a while later (past the grace), the seats taken over, and the entries once someone
    watches."""
    t = create_table(base, ["human", "rule", "rule", "rule"])
    tid = t["table"]
    me = await Client.open(base, t["seats"][0]["link"], 0)
    frame = await me.until(lambda f: f["type"] == "state" and bool(f["view"]["legal"]))
    await me.act(frame["view"]["legal"][0])
    await me.until(lambda f: f["type"] == "state" and f["seq"] > frame["seq"])
    await me.close()
    # the moves planned before they left are made: the count stops (it must, within seconds)
    gone, deadline = -1, time.monotonic() + 5
    while (count := entry_count(db, tid)) != gone:
        assert time.monotonic() < deadline, (gone, count)
        gone = count
        await asyncio.sleep(0.3)
    # and put to rest (a second after the last move): it counts no longer as a table in play
    while finished(db, tid) != 2:
        assert time.monotonic() < deadline + 5, finished(db, tid)
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.5)  # five grace periods and a hundred computer moves more
    later = entry_count(db, tid)
    watcher = await Client.open(base, t["watch"], None)
    frame = await watcher.until(lambda f: f["type"] == "state")
    taken = [s["bot"] or s["grace_until"] is not None for s in frame["table"]["seats"]]
    await watcher.until(lambda f: f["type"] == "state" and f["seq"] > later + 3)
    await watcher.close()
    return gone, later, taken, entry_count(db, tid)


def test_a_table_nobody_has_open_waits_for_someone(tmp_path: Path) -> None:
    """Players who all leave (a break, the connection lost together) find their game where
    they left it, not finished by the computers; it is put to rest, and goes on as soon as
    someone opens it."""
    flags = ("--grace", "0.3", "--bot-delay", "0.01", "--unwatched-rest", "1")
    with running_server(tmp_path, *flags) as base:
        gone, later, taken, watched = asyncio.run(everyone_leaves(base, tmp_path / "chibre.sqlite"))
    assert later == gone
    assert taken[0]  # woken from its rest, the seat is counted down to the computer again
    assert watched > later + 3


# --- the end of the game ---------------------------------------------------------------------


async def finish_game(base: str) -> tuple[dict[str, Any], Client]:
    t = create_table(base, ["human", "random", "random", "random"], options={"target": 120})
    me = await Client.open(base, t["seats"][0]["link"], 0)
    rng = Random(6)
    acted = -1
    while True:
        frame = await me.recv()
        if frame["view"]["phase"] == "over":
            break
        if frame["view"]["legal"] and frame["seq"] != acted:
            acted = frame["seq"]
            await me.act(rng.choice(frame["view"]["legal"]))
    assert frame["table"]["status"] == "finished"
    await me.act({"kind": "chibre"})
    refused = await me.error()
    assert refused["code"] == "finished"
    await me.close()
    return t, me


def test_a_finished_game_refuses_actions_and_gives_its_record(server: tuple[str, Path]) -> None:
    base, db = server
    t, me = asyncio.run(finish_game(base))
    tid, token = t["table"], token_of(t["seats"][0]["link"])
    assert me.state is not None
    won = [e for f in me.frames for e in f.get("events", []) if e["type"] == "GameWon"]
    assert len(won) == 1 and won[0]["team"] == me.view["winner"]
    status, summary = http_json(base, f"/api/tables/{tid}?token={token}")
    assert status == 200 and summary["finished"] is True and summary["status"] == "finished"
    _, entries = stored_game(db, tid)
    with urllib.request.urlopen(f"{base}/api/tables/{tid}/record?format=text&token={token}") as r:
        text = r.read().decode()
        assert r.headers["Content-Type"].startswith("text/plain")
    record = parse_record(text)
    assert record.entries == entries
    with urllib.request.urlopen(
        f"{base}/api/tables/{tid}/record?format=json&watch={token_of(t['watch'])}"
    ) as r:
        from_json = record_from_json(r.read().decode())
    assert from_json.entries == entries
    game, _ = record.replay()
    assert list(game.totals) == me.view["totals"] and game.winner == me.view["winner"]
    assert http_json(base, f"/api/tables/{tid}/record?format=pdf&token={token}")[0] == 400


def test_a_seat_may_share_the_replay_once_the_game_is_over(server: tuple[str, Path]) -> None:
    """A friend's seat (not the host's, who holds the invitations) learns the spectators'
    token nowhere while the game plays — its summary, its VIEW, the lobby's list of its games
    —; once the game is over both give ``share``: the spectators' link with ``replay=1``,
    which opens the game as a spectator and its record."""
    base, db = server
    made = create_table(base, ["human", "rule", "human", "rule"], options={"claim": "thank"})
    tid, watch = made["table"], token_of(made["watch"])
    friend = token_of(made["seats"][2]["link"])
    held = {"seats": [{"table": tid, "token": friend}]}

    def told_the_friend() -> tuple[dict[str, Any], dict[str, Any], str]:
        status, summary = http_json(base, f"/api/tables/{tid}?token={friend}")
        assert status == 200, summary
        status, listed = http_json(base, "/api/history", held)
        assert status == 200, listed
        (game,) = listed["games"]
        return summary, game, json.dumps([summary, listed])

    summary, game, said = told_the_friend()
    assert summary["finished"] is False and summary["share"] is None
    assert game["finished"] is False and game["share"] is None
    assert watch not in said and "share_later" not in said
    with ws_connect(ws_url(base, made["seats"][2]["link"])) as ws:
        frame = json.loads(ws.recv(timeout=TIMEOUT))
        assert frame["type"] == "state" and watch not in json.dumps(frame)
    with ws_connect(ws_url(base, made["seats"][0]["link"])) as ws:  # the host thanks: over
        while json.loads(ws.recv(timeout=TIMEOUT)).get("view", {}).get("hand_number", -1) < 0:
            pass  # a thanks before the first deal is refused: once dealt
        ws.send(json.dumps({"type": "act", "action": {"kind": "thank"}}))
        while json.loads(ws.recv(timeout=TIMEOUT)).get("table", {}).get("status") != "finished":
            pass
    summary, game, _ = told_the_friend()
    share = f"/t/{tid}?watch={watch}&replay=1"
    assert summary["finished"] is True and summary["share"] == share
    assert game["share"] == share and game["link"] == f"/t/{tid}?seat={friend}"
    assert "share_later" not in summary and "share_later" not in game
    assert "seat=" not in share and friend not in share
    status, watched = http_json(base, f"/api/tables/{tid}?watch={watch}")
    assert status == 200 and watched["you"] == {"seat": None, "spectator": True}
    assert watched["share"] == share  # a spectator may pass it on: it is the link it has
    _, entries = stored_game(db, tid)
    with urllib.request.urlopen(f"{base}/api/tables/{tid}/record?format=text&watch={watch}") as r:
        assert parse_record(r.read().decode()).entries == entries
    with urllib.request.urlopen(base + share) as r:  # the page that shows it
        assert r.status == 200 and "text/html" in r.headers["Content-Type"]


# --- the view, the protocol ------------------------------------------------------------------


def test_the_view_is_the_observation_plus_the_table(tmp_path: Path) -> None:
    """``ViewCache`` builds each seat's VIEW from its observation, for every seat at every
    moment of whole games."""
    for seed, rules in enumerate([Rules(), Rules.preset("jasvel", auto_weis=False)]):
        rng = Random(seed)
        game = Game(rules)
        cache = ViewCache(game)
        players = [make_player("random", seed * 4 + s) for s in range(4)]
        while not game.is_over:
            if game.current_player == CHANCE:
                game.deal(rng)
            else:
                seat = game.current_player
                assert seat is not None
                game.apply(players[seat].act(game.observation(seat)), seat)
            seq = len(game.record.entries)
            extras: dict[str, Any] = {
                "credits": [
                    {"team": c.team, "block": c.block, "points": c.points}
                    for c in game.written_credits()
                ],
                "history": history(game),
                "striche_kinds": list(game.striche_kinds),
                "weis_reason": game.hand.weis_reason if game.hand is not None else None,
            }
            previous = last_hand(game)
            if previous is not None:
                extras["last_hand"] = previous
            deciding = deciding_hand(game)
            if deciding is not None:
                extras["deciding"] = deciding
                assert [t["total"] for t in deciding["teams"]] == extras["history"][-1]
            for s in (0, 1, 2, 3, None):
                view = json.loads("{" + cache.fragment(seq, s) + "}")
                obs = observe(game, 0 if s is None else s)
                expected = {**obs.to_dict(), **extras}
                expected["legal"] = [action_to_json(a) for a in obs.legal_actions]
                if s is None:
                    expected.update(seat=None, hand=[], own_weis=[], legal=[])
                assert view == expected


# Seat 0 ♦7-8-9, seat 1 ♣7-8-9 (20 each, the same top card), no other weis; seat 0 holds ♦7
# and chooses first.
TIE = (
    parse_cards("♦7 ♦8 ♦9 ♥6 ♥10 ♥A ♠9 ♠K ♣6"),
    parse_cards("♣7 ♣8 ♣9 ♥7 ♥J ♠6 ♠10 ♠A ♦6"),
    parse_cards("♥8 ♥Q ♠7 ♠J ♦10 ♦Q ♦A ♣J ♣K"),
    parse_cards("♥9 ♥K ♠8 ♠Q ♦J ♦K ♣10 ♣Q ♣A"),
)


@pytest.mark.parametrize(("contract", "team", "reason"), [(1, 0, "order"), (3, 1, "trump")])
def test_the_view_says_why_the_weis_won_to_everyone_alike(
    contract: int, team: int, reason: str
) -> None:
    """Hearts: the two 20s tie but for the seat order, seat 0 leads; clubs: seat 1's is in
    trump. Once the first trick is complete every seat and the spectator read the same reason,
    and no card of the losing team's weis that is still in its hand."""
    game = Game(Rules())
    game.apply(Deal(TIE, 3))
    assert game.current_player == 0
    game.apply(Choose(contract), 0)
    cache = ViewCache(game)

    def views() -> list[dict[str, Any]]:
        seq = len(game.record.entries)
        return [json.loads("{" + cache.fragment(seq, s) + "}") for s in (0, 1, 2, 3, None)]

    def play() -> None:
        hand = game.hand
        assert hand is not None
        game.apply(Play(cards_of(hand.legal_cards())[0]), hand.to_act)

    for _ in range(3):
        play()
        assert all(v["weis_reason"] is None and v["weis_team"] == -1 for v in views())
    play()  # the first trick is complete: the weis are compared
    seen = views()
    assert {(v["weis_team"], v["weis_reason"]) for v in seen} == {(team, reason)}
    hand = game.hand
    assert hand is not None
    losing = parse_cards("♣7 ♣8 ♣9" if team == 0 else "♦7 ♦8 ♦9")
    hidden = {card_code(c) for c in cards_of(losing & hand.hands[1 - team])}
    assert hidden
    for v in (seen[team], seen[team + 2], seen[4]):  # the winners' seats and the spectator
        shown = json.dumps({k: x for k, x in v.items() if k != "rules"})  # the rules name ♦7
        assert not hidden & set(re.findall(r'"([DHSC](?:10|[6-9JQKA]))"', shown))
    while not hand.is_over:
        play()
        assert all(v["weis_reason"] == reason for v in views())  # for the whole hand
    assert game_scores(game)[0]["weis_reason"] == reason  # the replay says it too


def test_the_view_says_no_reason_when_one_team_alone_had_weis() -> None:
    game = Game(Rules())
    game.apply(Deal((TIE[0], TIE[2], TIE[1], TIE[3]), 3))  # both 20s in seats 0 and 2
    game.apply(Choose(1), 0)
    cache = ViewCache(game)
    hand = game.hand
    assert hand is not None
    while not hand.is_over:
        game.apply(Play(cards_of(hand.legal_cards())[0]), hand.to_act)
    view = json.loads("{" + cache.fragment(len(game.record.entries), None) + "}")
    assert view["weis_team"] == 0 and view["weis_reason"] is None
    scores = game_scores(game)[0]
    assert scores["weis"] and scores["weis_reason"] is None


def test_the_replay_s_scores_are_the_hands_as_written() -> None:
    """``game_scores``: each hand's blocks are what the view's history wrote, the running
    totals end at the game's, the weis listed are those written (their points times the
    factor make the weis block), the stöck and the match named where they were written."""
    weis_seen = stoeck_seen = 0
    for seed, rules in enumerate([Rules(), Rules.preset("schieber-2500"), Rules.preset("jasvel")]):
        game = play_game(rules, seed)
        scores = game_scores(game)
        assert [[h["teams"][t]["total"] for t in (0, 1)] for h in scores] == history(game)
        assert scores[-1]["totals"] == list(game.totals) and scores[-1]["decided"]
        assert not any(h["decided"] for h in scores[:-1])
        for h in scores:
            weis_team = {s % 2 for s in (w["seat"] for w in h["weis"])}
            assert len(weis_team) <= 1
            for t in (0, 1):
                written = h["teams"][t]["weis"]
                if t in weis_team:
                    assert written == h["factor"] * sum(w["points"] for w in h["weis"])
                elif t not in weis_team:
                    assert written == 0
            assert (h["stoeck"] >= 0) == any(h["teams"][t]["stoeck"] for t in (0, 1))
            if h["stoeck"] >= 0:
                assert h["teams"][h["stoeck"] % 2]["stoeck"] > 0
            assert (h["match"] >= 0) == any(h["teams"][t]["match"] for t in (0, 1))
            weis_seen += bool(h["weis"])
            stoeck_seen += h["stoeck"] >= 0
    assert weis_seen and stoeck_seen  # the cases this is about happened


def live_moments(game: Game) -> list[tuple[dict[tuple[int, str], int], int]]:
    """For each hand of a finished game, played again from its record: after which of its
    actions the live VIEW first showed each weis (seat, cards) and the stöck."""
    again = Game(game.rules)
    out: list[tuple[dict[tuple[int, str], int], int]] = []
    move = 0
    for seat, action in game.record.entries:
        if isinstance(action, Deal):
            again.apply(action)
            out.append(({}, -1))
            move = 0
            continue
        again.apply(action, seat)
        move += 1
        view = observe(again, 0).to_dict()
        weis, stoeck = out[-1]
        for w in view["shown_weis"]:
            weis.setdefault((w["seat"], " ".join(w["cards"])), move)
        if view["stoeck_seat"] >= 0 and stoeck < 0:
            out[-1] = (weis, move)
    return out


def test_the_replay_shows_each_weis_and_the_stoeck_when_the_table_showed_them() -> None:
    """``game_scores`` says after which move of its hand the table showed each weis and the
    stöck: the moment the live VIEW first held them — a weis added after the first trick
    when it is declared, not with the first trick's."""
    further = further_weis_game()
    assert [(w["points"], w["move"]) for w in game_scores(further)[0]["weis"]] == [(20, 5), (50, 6)]
    late = late_stoeck_game()
    assert (game_scores(late)[0]["stoeck"], game_scores(late)[0]["stoeck_move"]) == (0, 20)
    games = [further, late]
    for seed, rules in enumerate(
        [Rules(), Rules.make(auto_weis=False, auto_stoeck=False), Rules.preset("jasvel")]
    ):
        games += [play_game(rules, seed * 10 + n) for n in range(3)]
    weis_seen = stoeck_seen = 0
    for game in games:
        for score, (weis, stoeck) in zip(game_scores(game), live_moments(game), strict=True):
            for w in score["weis"]:
                assert w["move"] == weis[w["seat"], " ".join(w["cards"])], w
                weis_seen += 1
            assert score["stoeck_move"] == (stoeck if score["stoeck"] >= 0 else -1)
            stoeck_seen += score["stoeck"] >= 0
    assert weis_seen and stoeck_seen  # the cases this is about happened


@pytest.mark.parametrize(
    ("preset", "seed", "complete"),
    [("romand", 1, False), ("romand", 5, True), ("jasvel", 2, True)],
)
def test_the_deciding_hand_is_counted_as_the_replay_counts_it(
    preset: str, seed: int, complete: bool
) -> None:
    """The view's deciding hand and the replay's last hand are one count of the same credits:
    under ``immediate`` decided in the middle of a hand (what came later is not written) or
    with its last trick, under ``end_of_hand`` at the hand's end."""
    game = play_game(Rules.preset(preset), seed)
    deciding = deciding_hand(game)
    assert deciding is not None and deciding["complete"] is complete
    last = game_scores(game)[-1]
    assert deciding["teams"] == last["teams"]
    hand = game.hand
    assert hand is not None
    written = [t["total"] for t in deciding["teams"]]
    assert written == history(game)[-1]
    if game.rules.end_mode == "immediate":
        assert last["totals"] == list(game.decided_at)  # the moment it was decided
    assert (len(hand.tricks) == 9) is complete


def test_actions_round_trip_and_bad_shapes_are_malformed() -> None:
    game = Game(Rules(auto_weis=False, auto_stoeck=False, claim="thank"))
    game.deal(Random(9))
    seen = 0
    while game.hand is not None and not game.hand.is_over and not game.is_over:
        for action in game.legal_actions():
            assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
            seen += 1
        game.apply(next(a for a in game.legal_actions() if type(a).__name__ != "Thank"))
    assert seen > 36
    for bad in [
        None, [], {"kind": "choose"}, {"kind": "choose", "contract": True},
        {"kind": "choose", "contract": 2, "double": "yes"}, {"kind": "play"},
        {"kind": "play", "card": "h10"}, {"kind": "play", "card": "H10", "weis": "H6"},
        {"kind": "play", "card": "H10", "weis": [["H6", "H6", "H7"]]},
        {"kind": "play", "card": "H10", "stoeck": 1}, {"kind": "sing"},
    ]:  # fmt: skip
        with pytest.raises(ProtocolError) as e:
            action_from_json(bad)
        assert e.value.code == "malformed"
    for text, code in [
        ("x" * 5000, "too_large"),
        ("{", "malformed"),
        ('{"type":1}', "unknown_type"),
        ("{}", "malformed"),
    ]:
        with pytest.raises(ProtocolError) as e:
            read_client_message(text)
        assert e.value.code == code
    with pytest.raises(ProtocolError) as e:  # no type at all: said so, not "type None"
        read_client_message('{"action": {"kind": "chibre"}}')
    assert str(e.value) == "the message needs its type", e.value
    with pytest.raises(ProtocolError) as e:
        read_client_message('{"type": "act", "action": {}}')
    assert str(e.value) == "the action needs its kind", e.value
    with pytest.raises(ProtocolError) as e:  # only an absent seq acts without the check
        read_client_message('{"type": "act", "action": {"kind": "chibre"}, "seq": null}')
    assert e.value.code == "malformed" and str(e.value).startswith("act.seq: "), e.value
    assert read_client_message('{"type": "act", "action": {"kind": "chibre"}}').seq is None
    assert read_client_message('{"type": "ping"}').type == "ping"


# --- pages and cards -------------------------------------------------------------------------


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_cards_are_served_as_svg_and_cached(server: tuple[str, Path]) -> None:
    base, _ = server
    status, headers, body = fetch(f"{base}/cards/french/H10.svg")
    assert status == 200 and headers["content-type"].startswith("image/svg+xml")
    assert body.lstrip().startswith(b"<svg") or b"<svg" in body[:200]
    assert "max-age" in headers["cache-control"]
    etag = headers["etag"]
    status, headers, body = fetch(f"{base}/cards/french/H10.svg", {"If-None-Match": etag})
    assert status == 304 and body == b""
    status, _, back = fetch(f"{base}/cards/swiss/back.svg")
    assert status == 200 and b"<svg" in back
    assert fetch(f"{base}/cards/swiss/SA.svg")[2] != fetch(f"{base}/cards/french/SA.svg")[2]
    for bad in ("french/H11.svg", "german/H10.svg", "french/H10.png", "french/h10.svg"):
        status, _, body = fetch(f"{base}/cards/{bad}")
        assert status == 404 and json.loads(body)["error"]


def test_the_pages_are_served(server: tuple[str, Path]) -> None:
    base, _ = server
    for path in ("/", "/t/anything"):
        status, headers, body = fetch(base + path)
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert b"<html" in body.lower() or b"<!doctype" in body.lower()
    status, _, script = fetch(f"{base}/static/table.js")
    assert status == 200 and b"WebSocket" in script
    # the calculator's routes are served by the same app, on the same SQLite file
    assert http_json(base, "/api/sheets")[0] == 200


def test_search_players_think_in_a_worker_and_the_table_plays_on(
    server: tuple[str, Path],
) -> None:
    """The search levels decide in a worker process; should one fail (or its process die),
    a simpler player takes the seat and the server carries on."""
    base, db = server
    assert "easy" not in FAST_PLAYERS  # it cannot play on the event loop
    assert not isinstance(make_player("easy", 1), type(make_player("rule", 1)))  # it loads
    me, table_id = asyncio.run(play_one_hand(base, ["human", "easy", "rule", "random"], 120))
    assert me.state is not None and me.view["history"]
    assert len(me.view["tricks"]) == 9  # the whole hand was played
    played = [e for f in me.frames for e in f["events"] if e["type"] == "CardPlayed"]
    assert {e["seat"] for e in played} == {0, 1, 2, 3}
    assert http_json(base, "/api/players")[0] == 200  # the server is alive
    # easy played seat 1 itself: it never failed, never ran out of time, never was replaced
    log = db.with_suffix(".log").read_text()
    assert f"table {table_id}: computer player" not in log, log


# --- the command -----------------------------------------------------------------------------


def test_the_default_store_is_in_the_users_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db() == tmp_path / "chibre" / "chibre.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_db() == tmp_path / "home" / ".local" / "share" / "chibre" / "chibre.sqlite"
    monkeypatch.setattr(sys, "platform", "linux")  # a display is what counts there
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("SSH_CONNECTION", "10.0.0.1 22 10.0.0.2 5000")
    assert may_open_browser() is False  # a browser on the far side of ssh helps nobody
    monkeypatch.delenv("SSH_CONNECTION")
    monkeypatch.delenv("SSH_CLIENT", raising=False)
    assert may_open_browser() is True
    monkeypatch.delenv("DISPLAY")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert may_open_browser() is False


def test_the_address_friends_on_the_network_are_told_is_this_machine_s() -> None:
    """Served on every interface, the server names the machine's network address beside
    127.0.0.1: an IPv4 address of this machine, that is not loopback — a server listening on
    every interface answers there — or, on a machine with no network, none at all."""
    import ipaddress
    import socket

    found = network_address()
    if found is None:  # no packet to a private address would leave but from loopback
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect(("192.168.255.255", 1))
            except OSError:
                pass
            else:
                assert ipaddress.ip_address(probe.getsockname()[0]).is_loopback
    else:
        address = ipaddress.ip_address(found)
        assert address.version == 4 and not address.is_loopback and not address.is_unspecified
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
            listener.bind(("0.0.0.0", 0))  # as `--host 0.0.0.0` does
            listener.listen(1)
            port = listener.getsockname()[1]
            with socket.create_connection((found, port), timeout=5) as friend:
                reached, _ = listener.accept()
                with reached:  # the connection came in on this machine, at that address
                    assert reached.getsockname()[0] == found == friend.getpeername()[0]


def test_a_machine_with_no_network_tells_no_address() -> None:
    """A machine with no network but loopback — a fresh network namespace, where the kernel
    gives a process only a loopback interface, down — names no address for friends."""
    import shutil

    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare here to make a machine without network")
    alone = subprocess.run(
        [unshare, "--user", "--map-root-user", "--net", sys.executable, "-c",
         "import socket; from chibre.server.cli import network_address as n; "
         "print([name for _, name in socket.if_nameindex()], n())"],
        env=server_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    if alone.returncode != 0 and "Operation not permitted" in alone.stderr:
        pytest.skip(f"this machine makes no network namespace: {alone.stderr.strip()}")
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.split() == ["['lo']", "None"]


def test_serve_lists_its_options_and_refuses_bad_delays() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chibre.cli", "serve", "--bot-delay", "soon"],
        env=server_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "'soon' is not a number of seconds" in done.stderr
    help_text = subprocess.run(
        [sys.executable, "-m", "chibre.cli", "serve", "--help"],
        env=server_env(), capture_output=True, text=True, timeout=60,
    ).stdout  # fmt: skip
    for option in ("--host", "--port", "--db", "--no-browser", "--bot-delay", "--grace"):
        assert option in help_text


async def thank_too_early(base: str, db: Path) -> tuple[Frame, int]:
    t = create_table(base, ["human"] * 4, options={"claim": "thank"})
    clients = [await Client.open(base, s["link"], s["seat"]) for s in t["seats"]]
    for c in clients:
        await c.until(lambda f: f["type"] == "state")
    to_act = clients[0].view["to_act"]
    thanker = clients[(to_act + 1) % 4]  # not this seat's turn: thanking is allowed any time
    assert {"kind": "thank"} in clients[to_act].view["legal"]
    await thanker.act({"kind": "thank"})
    frame = await thanker.until(
        lambda f: f["type"] == "state" and f["table"]["status"] != "playing"
    )
    assert entry_count(db, t["table"]) == 2
    for c in clients:
        await c.close()
    assert thanker.seat is not None
    return frame, thanker.seat


def test_any_seat_may_thank_and_a_wrong_claim_loses(server: tuple[str, Path]) -> None:
    base, db = server
    frame, seat = asyncio.run(thank_too_early(base, db))
    assert [e["type"] for e in frame["events"]] == ["Thanked", "GameWon"]
    assert frame["events"][0] == {"type": "Thanked", "seat": seat, "correct": False}
    assert frame["view"]["winner"] == 1 - seat % 2  # nobody had reached the target
    assert frame["view"]["phase"] == "over" and frame["view"]["legal"] == []


# --- Swiss cards and the table's suit mapping ------------------------------------------------


def test_swiss_cards_follow_the_tables_suit_mapping(server: tuple[str, Path]) -> None:
    base, _ = server
    status, headers, default = fetch(f"{base}/cards/swiss/HA.svg")
    assert status == 200
    status, same_headers, same = fetch(f"{base}/cards/swiss/HA.svg?mapping=swisslos")
    assert status == 200 and same == default and same_headers["etag"] == headers["etag"]
    status, books_headers, books = fetch(f"{base}/cards/swiss/HA.svg?mapping=books")
    assert status == 200 and books_headers["content-type"].startswith("image/svg+xml")
    assert books != default  # ♥ is Schellen in the books, Rosen under swisslos
    assert books_headers["etag"] != headers["etag"]
    status, _, again = fetch(
        f"{base}/cards/swiss/HA.svg?mapping=books", {"If-None-Match": books_headers["etag"]}
    )
    assert status == 304 and again == b""
    # a browser holding the default drawing's tag gets the books' drawing, not a 304
    status, _, body = fetch(
        f"{base}/cards/swiss/HA.svg?mapping=books", {"If-None-Match": headers["etag"]}
    )
    assert status == 200 and body == books
    status, _, body = fetch(f"{base}/cards/swiss/HA.svg?mapping=tarot")
    assert status == 404 and "tarot" in json.loads(body)["error"]


# --- when the store refuses a write ----------------------------------------------------------


def move_entries(db: Path, away: bool) -> None:
    """Take the record's table out of the server's way (every write then fails), or put it
    back, from a second connection on the same SQLite file."""
    names = ("game_entries", "game_entries_away") if away else ("game_entries_away", "game_entries")
    c = sqlite3.connect(db, isolation_level=None)
    try:
        c.execute(f"ALTER TABLE {names[0]} RENAME TO {names[1]}")
    finally:
        c.close()


async def store_refuses(base: str, db: Path) -> tuple[str, int]:
    t = create_table(base, ["human", "random", "random", "random"])
    me = await Client.open(base, t["seats"][0]["link"], 0)
    rng = Random(11)
    bots_turn: Frame | None = None
    refused_once = False
    frame: Frame | None = None
    for _ in range(60):
        if frame is None or not frame["view"]["legal"]:
            frame = await me.until(lambda f: f["type"] == "state" and bool(f["view"]["legal"]))
        seq = frame["seq"]
        action = rng.choice(frame["view"]["legal"])
        if not refused_once:
            move_entries(db, away=True)
            await me.act(action)
            refused = await me.error()
            assert refused["code"] == "unavailable" and "try again" in refused["message"]
            move_entries(db, away=False)
            assert all(f["seq"] <= seq for f in me.frames if f["type"] == "state")
            assert entry_count(db, t["table"]) == seq  # nothing changed
            refused_once = True
        await me.act(action)  # the same move again, now that it can be saved
        after = await me.until(lambda f, seq=seq: f["type"] == "state" and f["seq"] > seq)
        assert after["seq"] == seq + 1
        if after["view"]["phase"] in ("contract", "play") and after["view"]["to_act"] != 0:
            bots_turn = after  # a computer moves next, after the bot delay
            break
        frame = after
    assert bots_turn is not None
    seq = bots_turn["seq"]
    move_entries(db, away=True)
    await asyncio.sleep(2.0)  # the computer tries, is refused, tries again a second later
    with sqlite3.connect(db) as c:
        stored = c.execute(
            "SELECT COUNT(*) FROM game_entries_away WHERE table_id = ?", (t["table"],)
        ).fetchone()[0]
    assert stored == seq
    assert all(f["seq"] <= seq for f in me.frames if f["type"] == "state")
    move_entries(db, away=False)
    later = await me.until(lambda f: f["type"] == "state" and f["seq"] > seq)  # it went on
    assert entry_count(db, t["table"]) >= later["seq"]
    await me.close()
    return t["table"], bots_turn["view"]["to_act"]


def test_a_move_the_store_refuses_is_answered_unavailable_and_retried_for_a_computer(
    tmp_path: Path,
) -> None:
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, "--bot-delay", "0.5", db=db) as base:
        table_id, bot = asyncio.run(store_refuses(base, db))
        assert http_json(base, "/api/players")[0] == 200
    log = db.with_suffix(".log").read_text()
    assert f"table {table_id}: a move of seat 0 could not be stored" in log
    assert f"table {table_id}: a move of seat {bot} could not be stored" in log


# --- a search player past its time limit -----------------------------------------------------


async def play_one_hand(base: str, seats: list[str], timeout: float = 60) -> tuple[Client, str]:
    """Seat 0 plays random legal actions until the first hand is written."""
    t = create_table(base, seats)
    me = await Client.open(base, t["seats"][0]["link"], 0)
    rng = Random(12)
    acted = -1
    while True:
        frame = await me.recv(timeout=timeout)
        view = frame["view"]
        if view["history"] or view["phase"] == "over":
            break
        if view["legal"] and frame["seq"] != acted:
            acted = frame["seq"]
            await me.act(rng.choice(view["legal"]))
    await me.close()
    return me, t["table"]


def test_a_search_player_past_its_time_limit_is_replaced(tmp_path: Path) -> None:
    """A worker that does not answer in time (here: it is still starting) costs the seat its
    level, never the table."""
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, "--think-limit", "0.01", db=db) as base:
        me, table_id = asyncio.run(play_one_hand(base, ["human", "easy", "easy", "easy"]))
    played = [e for f in me.frames for e in f["events"] if e["type"] == "CardPlayed"]
    assert len(played) == 36 and {e["seat"] for e in played} == {0, 1, 2, 3}
    log = db.with_suffix(".log").read_text()
    assert f"table {table_id}: computer player 'easy' failed at seat" in log
    assert "no decision within 0.01 s" in log


# --- a client that does not read its replies -------------------------------------------------


async def flood(db: Path) -> tuple[Connection, list[str]]:
    store = Store(db)
    tables = Tables(store, Settings(bot_delay=0, deal_delay=0))
    table = tables.create(TableRequest(seats=["human"] * 4))
    never = asyncio.Event()
    sent: list[str] = []

    async def stalled(frame: str) -> None:  # a client whose socket nobody reads
        sent.append(frame)
        await never.wait()

    conn = table.join(0, stalled)
    pump = asyncio.create_task(conn.pump())
    await asyncio.sleep(0.01)  # the pump is stuck in sending the first state
    for _ in range(MAX_REPLIES):
        table.receive(conn, '{"type": "ping"}')
    assert not conn.closed and len(conn.replies) == MAX_REPLIES
    table.receive(conn, '{"type": "ping"}')
    pump.cancel()
    table.leave(conn)
    tables.close()
    store.close()
    return conn, sent


def test_a_client_that_does_not_read_its_replies_is_cut_off(tmp_path: Path) -> None:
    conn, sent = asyncio.run(flood(tmp_path / "db.sqlite"))
    assert conn.closed and conn.replies == []
    assert len(sent) == 1 and json.loads(sent[0])["type"] == "state"


async def flood_a_socket(base: str) -> tuple[int | None, int]:
    t = create_table(base, ["human"] * 4)
    ws = await websockets.connect(ws_url(base, t["seats"][0]["link"]), max_queue=None)
    for _ in range(3000):  # sent in a burst, nothing read meanwhile
        await ws.send('{"type": "ping"}')
    received = 0
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
            received += 1
    rcvd = closed.value.rcvd
    return (None if rcvd is None else rcvd.code), received


def test_a_socket_that_floods_the_table_is_closed(server: tuple[str, Path]) -> None:
    base, _ = server
    code, received = asyncio.run(flood_a_socket(base))
    assert code == 1008 and received < 3000
    assert http_json(base, "/api/players")[0] == 200  # the server is fine


async def flood_of_names(base: str, db: Path) -> tuple[list[Frame], int | None]:
    t = create_table(base, ["human"] * 4)
    ws = await websockets.connect(ws_url(base, t["seats"][0]["link"]), max_queue=None)
    await asyncio.wait_for(ws.recv(), TIMEOUT)  # the first state
    for name in ("Anna", "Ana", "Anna"):  # a typo put right: fine
        await ws.send(json.dumps({"type": "name", "name": name}))
        named = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    await ws.send(json.dumps({"type": "name", "name": " Anna "}))  # the same: nothing
    for name in ("B", "C", "Anna"):  # the fourth and fifth new names in ten seconds, a sixth
        await ws.send(json.dumps({"type": "name", "name": name}))
    frame = named
    while frame["type"] != "error":  # the states of B and C (perhaps as one), then the refusal
        frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    frames = [named, frame]
    with pytest.raises(ConnectionClosed) as closed:
        for n in range(3000):  # a flood of new names: refused, then the socket cut off
            await ws.send(json.dumps({"type": "name", "name": f"n{n}"}))
        while True:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
    rcvd = closed.value.rcvd
    with sqlite3.connect(db) as c:
        (seats,) = c.execute("SELECT seats FROM game_tables WHERE id = ?", (t["table"],)).fetchone()
    frames.append({"stored": json.loads(seats)[0]["name"]})
    return frames, None if rcvd is None else rcvd.code


def test_a_seat_names_itself_five_times_in_ten_seconds_at_most(server: tuple[str, Path]) -> None:
    """Past five new names in ten seconds a name is refused (the same name changes nothing):
    a flood of names is not written to the file, and its socket is cut off."""
    base, db = server
    (named, refused, stored), code = asyncio.run(flood_of_names(base, db))
    assert named["type"] == "state" and named["table"]["seats"][0]["name"] == "Anna"
    assert refused["type"] == "error" and refused["code"] == "bad_name", refused
    assert "5 new names in ten seconds" in refused["message"]
    assert stored == {"stored": "C"} and code == 1008


async def rematch_refused(base: str, open_another: bool) -> tuple[Frame, Frame]:
    """A game to its end, maybe another table opened, then a rematch asked for: the error,
    and the state after a ping (the socket still open)."""
    t = create_table(base, ["human", "rule", "rule", "rule"], options={"target": 1})
    rng = Random(3)
    async with websockets.connect(ws_url(base, t["seats"][0]["link"]), max_queue=None) as ws:
        acted = -1
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if frame["type"] == "state" and frame["table"]["status"] == "finished":
                break
            legal = frame.get("view", {}).get("legal")
            if legal and frame["seq"] > acted:
                acted = frame["seq"]
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)}))
        if open_another:
            create_table(base, ["human", "rule", "rule", "rule"])
        await ws.send(json.dumps({"type": "rematch"}))
        while frame["type"] != "error":
            frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        await ws.send(json.dumps({"type": "ping"}))
        pong = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    return frame, pong


def test_a_rematch_counts_as_a_new_table(tmp_path: Path) -> None:
    """A rematch past the address's tables a minute, or with the server full, is refused
    with ``busy`` (and when to try again); the socket stays open."""
    (tmp_path / "quota").mkdir()
    (tmp_path / "full").mkdir()
    with running_server(tmp_path / "quota", "--tables-per-minute", "1") as base:
        soon, pong = asyncio.run(rematch_refused(base, open_another=False))
    assert soon["code"] == "busy" and re.search(r"again in \d+ s", soon["message"]), soon
    assert pong["type"] == "pong"
    with running_server(tmp_path / "full", "--max-tables", "1") as base:
        full, pong = asyncio.run(rematch_refused(base, open_another=True))
    assert full["code"] == "busy" and "tables in play" in full["message"], full
    assert pong["type"] == "pong"


def test_a_first_start_makes_its_data_folder(tmp_path: Path) -> None:
    """`chibre serve` with no --db on a machine where it never ran: the default data folder
    does not exist yet; the server makes it and serves the table and the calculator."""
    data = tmp_path / "xdg"
    env = {**server_env(), "XDG_DATA_HOME": str(data)}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "chibre.cli", "serve", "--port", "0", "--no-browser"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        base = printed_address(process, log, 0)
        assert base is not None, log.read_text()
        wait_until_up(base, process, log=log)
        for page in ("/", "/tafel"):
            with urllib.request.urlopen(base + page, timeout=10) as r:
                assert r.status == 200
        assert (data / "chibre" / "chibre.sqlite").is_file()
    finally:
        stop_server(process)
