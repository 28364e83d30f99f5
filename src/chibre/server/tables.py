"""The tables of a running server: each a ``chibre.game.Game`` with its seats, its connections
and its computer players.

A ``Table`` is a thin shell around the game. ``act`` checks who speaks and what, applies the
action (an engine error becomes an ``illegal`` error frame and changes nothing), writes it to
the store, and only then tells every connection, each of which is sent the view of its own
seat (``chibre.server.views``). The server deals each hand (``secrets``, or from the table's
committed seed, ``chibre.tournament.fairdeal``) and lets computer
seats act, after short configurable pauses. A human who drops keeps the seat; after a grace
period a computer plays it until the player reopens the link. A table that nobody has open
(no player, no spectator) pauses until someone comes, unless it plays on by itself (a
tournament's).

When the store refuses a write, nothing changes: a player is answered ``unavailable``, a deal or
a computer move is tried again a second later.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import sqlite3
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from random import SystemRandom
from typing import Any

from chibre import i18n
from chibre.actions import Action, Declare, Play, Thank
from chibre.bots import Player
from chibre.errors import ChibreError, GameOver, IllegalAction, NotYourTurn
from chibre.events import Event
from chibre.game import CHANCE
from chibre.play import illegal_reason, why_illegal
from chibre.server.lobby import HUMAN, table_request
from chibre.server.models import MAX_NAME, TableRequest, _printable
from chibre.server.protocol import (
    PONG,
    Language,
    Ping,
    ProtocolError,
    React,
    Rematch,
    Rename,
    Report,
    event_to_json,
    illegal_to_json,
    read_message,
)
from chibre.server.quota import Quota
from chibre.server.store import (
    SeatIncident,
    SeatInfo,
    Statement,
    Store,
    StoredTable,
    StoreUnavailable,
    TableTerms,
)
from chibre.server.thinking import FAST_PLAYERS, Thinkers, fallback, load_player
from chibre.server.views import ViewCache
from chibre.tournament.fairdeal import DealSource, new_seed

log = logging.getLogger("chibre.server")


@dataclass(frozen=True)
class Settings:
    """The server's pauses and limits, in seconds (``chibre serve --bot-delay --deal-delay
    --grace --think-limit``)."""

    bot_delay: float = 0.6
    deal_delay: float = 1.5
    grace: float = 60.0
    think_limit: float = 30.0
    """How long a search player may think; then ``rule`` plays the seat."""
    jass_challenge_limit: float = 10.0
    """How long a Jass Challenge bot may take to answer a request; then ``rule`` plays."""
    jass_challenge_tournament_limit: float = 0.5
    """The same in a Jass Challenge tournament (the protocol's 500 ms)."""
    jass_challenge_seed: str | None = None
    """Deals every Jass Challenge session's game from this seed (``fairdeal``): each session
    the same cards, a match that can be played again; ``None``: each deal shuffled."""
    max_open_tables: int = 1000
    """Unfinished tables in play at once; a new one past this is refused (503)."""
    tables_per_minute: int = 10
    """Tables one client address may open in a minute; past this, 429."""
    unwatched_rest: float = 600.0
    """A table pauses as soon as nobody has it open (``Table.unattended``), and is put to rest
    (unloaded, no longer restored at start; it goes on when someone opens it again) after this
    many seconds: it counts no longer against ``max_open_tables``."""
    idle_rest: float = 21 * 86400.0
    """A table that plays on with nobody there (a tournament's) and that nobody has played or
    opened for this long (three weeks) is put to rest the same way."""


def _same(given: str | None, known: str) -> bool:
    """Whether a link's token is ``known`` (compared in constant time)."""
    return bool(given) and secrets.compare_digest(known.encode(), (given or "").encode())


def refusal(key: str, code: str | None = None, **fields: str) -> ProtocolError:
    """A refusal worded by the catalogue's ``error.{key}`` in each client's language; its
    code is ``key`` unless ``code`` says otherwise."""
    return ProtocolError(
        code or key,
        i18n.text("en", f"error.{key}", **fields),
        lambda lang: i18n.text(lang, f"error.{key}", **fields),
    )


class TooManyTables(ChibreError):
    """The server holds as many tables in play as it may (``Settings.max_open_tables``)."""


RETRY = 1.0
"""Seconds before a deal or a computer move the store refused is tried again."""
REST_SWEEP = 30.0
"""Seconds between two looks for tables to put to rest (less when a rest is shorter)."""
ACTIVITY_STEP = 3600.0
"""How far a table's last use may be from what the store keeps of it, in seconds (rests are
counted in days)."""
MAX_INCIDENTS = 250
"""Incidents a seat's record keeps (every decision of a long game fits; a flood does not)."""
MAX_DETAIL = 200
"""Characters kept of an incident's sentence."""
REACTION_GAP = 1.5
"""Seconds between two quick reactions of one seat."""
RENAMES = 5
RENAME_WINDOW = 10.0
"""A seat gives itself at most ``RENAMES`` new names in ``RENAME_WINDOW`` seconds (a typo
put right at once is one of them; a flood is refused)."""
MAX_REPLIES = 32
"""Replies (errors, pongs) a connection may have waiting; one more closes it."""


class Connection:
    """One WebSocket client of a table: a seat (0..3) or a spectator (``seat`` ``None``).

    Frames go out through ``pump``, which sends the latest state whenever the table changed
    (with every event since the previous state) and any reply (errors, pongs). A client that
    sends faster than it reads is cut off once ``MAX_REPLIES`` replies wait (``closed``).
    """

    def __init__(
        self,
        table: Table,
        seat: int | None,
        send: Callable[[str], Awaitable[None]],
        lang: str = "en",
        address: str = "?",
    ):
        self.table = table
        self.seat = seat
        self.lang = lang  # the language its refusals are worded in
        self.address = address  # the client's, for the quota of new tables (a rematch)
        self.send = send
        self.events: list[str] = []  # events not yet sent, as JSON
        self.replies: list[str] = []
        self.dirty = True  # a state is due (the first one on connecting)
        self.wake = asyncio.Event()
        self.wake.set()
        self.closed = False

    def changed(self, events: list[str]) -> None:
        self.events.extend(events)
        self.dirty = True
        self.wake.set()

    def reply(self, frame: str) -> None:
        if self.closed:
            return
        if len(self.replies) >= MAX_REPLIES:
            self.replies.clear()
            self.closed = True  # the socket's reader closes it
        else:
            self.replies.append(frame)
        self.wake.set()

    async def pump(self) -> None:
        """Send what is due until the connection closes."""
        try:
            while not self.closed:
                await self.wake.wait()
                self.wake.clear()
                if self.dirty:
                    self.dirty = False
                    await self.send(self.table.state_frame(self))
                while self.replies:
                    await self.send(self.replies.pop(0))
        except Exception:  # the client is gone (disconnected, or the socket closed)
            self.closed = True


@dataclass
class Seat:
    """A seat at a table: who sits there and who plays it now."""

    number: int
    info: SeatInfo
    connections: int = 0
    bot: bool = False  # a computer plays the seat now
    level: str = ""  # the computer that plays it: its level, or "rule" for a human's seat
    player: Player | None = None  # that computer, when it plays on the event loop
    grace: asyncio.TimerHandle | None = None
    grace_until: float | None = None  # when the computer takes over (wall clock)

    def __post_init__(self) -> None:
        self.level = "rule" if self.human else self.info.kind

    @property
    def human(self) -> bool:
        return self.info.kind == HUMAN

    def computer(self) -> Player | None:
        """The computer playing this seat on the event loop; ``None`` when it thinks in a
        worker process."""
        if self.level not in FAST_PLAYERS:
            return None
        if self.player is None:
            self.player = load_player(self.level, self.info.seed)
        return self.player

    def fall_back(self) -> None:
        """The seat's computer failed: a simpler one plays from now on."""
        self.level = fallback(self.level)
        self.player = None


class Table:
    """A table in play: the game, the seats, the connections."""

    def __init__(
        self,
        stored: StoredTable,
        store: Store,
        settings: Settings,
        thinkers: Thinkers | None = None,
    ) -> None:
        self.id = stored.id
        self.stored = stored
        self.store = store
        terms = stored.terms
        if terms is not None and terms.grace is not None:  # a tournament's own grace
            settings = dataclasses.replace(settings, grace=terms.grace)
        self.settings = settings
        self.move_limit = terms.move if terms is not None else stored.move_limit
        """Seconds a player has for a move; then the computer makes it for them (0: none)."""
        self.move_until: float | None = None
        """When the computer makes the move awaited now (wall clock), under a move limit."""
        self.thinkers = thinkers
        self.game = stored.replay()
        self.seats = [Seat(n, info, bot=info.kind != HUMAN) for n, info in enumerate(stored.seats)]
        self.tokens = {s.info.token: s.number for s in self.seats if s.info.token}
        self.connections: set[Connection] = set()
        self.views = ViewCache(self.game)
        self._table_json: str | None = None
        self._pending: asyncio.Handle | None = None  # the next deal or computer move
        self._clock: tuple[int, float] | None = None  # the move timed: its seq, its deadline
        self._thinking = False
        self._deadline: asyncio.TimerHandle | None = None  # the time limit of a search player
        self.active = time.time()
        """When a move was last made or a client last came or went (wall clock)."""
        self.always_plays = False
        """A tournament's table plays on with nobody watching (``play_on``)."""
        self.next: str | None = None
        """The table of the rematch, once one was asked for."""
        self.rematch: Callable[[Table, str], Table] | None = None
        """Opens the rematch (set by ``Tables``)."""
        self._reacted: dict[int, float] = {}  # when each seat last reacted (monotonic)
        self._renamed: dict[int, deque[float]] = {}  # when each seat named itself (monotonic)
        self.about: Callable[[Table, int | None], dict[str, Any]] | None = None
        """What a tournament adds to the table's summary (set by ``Tables``)."""
        self.round_over: Callable[[Table], bool] | None = None
        """Whether every table of this tournament table's round is over (set by ``Tables``)."""

    # --- reading -------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """How many entries the record holds."""
        return len(self.game.record.entries)

    @property
    def status(self) -> str:
        return "finished" if self.game.is_over else "playing"

    @property
    def unattended(self) -> bool:
        """Nobody has the table open — no player, no spectator, the friends all gone, their
        seats played by the computer since: the table waits for someone to come (unless it
        ``always_plays``), so that nobody's game is finished without them."""
        return not self.always_plays and not self.connections

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens, or ``None``."""
        return next((seat for known, seat in self.tokens.items() if _same(token, known)), None)

    def watches(self, token: str | None) -> bool:
        """Whether a token is the spectators' token of this table."""
        return _same(token, self.stored.watch)

    def replay_share(self, round_over: bool | None = None) -> dict[str, Any]:
        """What a player may share of the game: ``share``, the link that opens its replay
        read-only for anyone (the spectators' link), once the game is over — ``None`` before.
        At a shared-deal tournament table only once every table of the round is over too (the
        others play the same deals): until then ``share_later`` says so. ``round_over``: that
        round's end where the caller has read it already (the summary's tournament)."""
        if not self.game.is_over:
            return {"share": None}
        terms = self.stored.terms
        if terms is not None and terms.shared:
            if round_over is None:  # not read yet: ask the tournament
                round_over = self.round_over is not None and self.round_over(self)
            if not round_over:
                return {"share": None, "share_later": True}
        return {"share": f"/t/{self.id}?watch={self.stored.watch}&replay=1"}

    def seats_json(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": s.number,
                "kind": s.info.kind,
                "name": s.info.name,
                "connected": s.connections > 0,
                "connections": s.connections,
                "bot": s.bot,
                "grace_until": s.grace_until,
            }
            for s in self.seats
        ]

    def table_json(self) -> str:
        if self._table_json is None:
            self._table_json = json.dumps(
                {
                    "id": self.id,
                    "seats": self.seats_json(),
                    "status": self.status,
                    "next": self.next,
                    **({"move_until": self.move_until} if self.move_limit else {}),
                    "hints": self.stored.hints,
                    "rematch": self.offers_rematch,
                },
                ensure_ascii=False,
                separators=(",", ":"),
            )
        return self._table_json

    def state_frame(self, conn: Connection) -> str:
        """The ``state`` frame for one connection, taking the events it has not yet seen."""
        seq = self.seq
        events, conn.events = conn.events, []
        you = (
            '{"seat":null,"spectator":true}'
            if conn.seat is None
            else f'{{"seat":{conn.seat},"spectator":false}}'
        )
        return (
            f'{{"type":"state","seq":{seq},"you":{you},"table":{self.table_json()},'
            f'"view":{{{self.views.fragment(seq, conn.seat)}}},"events":[{",".join(events)}]}}'
        )

    def summary(self, seat: int | None) -> dict[str, Any]:
        """What ``GET /api/tables/{id}`` answers to a seat (``None``: a spectator)."""
        game = self.game
        out: dict[str, Any] = {
            "table": self.id,
            "you": {"seat": seat, "spectator": seat is None},
            "seats": self.seats_json(),
            "rules": game.rules.to_dict(),
            "preset": self.stored.preset,
            "status": self.status,
            "finished": game.is_over,
            "totals": list(game.totals),
            "striche": list(game.striche),
            "winner": game.winner,
            "hands": len(game.hands),
            "created": self.stored.created,
        }
        terms = self.stored.terms
        if self.stored.deals is not None:  # the seed once the game is over (a shared one:
            shared = terms is not None and terms.shared  # once the tournament says so)
            out["deals"] = self.stored.deals.to_dict(reveal=game.is_over and not shared)
        if terms is not None:
            out["passe"] = terms.hands
            out["grace"] = self.settings.grace
        if terms is not None or self.move_limit:
            out["move_limit"] = self.move_limit
        if self.about is not None:  # a tournament's table: its tournament, shared deals
            out.update(self.about(self, seat))
        over = out.get("tournament", {}).get("round_over")  # read once, where it was read
        out.update(self.replay_share(over))
        if seat == 0 and terms is None:  # the creator of a friends' table: the invitations
            out["links"] = {
                "seats": [
                    {"seat": s.number, "link": f"/t/{self.id}?seat={s.info.token}"}
                    for s in self.seats
                    if s.human and s.number != 0
                ],
                "watch": f"/t/{self.id}?watch={self.stored.watch}",
            }
        return out

    # --- connections ---------------------------------------------------------------------

    def join(
        self,
        seat: int | None,
        send: Callable[[str], Awaitable[None]],
        lang: str = "en",
        address: str = "?",
    ) -> Connection:
        """A client arrives; a human back at their seat takes it over from the computer."""
        conn = Connection(self, seat, send, lang, address)
        self.connections.add(conn)
        self.active = time.time()
        if seat is not None:
            s = self.seats[seat]
            s.connections += 1
            if s.grace is not None:
                s.grace.cancel()
                s.grace = None
            s.grace_until = None
            if s.human:
                s.bot = False
            self._seats_changed()
        if self._pending is None and not self._thinking:
            self.schedule()  # a table that waited for someone (or was resting) goes on
        return conn

    def leave(self, conn: Connection) -> None:
        """A client is gone; the last one of a human seat starts the grace period. A table
        left by everyone stops (``unattended``), and so does the clock of a move whose player
        is gone."""
        conn.closed = True
        conn.wake.set()
        self.connections.discard(conn)
        self.active = time.time()
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connections -= 1
            if s.connections == 0 and s.human:
                self._start_grace(s)
            self._seats_changed()
        to_act = self.game.current_player
        if self.unattended or (
            self.move_until is not None and to_act is not None and not self._clocked(to_act)
        ):
            self.schedule()

    def play_on(self) -> None:
        """A tournament's table: it plays on with nobody watching, and a player who does not
        open their seat is replaced by a computer after the grace period."""
        self.always_plays = True
        for s in self.seats:
            if s.human and s.connections == 0 and not s.bot:
                self._start_grace(s)
        if self._pending is None and not self._thinking:
            self.schedule()

    def _start_grace(self, s: Seat) -> None:
        if self.game.is_over or s.grace is not None:
            return
        s.grace = asyncio.get_running_loop().call_later(self.settings.grace, self._take_over, s)
        s.grace_until = time.time() + self.settings.grace

    def _take_over(self, s: Seat) -> None:
        """The grace period is over: a computer plays the dropped human's seat."""
        s.grace = None
        s.grace_until = None
        if s.connections == 0 and not self.game.is_over:
            s.bot = True
            self._seats_changed()
            self.schedule()

    def _seats_changed(self) -> None:
        self._table_json = None
        for conn in self.connections:
            conn.changed([])

    def start(self) -> None:
        """After a restart: a human seat that has played in this game gets its grace period
        again (a computer plays it unless its player comes back); a seat whose player never
        came keeps waiting. The game goes on once someone opens the table (a tournament's at
        once)."""
        played = {seat for seat, _ in self.game.record.entries if seat != CHANCE}
        for s in self.seats:
            if s.human and s.number in played:
                self._start_grace(s)
        self.schedule()

    def close(self) -> None:
        """Stop the timers (the server shuts down)."""
        for s in self.seats:
            if s.grace is not None:
                s.grace.cancel()
                s.grace = None
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    # --- messages ------------------------------------------------------------------------

    def receive(self, conn: Connection, text: str | None, data: bytes | None = None) -> None:
        """A frame from a client: act on it, or reply with an error frame."""
        try:
            message = read_message(text if data is None else data)
            if isinstance(message, Ping):
                conn.reply(PONG)
                return
            if isinstance(message, Language):
                conn.lang = i18n.best_language(message.lang)
                return
            if conn.seat is None:
                raise refusal("spectator")
            if isinstance(message, React):
                self.react(conn.seat, message.reaction)
            elif isinstance(message, Rename):
                self.rename(conn.seat, message.name)
            elif isinstance(message, Report):
                self.note_incident(conn.seat, message.kind, message.detail, message.seconds)
            elif isinstance(message, Rematch):
                self.start_rematch(conn.address)
            else:
                action = message.action.action()
                self._check_moment(action, message.seq)
                self.act(conn.seat, action)
        except ProtocolError as e:
            conn.reply(e.frame(conn.lang))
        except StoreUnavailable:
            log.exception("table %s: a move of seat %s could not be stored", self.id, conn.seat)
            conn.reply(refusal("unavailable").frame(conn.lang))

    def _check_moment(self, action: Action, seq: int | None) -> None:
        """A move chosen on the state ``seq`` (when the client says it): ``moved_on`` once
        the table has moved past it. A thanks or a declaration keeps its meaning, and the
        engine checks its moment itself."""
        if seq is None or isinstance(action, Thank | Declare):
            return
        if seq > self.seq:
            raise ProtocolError("malformed", f"seq {seq} is ahead of the table's ({self.seq})")
        if seq < self.seq:
            raise refusal("moved_on")

    def rename(self, seat: int, name: str) -> None:
        """A player names their seat: kept in the store, shown to everyone; ``bad_name`` for
        a name that is empty, too long, not plain text, or past ``RENAMES`` new names in
        ``RENAME_WINDOW`` (the same name again changes nothing)."""
        clean = " ".join(name.split())
        if not clean:
            raise refusal("name_empty", "bad_name")
        if len(clean) > MAX_NAME:
            raise refusal("name_long", "bad_name", n=str(MAX_NAME))
        try:
            _printable(clean)
        except ValueError:
            raise refusal("name_chars", "bad_name") from None
        s = self.seats[seat]
        if clean == s.info.name:
            return
        now = time.monotonic()
        recent = self._renamed.setdefault(seat, deque(maxlen=RENAMES))
        if len(recent) == RENAMES and now - recent[0] < RENAME_WINDOW:
            raise refusal("name_too_often", "bad_name", n=str(RENAMES))
        recent.append(now)
        info = dataclasses.replace(s.info, name=clean)
        seats = tuple(info if n == seat else x.info for n, x in enumerate(self.seats))
        self.store.rename(self.id, seats)
        s.info = info
        self.stored.seats = seats
        self._seats_changed()

    def note_incident(self, seat: int, kind: str, detail: str, seconds: float) -> None:
        """Keep in the record that a foreign bot at ``seat`` failed a decision and the fallback
        made it (``MAX_INCIDENTS`` a seat; a store that refuses it loses only the note; the
        detail's control characters, a line break among them, as spaces)."""
        s = self.seats[seat]
        if len(s.info.incidents) >= MAX_INCIDENTS:
            return
        said = "".join(c if c.isprintable() else " " for c in detail[:MAX_DETAIL])
        incident = SeatIncident(kind, said, round(seconds, 3), self.seq)
        info = dataclasses.replace(s.info, incidents=(*s.info.incidents, incident))
        seats = tuple(info if n == seat else x.info for n, x in enumerate(self.seats))
        try:
            self.store.rename(self.id, seats)
        except StoreUnavailable:
            log.exception("table %s: an incident of seat %d was not stored", self.id, seat)
            return
        s.info = info
        self.stored.seats = seats

    def incidents(self) -> list[dict[str, object]]:
        """Every seat's incidents, in the order they happened (the record's ``incidents``)."""
        found = [(i, s.number) for s in self.seats for i in s.info.incidents]
        found.sort(key=lambda f: f[0].at)
        return [{"seat": seat, **i.to_json()} for i, seat in found]

    def react(self, seat: int, reaction: str) -> None:
        """A quick reaction of a seat, sent to every connection (not stored); one per seat
        every ``REACTION_GAP`` seconds, the others dropped."""
        now = time.monotonic()
        if now - self._reacted.get(seat, -REACTION_GAP) < REACTION_GAP:
            return
        self._reacted[seat] = now
        frame = json.dumps({"type": "reaction", "seat": seat, "reaction": reaction})
        for conn in self.connections:
            conn.reply(frame)

    @property
    def offers_rematch(self) -> bool:
        """Whether another game may follow this one here: not at a tournament's table (one
        with terms), whose players go back to their tournament."""
        return self.stored.terms is None

    def start_rematch(self, address: str = "?") -> None:
        """Another game at this table once this one is over (``not_finished`` before,
        ``tournament_rematch`` at a tournament's table; ``busy`` past the quota of new tables
        of the client's ``address``, or with the server full)."""
        if not self.offers_rematch:
            raise refusal("tournament_rematch")
        if not self.game.is_over:
            raise refusal("not_finished")
        if self.next is None and self.rematch is not None:
            self.next = self.rematch(self, address).id
            self._seats_changed()

    def act(self, seat: int, action: Action) -> None:
        """Apply a seat's action, store it, then tell everyone; ``ProtocolError`` if refused,
        ``StoreUnavailable`` if it could not be stored (either way nothing changes)."""
        game = self.game
        if game.is_over:
            raise refusal("finished")
        if not isinstance(action, Thank | Declare):  # those any seat may make at its moment
            to_act = game.current_player
            if to_act == CHANCE:
                raise refusal("dealing", "not_your_turn")
            if to_act is not None and to_act != seat:
                info = self.seats[to_act].info
                if info.name and info.name != info.kind:  # a computer's level is no name
                    raise refusal("not_your_turn", name=info.name)
                side = ("right", "partner", "left")[(to_act - seat) % 4 - 1]
                raise refusal(f"turn_of_{side}", "not_your_turn")
        hand = game.hand
        if isinstance(action, Play) and hand is not None and hand.contract >= 0:
            held, trick, contract = hand.hands[seat], tuple(hand.trick), hand.contract
            card = action.card
            reason = illegal_reason(held, trick, contract, card)
            if reason is not None:  # said in the player's language, cards as ♥A, and as data
                raise ProtocolError(
                    "illegal",
                    why_illegal(held, trick, contract, card) or "",
                    lambda lang: why_illegal(held, trick, contract, card, lang) or "",
                    illegal_to_json(*reason),
                )
        try:
            events = game.apply(action, seat)
        except NotYourTurn as e:
            raise ProtocolError("not_your_turn", str(e)) from e
        except GameOver as e:
            raise ProtocolError("finished", str(e)) from e
        except IllegalAction as e:  # a bad weis, a stöck out of time…, said in each language
            raise ProtocolError("illegal", str(e), e.said) from e
        except ChibreError as e:
            raise ProtocolError("illegal", str(e)) from e
        self._committed(events)

    def deal(self) -> None:
        """Deal the next hand (shuffled from ``secrets``, or the committed deal), store it,
        tell everyone."""
        deals = self.stored.deals
        if deals is None:
            self._committed(self.game.deal(SystemRandom()))
        else:
            self._committed(self.game.apply(deals.next_deal(self.game)))

    def _committed(self, events: list[Event]) -> None:
        """The game accepted an entry: write it, then broadcast, then plan what follows."""
        game = self.game
        self.active = time.time()
        n = self.seq - 1
        seat, entry = game.record.entries[n]
        try:
            self.store.append(
                self.id, n, seat, entry, finished=game.is_over, awake=self.stored.resting
            )
        except BaseException:
            # Not stored: undo by replaying the record without it, and refuse.
            del game.record.entries[n]
            self.stored.entries = list(game.record.entries)
            self.game = self.stored.replay()
            self.views = ViewCache(self.game)
            raise
        self.stored.resting = False
        if game.is_over:
            self._table_json = None
            for s in self.seats:
                if s.grace is not None:
                    s.grace.cancel()
                    s.grace = None
                s.grace_until = None
        frames = [json.dumps(event_to_json(e), ensure_ascii=False) for e in events]
        for conn in self.connections:
            conn.changed(frames)
        self.schedule()

    # --- the table's own moves -----------------------------------------------------------

    def schedule(self) -> None:
        """Plan the next deal or computer move, if the game waits for one. A player's move
        keeps its deadline: a change elsewhere at the table (a seat taken over, a friend
        back) or the page opened again gives no more time."""
        game = self.game
        to_act = game.current_player
        seq = self.seq
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self.move_until is not None:
            self.move_until = None
            self._table_json = None
        if to_act is None or self.unattended:
            return  # over, or nobody to see it: it goes on when a spectator comes
        loop = asyncio.get_running_loop()
        if to_act == CHANCE:
            self._pending = loop.call_later(self.settings.deal_delay, self._due, seq)
        elif self.seats[to_act].bot and not self._thinking:
            self._pending = loop.call_later(self.settings.bot_delay, self._due, seq)
        elif self.move_limit > 0 and not self._thinking and self._clocked(to_act):
            clock = self._clock
            until = clock[1] if clock and clock[0] == seq else time.time() + self.move_limit
            self._clock = (seq, until)
            self._pending = loop.call_later(max(0.0, until - time.time()), self._too_long, seq)
            self.move_until = until
            self._table_json = None

    def _clocked(self, seat: int) -> bool:
        """Whether the move limit runs for ``seat``'s move: at a tournament's table always (a
        player who never comes is played for), at friends' only while its player is there —
        a friend who has not opened the invitation yet is waited for, one who left has the
        grace period."""
        return self.stored.terms is not None or self.seats[seat].connections > 0

    def _too_long(self, seq: int) -> None:
        """A player let the move's time limit pass: the computer makes this move for them
        (the seat stays theirs)."""
        self._pending = None
        to_act = self.game.current_player
        if seq != self.seq or to_act is None or to_act == CHANCE or self.seats[to_act].bot:
            return
        seat = self.seats[to_act]
        player = seat.computer() or load_player("rule", seat.info.seed)
        try:
            action = player.act(self.game.observation(to_act))
        except Exception:
            self._failed(seat)
            return
        self._computer_moves(seq, to_act, action, stand_in=True)

    def _due(self, seq: int) -> None:
        self._pending = None
        if seq != self.seq or self.game.is_over:
            return
        to_act = self.game.current_player
        if to_act == CHANCE:
            try:
                self.deal()
            except StoreUnavailable:  # a full disk…: try again later
                log.exception("table %s: the deal could not be stored", self.id)
                self._pending = asyncio.get_running_loop().call_later(RETRY, self._due, seq)
        elif to_act is not None and self.seats[to_act].bot:
            seat = self.seats[to_act]
            player = seat.computer()
            obs = self.game.observation(to_act)
            if player is not None or self.thinkers is None:
                try:
                    action = (player or load_player(seat.level, seat.info.seed)).act(obs)
                except Exception:
                    self._failed(seat)
                    return
                self._computer_moves(seq, to_act, action)
            else:
                self._thinking = True
                future = self.thinkers.decide(seat.level, seat.info.seed, obs)
                self._deadline = asyncio.get_running_loop().call_later(
                    self.settings.think_limit, self._too_slow, seat, future
                )
                future.add_done_callback(lambda f: self._thought(seq, seat, f))
        else:  # its player came back before the computer's move: their clock, if any
            self.schedule()

    def _too_slow(self, seat: Seat, future: asyncio.Future[Action]) -> None:
        """A search player is past its time limit: its answer will be ignored, a simpler
        player takes the seat."""
        self._deadline = None
        if future.done():
            return
        self._thinking = False
        future.cancel()  # a late answer is dropped
        limit = self.settings.think_limit
        self._failed(seat, TimeoutError(f"no decision within {limit:g} s"))

    def _thought(self, seq: int, seat: Seat, future: asyncio.Future[Action]) -> None:
        if future.cancelled():
            return
        self._thinking = False
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        error = future.exception()
        if error is not None:
            self._failed(seat, error)
            return
        self._computer_moves(seq, seat.number, future.result())

    def _failed(self, seat: Seat, error: BaseException | None = None) -> None:
        """A computer player could not decide: a simpler one takes the seat."""
        log.error(
            "table %s: computer player %r failed at seat %d", self.id, seat.level, seat.number,
            exc_info=error or True,
        )  # fmt: skip
        seat.fall_back()
        self.schedule()

    def _computer_moves(self, seq: int, seat: int, action: Action, stand_in: bool = False) -> None:
        """A computer's decision, applied if the moment and the seat's player are unchanged
        (``stand_in``: made for a player out of time); if the store refuses it, the seat
        decides again a second later."""
        try:
            playing = self.seats[seat].bot or stand_in
            if seq == self.seq and playing and self.game.current_player == seat:
                try:
                    self.act(seat, action)
                    return
                except ProtocolError:
                    pass  # a faulty player: fall back to the first legal action
                legal = self.game.legal_actions()
                if legal:
                    self.act(seat, legal[0])
                    return
        except StoreUnavailable:
            log.exception("table %s: a move of seat %d could not be stored", self.id, seat)
            if self._pending is not None:
                self._pending.cancel()
            self._pending = asyncio.get_running_loop().call_later(RETRY, self._due, seq)
            return
        self.schedule()


