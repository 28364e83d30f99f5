"""The Starlette application of ``chibre serve``: the pages, the JSON routes, the cards as
SVG, and one WebSocket per seat (docs/table-protocol.md).

``create_app(db_path, settings)`` builds it; on start it opens the store and restores every
unfinished table, so that a game goes on where it was when the server stopped.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from chibre.bots import TABLE_PLAYERS
from chibre.cards import SUIT_MAPPINGS, card_code
from chibre.notation import format_record, record_to_json
from chibre.rules import PRESETS, Rules
from chibre.server import sheets
from chibre.server.lobby import InvalidTable
from chibre.server.protocol import CODES, error_frame
from chibre.server.security import SiteGuard, SitePolicy
from chibre.server.store import Store, StoreUnavailable
from chibre.server.tables import Settings, Table, Tables

log = logging.getLogger("chibre.server")

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024
CLOSE_BAD_TOKEN = 4403
CLOSE_FLOODED = 1008
"""The close code for a client that sends faster than it reads its replies."""
CARD_CACHE = "public, max-age=86400"


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _page(name: str) -> Response:
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(
        f"<!doctype html><title>chibre</title><p>The page {name} is not installed.</p>",
        status_code=404,
    )


async def lobby(request: Request) -> Response:
    return _page("index.html")


async def table_page(request: Request) -> Response:
    return _page("table.html")


async def presets(request: Request) -> Response:
    return JSONResponse(
        {
            "presets": {name: Rules.preset(name).to_dict() for name in PRESETS},
            "default": "romand",
            "options": Rules().to_dict(),
        }
    )


async def players(request: Request) -> Response:
    return JSONResponse({"players": list(TABLE_PLAYERS)})


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


async def create_table(request: Request) -> Response:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return error(400, f"the request is too large (at most {MAX_BODY} bytes)")
    try:
        data = json.loads(body)
    except ValueError:
        return error(400, "the request is not valid JSON")
    try:
        table = _tables(request).create(data)
    except InvalidTable as e:
        return error(400, str(e))
    except StoreUnavailable:
        log.exception("a new table could not be stored")
        return error(503, "the table could not be saved: try again in a moment")
    seats: list[dict[str, Any]] = []
    for s in table.seats:
        entry: dict[str, Any] = {"seat": s.number, "kind": s.info.kind}
        if s.human:
            entry["link"] = f"/t/{table.id}?seat={s.info.token}"
        seats.append(entry)
    return JSONResponse(
        {"table": table.id, "seats": seats, "watch": f"/t/{table.id}?watch={table.stored.watch}"}
    )


def _authorised(request: Request) -> tuple[Table, int | None] | Response:
    """The table and the seat (``None``: spectator) the query's token opens, or an error."""
    table = _tables(request).get(request.path_params["id"])
    if table is None:
        return error(404, "there is no such table")
    token = request.query_params.get("token")
    seat = table.seat_of(token)
    if seat is not None:
        return table, seat
    if table.watches(request.query_params.get("watch")):
        return table, None
    return error(403, "this link does not open this table: ask for a new invitation")


async def table_summary(request: Request) -> Response:
    found = _authorised(request)
    if isinstance(found, Response):
        return found
    table, seat = found
    summary = table.summary(seat)
    _tables(request).release(table)
    return JSONResponse(summary)


async def table_record(request: Request) -> Response:
    found = _authorised(request)
    if isinstance(found, Response):
        return found
    table, _ = found
    fmt = request.query_params.get("format", "text")
    if fmt not in ("text", "json"):
        return error(400, f"format {fmt!r}: choose text or json")
    if not table.game.is_over:
        return error(403, "the record shows every hand: it is available once the game is over")
    record = table.game.record
    _tables(request).release(table)
    name = f"chibre-{table.id}"
    if fmt == "json":
        return Response(
            record_to_json(record),
            media_type="application/json",
            headers={"Content-Disposition": f'inline; filename="{name}.json"'},
        )
    return PlainTextResponse(
        format_record(record),
        headers={"Content-Disposition": f'inline; filename="{name}.txt"'},
    )


