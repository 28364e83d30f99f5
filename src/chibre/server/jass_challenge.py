"""The Jass Challenge endpoint of ``chibre serve``: the bots of that community connect
unchanged (WebSocket ``/`` — where their server listens — or ``/jass-challenge``) and play at
our tables (docs/protocols.md).

A bot names itself and chooses a session (``AUTOJOIN``, ``CREATE_NEW``, ``JOIN_EXISTING``);
seats go as the protocol says (seatId = 2 × players already in the team + team index; a
seat left before the game began is the team's next). When
the fourth bot has joined, the session becomes a real table of this server (``Tables.create``:
stored, restored, its record kept) under the rules the protocol implies
(``chibre.jass_challenge.JC_RULES``), and each bot holds its seat through a ``SeatBridge``: the
seat's own state frames are told in the protocol's frames (DEAL_CARDS, BROADCAST_TRUMPF,
PLAYED_CARDS, BROADCAST_STICH, BROADCAST_GAME_FINISHED, BROADCAST_WINNER_TEAM) and its turn
is a REQUEST_TRUMPF or REQUEST_CARD.

A session name may also be a seat's invitation link (that seat of one of our tables) or a
tournament player's own link: then the bot plays that player's seat in every round of the
tournament (``_follow``, from ``Tournaments.entry_seat``), waiting between rounds.

A foreign bot never blocks a table. A push after a push is rejected (REJECT_TRUMPF, then
REQUEST_TRUMPF true again); an illegal card is rejected (REJECT_CARD, then the same
REQUEST_CARD); anything else it should not have sent is answered BAD_MESSAGE. Each request has
a time limit (``Settings.jass_challenge_limit``; in a tournament
``Settings.jass_challenge_tournament_limit``, the protocol's 500 ms): past it, or at once after
the bot disconnected, our ``rule`` player decides for the seat. Every such incident — ``late``,
``gone``, ``illegal`` (a rejected card or push back), ``garbage`` (a BAD_MESSAGE) — is logged
(logger ``chibre.server``) and kept in the table's record (``Table.note_incident``), beside the
moves. The answer still owed to a request rule answered (``Member.owed``) is dropped when it
comes: the bot's answers arrive in order, so it is never taken for a later request's.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from chibre.actions import Action, Chibre, Choose, Play
from chibre.bots import make_player
from chibre.cards import parse_card
from chibre.glicko import Rating, update
from chibre.jass_challenge import (
    JC_OPTIONS,
    SCHIEBE,
    TEAM_NAMES,
    BadFrame,
    card_from_jc,
    card_to_jc,
    frame,
    mode_from_jc,
    mode_to_jc,
)
from chibre.notation import format_action
from chibre.server.lobby import InvalidTable
from chibre.server.models import TableRequest
from chibre.server.protocol import MAX_FRAME, ProtocolError
from chibre.server.quota import Quota
from chibre.server.store import StoreUnavailable
from chibre.server.tables import Connection, Table, Tables, TooManyTables
from chibre.server.tournaments import Tournaments
from chibre.tournament.fairdeal import DealSource

log = logging.getLogger("chibre.server")

NAME_LENGTH = 40
HELLO_LIMIT = 60.0
"""Seconds a bot has to give its name and choose its session."""
MAX_SESSIONS = 100
"""Sessions waiting for players at once."""
MAX_BAD = 50
"""Bad messages a bot may send before it is disconnected (its seat goes on without it)."""
MAX_ENTRANTS = 8
"""Bots (each two clients under one name) in a tournament."""
MAX_SPECTATORS = 20
"""Spectators of one session."""
CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
SINGLE_GAME, TOURNAMENT, SEAT, ENTRY = "SINGLE_GAME", "TOURNAMENT", "SEAT", "ENTRY"
SEAT_LINK = re.compile(r"/t/([A-Za-z0-9_-]{1,64})\?seat=([A-Za-z0-9_-]{1,128})$")
"""A seat's invitation link (``…/t/ID?seat=TOKEN``) given as the session's name: that seat."""
PLAYER_LINK = re.compile(r"/tournament/([A-Za-z0-9_-]{1,64})\?player=([A-Za-z0-9_-]{1,128})$")
"""A tournament player's own link (``…/tournament/ID?player=TOKEN``) given as the session's
name: that player's seat in every round of the tournament."""
FOLLOW_TICK = 0.5
"""Seconds between two looks, between rounds, for a tournament player's next seat."""
ANSWERS = ("CHOOSE_TRUMPF", "CHOOSE_CARD")
"""A bot's answers to a request (REQUEST_TRUMPF, REQUEST_CARD)."""


@dataclass
class Member:
    """A bot's client in a session; ``seat`` is its seat in the game it plays now (in a
    tournament, before its first game: its number in the session)."""

    id: int
    name: str
    seat: int
    socket: WebSocket
    bridge: SeatBridge | None = None
    bad: int = 0  # messages refused before the game started
    gone: bool = False  # its socket ended
    owed: list[str] = field(default_factory=list)
    """The answers (CHOOSE_TRUMPF, CHOOSE_CARD) still to come to requests ``rule`` answered
    for the bot at the time limit, oldest first."""

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "seatId": self.seat, "name": self.name}

    def late_answer(self, kind: Any) -> bool:
        """Whether this frame is the late answer to a request already answered for the bot.
        A bot answers each request once, in order, over one socket: so its next answer is
        the oldest one owed — unless that is of the other kind (a card where a trump was
        owed): then the owed ones before it never came, and are owed no more."""
        if kind not in ANSWERS:
            return False
        while self.owed and self.owed[0] != kind:
            self.owed.pop(0)
        if not self.owed:
            return False
        self.owed.pop(0)
        return True


