"""What the HTTP API accepts, as typed models (pydantic): every body is read into one of these
before anything else looks at it, and they are what the OpenAPI document describes.

The models bound everything a client can send — string lengths, list lengths, number ranges
(targets, factors and Striche as ``chibre.rules`` bounds them) — and refuse unknown fields, so
that a refusal names the field. What the rules say about the values (a target that a preset
allows, a weis that the cards make) is still checked by the engine: ``chibre.rules.Rules`` and
``chibre.scoresheet``, whose errors are as clear.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from chibre import i18n
from chibre.bots import TABLE_PLAYERS
from chibre.rules import END_ORDERS, MAX_FACTOR, MAX_STRICHE, MAX_TARGET, MULTIPLIER_GRIDS, PRESETS
from chibre.scoresheet import HAND_POINTS

MAX_NAME = 40
"""The longest name of a player, a team or a seat, in characters."""
MAX_SHEET_NAME = 80
MAX_SHEET_HANDS = 400
"""The most hands a score sheet may hold (a game to 10,000 at 157 a hand needs about 65)."""


class Refused(ValueError):
    """A validator's refusal, said from the catalogue (``key``); its message is the English."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(i18n.text(i18n.DEFAULT, key))


def _printable(text: str) -> str:
    """Refuse what cannot be shown or stored: lone surrogates and control characters."""
    for ch in text:
        if "\ud800" <= ch <= "\udfff":
            raise Refused("error.text_surrogate")
        if unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\u200d":
            raise Refused("error.text_control")
    return text


def _one_line(text: str) -> str:
    """A name as it is shown: its spaces, line and paragraph breaks as single spaces."""
    return " ".join(text.split())


def _named(text: str) -> str:
    if not text:
        raise Refused("error.name_empty")
    return text


Name = Annotated[
    str, Field(max_length=MAX_NAME), AfterValidator(_printable), AfterValidator(_one_line)
]
Word = Annotated[str, Field(max_length=40), AfterValidator(_printable)]
Team = Annotated[int, Field(ge=0, le=1)] | Literal["A", "B", "a", "b"]

if TYPE_CHECKING:
    Preset: TypeAlias = str
    Grid: TypeAlias = str
    EndOrder: TypeAlias = str
    SeatKind: TypeAlias = str
else:  # the choices, as the engine lists them
    Preset = Literal[tuple(PRESETS)]
    Grid = Literal[tuple(MULTIPLIER_GRIDS)]
    EndOrder = Literal[END_ORDERS]
    SeatKind = Literal[("human", *TABLE_PLAYERS)]
Factor = Annotated[int, Field(ge=1, le=MAX_FACTOR)]
Marks = Annotated[int, Field(ge=0, le=MAX_STRICHE)]


class Strict(BaseModel):
    """Unknown fields are refused; numbers are numbers and flags are flags (no "1" for 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class StricheOptions(Strict):
    """The Striche each mark is worth (RULES.md §8); 0 switches one off."""

    sieg: Marks | None = None
    match: Marks | None = None
    kontermatsch: Marks | None = None
    bergpreis: Marks | None = None
    schneider: Marks | None = None


class RulesOptions(Strict):
    """Table options changed from the preset (RULES.md §1–§11; ``GET /api/presets`` lists
    them with their values)."""

    deck: Literal["french", "swiss"] | None = None
    suit_mapping: Word | None = None
    target: Annotated[int, Field(ge=1, le=MAX_TARGET)] | None = None
    multipliers: Grid | Annotated[list[Factor], Field(min_length=6, max_length=6)] | None = None
    pique_double: Literal["off", "always", "choice"] | None = None
    first_chooser: Literal["card", "right_of_dealer", "first_seat"] | None = None
    first_chooser_card: Word | Annotated[int, Field(ge=0, le=35)] | None = None
    chibre_back: bool | None = None
    weis: bool | None = None
    stoeck: bool | None = None
    big_sequences: bool | None = None
    low_carres_100: bool | None = None
    kreuzweis: bool | None = None
    undenufe_low_weis: bool | None = None
    stoeck_in_weis: bool | None = None
    auto_weis: bool | None = None
    auto_stoeck: bool | None = None
    end_mode: Literal["immediate", "end_of_hand"] | None = None
    claim: Literal["auto", "thank"] | None = None
    end_order: EndOrder | None = None
    striche: StricheOptions | None = None

    def changes(self) -> dict[str, Any]:
        """The options given, as ``chibre.rules.Rules.replace`` takes them."""
        return self.model_dump(exclude_none=True)


class TableRequest(Strict):
    """``POST /api/tables``: a preset, any option changed, and who sits at each seat."""

    preset: Preset = "romand"
    options: RulesOptions = RulesOptions()
    seats: Annotated[list[SeatKind], Field(min_length=4, max_length=4)] = [
        "human",
        "rule",
        "rule",
        "rule",
    ]
    names: Annotated[list[Name | None], Field(min_length=4, max_length=4)] | None = None
    fair_deals: bool = False
    """Commit to every deal before the first card (a seed hash; docs/tournaments.md)."""
    hints: bool = False
    """The coach's hints at the table, for every seat that asks (never in a tournament)."""
    move_limit: Annotated[float, Field(ge=0, le=600)] = 0
    """Seconds a player has for a move before the computer makes it for them, the seat staying
    theirs (0: no limit; a tournament's tables take the tournament's)."""


