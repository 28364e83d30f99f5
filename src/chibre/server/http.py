"""What every HTTP route of the server shares: the error reply, the pages, and the reading of
request bodies.

A body is read piece by piece and refused once it passes the route's limit (413), then parsed
by pydantic's JSON parser, which has a depth limit and refuses invalid UTF-8 and lone
surrogates: a body of 100,000 nested brackets is a clear 400, never a ``RecursionError``.
Every refusal is ``{"error": message}``, and a refusal of a field names it (``"field"``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any

import pydantic_core
from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.requests import ClientDisconnect

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
                self._json = pydantic_core.from_json(raw) if raw.strip() else {}
            except ValueError as e:
                # FastAPI answers a JSONDecodeError as an invalid body (400 below)
                raise json.JSONDecodeError(f"the request is not valid JSON: {e}", "", 0) from e
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


def _where(loc: tuple[int | str, ...]) -> str:
    """A field's path as a client wrote it: ``options.target``, ``seats[2]``."""
    out = ""
    for p in loc:
        if isinstance(p, int):
            out += f"[{p}]"
        elif p in ("body", "query", "path") and not out:
            continue
        elif p not in _TYPE_TAGS and "[" not in p and "-" not in p:  # not a union member's tag
            out += ("." if out else "") + p
    return out


_TYPE_TAGS = frozenset({"int", "str", "bool", "float", "dict", "list", "none", "tuple"})


def _shown(value: object) -> str:
    """A refused value, as short as a message needs."""
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's limit on digits
        return "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "..."


def _message(problem: Mapping[str, Any]) -> str:
    """What a refused field's problem is, in words a client can act on."""
    kind, ctx = problem.get("type", ""), problem.get("ctx") or {}
    given = problem.get("input")
    if kind == "literal_error":
        allowed = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        return f"{_shown(given)} is not allowed; choose {allowed}"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "missing":
        return "this field is required"
    if kind in ("too_short", "too_long"):
        which = "at least" if kind == "too_short" else "at most"
        limit = ctx.get("min_length" if kind == "too_short" else "max_length")
        return f"give {which} {limit} items, not {ctx.get('actual_length')}"
    if kind == "string_too_long":
        return f"at most {ctx.get('max_length')} characters"
    if kind in ("less_than_equal", "greater_than_equal", "less_than", "greater_than"):
        bound = next(iter(ctx.values()), "")
        words = {"less_than_equal": "at most", "greater_than_equal": "at least"}
        return f"{words.get(kind, kind.replace('_', ' '))} {bound}, not {_shown(given)}"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return "must be a JSON object"
    if kind in ("int_type", "int_from_float"):
        return f"must be a whole number, not {_shown(given)}"
    if kind == "bool_type":
        return f"must be true or false, not {_shown(given)}"
    if kind in ("string_type", "list_type"):
        return f"must be {'text' if kind == 'string_type' else 'a list'}, not {_shown(given)}"
    return str(problem.get("msg", "not valid")).removeprefix("Value error, ")


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """A body, query or path that the models refuse: 400 naming the first refused field."""
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = _first(errors) if errors else {"loc": (), "msg": "the request is not valid"}
    if first.get("type") == "json_invalid":
        ctx = first.get("ctx")
        detail = str(ctx.get("error") if isinstance(ctx, dict) else "the request is not valid JSON")
        return error(400, detail)
    where = _where(tuple(first.get("loc", ())))
    message = _message(first)
    if not where:
        return error(400, f"the request {message}" if message.startswith("must") else message)
    return error(400, f"{where}: {message}", where)


def _first(errors: Sequence[Any]) -> Mapping[str, Any]:
    """The error to report: of a field that is a union (a number or a name…), the member
    whose problem is not only its type."""
    typed = ("_type", "literal_error", "int_from_float")
    for problem in errors:
        if not str(problem.get("type", "")).endswith(typed):
            return problem  # type: ignore[no-any-return]
    return errors[0]  # type: ignore[no-any-return]


async def http_refusal(request: Request, exc: Exception) -> JSONResponse:
    """Every ``HTTPException`` (404 for an unknown route, 405, 413…) as ``{"error": …}``."""
    assert isinstance(exc, HTTPException)
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
