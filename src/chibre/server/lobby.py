"""Opening a table (ouvrir une table): reading what ``POST /api/tables`` asks for.

The request names a preset and any option changed (``chibre.rules.Rules.preset``), and who sits
at each seat: a human — who gets an unguessable token, carried by the seat's invitation link —
or a computer level. Anything wrong raises ``InvalidTable`` with a sentence naming the problem,
before anything is stored.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from chibre.bots import TABLE_PLAYERS
from chibre.errors import ChibreError, InvalidRules
from chibre.rules import PRESETS, Rules
from chibre.server.store import SeatInfo, StoredTable

HUMAN = "human"
MAX_NAME = 40
"""The longest name a player may give, in characters."""


class InvalidTable(ChibreError, ValueError):
    """A table that cannot be created as asked (the message names the problem)."""


def table_request(request: Any) -> StoredTable:
    """Read a ``POST /api/tables`` body into a new table; ``InvalidTable`` naming the
    problem."""
    if not isinstance(request, dict):
        raise InvalidTable('the request must be a JSON object such as {"seats": [...]}')
    preset = request.get("preset", "romand")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise InvalidTable(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
    options = request.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidTable("options must be an object of option names and values")
    try:
        rules = Rules.preset(preset, **options)
    except InvalidRules as e:
        raise InvalidTable(str(e)) from e
    except (TypeError, ValueError) as e:
        raise InvalidTable(f"invalid options: {e}") from e
    seats = request.get("seats", [HUMAN, "rule", "rule", "rule"])
    kinds = (HUMAN, *TABLE_PLAYERS)
    if not isinstance(seats, list) or len(seats) != 4:
        raise InvalidTable("seats must list the four seats, each 'human' or a computer level")
    for n, kind in enumerate(seats):
        if kind not in kinds:
            raise InvalidTable(f"seat {n}: {kind!r} is neither 'human' nor one of {kinds[1:]}")
    names = request.get("names") or [None] * 4
    if not isinstance(names, list) or len(names) != 4:
        raise InvalidTable("names must list four names (or null)")
    infos = []
    for n, (kind, name) in enumerate(zip(seats, names, strict=True)):
        if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME):
            raise InvalidTable(f"seat {n}: a name is text of at most {MAX_NAME} characters")
        clean = (name or "").strip()
        if kind == HUMAN:
            infos.append(SeatInfo(HUMAN, clean or f"Player {n + 1}", secrets.token_urlsafe(16)))
        else:
            infos.append(SeatInfo(kind, clean or kind, None, secrets.randbits(31)))
    return StoredTable(
        id=secrets.token_urlsafe(6),
        rules=rules,
        seats=tuple(infos),
        watch=secrets.token_urlsafe(16),
        preset=preset,
        created=time.time(),
    )
