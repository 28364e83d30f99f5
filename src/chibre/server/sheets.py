"""Score sheets of the Jasstafel calculator, kept in the table's SQLite store, and their routes.

Every sheet is one row of ``score_sheets`` in the same SQLite file as the tables (WAL mode):
its id, its key, name, times, and the sheet as JSON (``ScoreSheet.to_json``: the full option
set and the hands as entered — everything else is counted again when it is read). A change is
read, applied and written inside one ``BEGIN IMMEDIATE`` transaction, so two scorers cannot
lose each other's hand.

A sheet is opened by its id *and* its key (``secrets.token_urlsafe``), like a seat at a table
by its token: whoever has the link ``/tafel#ID.KEY`` can read and write on the sheet, nobody
else. The server lists no sheets of its own accord; the page keeps the links of "my sheets"
in the browser and asks for their summaries.

Routes (``router(db_path)``, served by ``chibre serve``); ``KEY`` is the sheet's key:

- ``GET /tafel`` — the calculator's page.
- ``GET /api/sheets?mine=ID.KEY,ID.KEY`` — the summaries of those sheets (the ones whose key
  is right), newest first; ``POST /api/sheets`` — a new sheet from
  ``{"name", "teams", "preset", "rules": {option: value}}`` (its view, with ``key``); with
  ``"id"`` and ``"key"`` chosen by the page (a sheet begun without a connection), sent again
  it answers the sheet made the first time (``"replayed": true``), and an id taken by another
  sheet is refused (409).
- ``POST /api/sheets/import`` — a new sheet (with a new key) from an exported one.
- ``GET|PATCH|DELETE /api/sheets/{id}?key=KEY`` — the sheet counted (``&lang=`` for its
  slate, German by default, and the rules' refusals, English by default), its name and
  teams, or its removal;
  ``GET /api/sheets/{id}/export?key=KEY`` — the sheet as JSON (without its key).
- ``POST /api/sheets/{id}/hands?key=KEY`` — write a hand;
  ``PUT|DELETE /api/sheets/{id}/hands/{n}?key=KEY`` — correct or strike hand ``n``.
  Each takes ``&write=ID``, an id the page chooses for that change (``WRITE_ID``): a change
  whose id the sheet has already taken is not made again, so a page that sends it again
  (its answer was lost with the connection) never writes a hand twice; the answer says
  ``"replayed": true`` and which hand the change wrote (``"written"``). A correction or
  deletion may take ``&was=STAMP``, the ``stamp`` of the hand as the page showed it: when
  hand ``n`` is no longer that hand (another scorer changed the sheet meanwhile) it is
  answered 409 and nothing changes.
- ``GET /api/sheets/{id}/tafel.svg?key=KEY`` — the sheet's slate.
- ``GET /api/tafel.svg?team0=98,59&team1=59,98`` — a slate for any hand scores (the online
  table shows its game with it); ``striche0=sieg:2,match:1``, ``label0=``, ``lang=``. At most
  ``MAX_SLATE_HANDS`` hands per team of at most ``MAX_SLATE_POINTS`` points each, and at most
  ``MAX_STRICHE`` Striche of a kind.

The ids of the last ``MAX_WRITES`` changes are kept with the sheet, in its row (``"writes"``
beside the sheet's JSON; an export leaves them out). The calculator's page keeps every hand in
the browser first and sends it with its id (``static/tafel-sync.js``); ``GET /tafel-sw.js``
is its service worker, which keeps the page for use without a connection.

The rules' presets are ``GET /api/presets`` of the server. Bad input is answered 400 with
``{"error": message, "field": name}`` and nothing is stored: the message in the ``lang`` asked
for (English when none is — a slate without ``lang`` is drawn in German), the field it
concerns where there is one, as the hand or the sheet names it (``points``, ``weis`` or one
team's ``weis[0]``, ``stoeck``, ``double``, ``contract``, a moment's field, ``teams``,
``passe``; ``team0``, ``striche1`` of a slate). A moment the sheet cannot read from the blocks
is asked for the same way, naming the hand's field that says it (``first_out``,
``berg_first`` or ``schneider``, left out of the hand: the hand sent again with it is
written). A wrong key 403, an unknown sheet 404, a hand changed meanwhile 409.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import re
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from fastapi import APIRouter, Depends, Query
from starlette.responses import FileResponse, JSONResponse, Response

from chibre.errors import ChibreError, InvalidRules
from chibre.rules import MAX_STRICHE, Rules
from chibre.scoresheet import STRICHE_KINDS, InvalidEntry, ScoreSheet
from chibre.server import migrations
from chibre.server.http import STATIC, bounded_route, error, page
from chibre.server.models import HandRequest, SheetImport, SheetRename, SheetRequest
from chibre.server.quota import per_minute
from chibre.server.store import Statement, StoreUnavailable
from chibre.tafel import MAX_SLATE_POINTS, jasstafel_svg, tafel_svg

log = logging.getLogger("chibre.server")

MAX_BODY = 256 * 1024  # an exported sheet of a long game fits easily
MAX_SLATE_HANDS = 500
MAX_LISTED = 200  # sheets asked for at once by ``GET /api/sheets``
MAX_WRITES = 2000  # the ids of the last changes a sheet remembers (``write=``)
WRITE_ID = r"^[A-Za-z0-9_-]{8,40}$"


class NoSuchSheet(ChibreError, LookupError):
    """A sheet id that is not in the store."""


class WrongKey(ChibreError, PermissionError):
    """A sheet asked for without its key, or with another sheet's."""


