"""Score sheets of the Jasstafel calculator, kept in the table's SQLite store, and their routes.

Every sheet is one row of ``score_sheets`` in the same SQLite file as the tables (WAL mode):
its id, name, times, and the sheet as JSON (``ScoreSheet.to_json``: the full option set and
the hands as entered — everything else is counted again when it is read). A change is read,
applied and written inside one ``BEGIN IMMEDIATE`` transaction, so two scorers cannot lose
each other's hand.

Routes (``routes(db_path)``; ``app(db_path)`` serves them with the static files on their own):

- ``GET /tafel`` — the calculator's page.
- ``GET /api/sheets`` — every sheet, newest first; ``POST /api/sheets`` — a new sheet from
  ``{"name", "teams", "preset", "rules": {option: value}}``.
- ``GET /api/sheets/presets`` — the presets' option sets.
- ``POST /api/sheets/import`` — a new sheet from an exported one.
- ``GET|PATCH|DELETE /api/sheets/{id}`` — the sheet counted (``?lang=`` for its slate), its
  name and teams, or its removal; ``GET /api/sheets/{id}/export`` — the sheet as JSON.
- ``POST /api/sheets/{id}/hands`` — write a hand; ``PUT|DELETE /api/sheets/{id}/hands/{n}`` —
  correct or strike hand ``n``.
- ``GET /api/sheets/{id}/tafel.svg`` — the sheet's slate.
- ``GET /api/tafel.svg?team0=98,59&team1=59,98`` — a slate for any hand scores (the online
  table shows its game with it); ``striche0=sieg:2,match:1``, ``label0=``, ``lang=``.

Bad input is answered 400 with ``{"error": message}`` and nothing is stored.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from chibre.errors import ChibreError, InvalidRules
from chibre.rules import PRESETS, Rules
from chibre.scoresheet import InvalidEntry, ScoreSheet
from chibre.tafel import STRICHE_KINDS, jasstafel_svg, tafel_svg

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 256 * 1024
LANGS = ("de", "fr", "en")

SCHEMA = """
CREATE TABLE IF NOT EXISTS score_sheets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    sheet TEXT NOT NULL
);
"""


class NoSuchSheet(ChibreError, LookupError):
    """A sheet id that is not in the store."""


class SheetStore:
    """The score sheets in one SQLite file (shared with the tables' store)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            yield db
        finally:
            db.close()

    def create(self, sheet: ScoreSheet) -> str:
        """Store a new sheet; returns its id."""
        sheet_id = secrets.token_urlsafe(8)
        now = time.time()
        with self._connect() as db:
            db.execute(
                "INSERT INTO score_sheets (id, name, created, updated, sheet) VALUES (?,?,?,?,?)",
                (sheet_id, sheet.name, now, now, sheet.to_json()),
            )
        return sheet_id

    def load(self, sheet_id: str) -> ScoreSheet:
        with self._connect() as db:
            row = db.execute("SELECT sheet FROM score_sheets WHERE id = ?", (sheet_id,)).fetchone()
        if row is None:
            raise NoSuchSheet(f"there is no score sheet {sheet_id!r}")
        return ScoreSheet.from_json(row[0])

    def change(self, sheet_id: str, edit: Callable[[ScoreSheet], None]) -> ScoreSheet:
        """Apply ``edit`` to the stored sheet and keep the result; if ``edit`` raises,
        nothing is written."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute(
                    "SELECT sheet FROM score_sheets WHERE id = ?", (sheet_id,)
                ).fetchone()
                if row is None:
                    raise NoSuchSheet(f"there is no score sheet {sheet_id!r}")
                sheet = ScoreSheet.from_json(row[0])
                edit(sheet)
                db.execute(
                    "UPDATE score_sheets SET name = ?, updated = ?, sheet = ? WHERE id = ?",
                    (sheet.name, time.time(), sheet.to_json(), sheet_id),
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return sheet

    def delete(self, sheet_id: str) -> None:
        with self._connect() as db:
            gone = db.execute("DELETE FROM score_sheets WHERE id = ?", (sheet_id,)).rowcount
        if not gone:
            raise NoSuchSheet(f"there is no score sheet {sheet_id!r}")

    def list(self) -> list[dict[str, Any]]:
        """Every sheet, the most recently changed first, with its teams, totals and end."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT id, created, updated, sheet FROM score_sheets ORDER BY updated DESC"
            ).fetchall()
        out = []
        for sheet_id, created, updated, text in rows:
            d = json.loads(text)
            try:
                s = ScoreSheet.from_dict(d)
                totals, winner = list(s.totals), s.winner
            except ChibreError:  # stored by an older version with other rules
                totals, winner = [0, 0], -1
            out.append(
                {
                    "id": sheet_id,
                    "name": d.get("name", ""),
                    "teams": d.get("teams", ["A", "B"]),
                    "hands": len(d.get("hands", [])),
                    "target": d.get("rules", {}).get("target"),
                    "totals": totals,
                    "winner": winner,
                    "created": created,
                    "updated": updated,
                }
            )
        return out