class AdviceRequest(Strict):
    """``POST /api/advice``: a hand held at a real table, for the coach's advice (seat 0 is
    the player; ``dealer`` counted from it; ``trump`` empty while it is to be chosen;
    ``chibred``: the chooser chibred and its partner named the trump)."""

    hand: Annotated[str, Field(min_length=1, max_length=120)]
    dealer: Annotated[int, Field(ge=0, le=3)] = 3
    trump: Annotated[int, Field(ge=0, le=5)] | None = None
    chibred: bool = False
    played: Annotated[str, Field(max_length=400)] = ""


class HeldSeat(Strict):
    """A seat a browser holds: its table and its token."""

    table: Annotated[str, Field(min_length=1, max_length=32)]
    token: Annotated[str, Field(min_length=1, max_length=64)]


MAX_HISTORY = 200
"""The most games one history request may name."""


class HistoryRequest(Strict):
    """``POST /api/history``: the seats this browser holds (``HeldSeat``), newest first."""

    seats: Annotated[list[HeldSeat], Field(max_length=MAX_HISTORY)]


# --- refusals ------------------------------------------------------------------------------


def describe(errors: Sequence[Any], lang: str | None = None) -> tuple[str | None, str]:
    """The refused field (``options.target``, ``seats[2]``; ``None`` for the whole) and a
    sentence saying what is wrong with it, from pydantic's errors, in ``lang``. A client that
    names no language (``None``) reads the English as an API client needs it: the field's
    path, and of a body that is not JSON what the parser says; one that names a language (the
    pages do) reads the option's own name beside its path too, as the form shows it."""
    said = lang or i18n.DEFAULT
    first = _first(errors) if errors else {"loc": (), "msg": "not valid"}
    if first.get("type") == "json_invalid":
        return None, _not_json(first, lang)
    where = _where(tuple(first.get("loc", ())))
    if not where:
        return None, _whole(first, said)
    message = _message(first, said)
    name = _option_name(where, lang) if lang else ""
    key = "error.field_named" if name else "error.field"
    return where, i18n.text(said, key, field=where, name=name, message=message)


def _not_json(problem: Mapping[str, Any], lang: str | None) -> str:
    """A body that does not parse; to a client that names no language, with what the parser
    says (its English) after."""
    message = i18n.text(lang or i18n.DEFAULT, "error.request_json")
    ctx = problem.get("ctx")
    detail = ctx.get("error") if isinstance(ctx, dict) else None
    return f"{message}: {detail}" if detail and lang is None else message


def _whole(problem: Mapping[str, Any], lang: str) -> str:
    """What is wrong with the request as a whole (no field to name)."""
    kind = problem.get("type")
    if kind == "missing":
        return i18n.text(lang, "error.request_body")
    if kind in _OBJECT_TYPES:
        return i18n.text(lang, "error.request_object")
    return _message(problem, lang)


def _first(errors: Sequence[Any]) -> Mapping[str, Any]:
    """The error to report: of a field that is a union (a number or a name…), the member
    whose problem is not only its type."""
    typed = ("_type", "literal_error", "int_from_float")
    for problem in errors:
        if not str(problem.get("type", "")).endswith(typed):
            return problem  # type: ignore[no-any-return]
    return errors[0]  # type: ignore[no-any-return]


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
_OBJECT_TYPES = frozenset({"model_type", "dict_type", "model_attributes_type"})

_OPTION_NAMES = {
    "deck": "deck",
    "target": "target",
    "multipliers": "multipliers",
    "pique_double": "pique_double_opt",
    "first_chooser": "tour_first_chooser",
    "weis": "weis",
    "stoeck": "stoeck",
    "auto_weis": "auto_weis",
    "auto_stoeck": "auto_stoeck",
    "end_mode": "end_mode",
    "claim": "claim",
    "end_order": "end_order",
    "striche": "striche",
    **{f"striche.{k}": f"strich_{k}" for k in StricheOptions.model_fields},
}
"""The catalogue's name of a rules option (``options.X`` of a table or a tournament,
``rules.X`` of a sheet), where the pages show it by one."""
_FIELD_NAMES = {
    "preset": "preset",
    "seats": "seats",
    "move_limit": "move_limit",
    "rounds": "tour_rounds",
}
"""The catalogue's name of another field a form sets."""