@lru_cache(maxsize=256)
def _card_svg(deck: str, code: str, mapping: str) -> tuple[str, str] | None:
    """The SVG of a card and its ETag, by deck, code and suit mapping."""
    try:
        from chibre import cardsvg
    except ImportError:
        return None
    svg: str = cardsvg.card_svg_for_code(code, deck, mapping=mapping)
    tag = hashlib.sha256(f"{deck}/{code}/{mapping}\n{svg}".encode()).hexdigest()[:32]
    return svg, f'"{tag}"'


async def card(request: Request) -> Response:
    """``/cards/{deck}/{code}.svg[?mapping=…]``: a Swiss card's suit follows the table's suit
    mapping (``chibre.cards.SUIT_MAPPINGS``, default ``swisslos``)."""
    deck = request.path_params["deck"]
    name: str = request.path_params["name"]
    code = name.removesuffix(".svg")
    mapping = request.query_params.get("mapping", "swisslos")
    if deck not in ("french", "swiss") or not name.endswith(".svg"):
        return error(404, "cards are /cards/french/CODE.svg or /cards/swiss/CODE.svg")
    if code != "back" and code not in CODES:
        return error(404, f"{code!r} is not a card code (such as {card_code(13)!r}) or 'back'")
    if mapping not in SUIT_MAPPINGS:
        return error(404, f"no suit mapping {mapping!r}: choose {', '.join(SUIT_MAPPINGS)}")
    drawn = _card_svg(deck, code, mapping)
    if drawn is None:
        return error(404, "the card drawings are not installed")
    svg, etag = drawn
    headers = {"ETag": etag, "Cache-Control": CARD_CACHE}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(svg, media_type="image/svg+xml", headers=headers)


async def table_socket(ws: WebSocket) -> None:
    """One client of a table: a seat (``?token=``) or a spectator (``?watch=``)."""
    await ws.accept()
    table = _tables(ws).get(ws.path_params["id"])
    seat: int | None = None
    allowed = False
    if table is not None:
        seat = table.seat_of(ws.query_params.get("token"))
        allowed = seat is not None or table.watches(ws.query_params.get("watch"))
    if table is None or not allowed:
        what = "there is no such table" if table is None else "this link does not open this table"
        await ws.send_text(error_frame("bad_token", what + ": ask for a new invitation"))
        await ws.close(CLOSE_BAD_TOKEN)
        return
    conn = table.join(seat, ws.send_text)
    pump = asyncio.create_task(conn.pump())
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            table.receive(conn, message.get("text"), message.get("bytes"))
            if conn.closed:  # gone, or it sent far faster than it read its replies
                with suppress(Exception):
                    await ws.close(CLOSE_FLOODED)
                break
    except WebSocketDisconnect:
        pass
    finally:
        table.leave(conn)
        pump.cancel()
        _tables(ws).release(table)


def create_app(
    db_path: Path | str, settings: Settings | None = None, site: SitePolicy | None = None
) -> Starlette:
    """The application, storing everything in the SQLite file ``db_path``; ``site``: the
    hosts and origins it answers to (by default the local names only; chibre.server.security)."""
    db_path = Path(db_path)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db_path)
        tables = Tables(store, settings)
        app.state.store = store
        app.state.tables = tables
        tables.restore()
        try:
            yield
        finally:
            tables.close()
            store.close()

    routes: list[BaseRoute] = [
        Route("/", lobby),
        Route("/t/{id}", table_page),
        Route("/api/presets", presets),
        Route("/api/players", players),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{id}", table_summary),
        Route("/api/tables/{id}/record", table_record),
        Route("/cards/{deck}/{name}", card),
        WebSocketRoute("/ws/{id}", table_socket),
        *sheets.routes(db_path),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    guard = Middleware(SiteGuard, policy=site or SitePolicy.for_server())
    return Starlette(routes=routes, lifespan=lifespan, middleware=[guard])
