"""The table store: every table and its game record in one SQLite file.

Two tables of the database: ``game_tables`` (one row per table: its full option set, its
seats with their tokens, the spectators' token, finished or not) and ``game_entries`` (the
record, one row per deal or action, in the engine's notation — ``chibre.notation``). An entry
is written, in its own transaction, *before* anyone is told of it, so a table can always be
restored by replaying its entries. A third, ``damaged_tables``, keeps the ids of the tables
that were damaged and could not be restored, so that their players are told so after a restart
too. A table whose deals are committed (``chibre.tournament.fairdeal``) keeps its secret seed in
``table_deals``, and a tournament's table its terms (a Passe's hands, its time limits, deals
shared with other tables) in ``table_terms``; another table's move limit is in
``table_clocks`` and its coach's hints in ``table_hints``. The schema and its versions are
``chibre.server.migrations``. WAL mode with ``synchronous=NORMAL``: a commit does not wait for
the disk, and a crash of the server process loses nothing that was committed.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from chibre.actions import Action, Deal
from chibre.errors import ChibreError
from chibre.game import CHANCE, Game
from chibre.notation import format_action, format_deal, parse_action, parse_deal
from chibre.rules import Rules
from chibre.server import migrations
from chibre.tournament.fairdeal import DealSource
from chibre.tournament.passe import new_game


class StoreUnavailable(ChibreError):
    """The SQLite file refused a write (a full disk, a file made read-only, a damaged
    database…); the table's record is unchanged."""

    @property
    def damaged(self) -> bool:
        """SQLite found the file damaged (rather than busy, full or read-only)."""
        cause = self.__cause__
        return getattr(cause, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB")


@dataclass(frozen=True)
class SeatIncident:
    """A decision a foreign bot at the seat did not make in time or legally, and that the
    fallback made for it (docs/protocols.md, "Incidents"): ``kind`` (``late``, ``gone``,
    ``illegal``, ``garbage``, ``refused``, ``unreachable``), a sentence, how long the bot took,
    and ``at``, the record's length when it happened (the move it concerns is entry ``at``)."""

    kind: str
    detail: str
    seconds: float
    at: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "detail": self.detail, "seconds": self.seconds, "at": self.at}

    @classmethod
    def from_json(cls, d: object) -> SeatIncident | None:
        if not isinstance(d, dict):
            return None
        seconds, at = d.get("seconds", 0.0), d.get("at", 0)
        return cls(
            str(d.get("kind", "")),
            str(d.get("detail", "")),
            float(seconds) if isinstance(seconds, int | float) else 0.0,
            at if isinstance(at, int) else 0,
        )


@dataclass(frozen=True)
class SeatInfo:
    """A seat as created: ``kind`` is "human" or a computer level; humans have a token. The
    ``incidents`` of a foreign bot that held the seat are kept with it (in the seats' JSON,
    only when there are some)."""

    kind: str
    name: str
    token: str | None = None
    seed: int = 0
    incidents: tuple[SeatIncident, ...] = ()

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {
            "kind": self.kind,
            "name": self.name,
            "token": self.token,
            "seed": self.seed,
        }
        if self.incidents:
            d["incidents"] = [i.to_json() for i in self.incidents]
        return d

    @classmethod
    def from_json(cls, d: dict[str, object]) -> SeatInfo:
        token = d.get("token")
        seed = d.get("seed", 0)
        said = d.get("incidents", [])
        incidents = [SeatIncident.from_json(i) for i in said] if isinstance(said, list) else []
        return cls(
            str(d["kind"]),
            str(d["name"]),
            token if isinstance(token, str) else None,
            seed if isinstance(seed, int) else 0,
            tuple(i for i in incidents if i is not None),
        )


@dataclass(frozen=True)
class TableTerms:
    """What a tournament fixes for one of its tables: a Passe of ``hands`` hands (0: a game
    to the target), the seconds before an absent player is replaced (``grace``; ``None``: the
    server's), the seconds a player has for a move before the computer makes it for them
    (``move``; 0: no limit), and whether the round's other tables play the same deals
    (``shared``: the tournament reveals the seed once they are all over)."""

    hands: int = 0
    grace: float | None = None
    move: float = 0
    shared: bool = False