class Tables:
    """Every table of the server, backed by the store."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.quota = Quota(self.settings.tables_per_minute)
        """New tables a minute by client address (``POST /api/tables`` and rematches)."""
        self.tables: dict[str, Table] = {}
        self.thinkers = Thinkers()
        self._resting: asyncio.TimerHandle | None = None
        self._noted: dict[str, float] = {}  # the activity last kept in the store, by table
        self.damaged: set[str] = set()
        """Tables that were damaged and could not be restored (kept in the store)."""
        self.about: Callable[[Table, int | None], dict[str, Any]] | None = None
        """What the tournaments add to a table's summary (``Table.about``)."""
        self.round_over: Callable[[Table], bool] | None = None
        """Whether a tournament table's round is over at every table (``Table.round_over``)."""

    @property
    def playing(self) -> int:
        """How many tables in memory have a game that is not over."""
        return sum(not t.game.is_over for t in self.tables.values())

    def restore(self) -> int:
        """Load every unfinished table and let its game go on; returns how many. A table
        that cannot be read back (a damaged entry) is logged, kept as damaged and left out;
        the others play on."""
        self.damaged = self.store.damaged()
        try:
            kept = self.store.activity()
        except sqlite3.Error:
            log.exception("the tables' activity cannot be read: counted from now")
            kept = {}
        for table_id in self.store.unfinished():
            table = self._load(table_id)
            if table is not None:
                table.active = self._noted[table_id] = kept.get(table_id, table.active)
                table.start()
        self._resting = asyncio.get_running_loop().call_later(self._sweep, self.rest)
        return len(self.tables)

    def rest(self) -> None:
        """Put to rest the tables nobody has used for a while (``Settings.unwatched_rest``,
        ``Settings.idle_rest``): unloaded, marked resting in the store, not restored at the
        next start; opening one again brings it back where it was."""
        now = time.time()
        for table in list(self.tables.values()):
            if table.connections or table.game.is_over:
                continue
            # paused (nobody has it open): soon; playing on by itself (a tournament's): late
            limit = self.settings.unwatched_rest if table.unattended else self.settings.idle_rest
            if now - table.active >= limit:
                try:
                    self.store.rest(table.id)
                except StoreUnavailable:
                    log.exception("table %s could not be put to rest", table.id)
                    continue
                table.close()
                del self.tables[table.id]
        self._note_activity()
        self._resting = asyncio.get_running_loop().call_later(self._sweep, self.rest)

    def _note_activity(self) -> None:
        """Keep in the store when each table in play was last used, for those used since
        (to within ``ACTIVITY_STEP``): a restart does not make an unused table look fresh."""
        changed = {
            t.id: t.active
            for t in self.tables.values()
            if not t.game.is_over and abs(t.active - self._noted.get(t.id, 0)) >= ACTIVITY_STEP
        }
        try:
            self.store.note_activity(changed)
        except StoreUnavailable:
            log.warning("the tables' activity could not be saved; it is tried again later")
            return
        self._noted.update(changed)

    @property
    def _sweep(self) -> float:
        shortest = min(self.settings.unwatched_rest, self.settings.idle_rest)
        return max(0.5, min(REST_SWEEP, shortest / 2))

    def _load(self, table_id: str) -> Table | None:
        """A table read from the store, or ``None`` (no such table, damaged, or unreadable
        now)."""
        if table_id in self.damaged:
            return None
        try:
            stored = self.store.load(table_id)
            if stored is None:
                return None
            table = Table(stored, self.store, self.settings, self.thinkers)
            table.rematch = self.rematch
            table.about = self.about
            table.round_over = self.round_over
            if table.game.is_over:
                table.next = self.store.next_game(table_id)
        except StoreUnavailable as e:
            if e.damaged:
                self._damaged(table_id, str(e))
            else:
                log.exception("table %s cannot be read from the store now", table_id)
            return None
        except Exception as e:
            self._damaged(table_id, f"its record does not replay: {e}")
            return None
        self.tables[table_id] = table
        if not table.game.is_over:  # woken from its rest: as after a restart
            table.start()
        return table

    def _damaged(self, table_id: str, reason: str) -> None:
        """Keep, in memory and in the store, that a table could not be restored."""
        log.exception("table %s cannot be read from the store: it is left out", table_id)
        self.damaged.add(table_id)
        try:
            self.store.mark_damaged(table_id, reason)
        except StoreUnavailable:
            log.warning("table %s: that it is damaged could not be stored", table_id)

    def get(self, table_id: str) -> Table | None:
        """A table in play, or a finished one loaded from the store; ``None`` if there is
        none (or it cannot be read: :meth:`is_damaged` says whether it was damaged)."""
        return self.tables.get(table_id) or self._load(table_id)

    def opens(self, table_id: str, token: str | None, watch: str | None) -> bool | None:
        """Whether a seat's ``token`` or the spectators' ``watch`` opens the table, told
        without loading it (a wrong link wakes no table); ``None`` when there is no such
        table, or it cannot be read (:meth:`get` then says which)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.seat_of(token) is not None or table.watches(watch)
        try:
            found = self.store.links(table_id)
        except StoreUnavailable:
            return None
        if found is None:
            return None
        seats, spectators = found
        return any(_same(token, t) for t in seats) or _same(watch, spectators)

    def is_damaged(self, table_id: str) -> bool:
        """Whether the table was damaged in the store and could not be restored."""
        return table_id in self.damaged

    def release(self, table: Table) -> None:
        """Forget a finished table nobody watches any more (the store keeps it)."""
        if table.game.is_over and not table.connections and self.tables.get(table.id) is table:
            table.close()
            del self.tables[table.id]

    def create(
        self,
        request: TableRequest,
        deals: DealSource | None = None,
        terms: TableTerms | None = None,
        also: Callable[[str], Iterable[Statement]] | None = None,
    ) -> Table:
        """A new table from ``POST /api/tables``; ``InvalidTable`` (nothing stored) if the
        request is not right. ``deals``: its committed deals, ``terms``: its Passe and time
        limits, ``also``: rows stored with it (a tournament's table and its link)."""
        stored = table_request(request)
        stored.hints = request.hints and deals is None  # a tournament's table: never
        stored.move_limit = (
            request.move_limit if terms is None else 0.0
        )  # a tournament's: its terms
        if deals is None and request.fair_deals:
            deals = DealSource(new_seed())
        stored.deals = deals
        stored.terms = terms
        return self._open(stored, also)

    def rematch(self, table: Table, address: str = "?") -> Table:
        """The next game of a finished table: the same rules, seats, names, tokens and
        spectators' token (so the same links open it), a new id and a new record; a table
        that committed to its deals commits to the next game's under a new seed. A new
        table for the quota of ``address``; ``busy`` past it or with the server full."""
        wait = self.quota.allow(address)
        if wait is not None:
            raise refusal("rematch_soon", "busy", s=f"{wait:.0f}")
        old = table.stored
        stored = StoredTable(
            id=secrets.token_urlsafe(6),
            rules=old.rules,
            seats=old.seats,
            watch=old.watch,
            preset=old.preset,
            created=max(time.time(), old.created + 1e-3),
            hints=old.hints,
            move_limit=old.move_limit,
        )
        if old.deals is not None:
            stored.deals = DealSource(new_seed())
        try:
            new = self._open(stored)
        except TooManyTables:
            raise refusal("rematch_full", "busy") from None
        for s in new.seats:  # who was at the table and does not follow is counted down
            if s.human and table.seats[s.number].connections:
                new._start_grace(s)
        return new

    def _open(
        self, stored: StoredTable, also: Callable[[str], Iterable[Statement]] | None = None
    ) -> Table:
        """Deal the first hand of a new table, store it (with ``also``), and let it play."""
        if self.playing >= self.settings.max_open_tables:
            raise TooManyTables(
                f"the server has {self.settings.max_open_tables} tables in play, as many as it "
                "may: try again later"
            )
        deals = stored.deals
        game = stored.new_game()
        if deals is None:
            game.deal(SystemRandom())
        else:
            game.apply(deals.next_deal(game))
        stored.entries = list(game.record.entries)
        self.store.create(stored, also)
        table = Table(stored, self.store, self.settings, self.thinkers)
        table.rematch = self.rematch
        table.about = self.about
        table.round_over = self.round_over
        self.tables[stored.id] = table
        table.schedule()
        return table

    def close(self) -> None:
        if self._resting is not None:
            self._resting.cancel()
        self._noted.clear()  # the server stops: every table's last use is kept exactly
        self._note_activity()
        for table in self.tables.values():
            table.close()
        self.thinkers.close()
