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
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from chibre import i18n
from chibre.bots import TABLE_PLAYERS
from chibre.bots.levels import DESCRIPTIONS
from chibre.bots.player import choices
from chibre.cards import SUIT_MAPPINGS, card_code, parse_cards
from chibre.coach.advice import InvalidAdvice, observation_for, played_cards
from chibre.coach.report import action_text, reason_text
from chibre.coach.review import action_code
from chibre.errors import NotationError
from chibre.notation import format_record, record_to_dict
from chibre.rules import PRESETS, Rules
from chibre.server import gamesheet, history, qr, sheets, tournaments
from chibre.server.coaching import Coaching
from chibre.server.http import (
    MAX_BODY,
    STATIC,
    bounded_route,
    error,
    http_refusal,
    invalid_request,
    page,
    refusals_said_as_served,
    server_error,
)
from chibre.server.jass_challenge import Lobby, jass_challenge_socket
from chibre.server.lobby import InvalidTable
from chibre.server.models import AdviceRequest, HistoryRequest, TableRequest
from chibre.server.protocol import CODES, error_frame
from chibre.server.quota import Quota, per_minute
from chibre.server.recovery import prepare_once
from chibre.server.security import SiteGuard, SitePolicy
from chibre.server.store import Store, StoreUnavailable
from chibre.server.tables import Settings, Table, Tables, TooManyTables
from chibre.server.upkeep import Checkpointer, Collector
from chibre.server.views import game_scores, seat_name

log = logging.getLogger("chibre.server")

CLOSE_BAD_TOKEN = 4403
CLOSE_FLOODED = 1008
"""The close code for a client that sends faster than it reads its replies."""
CARD_CACHE = "public, max-age=86400"
REVIEWS_PER_MINUTE = 6
HINTS_PER_MINUTE = 30
HISTORIES_PER_MINUTE = 30  # the lobby asks once as it opens
DAMAGED = i18n.text("en", "error.damaged")
Token = Annotated[str | None, Query(max_length=64)]

api = APIRouter(route_class=bounded_route(MAX_BODY))


@api.get("/", include_in_schema=False)
async def lobby() -> Response:
    return page("index.html")


@api.get("/t/{id}", include_in_schema=False)
async def table_page(id: str) -> Response:
    return page("table.html")


@api.get("/api/presets", summary="The presets and every option with its default")
async def presets() -> Response:
    return JSONResponse(
        {
            "presets": {name: Rules.preset(name).to_dict() for name in PRESETS},
            "default": "romand",
            "options": Rules().to_dict(),
        }
    )


@api.get("/api/messages", summary="Every string the pages show, in French, German and English")
async def messages(request: Request) -> Response:
    body = i18n.page_catalogue()
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@api.get("/api/players", summary="The computer players a seat can be given")
async def players() -> Response:
    levels = {name: DESCRIPTIONS[name] for name in TABLE_PLAYERS}
    return JSONResponse({"players": list(TABLE_PLAYERS), "levels": levels})


def _lang(request: Request) -> str:
    """The language of a refusal: the page's (``Accept-Language``, which the pages set)."""
    return i18n.best_language(request.headers.get("accept-language"))


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


table_quota = per_minute("table_quota", "new tables")  # --tables-per-minute
review_quota = per_minute("review_quota", "reviews")
hint_quota = per_minute("hint_quota", "hints")
history_quota = per_minute("history_quota", "lists of games")


@api.post(
    "/api/tables",
    summary="Open a table: a preset, options, and who sits where",
    dependencies=[Depends(table_quota)],
)
async def create_table(request: Request, body: TableRequest) -> Response:
    try:
        table = _tables(request).create(body)
    except InvalidTable as e:
        return error(400, str(e))
    except TooManyTables as e:
        return error(503, str(e))
    except StoreUnavailable:
        log.exception("a new table could not be stored")
        return error(503, i18n.text(_lang(request), "error.table_unsaved"))
    seats: list[dict[str, Any]] = []
    for s in table.seats:
        entry: dict[str, Any] = {"seat": s.number, "kind": s.info.kind}
        if s.human:
            entry["link"] = f"/t/{table.id}?seat={s.info.token}"
        seats.append(entry)
    created: dict[str, Any] = {
        "table": table.id,
        "seats": seats,
        "watch": f"/t/{table.id}?watch={table.stored.watch}",
    }
    if table.stored.deals is not None:
        created["deals"] = table.stored.deals.to_dict(reveal=False)
    return JSONResponse(created)


