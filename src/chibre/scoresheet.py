"""The calculator (Jassrechner / calculateur): the score sheet of a game played with real cards.

A table plays with its own deck and writes each hand as it was played: the contract (which
sets the factor from the table's grid), the trick points of one team (the other team's are
157 minus them — RULES.md §6's sanity check — or "match": 257 and 0), the weis the winning
team showed, the stöck, and which team named the contract. ``ScoreSheet`` turns that into the
same blocks as the engine (stöck, weis, tricks, match, each × the factor), the running totals,
the winner by the table's counting order, and the Striche (Sieg, Match, Kontermatsch,
Bergpreis, Schneider), exactly as ``chibre.game.Game`` writes them.

What a scorer writes is a whole hand, so the calculator counts the deciding hand block by
block in the counting order (``rules.end_order``, the match bonus after the tricks) — the
``end_of_hand`` way. Three moments cannot be read from a hand's totals, and the scorer says
them when they matter:

* ``first_out`` — which team reached the target first when both reach it in the same hand
  and the counting order cannot tell: both within the tricks block (``end_of_hand``: the
  tricks count in the order they were taken), or anywhere in the hand (``immediate``: the
  points count as they arise, stöck when shown, tricks as taken);
* ``berg_first`` — the same for half the target (the Bergpreis), asked only when the table
  plays a Bergpreis;
* ``schneider`` — in the hand that ends the game, whether the losers were still under half
  the target when the winners went out (RULES.md §8), asked only when the written blocks
  cannot tell and the table plays a Schneider. The losers' points at that moment lie between
  what they had for certain before it and that plus what they may have made meanwhile: in
  ``end_of_hand`` their tricks of the hand when the winners go out within the tricks block
  (tricks count in the order they were taken, which a sheet does not show); in ``immediate``
  everything they made in the hand (points count as they arise). When half the target lies
  in between, the scorer, who saw the game, says.

A hand that needs one of them unsaid is refused with the question: an ``InvalidEntry`` whose
``field`` names the field to say it in (key ``sheet.bad.ask_<field>``, said in any language of
the catalogue like every keyed refusal).

Every refusal names the field it concerns where there is one (``InvalidEntry.field``: a hand's
``contract``, ``double``, ``points``, ``match``, ``weis`` or one team's ``weis[0]``, ``stoeck``,
a moment's field; a sheet's ``passe``, ``teams``, ``name``), and every refusal a scorer can
meet on the Jasstafel page is a key of the catalogue (``sheet.bad.*``), said in the page's
language; only what a program alone can send wrongly (a team given as 7, a hand that is not a
JSON object) stays in English.

What the calculator does not represent, and how it reads it instead:

* ``immediate`` mode ends the game in the middle of a hand; the scorer writes the hand
  played out (or as far as it was counted), and the calculator writes the whole hand on the
  slate; ``decided_at`` gives the totals after the block in which the winners went out (the
  engine's are those at the exact card).
* ``claim = thank`` (a team thanks, a wrong claim loses): the calculator declares the winner
  like ``claim = auto``.

Bad input (trick points outside 0..157, both teams entering weis, stöck in Obenabe or
Undenufe, an unknown contract …) raises ``InvalidEntry`` with a message a player can read,
and the sheet is left exactly as it was. ``to_json`` / ``from_json`` round-trip a sheet.

A sheet may be a **Passe** of a fixed number of hands (``passe``, a tournament's table played
with real cards): no target ends it, and a hand after its last one is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any, NamedTuple

from chibre.cards import SUIT_MAPPINGS, SUIT_SYMBOLS, format_cards, parse_cards, swiss_suit_word
from chibre.errors import IllegalAction, InvalidRules, NotationError
from chibre.hand import HandScore
from chibre.i18n import text
from chibre.play import LAST_TRICK_BONUS, MATCH_BONUS
from chibre.rules import CONTRACT_CODES, CONTRACT_NAMES, Contract, Rules, Striche
from chibre.weis import CARRE, SEQUENCE, STOECK_POINTS, Weis, weis_of

HAND_POINTS = 152 + LAST_TRICK_BONUS
"""What the cards and the last trick are worth in every contract: 157."""

FORMAT = "chibre-scoresheet"
STRICHE_KINDS: tuple[str, ...] = tuple(f.name for f in fields(Striche))
"""The kinds of Striche, in the slate's order: sieg, match, kontermatsch, bergpreis,
schneider (the fields of ``chibre.rules.Striche``)."""
TEAM_NAMES = ("A", "B")


class InvalidEntry(IllegalAction, ValueError):
    """A hand (or a sheet) the calculator cannot write: the message says what is wrong; one
    made by ``said_as`` says it in every language of the catalogue (``said``). ``field``: the
    field of the hand (or the sheet) the refusal concerns, where there is one — for one of
    the sheet's questions (``first_out``, ``berg_first``, ``schneider``: a moment it cannot
    read from the blocks) the field that answers it."""

    key = ""
    fields: Mapping[str, object] = {}
    why: IllegalAction | None = None
    field: str | None

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    @classmethod
    def said_as(
        cls,
        key: str,
        why: IllegalAction | None = None,
        *,
        field: str | None = None,
        **fields: object,
    ) -> InvalidEntry:
        """The refusal ``sheet.bad.<key>`` of the message catalogue, in English; ``why``: the
        engine's refusal it gives as its ``{why}``; ``field``: the field it concerns."""
        said = {"why": why.said("en")} if why is not None else {}
        refused = cls(text("en", "sheet.bad." + key, **fields, **said), field=field)
        refused.key, refused.fields, refused.why = key, fields, why
        return refused

    def said(self, lang: str) -> str:
        """The message in ``lang`` where the catalogue has it, else in English."""
        if not self.key:
            return str(self)
        why = {"why": self.why.said(lang)} if self.why is not None else {}
        return text(lang, "sheet.bad." + self.key, **self.fields, **why)


