"""The table protocol's messages (docs/table-protocol.md): actions and events as JSON, and the
reading of what a client sends.

A client's message is read strictly — a frame over 4 KiB, text that is not JSON, an unknown
``type``, or an action of the wrong shape raises ``ProtocolError`` with the error ``code`` the
client receives and a sentence a player can read.
"""

from __future__ import annotations

import json
from typing import Any

import pydantic_core

from chibre.actions import Action, Chibre, Choose, Declare, Play, Thank
from chibre.cards import card_code, cards_of
from chibre.errors import ChibreError
from chibre.events import Event, WeisAdded, WeisScored

MAX_FRAME = 4096
"""The largest frame a client may send, in bytes."""

CODES: dict[str, int] = {card_code(c): c for c in range(36)}
"""Every card code ("H10", "SA", …) and its card."""

ERROR_CODES = (
    "bad_token",
    "not_your_turn",
    "illegal",
    "malformed",
    "too_large",
    "unknown_type",
    "spectator",
    "finished",
    "unavailable",
    "damaged",
)


class ProtocolError(ChibreError):
    """A message the table refuses; ``code`` is one of ``ERROR_CODES``."""

    def __init__(self, code: str, message: str) -> None:
        assert code in ERROR_CODES, code
        self.code = code
        super().__init__(message)

    def frame(self) -> str:
        """The error frame sent to the client."""
        return error_frame(self.code, str(self))


def error_frame(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message}, ensure_ascii=False)


PONG = '{"type":"pong"}'


# --- actions ---------------------------------------------------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as the protocol writes it (``legal`` lists these)."""
    if isinstance(action, Play):
        return {
            "kind": "play",
            "card": card_code(action.card),
            "weis": [[card_code(c) for c in cards_of(w)] for w in action.weis],
            "stoeck": action.stoeck,
        }
    if isinstance(action, Choose):
        return {"kind": "choose", "contract": int(action.contract), "double": action.double}
    if isinstance(action, Chibre):
        return {"kind": "chibre"}
    if isinstance(action, Declare):
        return {
            "kind": "declare",
            "weis": [[card_code(c) for c in cards_of(w)] for w in action.weis],
            "stoeck": action.stoeck,
        }
    return {"kind": "thank"}


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str) or value not in CODES:
        raise ProtocolError(
            "malformed", f'{where}: {value!r} is not a card code (such as "H10" or "SA")'
        )
    return CODES[value]


def _flag(d: dict[str, Any], name: str) -> bool:
    value = d.get(name, False)
    if not isinstance(value, bool):
        raise ProtocolError("malformed", f"{name!r} must be true or false, not {value!r}")
    return value


def action_from_json(d: Any) -> Action:
    """Read an ACTION object; ``ProtocolError("malformed", …)`` for any other shape."""
    if not isinstance(d, dict):
        raise ProtocolError("malformed", 'the action must be an object such as {"kind": "chibre"}')
    kind = d.get("kind")
    if kind == "chibre":
        return Chibre()
    if kind == "thank":
        return Thank()
    if kind == "choose":
        contract = d.get("contract")
        if type(contract) is not int or not 0 <= contract <= 5:
            raise ProtocolError(
                "malformed",
                f"the contract is 0..3 (trump ♦ ♥ ♠ ♣), 4 (Obenabe) or 5 (Undenufe), "
                f"not {contract!r}",
            )
        return Choose(contract, _flag(d, "double"))
    if kind == "play":
        card = _card(d.get("card"), "card")
        return Play(card, _weis(d), _flag(d, "stoeck"))
    if kind == "declare":
        return Declare(_weis(d), _flag(d, "stoeck"))
    raise ProtocolError(
        "malformed", f"unknown action kind {kind!r}: choose, chibre, play, declare or thank"
    )


def _weis(d: dict[str, Any]) -> tuple[int, ...]:
    weis_list = d.get("weis", [])
    if not isinstance(weis_list, list) or len(weis_list) > 9:
        raise ProtocolError("malformed", "weis must be a list of card lists")
    weis: list[int] = []
    for w in weis_list:
        if not isinstance(w, list) or len(w) > 9:
            raise ProtocolError("malformed", "each weis is a list of card codes")
        m = 0
        for code in w:
            bit = 1 << _card(code, "weis")
            if m & bit:
                raise ProtocolError("malformed", f"weis: {code} is given twice")
            m |= bit
        weis.append(m)
    return tuple(weis)


def read_message(text: str | bytes | None) -> dict[str, Any]:
    """Check a client frame and decode it: an object with ``type`` ``act`` or ``ping``."""
    if text is None:
        raise ProtocolError("malformed", "frames are JSON text")
    size = len(text) if isinstance(text, bytes) else len(text.encode())
    if size > MAX_FRAME:
        raise ProtocolError("too_large", f"a message may be at most {MAX_FRAME} bytes, not {size}")
    if isinstance(text, bytes):
        raise ProtocolError("malformed", "frames are JSON text, not binary")
    try:  # pydantic's parser: a depth limit, no lone surrogates, no 5,000-digit numbers
        message = pydantic_core.from_json(text)
    except ValueError as e:
        raise ProtocolError("malformed", f"the message is not valid JSON: {e}") from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed", 'a message is a JSON object such as {"type": "ping"}')
    kind = message.get("type")
    if kind not in ("act", "ping"):
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}: send act or ping")
    return message


# --- events ----------------------------------------------------------------------------------


def event_to_json(event: Event) -> dict[str, Any]:
    """An engine event as the protocol writes it: its type, its fields, cards as codes."""
    d: dict[str, Any] = {"type": type(event).__name__}
    if isinstance(event, WeisScored | WeisAdded):
        if isinstance(event, WeisAdded):
            d["seat"] = event.seat
        else:
            d["team"] = event.team
        d["points"] = event.points
        d["shown"] = [
            {"seat": s, "cards": [card_code(c) for c in cards_of(w.cards)], "points": w.points}
            for s, w in event.shown
        ]
        return d
    for name, value in zip(event._fields, event, strict=True):
        if name == "card" and isinstance(value, int):
            d[name] = card_code(value)
        elif isinstance(value, tuple):
            d[name] = list(value)
        else:
            d[name] = value
    return d
