"""The table protocol's messages (docs/table-protocol.md): actions and events as JSON, and the
reading of what a client sends.

A client's message is read strictly into typed models (pydantic: ``Act`` and ``Ping``, an
action one of ``PlayAction``, ``ChooseAction``, ``ChibreAction``, ``DeclareAction``,
``ThankAction``) — a frame over 4 KiB, text that is not JSON (or nested past pydantic's depth
limit), an unknown ``type``, or an action of the wrong shape raises ``ProtocolError`` with the
error ``code`` the client receives and a sentence a player can read, naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, Literal

import pydantic_core
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from chibre import i18n
from chibre.actions import Action, Chibre, Choose, Declare, Play, Thank
from chibre.cards import card_code, cards_of
from chibre.errors import ChibreError
from chibre.events import Event, WeisAdded, WeisScored
from chibre.server.models import describe, shown

MAX_FRAME = 4096
"""The largest frame a client may send, in bytes."""

CODES: dict[str, int] = {card_code(c): c for c in range(36)}
"""Every card code ("H10", "SA", …) and its card."""

ERROR_CODES = (
    "bad_token",
    "not_your_turn",
    "moved_on",
    "illegal",
    "malformed",
    "too_large",
    "unknown_type",
    "spectator",
    "finished",
    "unavailable",
    "damaged",
    "bad_name",
    "not_finished",
    "tournament_rematch",
    "busy",
)


class ProtocolError(ChibreError):
    """A message the table refuses; ``code`` is one of ``ERROR_CODES``. ``said``, when given,
    words the refusal in a language of the catalogue (``chibre.i18n``); the English
    ``message`` is what the logs and the clients that name no language read."""

    def __init__(
        self,
        code: str,
        message: str,
        said: Callable[[str], str] | None = None,
        reason: dict[str, Any] | None = None,
    ) -> None:
        assert code in ERROR_CODES, code
        self.code = code
        self.said = said
        self.reason = reason
        super().__init__(message)

    def frame(self, lang: str = "en") -> str:
        """The error frame sent to a client that reads ``lang``."""
        return error_frame(self.code, self.said(lang) if self.said else str(self), self.reason)


def error_frame(code: str, message: str, reason: dict[str, Any] | None = None) -> str:
    """An error frame; ``reason``, when given, is what the message says as data (the catalogue
    key and the cards it names), for a client that words it with its own cards."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reason is not None:
        frame["reason"] = reason
    return json.dumps(frame, ensure_ascii=False)


def illegal_to_json(key: str, fields: dict[str, int]) -> dict[str, Any]:
    """Why a card may not be played (``chibre.play.illegal_reason``) as an error frame's
    ``reason``: the catalogue key, ``suit`` a number, ``card`` and ``high`` codes, ``held``
    a list of codes."""
    reason: dict[str, Any] = {"key": key}
    for name, value in fields.items():
        if name == "suit":
            reason[name] = value
        elif name == "held":
            reason[name] = [card_code(c) for c in cards_of(value)]
        else:
            reason[name] = card_code(value)
    return reason


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
    if isinstance(action, Thank):
        return {"kind": "thank"}
    raise TypeError(f"not an action: {action!r}")


def _code(value: str) -> str:
    if value not in CODES:
        raise ValueError(f'{value[:8]!r} is not a card code (such as "H10" or "SA")')
    return value


def _distinct(cards: list[str]) -> list[str]:
    for code in cards:
        if cards.count(code) > 1:
            raise ValueError(f"{code} is given twice")
    return cards


CardCode = Annotated[str, Field(max_length=3), AfterValidator(_code)]
WeisCards = Annotated[list[CardCode], Field(max_length=9), AfterValidator(_distinct)]
WeisList = Annotated[list[WeisCards], Field(max_length=9)]


def _mask(cards: list[str]) -> int:
    m = 0
    for code in cards:
        m |= 1 << CODES[code]
    return m


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PlayAction(_Message):
    kind: Literal["play"]
    card: CardCode
    weis: WeisList = []
    stoeck: bool = False

    def action(self) -> Action:
        return Play(CODES[self.card], tuple(_mask(w) for w in self.weis), self.stoeck)


class ChooseAction(_Message):
    kind: Literal["choose"]
    contract: Annotated[int, Field(ge=0, le=5)]
    double: bool = False

    def action(self) -> Action:
        return Choose(self.contract, self.double)


class ChibreAction(_Message):
    kind: Literal["chibre"]

    def action(self) -> Action:
        return Chibre()


class DeclareAction(_Message):
    kind: Literal["declare"]
    weis: WeisList = []
    stoeck: bool = False

    def action(self) -> Action:
        return Declare(tuple(_mask(w) for w in self.weis), self.stoeck)


class ThankAction(_Message):
    kind: Literal["thank"]

    def action(self) -> Action:
        return Thank()


ActionMessage = Annotated[
    PlayAction | ChooseAction | ChibreAction | DeclareAction | ThankAction,
    Field(discriminator="kind"),
]