@dataclass
class Session:
    """A Jass Challenge session: four bots and then a table, or a tournament of bots (two
    clients under one name each) playing each pairing at a table of its own."""

    name: str
    kind: str = SINGLE_GAME
    members: list[Member] = field(default_factory=list)
    spectators: list[WebSocket] = field(default_factory=list)
    table: Table | None = None
    seated: list[Member] = field(default_factory=list)  # the game's four, by seat
    started: bool = False
    ratings: dict[str, Rating] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)  # a tournament's pairings
    player: tuple[str, str] | None = None  # ENTRY: our tournament's id, the player's token

    def team_size(self, team: int) -> int:
        return sum(1 for m in self.members if m.seat % 2 == team)

    def entrants(self) -> list[str]:
        """A tournament's bots: the names that hold two clients, in the order they came."""
        names = [m.name for m in self.members]
        return [n for i, n in enumerate(names) if names.index(n) == i and names.count(n) == 2]

    async def broadcast(self, text: str) -> None:
        for m in list(self.members):
            if not m.gone:
                with suppress(Exception):
                    await m.socket.send_text(text)
        await self.show(text)

    async def show(self, text: str) -> None:
        """A public frame to the spectators."""
        for ws in list(self.spectators):
            with suppress(Exception):
                await ws.send_text(text)

    def ranking(self) -> dict[str, Any]:
        """BROADCAST_TOURNAMENT_RANKING_TABLE: the entrants by Glicko-2 rating, the pairings."""
        order = sorted(self.ratings.items(), key=lambda kv: -kv[1].rating)
        return {
            "ranking": [
                {
                    "rank": n,
                    "playerName": name,
                    "rating": round(r.rating, 1),
                    "deviation": round(r.deviation, 1),
                }
                for n, (name, r) in enumerate(order, 1)
            ],
            "pairingResults": self.results,
        }