def _authorised(
    request: Request, table_id: str, token: str | None, watch: str | None
) -> tuple[Table, int | None] | Response:
    """The table and the seat (``None``: spectator) the query's token opens, or an error."""
    lang = _lang(request)
    if _tables(request).opens(table_id, token, watch) is False:  # refused before it is loaded
        return error(403, i18n.text(lang, "error.bad_link"))
    table = _tables(request).get(table_id)
    if table is None and _tables(request).is_damaged(table_id):
        return error(410, i18n.text(lang, "error.damaged"))
    if table is None:
        return error(404, i18n.text(lang, "error.no_table"))
    seat = table.seat_of(token)
    if seat is not None:
        return table, seat
    if table.watches(watch):
        return table, None
    return error(403, i18n.text(lang, "error.bad_link"))


@api.get("/api/tables/{id}", summary="A table as a seat (token) or a spectator (watch) sees it")
async def table_summary(
    request: Request, id: str, token: Token = None, watch: Token = None
) -> Response:
    found = _authorised(request, id, token, watch)
    if isinstance(found, Response):
        return found
    table, seat = found
    summary = table.summary(seat)
    _tables(request).release(table)
    return JSONResponse(summary)


@api.get("/api/tables/{id}/record", summary="The record of a finished game")
async def table_record(
    request: Request,
    id: str,
    token: Token = None,
    watch: Token = None,
    format: Literal["text", "json"] = "text",
) -> Response:
    found = _authorised(request, id, token, watch)
    if isinstance(found, Response):
        return found
    table, seat = found
    fmt = format
    if not table.game.is_over:
        return error(403, i18n.text(_lang(request), "error.record_later"))
    record = table.game.record
    scores = game_scores(table.game) if fmt == "json" else []
    incidents = table.incidents()  # a foreign bot's failed decisions (docs/protocols.md)
    # committed deals: the commitment, and the seed once revealed (``chibre verify`` checks them)
    deals = table.summary(seat).get("deals") if table.stored.deals is not None else None
    _tables(request).release(table)
    name = f"chibre-{table.id}"
    if fmt == "json":
        document = record_to_dict(record)
        document["scores"] = scores  # as the table wrote them: for the replay, not read back
        if deals is not None:
            document["deals"] = deals
        if incidents:
            document["incidents"] = incidents
        return Response(
            json.dumps(document, ensure_ascii=False),
            media_type="application/json",
            headers={"Content-Disposition": f'inline; filename="{name}.json"'},
        )
    notes = "".join(
        f"# incident: seat {i['seat']} {i['kind']} at entry {i['at']} after "
        f"{i['seconds']:.2f} s: {i['detail']}\n"
        for i in incidents
    )
    return PlainTextResponse(
        format_record(record) + notes,
        headers={"Content-Disposition": f'inline; filename="{name}.txt"'},
    )


def _reviewed(request: Request, id: str, token: str | None, watch: str | None) -> Any:
    """The finished game's record and the seats to review (the seat's own; a spectator's:
    all four), or the refusal."""
    found = _authorised(request, id, token, watch)
    if isinstance(found, Response):
        return found
    table, seat = found
    over = table.game.is_over
    record = table.game.record
    _tables(request).release(table)
    if not over:
        return error(403, i18n.text(_lang(request), "error.record_later"))
    return record, (seat,) if seat is not None else (0, 1, 2, 3)


@api.post(
    "/api/tables/{id}/review",
    summary="Start the coach's review of a finished game (the seat's decisions)",
    dependencies=[Depends(review_quota)],
)
async def start_review(
    request: Request,
    id: str,
    token: Token = None,
    watch: Token = None,
    lang: Annotated[str, Query(max_length=35)] = "",
    deck: Literal["french", "swiss"] | None = None,
) -> Response:
    found = _reviewed(request, id, token, watch)
    if isinstance(found, Response):
        return found
    record, seats = found
    job = request.app.state.coaching.start(id, record, seats)
    said = i18n.best_language(lang or request.headers.get("accept-language"))
    return JSONResponse(job.view(said, deck), status_code=202)


@api.get("/api/tables/{id}/review", summary="The progress of a review, then the review")
async def get_review(
    request: Request,
    id: str,
    token: Token = None,
    watch: Token = None,
    lang: Annotated[str, Query(max_length=35)] = "",
    deck: Literal["french", "swiss"] | None = None,
) -> Response:
    found = _reviewed(request, id, token, watch)
    if isinstance(found, Response):
        return found
    record, seats = found
    job = request.app.state.coaching.find(id, record, seats)
    said = i18n.best_language(lang or request.headers.get("accept-language"))
    if job is None:  # not asked for yet: no error, the page offers to start it
        return JSONResponse({"status": "none"})
    return JSONResponse(job.view(said, deck))


