"""`chibre player-service`: our players served on the HSLU jass-kit's HTTP routes, so that the
course's tournament servers and its ``AgentByNetwork`` can seat them.

    chibre player-service --player strong --player rule [--port 5000]

serves each player under its name (``--player NAME=SPEC`` names it otherwise; a spec is any
name or spec ``chibre.bots.make_player`` knows):

| route | answer |
|---|---|
| ``POST /<name>/action_trump`` | ``{"trump": 0..5}``, or ``{"trump": 10}`` for a push |
| ``POST /<name>/action_play_card`` | ``{"card": "H7"}`` |
| ``POST /<name>/game_info`` | ``""`` (nothing is kept) |
| ``GET /<name>`` | ``"Player <name> here"`` |

The body is a V0.2 observation (``chibre.jasskit.observation_from_json`` builds our honest
``Observation`` from it: the viewer's cards and the public plays, nothing else); a ``gameId``
and the kit's other keys are let through. As the kit's own service does: an unknown player is
400, a body that is not JSON 415, a player that fails 500; an observation that cannot be read
is 400 ``{"error", "field"}``. Bodies are bounded and every request passes ``SiteGuard``, as on
``chibre serve``. Each player decides in a worker thread, one decision at a time.
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys
import threading
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware import Middleware
from starlette.responses import JSONResponse, Response

from chibre.actions import Chibre, Choose, Play
from chibre.bots.player import Player
from chibre.cards import card_code
from chibre.errors import ChibreError, NotationError
from chibre.jasskit import observation_from_json
from chibre.player_time import TIME_PER_MOVE_HELP, add_time_arguments, check_seconds
from chibre.server.cli import port_number
from chibre.server.http import (
    MAX_BODY,
    bounded_route,
    error,
    http_refusal,
    invalid_request,
    refusals_said_as_served,
)
from chibre.server.http import server_error as unforeseen
from chibre.server.security import InvalidSiteName, SiteGuard, SitePolicy

log = logging.getLogger("chibre.player_service")

PUSH = 10
Name = Annotated[str, Path(max_length=64)]
Seat = Annotated[int, Field(ge=-1, le=3)]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class TrickModel(_Open):
    cards: Annotated[list[Annotated[str, Field(max_length=3)]], Field(max_length=4)] = []
    first: Seat | None = None
    points: int | None = None
    win: Seat | None = None


class PlayerModel(_Open):
    hand: Annotated[list[Annotated[str, Field(max_length=3)]], Field(max_length=9)] = []


class ObservationModel(_Open):
    """A jass-kit V0.2 observation, as the kit's ``GameObservation.to_json`` writes it."""

    version: Annotated[str, Field(max_length=8)]
    trump: Annotated[int, Field(ge=-1, le=5)]
    dealer: Annotated[int, Field(ge=0, le=3)]
    currentPlayer: Seat
    playerView: Annotated[int, Field(ge=0, le=3)]
    forehand: Annotated[int, Field(ge=-1, le=1)]
    tricks: Annotated[list[TrickModel], Field(max_length=9)]
    player: Annotated[list[PlayerModel], Field(min_length=4, max_length=4)]


class Service:
    """The players served, each behind its own lock (a player decides one thing at a time)."""

    def __init__(self, players: dict[str, Player]) -> None:
        self.players = players
        self.locks = {name: threading.Lock() for name in players}

    def decide(self, name: str, body: ObservationModel, phase: str) -> Response:
        player = self.players.get(name)
        if player is None:
            return error(400, f"player not found: {name!r} (this service has {self.names()})")
        try:
            observation = observation_from_json(body.model_dump())
        except NotationError as e:
            return error(400, str(e))
        if observation.to_act != observation.seat or observation.phase != phase:
            what = "a contract" if phase == "contract" else "a card"
            return error(400, f"this observation does not ask its player for {what}")
        with self.locks[name]:
            try:
                action = player.act(observation)
            except Exception as e:  # the kit's service answers an agent's failure 500
                log.exception("player %s failed", name)
                return error(500, f"the player failed: {e}")
        if isinstance(action, Chibre):
            return JSONResponse({"trump": PUSH})
        if isinstance(action, Choose):
            return JSONResponse({"trump": int(action.contract)})
        if isinstance(action, Play):
            return JSONResponse({"card": card_code(action.card)})
        return error(500, f"the player answered {action!r}, which the kit cannot carry")

    def names(self) -> str:
        return ", ".join(self.players)


