"""Tournaments on the server: entries, rounds, their tables online or with real cards, live
standings, the organiser's corrections — all in the server's SQLite file.

A tournament (``POST /api/tournaments``) has three secrets: the **organiser's key**
(``/tournament/ID?key=KEY``: entries, rounds, corrections, export), the **join code**
(``/tournament/ID?code=CODE``: anyone may enter with a name, or watch), and each entry's
**player token** (``/tournament/ID?player=TOKEN``: the player's own page, which sends them to
their seat when a round opens). The formats are those of ``chibre.tournament``; a round is
drawn by ``chibre.tournament.plan.draw_next`` and written to the store before any of its tables
is opened, and each table is linked to the round as soon as it is open, so a server killed in
the middle opens the missing tables when it comes back.

- An **online** table is a table of the server (``chibre.server.tables``) with committed deals
  (``chibre.tournament.fairdeal``): players are seated by name, empty seats and computer
  entries get computer players, and a player who does not open their seat, or leaves it, is
  replaced by a computer player after the server's grace period — and **flagged** (kept in
  ``tournament_flags``).
- A **real-card** table gets a score sheet of the calculator (``chibre.server.sheets``), opened
  by its link (``/tafel#ID.KEY``) from a QR code on the printable draw. Every change of a
  tournament sheet is kept in the **audit log** (``tournament_audit``): the organiser's
  corrections (``POST /api/tournaments/ID/corrections``) when made, with their reason, and the
  scorers' entries as the server sees them (every ``TICK`` seconds).

A table plays a game to the target or a **Passe** of a fixed number of hands
(``chibre.tournament.passe``); in **duplicate** rounds every table of the round plays the same
deals (a seed of the round's, turned at every other table: ``chibre.tournament.duplicate``),
and the seed is revealed once every table of the round is over. The organiser's **time limits**
(the grace before an absent player is replaced, the seconds a move may take before the
computer makes it) are kept with each table (``chibre.server.store.TableTerms``).

The standings (``chibre.tournament.standings``) are counted afresh from the tables' records
and the sheets whenever they are asked for, the games in play included ("live"); duplicate
rounds compare the deals that every table of the round has played.
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from random import Random
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from chibre import i18n
from chibre.errors import ChibreError
from chibre.rules import Rules
from chibre.scoresheet import InvalidEntry, ScoreSheet
from chibre.server import migrations
from chibre.server.http import MAX_BODY, bounded_route, error, page
from chibre.server.lobby import HUMAN, InvalidTable
from chibre.server.models import (
    CorrectionRequest,
    EntryRequest,
    RulesOptions,
    TableRequest,
    TournamentRequest,
)
from chibre.server.quota import per_minute
from chibre.server.sheets import SheetKey, SheetStore
from chibre.server.store import Statement, StoreUnavailable, TableTerms
from chibre.server.tables import Table, Tables, TooManyTables
from chibre.tournament import COMPUTER, TournamentError
from chibre.tournament.duplicate import TablePlay, check_rules, compare, is_turned
from chibre.tournament.fairdeal import DealSource, new_seed
from chibre.tournament.passe import game_rules
from chibre.tournament.plan import Options, TableDraw, draw_next
from chibre.tournament.standings import Outcome, Side, standings

log = logging.getLogger("chibre.server")

TICK = 1.0
"""Seconds between two looks at the tournaments in play (flags, sheets, the next round)."""
PRESENT, WITHDRAWN = "present", "withdrawn"
ONLINE, CARDS = "online", "cards"
Secret = Annotated[str | None, Query(max_length=64)]


class NotAllowed(ChibreError, PermissionError):
    """A link that does not open this tournament, or not for this."""


class NoSuchTournament(ChibreError, LookupError):
    pass


@dataclass
class Member:
    id: str
    name: str
    token: str


@dataclass
class Entry:
    """An entrant: a player (evening) or a team of two; ``kind`` is human or a computer level;
    ``since``: the first round they are drawn in (a late arrival)."""

    id: str
    n: int
    name: str
    kind: str
    members: list[Member]
    status: str = PRESENT
    since: int = 1

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


@dataclass
class Link:
    """Where a table of a round is played: an online table's id, or a sheet's id and key."""

    kind: str
    ref: str
    key: str = ""
    seen: str = ""


@dataclass
class Tournament:
    id: str
    created: float
    name: str
    request: TournamentRequest
    organiser: str
    code: str
    seed: str
    entries: list[Entry] = field(default_factory=list)
    rounds: list[list[TableDraw]] = field(default_factory=list)
    links: dict[tuple[int, int], Link] = field(default_factory=dict)

    @property
    def options(self) -> Options:
        r = self.request
        return Options(r.format, r.rounds, r.hands, r.scoring, r.duplicate)

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.request.preset, **self.request.options.changes())

    @property
    def terms(self) -> TableTerms:
        """What the tournament fixes for its online tables."""
        r = self.request
        return TableTerms(r.hands, r.grace, r.move_limit, r.duplicate)

    def round_seed(self, number: int) -> str:
        """The deal seed every table of duplicate round ``number`` shares (it follows from
        the tournament's secret seed, so a table opened after a restart gets it too)."""
        return hashlib.sha256(f"{self.seed}:deals:{number}".encode()).hexdigest()

    @property
    def teams(self) -> bool:
        return self.request.format != "evening"

    def entry(self, entry_id: str) -> Entry:
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise TournamentError(f"there is no entry {entry_id!r}")

    def plays_cards(self, draw: TableDraw) -> bool:
        """Whether table ``draw`` is played with real cards: one of the first
        ``real_tables``, with four people at it (nobody can play a computer's cards there:
        a table drawn with one plays online)."""
        return draw.number <= self.request.real_tables and all(
            self.occupant(s)[1] == HUMAN for s in draw.seats
        )

    def with_people_at_cards(self, tables: list[TableDraw]) -> list[TableDraw]:
        """The round's tables renumbered so that the real-card tables go to tables of four
        people where the draw has them (a computer seat, a bye's, is then played online)."""
        order = list(tables)
        real = self.request.real_tables
        people = [
            i for i, d in enumerate(order) if all(self.occupant(s)[1] == HUMAN for s in d.seats)
        ]
        spare = [i for i in people if i >= real]  # tables of four people past the real ones
        for slot in range(min(real, len(order))):
            if slot not in people and spare:
                j = spare.pop(0)
                order[slot], order[j] = order[j], order[slot]
        return [replace(d, number=n) for n, d in enumerate(order, 1)]

    def occupant(self, seat_id: str) -> tuple[str, str]:
        """A seat's occupant: (name, kind) — a member of an entry, or the computer of the
        tournament's level, with no name of its own (named by its level, as at any table)."""
        if seat_id == COMPUTER:
            return "", self.request.level
        for e in self.entries:
            for m in e.members:
                if m.id == seat_id:
                    return m.name, e.kind
        raise TournamentError(f"there is no player {seat_id!r}")

    def member(self, token: str | None) -> tuple[Entry, Member] | None:
        if not token:
            return None
        for e in self.entries:
            for m in e.members:
                if secrets.compare_digest(m.token.encode(), token.encode()):
                    return e, m
        return None


def hands_seen(sheet: ScoreSheet) -> str:
    """A real-card table's hands as the tournament last saw them (``Link.seen``)."""
    return json.dumps([h.to_dict() for h in sheet.hands], ensure_ascii=False)


class TournamentStore:
    """The tournaments' rows in the server's SQLite file (``migrations`` version 4)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._ready = False

    @contextmanager
    def _db(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """A connection in one transaction (``write``: a write transaction, taken at once;
        otherwise one consistent read that locks nothing)."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the tournaments cannot be opened: {e}") from e
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            if not self._ready:
                migrations.bring_up_to_date(db)
                self._ready = True
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the tournaments cannot be read or written: {e}") from e
        finally:
            db.close()

    def create(self, t: Tournament) -> None:
        with self._db() as db:
            db.execute(
                "INSERT INTO tournaments (id, created, name, settings, organiser, code, seed) "
                "VALUES (?,?,?,?,?,?,?)",
                (t.id, t.created, t.name, t.request.model_dump_json(), t.organiser, t.code, t.seed),
            )

    def ids(self) -> list[str]:
        with self._db(write=False) as db:
            return [str(r[0]) for r in db.execute("SELECT id FROM tournaments ORDER BY created")]

    def put_entry(self, tid: str, e: Entry) -> None:
        members = json.dumps([m.__dict__ for m in e.members], ensure_ascii=False)
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO tournament_entries (tournament_id, id, n, name, kind, "
                "members, token, status, since) VALUES (?,?,?,?,?,?,?,?,?)",
                (tid, e.id, e.n, e.name, e.kind, members, "", e.status, e.since),
            )

    def delete_entry(self, tid: str, entry_id: str) -> None:
        with self._db() as db:
            db.execute(
                "DELETE FROM tournament_entries WHERE tournament_id = ? AND id = ?", (tid, entry_id)
            )

    def add_round(self, tid: str, number: int, tables: list[TableDraw]) -> None:
        draw = json.dumps([t.to_dict() for t in tables], ensure_ascii=False)
        with self._db() as db:
            db.execute(
                "INSERT INTO tournament_rounds (tournament_id, round, opened, draw) "
                "VALUES (?,?,?,?)",
                (tid, number, time.time(), draw),
            )

    @staticmethod
    def link_row(tid: str, number: int, table: int, link: Link) -> Statement:
        """The row that links table ``table`` of round ``number`` to what is played there:
        stored in the transaction that stores that table or sheet (a server stopped between
        the two would leave a table no round knows, and open another)."""
        return (
            "INSERT INTO tournament_tables (tournament_id, round, number, kind, ref, key, seen) "
            "VALUES (?,?,?,?,?,?,?)",
            (tid, number, table, link.kind, link.ref, link.key, link.seen),
        )

    def flag(self, tid: str, number: int, table: int, seat: int, entry: str) -> None:
        with self._db() as db:
            db.execute(
                "INSERT OR IGNORE INTO tournament_flags (tournament_id, round, number, seat, "
                "entry, noted) VALUES (?,?,?,?,?,?)",
                (tid, number, table, seat, entry, time.time()),
            )

    def close(self, tid: str, number: int, table: int, sides: tuple[Side, Side]) -> None:
        """Table ``table`` of round ``number`` closed unfinished, at the score of ``sides``."""
        totals = json.dumps([sides[0].points, sides[1].points])
        striche = json.dumps([sides[0].striche, sides[1].striche])
        with self._db() as db:
            db.execute(
                "INSERT OR IGNORE INTO tournament_closed (tournament_id, round, number, closed, "
                "totals, striche) VALUES (?,?,?,?,?,?)",
                (tid, number, table, time.time(), totals, striche),
            )

    def closed(self, tid: str) -> dict[tuple[int, int], tuple[list[int], list[int]]]:
        """The tables closed unfinished: (round, table) -> (totals, Striche) when closed."""
        with self._db(write=False) as db:
            rows = db.execute(
                "SELECT round, number, totals, striche FROM tournament_closed "
                "WHERE tournament_id = ?",
                (tid,),
            ).fetchall()
        return {(int(r), int(n)): (json.loads(a), json.loads(b)) for r, n, a, b in rows}

    def flags(self, tid: str) -> set[tuple[int, int, int]]:
        with self._db(write=False) as db:
            rows = db.execute(
                "SELECT round, number, seat FROM tournament_flags WHERE tournament_id = ?", (tid,)
            )
            return {(int(a), int(b), int(c)) for a, b, c in rows}

    def audit(self, tid: str, who: str, what: dict[str, Any], seen: tuple[int, int, str]) -> None:
        """Log a change of a sheet, and the sheet as now seen, in one transaction."""
        with self._db() as db:
            for sql, params in self.audit_rows(tid, who, what, seen):
                db.execute(sql, params)

    @staticmethod
    def audit_rows(
        tid: str, who: str, what: dict[str, Any], seen: tuple[int, int, str]
    ) -> list[Statement]:
        """The rows of :meth:`audit`, for a transaction that also changes the sheet (an
        organiser's correction is never kept without its line in the log)."""
        return [
            (
                "INSERT INTO tournament_audit (tournament_id, n, at, who, what) "
                "SELECT ?, COALESCE(MAX(n), 0) + 1, ?, ?, ? FROM tournament_audit "
                "WHERE tournament_id = ?",
                (tid, time.time(), who, json.dumps(what, ensure_ascii=False), tid),
            ),
            (
                "UPDATE tournament_tables SET seen = ? WHERE tournament_id = ? AND round = ? "
                "AND number = ?",
                (seen[2], tid, seen[0], seen[1]),
            ),
        ]

    def table_of(self, table_id: str) -> tuple[str, int, int] | None:
        """The tournament, round and table number of an online table, or ``None``."""
        with self._db(write=False) as db:
            row = db.execute(
                "SELECT tournament_id, round, number FROM tournament_tables WHERE kind = ? "
                "AND ref = ?",
                (ONLINE, table_id),
            ).fetchone()
        return None if row is None else (str(row[0]), int(row[1]), int(row[2]))

    def audit_log(self, tid: str) -> list[dict[str, Any]]:
        with self._db(write=False) as db:
            rows = db.execute(
                "SELECT n, at, who, what FROM tournament_audit WHERE tournament_id = ? ORDER BY n",
                (tid,),
            ).fetchall()
        return [{"n": n, "at": at, "who": who, **json.loads(what)} for n, at, who, what in rows]

    def load(self, tid: str) -> Tournament | None:
        with self._db(write=False) as db:
            row = db.execute(
                "SELECT id, created, name, settings, organiser, code, seed FROM tournaments "
                "WHERE id = ?",
                (tid,),
            ).fetchone()
            if row is None:
                return None
            t = Tournament(
                str(row[0]),
                float(row[1]),
                str(row[2]),
                TournamentRequest.model_validate_json(row[3]),
                str(row[4]),
                str(row[5]),
                str(row[6]),
            )
            for eid, n, name, kind, members, status, since in db.execute(
                "SELECT id, n, name, kind, members, status, since FROM tournament_entries "
                "WHERE tournament_id = ? ORDER BY n",
                (tid,),
            ):
                ms = [Member(**m) for m in json.loads(members)]
                t.entries.append(Entry(eid, n, name, kind, ms, status, since))
            for (draw,) in db.execute(
                "SELECT draw FROM tournament_rounds WHERE tournament_id = ? ORDER BY round", (tid,)
            ):
                t.rounds.append([TableDraw.from_dict(d) for d in json.loads(draw)])
            for number, table, kind, ref, key, seen in db.execute(
                "SELECT round, number, kind, ref, key, seen FROM tournament_tables "
                "WHERE tournament_id = ?",
                (tid,),
            ):
                t.links[int(number), int(table)] = Link(kind, ref, key, seen)
            return t