@dataclass
class StoredTable:
    """A table as the store keeps it, with its record's entries ``(seat, deal or action)``
    (seat ``CHANCE`` = -1 for a deal)."""

    id: str
    rules: Rules
    seats: tuple[SeatInfo, ...]
    watch: str
    preset: str = "romand"
    created: float = field(default_factory=time.time)
    finished: bool = False
    resting: bool = False  # put to rest unfinished (``Store.rest``)
    deals: DealSource | None = None  # committed deals; ``None``: each shuffled from secrets
    hints: bool = False  # the coach's hints on (in ``table_hints``)
    move_limit: float = 0.0
    """Seconds a player has for a move before the computer makes it for them, at a table that
    is not a tournament's (in ``table_clocks``; a tournament's is in its ``terms``); 0: none."""
    entries: list[tuple[int, Deal | Action]] = field(default_factory=list)
    terms: TableTerms | None = None  # a tournament's table

    def new_game(self) -> Game:
        """The table's game before its first deal: to the target, or a Passe."""
        return new_game(self.rules, self.terms.hands if self.terms else 0)

    def replay(self) -> Game:
        """The game as the entries leave it."""
        game = self.new_game()
        for seat, entry in self.entries:
            game.apply(entry, None if isinstance(entry, Deal) else seat)
        return game


def encode_entry(seat: int, entry: Deal | Action) -> str:
    """A record entry in the engine's notation: a deal, or one action token."""
    if isinstance(entry, Deal):
        return format_deal(entry)
    return format_action(entry, seat)


def decode_entry(seat: int, text: str) -> Deal | Action:
    if seat == CHANCE:
        return parse_deal(text)
    action, _ = parse_action(text)
    return action


WAL_LIMIT = 64 * 1024 * 1024
"""Bytes of write-ahead log SQLite keeps on disk once its pages are back in the file."""


def _seats_key(seats: tuple[int, ...]) -> str:
    return "".join(str(s) for s in sorted(seats))


Statement = tuple[str, tuple[object, ...]]
"""One SQL statement and its parameters, to be run in a transaction with others."""