class Lobby:
    """The sessions of the endpoint: open ones (waiting for players) by name, and every one
    still going (``live``: for spectators)."""

    def __init__(self, tables: Tables, limit: float, tournament_limit: float) -> None:
        self.tables = tables
        self.limit = limit
        self.tournament_limit = tournament_limit
        self.open: dict[str, Session] = {}
        self.live: dict[str, Session] = {}
        self.ids = itertools.count(1)
        self.names = itertools.count(1)

    def choose(self, choice: Any, team: int | None = None) -> Session:
        """The session a CHOOSE_SESSION asks for (AUTOJOIN: one where ``team``, the bot's
        chosen team, has a free seat); ``BadFrame`` saying why not."""
        if not isinstance(choice, dict):
            raise BadFrame("CHOOSE_SESSION takes an object such as {sessionChoice: AUTOJOIN}")
        how = choice.get("sessionChoice")
        name = choice.get("sessionName")
        kind = choice.get("sessionType", SINGLE_GAME)
        if name is not None and not isinstance(name, str):
            raise BadFrame("sessionName is a string")
        if kind not in (SINGLE_GAME, TOURNAMENT):
            raise BadFrame("sessionType is SINGLE_GAME or TOURNAMENT")
        if how == "AUTOJOIN":
            found = [
                x
                for x in self.open.values()
                if x.kind == SINGLE_GAME and (team is None or x.team_size(team) < 2)
            ]
            if found:
                return found[0]
            name, kind = f"chibre {next(self.names)}", SINGLE_GAME
            while name in self.live:  # a name some bot chose: a single game of its own
                name = f"chibre {next(self.names)}"
        elif how == "JOIN_EXISTING":
            if name not in self.open:
                raise BadFrame(f"no open session {str(name)[:NAME_LENGTH]!r}")
            return self.open[name]
        elif how != "CREATE_NEW":
            raise BadFrame("sessionChoice is AUTOJOIN, CREATE_NEW, JOIN_EXISTING or SPECTATOR")
        if not isinstance(name, str) or not 0 < len(name) <= NAME_LENGTH:
            raise BadFrame(f"a session's name is 1 to {NAME_LENGTH} characters")
        if name in self.open:
            if "sessionType" in choice and self.open[name].kind != kind:
                raise BadFrame(f"the session {name!r} is not a {kind} session")
            return self.open[name]
        if name in self.live:
            raise BadFrame(f"the session {name!r} has started: choose another name")
        if len(self.open) >= MAX_SESSIONS:
            raise BadFrame("too many sessions are waiting for players: try again later")
        self.open[name] = self.live[name] = Session(name, kind)
        return self.open[name]

    def take_seat(self, link: str, name: str, ws: WebSocket) -> tuple[Session, Member]:
        """A seat of one of our tables, by its invitation link: a session of one bot."""
        found = SEAT_LINK.search(link)
        table = self.tables.get(found.group(1)) if found else None
        seat = table.seat_of(found.group(2)) if table is not None and found else None
        if table is None or seat is None:
            raise BadFrame("that seat link opens no seat of this server")
        why = None
        if table.game.is_over:
            why = "that table's game is over"
        elif table.game.rules.weis or table.game.rules.stoeck:
            why = "that table plays weis or stöck, which this protocol cannot carry"
        elif f"{table.id}:{seat}" in self.live:
            why = "a bot of this protocol holds that seat already"
        if why is not None:
            self.tables.release(table)
            raise BadFrame(why)
        session = Session(f"{table.id}:{seat}", SEAT, table=table)
        member = Member(next(self.ids), name, seat, ws)
        session.members.append(member)
        session.seated = [member]
        self.live[session.name] = session
        return session, member

    def follow(
        self, link: str, name: str, ws: WebSocket, tournaments: Tournaments
    ) -> tuple[Session, Member]:
        """A player of one of our tournaments, by their own link: a session of one bot that
        takes the player's seat in each round (``_follow``)."""
        found = PLAYER_LINK.search(link)
        try:
            now = tournaments.entry_seat(found.group(1), found.group(2)) if found else None
        except StoreUnavailable:
            raise BadFrame("the tournaments cannot be read now: try again later") from None
        if found is None or now is None:
            raise BadFrame("that link opens no player of a tournament of this server")
        session_name = f"tournament {now.tournament} {now.player}"
        if now.rules.weis or now.rules.stoeck:
            raise BadFrame("that tournament plays weis or stöck, which this protocol cannot carry")
        if now.over:
            raise BadFrame("that tournament has no more rounds for this player")
        if session_name in self.live:
            raise BadFrame("a bot of this protocol plays for that player already")
        session = Session(session_name, ENTRY, player=(now.tournament, found.group(2)))
        member = Member(next(self.ids), name, -1, ws)
        session.members.append(member)
        self.live[session_name] = session
        return session, member

    def watch(self, choice: dict[str, Any]) -> Session:
        """The session a spectator asks for (by name, else the first one going)."""
        name = choice.get("sessionName")
        if name is not None and not isinstance(name, str):
            raise BadFrame("sessionName is a string")
        going = [x for x in self.live.values() if x.kind not in (SEAT, ENTRY)]
        session = self.live.get(name) if name else next(iter(going), None)
        if session is None or session.kind in (SEAT, ENTRY):
            raise BadFrame(f"no session {str(name)[:NAME_LENGTH]!r} to watch")
        if len(session.spectators) >= MAX_SPECTATORS:
            raise BadFrame("that session has as many spectators as it takes")
        return session

    def join(self, session: Session, name: str, ws: WebSocket, team: int | None) -> Member:
        """The bot joins the session: in a single game, at the first free seat of ``team``
        (``None``: of the team with fewer players); ``BadFrame`` when that team is full."""
        if session.kind == TOURNAMENT:
            if [m.name for m in session.members].count(name) >= 2:
                raise BadFrame(f"{name!r} has its two clients in this tournament already")
            if len({m.name for m in session.members} | {name}) > MAX_ENTRANTS:
                raise BadFrame(f"a tournament takes {MAX_ENTRANTS} bots at most")
            member = Member(next(self.ids), name, len(session.members), ws)
            session.members.append(member)
            return member
        if team is None:
            team = 0 if session.team_size(0) <= session.team_size(1) else 1
        elif session.team_size(team) >= 2:
            free = 1 - team
            raise BadFrame(
                f"{TEAM_NAMES[team]} (chosenTeamIndex {team}) of the session {session.name!r} is"
                f" full: {TEAM_NAMES[free]} (chosenTeamIndex {free}) has a free seat"
            )
        # the team's first free seat: 2 × its players + its index, unless one left before
        taken = {m.seat for m in session.members}
        member = Member(next(self.ids), name, team if team not in taken else team + 2, ws)
        session.members.append(member)
        if len(session.members) == 4:  # full: nobody else joins while it starts
            self.open.pop(session.name, None)
            session.seated = sorted(session.members, key=lambda m: m.seat)
        return member

    def start(self, session: Session) -> Table:
        """The game's four bots are seated: the table, with the protocol's rules."""
        names = [m.name for m in session.seated]
        request = TableRequest.model_validate(
            {"options": JC_OPTIONS, "seats": ["human"] * 4, "names": names}
        )
        seed = self.tables.settings.jass_challenge_seed
        table = self.tables.create(request, None if seed is None else DealSource(seed))
        session.table = table
        log.info(
            "jass challenge session %r plays at table %s: watch it at /t/%s?watch=%s, its record"
            " once over at /api/tables/%s/record?watch=%s",
            session.name, table.id, table.id, table.stored.watch, table.id, table.stored.watch,
        )  # fmt: skip
        return table

    def limit_of(self, session: Session) -> float:
        return self.tournament_limit if session.kind == TOURNAMENT else self.limit


