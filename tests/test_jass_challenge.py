"""The Jass Challenge protocol both ways, over real WebSockets: our client and the endpoint of
`chibre serve` against each other, the endpoint frame by frame against what
../shared/protocols/jass-challenge.md says, and the client against a recorded conversation."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets

from chibre.actions import Action, Chibre, Choose, Play, Thank
from chibre.bots import Player, make_player
from chibre.cards import cards_of
from chibre.game import CHANCE
from chibre.glicko import Rating, update
from chibre.jass_challenge import (
    JC_RULES,
    BadFrame,
    ChallengeClient,
    ChallengeResult,
    card_from_jc,
    card_to_jc,
    mode_from_jc,
    mode_to_jc,
    play_challenge,
)
from chibre.observation import Observation
from chibre.play import legal_cards
from chibre.server.jass_challenge import Lobby, Member, SeatBridge, Session
from chibre.server.models import TableRequest
from chibre.server.store import Store
from chibre.server.tables import Settings, Tables
from server_support import create_table, http_json, running_server, server_env

DATA = Path(__file__).resolve().parent / "data"
TIMEOUT = 20


def test_cards_and_modes_map_both_ways() -> None:
    assert card_to_jc(0) == {"number": 6, "color": "DIAMONDS"}
    assert card_to_jc(35) == {"number": 14, "color": "CLUBS"}
    assert [card_from_jc(card_to_jc(c)) for c in range(36)] == list(range(36))
    for action in (Chibre(), *(Choose(k) for k in range(6))):
        assert mode_from_jc(mode_to_jc(action)) == action
    assert mode_to_jc(Choose(1)) == {"mode": "TRUMPF", "trumpfColor": "HEARTS"}
    assert JC_RULES.factor(0) == JC_RULES.factor(1) == 1
    assert JC_RULES.factor(2) == JC_RULES.factor(3) == 2
    assert JC_RULES.factor(4) == JC_RULES.factor(5) == 3
    assert not JC_RULES.weis and not JC_RULES.stoeck and JC_RULES.target == 2500


class Watching:
    """A player that keeps every observation it was given."""

    def __init__(self, name: str, seed: int) -> None:
        self.inner = make_player(name, seed)
        self.name = name
        self.seen: list[Observation] = []

    def act(self, observation: Observation) -> Action:
        self.seen.append(observation)
        return self.inner.act(observation)


def stored_game(db: Path) -> Any:
    with sqlite3.connect(db) as c:
        (table_id,) = c.execute("SELECT id FROM game_tables").fetchone()
    store = Store(db)
    try:
        stored = store.load(table_id)
        assert stored is not None
        return stored
    finally:
        store.close()


def test_four_of_our_clients_play_a_game_at_the_endpoint(tmp_path: Path) -> None:
    players = [Watching("rule" if s % 2 == 0 else "random", s) for s in range(4)]
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/"
        clients = [ChallengeClient(p, f"bot {i}") for i, p in enumerate(players)]

        async def all_four() -> list[Any]:
            return list(await asyncio.gather(*(play_challenge(url, c) for c in clients)))

        results = asyncio.run(asyncio.wait_for(all_four(), 180))
        stored = stored_game(tmp_path / "chibre.sqlite")
    game = stored.replay()
    assert game.is_over and stored.rules == JC_RULES
    assert sorted(r.seat for r in results) == [0, 1, 2, 3]
    winner = game.winner
    for r in results:
        assert r.bad_messages == [] and r.errors == [] and r.rejected == 0
        assert r.winner == results[0].winner
        assert r.winner is not None and r.winner["name"] == f"Team {winner + 1}"
        assert r.winner["points"] == game.totals[winner] >= 2500
    # honesty: each decision's observation is what the table's engine shows that seat then
    for result, player in zip(results, players, strict=True):
        seat = result.seat
        replay = type(game)(stored.rules)
        asked = []
        for s, action in stored.entries:
            if s == seat:
                asked.append(replay.observation(seat))
            replay.apply(action, None if s < 0 else s)
        assert len(asked) == len(player.seen) == result.decisions > 20
        for theirs, ours in zip(player.seen, asked, strict=True):
            assert (theirs.hand, theirs.trick, theirs.tricks) == (
                ours.hand,
                ours.trick,
                ours.tricks,
            )
            assert (theirs.contract, theirs.chibres, theirs.phase) == (
                ours.contract, ours.chibres, ours.phase,
            )  # fmt: skip
            if ours.phase == "play":
                assert (theirs.contract_seat, theirs.trick_leader) == (
                    ours.contract_seat, ours.trick_leader,
                )  # fmt: skip
            assert set(theirs.legal_actions) == {
                a for a in ours.legal_actions if isinstance(a, Play | Choose | Chibre)
            }


# --- the endpoint, frame by frame ------------------------------------------------------------


class Bot:
    """A raw Jass Challenge connection: sends and receives the protocol's frames."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.seat = -1
        self.hand = 0
        self.inbox: list[dict[str, Any]] = []

    async def send(self, kind: str, data: Any = None) -> None:
        await self.ws.send(json.dumps({"type": kind, "data": data}))

    async def recv(self, kind: str) -> Any:
        """The next frame, which must be of ``kind``; its data."""
        got = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        assert got["type"] == kind, (self.name, kind, got)
        return got.get("data")


async def seat_four(url: str) -> list[Bot]:
    bots: list[Bot] = []
    for i, team in enumerate((0, 1, 0, 1)):
        bot = Bot(await websockets.connect(url), f"bot{i}")
        await bot.recv("REQUEST_PLAYER_NAME")
        await bot.send("CHOOSE_PLAYER_NAME", bot.name)
        sessions = await bot.recv("REQUEST_SESSION_CHOICE")
        assert sessions == ([] if i == 0 else ["table"])
        how = "CREATE_NEW" if i == 0 else "JOIN_EXISTING"
        choice = {"sessionChoice": how, "sessionName": "table", "sessionType": "SINGLE_GAME"}
        await bot.send("CHOOSE_SESSION", {**choice, "chosenTeamIndex": team})
        bots.append(bot)
        for b in bots:  # everyone in the session hears of the newcomer
            joined = await b.recv("BROADCAST_SESSION_JOINED")
            assert joined["sessionName"] == "table"
            assert joined["player"]["name"] == bot.name
            assert [p["name"] for p in joined["playersInSession"]] == [x.name for x in bots]
        bot.seat = joined["player"]["seatId"]
    # seatId = 2 × (players already in the team) + team index
    assert [b.seat for b in bots] == [0, 1, 2, 3]
    for b in bots:
        teams = await b.recv("BROADCAST_TEAMS")
        assert [t["name"] for t in teams] == ["Team 1", "Team 2"]
        assert [[p["seatId"] for p in t["players"]] for t in teams] == [[0, 2], [1, 3]]
    for b in bots:
        cards = await b.recv("DEAL_CARDS")
        assert len(cards) == 9
        b.hand = sum(1 << card_from_jc(c) for c in cards)
    assert sum(b.hand for b in bots) == (1 << 36) - 1  # four disjoint hands
    return bots