@dataclass
class Played:
    """A table of a round as it stands: its outcome so far and whether it is over."""

    round: int
    draw: TableDraw
    link: Link | None
    outcome: Outcome | None = None
    done: bool = False
    hands: int = 0
    info: dict[str, Any] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)  # per seat: its link (online)
    deals: DealSource | None = None  # an online table's committed deals
    points: list[tuple[int, int]] = field(default_factory=list)  # per complete hand (online)


@dataclass
class EntrySeat:
    """Where a player of a tournament sits now, from their token: what a program that
    follows its entry from round to round needs (the Jass Challenge endpoint)."""

    tournament: str
    player: str  # the member's id
    rules: Rules
    link: str | None  # their seat's link at this round's online table, while it plays
    over: bool  # every round is drawn and none seats them any more


class Tournaments:
    """Every tournament of the server, on the tables and sheets of the same store."""

    def __init__(self, db_path: Path | str, tables: Tables) -> None:
        self.store = TournamentStore(db_path)
        self.sheets = SheetStore(db_path)
        self.tables = tables
        tables.about = self.about
        tables.round_over = self.round_over
        for table in tables.tables.values():  # restored before the tournaments were read
            table.about = self.about
            table.round_over = self.round_over
        self._task: asyncio.Task[None] | None = None
        self._finished: set[str] = set()
        self._unopened: set[tuple[str, int, int]] = set()  # said in the log already

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Open any table a round lacks (a server stopped while opening a round), and look
        at the tournaments every ``TICK`` seconds."""
        for tid in self.store.ids():
            t = self.store.load(tid)
            if t is not None:
                with suppress(ChibreError):
                    self._open_missing(t)
        self._task = asyncio.get_running_loop().create_task(self._watch())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                self.tick()
            except Exception:
                log.exception("the tournaments could not be looked at")

    def tick(self) -> None:
        """Open the tables a round still lacks (one could not be stored), flag replaced
        players, log the sheets' changes, open the next round when due."""
        for tid in self.store.ids():
            if tid in self._finished:
                continue
            t = self.store.load(tid)
            if t is None or not t.rounds:
                continue
            with suppress(ChibreError):
                self._open_missing(t)
            played = self.played(t)
            current = [p for p in played if p.round == len(t.rounds)]
            if len(t.rounds) == t.request.rounds and all(p.done for p in current):
                self._finished.add(tid)  # nothing will change by itself any more
            if all(p.done for p in current) and t.request.auto and len(t.rounds) < t.request.rounds:
                with suppress(TournamentError):
                    self.open_round(t)

    # --- reading -----------------------------------------------------------------------------

    def get(self, tid: str) -> Tournament:
        t = self.store.load(tid)
        if t is None:
            raise NoSuchTournament("there is no such tournament")
        return t

    def role(
        self, t: Tournament, key: str | None, player: str | None, code: str | None
    ) -> tuple[str, tuple[Entry, Member] | None]:
        """Who opens the tournament: ``organiser``, ``player`` (with their entry), or
        ``spectator`` (the join code); ``NotAllowed`` for anything else."""
        if key and secrets.compare_digest(t.organiser.encode(), key.encode()):
            return "organiser", None
        found = t.member(player)
        if found is not None:
            return "player", found
        if code and secrets.compare_digest(t.code.encode(), code.encode()):
            return "spectator", None
        raise NotAllowed("this link does not open this tournament: ask the organiser for it")

    def played(self, t: Tournament) -> list[Played]:
        """Every table of every round as it stands now (flags and sheet changes noted)."""
        flags = self.store.flags(t.id)
        closed = self.store.closed(t.id)
        out = []
        for number, tables in enumerate(t.rounds, 1):
            this_round = []
            for draw in tables:
                link = t.links.get((number, draw.number))
                p = Played(number, draw, link)
                stopped = closed.get((number, draw.number))
                if link is not None and link.kind == ONLINE:
                    self._online(t, p, flags, stopped is None)
                elif link is not None:
                    self._cards(t, p)
                if stopped is not None:  # time called: the score it stood at, no winner
                    (a, b), (sa, sb) = stopped
                    sides = (Side(draw.sides[0], a, sa), Side(draw.sides[1], b, sb))
                    p.outcome = Outcome(number, draw.number, sides)
                    p.done = True
                    p.info["closed"] = True
                this_round.append(p)
            over = all(p.done for p in this_round)
            for p in this_round:  # a shared seed is revealed once the whole round is over
                if p.deals is not None:
                    p.info["deals"] = p.deals.to_dict(
                        reveal=p.done and (over or not t.terms.shared)
                    )
            out.extend(this_round)
        return out

    def _online(
        self, t: Tournament, p: Played, flags: set[tuple[int, int, int]], plays: bool = True
    ) -> None:
        assert p.link is not None
        table = self.tables.get(p.link.ref)
        if table is None:
            p.info = {"damaged": True}
            return
        game = table.game
        sides = tuple(Side(p.draw.sides[i], game.totals[i], game.striche[i]) for i in (0, 1))
        p.outcome = Outcome(p.round, p.draw.number, (sides[0], sides[1]), game.winner)
        p.done = game.is_over
        p.hands = len(game.hands)
        p.points = [h.score().totals for h in game.hands if h.is_over]
        for s in table.seats:
            occupant = p.draw.seats[s.number]
            flagged = (p.round, p.draw.number, s.number) in flags
            if s.human and s.bot and not flagged:
                self.store.flag(t.id, p.round, p.draw.number, s.number, occupant)
                flagged = True
            p.seats.append(
                {
                    "link": f"/t/{table.id}?seat={s.info.token}" if s.info.token else None,
                    "connected": s.connections > 0,
                    "flagged": flagged,
                }
            )
        if not game.is_over and plays:
            table.play_on()
        assert table.stored.deals is not None
        p.deals = table.stored.deals
        p.info = {"watch": f"/t/{table.id}?watch={table.stored.watch}", "table_id": table.id}
        self.tables.release(table)

    def _cards(self, t: Tournament, p: Played) -> None:
        assert p.link is not None
        sheet = self.sheets.load(p.link.ref, p.link.key)
        hands = hands_seen(sheet)
        if hands != p.link.seen:  # a scorer wrote, corrected or struck a hand
            before = json.loads(p.link.seen) if p.link.seen else []
            after = json.loads(hands)
            changed = [
                n + 1
                for n in range(max(len(before), len(after)))
                if (before[n] if n < len(before) else None)
                != (after[n] if n < len(after) else None)
            ]
            what = {"round": p.round, "table": p.draw.number, "hands": changed}
            what["totals"] = list(sheet.totals)
            self.store.audit(t.id, "scorer", what, (p.round, p.draw.number, hands))
            p.link.seen = hands
        sides = tuple(Side(p.draw.sides[i], sheet.totals[i], sheet.striche[i]) for i in (0, 1))
        p.outcome = Outcome(p.round, p.draw.number, (sides[0], sides[1]), sheet.winner)
        p.done = sheet.is_over or 0 < t.request.hands <= len(sheet.hands)
        p.hands = len(sheet.hands)
        p.info = {"sheet": f"/tafel#{p.link.ref}.{p.link.key}", "sheet_id": p.link.ref}

    def ranking(self, t: Tournament, played: list[Played]) -> list[dict[str, Any]]:
        outcomes = [p.outcome for p in played if p.outcome is not None]
        lines = standings(
            [e.id for e in t.entries],
            outcomes,
            t.request.scoring,
            t.options.tie_breaks,
            duplicate_results(played) if t.request.duplicate else None,
        )
        names = {e.id: e for e in t.entries}
        return [
            {
                **s.to_dict(),
                "name": names[s.entrant].name,
                "kind": names[s.entrant].kind,
                "status": names[s.entrant].status,
            }
            for s in lines
        ]

    def about(self, table: Table, seat: int | None) -> dict[str, Any]:
        """What a table's summary says of its tournament: the link back to it (the player's
        own page for a player's seat, the join link otherwise), the round and the table, and
        the deals as the tournament reveals them (a shared seed once the round is over)."""
        try:
            return self._about(table, seat)
        except (StoreUnavailable, ChibreError):  # the table's own summary is answered all the same
            log.exception("the tournament of table %s could not be read", table.id)
            return {}

    def _about(self, table: Table, seat: int | None) -> dict[str, Any]:
        found = self.store.table_of(table.id)
        t = self.store.load(found[0]) if found is not None else None
        if found is None or t is None:
            return {}
        _, number, at = found
        link = f"/tournament/{t.id}?code={t.code}"
        draw = next((d for d in t.rounds[number - 1] if d.number == at), None)
        if seat is not None and draw is not None:
            for e in t.entries:
                for m in e.members:
                    if m.id == draw.seats[seat]:
                        link = f"/tournament/{t.id}?player={m.token}"
        out: dict[str, Any] = {
            "tournament": {"id": t.id, "name": t.name, "round": number, "table": at, "link": link}
        }
        if t.terms.shared:
            played = [p for p in self.played(t) if p.round == number]
            mine = next((p for p in played if p.draw.number == at), None)
            if mine is not None and "deals" in mine.info:
                out["deals"] = mine.info["deals"]
            out["tournament"]["round_over"] = all(p.done for p in played)
        return out

    def round_over(self, table: Table) -> bool:
        """Whether every table of the round that ``table`` belongs to is over (what a
        shared-deal table waits for before its players may share its spectators' link, as the
        tournament's page shows it only then); ``False`` where that cannot be read."""
        try:
            found = self.store.table_of(table.id)
            t = self.store.load(found[0]) if found is not None else None
            if found is None or t is None:
                return False
            return all(p.done for p in self.played(t) if p.round == found[1])
        except (StoreUnavailable, ChibreError):
            log.exception("the round of table %s could not be read", table.id)
            return False

    def entry_seat(self, tid: str, token: str) -> EntrySeat | None:
        """Where the player of ``token`` (a human entry's) sits in tournament ``tid`` now;
        ``None`` if that opens no such player."""
        t = self.store.load(tid)
        found = t.member(token) if t is not None else None
        if t is None or found is None or not found[0].human:
            return None
        member = found[1]
        number, link, playing = len(t.rounds), None, False
        draw = next((d for d in t.rounds[-1] if member.id in d.seats), None) if t.rounds else None
        at = t.links.get((number, draw.number)) if draw is not None else None
        if draw is not None and at is not None and at.kind == ONLINE:
            table = self.tables.get(at.ref)
            if table is not None:
                seat = table.seats[draw.seats.index(member.id)]
                playing = not table.game.is_over
                if playing and seat.info.token:
                    link = f"/t/{table.id}?seat={seat.info.token}"
                self.tables.release(table)
        over = number >= t.request.rounds and not playing
        return EntrySeat(t.id, member.id, t.rules, link, over)

    # --- changing ----------------------------------------------------------------------------

    def create(self, request: TournamentRequest) -> Tournament:
        try:
            rules = Rules.preset(request.preset, **request.options.changes())  # they are valid
        except ChibreError as e:
            raise TournamentError(str(e)) from e
        if request.duplicate:
            check_rules(rules)
        Options(request.format, request.rounds, request.hands, request.scoring, request.duplicate)
        if request.duplicate and request.real_tables:
            raise TournamentError.said_as("duplicate_online", "real_tables")
        t = Tournament(
            secrets.token_urlsafe(6),
            time.time(),
            request.name.strip() or "Tournament",
            request,
            secrets.token_urlsafe(16),
            secrets.token_urlsafe(9),
            new_seed(),
        )
        self.store.create(t)
        return t

    def enter(self, t: Tournament, request: EntryRequest, organiser: bool) -> Entry:
        """A new entry (a player, or a team with its partner); late when rounds are drawn."""
        if not organiser and request.kind != HUMAN:
            raise NotAllowed("only the organiser enters computer players")
        if t.teams and not request.partner:
            raise TournamentError.said_as("team_partner", "partner")
        if not t.teams and request.partner:
            raise TournamentError.said_as("players_alone", "partner")
        if t.rounds and t.request.format == "round-robin":
            raise TournamentError.said_as("round_robin_begun")
        if len(t.rounds) >= t.request.rounds:
            raise TournamentError.said_as("entries_closed")
        name = request.name.strip()
        if any(e.name.casefold() == name.casefold() for e in t.entries):
            raise TournamentError.said_as("name_taken", name=name)
        n = max((e.n for e in t.entries), default=0) + 1
        eid = f"e{n}"
        names = [name] if not t.teams else [name, (request.partner or "").strip()]
        members = [
            Member(eid if not t.teams else f"{eid}.{i}", who, secrets.token_urlsafe(16))
            for i, who in enumerate(names)
        ]
        entry = Entry(eid, n, name, request.kind, members, PRESENT, len(t.rounds) + 1)
        self.store.put_entry(t.id, entry)
        t.entries.append(entry)
        return entry

    def withdraw(self, t: Tournament, entry_id: str, back: bool = False) -> Entry:
        """A withdrawal (not drawn from the next round on), or a return (``back``)."""
        e = t.entry(entry_id)
        e.status = PRESENT if back else WITHDRAWN
        if back:
            e.since = max(e.since, len(t.rounds) + 1)
        self.store.put_entry(t.id, e)
        return e

    def remove(self, t: Tournament, entry_id: str) -> None:
        """Remove an entry that has not played (a mistake); a player who has, withdraws."""
        e = t.entry(entry_id)
        seated = {p for tables in t.rounds for d in tables for p in d.seats}
        if any(m.id in seated for m in e.members):
            raise TournamentError.said_as("has_played", name=e.name)
        self.store.delete_entry(t.id, entry_id)
        t.entries.remove(e)

    def open_round(self, t: Tournament) -> list[TableDraw]:
        """Draw the next round and open its tables; ``TournamentError`` while a table of the
        current round plays, or when every round is drawn."""
        if t.rounds:
            running = [p for p in self.played(t) if p.round == len(t.rounds) and not p.done]
            if running:
                raise TournamentError.said_as(
                    "round_playing",
                    round=str(len(t.rounds)),
                    tables=", ".join(str(p.draw.number) for p in running),
                )
        number = len(t.rounds) + 1
        present = [e for e in t.entries if e.status == PRESENT and e.since <= number]
        members = {e.id: (e.members[0].id, e.members[1].id) for e in t.entries if t.teams}
        outcomes = [p.outcome for p in self.played(t) if p.outcome is not None]
        tables = draw_next(
            t.options,
            [e.id for e in t.entries],
            [e.id for e in present],
            members,
            t.rounds,
            outcomes,
            Random(f"{t.seed}:draw:{number}"),
        )
        if t.request.duplicate and len(tables) < 2:
            raise TournamentError.said_as("duplicate_tables")
        tables = t.with_people_at_cards(tables)
        self.store.add_round(t.id, number, tables)
        t.rounds.append(tables)
        try:
            self._open_missing(t)
        except TournamentError as e:
            raise TournamentError(
                f"round {number} is drawn, but {e}: it opens by itself as soon as it can"
            ) from e
        return tables

    def _open_missing(self, t: Tournament) -> None:
        """Open the tables the rounds drawn still lack (tried again every look: a table the
        server could not open, full or its file refusing, is said once in the log)."""
        for number, tables in enumerate(t.rounds, 1):
            for draw in tables:
                if (number, draw.number) not in t.links:
                    try:
                        t.links[number, draw.number] = self._open(t, number, draw)
                    except ChibreError as e:
                        if (t.id, number, draw.number) not in self._unopened:
                            self._unopened.add((t.id, number, draw.number))
                            log.warning(
                                "tournament %s: table %d of round %d is not open yet (%s); "
                                "it is tried again every second",
                                t.id, draw.number, number, e,
                            )  # fmt: skip
                        raise

    def _open(self, t: Tournament, number: int, draw: TableDraw) -> Link:
        """Open table ``draw`` of round ``number``, stored with its link."""
        occupants = [t.occupant(s) for s in draw.seats]
        names = [name for name, _ in occupants]
        if t.plays_cards(draw):
            teams = [" & ".join(names[i] for i in (team, team + 2)) for team in (0, 1)]
            rules = game_rules(t.rules, t.request.hands)
            name = f"{t.name} — {number}/{draw.number}"
            sheet = ScoreSheet(rules, (), name, teams, t.request.hands)

            def sheet_link(opened: SheetKey) -> list[Statement]:
                return [self.store.link_row(t.id, number, draw.number, cards(opened))]

            def cards(opened: SheetKey) -> Link:
                return Link(CARDS, opened.id, opened.key, "[]")

            return cards(self.sheets.create(sheet, also=sheet_link))
        request = TableRequest(
            preset=t.request.preset,
            options=RulesOptions.model_validate(t.request.options.model_dump()),
            seats=[kind for _, kind in occupants],
            names=list[str | None](names),
        )
        if t.request.duplicate:
            deals = DealSource(t.round_seed(number), is_turned(draw.number))
        else:
            deals = DealSource(new_seed())

        def table_link(table_id: str) -> list[Statement]:
            return [self.store.link_row(t.id, number, draw.number, Link(ONLINE, table_id))]

        try:
            table = self.tables.create(request, deals, t.terms, also=table_link)
        except (InvalidTable, TooManyTables) as e:
            raise TournamentError(f"table {draw.number} could not be opened: {e}") from e
        table.play_on()
        return Link(ONLINE, table.id)

    def call_time(self, t: Tournament, number: int, table: int) -> None:
        """Time called: table ``table`` of round ``number``, unfinished, counts at the score it
        stands at, with no winner (as a Passe's)."""
        found = [p for p in self.played(t) if (p.round, p.draw.number) == (number, table)]
        if not found or found[0].link is None:
            raise TournamentError.said_as("no_table_open", round=str(number), table=str(table))
        p = found[0]
        if p.done:
            raise TournamentError.said_as("table_over", round=str(number), table=str(table))
        sides = p.outcome.sides if p.outcome is not None else None
        if sides is None:
            sides = (Side(p.draw.sides[0], 0), Side(p.draw.sides[1], 0))
        self.store.close(t.id, number, table, sides)

    def correct(self, t: Tournament, request: CorrectionRequest) -> dict[str, Any]:
        """The organiser corrects hand ``hand`` of a real-card table's sheet; logged with
        the hand before and after. The Schneider may be corrected alone (no ``points``): the
        hand is kept as entered, with the organiser's word on the Schneider."""
        if request.entry is not None and request.points is not None:
            raise TournamentError.said_as("entry_or_points", "points")
        if request.entry is None and request.points is None:
            if request.team is not None or request.match:
                raise TournamentError.said_as("points_with_team", "points")
            if request.schneider is None:
                raise TournamentError.said_as("nothing_to_correct", "points")
        said = request.team is not None or request.match or request.schneider is not None
        if request.entry is not None and said:
            raise TournamentError.said_as("entry_whole", "team")
        if request.schneider is not None and not t.rules.striche.schneider:
            raise TournamentError.said_as("no_schneider", "schneider")
        link = t.links.get((request.round, request.table))
        if link is None or link.kind != CARDS:
            raise TournamentError.said_as(
                "no_real_table", "table", round=str(request.round), table=str(request.table)
            )
        before: dict[str, Any] = {}

        def edit(sheet: ScoreSheet) -> None:
            if not 1 <= request.hand <= len(sheet.hands):
                raise TournamentError.said_as("no_hand", "hand", hand=str(request.hand))
            before.update(sheet.hands[request.hand - 1].to_dict())
            if request.entry is not None:
                sheet.replace(request.hand, request.entry.entry())
                return
            hand = {k: v for k, v in before.items() if v is not None}  # the rest is kept
            if request.points is not None:
                team = hand["team"] if request.team is None else request.team
                match = team if request.match else None
                hand.update(points=request.points, team=team, match=match)
            if request.schneider is not None:  # the organiser's word on it
                hand["schneider"] = request.schneider
            try:
                sheet.replace(request.hand, hand)
            except InvalidEntry as e:
                if request.schneider is None and e.key.startswith("schneider"):
                    # the scorer's word on the Schneider no longer fits: the new points say it
                    hand.pop("schneider", None)
                    sheet.replace(request.hand, hand)
                else:  # the sheet's own refusal, a question it asks (``field``) included
                    raise

        what: dict[str, Any] = {}

        def logged(sheet: ScoreSheet) -> list[Statement]:
            what.update(
                round=request.round,
                table=request.table,
                hands=[request.hand],
                before=before,
                after=sheet.hands[request.hand - 1].to_dict(),
                reason=request.reason,
                totals=list(sheet.totals),
            )
            seen = (request.round, request.table, hands_seen(sheet))
            return self.store.audit_rows(t.id, "organiser", what, seen)

        link.seen = hands_seen(self.sheets.change(link.ref, link.key, edit, also=logged))
        return what

    # --- what the pages are sent -------------------------------------------------------------

    def state(self, t: Tournament, role: str, you: tuple[Entry, Member] | None) -> dict[str, Any]:
        played = self.played(t)
        organiser = role == "organiser"
        mine = you[1].id if you else None
        rounds: list[dict[str, Any]] = []
        playing = {p.round for p in played if not p.done}
        for p in played:
            if len(rounds) < p.round:
                rounds.append({"round": p.round, "tables": []})
            seats = []
            for n, seat_id in enumerate(p.draw.seats):
                name, kind = t.occupant(seat_id)
                seat: dict[str, Any] = {
                    "seat": n,
                    "name": name,
                    "kind": kind,
                    "computer": seat_id == COMPUTER or kind != HUMAN,
                    "filler": seat_id == COMPUTER,
                    "flagged": bool(p.seats and p.seats[n]["flagged"]),
                    "connected": bool(p.seats and p.seats[n]["connected"]),
                }
                if p.seats and p.seats[n]["link"] and (organiser or seat_id == mine):
                    seat["link"] = p.seats[n]["link"]
                seats.append(seat)
            o = p.outcome
            table: dict[str, Any] = {
                "table": p.draw.number,
                "kind": p.link.kind if p.link else None,
                "seats": seats,
                "totals": [o.sides[0].points, o.sides[1].points] if o else [0, 0],
                "striche": [o.sides[0].striche, o.sides[1].striche] if o else [0, 0],
                "winner": o.winner if o else -1,
                "done": p.done,
                "hands": p.hands,
                "turned": t.request.duplicate and is_turned(p.draw.number),
                **{k: v for k, v in p.info.items() if k in ("watch", "deals", "damaged", "closed")},
            }
            if t.terms.shared and p.round in playing and not organiser:
                table.pop("watch", None)  # watching one table would show another's cards
            at_table = mine is not None and mine in p.draw.seats
            if "sheet" in p.info and (organiser or at_table):
                table["sheet"] = p.info["sheet"]
            rounds[-1]["tables"].append(table)
        current = len(t.rounds)
        now = [p for p in played if p.round == current]
        finished = current == t.request.rounds and all(p.done for p in now)
        out: dict[str, Any] = {
            "id": t.id,
            "name": t.name,
            "role": role,
            "format": t.request.format,
            "preset": t.request.preset,
            "rules": t.rules.to_dict(),
            "planned": t.request.rounds,
            "scoring": t.request.scoring,
            "level": t.request.level,
            "auto": t.request.auto,
            "real_tables": t.request.real_tables,
            "hands": t.request.hands,
            "duplicate": t.request.duplicate,
            "grace": self.tables.settings.grace if t.request.grace is None else t.request.grace,
            "move_limit": t.request.move_limit,
            "current": current,
            "round_over": all(p.done for p in now),
            "finished": finished,
            "entries": [
                {
                    "id": e.id,
                    "name": e.name,
                    "kind": e.kind,
                    "status": e.status,
                    "since": e.since,
                    "members": [m.name for m in e.members],
                }
                for e in t.entries
            ],
            "rounds": rounds,
            "standings": self.ranking(t, played),
            "join": f"/tournament/{t.id}?code={t.code}",
        }
        if organiser:
            out["organiser"] = f"/tournament/{t.id}?key={t.organiser}"
            out["audit"] = self.store.audit_log(t.id)
            out["players"] = [
                {"entry": e.id, "name": m.name, "link": f"/tournament/{t.id}?player={m.token}"}
                for e in t.entries
                for m in e.members
                if e.human
            ]
        if you is not None:
            entry, member = you
            out["you"] = {"entry": entry.id, "name": member.name, "status": entry.status}
            seat_here = [(p, n) for p in now for n, s in enumerate(p.draw.seats) if s == member.id]
            if seat_here:
                p, n = seat_here[0]
                where: dict[str, Any] = {"round": current, "table": p.draw.number, "seat": n}
                if p.seats and p.seats[n]["link"]:
                    where["link"] = p.seats[n]["link"]
                if "sheet" in p.info:
                    where["sheet"] = p.info["sheet"]
                where["done"] = p.done
                out["you"]["table"] = where
        return out

    def export_csv(self, t: Tournament) -> str:
        rows = self.ranking(t, self.played(t))
        buffer = io.StringIO()
        fields = ["rank", "name", "score", "points", "against", "difference", "striche"]
        fields += ["games", "won", "buchholz", "kind", "status"]
        writer = csv.DictWriter(buffer, fields, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue()


def duplicate_results(played: list[Played]) -> dict[str, float]:
    """Each entrant's duplicate results over the rounds: in each round, the deals that every
    online table of the round has played, compared deal by deal
    (``chibre.tournament.duplicate.compare``)."""
    out: dict[str, float] = {}
    for number in sorted({p.round for p in played}):
        tables = [p for p in played if p.round == number and p.deals is not None]
        if len(tables) < 2:
            continue
        common = min(len(p.points) for p in tables)
        plays = [TablePlay(p.draw.number, p.draw.sides, p.points[:common]) for p in tables]
        for entrant, result in compare(plays).items():
            out[entrant] = out.get(entrant, 0.0) + result
    return out


# --- HTTP --------------------------------------------------------------------------------------


def _manager(request: Request) -> Tournaments:
    manager: Tournaments = request.app.state.tournaments
    return manager


def _refusal(e: Exception, request: Request) -> Response:
    """The answer to a refused request, in the language the page asks for where the
    refusal is one of the catalogue's."""
    if isinstance(e, TournamentError | InvalidEntry):  # a correction's refusal is the sheet's
        lang = i18n.best_language(request.headers.get("accept-language"))
        return error(400, e.said(lang), getattr(e, "field", None))
    if isinstance(e, NoSuchTournament):
        return error(404, str(e))
    if isinstance(e, NotAllowed):
        return error(403, str(e))
    if isinstance(e, StoreUnavailable):
        log.exception("the tournaments' store refused a request")
        return error(503, "the tournament could not be read or saved: try again in a moment")
    return error(400, str(e), getattr(e, "field", None))


def router() -> APIRouter:
    """The tournaments' pages and routes."""
    api = APIRouter(route_class=bounded_route(MAX_BODY))
    refused = (ChibreError, StoreUnavailable)

    @api.get("/tournament", include_in_schema=False)
    @api.get("/tournament/{id}", include_in_schema=False)
    async def tournament_page() -> Response:
        return page("tournament.html")

    @api.post(
        "/api/tournaments",
        status_code=201,
        summary="Create a tournament",
        dependencies=[Depends(per_minute("tournament_quota", "new tournaments"))],
    )
    async def create(request: Request, body: TournamentRequest) -> Response:
        try:
            t = _manager(request).create(body)
        except refused as e:
            return _refusal(e, request)
        return JSONResponse(
            {
                "id": t.id,
                "organiser": f"/tournament/{t.id}?key={t.organiser}",
                "join": f"/tournament/{t.id}?code={t.code}",
                "key": t.organiser,
                "code": t.code,
            },
            status_code=201,
        )

    @api.get(
        "/api/tournaments/{id}",
        summary="A tournament as its organiser, a player or a spectator sees it",
    )
    async def show(
        request: Request, id: str, key: Secret = None, player: Secret = None, code: Secret = None
    ) -> Response:
        m = _manager(request)
        try:
            t = m.get(id)
            role, you = m.role(t, key, player, code)
            return JSONResponse(m.state(t, role, you))
        except refused as e:
            return _refusal(e, request)

    @api.post("/api/tournaments/{id}/entries", status_code=201, summary="Enter a player or a team")
    async def enter(
        request: Request, id: str, body: EntryRequest, key: Secret = None, code: Secret = None
    ) -> Response:
        m = _manager(request)
        try:
            t = m.get(id)
            role, _ = m.role(t, key, None, code)
            entry = m.enter(t, body, role == "organiser")
        except refused as e:
            return _refusal(e, request)
        links = [f"/tournament/{t.id}?player={mem.token}" for mem in entry.members]
        return JSONResponse(
            {"entry": entry.id, "name": entry.name, "since": entry.since, "links": links},
            status_code=201,
        )

    def organiser(request: Request, id: str, key: str | None) -> tuple[Tournaments, Tournament]:
        m = _manager(request)
        t = m.get(id)
        role, _ = m.role(t, key, None, None)
        if role != "organiser":
            raise NotAllowed("only the organiser's link may do this")
        return m, t

    @api.post("/api/tournaments/{id}/entries/{entry}/withdraw", summary="Withdraw an entry")
    async def withdraw(request: Request, id: str, entry: str, key: Secret = None) -> Response:
        try:
            m, t = organiser(request, id, key)
            left = m.withdraw(t, entry)
        except refused as e:
            return _refusal(e, request)
        return JSONResponse({"entry": left.id, "status": left.status})

    @api.post("/api/tournaments/{id}/entries/{entry}/return", summary="An entry plays again")
    async def come_back(request: Request, id: str, entry: str, key: Secret = None) -> Response:
        try:
            m, t = organiser(request, id, key)
            back = m.withdraw(t, entry, back=True)
        except refused as e:
            return _refusal(e, request)
        return JSONResponse({"entry": back.id, "status": back.status, "since": back.since})

    @api.delete("/api/tournaments/{id}/entries/{entry}", summary="Remove an entry not yet drawn")
    async def remove(request: Request, id: str, entry: str, key: Secret = None) -> Response:
        try:
            m, t = organiser(request, id, key)
            m.remove(t, entry)
        except refused as e:
            return _refusal(e, request)
        return JSONResponse({"removed": entry})

    @api.post(
        "/api/tournaments/{id}/rounds", status_code=201, summary="Draw and open the next round"
    )
    async def next_round(request: Request, id: str, key: Secret = None) -> Response:
        try:
            m, t = organiser(request, id, key)
            tables = m.open_round(t)
        except refused as e:
            return _refusal(e, request)
        return JSONResponse(
            {"round": len(t.rounds), "tables": [d.to_dict() for d in tables]}, status_code=201
        )

    @api.post("/api/tournaments/{id}/corrections", summary="Correct a hand of a real-card table")
    async def correct(
        request: Request, id: str, body: CorrectionRequest, key: Secret = None
    ) -> Response:
        try:
            m, t = organiser(request, id, key)
            return JSONResponse(m.correct(t, body))
        except refused as e:
            return _refusal(e, request)

    @api.post(
        "/api/tournaments/{id}/rounds/{number}/tables/{table}/close",
        summary="Time called: an unfinished table counts at the score it stands at",
    )
    async def call_time(
        request: Request, id: str, number: int, table: int, key: Secret = None
    ) -> Response:
        try:
            m, t = organiser(request, id, key)
            m.call_time(t, number, table)
            return JSONResponse(m.state(t, "organiser", None))
        except refused as e:
            return _refusal(e, request)

    @api.get("/api/tournaments/{id}/export.json", summary="The whole tournament as JSON")
    async def export_json(request: Request, id: str, key: Secret = None) -> Response:
        try:
            m, t = organiser(request, id, key)
            state = m.state(t, "organiser", None)
        except refused as e:
            return _refusal(e, request)
        state.pop("players", None)
        state.pop("organiser", None)
        body = json.dumps(state, ensure_ascii=False, indent=1)
        headers = {"Content-Disposition": f'attachment; filename="tournament-{t.id}.json"'}
        return Response(body, media_type="application/json", headers=headers)

    @api.get("/api/tournaments/{id}/export.csv", summary="The standings as CSV")
    async def export_csv(request: Request, id: str, key: Secret = None) -> Response:
        try:
            m, t = organiser(request, id, key)
            body = m.export_csv(t)
        except refused as e:
            return _refusal(e, request)
        headers = {"Content-Disposition": f'attachment; filename="tournament-{t.id}.csv"'}
        # the byte order mark: a spreadsheet opening the file reads its names as UTF-8
        return Response("\ufeff" + body, media_type="text/csv; charset=utf-8", headers=headers)

    return api


__all__ = ["TICK", "TournamentStore", "Tournaments", "router"]