@api.get(
    "/api/tables/{id}/hint",
    summary="The coach's best card (or contract) for the seat to act, at a table with hints on",
    dependencies=[Depends(hint_quota)],
)
async def table_hint(request: Request, id: str, token: Token = None) -> Response:
    found = _authorised(request, id, token, None)
    if isinstance(found, Response):
        return found
    table, seat = found
    lang = _lang(request)
    hints = table.stored.hints
    observation = table.game.observation(seat) if seat is not None else None
    _tables(request).release(table)
    if seat is None or observation is None:
        return error(403, i18n.text(lang, "coach.hint_seat"))
    if not hints:
        return error(403, i18n.text(lang, "coach.hints_off"))
    if observation.to_act != seat or not choices(observation):
        return error(409, i18n.text(lang, "coach.not_your_turn"))
    advice = await request.app.state.coaching.hint(observation)
    deck = observation.rules.deck
    reason = reason_text(advice.reason, lang, deck)
    return JSONResponse(
        {
            "kind": advice.kind,
            "best": action_code(advice.best),
            "reason": reason,
            "text": i18n.text(
                lang, "coach.hint_text", card=action_text(advice.best, lang, deck), reason=reason
            ),
        }
    )


@api.get("/advise", include_in_schema=False)
async def advice_page() -> Response:
    return page("advise.html")


def _unread(e: NotationError, lang: str) -> str:
    """A card the advice cannot read (or one given twice), said in ``lang``."""
    start = max(e.text.rfind(" ", 0, e.position), e.text.rfind(",", 0, e.position)) + 1
    word = re.split(r"[\s,]+", e.text[start:])[0] or e.text
    key = "coach.bad.given_twice" if "given twice" in str(e) else "coach.bad.unread"
    return i18n.text(lang, key, word=word)


@api.post(
    "/api/advice",
    summary="The coach's advice for a hand held at a real table: the contract or the card",
    dependencies=[Depends(hint_quota)],
)
async def table_advice(request: Request, body: AdviceRequest) -> Response:
    lang = _lang(request)
    try:
        hand = parse_cards(body.hand)
    except NotationError as e:
        return error(400, _unread(e, lang), "hand")
    try:
        played = played_cards(body.played)
    except NotationError as e:
        return error(400, _unread(e, lang), "played")
    try:
        observation = await asyncio.to_thread(
            observation_for, hand, body.dealer, body.trump, played, chibred=body.chibred
        )
    except InvalidAdvice as e:
        return error(400, e.said(lang), e.field)
    advice = await request.app.state.coaching.hint(observation)
    reason = reason_text(advice.reason, lang)
    return JSONResponse(
        {
            "kind": advice.kind,
            "best": action_code(advice.best),
            "reason": reason,
            "text": i18n.text(lang, "coach.advice_for", choice=action_text(advice.best, lang)),
            "options": [[action_text(a, lang), round(v, 1)] for a, v in advice.options],
        }
    )


@api.get("/api/tables/{id}/sheet", summary="The game sheet of a finished game, to read or print")
async def table_sheet(
    request: Request,
    id: str,
    token: Token = None,
    watch: Token = None,
    lang: Annotated[str, Query(max_length=35)] = "",
    deck: Literal["french", "swiss"] | None = None,
) -> Response:
    found = _authorised(request, id, token, watch)
    if isinstance(found, Response):
        return found
    table, viewer = found
    said = i18n.best_language(lang or request.headers.get("accept-language"))
    if not table.game.is_over:
        return error(403, i18n.text(said, "error.record_later"))
    rules = table.game.rules
    infos = [s.info for s in table.seats]
    names = [seat_name(infos, s.number, viewer, said) for s in table.seats]
    page = gamesheet.game_sheet(
        table.game, names, said, deck or rules.deck, rules.suit_mapping, table.stored.created
    )
    _tables(request).release(table)
    return HTMLResponse(page)