# --- reading what the scorer enters ----------------------------------------------------------

_CONTRACT_WORDS: dict[str, int] = {
    **{code.lower(): k for k, code in enumerate(CONTRACT_CODES)},
    **{name: k for k, name in enumerate(CONTRACT_NAMES)},
    **{sym: k for k, sym in enumerate(SUIT_SYMBOLS)},
    "carreau": 0, "coeur": 1, "cœur": 1, "pique": 2, "trefle": 3, "trèfle": 3,
    "karo": 0, "herz": 1, "pik": 2, "kreuz": 3, "diamond": 0, "heart": 1, "spade": 2,
    "club": 3, "oben": 4, "obe": 4, "obenabe": 4, "unden": 5, "une": 5, "undenufe": 5,
    "undenuf": 5, "obenaben": 4,
}  # fmt: skip


def parse_contract(value: object, rules: Rules | None = None) -> int:
    """The contract from a number (0..3 trump ♦ ♥ ♠ ♣, 4 Obenabe, 5 Undenufe), a letter
    (``D H S C O U``), a symbol, or a French, German, English or Swiss-suit name."""
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value <= 5:
            return value
    elif isinstance(value, str):
        word = value.strip().lower()
        if word in _CONTRACT_WORDS:
            return _CONTRACT_WORDS[word]
        swiss = swiss_suit_word(word)
        if swiss is not None:
            return SUIT_MAPPINGS[(rules or Rules()).suit_mapping][swiss]
    raise InvalidEntry.said_as("contract_unknown", field="contract", value=repr(value))


class ShownWeis(NamedTuple):
    """One weis as the scorer wrote it: its value, and its cards when they were entered
    (``cards`` 0: only the announced value was written)."""

    points: int
    cards: int = 0
    kind: str = ""  # SEQUENCE or CARRE when the cards were entered

    def to_json(self) -> int | dict[str, Any]:
        if not self.cards:
            return self.points
        return {"points": self.points, "cards": format_cards(self.cards)}


def weis_values(rules: Rules) -> tuple[int, ...]:
    """Every value a single weis can have under these rules."""
    values = {20, 50, 100, 150, 200}  # sequences of 3, 4, 5; carrés of 9s and Js
    if rules.big_sequences:
        values |= {250, 300}
    return tuple(sorted(values))