def _option_name(where: str, lang: str) -> str:
    """The name the pages give the field at ``where`` (its items' too: ``seats[2]``, not
    what an item holds), in ``lang``; empty where they give it none."""
    path = re.sub(r"(\[\d+\])+$", "", where)
    if "[" in path:
        return ""
    group, _, option = path.partition(".")
    key = _OPTION_NAMES.get(option) if group in ("options", "rules") else _FIELD_NAMES.get(path)
    return i18n.text(lang, key) if key else ""


def shown(value: object) -> str:
    """A refused value, as short as a message needs."""
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's limit on digits
        return "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "..."


_BOUNDS = {
    "less_than_equal": "error.at_most",
    "greater_than_equal": "error.at_least",
    "less_than": "error.less_than",
    "greater_than": "error.greater_than",
}
_TYPES = {
    "int_type": "error.must_be_whole",
    "int_from_float": "error.must_be_whole",
    "float_type": "error.must_be_number",
    "bool_type": "error.must_be_bool",
    "string_type": "error.must_be_text",
    "list_type": "error.must_be_list",
}


def _message(problem: Mapping[str, Any], lang: str) -> str:
    """What a refused field's problem is, in words a client can act on, in ``lang``."""
    kind, ctx = problem.get("type", ""), problem.get("ctx") or {}
    given = shown(problem.get("input"))
    if kind == "literal_error":
        allowed = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        return i18n.text(lang, "error.choose", value=given, allowed=allowed)
    if kind in ("too_short", "too_long"):
        which = "at_least" if kind == "too_short" else "at_most"
        limit = ctx.get("min_length" if kind == "too_short" else "max_length")
        return i18n.text(lang, f"error.items_{which}", limit=limit, given=ctx.get("actual_length"))
    if kind in ("string_too_short", "string_too_long"):
        which = "at_least" if kind == "string_too_short" else "at_most"
        limit = ctx.get("min_length" if kind == "string_too_short" else "max_length")
        return i18n.text(lang, f"error.chars_{which}", n=limit)
    if kind in _BOUNDS:
        bound = next(iter(ctx.values()), "")
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)  # 600 seconds, as the field is written, not 600.0
        return i18n.text(lang, _BOUNDS[kind], bound=bound, value=given)
    if kind in _TYPES:
        return i18n.text(lang, _TYPES[kind], value=given)
    if kind in _OBJECT_TYPES:
        return i18n.text(lang, "error.must_be_object")
    if kind == "extra_forbidden":
        return i18n.text(lang, "error.unknown_field")
    if kind == "missing":
        return i18n.text(lang, "error.field_required")
    refused = ctx.get("error")
    if kind == "value_error" and isinstance(refused, Refused):
        return i18n.text(lang, refused.key)
    return str(problem.get("msg", "not valid")).removeprefix("Value error, ")


# --- the calculator --------------------------------------------------------------------


class SheetRequest(Strict):
    """``POST /api/sheets``: a new score sheet; ``id`` and ``key`` when the page chose them
    (it made the sheet without a connection)."""

    name: Annotated[str, Field(max_length=MAX_SHEET_NAME), AfterValidator(_printable)] = ""
    teams: Annotated[list[Name], Field(min_length=2, max_length=2)] | None = None
    preset: Preset | None = None
    rules: RulesOptions | None = None
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{11,22}$")] | None = None
    key: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{22,43}$")] | None = None

    @model_validator(mode="after")
    def _both_or_neither(self) -> SheetRequest:
        if (self.id is None) != (self.key is None):
            raise Refused("error.sheet_id_and_key")
        return self


class SheetRename(Strict):
    """``PATCH /api/sheets/{id}``: the sheet's name and teams."""

    name: Annotated[str, Field(max_length=MAX_SHEET_NAME), AfterValidator(_printable)] | None = None
    teams: Annotated[list[Name], Field(min_length=2, max_length=2)] | None = None


class WeisCards(Strict):
    """A weis written with its cards (``"H6 H7 H8"`` or a list of codes) and its value."""

    cards: Annotated[str, Field(max_length=120)] | Annotated[list[Word], Field(max_length=9)]
    points: Annotated[int, Field(ge=0, le=1000)] | None = None


WeisItem = Annotated[int, Field(ge=0, le=1000)] | Annotated[str, Field(max_length=120)] | WeisCards
TeamWeis = Annotated[list[WeisItem], Field(max_length=9)] | None