class HandChanged(ChibreError, ValueError):
    """A correction or deletion of a hand that is no longer the hand the scorer saw."""


class SheetTaken(ChibreError, ValueError):
    """A new sheet whose id (chosen by the page) another sheet already has."""


class Written(NamedTuple):
    """A change made (or found already made) on a sheet."""

    sheet: ScoreSheet
    hand: int | None  # the hand it wrote, corrected or struck
    replayed: bool  # the sheet had taken this change before: nothing was done again


class SheetKey(NamedTuple):
    """What opens a sheet: its id and its key (the link is ``/tafel#ID.KEY``)."""

    id: str
    key: str

    @property
    def link(self) -> str:
        return f"/tafel#{self.id}.{self.key}"


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back when it
    raises (nothing of it kept)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class SheetStore:
    """The score sheets in one SQLite file (shared with the tables' store). Every sheet is
    read and changed with its key; ``WrongKey`` when the key is not the sheet's."""

    def __init__(self, path: Path | str) -> None:
        """The store of the file ``path``; the file is opened (and brought up to date,
        ``chibre.server.migrations``) when a sheet is first asked for."""
        self.path = str(path)
        Path(path).parent.mkdir(parents=True, exist_ok=True)  # a first start: no data dir yet
        self._ready = False

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection to the file; SQLite's refusals (a full disk, a read-only or damaged
        file) become ``StoreUnavailable``, and nothing is changed."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the score sheets cannot be opened: {e}") from e
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            if not self._ready:
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode=WAL")
                migrations.bring_up_to_date(db)
                self._ready = True
            yield db
        except sqlite3.Error as e:
            raise StoreUnavailable(f"the score sheets cannot be read or written: {e}") from e
        finally:
            db.close()

    @staticmethod
    def _open(db: sqlite3.Connection, sheet_id: str, key: str | None) -> ScoreSheet:
        return SheetStore._open_with_writes(db, sheet_id, key)[0]

    @staticmethod
    def _open_with_writes(
        db: sqlite3.Connection, sheet_id: str, key: str | None
    ) -> tuple[ScoreSheet, dict[str, int | None]]:
        """The sheet and the ids of the changes it has taken (with the hand each wrote)."""
        row = db.execute("SELECT key, sheet FROM score_sheets WHERE id = ?", (sheet_id,)).fetchone()
        if row is None:
            raise NoSuchSheet(f"there is no score sheet {sheet_id!r}")
        if not _same_key(row[0], key):
            raise WrongKey("this link does not open this score sheet: ask its scorer for the link")
        sheet = ScoreSheet.from_json(row[1])
        stored = json.loads(row[1]).get("writes")
        writes = stored if isinstance(stored, dict) else {}
        return sheet, writes

    def create(
        self,
        sheet: ScoreSheet,
        chosen: SheetKey | None = None,
        also: Callable[[SheetKey], Iterable[Statement]] | None = None,
    ) -> SheetKey:
        """Store a new sheet; returns its id and key (``chosen``: those the page chose,
        ``SheetTaken`` when another sheet has that id; ``also``: rows about it kept in the
        same transaction, a tournament's link to it)."""
        opened = chosen or SheetKey(secrets.token_urlsafe(8), secrets.token_urlsafe(16))
        now = time.time()
        with self._connect() as db, _transaction(db):
            try:
                db.execute(
                    "INSERT INTO score_sheets (id, key, name, created, updated, sheet) "
                    "VALUES (?,?,?,?,?,?)",
                    (opened.id, opened.key, sheet.name, now, now, sheet.to_json()),
                )
            except sqlite3.IntegrityError as e:
                raise SheetTaken(f"there is already a score sheet {opened.id!r}") from e
            for sql, params in also(opened) if also is not None else ():
                db.execute(sql, params)
        return opened

    def load(self, sheet_id: str, key: str | None) -> ScoreSheet:
        with self._connect() as db:
            return self._open(db, sheet_id, key)

    def change(
        self,
        sheet_id: str,
        key: str | None,
        edit: Callable[[ScoreSheet], object],
        also: Callable[[ScoreSheet], Iterable[Statement]] | None = None,
    ) -> ScoreSheet:
        """Apply ``edit`` to the stored sheet and keep the result; if ``edit`` raises,
        nothing is written. ``also``: rows about the change kept in the same transaction
        (a tournament's audit log), given the sheet changed."""

        def unnumbered(sheet: ScoreSheet) -> None:
            edit(sheet)

        return self.write(sheet_id, key, None, unnumbered, also).sheet

    def write(
        self,
        sheet_id: str,
        key: str | None,
        write: str | None,
        edit: Callable[[ScoreSheet], int | None],
        also: Callable[[ScoreSheet], Iterable[Statement]] | None = None,
    ) -> Written:
        """Apply ``edit`` (which returns the hand it wrote) to the stored sheet and keep the
        result with the change's id ``write``; a change whose id the sheet has already taken
        is not applied again. If ``edit`` raises, nothing is written."""
        with self._connect() as db, _transaction(db):
            sheet, writes = self._open_with_writes(db, sheet_id, key)
            if write is not None and write in writes:
                return Written(sheet, writes[write], True)
            hand = edit(sheet)
            if write is not None:
                writes[write] = hand
                for old in list(writes)[: max(0, len(writes) - MAX_WRITES)]:
                    del writes[old]
            stored = sheet.to_dict()
            if writes:
                stored["writes"] = writes
            db.execute(
                "UPDATE score_sheets SET name = ?, updated = ?, sheet = ? WHERE id = ?",
                (sheet.name, time.time(), json.dumps(stored, ensure_ascii=False), sheet_id),
            )
            for sql, params in also(sheet) if also is not None else ():
                db.execute(sql, params)
        return Written(sheet, hand, False)

    def delete(self, sheet_id: str, key: str | None) -> None:
        with self._connect() as db, _transaction(db):
            self._open(db, sheet_id, key)
            db.execute("DELETE FROM score_sheets WHERE id = ?", (sheet_id,))

    def summaries(self, opened: Iterable[SheetKey]) -> list[dict[str, Any]]:
        """The sheets among ``opened`` whose key is right, the most recently changed first,
        with their teams, totals and end; the others are left out. A sheet whose row cannot
        be read is listed with ``"damaged": true`` (and its id only), so that one damaged
        row does not hide the others."""
        keys = {o.id: o.key for o in opened}
        if not keys:
            return []
        columns = "SELECT id, key, created, updated, sheet FROM score_sheets "
        unreadable: list[str] = []
        with self._connect() as db:
            try:
                rows = db.execute(
                    columns + f"WHERE id IN ({','.join('?' * len(keys))})", tuple(keys)
                ).fetchall()
            except sqlite3.DatabaseError:  # a damaged page: each sheet on its own
                rows = []
                for sheet_id in keys:
                    try:
                        rows += db.execute(columns + "WHERE id = ?", (sheet_id,)).fetchall()
                    except sqlite3.DatabaseError:
                        unreadable.append(sheet_id)
        out = []
        for sheet_id, key, created, updated, text in rows:
            if not _same_key(key, keys[sheet_id]):
                continue
            try:
                out.append(_summary(sheet_id, text, created, updated))
            except (ValueError, TypeError, AttributeError, RecursionError):
                unreadable.append(sheet_id)
        out.sort(key=lambda d: d["updated"], reverse=True)
        return out + [_damaged(sheet_id) for sheet_id in unreadable]


