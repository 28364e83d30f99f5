"""QR codes of this server's links, drawn here with ``segno`` (no outside service): a second
phone at the table scans the calculator's sheet link (or a tournament's table link) to
follow or take over.

``GET /qr.svg?text=LINK`` answers the QR code of ``LINK`` as SVG (``image/svg+xml``, error
correction M, a quiet zone of four modules, sized by its ``viewBox``). Only links to this
server are drawn: a path (``/tafel#ID.KEY``), which is drawn as the full address on the
origin the request came to, or a full ``http(s)`` address on that same origin. Any other text
is refused (400, ``{"error", "field": "text"}``), so the route cannot be used to dress up
another site's link in this server's name. The text is at most ``MAX_TEXT`` characters.
"""

from __future__ import annotations

import io
from typing import Annotated
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from chibre.server.http import MAX_BODY, bounded_route, error

MAX_TEXT = 512
"""The longest text a code is drawn for (a sheet's link is about 60 characters)."""


class NotOurLink(ValueError):
    """Text that is not a link to this server."""


def our_link(text: str, origin: str) -> str:
    """The full address of ``text`` on ``origin`` ("http://host:port"): ``text`` a path of
    this server or an address on the same origin; ``NotOurLink`` otherwise."""
    if any(c.isspace() or ord(c) < 32 for c in text):
        raise NotOurLink("a link has no spaces or control characters")
    if text.startswith("/") and not text.startswith("//"):
        return origin + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or f"{parts.scheme}://{parts.netloc}" != origin:
        raise NotOurLink(f"only links to this server ({origin}/…) are drawn as QR codes")
    return text


def qr_svg(text: str, title: str = "") -> str:
    """The QR code of ``text`` as a standalone SVG document."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, scale=1, border=4, omitsize=True,
              title=title or None, nl=False, dark="#000", light="#fff")  # fmt: skip
    return out.getvalue().decode()


def router() -> APIRouter:
    """The route ``GET /qr.svg``."""
    api = APIRouter(route_class=bounded_route(MAX_BODY))

    @api.get("/qr.svg", summary="The QR code of a link to this server, as SVG")
    async def qr(
        request: Request, text: Annotated[str, Query(min_length=1, max_length=MAX_TEXT)]
    ) -> Response:
        origin = f"{request.url.scheme}://{request.url.netloc}"
        try:
            link = our_link(text, origin)
        except NotOurLink as e:
            return error(400, str(e), "text")
        return Response(qr_svg(link, link), media_type="image/svg+xml")

    return api