class HandRequest(Strict):
    """A hand as the scorer writes it (``chibre.scoresheet.hand_entry`` checks it against
    the sheet's rules)."""

    contract: Annotated[int, Field(ge=0, le=5)] | Word
    chooser: Team = 0
    points: Annotated[int, Field(ge=0, le=HAND_POINTS)] | None = None
    team: Team = 0
    match: Team | None = None
    weis: Annotated[list[TeamWeis], Field(min_length=2, max_length=2)] | None = None
    stoeck: Team | None = None
    double: bool = False
    first_out: Team | None = None
    berg_first: Team | None = None
    schneider: bool | None = None

    def entry(self) -> dict[str, Any]:
        """The hand as ``chibre.scoresheet`` reads it."""
        return self.model_dump(exclude_unset=True)


class SheetImport(Strict):
    """``POST /api/sheets/import``: an exported sheet (``GET /api/sheets/{id}/export``)."""

    format: Word
    version: Annotated[int, Field(ge=1, le=99)] = 1
    name: Annotated[str, Field(max_length=MAX_SHEET_NAME), AfterValidator(_printable)] = ""
    teams: Annotated[list[Name], Field(min_length=2, max_length=2)] = ["A", "B"]
    rules: RulesOptions = RulesOptions()
    hands: Annotated[list[HandRequest], Field(max_length=MAX_SHEET_HANDS)] = []

    def sheet(self) -> dict[str, Any]:
        """The sheet as ``chibre.scoresheet.ScoreSheet.from_dict`` reads it (its rules are
        checked there, as the export wrote them: every option by name)."""
        d = self.model_dump(exclude={"hands", "rules"})
        d["rules"] = self.rules.changes()
        d["hands"] = [h.entry() for h in self.hands]
        return d


# --- tournaments (docs/tournaments.md) -----------------------------------------------------

if TYPE_CHECKING:
    Format: TypeAlias = str
    Level: TypeAlias = str
else:
    from chibre.tournament.plan import FORMATS

    Format = Literal[FORMATS]
    Level = Literal[TABLE_PLAYERS]


class TournamentRequest(Strict):
    """``POST /api/tournaments``: the format, the rules, the rounds, who fills empty seats."""

    name: Name = ""
    format: Format = "evening"
    preset: Preset = "geneve-500"
    options: RulesOptions = RulesOptions()
    rounds: Annotated[int, Field(ge=1, le=30)] = 3
    scoring: Literal["points", "striche"] = "points"
    level: Level = "rule"
    """The computer player of empty seats and of players replaced."""
    auto: bool = False
    """Open the next round as soon as every table of the round is over."""
    real_tables: Annotated[int, Field(ge=0, le=64)] = 0
    """The first tables of each round that play with real cards (a calculator sheet each)."""
    hands: Annotated[int, Field(ge=0, le=100)] = 0
    """A Passe of this many hands at every table (0: a game to the target)."""
    duplicate: bool = False
    """Duplicate rounds: every table of a round plays the same deals (a Passe)."""
    grace: Annotated[float, Field(ge=1, le=3600)] | None = None
    """Seconds before a player who is not at their seat is replaced (None: the server's)."""
    move_limit: Annotated[float, Field(ge=0, le=600)] = 0
    """Seconds a player has for a move before the computer makes it for them (0: none)."""


EntryName = Annotated[
    str,
    Field(min_length=1, max_length=MAX_NAME),
    AfterValidator(_printable),
    AfterValidator(_one_line),
    AfterValidator(_named),
]


class EntryRequest(Strict):
    """``POST /api/tournaments/{id}/entries``: a player (or a team of two) entering."""

    name: EntryName
    partner: EntryName | None = None
    kind: Literal[("human", *TABLE_PLAYERS)] = "human"  # type: ignore[valid-type]


class CorrectionRequest(Strict):
    """``POST /api/tournaments/{id}/corrections``: the organiser corrects a hand of a table's
    sheet (``hand`` from 1), saying why: the whole hand (``entry``); or only the trick points
    (``points``), of the team entered or of ``team``, which made ``match`` when true, with the
    organiser's word on the Schneider (``schneider``) where the sheet asks for it, the rest of
    the hand kept; or the Schneider alone (``schneider`` without ``points``: the hand kept as
    entered)."""

    round: Annotated[int, Field(ge=1, le=30)]
    table: Annotated[int, Field(ge=1, le=64)]
    hand: Annotated[int, Field(ge=1, le=MAX_SHEET_HANDS)]
    entry: HandRequest | None = None
    points: Annotated[int, Field(ge=0, le=HAND_POINTS)] | None = None
    team: Team | None = None
    match: bool = False
    schneider: bool | None = None
    reason: Annotated[str, Field(max_length=200), AfterValidator(_printable)] = ""