def _summary(sheet_id: str, text: str, created: float, updated: float) -> dict[str, Any]:
    """A sheet's summary from its stored JSON (``ValueError``, ``TypeError`` when damaged)."""
    d = json.loads(text)
    if not isinstance(d, dict):
        raise TypeError(f"sheet {sheet_id} is not a JSON object")
    try:
        s = ScoreSheet.from_dict(d)
        totals, winner = list(s.totals), s.winner
    except ChibreError:  # stored by an older version with other rules
        totals, winner = [0, 0], -1
    return {
        "id": sheet_id,
        "name": d.get("name", ""),
        "teams": d.get("teams", ["A", "B"]),
        "hands": len(d.get("hands", [])),
        "target": d.get("rules", {}).get("target"),
        "totals": totals,
        "winner": winner,
        "created": float(created),
        "updated": float(updated),
    }


def _damaged(sheet_id: str) -> dict[str, Any]:
    """What the list says of a sheet whose row cannot be read."""
    return {
        "id": sheet_id,
        "damaged": True,
        "error": "this score sheet was damaged and cannot be read",
    }


def _same_key(known: str, given: str | None) -> bool:
    """Whether ``given`` is the sheet's key (a sheet without a key opens to nobody)."""
    if not known or not given:
        return False
    return secrets.compare_digest(known.encode(), given.encode())