class SeatBridge:
    """One bot's seat: our state frames told in the protocol's frames, its answers applied."""

    def __init__(self, lobby: Lobby, session: Session, member: Member, table: Table) -> None:
        self.lobby = lobby
        self.session = session
        self.member = member
        self.table = table
        self.seat = member.seat
        self.limit = lobby.limit_of(session)
        self.gone = member.gone  # a tournament's bot that left plays no more
        self.bad = 0
        self.view: dict[str, Any] = {}
        self.asked = -1  # the seq of the request the bot owes an answer to
        self.asked_at = 0.0  # when it was asked (monotonic)
        self.deadline: asyncio.TimerHandle | None = None
        self.trick: list[int] = []
        self.factor = 1
        self.totals = [0, 0]
        self.round = [0, 0]
        self.fallback = make_player("rule", table.seats[member.seat].info.seed or 0)
        self.conn: Connection | None = None
        self.done = asyncio.Event()

    # --- the table's side ------------------------------------------------------------------

    async def on_state(self, text: str) -> None:
        """The pump of our seat's connection: tell the bot, then ask it when it is to act."""
        state = json.loads(text)
        if state.get("type") != "state":
            return
        self.catch_up()
        events = state["events"]
        if not self.view and state["view"]["hand_number"] >= 0:  # dealt before it joined
            events = self.so_far(state["view"])
        for event in events:
            for out in self.told(event):
                await self.send(out)
                if self.seat == 0 and event["type"] != "HandStarted":  # public: seat 0 tells
                    await self.session.show(out)
        self.view = state["view"]
        v = self.view
        if v["phase"] == "over":
            self.done.set()
            return
        if v["to_act"] == self.seat and v["legal"] and state["seq"] > self.asked:
            self.asked = state["seq"]
            self.arm()
            await self.request()

    def so_far(self, v: dict[str, Any]) -> list[dict[str, Any]]:
        """The events of the hand until now, from the seat's VIEW (a seat link's table may
        have played on before its bot came): the deal, the contract, the tricks."""
        points = v.get("hand_points") or [0, 0]
        self.totals = [v["totals"][0] - points[0], v["totals"][1] - points[1]]
        events: list[dict[str, Any]] = [{"type": "HandStarted", "number": v["hand_number"]}]
        if v["chibres"] > 0:
            events.append({"type": "Chibred"})
        if v["contract"] >= 0:
            events.append(
                {"type": "ContractNamed", "contract": v["contract"], "factor": v["factor"]}
            )
        for t in v["tricks"]:
            events += [{"type": "CardPlayed", "card": c} for c in t["cards"]]
            events.append({"type": "TrickTaken", "winner": t["winner"], "points": t["points"]})
        return events + [{"type": "CardPlayed", "card": c} for c in v["trick"]]

    def told(self, e: dict[str, Any]) -> list[str]:
        """The protocol's frames for one of our events."""
        kind = e["type"]
        if kind == "HandStarted":
            self.trick, self.round, self.factor = [], [0, 0], 1
            dealt = self.table.game.hands[e["number"]].dealt[self.seat]  # this seat's own
            return [frame("DEAL_CARDS", [card_to_jc(c) for c in range(36) if dealt >> c & 1])]
        if kind == "Chibred":
            return [frame("BROADCAST_TRUMPF", dict(SCHIEBE))]
        if kind == "ContractNamed":
            self.factor = e["factor"]
            return [frame("BROADCAST_TRUMPF", mode_to_jc(Choose(e["contract"])))]
        if kind == "CardPlayed":
            self.trick.append(parse_card(e["card"]))
            return [frame("PLAYED_CARDS", [card_to_jc(c) for c in self.trick])]
        if kind == "TrickTaken":
            winner = e["winner"]
            self.round[winner % 2] += e["points"] * self.factor
            member = self._member(winner)
            stich = {
                "name": self._name(winner),
                "id": member.id if member else -1 - winner,
                "seatId": winner,
                "playedCards": [card_to_jc(c) for c in self.trick],
                "teams": self.teams(),
            }
            self.trick = []
            return [frame("BROADCAST_STICH", stich)]
        if kind == "HandScored":
            self.round = list(e["points"])
            teams = self.teams()
            self.totals = [self.totals[0] + self.round[0], self.totals[1] + self.round[1]]
            return [frame("BROADCAST_GAME_FINISHED", teams)]
        if kind == "GameWon":
            team = e["team"]
            won = {
                "name": TEAM_NAMES[team],
                "points": self.table.game.totals[team],  # as the table counted the game
                "currentRoundPoints": self.round[team],
            }
            return [frame("BROADCAST_WINNER_TEAM", won)]
        return []

    def teams(self) -> list[dict[str, Any]]:
        return [
            {
                "name": TEAM_NAMES[t],
                "points": self.totals[t] + self.round[t],
                "currentRoundPoints": self.round[t],
            }
            for t in (0, 1)
        ]

    def _member(self, seat: int) -> Member | None:
        return next((m for m in self.session.seated if m.seat == seat), None)

    def _name(self, seat: int) -> str:
        member = self._member(seat)
        return member.name if member else self.table.seats[seat].info.name or f"seat {seat + 1}"

    async def request(self) -> None:
        v = self.view
        if self.gone:
            asyncio.get_running_loop().call_soon(self.decide_for_it, self.asked, "gone")
        elif v["phase"] == "contract":
            await self.send(frame("REQUEST_TRUMPF", v["chibres"] > 0))
        else:
            await self.send(frame("REQUEST_CARD", [card_to_jc(c) for c in self._trick()]))

    def _trick(self) -> list[int]:
        return [parse_card(c) for c in self.view["trick"]]

    def arm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        loop = asyncio.get_running_loop()
        self.asked_at = time.monotonic()
        self.deadline = loop.call_later(self.limit, self.decide_for_it, self.asked, "late")

    def note(self, kind: str, detail: str) -> None:
        """An incident of this seat, into the table's record."""
        waited = time.monotonic() - self.asked_at if self.asked >= 0 else 0.0
        try:
            self.table.note_incident(self.seat, kind, detail, waited)
        except Exception:  # the record keeps the moves whatever happens to a note
            log.exception("table %s: an incident of seat %d was not kept", self.table.id, self.seat)

    def catch_up(self) -> None:
        """The table moved on since the bot was asked (read from the table, as the bot's answer
        may come before the pump tells the seat): where only other seats declared in between
        and it is still to act, the request stays open at the new seq, its time running on;
        else (its move was made for it when the table's own time per move ran out, or the game
        ended by a thanks) its answer, when it comes, is owed — dropped, not refused."""
        seq = self.table.seq
        if not 0 <= self.asked < seq:
            return
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        entries = self.table.game.record.entries[self.asked : seq]
        if self.table.game.current_player == self.seat and all(s != self.seat for s, _ in entries):
            self.asked = seq
            left = self.limit - (time.monotonic() - self.asked_at)
            loop = asyncio.get_running_loop()
            self.deadline = loop.call_later(max(left, 0.0), self.decide_for_it, seq, "late")
        else:
            self.member.owed.append(_answer_to(self.view))
            self.asked = -1

    def decide_for_it(self, seq: int, why: str) -> None:
        """Past the time limit (or the bot is gone): ``rule`` plays the seat's move."""
        if seq != self.asked or seq != self.table.seq or self.table.game.is_over:
            return
        observation = self.table.game.observation(self.seat)
        if observation.to_act != self.seat:
            return
        action = self.fallback.act(observation)
        said = f"no answer within {self.limit:g} s" if why == "late" else why
        played = format_action(action, self.seat)
        log.warning(
            "jass challenge %r: %s (seat %d): %s; rule played %s",
            self.session.name, self.member.name, self.seat, said, played,
        )  # fmt: skip
        if why == "late":  # a bot that left is noted once, when it leaves
            self.note("late", f"{said}; rule played {played}")
        owed = _answer_to(self.view)
        if not self._apply(action):
            loop = asyncio.get_running_loop()
            self.deadline = loop.call_later(1.0, self.decide_for_it, seq, why)
        elif why == "late":  # its answer may still come: it answers this request, no later one
            self.member.owed.append(owed)

    def _apply(self, action: Action) -> bool:
        """Apply the seat's action; ``False`` when the store could not take it."""
        try:
            self.table.act(self.seat, action)
        except StoreUnavailable:
            log.exception(
                "table %s: a move of seat %d could not be stored", self.table.id, self.seat
            )
            return False
        self.asked = -1
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        return True

    async def send(self, text: str) -> None:
        if self.gone:
            return
        try:
            await self.member.socket.send_text(text)
        except Exception:  # the socket is gone: the seat goes on without it
            self.leave()

    def leave(self) -> None:
        if self.gone:
            return
        self.gone = True
        if self.asked >= 0:
            asyncio.get_running_loop().call_soon(self.decide_for_it, self.asked, "gone")

    # --- the bot's side --------------------------------------------------------------------

    async def receive(self, kind: Any, data: Any) -> None:
        v = self.view
        waiting = self.asked >= 0 and self.asked == self.table.seq
        try:
            if kind == "CHOOSE_TRUMPF":
                if not waiting or v.get("phase") != "contract":
                    raise BadFrame("CHOOSE_TRUMPF without a REQUEST_TRUMPF")
                action: Action = mode_from_jc(data)
                if isinstance(action, Chibre) and v["chibres"] > 0:
                    self.note("illegal", "pushed back after a push (REJECT_TRUMPF)")
                    await self.send(frame("REJECT_TRUMPF", dict(SCHIEBE)))
                    await self.send(frame("REQUEST_TRUMPF", True))
                    return
            elif kind == "CHOOSE_CARD":
                if not waiting or v.get("phase") != "play":
                    raise BadFrame("CHOOSE_CARD without a REQUEST_CARD")
                action = Play(card_from_jc(data))
            else:
                raise BadFrame(f"{str(kind)[:40]!r} is not a message a player sends now")
            try:
                self.table.act(self.seat, action)
            except ProtocolError:  # the rules refuse it: reject and ask again
                if isinstance(action, Play):
                    code = format_action(action, self.seat)
                    self.note("illegal", f"{code} is not legal now (REJECT_CARD)")
                    await self.send(frame("REJECT_CARD", data))
                    await self.send(frame("REQUEST_CARD", [card_to_jc(c) for c in self._trick()]))
                    return
                raise BadFrame("that contract cannot be named now") from None
            except StoreUnavailable:
                raise BadFrame("the move could not be saved: send it again") from None
            self.asked = -1
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None
        except BadFrame as e:
            await self.refuse(str(e))

    async def refuse(self, why: str) -> None:
        """A message it should not have sent: BAD_MESSAGE, and the incident noted."""
        self.bad += 1
        self.note("garbage", f"BAD_MESSAGE: {why}")
        await self.send(frame("BAD_MESSAGE", why))