class Store:
    """The SQLite file of the server (``chibre serve --db PATH``)."""

    def __init__(self, path: Path | str) -> None:
        """Open the file (made when there is none) and bring it up to date:
        ``migrations.StoreDamaged`` or ``StoreTooNew`` when it cannot be used,
        ``StoreUnavailable`` when SQLite refuses it."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        try:
            if self.db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                with suppress(sqlite3.OperationalError):  # a read-only file keeps its mode
                    self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT:d}")  # after a checkpoint
            migrations.bring_up_to_date(self.db)
        except (ChibreError, sqlite3.Error) as e:
            self.db.close()
            if isinstance(e, ChibreError):
                raise
            raise StoreUnavailable(f"the store {self.path} cannot be opened: {e}") from e

    def close(self) -> None:
        self.db.close()

    def _transaction(self, statements: Iterable[Statement]) -> None:
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in statements:
                db.execute(sql, params)
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def create(
        self, table: StoredTable, also: Callable[[str], Iterable[Statement]] | None = None
    ) -> None:
        """Store a new table with the entries it already has (its first deal); ``also``:
        rows about it kept in the same transaction (a tournament's link to it), given its id."""
        seats = json.dumps([s.to_json() for s in table.seats], ensure_ascii=False)
        row = (
            "INSERT INTO game_tables (id, created, preset, rules, seats, watch, finished) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                table.created,
                table.preset,
                table.rules.to_json(),
                seats,
                table.watch,
                int(table.finished),
            ),
        )
        rows = [row, *self._entry_rows(table.id, 0, table.entries)]
        if table.deals is not None:
            rows.append(
                (
                    "INSERT INTO table_deals (table_id, seed, turned) VALUES (?, ?, ?)",
                    (table.id, table.deals.seed, int(table.deals.turned)),
                )
            )
        if table.hints:
            rows.append(("INSERT INTO table_hints (table_id) VALUES (?)", (table.id,)))
        if table.move_limit:
            rows.append(
                (
                    "INSERT INTO table_clocks (table_id, move) VALUES (?, ?)",
                    (table.id, table.move_limit),
                )
            )
        if table.terms is not None:
            t = table.terms
            rows.append(
                (
                    "INSERT INTO table_terms (table_id, hands, grace, move, shared) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (table.id, t.hands, t.grace, t.move, int(t.shared)),
                )
            )
        if also is not None:
            rows.extend(also(table.id))
        try:
            self._transaction(rows)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"table {table.id} was not saved: {e}") from e

    def _entry_rows(
        self, table_id: str, start: int, entries: Iterable[tuple[int, Deal | Action]]
    ) -> Iterator[Statement]:
        for n, (seat, entry) in enumerate(entries, start):
            yield (
                "INSERT INTO game_entries (table_id, n, seat, entry) VALUES (?, ?, ?, ?)",
                (table_id, n, seat, encode_entry(seat, entry)),
            )

    def append(
        self,
        table_id: str,
        n: int,
        seat: int,
        entry: Deal | Action,
        finished: bool = False,
        awake: bool = False,
    ) -> None:
        """Write entry number ``n`` of a table's record (and, when it ends the game, that the
        table is finished; ``awake``: that a resting table plays again) in one transaction."""
        statements = list(self._entry_rows(table_id, n, [(seat, entry)]))
        try:
            if not finished and not awake:
                self.db.execute(*statements[0])  # one statement: a transaction of its own
                return
            state = 1 if finished else 0  # over, or awake again after a rest
            statements.append(
                ("UPDATE game_tables SET finished = ? WHERE id = ?", (state, table_id))
            )
            self._transaction(statements)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"entry {n} of table {table_id} was not saved: {e}") from e

    def rest(self, table_id: str) -> None:
        """Mark an unfinished table as resting (``finished`` = 2): kept, but not restored at
        start; its next entry makes it unfinished (0) again."""
        try:
            self.db.execute(
                "UPDATE game_tables SET finished = 2 WHERE id = ? AND finished = 0", (table_id,)
            )
        except sqlite3.Error as e:
            raise StoreUnavailable(f"table {table_id} could not be put to rest: {e}") from e

    def note_activity(self, active: dict[str, float]) -> None:
        """Keep when these tables were last used (``Table.active``), in one transaction."""
        if not active:
            return
        try:
            self._transaction(
                ("INSERT OR REPLACE INTO table_activity (id, active) VALUES (?, ?)", item)
                for item in active.items()
            )
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the tables' activity was not saved: {e}") from e

    def activity(self) -> dict[str, float]:
        """When each table whose activity was kept was last used."""
        rows = self.db.execute("SELECT id, active FROM table_activity")
        return {str(i): float(t) for i, t in rows}

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its record, or ``None``."""
        try:
            row = self.db.execute(
                "SELECT id, created, preset, rules, seats, watch, finished FROM game_tables "
                "WHERE id = ?",
                (table_id,),
            ).fetchone()
            return None if row is None else self._table(row)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"table {table_id} cannot be read: {e}") from e

    def links(self, table_id: str) -> tuple[list[str], str] | None:
        """The seats' tokens and the spectators' token of a table, read without its record,
        or ``None`` when there is no such table."""
        try:
            row = self.db.execute(
                "SELECT seats, watch FROM game_tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                return None
            seats = [SeatInfo.from_json(s) for s in json.loads(row[0])]
        except (sqlite3.Error, ValueError, KeyError, TypeError) as e:
            raise StoreUnavailable(f"table {table_id} cannot be read: {e}") from e
        return [s.token for s in seats if s.token], str(row[1])

    def rename(self, table_id: str, seats: tuple[SeatInfo, ...]) -> None:
        """Keep a table's seats as they are now (a player named their seat)."""
        text = json.dumps([s.to_json() for s in seats], ensure_ascii=False)
        try:
            self._transaction([("UPDATE game_tables SET seats = ? WHERE id = ?", (text, table_id))])
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the seats of table {table_id} were not saved: {e}") from e

    def next_game(self, table_id: str) -> str | None:
        """The table of the rematch after ``table_id``'s game: the next one opened with the
        same seats and links (the same spectators' token), or ``None``."""
        try:
            row = self.db.execute(
                "SELECT n.id FROM game_tables AS t JOIN game_tables AS n "
                "ON n.watch = t.watch AND n.created > t.created "
                "WHERE t.id = ? ORDER BY n.created LIMIT 1",
                (table_id,),
            ).fetchone()
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the rematch of table {table_id} cannot be read: {e}") from e
        return None if row is None else str(row[0])

    def unfinished(self) -> list[str]:
        """The ids of every table whose game is not over, oldest first (each is then read
        with :meth:`load`, so that one unreadable table does not hide the others)."""
        try:
            rows = self.db.execute(
                "SELECT id FROM game_tables WHERE finished = 0 ORDER BY created"
            ).fetchall()
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the unfinished tables cannot be read: {e}") from e
        return [str(r[0]) for r in rows]

    def entries(self, table_id: str) -> list[tuple[int, Deal | Action]]:
        rows = self.db.execute(
            "SELECT seat, entry FROM game_entries WHERE table_id = ? ORDER BY n", (table_id,)
        )
        return [(seat, decode_entry(seat, text)) for seat, text in rows]

    def keep_review(self, table_id: str, seats: tuple[int, ...], review: str) -> None:
        """Keep the coach's review (JSON) of ``seats`` of a finished table's game."""
        try:
            self.db.execute(
                "INSERT OR REPLACE INTO game_reviews (table_id, seats, made, review) "
                "VALUES (?, ?, ?, ?)",
                (table_id, _seats_key(seats), time.time(), review),
            )
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the review of table {table_id} was not saved: {e}") from e

    def review(self, table_id: str, seats: tuple[int, ...]) -> str | None:
        """The review of ``seats`` kept by :meth:`keep_review`, or ``None``."""
        try:
            row = self.db.execute(
                "SELECT review FROM game_reviews WHERE table_id = ? AND seats = ?",
                (table_id, _seats_key(seats)),
            ).fetchone()
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the review of table {table_id} cannot be read: {e}") from e
        return None if row is None else str(row[0])

    def damaged(self) -> set[str]:
        """The ids of the tables that were damaged and could not be restored."""
        try:
            return {str(r[0]) for r in self.db.execute("SELECT id FROM damaged_tables")}
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the damaged tables cannot be read: {e}") from e

    def mark_damaged(self, table_id: str, reason: str) -> None:
        """Keep that a table could not be restored (its rows stay as they are)."""
        try:
            self.db.execute(
                "INSERT OR REPLACE INTO damaged_tables (id, noted, reason) VALUES (?, ?, ?)",
                (table_id, time.time(), reason),
            )
        except sqlite3.Error as e:
            raise StoreUnavailable(f"table {table_id} could not be marked damaged: {e}") from e

    def _table(self, row: tuple[object, ...]) -> StoredTable:
        table_id, created, preset, rules, seats, watch, finished = row
        assert isinstance(table_id, str) and isinstance(rules, str) and isinstance(seats, str)
        return StoredTable(
            id=table_id,
            rules=Rules.from_json(rules),
            seats=tuple(SeatInfo.from_json(s) for s in json.loads(seats)),
            watch=str(watch),
            preset=str(preset),
            created=float(created),  # type: ignore[arg-type]
            finished=finished == 1,
            resting=finished == 2,
            deals=self._deals(table_id),
            entries=self.entries(table_id),
            terms=self._terms(table_id),
            hints=self._hints(table_id),
            move_limit=self._move_limit(table_id),
        )

    def _hints(self, table_id: str) -> bool:
        query = "SELECT 1 FROM table_hints WHERE table_id = ?"
        return self.db.execute(query, (table_id,)).fetchone() is not None

    def _move_limit(self, table_id: str) -> float:
        query = "SELECT move FROM table_clocks WHERE table_id = ?"
        row = self.db.execute(query, (table_id,)).fetchone()
        return 0.0 if row is None else float(row[0])

    def _terms(self, table_id: str) -> TableTerms | None:
        row = self.db.execute(
            "SELECT hands, grace, move, shared FROM table_terms WHERE table_id = ?", (table_id,)
        ).fetchone()
        if row is None:
            return None
        hands, grace, move, shared = row
        return TableTerms(
            int(hands), None if grace is None else float(grace), float(move), shared == 1
        )

    def _deals(self, table_id: str) -> DealSource | None:
        row = self.db.execute(
            "SELECT seed, turned FROM table_deals WHERE table_id = ?", (table_id,)
        ).fetchone()
        return None if row is None else DealSource(str(row[0]), bool(row[1]))