# --- HTTP ----------------------------------------------------------------------------------


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise InvalidEntry(f"the request is too large (at most {MAX_BODY} bytes)")
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError as e:
        raise InvalidEntry("the request is not valid JSON") from e


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "de")
    return lang if lang in LANGS else "de"


def _view(sheet_id: str, sheet: ScoreSheet, lang: str) -> dict[str, Any]:
    return {
        "id": sheet_id,
        **sheet.summary(),
        "rules": sheet.rules.to_dict(),
        "svg": jasstafel_svg(sheet, lang),
    }


def new_sheet(data: Any) -> ScoreSheet:
    """A sheet from ``{"name", "teams", "preset", "rules": {option: value}}``."""
    if not isinstance(data, dict):
        raise InvalidEntry("a new sheet is a JSON object: name, teams, preset, rules")
    unknown = sorted(set(data) - {"name", "teams", "preset", "rules"})
    if unknown:
        raise InvalidEntry(f"unknown field {unknown[0]!r}: give name, teams, preset, rules")
    options = data.get("rules") or {}
    if not isinstance(options, dict):
        raise InvalidEntry("rules are a JSON object of options")
    preset = data.get("preset") or "romand"
    if not isinstance(preset, str):
        raise InvalidEntry("the preset is a name, such as romand")
    rules = Rules.preset(preset, **options)
    return ScoreSheet(rules, (), data.get("name") or "", data.get("teams") or ("A", "B"))


