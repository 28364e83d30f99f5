"""The table's options (house rules) and the named presets — RULES.md §1–§11.

``Rules`` is an immutable, validated set of every option the engine knows. Build one from a
preset (``Rules.preset("schieber-2500", target=3000)``), from keywords (``Rules.make(...)``)
or from JSON (``Rules.from_json``); an unknown or contradictory option raises ``InvalidRules``
naming the option and the values it allows. A game record stores the full option set.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from typing import Any

from chibre.cards import DECKS, SUIT_MAPPINGS, card, card_code, parse_card
from chibre.errors import InvalidRules, NotationError


class Contract(IntEnum):
    """Le contrat / die Ansage: one of the four trumps, Obenabe or Undenufe."""

    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3
    OBENABE = 4
    UNDENUFE = 5


CONTRACT_CODES = ("D", "H", "S", "C", "O", "U")
"""One letter per contract: the trump suit's letter, O for Obenabe, U for Undenufe."""
CONTRACT_NAMES = ("diamonds", "hearts", "spades", "clubs", "obenabe", "undenufe")

MULTIPLIER_GRIDS: dict[str, tuple[int, int, int, int, int, int]] = {
    # factors for ♦ ♥ ♠ ♣ Obenabe Undenufe; Swiss grids read through the Swisslos
    # correspondence (Eicheln ♦, Rosen ♥, Schilten ♠, Schellen ♣): factors belong to the suits.
    "none": (1, 1, 1, 1, 1, 1),
    "current": (1, 1, 2, 2, 3, 4),
    "published": (1, 1, 2, 2, 3, 3),
    "ascending": (1, 2, 4, 3, 5, 6),
    "french": (1, 1, 2, 2, 3, 3),
    "pique_double": (1, 1, 2, 1, 1, 1),
}

END_ORDERS = ("stoeck,weis,tricks", "weis,stoeck,tricks", "stoeck,tricks,weis")
_CHOICES: dict[str, tuple[str, ...]] = {
    "deck": DECKS,
    "suit_mapping": tuple(SUIT_MAPPINGS),
    "pique_double": ("off", "always", "choice"),
    "first_chooser": ("card", "right_of_dealer", "first_seat"),
    "end_mode": ("immediate", "end_of_hand"),
    "claim": ("auto", "thank"),
    "end_order": END_ORDERS,
}
_STRICHE = ("sieg", "match", "kontermatsch", "bergpreis", "schneider")

MAX_TARGET = 10_000
"""The highest target a table may set: Swiss games go to 500–3000 (RULES.md §7); a target far
beyond them would make a game that never ends."""
MAX_FACTOR = 12
"""The highest multiplier a table may give a contract (the published grids go to 6, §6)."""
MAX_STRICHE = 99
"""The most Striche one kind of mark may be worth (the defaults are 1 and 2, §8; a slate shows
at most 99 of a kind)."""


@dataclass(frozen=True)
class Striche:
    """Marks per game (RULES.md §8): a win, a match, a contre-match, the Bergpreis (first to
    half the target) and the Schneider (loser under half the target); 0 switches one off."""

    sieg: int = 2
    match: int = 1
    kontermatsch: int = 2
    bergpreis: int = 1
    schneider: int = 2