def create_app(players: dict[str, Player], site: SitePolicy | None = None) -> FastAPI:
    """The service of ``players`` (name → player)."""
    service = Service(players)
    routes = APIRouter(route_class=bounded_route(MAX_BODY))

    @routes.post("/{name}/action_trump", summary="The contract: 0..5, or 10 to push")
    def action_trump(name: Name, body: ObservationModel) -> Response:
        return service.decide(name, body, "contract")

    @routes.post("/{name}/action_play_card", summary="The card to play")
    def action_play_card(name: Name, body: ObservationModel) -> Response:
        return service.decide(name, body, "play")

    @routes.post("/{name}/game_info", summary="News of the game (nothing is kept)")
    async def game_info(name: Name, request: Request) -> Response:
        if name not in players:
            return error(400, f"player not found: {name!r} (this service has {service.names()})")
        try:
            await request.json()
        except ValueError:
            return error(400, "the body is not JSON")
        return JSONResponse("")

    @routes.get("/{name}", summary="Whether the service has this player")
    async def check_player(name: Name) -> Response:
        if name in players:
            return JSONResponse(f"Player {name} here")
        return JSONResponse(f"No such player {name}", status_code=404)

    app = FastAPI(
        title="chibre player service",
        version="1",
        description="Our players on the HSLU jass-kit's player-service routes (V0.2 JSON).",
        openapi_url="/openapi.json",
        docs_url=None,
        redoc_url=None,
        middleware=[Middleware(SiteGuard, policy=site or SitePolicy.for_server())],
    )
    app.add_exception_handler(RequestValidationError, invalid_request)
    refusals_said_as_served(app)
    app.add_exception_handler(StarletteHTTPException, http_refusal)
    app.add_exception_handler(Exception, unforeseen)
    app.include_router(routes)
    return app


# --- the command -----------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    """Add `player-service` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "player-service",
        help="serve our players on the HSLU jass-kit's HTTP routes",
        description="Serve players on the jass-kit player-service routes "
        "(/NAME/action_trump, /NAME/action_play_card, /NAME/game_info) for the course's "
        "tournament servers and AgentByNetwork.",
    )
    p.add_argument(
        "--player", action="append", required=True, metavar="[NAME=]SPEC",
        help="a player to serve (repeat for more): strong, rule, module:Class …; "
        "NAME= serves it under another name",
    )  # fmt: skip
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=port_number, default=5000, help="port (5000; 0: any free)")
    p.add_argument("--seed", type=int, default=0, help="the players' seed (0)")
    add_time_arguments(p, f"{TIME_PER_MOVE_HELP} (the kit allows 10)")
    p.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME",
        help="a host name the service is reached by besides the local ones; '*': any",
    )  # fmt: skip
    p.set_defaults(func=run)


def players_from(
    specs: list[str],
    seed: int,
    time_per_move: float | None,
    foreign_limit: float | None = None,
) -> dict[str, Player]:
    """``[NAME=]SPEC`` → the players, by name (ours given the thinking budget
    ``time_per_move``, a foreign one the time limit ``foreign_limit``); ``ChibreError`` for a
    bad one."""
    from chibre.arena import build_player

    players: dict[str, Player] = {}
    for given in specs:
        head, eq, tail = given.partition("=")
        name, spec = (head, tail) if eq and ":" not in head else ("", given)
        name = name or spec.rsplit(":", 1)[-1].rsplit("/", 1)[-1].lower()
        if not name.replace("-", "").replace("_", "").isalnum() or name in players:
            raise ChibreError(f"--player {given!r}: give each player a distinct plain name")
        players[name] = build_player(spec, seed, time_per_move, foreign_limit)
    return players


def run(args: argparse.Namespace) -> int:
    import uvicorn

    check_seconds(args.time_per_move, args.foreign_limit)
    players = players_from(args.player, args.seed, args.time_per_move, args.foreign_limit)
    try:
        site = SitePolicy.for_server(args.host, args.allowed_host)
    except InvalidSiteName as e:
        raise ChibreError(f"--allowed-host: {e}") from None
    try:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.create_server((args.host, args.port), family=family)
    except OSError as e:
        said = f"chibre player-service: cannot listen on {args.host}:{args.port}: {e}"
        print(said, file=sys.stderr)
        return 1
    port = sock.getsockname()[1]
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    for name in players:
        print(f"chibre: player {name} at http://{host}:{port}/{name}", flush=True)
    sys.stdout.flush()
    config = uvicorn.Config(create_app(players, site), log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