async def conversation(url: str) -> None:
    bots = await seat_four(url)
    # the chooser is asked; it pushes; the partner is asked with "pushed"; a push back is
    # rejected and asked again; then the partner names hearts
    waits = [asyncio.create_task(b.ws.recv()) for b in bots]
    done, _ = await asyncio.wait(waits, timeout=TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
    (task,) = done
    chooser = bots[waits.index(task)]
    for w in waits:
        if w is not task:
            w.cancel()
    assert json.loads(task.result()) == {"type": "REQUEST_TRUMPF", "data": False}
    assert chooser.seat == 0  # in hand n seat n mod 4 chooses
    await chooser.send("CHOOSE_TRUMPF", {"mode": "SCHIEBE"})
    for b in bots:
        assert await b.recv("BROADCAST_TRUMPF") == {"mode": "SCHIEBE"}
    partner = bots[(chooser.seat + 2) % 4]
    assert await partner.recv("REQUEST_TRUMPF") is True
    await partner.send("CHOOSE_TRUMPF", {"mode": "SCHIEBE"})
    assert await partner.recv("REJECT_TRUMPF") == {"mode": "SCHIEBE"}
    assert await partner.recv("REQUEST_TRUMPF") is True
    await partner.send("CHOOSE_TRUMPF", {"mode": "TRUMPF", "trumpfColor": "HEARTS"})
    for b in bots:
        assert await b.recv("BROADCAST_TRUMPF") == {"mode": "TRUMPF", "trumpfColor": "HEARTS"}
    # the chooser leads the first trick: garbage and a card it does not hold are refused
    assert await chooser.recv("REQUEST_CARD") == []
    await chooser.ws.send("not json")
    assert "JSON" in await chooser.recv("BAD_MESSAGE")
    foreign = next(c for c in range(36) if not chooser.hand >> c & 1)
    await chooser.send("CHOOSE_CARD", card_to_jc(foreign))
    assert await chooser.recv("REJECT_CARD") == card_to_jc(foreign)
    assert await chooser.recv("REQUEST_CARD") == []
    trick: list[int] = []
    for k in range(3):
        bot = bots[(chooser.seat + k) % 4]
        if k:
            assert [card_from_jc(c) for c in await bot.recv("REQUEST_CARD")] == trick
        allowed = cards_of(legal_cards(bot.hand, trick, 1))
        wrong = [c for c in cards_of(bot.hand) if c not in allowed]
        if k and wrong:  # a card the rules forbid: rejected, and the same request again
            await bot.send("CHOOSE_CARD", card_to_jc(wrong[0]))
            assert await bot.recv("REJECT_CARD") == card_to_jc(wrong[0])
            assert [card_from_jc(c) for c in await bot.recv("REQUEST_CARD")] == trick
        await bot.send("CHOOSE_CARD", card_to_jc(allowed[0]))
        trick.append(allowed[0])
        for b in bots:
            assert [card_from_jc(c) for c in await b.recv("PLAYED_CARDS")] == trick
    # the fourth does not answer: past the time limit (1.5 s) rule plays for it (the server's
    # log says so, below)
    last = bots[(chooser.seat + 3) % 4]
    assert [card_from_jc(c) for c in await last.recv("REQUEST_CARD")] == trick
    for b in bots:
        played = [card_from_jc(c) for c in await b.recv("PLAYED_CARDS")]
        assert played[:3] == trick and len(played) == 4
    assert played[3] in cards_of(legal_cards(last.hand, trick, 1))
    trick = played
    for b in bots:
        stich = await b.recv("BROADCAST_STICH")
        assert [card_from_jc(c) for c in stich["playedCards"]] == trick
        assert stich["name"] == bots[stich["seatId"]].name
        assert [t["name"] for t in stich["teams"]] == ["Team 1", "Team 2"]
        points = [t["currentRoundPoints"] for t in stich["teams"]]
        assert sorted(points)[0] == 0 and points == [t["points"] for t in stich["teams"]]
    # one bot leaves: the others are told, and the table goes on without waiting for it
    gone = bots[(chooser.seat + 1) % 4]
    await gone.ws.close()
    for b in bots:
        if b is not gone:
            while (got := json.loads(await asyncio.wait_for(b.ws.recv(), TIMEOUT)))[
                "type"
            ] != "ERROR":
                pass
            assert got["data"] == f"Player {gone.name} left the game!"
    for b in bots:
        await b.ws.close()


def test_the_endpoint_follows_the_protocol(tmp_path: Path) -> None:
    # a limit no prompt answer passes on a loaded machine: only the fourth's silence is late
    with running_server(tmp_path, "--jass-challenge-limit", "1.5") as base:
        asyncio.run(asyncio.wait_for(conversation(base.replace("http://", "ws://") + "/"), 120))
        deadline = time.monotonic() + 120
        while not stored_game(tmp_path / "chibre.sqlite").replay().is_over:
            assert time.monotonic() < deadline, "the table stopped when its bots left"
            time.sleep(0.2)
        log = (tmp_path / "chibre.log").read_text()
        stored = stored_game(tmp_path / "chibre.sqlite")
        token = stored.seats[0].token
        # the operator learns from the log where the session plays, and its record by it
        told = re.search(rf"plays at table {stored.id}: .* at (/api/tables/\S+)", log)
        assert told is not None, log
        status, _ = http_json(base, told.group(1) + "&format=json")
        assert status == 200
        record = http_json(base, f"/api/tables/{stored.id}/record?format=json&token={token}")
        with urllib.request.urlopen(
            f"{base}/api/tables/{stored.id}/record?token={token}", timeout=10
        ) as r:
            text = r.read().decode()
    game = stored.replay()
    assert max(game.totals) >= 2500
    assert [h.chooser for h in game.hands[:6]] == [0, 1, 2, 3, 0, 1]
    # the incidents are logged: the late answer, then the bot that left
    assert "(seat " in log and "no answer within 1.5 s; rule played " in log
    assert "Play(" not in log  # the move in the notation, as the incident says it
    assert "left; rule plays seat" in log
    # and each is in the stored record, with its seat: the garbage and the foreign card of the
    # chooser, the partner's push back, the fourth's late answer, and every bot leaving (the
    # first one, then the others when the test closed their sockets)
    said = [(seat, i.kind) for seat, info in enumerate(stored.seats) for i in info.incidents]
    kinds = sorted({k for _, k in said})
    assert kinds == ["garbage", "gone", "illegal", "late"], said
    assert sorted(s for s, k in said if k == "gone") == [0, 1, 2, 3]
    assert [k for _, k in said].count("late") == 1 and [k for _, k in said].count("garbage") == 1
    assert [k for _, k in said].count("illegal") >= 2  # the foreign card, the push back
    for info in stored.seats:
        for i in info.incidents:
            assert 0 < i.at < len(stored.entries) and i.detail and i.seconds >= 0
            if i.kind == "late":
                assert i.seconds >= 1.5 and "rule played" in i.detail
    status, document = record
    assert status == 200 and len(document["incidents"]) == len(said)
    assert [d["at"] for d in document["incidents"]] == sorted(
        d["at"] for d in document["incidents"]
    )
    assert {(d["seat"], d["kind"]) for d in document["incidents"]} == set(said)
    assert text.count("# incident: seat ") == len(said)


async def a_late_card_sent_after_the_next_request(
    url: str, session: str, others: list[ChallengeClient]
) -> dict[str, Any]:
    """Seat 0 (a raw bot) leaves its first card request unanswered past the limit; it is
    played for it. Only once its next REQUEST_CARD came does it send its late answer (a card
    legal for that request too), then its answer to that request (another card): over one
    socket the server reads them in that order. What it was played and told, until its next
    request after that."""
    me = Bot(await websockets.connect(url), "tardy")
    await me.recv("REQUEST_PLAYER_NAME")
    await me.send("CHOOSE_PLAYER_NAME", me.name)
    await me.recv("REQUEST_SESSION_CHOICE")
    choice = {"sessionChoice": "CREATE_NEW", "sessionName": session, "chosenTeamIndex": 0}
    await me.send("CHOOSE_SESSION", choice)
    assert (await me.recv("BROADCAST_SESSION_JOINED"))["player"]["seatId"] == 0
    games = [asyncio.create_task(play_challenge(url, c)) for c in others]
    seen: dict[str, Any] = {"bad": []}
    hand = contract = 0
    step = "first"  # first request unanswered → rule plays → next request → both answers sent
    while step != "done":
        got = json.loads(await asyncio.wait_for(me.ws.recv(), TIMEOUT))
        kind, data = got["type"], got.get("data")
        if kind == "BAD_MESSAGE":
            seen["bad"].append(data)
        elif kind == "DEAL_CARDS":
            hand = sum(1 << card_from_jc(c) for c in data)
        elif kind == "REQUEST_TRUMPF":
            await me.send("CHOOSE_TRUMPF", {"mode": "TRUMPF", "trumpfColor": "HEARTS"})
        elif kind == "BROADCAST_TRUMPF" and data != {"mode": "SCHIEBE"}:
            action = mode_from_jc(data)
            assert isinstance(action, Choose)
            contract = action.contract
        elif kind == "REQUEST_CARD" and step == "first":
            step = "silent"  # no answer: past the limit rule plays
            seen["silent"] = 1
        elif kind == "REQUEST_CARD" and step == "ruled":
            trick = [card_from_jc(c) for c in data]
            legal = cards_of(legal_cards(hand, trick, contract))
            seen["late"], seen["answer"] = legal[-1], legal[0]
            await me.send("CHOOSE_CARD", card_to_jc(seen["late"]))  # the first request's
            await me.send("CHOOSE_CARD", card_to_jc(seen["answer"]))  # this one's
            # one legal card tells the two answers apart no more: again at the next request
            step = "sent" if len(legal) > 1 else "again"
        elif kind == "REQUEST_CARD" and step == "again":
            step = "silent"
            seen["silent"] += 1
        elif kind == "REQUEST_CARD" and step == "played":
            step = "done"  # asked again: what came before this was the server's answer
        elif kind == "PLAYED_CARDS":
            card = card_from_jc(data[-1])
            hand &= ~(1 << card)  # another seat's card is not in the hand: no change
            if step in ("silent", "sent"):  # the seat's card
                seen["ruled" if step == "silent" else "played"] = card
                step = "ruled" if step == "silent" else "played"
    await me.ws.close()
    seen["others"] = await asyncio.gather(*games)
    return seen


def test_a_late_answer_is_one_incident_and_never_the_next_request_s(tmp_path: Path) -> None:
    others = [
        ChallengeClient(make_player("rule", n), f"r{n}", "late", "SINGLE_GAME", n % 2, games=1)
        for n in (1, 2, 3)
    ]
    with running_server(tmp_path, "--jass-challenge-limit", "1.5") as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        late = a_late_card_sent_after_the_next_request(url, "late", others)
        seen = asyncio.run(asyncio.wait_for(late, 180))
        log = (tmp_path / "chibre.log").read_text()
    stored = stored_game(tmp_path / "chibre.sqlite")
    assert stored.replay().is_over  # the three others played on to the end
    # the late card was dropped, not played for the next request: the card after it was
    assert seen["played"] == seen["answer"] != seen["late"] and seen["bad"] == [], seen
    # one incident for each late answer (its "late"), then the socket that closed
    assert [i.kind for i in stored.seats[0].incidents] == ["late"] * seen["silent"] + ["gone"]
    assert "tardy (seat 0): no answer within 1.5 s; rule played" in log
    assert "tardy answered late (CHOOSE_CARD); dropped: answered for it already" in log
    assert [r.bad_messages for r in seen["others"]] == [[]] * 3


def test_a_late_answer_at_a_table_whose_own_clock_played_is_not_the_next_request_s(
    tmp_path: Path,
) -> None:
    """A seat of our table with a time per move (1 s) shorter than the endpoint's limit: the
    table's computer plays for the silent bot; its late card is still not the next one's."""
    options = {"weis": False, "stoeck": False}
    with running_server(tmp_path, "--bot-delay", "0") as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        body = {"options": options, "seats": ["human", "rule", "rule", "rule"], "move_limit": 1}
        status, t = http_json(base, "/api/tables", body)
        assert status == 200, t
        late = a_late_card_sent_after_the_next_request(url, base + t["seats"][0]["link"], [])
        seen = asyncio.run(asyncio.wait_for(late, 120))
        log = (tmp_path / "chibre.log").read_text()
    assert seen["played"] == seen["answer"] != seen["late"] and seen["bad"] == [], seen
    assert "tardy answered late (CHOOSE_CARD); dropped: answered for it already" in log
    assert "no answer within" not in log  # the table's clock played, not the endpoint's


def test_an_answer_owed_for_a_request_rule_answered_is_the_late_one() -> None:
    """The answers still owed, oldest first: an answer of that kind is the late one; one of
    the other kind says the owed one will not come."""
    member = Member(1, "bot", 0, None)  # type: ignore[arg-type]  # no socket needed
    assert not member.late_answer("CHOOSE_CARD")  # nothing owed: an answer as any
    member.owed = ["CHOOSE_TRUMPF", "CHOOSE_CARD", "CHOOSE_CARD"]
    assert member.late_answer("CHOOSE_TRUMPF") and member.owed == ["CHOOSE_CARD"] * 2
    assert not member.late_answer("START_TOURNAMENT") and len(member.owed) == 2
    assert member.late_answer("CHOOSE_CARD") and member.owed == ["CHOOSE_CARD"]
    member.owed = ["CHOOSE_TRUMPF"]  # never answered: the card is the open request's
    assert not member.late_answer("CHOOSE_CARD") and member.owed == []
    member.owed = ["CHOOSE_TRUMPF", "CHOOSE_CARD"]  # the trump never came; the card did
    assert member.late_answer("CHOOSE_CARD") and member.owed == []


async def what_a_bot_owes(db: Path, by: str) -> tuple[list[str], int]:
    """A bot asked for a card at a real table; before its answer comes, ``by`` moves on:
    ``clock`` plays its card for it (as the table's time per move does), ``thanks`` ends the
    game by another seat's thanks. What the bot owes, and what it is asked for, after."""
    store = Store(db)
    tables = Tables(store, Settings(bot_delay=0, deal_delay=0))
    table = tables.create(TableRequest(seats=["human"] * 4, options={"claim": "thank"}))
    for _ in range(200):  # the deal, once the loop runs
        if table.game.current_player not in (None, CHANCE):
            break
        await asyncio.sleep(0.01)
    seat = table.game.current_player
    assert seat is not None and seat >= 0
    session = Session("s")
    member = Member(1, "bot", seat, None)  # type: ignore[arg-type]  # no socket needed
    bridge = SeatBridge(Lobby(tables, 10.0, 0.5), session, member, table)
    bridge.view = {"phase": "contract"}
    bridge.asked = table.seq  # asked: REQUEST_TRUMPF
    bridge.arm()
    if by == "clock":
        table.act(seat, table.game.legal_actions(seat)[0])
    else:
        table.act((seat + 1) % 4, Thank())
    bridge.catch_up()
    asked, owed = bridge.asked, list(member.owed)
    tables.close()
    store.close()
    return owed, asked


@pytest.mark.parametrize("by", ["clock", "thanks"])
def test_an_answer_the_table_moved_past_is_owed_not_refused(tmp_path: Path, by: str) -> None:
    owed, asked = asyncio.run(what_a_bot_owes(tmp_path / "db.sqlite", by))
    assert owed == ["CHOOSE_TRUMPF"] and asked == -1


# --- the endpoint against a recorded conversation --------------------------------------------


async def replay_recorded_table(url: str, steps: list[dict[str, Any]]) -> list[list[str]]:
    """Four bots, each following its own steps of the recording: what it sends is sent, what it
    hears must be the recorded frame, in order. Each joins once the one before has joined.
    The types each bot heard."""
    joined = [asyncio.Event() for _ in range(4)]
    heard: list[list[str]] = [[] for _ in range(4)]

    async def bot(n: int) -> None:
        if n:
            await asyncio.wait_for(joined[n - 1].wait(), TIMEOUT)
        async with websockets.connect(url) as ws:
            for k, step in enumerate(s for s in steps if s["bot"] == n):
                if step["dir"] == "C>S":
                    raw = step.get("raw")
                    await ws.send(raw if raw is not None else json.dumps(
                        {"type": step["type"], "data": step["data"]}
                    ))  # fmt: skip
                    continue
                got = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                expected = {"type": step["type"], "data": step.get("data")}
                assert {"type": got["type"], "data": got.get("data")} == expected, (n, k, got)
                heard[n].append(got["type"])
                if (
                    got["type"] == "BROADCAST_SESSION_JOINED"
                    and got["data"]["player"]["seatId"] == n
                ):
                    joined[n].set()

    await asyncio.gather(*(bot(n) for n in range(4)))
    return heard


def test_the_endpoint_follows_a_recorded_conversation(tmp_path: Path) -> None:
    recording = json.loads((DATA / "jass_challenge_table.json").read_text())
    steps = recording["steps"]
    seed = recording["seed"]
    with running_server(tmp_path, "--jass-challenge-seed", seed) as base:
        url = base.replace("http://", "ws://") + "/"
        heard = asyncio.run(asyncio.wait_for(replay_recorded_table(url, steps), 120))
        stored = stored_game(tmp_path / "chibre.sqlite")
    # every server frame of the recording was heard, in order, by the bot it was for
    assert [len(h) for h in heard] == [
        sum(1 for s in steps if s["bot"] == n and s["dir"] == "S>C") for n in range(4)
    ]
    for kind in ("REJECT_TRUMPF", "REJECT_CARD", "BAD_MESSAGE", "BROADCAST_GAME_FINISHED"):
        assert any(kind in h for h in heard), kind
    assert all(h.count("BROADCAST_STICH") == 9 and h.count("DEAL_CARDS") == 2 for h in heard)
    # the game was dealt from the recording's seed, and the rejected moves left incidents
    assert stored.deals is not None and stored.deals.seed == seed
    said = sorted((seat, i.kind) for seat, info in enumerate(stored.seats) for i in info.incidents)
    assert ("garbage" in {k for _, k in said}) and [k for _, k in said].count("illegal") == 3


# --- the client against a recorded conversation ----------------------------------------------


class Recorded:
    """Plays the recorded choices in order (each must be legal in the client's observation)."""

    name = "recorded"

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions

    def act(self, observation: Observation) -> Action:
        action = self.actions.pop(0)
        assert action in observation.legal_actions, (action, observation)
        return action


def test_the_client_follows_a_recorded_conversation() -> None:
    recording = json.loads((DATA / "jass_challenge_seat0.json").read_text())
    actions: list[Action] = []
    for step in recording["frames"]:
        if step["dir"] == "C>S" and step["type"] == "CHOOSE_CARD":
            actions.append(Play(card_from_jc(step["data"])))
        elif step["dir"] == "C>S" and step["type"] == "CHOOSE_TRUMPF":
            actions.append(mode_from_jc(step["data"]))
    checked: list[str] = []

    async def replay(ws: Any) -> None:
        for step in recording["frames"]:
            if step["dir"] == "S>C":
                await ws.send(json.dumps({"type": step["type"], "data": step.get("data")}))
            else:
                got = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                assert got == {"type": step["type"], "data": step["data"]}, step
                checked.append(step["type"])
        await ws.close(1000)

    async def run() -> Any:
        async with websockets.serve(replay, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            client = ChallengeClient(Recorded(actions), "chibre", session="recorded")
            return await play_challenge(f"ws://127.0.0.1:{port}", client)

    result = asyncio.run(asyncio.wait_for(run(), 60))
    assert actions == []
    assert result.seat == 0 and result.rejected == 1 and result.won
    assert checked.count("CHOOSE_CARD") == 10  # nine cards, one of them sent twice
    assert checked[:3] == ["CHOOSE_PLAYER_NAME", "CHOOSE_SESSION", "CHOOSE_TRUMPF"]


@pytest.mark.parametrize("bad", [{"number": 5, "color": "HEARTS"}, {"color": "RED"}, "H7"])
def test_a_bad_card_is_refused(bad: Any) -> None:
    with pytest.raises(BadFrame):
        card_from_jc(bad)


async def two_sessions(url: str) -> list[str]:
    said = []
    bots = [Bot(await websockets.connect(url), f"bot{i}") for i in range(2)]
    for i, bot in enumerate(bots):
        await bot.recv("REQUEST_PLAYER_NAME")
        await bot.send("CHOOSE_PLAYER_NAME", bot.name)
        await bot.recv("REQUEST_SESSION_CHOICE")
        await bot.send("CHOOSE_SESSION", {"sessionChoice": "CREATE_NEW", "sessionName": f"s{i}"})
        if i == 0:
            await bot.recv("BROADCAST_SESSION_JOINED")
        else:
            said.append(await bot.recv("BAD_MESSAGE"))
            assert await bot.recv("REQUEST_SESSION_CHOICE") == ["s0"]  # asked again
            await bot.send("CHOOSE_SESSION", {"sessionChoice": "TOURNAMENT"})
            said.append(await bot.recv("BAD_MESSAGE"))
    for bot in bots:
        await bot.ws.close()
    return said


def test_new_sessions_count_against_the_table_quota(tmp_path: Path) -> None:
    with running_server(tmp_path, "--tables-per-minute", "1") as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        said = asyncio.run(asyncio.wait_for(two_sessions(url), 60))
    assert said[0].startswith("at most 1 new tables a minute: try again in")
    assert "AUTOJOIN, CREATE_NEW, JOIN_EXISTING or SPECTATOR" in said[1]


async def odd_choices(url: str) -> list[str]:
    """A session's name that is not a string, and a tournament asked by a game's name."""
    said = []
    first = Bot(await websockets.connect(url), "first")
    await first.recv("REQUEST_PLAYER_NAME")
    await first.send("CHOOSE_PLAYER_NAME", first.name)
    await first.recv("REQUEST_SESSION_CHOICE")
    await first.send("CHOOSE_SESSION", {"sessionChoice": "CREATE_NEW", "sessionName": "game"})
    await first.recv("BROADCAST_SESSION_JOINED")
    bot = Bot(await websockets.connect(url), "odd")
    await bot.recv("REQUEST_PLAYER_NAME")
    await bot.send("CHOOSE_PLAYER_NAME", bot.name)
    await bot.recv("REQUEST_SESSION_CHOICE")
    for choice in (
        {"sessionChoice": "JOIN_EXISTING", "sessionName": ["game"]},
        {"sessionChoice": "SPECTATOR", "sessionName": {"a": 1}},
        {"sessionChoice": "CREATE_NEW", "sessionName": "game", "sessionType": "TOURNAMENT"},
    ):
        await bot.send("CHOOSE_SESSION", choice)
        said.append(await bot.recv("BAD_MESSAGE"))
        assert await bot.recv("REQUEST_SESSION_CHOICE") == ["game"]  # asked again
    await bot.send("CHOOSE_SESSION", {"sessionChoice": "JOIN_EXISTING", "sessionName": "game"})
    await bot.recv("BROADCAST_SESSION_JOINED")  # the connection was never dropped
    for b in (first, bot):  # "game" is gone with its two bots
        await b.ws.close()
    for _ in range(100):  # once the server has seen them go: no open session is listed
        probe = Bot(await websockets.connect(url), "probe")
        await probe.recv("REQUEST_PLAYER_NAME")
        await probe.send("CHOOSE_PLAYER_NAME", probe.name)
        listed = await probe.recv("REQUEST_SESSION_CHOICE")
        await probe.ws.close()
        if not listed:
            break
        await asyncio.sleep(0.05)
    # a tournament under the name AUTOJOIN would give a new game: AUTOJOIN finds another
    tour = Bot(await websockets.connect(url), "tour")
    auto = Bot(await websockets.connect(url), "auto")
    for b, choice in (
        (tour, {"sessionChoice": "CREATE_NEW", "sessionName": "chibre 1",
                "sessionType": "TOURNAMENT"}),
        (auto, {"sessionChoice": "AUTOJOIN"}),
    ):  # fmt: skip
        await b.recv("REQUEST_PLAYER_NAME")
        await b.send("CHOOSE_PLAYER_NAME", b.name)
        await b.recv("REQUEST_SESSION_CHOICE")
        await b.send("CHOOSE_SESSION", choice)
        said.append((await b.recv("BROADCAST_SESSION_JOINED"))["sessionName"])
    for b in (tour, auto):
        await b.ws.close()
    return said


async def team_choices(url: str) -> tuple[list[str], list[dict[str, Any]]]:
    """A and B join Team 1; C asks for Team 1 again, then for teams that do not exist; then
    D asks AUTOJOIN for Team 1. What C was told, and the sessions C and D joined."""
    said: list[str] = []
    bots = []
    for name in ("A", "B", "C"):
        bot = Bot(await websockets.connect(url), name)
        await bot.recv("REQUEST_PLAYER_NAME")
        await bot.send("CHOOSE_PLAYER_NAME", name)
        await bot.recv("REQUEST_SESSION_CHOICE")
        bots.append(bot)
    a, b, c = bots
    choice = {"sessionChoice": "CREATE_NEW", "sessionName": "teams", "chosenTeamIndex": 0}
    await a.send("CHOOSE_SESSION", choice)
    await a.recv("BROADCAST_SESSION_JOINED")
    await b.send("CHOOSE_SESSION", {**choice, "sessionChoice": "JOIN_EXISTING"})
    for bot in (a, b):
        await bot.recv("BROADCAST_SESSION_JOINED")
    for team in (0, 2, -1, "1", True, 0.0, [1]):
        await c.send("CHOOSE_SESSION", {**choice, "chosenTeamIndex": team})
        said.append(await c.recv("BAD_MESSAGE"))
        assert await c.recv("REQUEST_SESSION_CHOICE") == ["teams"]  # asked again
    await c.send("CHOOSE_SESSION", {**choice, "chosenTeamIndex": None})  # null: any team
    joined = [await c.recv("BROADCAST_SESSION_JOINED")]
    d = Bot(await websockets.connect(url), "D")
    await d.recv("REQUEST_PLAYER_NAME")
    await d.send("CHOOSE_PLAYER_NAME", "D")
    assert await d.recv("REQUEST_SESSION_CHOICE") == ["teams"]
    await d.send("CHOOSE_SESSION", {"sessionChoice": "AUTOJOIN", "chosenTeamIndex": 0})
    joined.append(await d.recv("BROADCAST_SESSION_JOINED"))
    for bot in (*bots, d):
        await bot.ws.close()
    return said, joined


def test_a_team_index_that_is_not_0_1_or_null_or_a_full_team_is_refused(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        said, joined = asyncio.run(asyncio.wait_for(team_choices(url), 60))
    full, *bad = said
    assert full == (
        "Team 1 (chosenTeamIndex 0) of the session 'teams' is full: Team 2 (chosenTeamIndex 1)"
        " has a free seat"
    )
    allowed = "chosenTeamIndex is 0 (Team 1), 1 (Team 2), or null or left out"
    assert all(b.startswith(allowed) for b in bad), bad
    assert [b.rsplit(" not ", 1)[1] for b in bad] == ["2", "-1", '"1"', "true", "0.0", "[1]"]
    # nothing changed meanwhile: C, joining at last (null: any team), is the third, Team 2
    assert [p["name"] for p in joined[0]["playersInSession"]] == ["A", "B", "C"]
    assert joined[0]["player"]["seatId"] == 1
    # AUTOJOIN for a full team finds a session where it has room: here, a new one
    assert joined[1]["sessionName"] != "teams" and joined[1]["player"]["seatId"] == 0


async def a_seat_left_before_the_start(url: str) -> tuple[list[int], list[list[Any]]]:
    """A, B and C join (teams 0, 1, 0: seats 0, 1, 2); A leaves; D joins team 0, E team 1.
    The seats the five were given, and what B heard after its own join until the first deal
    (each frame's type and the names it gives)."""
    bots: list[Bot] = []
    for name, team in (("A", 0), ("B", 1), ("C", 0), ("D", 0), ("E", 1)):
        if name == "D":
            await bots[0].ws.close()
        bot = Bot(await websockets.connect(url), name)
        await bot.recv("REQUEST_PLAYER_NAME")
        await bot.send("CHOOSE_PLAYER_NAME", name)
        await bot.recv("REQUEST_SESSION_CHOICE")
        how = "CREATE_NEW" if name == "A" else "JOIN_EXISTING"
        choice = {"sessionChoice": how, "sessionName": "left", "chosenTeamIndex": team}
        await bot.send("CHOOSE_SESSION", choice)
        for tries in range(40):  # D: Team 1 is full until the server has seen A go
            got = json.loads(await asyncio.wait_for(bot.ws.recv(), TIMEOUT))
            if got["type"] != "BAD_MESSAGE":
                break
            assert name == "D" and "Team 1 (chosenTeamIndex 0)" in got["data"], got
            await bot.recv("REQUEST_SESSION_CHOICE")
            await asyncio.sleep(0.05 * tries)  # not too many asks before the server sees it
            await bot.send("CHOOSE_SESSION", choice)
        assert got["type"] == "BROADCAST_SESSION_JOINED", got
        bot.seat = got["data"]["player"]["seatId"]
        bots.append(bot)
    heard = []
    for b in bots[1:]:  # B first: all it was sent after its own join, to the first deal
        while (got := json.loads(await asyncio.wait_for(b.ws.recv(), TIMEOUT)))[
            "type"
        ] != "DEAL_CARDS":
            if b.name == "B":
                data = got["data"]
                if got["type"] == "BROADCAST_TEAMS":
                    players = [p for t in data for p in t["players"]]
                else:
                    players = data["playersInSession"]
                heard.append([got["type"], [p["name"] for p in players]])
    teams = [names for kind, names in heard if kind == "BROADCAST_TEAMS"]
    assert teams == [["D", "C", "B", "E"]]  # Team 1 (seats 0, 2), then Team 2 (seats 1, 3)
    for b in bots[1:]:
        await b.ws.close()
    return [b.seat for b in bots], heard


def test_a_seat_left_before_the_game_goes_to_the_next_bot_of_that_team(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        seats, heard = asyncio.run(asyncio.wait_for(a_seat_left_before_the_start(url), 60))
    assert seats == [0, 1, 2, 0, 3]
    # the others are sent nothing when A leaves (the protocol has no frame for it): the next
    # join's playersInSession no longer names A, and the teams are the four who play
    assert heard == [
        ["BROADCAST_SESSION_JOINED", ["A", "B", "C"]],
        ["BROADCAST_SESSION_JOINED", ["B", "C", "D"]],
        ["BROADCAST_SESSION_JOINED", ["B", "C", "D", "E"]],
        ["BROADCAST_TEAMS", ["D", "C", "B", "E"]],
    ], heard


def test_the_command_says_in_one_line_what_it_cannot_do(tmp_path: Path) -> None:
    """A wrong address, a server that refuses the path, a session name it refuses: a line
    that says so and exit 2, at once (not the same refused choice sent again and again)."""
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://")
        runs = {
            case: subprocess.run(
                [sys.executable, "-m", "chibre.cli", "jass-challenge", *argv],
                capture_output=True, text=True, timeout=60, env=server_env(),
            )
            for case, argv in {
                "http": [base],
                "path": [url + "/nope"],
                "name": [url, "--session", "x" * 50],
            }.items()
        }  # fmt: skip
    for case, run in runs.items():
        assert run.returncode == 2 and "Traceback" not in run.stderr, (case, run.stderr)
        *said, last = run.stderr.splitlines()  # the server's complaint, as logged, then why
        assert len(said) <= 1 and last.startswith("chibre: "), run.stderr
    assert "ws://HOST:PORT" in runs["http"].stderr
    assert "403" in runs["path"].stderr
    assert runs["name"].stderr.endswith("a session's name is 1 to 40 characters\n")


def test_odd_session_choices_are_refused_and_asked_again(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        said = asyncio.run(asyncio.wait_for(odd_choices(url), 60))
    assert said[:2] == ["sessionName is a string"] * 2
    assert said[2] == "the session 'game' is not a TOURNAMENT session"
    assert said[3] == "chibre 1" and said[4] == "chibre 2"  # a game of its own


async def garbage(url: str, joined: bool) -> tuple[int, int]:
    """How many BAD_MESSAGE a bot that sends only garbage gets — before it names itself, or
    once it waits in a session of its own — and the close code."""
    bot = Bot(await websockets.connect(url), "garbage")
    await bot.recv("REQUEST_PLAYER_NAME")
    if joined:
        await bot.send("CHOOSE_PLAYER_NAME", bot.name)
        await bot.recv("REQUEST_SESSION_CHOICE")
        choice = {"sessionChoice": "CREATE_NEW", "sessionName": "garbage"}
        await bot.send("CHOOSE_SESSION", choice)
        await bot.recv("BROADCAST_SESSION_JOINED")
    refused = 0
    try:
        while True:
            await bot.send("CHOOSE_SESSION", {"sessionChoice": "AUTOJOIN"})
            await bot.recv("BAD_MESSAGE")
            refused += 1
    except websockets.ConnectionClosed as e:
        return refused, e.rcvd.code if e.rcvd is not None else -1


@pytest.mark.parametrize("joined", [False, True])
def test_a_bot_that_only_sends_garbage_is_cut_off_as_such(tmp_path: Path, joined: bool) -> None:
    """Cut off before its game: told by 1008 (policy), not the 1000 of a game played out."""
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        refused, code = asyncio.run(asyncio.wait_for(garbage(url, joined), 60))
    assert refused == 50 and code == 1008


# --- tournaments and spectators --------------------------------------------------------------


def test_glicko2_gives_the_papers_example() -> None:
    # Glickman's worked example: 1500 (RD 200) beats 1400 (30), loses to 1550 (100) and 1700
    # (300) in one period
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(Rating(1500, 200, 0.06), games)
    assert round(after.rating, 2) == 1464.05 and round(after.deviation, 2) == 151.52
    assert abs(after.volatility - 0.05999) < 1e-5
    idle = update(Rating(1500, 200, 0.06), [])
    assert idle.rating == 1500 and idle.deviation > 200


async def watch(url: str, session: str) -> Any:
    """A spectator of ``session`` (tried until the session exists)."""
    for _ in range(200):
        ws = await websockets.connect(url)
        spectator = Bot(ws, "watcher")
        await spectator.recv("REQUEST_PLAYER_NAME")
        await spectator.send("CHOOSE_PLAYER_NAME", "watcher")
        await spectator.recv("REQUEST_SESSION_CHOICE")
        await spectator.send(
            "CHOOSE_SESSION", {"sessionChoice": "SPECTATOR", "sessionName": session}
        )
        try:
            got = json.loads(await asyncio.wait_for(ws.recv(), 0.3))
        except TimeoutError:
            return spectator  # no complaint: it watches
        if got["type"] != "BAD_MESSAGE":
            spectator.inbox.append(got)  # it watches, and has heard this already
            return spectator
        assert "to watch" in got["data"], got
        await ws.close()
        await asyncio.sleep(0.05)
    raise AssertionError("the session never opened")


async def tournament(url: str) -> tuple[list[Any], list[dict[str, Any]], int | None]:
    names = ["alpha", "beta", "gamma"]
    clients = [
        ChallengeClient(make_player("rule", n), names[n // 2], "cup", "TOURNAMENT")
        for n in range(6)
    ]
    first = asyncio.create_task(play_challenge(url, clients[0]))
    spectator = await watch(url, "cup")
    rest = [asyncio.create_task(play_challenge(url, c)) for c in clients[1:]]
    heard: list[dict[str, Any]] = list(spectator.inbox)
    while True:  # every client joined: the spectator starts the tournament
        got = json.loads(await asyncio.wait_for(spectator.ws.recv(), TIMEOUT))
        heard.append(got)
        if got["type"] == "BROADCAST_SESSION_JOINED" and len(got["data"]["playersInSession"]) == 6:
            break
    await spectator.send("START_TOURNAMENT")
    code = None
    try:
        while True:
            heard.append(json.loads(await asyncio.wait_for(spectator.ws.recv(), 120)))
    except websockets.ConnectionClosed as e:
        code = e.rcvd.code if e.rcvd else None
    results = await asyncio.gather(first, *rest)
    return results, heard, code


NOT_TIMED = ("--jass-challenge-tournament-limit", "60")
"""A tournament's 500 ms per request would make a busy machine's slow answer a lost pairing."""


def test_a_tournament_of_three_bots_with_a_spectator(tmp_path: Path) -> None:
    with running_server(tmp_path, *NOT_TIMED) as base:
        url = base.replace("http://", "ws://") + "/"
        results, heard, code = asyncio.run(asyncio.wait_for(tournament(url), 400))
    kinds = [h["type"] for h in heard]
    # the spectator hears the public frames, never a hand or a request
    assert not {"DEAL_CARDS", "REQUEST_TRUMPF", "REQUEST_CARD", "REJECT_CARD"} & set(kinds)
    assert kinds.count("BROADCAST_TOURNAMENT_STARTED") == 1 and code == 1000
    assert kinds.count("BROADCAST_TEAMS") == kinds.count("BROADCAST_WINNER_TEAM") == 3
    assert kinds.count("BROADCAST_TOURNAMENT_RANKING_TABLE") == 3
    assert kinds.count("PLAYED_CARDS") == 4 * kinds.count("BROADCAST_STICH") > 0
    started = next(h["data"] for h in heard if h["type"] == "BROADCAST_TOURNAMENT_STARTED")
    order = started["players"]  # in the order the bots first joined (their clients race)
    assert sorted(order) == ["alpha", "beta", "gamma"]
    table = [h["data"] for h in heard if h["type"] == "BROADCAST_TOURNAMENT_RANKING_TABLE"][-1]
    pairs = [(r["player1"], r["player2"]) for r in table["pairingResults"]]
    assert pairs == [(order[0], order[1]), (order[0], order[2]), (order[1], order[2])]
    won = {n: 0 for n in ("alpha", "beta", "gamma")}
    for r in table["pairingResults"]:
        won[r["player1"] if r["firstPlayerWon"] else r["player2"]] += 1
        assert max(r["points"]) >= 2500
    ranking = table["ranking"]
    assert [r["rank"] for r in ranking] == [1, 2, 3]
    assert [r["rating"] for r in ranking] == sorted((r["rating"] for r in ranking), reverse=True)
    assert won[ranking[0]["playerName"]] >= won[ranking[-1]["playerName"]]
    # each bot's two clients played the two pairings it was in, one seat of its team each
    assert sorted(r.games for r in results) == [2] * 6
    assert [r.bad_messages for r in results] == [[]] * 6
    assert all(r.ranking == table for r in results)
    with sqlite3.connect(tmp_path / "chibre.sqlite") as c:
        finished = c.execute("SELECT COUNT(*) FROM game_tables WHERE finished = 1").fetchone()[0]
    assert finished == 3


class Slow(ChallengeClient):
    """Answers its first request ``delay`` seconds late, then like any client."""

    def __init__(self, player: Player, name: str, delay: float) -> None:
        super().__init__(player, name, "cup", "TOURNAMENT")
        self.delay = delay

    async def answer(self, kind: str, data: Any) -> list[str]:
        if kind in ("REQUEST_TRUMPF", "REQUEST_CARD") and self.delay:
            await asyncio.sleep(self.delay)
            self.delay = 0
        return await super().answer(kind, data)


async def late_pairing(url: str) -> tuple[list[Any], dict[str, Any]]:
    clients = [
        Slow(make_player("rule", n), "slow" if n < 2 else "quick", 5.0 if n == 0 else 0)
        for n in range(4)
    ]
    first = asyncio.create_task(play_challenge(url, clients[0]))
    spectator = await watch(url, "cup")
    rest = [asyncio.create_task(play_challenge(url, c)) for c in clients[1:]]
    while True:
        got = json.loads(await asyncio.wait_for(spectator.ws.recv(), TIMEOUT))
        if got["type"] == "BROADCAST_SESSION_JOINED" and len(got["data"]["playersInSession"]) == 4:
            break
    await spectator.send("START_TOURNAMENT")
    results = await asyncio.gather(first, *rest)
    await spectator.ws.close()
    return results, results[-1].ranking


def test_a_bot_that_misses_a_deadline_loses_the_pairing(tmp_path: Path) -> None:
    """One request answered 5 s late, past the tournament's 2 s: rule plays that move and the
    slow bot loses the pairing, whatever the points."""
    limit = ("--jass-challenge-tournament-limit", "2")
    with running_server(tmp_path, *limit) as base:
        url = base.replace("http://", "ws://") + "/"
        results, ranking = asyncio.run(asyncio.wait_for(late_pairing(url), 300))
    (pairing,) = ranking["pairingResults"]
    winner = pairing["player1"] if pairing["firstPlayerWon"] else pairing["player2"]
    assert winner == "quick"
    assert [r["playerName"] for r in ranking["ranking"]] == ["quick", "slow"]
    # its late answer was dropped as such, not refused: no BAD_MESSAGE for anyone
    assert [r.bad_messages for r in results] == [[]] * 4
    assert sorted(r.games for r in results) == [1] * 4


def test_chibre_jass_challenge_enters_a_tournament_as_two_clients(tmp_path: Path) -> None:
    with running_server(tmp_path, *NOT_TIMED) as base:
        url = base.replace("http://", "ws://") + "/"
        bots = [
            subprocess.Popen(
                [sys.executable, "-m", "chibre.cli", "jass-challenge", url, "--tournament",
                 "--session", "duel", "--name", name, "--player", "rule"],
                env=server_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
            for name in ("left", "right")
        ]  # fmt: skip

        async def start() -> list[str]:
            spectator = await watch(url, "duel")
            kinds: list[str] = [f["type"] for f in spectator.inbox]
            await spectator.send("START_TOURNAMENT")  # asked again until all four are in
            while "BROADCAST_TOURNAMENT_RANKING_TABLE" not in kinds:
                try:
                    got = json.loads(await asyncio.wait_for(spectator.ws.recv(), 0.2))
                except TimeoutError:
                    if "BROADCAST_TOURNAMENT_STARTED" not in kinds:
                        await spectator.send("START_TOURNAMENT")
                    continue
                kinds.append(got["type"])
            return kinds

        kinds = asyncio.run(asyncio.wait_for(start(), 200))
        outs = [b.communicate(timeout=60) for b in bots]
    assert "BROADCAST_WINNER_TEAM" in kinds
    for bot, (out, err) in zip(bots, outs, strict=True):
        assert bot.returncode == 0, err
        assert out.count(" game(s), the last ") == 2  # both clients, one game each
        assert "1. " in out and "2. " in out  # the ranking


# --- a seat of one of our tables -------------------------------------------------------------


async def refused_link(url: str, link: str) -> str:
    bot = Bot(await websockets.connect(url), "bot")
    await bot.recv("REQUEST_PLAYER_NAME")
    await bot.send("CHOOSE_PLAYER_NAME", "bot")
    await bot.recv("REQUEST_SESSION_CHOICE")
    await bot.send("CHOOSE_SESSION", {"sessionChoice": "JOIN_EXISTING", "sessionName": link})
    said: str = await bot.recv("BAD_MESSAGE")
    await bot.ws.close()
    return said


def test_a_bot_takes_a_seat_of_our_table_by_its_link(tmp_path: Path) -> None:
    options = {"weis": False, "stoeck": False, "target": 300}
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/"
        answer = create_table(base, ["human", "rule", "human", "random"], options=options)
        links = [base + answer["seats"][s]["link"] for s in (0, 2)]
        players = [Watching("rule", s) for s in (0, 2)]
        clients = [
            ChallengeClient(p, "kit", session=link) for p, link in zip(players, links, strict=True)
        ]

        async def both() -> list[Any]:
            return list(await asyncio.gather(*(play_challenge(url, c) for c in clients)))

        results = asyncio.run(asyncio.wait_for(both(), 120))
        weis = create_table(base, ["human", "rule", "rule", "rule"])  # romand: weis and stöck
        said = [
            asyncio.run(refused_link(url, base + weis["seats"][0]["link"])),
            asyncio.run(refused_link(url, links[0].replace("seat=", "seat=x"))),
        ]
    store = Store(tmp_path / "chibre.sqlite")
    try:
        stored = store.load(answer["table"])
    finally:
        store.close()
    assert stored is not None
    game = stored.replay()
    assert "weis or stöck" in said[0] and "opens no seat" in said[1]
    assert game.is_over and [r.seat for r in results] == [0, 2]
    assert [stored.seats[s].name for s in (0, 2)] == ["kit", "kit"]  # the bots named their seats
    # the winners' points as the table counted them when it was decided (here mid-hand)
    assert all(r.winner == results[0].winner for r in results)
    assert results[0].winner["points"] == game.totals[game.winner] >= 300
    for r, p in zip(results, players, strict=True):
        incidents = [i for x in stored.seats for i in x.incidents]
        assert r.bad_messages == [] and r.errors == [] and r.rejected == 0, incidents
        assert r.won == (game.winner == 0) and len(p.seen) == r.decisions > 5
        # every decision of the seat was its bot's, each from the seat's own view
        replay = type(game)(stored.rules)
        asked = []
        for s, action in stored.entries:
            if s == r.seat:
                asked.append(replay.observation(r.seat))
            replay.apply(action, None if s < 0 else s)
        assert len(asked) == r.decisions
        for theirs, ours in zip(p.seen, asked, strict=True):
            assert (theirs.hand, theirs.trick, theirs.tricks, theirs.contract) == (
                ours.hand, ours.trick, ours.tricks, ours.contract,
            )  # fmt: skip


async def leave_and_come_back(url: str, link: str) -> Any:
    bot = Bot(await websockets.connect(url), "first")
    await bot.recv("REQUEST_PLAYER_NAME")
    await bot.send("CHOOSE_PLAYER_NAME", "first")
    await bot.recv("REQUEST_SESSION_CHOICE")
    await bot.send("CHOOSE_SESSION", {"sessionChoice": "JOIN_EXISTING", "sessionName": link})
    while json.loads(await asyncio.wait_for(bot.ws.recv(), TIMEOUT))["type"] not in (
        "REQUEST_TRUMPF", "REQUEST_CARD",
    ):  # fmt: skip
        pass
    await bot.ws.close()  # asked, and gone: the seat is the table's again
    await asyncio.sleep(0.2)
    return await play_challenge(url, ChallengeClient(make_player("rule"), "second", session=link))


def test_a_bot_that_left_a_seat_gives_it_back(tmp_path: Path) -> None:
    options = {"weis": False, "stoeck": False, "target": 300}
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/"
        answer = create_table(base, ["human", "rule", "rule", "rule"], options=options)
        link = base + answer["seats"][0]["link"]
        result = asyncio.run(asyncio.wait_for(leave_and_come_back(url, link), 120))
    store = Store(tmp_path / "chibre.sqlite")
    try:
        stored = store.load(answer["table"])
    finally:
        store.close()
    assert stored is not None and stored.replay().is_over
    assert result.winner is not None and result.bad_messages == [] and result.decisions > 5
    assert [i.kind for i in stored.seats[0].incidents] == ["gone"]


# --- a player of one of our tournaments ------------------------------------------------------


class Recording(ChallengeClient):
    """Our client, keeping the type of every frame it was sent."""

    def __init__(self, player: Watching, name: str, session: str) -> None:
        super().__init__(player, name, session=session)
        self.kinds: list[str] = []

    async def answer(self, kind: str, data: Any) -> list[str]:
        self.kinds.append(kind)
        return await super().answer(kind, data)


async def follow_a_tournament(url: str, base: str, t: dict[str, Any], client: Recording) -> Any:
    playing = asyncio.create_task(play_challenge(url, client))
    await asyncio.sleep(1.5)  # no round yet: it waits, told nothing
    assert not playing.done() and client.kinds == [
        "REQUEST_PLAYER_NAME", "REQUEST_SESSION_CHOICE", "BROADCAST_SESSION_JOINED",
    ]  # fmt: skip
    assert client.session is not None
    twice = await refused_link(url, client.session)
    status, answer = await asyncio.to_thread(
        http_json, base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {}
    )
    assert status == 201, answer
    result = await playing  # until the server closes the socket: the tournament is over
    return result, twice


def test_a_bot_plays_a_whole_tournament_by_its_players_link(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    player = Watching("rule", 7)
    args = ("--bot-delay", "0", "--deal-delay", "0.05")
    with running_server(tmp_path, *args, db=db) as base:
        url = base.replace("http://", "ws://") + "/"
        body = {"name": "Kit", "rounds": 2, "hands": 2, "auto": True,
                "options": {"weis": False, "stoeck": False}}  # fmt: skip
        status, t = http_json(base, "/api/tournaments", body)
        assert status == 201, t
        status, entry = http_json(
            base, f"/api/tournaments/{t['id']}/entries?code={t['code']}", {"name": "kit"}
        )
        assert status == 201, entry
        for n in range(3):
            computer = {"name": f"Bot {n + 1}", "kind": "rule"}
            assert (
                http_json(base, f"/api/tournaments/{t['id']}/entries?key={t['key']}", computer)[0]
                == 201
            )
        client = Recording(player, "kit", base + entry["links"][0])
        result, twice = asyncio.run(
            asyncio.wait_for(follow_a_tournament(url, base, t, client), 180)
        )
        end = time.monotonic() + 30
        while not (s := http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1])[
            "finished"
        ]:
            assert time.monotonic() < end, s
            time.sleep(0.2)
        # a tournament with weis and stöck, and a token that is nobody's, are refused
        status, weis = http_json(base, "/api/tournaments", {"name": "Weis", "rounds": 1})
        assert status == 201, weis
        status, other = http_json(
            base, f"/api/tournaments/{weis['id']}/entries?code={weis['code']}", {"name": "kit"}
        )
        refused = [
            asyncio.run(refused_link(url, base + other["links"][0])),
            asyncio.run(refused_link(url, base + entry["links"][0].replace("player=", "player=x"))),
        ]
    assert "already" in twice
    assert "weis or stöck" in refused[0] and "opens no player" in refused[1]
    assert result.bad_messages == [] and result.errors == [] and result.rejected == 0
    # told each round's table, then silent until the next round's BROADCAST_TEAMS
    assert client.kinds.count("BROADCAST_TEAMS") == 2 and client.kinds.count("DEAL_CARDS") == 4
    between = client.kinds.index("BROADCAST_TEAMS", 4)
    assert client.kinds[between - 1] == "BROADCAST_GAME_FINISHED"
    assert client.kinds[-1] == "BROADCAST_GAME_FINISHED"  # a Passe has no winner
    # each round's table holds the bot's moves, each decided from that seat's own view
    store = Store(db)
    try:
        asked = []
        for rnd in s["rounds"]:
            (table,) = rnd["tables"]
            seat = next(x["seat"] for x in table["seats"] if x["name"] == "kit")
            assert table["done"] and not table["seats"][seat]["flagged"]
            stored = store.load(table["watch"].split("/t/")[1].split("?")[0])
            assert stored is not None and stored.seats[seat].incidents == ()
            game = stored.replay()
            assert game.is_over and len(game.hands) == 2
            replay, moves = stored.new_game(), 0
            for who, action in stored.entries:
                if who == seat:
                    asked.append(replay.observation(seat))
                    moves += 1
                replay.apply(action, None if who < 0 else who)
            assert moves >= 18  # two hands of nine cards at least
    finally:
        store.close()
    assert len(asked) == len(player.seen) == result.decisions
    for theirs, ours in zip(player.seen, asked, strict=True):
        assert (theirs.hand, theirs.trick, theirs.tricks, theirs.contract) == (
            ours.hand, ours.trick, ours.tricks, ours.contract,
        )  # fmt: skip


async def odd_names(url: str) -> list[list[str]]:
    bots: list[Bot] = []
    for i, name in enumerate(("d\u0007x", "e\u2028f", "g\u00a0\u200dh", "ok")):
        bot = Bot(await websockets.connect(url), name)
        await bot.recv("REQUEST_PLAYER_NAME")
        await bot.send("CHOOSE_PLAYER_NAME", "\u0007 \u200b")  # nothing to show: asked again
        assert "name" in await bot.recv("BAD_MESSAGE")
        await bot.send("CHOOSE_PLAYER_NAME", name)
        await bot.recv("REQUEST_SESSION_CHOICE")
        how = "CREATE_NEW" if i == 0 else "JOIN_EXISTING"
        await bot.send(
            "CHOOSE_SESSION", {"sessionChoice": how, "sessionName": "odd", "chosenTeamIndex": i % 2}
        )
        bots.append(bot)
    teams = []
    for b in bots:
        while True:
            got = json.loads(await asyncio.wait_for(b.ws.recv(), TIMEOUT))
            if got["type"] == "BROADCAST_TEAMS":
                teams = [[p["name"] for p in t["players"]] for t in got["data"]]
                break
        assert len(await b.recv("DEAL_CARDS")) == 9
        await b.ws.close()
    return teams


def test_a_bot_s_name_is_shown_as_plain_text(tmp_path: Path) -> None:
    """Control characters and invisible marks in a bot's name are spaces: the table starts."""
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        teams = asyncio.run(asyncio.wait_for(odd_names(url), 60))
    assert teams == [["d x", "g h"], ["e f", "ok"]]


class Wayward:
    """A bot that fails on every decision (``raise``) or thinks past the limit on every
    tenth (``slow``)."""

    name = "wayward"

    def __init__(self, how: str) -> None:
        self.how, self.calls = how, 0

    def act(self, observation: Observation) -> Action:
        self.calls += 1
        if self.how == "raise":
            raise RuntimeError("a bug in the bot")
        if self.calls % 10 == 0:
            time.sleep(1.6)  # the server's 0.8 s are past: its fallback answers
        return observation.legal_actions[0]


async def wayward_game(url: str) -> tuple[list[ChallengeResult], int]:
    """The four clients' results, and how often the slow one was late."""
    slow = Wayward("slow")
    players: list[Player] = [Wayward("raise"), make_player("rule", 1), slow]
    players.append(make_player("rule", 3))
    clients = [
        ChallengeClient(p, f"w{i}", "wayward", "SINGLE_GAME", i % 2, games=1)
        for i, p in enumerate(players)
    ]
    results = []
    for c in clients:  # the creator first, then the others join
        results.append(asyncio.create_task(play_challenge(url, c)))
        await asyncio.sleep(0.3)
    return list(await asyncio.gather(*results)), slow.calls // 10


def test_our_client_plays_on_when_its_bot_fails_and_its_late_answers_are_dropped_as_such(
    tmp_path: Path,
) -> None:
    """A bot that raises is answered for with a legal move; one that thinks past the
    server's limit still sends its late answers, which the server drops as the late ones
    (never as answers to the next request)."""
    with running_server(tmp_path, "--jass-challenge-limit", "0.8") as base:  # room for load
        url = base.replace("http://", "ws://") + "/jass-challenge"
        results, late = asyncio.run(asyncio.wait_for(wayward_game(url), 240))
        log = (tmp_path / "chibre.log").read_text()
    said = [(r.seat, r.winner, r.games, r.errors, r.bad_messages) for r in results]
    assert all(r.winner is not None and r.games == 1 for r in results), said
    raised, slow = results[0], results[2]
    assert raised.decisions > 9 and raised.bad_messages == []
    # each late answer is one incident, "late": no BAD_MESSAGE, nothing read as garbage
    assert late >= 5 and slow.bad_messages == [], (late, slow.bad_messages)
    seats = stored_game(tmp_path / "chibre.sqlite").seats
    assert {i.kind for info in seats for i in info.incidents} == {"late"}, seats
    missed = len(seats[slow.seat].incidents)
    assert missed >= late
    # each dropped as it came (the last one may come after the game closed the socket)
    assert missed - 1 <= log.count("w2 answered late (") <= missed, log


async def unread_before_the_game(url: str) -> list[str]:
    bot = Bot(await websockets.connect(url), "early")
    await bot.recv("REQUEST_PLAYER_NAME")
    await bot.send("CHOOSE_PLAYER_NAME", bot.name)
    await bot.recv("REQUEST_SESSION_CHOICE")
    await bot.send("CHOOSE_SESSION", {"sessionChoice": "CREATE_NEW", "sessionName": "early"})
    await bot.recv("BROADCAST_SESSION_JOINED")
    said = []
    for message in (b"\x00binary", json.dumps({"type": "X", "data": "x" * 5000}), "{not json"):
        await bot.ws.send(message)
        said.append(str(await bot.recv("BAD_MESSAGE")))
    await bot.send("CHOOSE_CARD", {"number": 6, "color": "HEARTS"})
    said.append(str(await bot.recv("BAD_MESSAGE")))
    await bot.ws.close()
    return said


def test_a_frame_before_the_game_is_refused_with_its_reason(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        url = base.replace("http://", "ws://") + "/jass-challenge"
        said = asyncio.run(asyncio.wait_for(unread_before_the_game(url), 30))
    assert said[0] == "frames are JSON text"
    assert said[1].startswith("a message may be at most")
    assert said[2] == "the message is not JSON"
    assert said[3] == "no game of yours has started"