def _parse_scores(text: str | None, what: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError as e:
        raise InvalidEntry(f"{what}: hand scores are whole numbers separated by commas") from e


def _parse_striche(text: str | None, what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in (text or "").split(","):
        if not part:
            continue
        kind, _, n = part.partition(":")
        if kind not in STRICHE_KINDS or not n.isdigit():
            raise InvalidEntry(
                f"{what}: write kind:count, the kinds being {', '.join(STRICHE_KINDS)}"
            )
        out[kind] = int(n)
    return out


def routes(db_path: Path) -> list[BaseRoute]:
    """The HTTP routes of the calculator."""
    store = SheetStore(db_path)

    def guarded(
        handler: Callable[[Request], Any],
    ) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            try:
                result: Response = await handler(request)
                return result
            except NoSuchSheet as e:
                return _error(404, str(e))
            except (InvalidEntry, InvalidRules, ChibreError) as e:
                return _error(400, str(e))

        return endpoint

    async def page(request: Request) -> Response:
        path = STATIC / "tafel.html"
        if not path.is_file():
            return _error(404, "the calculator's page is not installed")
        return FileResponse(path, media_type="text/html")

    async def list_sheets(request: Request) -> Response:
        return JSONResponse({"sheets": store.list()})

    async def create(request: Request) -> Response:
        sheet = new_sheet(await _body(request))
        sheet_id = store.create(sheet)
        return JSONResponse(_view(sheet_id, sheet, _lang(request)), status_code=201)

    async def presets(request: Request) -> Response:
        return JSONResponse(
            {
                "presets": {name: Rules.preset(name).to_dict() for name in PRESETS},
                "default": "romand",
            }
        )

    async def import_sheet(request: Request) -> Response:
        sheet = ScoreSheet.from_dict(await _body(request))
        sheet_id = store.create(sheet)
        return JSONResponse(_view(sheet_id, sheet, _lang(request)), status_code=201)

    async def show(request: Request) -> Response:
        sheet_id = request.path_params["id"]
        return JSONResponse(_view(sheet_id, store.load(sheet_id), _lang(request)))

    async def rename(request: Request) -> Response:
        data = await _body(request)
        if not isinstance(data, dict) or set(data) - {"name", "teams"}:
            raise InvalidEntry("a sheet's name and teams can be changed: give name, teams")

        def edit(sheet: ScoreSheet) -> None:
            renamed = ScoreSheet(
                sheet.rules,
                sheet.hands,
                data.get("name", sheet.name),
                data.get("teams", sheet.teams),
            )
            sheet.name, sheet.teams = renamed.name, renamed.teams

        sheet_id = request.path_params["id"]
        return JSONResponse(_view(sheet_id, store.change(sheet_id, edit), _lang(request)))

    async def remove(request: Request) -> Response:
        store.delete(request.path_params["id"])
        return JSONResponse({"deleted": request.path_params["id"]})

    async def export(request: Request) -> Response:
        sheet_id = request.path_params["id"]
        sheet = store.load(sheet_id)
        return Response(
            sheet.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="jasstafel-{sheet_id}.json"'},
        )

    async def add_hand(request: Request) -> Response:
        data = await _body(request)
        sheet_id = request.path_params["id"]

        def edit(sheet: ScoreSheet) -> None:
            sheet.add(data)

        sheet = store.change(sheet_id, edit)
        return JSONResponse(_view(sheet_id, sheet, _lang(request)), status_code=201)

    def _number(request: Request) -> int:
        text = request.path_params["n"]
        if not text.isdigit():
            raise InvalidEntry(f"there is no hand {text!r} on this sheet")
        return int(text)

    async def replace_hand(request: Request) -> Response:
        data = await _body(request)
        n = _number(request)
        sheet_id = request.path_params["id"]

        def edit(sheet: ScoreSheet) -> None:
            sheet.replace(n, data)

        sheet = store.change(sheet_id, edit)
        return JSONResponse(_view(sheet_id, sheet, _lang(request)))

    async def delete_hand(request: Request) -> Response:
        n = _number(request)
        sheet_id = request.path_params["id"]

        def edit(sheet: ScoreSheet) -> None:
            sheet.delete(n)

        sheet = store.change(sheet_id, edit)
        return JSONResponse(_view(sheet_id, sheet, _lang(request)))

    async def sheet_svg(request: Request) -> Response:
        sheet = store.load(request.path_params["id"])
        return Response(jasstafel_svg(sheet, _lang(request)), media_type="image/svg+xml")

    async def any_svg(request: Request) -> Response:
        q = request.query_params
        scores = (_parse_scores(q.get("team0"), "team0"), _parse_scores(q.get("team1"), "team1"))
        marks = None
        if "striche0" in q or "striche1" in q:
            marks = (
                _parse_striche(q.get("striche0"), "striche0"),
                _parse_striche(q.get("striche1"), "striche1"),
            )
        labels = (q.get("label0", "A")[:40], q.get("label1", "B")[:40])
        return Response(
            tafel_svg(scores, marks, labels, _lang(request)), media_type="image/svg+xml"
        )

    return [
        Route("/tafel", page),
        Route("/api/tafel.svg", guarded(any_svg)),
        Route("/api/sheets", guarded(list_sheets)),
        Route("/api/sheets", guarded(create), methods=["POST"]),
        Route("/api/sheets/presets", guarded(presets)),
        Route("/api/sheets/import", guarded(import_sheet), methods=["POST"]),
        Route("/api/sheets/{id}", guarded(show)),
        Route("/api/sheets/{id}", guarded(rename), methods=["PATCH"]),
        Route("/api/sheets/{id}", guarded(remove), methods=["DELETE"]),
        Route("/api/sheets/{id}/export", guarded(export)),
        Route("/api/sheets/{id}/tafel.svg", guarded(sheet_svg)),
        Route("/api/sheets/{id}/hands", guarded(add_hand), methods=["POST"]),
        Route("/api/sheets/{id}/hands/{n}", guarded(replace_hand), methods=["PUT"]),
        Route("/api/sheets/{id}/hands/{n}", guarded(delete_hand), methods=["DELETE"]),
    ]


def app(db_path: Path | str) -> Starlette:
    """The calculator on its own: its routes and the static files (until ``chibre serve``
    is at hand, and for the tests)."""
    return Starlette(
        routes=[
            *routes(Path(db_path)),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m chibre.server.sheets --db FILE --port N``: serve the calculator alone."""
    import uvicorn

    p = argparse.ArgumentParser(prog="python -m chibre.server.sheets")
    p.add_argument("--db", default="chibre.sqlite3")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    args = p.parse_args(argv)
    uvicorn.run(app(args.db), host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