def parse_weis(item: object, rules: Rules) -> ShownWeis:
    """One weis from a value (``50``), its cards (``"H6 H7 H8 H9"``, a list of codes, a set
    of cards as ``{"cards": …}``) or an engine ``Weis``; checked against the rules."""
    if isinstance(item, Weis):
        return ShownWeis(item.points, item.cards, item.kind)
    if isinstance(item, Mapping):
        if item.get("cards"):
            shown = parse_weis(item["cards"], rules)
            if "points" in item and item["points"] != shown.points:
                raise InvalidEntry(
                    f"the weis {format_cards(shown.cards)} is worth {shown.points}, "
                    f"not {item['points']!r}",
                    field="weis",
                )
            return shown
        item = item.get("points")
    if isinstance(item, int) and not isinstance(item, bool):
        if item not in weis_values(rules):
            allowed = ", ".join(str(v) for v in weis_values(rules))
            raise InvalidEntry.said_as("weis_value", field="weis", points=item, values=allowed)
        return ShownWeis(item)
    if isinstance(item, str) or (
        isinstance(item, Sequence) and all(isinstance(x, str) for x in item)
    ):
        text = item if isinstance(item, str) else " ".join(item)
        try:
            cards = parse_cards(text, rules.suit_mapping)
        except NotationError as e:
            raise InvalidEntry.said_as("weis_unread", field="weis", text=text) from e
        try:
            w = weis_of(cards, rules)
        except IllegalAction as e:
            raise InvalidEntry.said_as("weis_not", why=e, field="weis", text=text) from e
        return ShownWeis(w.points, w.cards, w.kind)
    raise InvalidEntry(
        f"a weis is its value (20, 50, 100 …) or its cards, not {item!r}", field="weis"
    )


def check_team_weis(shown: Sequence[ShownWeis], rules: Rules) -> None:
    """Weis entered for one team (its two players) must be possible together: no card in
    two sequences, a card in a carré and a sequence only with ``kreuzweis``."""
    with_cards = [w for w in shown if w.cards]
    for a, b in combinations(with_cards, 2):
        if not a.cards & b.cards:
            continue
        first, second = format_cards(a.cards), format_cards(b.cards)
        if a.kind == CARRE and b.kind == CARRE:
            raise InvalidEntry.said_as("weis_carre_twice", field="weis", cards=first)
        if a.kind == SEQUENCE and b.kind == SEQUENCE:
            raise InvalidEntry.said_as("weis_sequences_share", field="weis", a=first, b=second)
        if not rules.kreuzweis:
            raise InvalidEntry.said_as("weis_kreuzweis_off", field="weis", a=first, b=second)


def _team(value: object, what: str, field: str, optional: bool = True) -> int | None:
    """A team from ``0``/``1`` or ``A``/``B``; ``what``: the question it answers, said in the
    refusal of the hand's ``field``."""
    if value is None and optional:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    if isinstance(value, str) and value.strip().upper() in TEAM_NAMES:
        return TEAM_NAMES.index(value.strip().upper())
    raise InvalidEntry(f"{what}: say team 0 or 1 (A or B), not {value!r}", field=field)