def _answer_to(view: dict[str, Any]) -> str:
    """The answer a request in this view asks for."""
    return "CHOOSE_TRUMPF" if view.get("phase") == "contract" else "CHOOSE_CARD"


# --- the socket ------------------------------------------------------------------------------


async def _read(ws: WebSocket, timeout: float | None = None) -> tuple[Any, Any] | None:
    """The next frame's type and data; ``None`` once the socket is gone. A frame that is not
    the protocol's JSON gives type ``None`` and the reason as data."""
    try:
        message = await asyncio.wait_for(ws.receive(), timeout)
    except (TimeoutError, WebSocketDisconnect):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        return None, "frames are JSON text"
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        return None, f"a message may be at most {MAX_FRAME} bytes"
    try:
        d = json.loads(text)
    except (ValueError, RecursionError):
        return None, "the message is not JSON"
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        return None, 'a message is {"type": T, "data": D}'
    return d["type"], d.get("data")


def _plain(text: str) -> str:
    """``text`` as a name shows it: what does not print (control characters, line breaks,
    invisible marks) as spaces, runs of spaces as one."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


async def _hello(ws: WebSocket, lobby: Lobby, quota: Quota) -> tuple[Session, Member | None] | None:
    """Name and session: the bot's seat (``None`` for a spectator); ``None`` when it left (or
    never answered) before."""
    await ws.send_text(frame("REQUEST_PLAYER_NAME"))
    name: str | None = None
    bad = 0
    while name is None:
        got = await _read(ws, HELLO_LIMIT)
        bad += 1
        if got is None or await _too_bad(ws, bad):
            return None
        kind, data = got
        said = _plain(data)[:NAME_LENGTH].strip() if isinstance(data, str) else ""
        if kind == "CHOOSE_PLAYER_NAME" and said:
            name = said
        else:
            await ws.send_text(frame("BAD_MESSAGE", "expected CHOOSE_PLAYER_NAME with a name"))
    while True:
        await ws.send_text(frame("REQUEST_SESSION_CHOICE", list(lobby.open)))
        got = await _read(ws, HELLO_LIMIT)
        bad += 1
        if got is None or await _too_bad(ws, bad):
            return None
        kind, data = got
        try:
            if kind != "CHOOSE_SESSION":
                raise BadFrame("expected CHOOSE_SESSION")
            if isinstance(data, dict) and (
                data.get("sessionChoice") == "SPECTATOR" or data.get("asSpectator") is True
            ):
                session = lobby.watch(data)
                session.spectators.append(ws)
                return session, None
            link = data.get("sessionName") if isinstance(data, dict) else None
            if isinstance(link, str) and SEAT_LINK.search(link):  # the link's seat: no team
                return lobby.take_seat(link, name, ws)  # to choose
            if isinstance(link, str) and PLAYER_LINK.search(link):
                return lobby.follow(link, name, ws, ws.app.state.tournaments)
            team = _team_choice(data)
            session = lobby.choose(data, team)
            if not session.members:  # a new session is a new table: the table quota
                wait = quota.allow(ws.client.host if ws.client else "?")
                if wait is not None:
                    lobby.open.pop(session.name, None)
                    lobby.live.pop(session.name, None)
                    raise BadFrame(
                        f"at most {quota.per_minute} new tables a minute: try again in {wait:.0f} s"
                    )
            member = lobby.join(session, name, ws, team)
        except BadFrame as e:
            await ws.send_text(frame("BAD_MESSAGE", str(e)))
            continue
        return session, member


def _team_choice(choice: Any) -> int | None:
    """CHOOSE_SESSION's ``chosenTeamIndex``: 0, 1, or ``None`` (absent or null: any team);
    ``BadFrame`` for anything else."""
    team = choice.get("chosenTeamIndex") if isinstance(choice, dict) else None
    if team is None or (type(team) is int and team in (0, 1)):
        return team
    raise BadFrame(
        "chosenTeamIndex is 0 (Team 1), 1 (Team 2), or null or left out (a team with a free"
        f" seat), not {json.dumps(team)[:NAME_LENGTH]}"
    )


async def _too_bad(ws: WebSocket, bad: int) -> bool:
    """Past ``MAX_BAD`` frames the bot is cut off, told so by the close code (1008, not the
    1000 of a game played to its end)."""
    if bad <= MAX_BAD:
        return False
    with suppress(Exception):
        await ws.close(CLOSE_POLICY)
    return True


async def jass_challenge_socket(ws: WebSocket) -> None:
    """One bot (or spectator) of the Jass Challenge protocol."""
    await ws.accept()
    lobby: Lobby = ws.app.state.jass_challenge
    seated = await _hello(ws, lobby, ws.app.state.table_quota)
    if seated is None:
        with suppress(Exception):
            await ws.close(CLOSE_NORMAL)
        return
    session, member = seated
    if member is None:
        await _watch(ws, lobby, session)
        return
    joined = {
        "sessionName": session.name,
        "player": member.as_json(),
        "playersInSession": [m.as_json() for m in session.members],
    }
    await session.broadcast(frame("BROADCAST_SESSION_JOINED", joined))
    if (session.kind == SINGLE_GAME and len(session.members) == 4) or session.kind == SEAT:
        await _start(lobby, session)
    follow = None
    if session.kind == ENTRY:
        follow = asyncio.get_running_loop().create_task(_follow(lobby, session, member))
    try:
        while True:
            got = await _read(ws)
            if got is None:
                break
            kind, data = got
            if kind == "START_TOURNAMENT":
                await _start_tournament(ws, lobby, session)
                continue
            if member.bridge is not None:
                member.bridge.catch_up()  # what it owes, as the table stands now
            if member.late_answer(kind):  # its incident is the request's "late": dropped
                log.info(
                    "jass challenge %r: %s answered late (%s); dropped: answered for it already",
                    session.name, member.name, kind,
                )  # fmt: skip
                continue
            bridge = member.bridge
            if bridge is None or bridge.done.is_set():
                member.bad += 1
                if await _too_bad(ws, member.bad):
                    break
                said = data if kind is None else "no game of yours has started"  # unread: why
                await ws.send_text(frame("BAD_MESSAGE", said))
                continue
            if kind is None:
                await bridge.refuse(data)
            else:
                await bridge.receive(kind, data)
            if await _too_bad(ws, bridge.bad):
                break
            if bridge.done.is_set() and session.kind not in (TOURNAMENT, ENTRY):
                break
    finally:
        await _left(lobby, session, member)
        if follow is not None:
            follow.cancel()
            lobby.live.pop(session.name, None)


async def _watch(ws: WebSocket, lobby: Lobby, session: Session) -> None:
    """A spectator: it hears the session's public frames (never a bot's cards or requests)
    until the session ends; it may start a tournament."""
    try:
        while (got := await _read(ws)) is not None:
            if got[0] == "START_TOURNAMENT":
                await _start_tournament(ws, lobby, session)
            else:
                await ws.send_text(frame("BAD_MESSAGE", "a spectator only watches"))
    finally:
        with suppress(ValueError):
            session.spectators.remove(ws)


async def _start(lobby: Lobby, session: Session) -> Table | None:
    """The session's bots (``session.seated``) sit down: the table (a new one, or the seat
    link's), a bridge for each."""
    try:
        if session.kind in (SEAT, ENTRY) and session.table is not None:
            table = session.table  # a seat of one of our tables
        else:
            table = lobby.start(session)
    except (InvalidTable, TooManyTables, StoreUnavailable, ValidationError) as e:
        await session.broadcast(frame("ERROR", f"the game could not start: {e}"))
        await _close_all(lobby, session)
        return None
    if session.kind == SEAT:  # the bot's name is the seat's, as a player's own (40 kept)
        for m in session.seated:
            with suppress(ProtocolError, StoreUnavailable):
                table.rename(m.seat, m.name)
    teams = [
        {"name": TEAM_NAMES[t], "players": [_player(session, table, s) for s in (t, t + 2)]}
        for t in (0, 1)
    ]
    for m in session.seated:
        with suppress(Exception):
            if not m.gone:
                await m.socket.send_text(frame("BROADCAST_TEAMS", teams))
    await session.show(frame("BROADCAST_TEAMS", teams))
    for m in session.seated:
        m.bridge = SeatBridge(lobby, session, m, table)
        if m.gone:
            m.bridge.note("gone", f"{m.name} left the tournament before this game; rule plays")
    for m in session.seated:
        assert m.bridge is not None
        m.bridge.conn = table.join(m.seat, m.bridge.on_state)
        asyncio.get_running_loop().create_task(_pump(m.bridge))
    return table