@dataclass(frozen=True)
class Rules:
    """Every table option of RULES.md with its default (the `romand` preset).

    Build with ``Rules.make``, ``Rules.preset`` or ``replace``: they refuse unknown options,
    read cards from text and fill in what an option implies (pique double: its grid and the
    target 1500, unless given). The constructor only validates.
    """

    deck: str = "french"
    suit_mapping: str = "swisslos"
    target: int = 1000
    multipliers: str | tuple[int, ...] = "none"
    pique_double: str = "off"
    first_chooser: str = "card"
    first_chooser_card: int = card(0, 1)  # 7♦
    chibre_back: bool = False
    weis: bool = True
    stoeck: bool = True
    big_sequences: bool = True
    low_carres_100: bool = False
    kreuzweis: bool = True
    undenufe_low_weis: bool = True
    stoeck_in_weis: bool = False
    auto_weis: bool = True
    auto_stoeck: bool = True
    end_mode: str = "immediate"
    claim: str = "auto"
    end_order: str = "stoeck,weis,tricks"
    striche: Striche = Striche()

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise InvalidRules(f"{name} = {value!r}: allowed values are {', '.join(allowed)}")
        for f in dataclasses.fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise InvalidRules(f"{f.name} must be true or false, not {getattr(self, f.name)!r}")
        if (
            not isinstance(self.target, int)
            or isinstance(self.target, bool)
            or not 0 < self.target <= MAX_TARGET
        ):
            raise InvalidRules(
                f"target = {_short(self.target)}: must be a whole number from 1 to {MAX_TARGET}"
            )
        if type(self.first_chooser_card) is not int or not 0 <= self.first_chooser_card < 36:
            raise InvalidRules(f"first_chooser_card = {self.first_chooser_card!r}: not a card")
        self._check_multipliers()
        self._check_striche()
        if self.pique_double != "off" and self.multipliers != "pique_double":
            raise InvalidRules(
                f"pique_double = {self.pique_double!r} replaces the multiplier grid: "
                "set multipliers to 'pique_double'"
            )
        if self.multipliers == "pique_double" and self.pique_double == "off":
            raise InvalidRules(
                "multipliers = 'pique_double' needs pique_double 'always' or 'choice'"
            )
        if self.claim == "thank" and self.end_mode != "immediate":
            raise InvalidRules(
                "claim = 'thank' needs end_mode 'immediate': with 'end_of_hand' the table "
                "counts the hand out before anyone could thank"
            )
        if self.stoeck_in_weis and not (self.weis and self.stoeck):
            raise InvalidRules("stoeck_in_weis = true needs both weis and stoeck on")

    def _check_multipliers(self) -> None:
        m = self.multipliers
        if isinstance(m, str):
            if m not in MULTIPLIER_GRIDS:
                allowed = ", ".join(MULTIPLIER_GRIDS)
                raise InvalidRules(
                    f"multipliers = {m!r}: allowed values are {allowed}, "
                    "or six factors for ♦ ♥ ♠ ♣ Obenabe Undenufe"
                )
            return
        if (
            not isinstance(m, tuple)
            or len(m) != 6
            or not all(
                isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= MAX_FACTOR for x in m
            )
        ):
            raise InvalidRules(
                f"multipliers = {_short(m)}: six whole factors from 1 to {MAX_FACTOR} "
                "for ♦ ♥ ♠ ♣ Obenabe Undenufe"
            )

    def _check_striche(self) -> None:
        if not isinstance(self.striche, Striche):
            raise InvalidRules(f"striche = {self.striche!r}: give the counts {', '.join(_STRICHE)}")
        for k in _STRICHE:
            v = getattr(self.striche, k)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_STRICHE:
                raise InvalidRules(
                    f"striche.{k} = {_short(v)}: must be a whole number from 0 to {MAX_STRICHE} "
                    "(0 = off)"
                )

    # --- derived -------------------------------------------------------------------------

    @cached_property
    def grid(self) -> tuple[int, ...]:
        """The factors for ♦ ♥ ♠ ♣ Obenabe Undenufe."""
        m = self.multipliers
        return MULTIPLIER_GRIDS[m] if isinstance(m, str) else m

    def factor(self, contract: int, double: bool = False) -> int:
        """The multiplier of a hand played in ``contract`` (``double``: pique double chosen)."""
        if self.pique_double == "choice" and contract == Contract.SPADES:
            return 2 if double else 1
        return self.grid[contract]

    @cached_property
    def order(self) -> tuple[str, ...]:
        """The counting order as a tuple of blocks, e.g. ``("stoeck", "weis", "tricks")``."""
        return tuple(self.end_order.split(","))

    @property
    def half_target(self) -> int:
        """What the Bergpreis and the Schneider are measured against."""
        return (self.target + 1) // 2

    # --- building and serialising --------------------------------------------------------

    @classmethod
    def make(cls, **options: Any) -> Rules:
        """Rules from keywords, refusing unknown ones with the list of known options."""
        return cls().replace(**options)

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed (validated like any other)."""
        known = {f.name for f in dataclasses.fields(self)}
        for name in options:
            if name not in known:
                raise InvalidRules(
                    f"unknown option {name!r}; known options: {', '.join(sorted(known))}"
                )
        if isinstance(options.get("striche"), Mapping):
            counts = options["striche"]
            for name in counts:
                if name not in _STRICHE:
                    raise InvalidRules(
                        f"unknown striche {name!r}; the counts are {', '.join(_STRICHE)}"
                    )
            options["striche"] = dataclasses.replace(self.striche, **counts)
        if isinstance(options.get("multipliers"), list):
            options["multipliers"] = tuple(options["multipliers"])
        if isinstance(options.get("first_chooser_card"), str):
            mapping = options.get("suit_mapping", self.suit_mapping)
            if mapping not in SUIT_MAPPINGS:
                mapping = self.suit_mapping  # refused below, with its own message
            try:
                options["first_chooser_card"] = parse_card(options["first_chooser_card"], mapping)
            except NotationError as e:
                raise InvalidRules(f"first_chooser_card: {e}") from e
        if options.get("pique_double", "off") != "off":
            # pique double replaces the grid and plays to 1500 (RULES.md §2, §7)
            options.setdefault("multipliers", "pique_double")
            options.setdefault("target", 1500)
        return dataclasses.replace(self, **options)

    @classmethod
    def preset(cls, name: str, **options: Any) -> Rules:
        """A named preset of RULES.md §11, with any option changed. Pique double asked for
        brings its grid and target (RULES.md §2, §7) unless ``options`` name others: the
        preset's own give way."""
        if name not in PRESETS:
            raise InvalidRules(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        base = dict(PRESETS[name])
        if options.get("pique_double", "off") != "off":
            base.pop("multipliers", None)
            base.pop("target", None)
        return cls.make(**{**base, **options})

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["first_chooser_card"] = card_code(self.first_chooser_card)
        d["multipliers"] = (
            self.multipliers if isinstance(self.multipliers, str) else list(self.multipliers)
        )
        d["striche"] = dataclasses.asdict(self.striche)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        if not isinstance(d, Mapping):
            raise InvalidRules(f"rules must be a JSON object, not {type(d).__name__}")
        return cls.make(**d)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidRules(f"rules are not valid JSON: {e}") from e
        return cls.from_dict(d)


def _short(value: object) -> str:
    """A refused value as a message shows it: never more than a few dozen characters (a
    4,000-digit number is not repeated back)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return "a number of more than 12 digits"
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's limit on digits
        return "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "..."


PRESETS: dict[str, dict[str, Any]] = {
    "romand": {},
    "jasvel": {
        "target": 2500,
        "multipliers": "current",
        "end_mode": "end_of_hand",
        "end_order": "weis,stoeck,tricks",
        "undenufe_low_weis": False,  # seed 004: the weis order stays natural in Undenufe
    },
    "schieber-2500": {
        "deck": "swiss",
        "target": 2500,
        "multipliers": "published",
        "low_carres_100": True,
        "first_chooser_card": "Schellen 7",  # read through the table's suit mapping
    },
    "pique-double": {"pique_double": "always"},  # with its grid and target 1500
    "geneve-500": {"target": 500},
}
"""The named presets of RULES.md §11, as changes from the defaults."""