@api.post(
    "/api/history",
    summary="A browser's games and figures, from the seat tokens it holds",
    dependencies=[Depends(history_quota)],
)
async def seat_history(request: Request, body: HistoryRequest) -> Response:
    """Each seat whose token opens its table, the newest game first: the game's result; over
    the finished ones, the player's figures. A seat that does not open its table (or a table
    no longer there) is left out, never answered."""
    tables = _tables(request)
    games: list[history.SeatGame] = []
    entries = []
    for held in {(h.table, h.token): h for h in body.seats}.values():  # each seat once
        table = tables.get(held.table) if tables.opens(held.table, held.token, None) else None
        seat = table.seat_of(held.token) if table is not None else None
        if table is None or seat is None:
            continue
        game = history.SeatGame(table.stored, table.game, seat)
        games.append(game)
        link = f"/t/{table.id}?seat={held.token}"
        entries.append(history.game_entry(game, link, table.replay_share()))
        tables.release(table)
    entries.sort(key=lambda e: e["created"], reverse=True)  # the newest first
    return JSONResponse({"games": entries, "figures": history.figures(games)})


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


@api.get("/cards/{deck}/{name}", summary="A card as SVG, in either deck")
async def card(
    request: Request,
    deck: str,
    name: str,
    mapping: Annotated[str, Query(max_length=40)] = "swisslos",
) -> Response:
    """``/cards/{deck}/{code}.svg[?mapping=…]``: a Swiss card's suit follows the table's suit
    mapping (``chibre.cards.SUIT_MAPPINGS``, default ``swisslos``)."""
    code = name.removesuffix(".svg")
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
    token, watch = ws.query_params.get("token"), ws.query_params.get("watch")
    opens = _tables(ws).opens(ws.path_params["id"], token, watch)  # None: no such table
    table = None if opens is False else _tables(ws).get(ws.path_params["id"])
    seat: int | None = None
    allowed = False
    if table is not None:
        seat = table.seat_of(token)
        allowed = seat is not None or table.watches(watch)
    if table is None and _tables(ws).is_damaged(ws.path_params["id"]):
        await ws.send_text(error_frame("damaged", DAMAGED))
        await ws.close(CLOSE_BAD_TOKEN)
        return
    if table is None or not allowed:
        what = "there is no such table" if opens is None else "this link does not open this table"
        await ws.send_text(error_frame("bad_token", what + ": ask for a new invitation"))
        await ws.close(CLOSE_BAD_TOKEN)
        return
    lang = i18n.best_language(ws.query_params.get("lang"))
    conn = table.join(seat, ws.send_text, lang, ws.client.host if ws.client else "?")
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
) -> FastAPI:
    """The application, storing everything in the SQLite file ``db_path``; ``site``: the
    hosts and origins it answers to (by default the local names only; chibre.server.security)."""
    db_path = Path(db_path)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for note in prepare_once(db_path):  # a damaged file saved, a read-only one said
            log.warning("%s", note)
        store = Store(db_path)
        tables = Tables(store, settings)
        app.state.store = store
        app.state.tables = tables
        app.state.table_quota = tables.quota  # a rematch counts as a new table
        app.state.review_quota = Quota(REVIEWS_PER_MINUTE)
        app.state.hint_quota = Quota(HINTS_PER_MINUTE)
        app.state.history_quota = Quota(HISTORIES_PER_MINUTE)
        app.state.tournament_quota = Quota(tables.settings.tables_per_minute)
        app.state.sheet_quota = Quota(tables.settings.tables_per_minute)
        app.state.coaching = Coaching(store)
        app.state.jass_challenge = Lobby(
            tables,
            tables.settings.jass_challenge_limit,
            tables.settings.jass_challenge_tournament_limit,
        )
        tables.restore()
        tables.thinkers.prepare()
        app.state.tournaments = tournaments.Tournaments(db_path, tables)
        app.state.tournaments.start()
        checkpointer = Checkpointer(store.db, db_path)
        collector = Collector()
        try:
            yield
        finally:
            collector.close()
            app.state.tournaments.close()
            app.state.coaching.close()
            tables.close()
            checkpointer.close()
            store.close()

    app = FastAPI(
        title="chibre",
        version="1",
        description="The chibre (Schieber Jass) table server: tables, seats and score sheets. "
        'Every refusal is {"error": message} with a 4xx status.',
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        middleware=[Middleware(SiteGuard, policy=site or SitePolicy.for_server())],
    )
    app.add_exception_handler(RequestValidationError, invalid_request)
    refusals_said_as_served(app)
    app.add_exception_handler(StarletteHTTPException, http_refusal)
    app.add_exception_handler(Exception, server_error)
    app.include_router(api)
    app.include_router(sheets.router(db_path))
    app.include_router(qr.router())
    app.include_router(tournaments.router())
    app.add_api_websocket_route("/ws/{id}", table_socket)
    app.add_api_websocket_route("/jass-challenge", jass_challenge_socket)
    app.add_api_websocket_route("/", jass_challenge_socket)  # where their bots connect
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