def _player(session: Session, table: Table, seat: int) -> dict[str, Any]:
    """A seat in BROADCAST_TEAMS: its bot, or (at a seat link's table) who sits there."""
    member = next((m for m in session.seated if m.seat == seat), None)
    if member is not None:
        return member.as_json()
    info = table.seats[seat].info
    return {"id": -1 - seat, "seatId": seat, "name": info.name or f"seat {seat + 1}"}


async def _pump(bridge: SeatBridge) -> None:
    """Our seat's connection, until the game is over; then a single game's socket closes
    (1000)."""
    conn = bridge.conn
    assert conn is not None
    pump = asyncio.create_task(conn.pump())
    await bridge.done.wait()
    await asyncio.sleep(0)  # let the last frames go out
    pump.cancel()
    bridge.table.leave(conn)
    bridge.lobby.tables.release(bridge.table)
    if bridge.session.kind not in (TOURNAMENT, ENTRY):
        with suppress(Exception):
            await bridge.member.socket.close(CLOSE_NORMAL)
        if bridge.seat == 0 or bridge.session.kind == SEAT:  # its last frames went out
            await _close_all(bridge.lobby, bridge.session, bots=False)


async def _follow(lobby: Lobby, session: Session, member: Member) -> None:
    """A tournament player's bot: in each round it takes the player's seat at that round's
    table (``Tournaments.entry_seat``) and plays there as by the seat's link; between rounds it
    waits; once no round will seat the player any more its socket closes (1000)."""
    assert session.player is not None
    tournaments = member.socket.app.state.tournaments
    while not member.gone:
        try:
            now = tournaments.entry_seat(*session.player)
        except StoreUnavailable:  # looked at again in a moment
            log.exception("jass challenge %r: the tournament could not be read", session.name)
            await asyncio.sleep(FOLLOW_TICK)
            continue
        if now is None or now.over:
            break
        found = SEAT_LINK.search(now.link) if now.link else None
        table = lobby.tables.get(found.group(1)) if found else None
        seat = table.seat_of(found.group(2)) if table is not None and found else None
        if table is None or seat is None or table.game.is_over:
            if table is not None:
                lobby.tables.release(table)
            await asyncio.sleep(FOLLOW_TICK)
            continue
        log.info("jass challenge %r: %s plays at table %s", session.name, member.name, table.id)
        session.table, member.seat, session.seated = table, seat, [member]
        if await _start(lobby, session) is None or member.bridge is None:
            break
        await member.bridge.done.wait()
        member.bridge = None
    if not member.gone:
        with suppress(Exception):
            await member.socket.close(CLOSE_NORMAL)


