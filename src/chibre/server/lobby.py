"""Opening a table (ouvrir une table): reading what ``POST /api/tables`` asks for.

The request (``chibre.server.models.TableRequest``) names a preset and any option changed
(``chibre.rules.Rules.preset``), and who sits at each seat: a human — who gets an unguessable
token, carried by the seat's invitation link — or a computer level. Anything wrong raises
``InvalidTable`` with a sentence naming the problem, before anything is stored.
"""

from __future__ import annotations

import secrets
import time

from chibre.errors import ChibreError, InvalidRules
from chibre.rules import Rules
from chibre.server.models import TableRequest
from chibre.server.store import SeatInfo, StoredTable

HUMAN = "human"


class InvalidTable(ChibreError, ValueError):
    """A table that cannot be created as asked (the message names the problem)."""


def table_request(request: TableRequest) -> StoredTable:
    """A new table from a ``POST /api/tables`` body (already read into its model); an
    option the rules refuse raises ``InvalidTable`` naming it."""
    try:
        rules = Rules.preset(request.preset, **request.options.changes())
    except InvalidRules as e:
        raise InvalidTable(str(e)) from e
    names = request.names or [None] * 4
    infos = []
    for kind, name in zip(request.seats, names, strict=True):
        clean = (name or "").strip()
        if kind == HUMAN:
            infos.append(SeatInfo(HUMAN, clean, secrets.token_urlsafe(16)))  # named by the player
        else:
            infos.append(SeatInfo(kind, clean or kind, None, secrets.randbits(31)))
    return StoredTable(
        id=secrets.token_urlsafe(6),
        rules=rules,
        seats=tuple(infos),
        watch=secrets.token_urlsafe(16),
        preset=request.preset,
        created=time.time(),
    )