@dataclass(frozen=True)
class HandEntry:
    """One hand as the scorer writes it (une donne / ein Spiel). Build with ``hand_entry``,
    which checks it against the table's rules."""

    contract: int
    chooser: int  # the team that named the contract (for Match against Kontermatsch)
    points: int | None = None  # trick points (before the factor) of team ``team``
    team: int = 0
    match: int | None = None  # the team that took all nine tricks
    weis: tuple[tuple[ShownWeis, ...], tuple[ShownWeis, ...]] = ((), ())
    stoeck: int | None = None  # the team that showed king and queen of trump
    double: bool = False  # pique double chosen (pique_double = choice)
    first_out: int | None = None  # who reached the target first, when the order cannot tell
    berg_first: int | None = None  # who reached half the target first, likewise
    schneider: bool | None = None  # the deciding hand: losers under half the target, if unclear

    def score(self, rules: Rules) -> HandScore:
        """The hand's blocks per team, before the factor (as ``chibre.hand.HandScore``)."""
        tricks = [0, 0]
        match = [0, 0]
        if self.match is not None:
            tricks[self.match] = HAND_POINTS
            match[self.match] = MATCH_BONUS
        else:
            assert self.points is not None
            tricks[self.team] = self.points
            tricks[1 - self.team] = HAND_POINTS - self.points
        weis = (sum(w.points for w in self.weis[0]), sum(w.points for w in self.weis[1]))
        stoeck = [0, 0]
        if self.stoeck is not None:
            stoeck[self.stoeck] = STOECK_POINTS
        return HandScore(
            rules.factor(self.contract, self.double),
            (stoeck[0], stoeck[1]),
            weis,
            (tricks[0], tricks[1]),
            (match[0], match[1]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "contract": CONTRACT_CODES[self.contract],
            "double": self.double,
            "chooser": self.chooser,
            "points": self.points,
            "team": self.team,
            "match": self.match,
            "weis": [[w.to_json() for w in ws] for ws in self.weis],
            "stoeck": self.stoeck,
            "first_out": self.first_out,
            "berg_first": self.berg_first,
            "schneider": self.schneider,
        }


_ENTRY_KEYS = frozenset(HandEntry.__dataclass_fields__)


def hand_entry(
    rules: Rules,
    *,
    contract: object,
    chooser: object = 0,
    points: object = None,
    team: object = 0,
    match: object = None,
    weis: object = ((), ()),
    stoeck: object = None,
    double: object = False,
    first_out: object = None,
    berg_first: object = None,
    schneider: object = None,
) -> HandEntry:
    """A hand checked against ``rules``; raises ``InvalidEntry`` saying what is wrong."""
    k = parse_contract(contract, rules)
    if not isinstance(double, bool):
        raise InvalidEntry(f"double must be true or false, not {double!r}", field="double")
    if double and not (rules.pique_double == "choice" and k == Contract.SPADES):
        raise InvalidEntry.said_as("double_spades_only", field="double")
    chooser_team = _team(chooser, "who named the contract", "chooser", optional=False)
    counted = _team(team, "whose trick points are these", "team", optional=False)
    match_team = _team(match, "who made match", "match")
    assert chooser_team is not None and counted is not None
    if points is not None and (
        not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= HAND_POINTS
    ):
        raise InvalidEntry.said_as(
            "points_range", field="points", most=HAND_POINTS, points=repr(points)
        )
    if match_team is None and points is None:
        raise InvalidEntry.said_as("need_points", field="points")
    if match_team is not None and points is not None:
        expected = HAND_POINTS if counted == match_team else 0
        if points != expected:
            raise InvalidEntry.said_as(
                "match_points",
                field="points",
                team=TEAM_NAMES[counted],
                expected=expected,
                points=points,
            )
        points = None
    shown = _read_weis(weis, rules)
    if schneider is not None and not isinstance(schneider, bool):
        raise InvalidEntry(
            f"schneider must be true, false or left out, not {schneider!r}", field="schneider"
        )
    stoeck_team = _team(stoeck, "who showed the stöck", "stoeck")
    if stoeck_team is not None:
        if not rules.stoeck:
            raise InvalidEntry.said_as("stoeck_off", field="stoeck")
        if k >= 4:
            raise InvalidEntry.said_as("stoeck_trumpless", field="stoeck")
    return HandEntry(
        contract=k,
        chooser=chooser_team,
        points=points if isinstance(points, int) else None,
        team=counted,
        match=match_team,
        weis=shown,
        stoeck=stoeck_team,
        double=double,
        first_out=_team(first_out, "who reached the target first", "first_out"),
        berg_first=_team(berg_first, "who reached half the target first", "berg_first"),
        schneider=schneider,
    )


def _read_weis(weis: object, rules: Rules) -> tuple[tuple[ShownWeis, ...], tuple[ShownWeis, ...]]:
    if weis is None:
        return ((), ())
    if not isinstance(weis, Sequence) or isinstance(weis, str) or len(weis) != 2:
        raise InvalidEntry(
            "weis are given per team: a list for team A and a list for team B", field="weis"
        )
    per_team: list[tuple[ShownWeis, ...]] = []
    for team, items in enumerate(weis):
        if items is None:
            items = ()
        if isinstance(items, str | int | Mapping) or not isinstance(items, Iterable):
            items = (items,)
        try:
            shown = tuple(parse_weis(item, rules) for item in items)
            check_team_weis(shown, rules)
        except InvalidEntry as e:
            e.field = f"weis[{team}]"  # that team's weis
            raise
        per_team.append(shown)
    if (per_team[0] or per_team[1]) and not rules.weis:
        raise InvalidEntry.said_as("weis_off", field="weis")
    if per_team[0] and per_team[1]:
        raise InvalidEntry.said_as("weis_one_team", field="weis")
    return per_team[0], per_team[1]


def entry_from_dict(d: Mapping[str, Any], rules: Rules) -> HandEntry:
    """A hand from its JSON form (``HandEntry.to_dict``), checked against ``rules``."""
    if isinstance(d, HandEntry):
        return hand_entry(rules, **d.to_dict())
    if not isinstance(d, Mapping):
        raise InvalidEntry(f"a hand is a JSON object, not {type(d).__name__}")
    unknown = sorted(set(d) - _ENTRY_KEYS)
    if unknown:
        raise InvalidEntry(
            f"unknown field {unknown[0]!r} in a hand; "
            f"the fields are {', '.join(sorted(_ENTRY_KEYS))}",
            field=unknown[0],
        )
    if "contract" not in d:
        raise InvalidEntry.said_as("need_contract", field="contract")
    return hand_entry(rules, **d)


# --- counting the game ---------------------------------------------------------------------


class HandResult(NamedTuple):
    """A hand on the sheet: what was entered, its blocks, and the totals after it."""

    number: int  # 1-based
    entry: HandEntry
    score: HandScore
    totals: tuple[int, int]  # running totals after the hand (the whole hand written)


def _first_to_reach(
    before: Sequence[int],
    blocks: Sequence[tuple[int, int]],
    threshold: int,
    immediate: bool,
    weis_at: int | None = None,
) -> tuple[int, bool, int]:
    """Which team reaches ``threshold`` first in a hand counted block by block: (team or
    -1, whether the order cannot tell, the index of that team's block). ``weis_at``: in
    ``immediate``, the weis block when the weis are credited before any card points (RULES.md
    §7: when the first trick is complete, before its card points) — a team its weis alone take
    there is first when the other needs card points or a match."""
    reached: list[int | None] = [None, None]
    running = list(before)
    for i, credit in enumerate(blocks):
        for t in (0, 1):
            running[t] += credit[t]
            if reached[t] is None and before[t] < threshold <= running[t]:
                reached[t] = i
    r0, r1 = reached
    if r0 is None and r1 is None:
        return -1, False, -1
    if r1 is None:
        assert r0 is not None
        return 0, False, r0
    if r0 is None:
        return 1, False, r1
    if immediate and weis_at is not None:
        for t in (0, 1):
            alone = before[t] + blocks[weis_at][t] >= threshold
            if alone and (r1 if t == 0 else r0) > weis_at:
                return t, False, weis_at
    if immediate or r0 == r1:
        return -1, True, min(r0, r1)
    return (0, False, r0) if r0 < r1 else (1, False, r1)


@dataclass
class Count:
    """The game as counted from the sheet's hands."""

    results: list[HandResult] = field(default_factory=list)
    totals: tuple[int, int] = (0, 0)
    winner: int = -1
    decided_in: int = 0  # the hand (1-based) in which the game was won; 0 while it runs
    decided_at: tuple[int, int] = (0, 0)
    bergpreis: int = -1
    schneider: bool = False  # the game is won and the losers were under half the target
    marks: dict[str, list[int]] = field(default_factory=lambda: {k: [0, 0] for k in STRICHE_KINDS})


def count_game(
    entries: Sequence[HandEntry], rules: Rules, numbers: Sequence[int] | None = None
) -> Count:
    """Count the hands in order as ``Game`` does; ``InvalidEntry`` if a hand follows the end
    of the game or a moment the counting order cannot tell is missing. ``numbers``: the
    hands' numbers as the scorer knows them (by default 1, 2, 3…)."""
    order = list(rules.order)
    order.insert(order.index("tricks") + 1, "match")
    immediate = rules.end_mode == "immediate"
    weis_at = order.index("weis") if order.index("weis") < order.index("tricks") else None
    c = Count()
    totals = [0, 0]
    for number, entry in zip(numbers or range(1, len(entries) + 1), entries, strict=True):
        if c.winner >= 0:
            raise InvalidEntry.said_as("after_end", won=c.decided_in, number=number)
        score = entry.score(rules)
        f = score.factor
        blocks = [(getattr(score, b)[0] * f, getattr(score, b)[1] * f) for b in order]
        before = (totals[0], totals[1])
        if c.bergpreis < 0:
            c.bergpreis = _decide(
                number, before, blocks, rules.half_target, immediate, weis_at, entry.berg_first,
                "berg_first", needed=rules.striche.bergpreis > 0,
            )[0]  # fmt: skip
        elif entry.berg_first is not None:
            raise InvalidEntry.said_as(
                "berg_won", field="berg_first", number=number, team=TEAM_NAMES[c.bergpreis]
            )
        winner, block = _decide(
            number, before, blocks, rules.target, immediate, weis_at, entry.first_out, "first_out"
        )
        totals = [before[0] + score.total(0), before[1] + score.total(1)]
        if winner >= 0:
            c.winner = winner
            c.decided_in = number
            at = list(before)
            for credit in blocks[: block + 1]:
                at[0] += credit[0]
                at[1] += credit[1]
            c.decided_at = (at[0], at[1])
            low, high = _losers_range(before, blocks, block, order, winner, immediate)
            c.schneider = _schneider(number, low, high, rules, entry.schneider)
        elif entry.schneider is not None:
            raise InvalidEntry.said_as("schneider_not_end", field="schneider", number=number)
        if entry.match is not None:
            kind = "match" if entry.match == entry.chooser else "kontermatsch"
            c.marks[kind][entry.match] += getattr(rules.striche, kind)
        c.results.append(HandResult(number, entry, score, (totals[0], totals[1])))
    c.totals = (totals[0], totals[1])
    s = rules.striche
    if c.bergpreis >= 0:
        c.marks["bergpreis"][c.bergpreis] += s.bergpreis
    if c.winner >= 0:
        c.marks["sieg"][c.winner] += s.sieg
        if c.schneider:
            c.marks["schneider"][c.winner] += s.schneider
    return c


def _losers_range(
    before: Sequence[int],
    blocks: Sequence[tuple[int, int]],
    block: int,
    order: Sequence[str],
    winner: int,
    immediate: bool,
) -> tuple[int, int]:
    """The least and the most the losers can have had when the winners went out in
    ``blocks[block]`` of this hand (RULES.md §7: tricks count in the order they were taken;
    in ``immediate`` every point counts as it arises)."""
    lose = 1 - winner
    if immediate:
        return before[lose], before[lose] + sum(credit[lose] for credit in blocks)
    low = before[lose] + sum(credit[lose] for credit in blocks[:block])
    unsure = blocks[block][lose] if order[block] == "tricks" else 0
    return low, low + unsure


def _schneider(number: int, low: int, high: int, rules: Rules, said: bool | None) -> bool:
    """Were the losers under half the target when the winners went out: from the blocks
    when they tell, else from what the scorer said."""
    half = rules.half_target
    if low >= half or high < half:
        certain = high < half
        if said is not None and said != certain:
            kind = "schneider_is" if certain else "schneider_is_not"
            raise InvalidEntry.said_as(kind, field="schneider", number=number, half=half)
        return certain
    if said is None:
        if not rules.striche.schneider:  # no Schneider at this table: nothing to ask
            return False
        raise InvalidEntry.said_as(
            "ask_schneider", field="schneider", number=number, half=half, low=low, high=high
        )
    return said


def _decide(
    number: int,
    before: tuple[int, int],
    blocks: Sequence[tuple[int, int]],
    threshold: int,
    immediate: bool,
    weis_at: int | None,
    said: int | None,
    field_name: str,
    needed: bool = True,
) -> tuple[int, int]:
    """The team that reaches ``threshold`` first in this hand and the index of its block,
    read from the counting order or from what the scorer said (the hand's ``field_name``:
    ``first_out`` for the target, ``berg_first`` for half of it)."""
    team, unclear, block = _first_to_reach(before, blocks, threshold, immediate, weis_at)
    if unclear:
        if said is None:
            if not needed:  # no Bergpreis at this table: nobody is credited with it
                return -1, block
            raise InvalidEntry.said_as(
                f"ask_{field_name}", field=field_name, number=number, threshold=threshold
            )
        team = said
        running = list(before)
        for i, credit in enumerate(blocks):
            running[0] += credit[0]
            running[1] += credit[1]
            if running[team] >= threshold:
                return team, i
        raise AssertionError("unreachable: both teams reach the threshold")  # pragma: no cover
    if said is not None:
        if team < 0:
            raise InvalidEntry.said_as(
                f"nobody_{field_name}", field=field_name, number=number, threshold=threshold
            )
        if said != team:
            raise InvalidEntry.said_as(
                f"first_{field_name}",
                field=field_name,
                number=number,
                team=TEAM_NAMES[team],
                threshold=threshold,
            )
    return team, block


# --- the sheet -----------------------------------------------------------------------------


class ScoreSheet:
    """Une feuille de match / ein Jassblatt: the hands of one game with real cards.

    Every change (``add``, ``replace``, ``delete``) recounts the whole game; a change that
    the rules refuse raises ``InvalidEntry`` and leaves the sheet as it was. ``passe``: the
    number of hands of a Passe (0: a game to the target), no hand written after the last.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        hands: Iterable[HandEntry | Mapping[str, Any]] = (),
        name: str = "",
        teams: Sequence[str] = ("A", "B"),
        passe: int = 0,
    ) -> None:
        self.rules = rules or Rules()
        if not isinstance(passe, int) or isinstance(passe, bool) or passe < 0:
            raise InvalidEntry.said_as("passe_not_hands", field="passe", passe=repr(passe))
        self.passe = passe
        if not isinstance(name, str):
            raise InvalidEntry("the sheet's name must be text", field="name")
        if (
            not isinstance(teams, list | tuple)
            or len(teams) != 2
            or not all(isinstance(t, str) and t.strip() for t in teams)
        ):
            raise InvalidEntry.said_as("teams", field="teams")
        self.name = name
        self.teams = (teams[0].strip(), teams[1].strip())
        entries = [self._read(h) for h in hands]
        if passe and len(entries) > passe:
            raise InvalidEntry.said_as(
                "passe_overfull", field="passe", n=passe, written=len(entries)
            )
        self._count = count_game(entries, self.rules)
        self._entries = entries

    def _read(self, hand: HandEntry | Mapping[str, Any]) -> HandEntry:
        if isinstance(hand, HandEntry):
            return entry_from_dict(hand.to_dict(), self.rules)
        return entry_from_dict(hand, self.rules)

    # --- changing it -----------------------------------------------------------------------

    def _set(self, entries: list[HandEntry]) -> None:
        count = count_game(entries, self.rules)  # raises before anything changes
        self._entries, self._count = entries, count

    def add(self, hand: HandEntry | Mapping[str, Any]) -> HandResult:
        """Write the next hand; returns it with the totals after it."""
        if self._count.winner >= 0:
            raise InvalidEntry.said_as(
                "game_over", team=self.teams[self._count.winner], number=self._count.decided_in
            )
        if self.passe and len(self._entries) >= self.passe:
            raise InvalidEntry.said_as("passe_complete", field="passe", n=self.passe)
        self._set([*self._entries, self._read(hand)])
        return self._count.results[-1]

    def replace(self, number: int, hand: HandEntry | Mapping[str, Any]) -> HandResult:
        """Correct hand ``number`` (1-based); everything after it is counted again."""
        i = self._index(number)
        entries = list(self._entries)
        entries[i] = self._read(hand)
        self._set(entries)
        return self._count.results[i]

    def delete(self, number: int) -> None:
        """Strike hand ``number`` (1-based) from the sheet."""
        i = self._index(number)
        kept = self._entries[:i] + self._entries[i + 1 :]
        shown = [n for n in range(1, len(self._entries) + 1) if n != number]
        count_game(kept, self.rules, shown)  # refused with the hands' numbers as they stand
        self._set(kept)

    def _index(self, number: object) -> int:
        if (
            not isinstance(number, int)
            or isinstance(number, bool)
            or not 1 <= number <= len(self._entries)
        ):
            raise InvalidEntry.said_as("no_hand", number=repr(number))
        return number - 1

    # --- reading it ------------------------------------------------------------------------

    @property
    def hands(self) -> tuple[HandEntry, ...]:
        return tuple(self._entries)

    @property
    def results(self) -> list[HandResult]:
        return list(self._count.results)

    @property
    def totals(self) -> tuple[int, int]:
        """Each team's total: every hand written whole."""
        return self._count.totals

    @property
    def winner(self) -> int:
        """The team that won (-1 while the game runs)."""
        return self._count.winner

    @property
    def is_over(self) -> bool:
        return self._count.winner >= 0

    @property
    def decided_in(self) -> int:
        return self._count.decided_in

    @property
    def decided_at(self) -> tuple[int, int]:
        """The totals when the winners went out (after their block of the deciding hand)."""
        return self._count.decided_at

    @property
    def bergpreis(self) -> int:
        """The team that reached half the target first (-1: nobody yet, or both in the same
        hand at a table without a Bergpreis, where nobody says which came first)."""
        return self._count.bergpreis

    @property
    def marks(self) -> dict[str, tuple[int, int]]:
        """The Striche per kind and team, as written so far (Match, Kontermatsch and the
        Bergpreis when they happen; Sieg and Schneider when the game is won)."""
        return {k: (v[0], v[1]) for k, v in self._count.marks.items()}

    @property
    def striche(self) -> tuple[int, int]:
        """Each team's Striche; the same as ``Game.striche`` once the game is won."""
        m = self._count.marks
        return (sum(v[0] for v in m.values()), sum(v[1] for v in m.values()))

    def hand_scores(self, team: int) -> list[int]:
        """What each hand wrote for ``team`` (after the factor): the slate's chalk."""
        return [r.score.total(team) for r in self._count.results]

    def summary(self) -> dict[str, Any]:
        """Everything a page shows: the hands with their blocks and totals, the end."""
        hands = []
        for r in self._count.results:
            s = r.score
            hands.append(
                {
                    **r.entry.to_dict(),
                    "number": r.number,
                    "factor": s.factor,
                    "blocks": {
                        b: [getattr(s, b)[0] * s.factor, getattr(s, b)[1] * s.factor]
                        for b in ("stoeck", "weis", "tricks", "match")
                    },
                    "points_written": list(s.totals),
                    "totals": list(r.totals),
                }
            )
        return {
            "name": self.name,
            "teams": list(self.teams),
            "target": self.rules.target,
            "hands": hands,
            "totals": list(self.totals),
            "winner": self.winner,
            "decided_in": self.decided_in,
            "decided_at": list(self.decided_at),
            "bergpreis": self.bergpreis,
            "marks": {k: list(v) for k, v in self.marks.items()},
            "striche": list(self.striche),
        }

    # --- JSON --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": 1,
            "name": self.name,
            "teams": list(self.teams),
            "rules": self.rules.to_dict(),
            "hands": [h.to_dict() for h in self._entries],
            **({"passe": self.passe} if self.passe else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ScoreSheet:
        """A sheet from its JSON form; every hand is checked again."""
        if not isinstance(d, Mapping) or d.get("format") != FORMAT:
            raise InvalidEntry.said_as("not_a_sheet", field="format", format=repr(FORMAT))
        try:
            rules = Rules.from_dict(d.get("rules", {}))
        except InvalidRules as e:
            raise InvalidEntry(f"the sheet's rules: {e}", field="rules") from e
        hands = d.get("hands", [])
        if not isinstance(hands, list):
            raise InvalidEntry("the sheet's hands must be a list", field="hands")
        return cls(rules, hands, d.get("name", ""), d.get("teams", ("A", "B")), d.get("passe", 0))

    @classmethod
    def from_json(cls, text: str) -> ScoreSheet:
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidEntry(f"the sheet is not valid JSON: {e}") from e
        return cls.from_dict(d)