async def _close_all(lobby: Lobby, session: Session, bots: bool = True) -> None:
    """The session is over: every socket closes (1000; ``bots``: the bots' too)."""
    lobby.open.pop(session.name, None)
    lobby.live.pop(session.name, None)
    sockets = [m.socket for m in session.members] if bots else []
    for ws in [*sockets, *session.spectators]:
        with suppress(Exception):
            await ws.close(CLOSE_NORMAL)


async def _start_tournament(ws: WebSocket, lobby: Lobby, session: Session) -> None:
    """START_TOURNAMENT: once two bots hold both their clients, the round robin begins."""
    if session.kind != TOURNAMENT or session.started:
        await ws.send_text(frame("BAD_MESSAGE", "no tournament of this session waits to start"))
        return
    entrants = session.entrants()
    if len(entrants) < 2:
        await ws.send_text(frame("BAD_MESSAGE", "a tournament starts with two bots of two clients"))
        return
    session.started = True
    lobby.open.pop(session.name, None)
    session.ratings = {name: Rating() for name in entrants}
    asyncio.get_running_loop().create_task(_tournament(lobby, session, entrants))


async def _tournament(lobby: Lobby, session: Session, entrants: list[str]) -> None:
    """Every pairing of the bots plays a game (the first named holds seats 0 and 2); after each,
    the Glicko-2 ranking. A bot that missed a deadline in a game loses that pairing."""
    await session.broadcast(frame("BROADCAST_TOURNAMENT_STARTED", {"players": entrants}))
    for first, second in itertools.combinations(entrants, 2):
        a = [m for m in session.members if m.name == first]
        b = [m for m in session.members if m.name == second]
        for seat, m in enumerate((a[0], b[0], a[1], b[1])):
            m.seat = seat
        session.seated = [a[0], b[0], a[1], b[1]]
        table = await _start(lobby, session)
        if table is None:
            return
        await asyncio.gather(*(m.bridge.done.wait() for m in session.seated if m.bridge))
        late = {
            s.number % 2 for s in table.seats if any(i.kind == "late" for i in s.info.incidents)
        }
        winner = table.game.winner
        if len(late) == 1:  # a missed deadline loses the pairing
            winner = 1 - next(iter(late))
        first_won = winner == 0
        session.results.append(
            {
                "player1": first,
                "player2": second,
                "firstPlayerWon": first_won,
                "points": list(table.game.totals),
                "table": table.id,
            }
        )
        ra, rb = session.ratings[first], session.ratings[second]
        session.ratings[first] = update(ra, [(rb, 1.0 if first_won else 0.0)])
        session.ratings[second] = update(rb, [(ra, 0.0 if first_won else 1.0)])
        await session.broadcast(frame("BROADCAST_TOURNAMENT_RANKING_TABLE", session.ranking()))
        for m in session.seated:
            m.bridge = None
    log.info("jass challenge tournament %r is over", session.name)
    await _close_all(lobby, session)


async def _left(lobby: Lobby, session: Session, member: Member) -> None:
    """A bot's socket ended: before its game it leaves the session; during it, ``rule``
    plays its seat from now on (in a tournament, in its later games too) and the others are
    told."""
    member.gone = True
    bridge = member.bridge
    if bridge is None:
        if not session.started and session.table is None and member in session.members:
            session.members.remove(member)
            if not session.members:
                lobby.open.pop(session.name, None)
                lobby.live.pop(session.name, None)
        return
    if bridge.done.is_set():
        return
    if session.kind in (SEAT, ENTRY):  # our table's seat is free again: grace, then rule
        bridge.note("gone", f"{member.name} left the seat")
        bridge.asked = -1
        if bridge.deadline is not None:
            bridge.deadline.cancel()
        bridge.done.set()
        return
    bridge.leave()
    log.warning(
        "jass challenge %r: %s left; rule plays seat %d", session.name, member.name, member.seat
    )
    bridge.note("gone", f"{member.name} left the game; rule plays the seat")
    await session.broadcast(frame("ERROR", f"Player {member.name} left the game!"))
