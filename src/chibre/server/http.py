"""What every HTTP route of the server shares: the error reply, the pages, and the reading of
request bodies.

A body is read piece by piece and refused once it passes the route's limit (413), then parsed
by pydantic's JSON parser, which has a depth limit and refuses invalid UTF-8 and lone
surrogates: a body of 100,000 nested brackets is a clear 400, never a ``RecursionError``.
Every refusal is ``{"error": message}``, and a refusal of a field names it (``"field"``); the
models' refusals are said in the language the request asks for (``asked_language``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pydantic_core
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from chibre import i18n
from chibre.server.models import describe

log = logging.getLogger("chibre.server")

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024
"""The largest request body of a route that does not set its own, in bytes."""


def error(status: int, message: str, field: str | None = None) -> JSONResponse:
    """A refusal: ``{"error": message}``, with the refused field when there is one."""
    body: dict[str, Any] = {"error": message}
    if field is not None:
        body["field"] = field
    return JSONResponse(body, status_code=status)


def page(name: str) -> Response:
    """One of the server's HTML pages."""
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(
        f"<!doctype html><title>chibre</title><p>The page {name} is not installed.</p>",
        status_code=404,
    )


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request is too large (at most {limit} bytes)")


class BoundedRequest(Request):
    """A request whose body is read up to a limit and parsed with a depth limit."""

    max_body = MAX_BODY

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            declared = self.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self.max_body:
                raise BodyTooLarge(self.max_body)
            raw = bytearray()
            async for chunk in self.stream():
                raw += chunk
                if len(raw) > self.max_body:
                    raise BodyTooLarge(self.max_body)
            self._body = bytes(raw)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            raw = await self.body()
            try:
                self._json = pydantic_core.from_json(raw) if raw.strip() else None  # none
            except ValueError as e:
                # FastAPI answers a JSONDecodeError as an invalid body (400 below)
                raise json.JSONDecodeError(str(e), "", 0) from e
        return self._json


def bounded_route(max_body: int) -> type[APIRoute]:
    """A route class whose requests may carry at most ``max_body`` bytes."""

    class Bounded(BoundedRequest):
        pass

    Bounded.max_body = max_body

    class Route(APIRoute):
        def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
            handler = super().get_route_handler()

            async def bounded(request: Request) -> Response:
                try:
                    return await handler(Bounded(request.scope, request.receive))
                except ClientDisconnect:  # the client went away mid-body: nobody to answer
                    return Response(status_code=400)

            return bounded

    return Route


def asked_language(request: Request) -> str | None:
    """The language a request asks its refusals in: its ``lang`` query (the sheets' routes)
    or its ``Accept-Language`` (the pages send it); ``None`` where it names neither."""
    asked = request.query_params.get("lang") or request.headers.get("accept-language")
    return i18n.best_language(asked) if asked else None


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """A body, query or path that the models refuse: 400 naming the first refused field, said
    in the language the request asks for (English where it names none)."""
    assert isinstance(exc, RequestValidationError)
    where, message = describe(exc.errors(), asked_language(request))
    return error(400, message, where)


REFUSAL_SCHEMA = {
    "title": "Refusal",
    "type": "object",
    "properties": {
        "error": {
            "type": "string",
            "description": "why, in a sentence a player can read: of a refused field, in the "
            "language the request asks for (its lang query, else Accept-Language; English "
            "where it names none)",
        },
        "field": {
            "type": "string",
            "description": "the refused field, when one is: its JSON path (options.target, "
            "seats[2]), in every language",
        },
    },
    "required": ["error"],
}


def refusals_said_as_served(app: FastAPI) -> None:
    """The app's OpenAPI document says a refused body, query or path as the server answers
    it — 400 ``{"error", "field"}`` — rather than FastAPI's own 422 (``invalid_request``)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            for operations in schema.get("paths", {}).values():
                for operation in operations.values():
                    responses = operation.get("responses", {})
                    if responses.pop("422", None) is not None:
                        responses["400"] = {
                            "description": "Refused: the input, its field named",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Refusal"}
                                }
                            },
                        }
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                schemas.pop(unused, None)
            schemas["Refusal"] = REFUSAL_SCHEMA
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


async def http_refusal(request: Request, exc: Exception) -> JSONResponse:
    """Every ``HTTPException`` (404 for an unknown route, 405, 413…) as ``{"error": …}``."""
    assert isinstance(exc, StarletteHTTPException)
    message = exc.detail if isinstance(exc.detail, str) else "the request is refused"
    if exc.status_code == 404 and message == "Not Found":
        message = f"there is no page or route {request.url.path}"
    elif exc.status_code == 405 and message == "Method Not Allowed":
        message = f"{request.method} is not a method of {request.url.path}"
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def server_error(request: Request, exc: Exception) -> JSONResponse:
    """Anything unforeseen: logged with its traceback, and a 500 that says so plainly."""
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error(500, "the server failed on this request; it has been logged")