class Act(_Message):
    """``{"type": "act", "action": ACTION, "seq": 17}``: a seat's move; ``seq`` (optional):
    that of the state it was chosen on — refused ``moved_on`` if the table has moved since.
    Only an absent ``seq`` acts without that check: ``"seq": null`` is a bad ``seq``."""

    type: Literal["act"]
    action: ActionMessage
    seq: Annotated[int, Field(ge=0)] | None = None

    @field_validator("seq", mode="before")
    @classmethod
    def _seq_given(cls, value: Any) -> Any:
        if value is None:  # given, but as nothing: not read as "no check"
            raise ValueError("must be a whole number, not null (leave seq out to act unchecked)")
        return value


class Ping(_Message):
    """``{"type": "ping"}``: answered ``pong``."""

    type: Literal["ping"]


class Rename(_Message):
    """``{"type": "name", "name": "Anna"}``: a player names their own seat (the table checks
    the name: ``bad_name``)."""

    type: Literal["name"]
    name: Annotated[str, Field(max_length=400)]


class Rematch(_Message):
    """``{"type": "rematch"}``: once the game is over, another one at the same table — the
    same seats, tokens and links, a new record (never at a tournament's table)."""

    type: Literal["rematch"]


class Language(_Message):
    """``{"type": "language", "lang": "de"}``: the language the connection's refusals are
    worded in from now on (the page's language changed); no answer."""

    type: Literal["language"]
    lang: Annotated[str, Field(max_length=35)]


REACTIONS = tuple(k.removeprefix("react.") for k in i18n.catalogue("en") if k[:6] == "react.")
"""The quick reactions a player may send: the catalogue's ``react.…`` phrases and emotes."""


def _reaction(value: str) -> str:
    if value not in REACTIONS:
        raise ValueError(f"{shown(value)} is not a reaction: {', '.join(REACTIONS)}")
    return value


class React(_Message):
    """``{"type": "react", "reaction": "well_played"}``: a quick reaction, one of a fixed
    set (``REACTIONS``: nothing to moderate), shown to the table at the seat."""

    type: Literal["react"]
    reaction: Annotated[str, Field(max_length=40), AfterValidator(_reaction)]


INCIDENT_KINDS = ("late", "gone", "illegal", "garbage", "refused", "unreachable")
"""What can go wrong with a foreign bot's decision (docs/protocols.md, "Incidents")."""


class Report(_Message):
    """``{"type": "incident", "kind": "late", "detail": "…", "seconds": 10.0}``: the program
    holding a seat says that the foreign bot it seats did not decide in time or legally and
    that its fallback played instead; kept in the table's record (``Table.note_incident``)."""

    type: Literal["incident"]
    kind: Literal[INCIDENT_KINDS]  # type: ignore[valid-type]
    detail: Annotated[str, Field(max_length=200)] = ""
    seconds: Annotated[float, Field(ge=0, le=86400)] = 0.0


Message = Act | Ping | Rename | Rematch | Language | React | Report
ClientMessage = Annotated[Message, Field(discriminator="type")]
_MESSAGE: TypeAdapter[Message] = TypeAdapter(ClientMessage)
_ACTION: TypeAdapter[PlayAction | ChooseAction | ChibreAction | DeclareAction | ThankAction] = (
    TypeAdapter(ActionMessage)
)

_KINDS = "choose, chibre, play, declare or thank"
_TYPES = "act, ping, name, rematch, language, react or incident"


def _refused(e: ValidationError, what: str) -> ProtocolError:
    """A message the models refuse, as the error the client is sent."""
    errors = e.errors()
    first: dict[str, Any] = dict(errors[0]) if errors else {}
    loc = tuple(first.get("loc", ()))
    if first.get("type") in ("union_tag_invalid", "union_tag_not_found"):
        given = first.get("input", {})
        tag = "kind" if "action" in loc or what == "action" else "type"
        value = given.get(tag) if isinstance(given, dict) else None
        if value is None:  # no tag at all: the message says too little, not something else
            return ProtocolError(
                "malformed", f"the {'action' if tag == 'kind' else what} needs its {tag}"
            )
        if tag == "type":
            return ProtocolError(
                "unknown_type",
                f"unknown message type {shown(value)}: send {_TYPES}",
            )
        return ProtocolError("malformed", f"unknown action kind {shown(value)}: {_KINDS}")
    _, message = describe(errors)
    if message.startswith("the request "):
        message = f"the {what} " + message.removeprefix("the request ")
    return ProtocolError("malformed", message)


def action_from_json(d: Any) -> Action:
    """Read an ACTION object; ``ProtocolError("malformed", …)`` for any other shape."""
    if not isinstance(d, dict):
        raise ProtocolError("malformed", 'the action must be an object such as {"kind": "chibre"}')
    try:
        return _ACTION.validate_python(d).action()
    except ValidationError as e:
        raise _refused(e, "action") from None


def read_message(text: str | bytes | None) -> Message:
    """Check a client frame and read it into its model (``Act``, ``Ping``, ``Rename``,
    ``Rematch`` or ``Language``)."""
    if text is None:
        raise ProtocolError("malformed", "frames are JSON text")
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
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
    try:
        return _MESSAGE.validate_python(message)
    except ValidationError as e:
        raise _refused(e, "message") from None


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