# --- HTTP ----------------------------------------------------------------------------------


def hand_stamp(hand: Mapping[str, Any]) -> str:
    """A short fingerprint of a hand as entered: a correction sent with it (``was=``) is
    refused when the sheet's hand is no longer that one."""
    text = json.dumps(hand, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def slate_lang(lang: str | None) -> str:
    """The language of a slate: the one asked for, German when none is."""
    return lang or "de"


def _view(opened: SheetKey, sheet: ScoreSheet, lang: str | None) -> dict[str, Any]:
    summary = sheet.summary()
    for shown, entry in zip(summary["hands"], sheet.hands, strict=True):
        shown["stamp"] = hand_stamp(entry.to_dict())
    return {
        "id": opened.id,
        "key": opened.key,
        "link": opened.link,
        **summary,
        "rules": sheet.rules.to_dict(),
        "svg": jasstafel_svg(sheet, slate_lang(lang)),
    }


def _written(opened: SheetKey, done: Written, lang: str | None) -> dict[str, Any]:
    return {**_view(opened, done.sheet, lang), "written": done.hand, "replayed": done.replayed}


def check_stamp(sheet: ScoreSheet, number: int, was: str | None) -> None:
    """``HandChanged`` when hand ``number`` is not the hand of stamp ``was`` (if given)."""
    if was is None or not 1 <= number <= len(sheet.hands):
        return  # no stamp to check, or no such hand: the sheet says so itself
    if hand_stamp(sheet.hands[number - 1].to_dict()) != was:
        raise HandChanged(
            f"hand {number} has been changed on another device meanwhile: "
            "look at the sheet again before changing it"
        )


def new_sheet(data: SheetRequest) -> ScoreSheet:
    """A sheet from ``{"name", "teams", "preset", "rules": {option: value}}``."""
    options = data.rules.changes() if data.rules else {}
    rules = Rules.preset(data.preset or "romand", **options)
    return ScoreSheet(rules, (), data.name, data.teams or ("A", "B"))


_WHOLE = re.compile(r"-?[0-9]+")  # ASCII digits only: "²" and "١" are digits to str.isdigit
_COUNT = re.compile(r"[0-9]+")


def parse_scores(text: str | None, what: str) -> list[int]:
    """Hand scores from ``98,59,-20``: whole numbers, at most ``MAX_SLATE_HANDS`` of them,
    each within ±``MAX_SLATE_POINTS``."""
    items = [x for x in (text or "").replace(" ", "").split(",") if x]
    if not all(_WHOLE.fullmatch(x) for x in items):
        raise InvalidEntry(f"{what}: hand scores are whole numbers separated by commas", field=what)
    if len(items) > MAX_SLATE_HANDS:
        raise InvalidEntry(f"{what}: at most {MAX_SLATE_HANDS} hands on a slate", field=what)
    limit = len(str(MAX_SLATE_POINTS))
    if any(len(x.lstrip("-0")) > limit or abs(int(x)) > MAX_SLATE_POINTS for x in items):
        raise InvalidEntry(
            f"{what}: a hand scores at most {MAX_SLATE_POINTS} points (or -{MAX_SLATE_POINTS})",
            field=what,
        )
    return [int(x) for x in items]


def parse_striche(text: str | None, what: str) -> dict[str, int]:
    """Striche from ``sieg:2,match:1``: each kind at most ``MAX_STRICHE`` times."""
    out: dict[str, int] = {}
    for part in (text or "").split(","):
        if not part:
            continue
        kind, _, n = part.partition(":")
        if kind not in STRICHE_KINDS or not _COUNT.fullmatch(n):
            raise InvalidEntry(
                f"{what}: write kind:count, the kinds being {', '.join(STRICHE_KINDS)}",
                field=what,
            )
        if len(n.lstrip("0")) > len(str(MAX_STRICHE)) or int(n) > MAX_STRICHE:
            raise InvalidEntry(
                f"{what}: at most {MAX_STRICHE} Striche of a kind on a slate", field=what
            )
        out[kind] = int(n)
    return out


def parse_mine(text: str | None) -> list[SheetKey]:
    """The sheets a page asks for: ``ID.KEY,ID.KEY`` (at most ``MAX_LISTED``)."""
    items = [x for x in (text or "").split(",") if x]
    if len(items) > MAX_LISTED:
        raise InvalidEntry(f"at most {MAX_LISTED} sheets can be asked for at once", field="mine")
    out = []
    for item in items:
        sheet_id, dot, key = item.partition(".")
        if not (dot and sheet_id and key):
            raise InvalidEntry("ask for sheets as ID.KEY, separated by commas", field="mine")
        out.append(SheetKey(sheet_id, key))
    return out


def hand_number(text: str) -> int:
    """The hand ``n`` of a route: a whole number written in ASCII digits."""
    if not _COUNT.fullmatch(text) or len(text) > 9:
        raise InvalidEntry.said_as("no_hand", number=repr(text[:12]))
    return int(text)


Key = Annotated[str, Query(max_length=64)]
Mine = Annotated[str | None, Query(max_length=MAX_LISTED * 40, pattern=r"^[A-Za-z0-9_.,-]*$")]
Lang = Literal["de", "fr", "en"] | None  # None: refusals in English, the slate in German
Scores = Annotated[str | None, Query(max_length=MAX_SLATE_HANDS * 8)]
Marks = Annotated[str | None, Query(max_length=200)]
Label = Annotated[str, Query(max_length=200)]
WriteId = Annotated[str | None, Query(pattern=WRITE_ID)]
Stamp = Annotated[str | None, Query(pattern=r"^[0-9a-f]{16}$")]


def router(db_path: Path) -> APIRouter:
    """The HTTP routes of the calculator."""
    store = SheetStore(db_path)
    api = APIRouter(route_class=bounded_route(MAX_BODY))
    new_sheets = Depends(per_minute("sheet_quota", "new score sheets"))  # --tables-per-minute

    def guarded(
        handler: Callable[..., Awaitable[Response]],
    ) -> Callable[..., Awaitable[Response]]:
        @functools.wraps(handler)
        async def endpoint(*args: Any, **kwargs: Any) -> Response:
            try:
                return await handler(*args, **kwargs)
            except NoSuchSheet as e:
                return error(404, str(e))
            except WrongKey as e:
                return error(403, str(e))
            except HandChanged as e:
                return error(409, str(e), "was")
            except SheetTaken as e:
                return error(409, str(e), "id")
            except StoreUnavailable:
                log.exception("the score sheets' store refused a request")
                return error(503, "the score sheet could not be read or saved: try again later")
            except InvalidEntry as e:  # in the language asked for (English unasked), its field
                return error(400, e.said(kwargs.get("lang") or "en"), e.field)
            except (InvalidRules, ChibreError) as e:
                return error(400, str(e))

        return endpoint

    @api.get("/tafel", include_in_schema=False)
    async def tafel_page() -> Response:
        return page("tafel.html")

    @api.get("/tafel-sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # served from the root, so that it may keep /tafel (a worker's reach is its folder)
        return FileResponse(
            STATIC / "tafel-sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @api.get("/api/sheets", summary="The summaries of the sheets whose links are given")
    @guarded
    async def list_sheets(mine: Mine = None) -> Response:
        return JSONResponse({"sheets": store.summaries(parse_mine(mine))})

    @api.post(
        "/api/sheets", status_code=201, summary="A new score sheet", dependencies=[new_sheets]
    )
    @guarded
    async def create(body: SheetRequest, lang: Lang = None) -> Response:
        sheet = new_sheet(body)
        if body.id is None or body.key is None:
            return JSONResponse(_view(store.create(sheet), sheet, lang), status_code=201)
        chosen = SheetKey(body.id, body.key)
        try:
            store.create(sheet, chosen)
        except SheetTaken as taken:
            try:  # sent again (its answer was lost): the sheet with this key, as it is now
                again = store.load(*chosen)
            except WrongKey:
                raise taken from None
            return JSONResponse({**_view(chosen, again, lang), "replayed": True})
        return JSONResponse({**_view(chosen, sheet, lang), "replayed": False}, status_code=201)

    @api.post(
        "/api/sheets/import",
        status_code=201,
        summary="A new sheet from an exported one",
        dependencies=[new_sheets],
    )
    @guarded
    async def import_sheet(body: SheetImport, lang: Lang = None) -> Response:
        sheet = ScoreSheet.from_dict(body.sheet())
        return JSONResponse(_view(store.create(sheet), sheet, lang), status_code=201)

    @api.get("/api/sheets/{id}", summary="A sheet, counted, with its slate")
    @guarded
    async def show(id: str, key: Key = "", lang: Lang = None) -> Response:
        o = SheetKey(id, key)
        return JSONResponse(_view(o, store.load(*o), lang))

    @api.patch("/api/sheets/{id}", summary="A sheet's name and teams")
    @guarded
    async def rename(id: str, body: SheetRename, key: Key = "", lang: Lang = None) -> Response:
        def edit(sheet: ScoreSheet) -> None:
            renamed = ScoreSheet(
                sheet.rules,
                sheet.hands,
                sheet.name if body.name is None else body.name,
                sheet.teams if body.teams is None else body.teams,
            )
            sheet.name, sheet.teams = renamed.name, renamed.teams

        o = SheetKey(id, key)
        return JSONResponse(_view(o, store.change(*o, edit), lang))

    @api.delete("/api/sheets/{id}", summary="Remove a sheet")
    @guarded
    async def remove(id: str, key: Key = "") -> Response:
        store.delete(id, key)
        return JSONResponse({"deleted": id})

    @api.get("/api/sheets/{id}/export", summary="A sheet as JSON, without its key")
    @guarded
    async def export(id: str, key: Key = "") -> Response:
        return Response(
            store.load(id, key).to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="jasstafel-{id}.json"'},
        )

    @api.post("/api/sheets/{id}/hands", status_code=201, summary="Write the next hand")
    @guarded
    async def add_hand(
        id: str, body: HandRequest, key: Key = "", lang: Lang = None, write: WriteId = None
    ) -> Response:
        def edit(sheet: ScoreSheet) -> int:
            return sheet.add(body.entry()).number

        o = SheetKey(id, key)
        return JSONResponse(_written(o, store.write(*o, write, edit), lang), status_code=201)

    @api.put("/api/sheets/{id}/hands/{n}", summary="Correct hand n")
    @guarded
    async def replace_hand(
        id: str,
        n: str,
        body: HandRequest,
        key: Key = "",
        lang: Lang = None,
        write: WriteId = None,
        was: Stamp = None,
    ) -> Response:
        number = hand_number(n)

        def edit(sheet: ScoreSheet) -> int:
            check_stamp(sheet, number, was)
            sheet.replace(number, body.entry())
            return number

        o = SheetKey(id, key)
        return JSONResponse(_written(o, store.write(*o, write, edit), lang))

    @api.delete("/api/sheets/{id}/hands/{n}", summary="Strike hand n")
    @guarded
    async def delete_hand(
        id: str, n: str, key: Key = "", lang: Lang = None, write: WriteId = None, was: Stamp = None
    ) -> Response:
        number = hand_number(n)

        def edit(sheet: ScoreSheet) -> int:
            check_stamp(sheet, number, was)
            sheet.delete(number)
            return number

        o = SheetKey(id, key)
        return JSONResponse(_written(o, store.write(*o, write, edit), lang))

    @api.get("/api/sheets/{id}/tafel.svg", summary="A sheet's slate")
    @guarded
    async def sheet_svg(id: str, key: Key = "", lang: Lang = None) -> Response:
        sheet = store.load(id, key)
        return Response(jasstafel_svg(sheet, slate_lang(lang)), media_type="image/svg+xml")

    @api.get("/api/tafel.svg", summary="A slate for any hand scores")
    @guarded
    async def any_svg(
        team0: Scores = None,
        team1: Scores = None,
        striche0: Marks = None,
        striche1: Marks = None,
        label0: Label = "A",
        label1: Label = "B",
        lang: Lang = None,
    ) -> Response:
        scores = (parse_scores(team0, "team0"), parse_scores(team1, "team1"))
        marks = None
        if striche0 is not None or striche1 is not None:
            marks = (parse_striche(striche0, "striche0"), parse_striche(striche1, "striche1"))
        labels = (label0[:40], label1[:40])
        return Response(
            tafel_svg(scores, marks, labels, slate_lang(lang)), media_type="image/svg+xml"
        )

    return api
