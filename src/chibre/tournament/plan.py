"""A tournament's plan: its format and options, and the tables of each round as every format
draws them, in one shape that the command line and the server both play.

A ``TableDraw`` says who sits at each seat (a player, or ``COMPUTER``) and which entrants each
side credits: the two players of a drawn pair (evening), or a fixed team's name. A fixed team
``T`` of players ``P`` and ``Q`` sits ``P`` at seat 0 (or 1) and ``Q`` at seat 2 (or 3); a
computer team is two computer seats and credits nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from chibre.game import Game
from chibre.tournament import COMPUTER, TournamentError
from chibre.tournament.evening import Draw, Seating, draw_round
from chibre.tournament.passe import MAX_HANDS
from chibre.tournament.standings import SCORINGS, Outcome, Side
from chibre.tournament.teams import round_robin, round_robin_rounds, swiss_round

FORMATS = ("evening", "round-robin", "swiss")
MAX_ROUNDS = 30


@dataclass(frozen=True)
class Options:
    """How a tournament plays: the format, the rounds, a game to the target (``hands`` 0) or
    a Passe of ``hands`` hands, how it scores, and whether rounds are duplicate."""

    format: str = "evening"
    rounds: int = 3
    hands: int = 0
    scoring: str = "points"
    duplicate: bool = False

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise TournamentError(
                f"format is one of {', '.join(FORMATS)}, not {self.format!r}", "format"
            )
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise TournamentError(f"rounds: from 1 to {MAX_ROUNDS}, not {self.rounds}", "rounds")
        if not 0 <= self.hands <= MAX_HANDS:
            raise TournamentError(
                f"hands: 0 (a game to the target) to {MAX_HANDS}, not {self.hands}"
            )
        if self.scoring not in SCORINGS:
            raise TournamentError(
                f"scoring is {' or '.join(SCORINGS)}, not {self.scoring!r}", "scoring"
            )
        if self.duplicate and not self.hands:
            raise TournamentError.said_as("duplicate_passe", "hands")
        if self.scoring == "striche" and self.hands:
            raise TournamentError.said_as("passe_points", "scoring")

    @property
    def tie_breaks(self) -> tuple[str, ...]:
        return ("buchholz", "difference") if self.format == "swiss" else ("difference",)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "rounds": self.rounds,
            "hands": self.hands,
            "scoring": self.scoring,
            "duplicate": self.duplicate,
        }


@dataclass(frozen=True)
class TableDraw:
    """A table of a round: its number (from 1), who sits at seats 0..3, whom each side
    credits."""

    number: int
    seats: tuple[str, str, str, str]
    sides: tuple[tuple[str, ...], tuple[str, ...]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.number,
            "seats": list(self.seats),
            "sides": [list(s) for s in self.sides],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableDraw:
        s = [str(x) for x in d["seats"]]
        a, b = ([str(x) for x in side] for side in d["sides"])
        return cls(int(d["table"]), (s[0], s[1], s[2], s[3]), (tuple(a), tuple(b)))


def draw_next(
    options: Options,
    entered: Sequence[str],
    present: Sequence[str],
    members: Mapping[str, tuple[str, str]],
    previous: Sequence[Sequence[TableDraw]],
    outcomes: Sequence[Outcome],
    rng: Random,
) -> list[TableDraw]:
    """The tables of the next round. ``entered``: every entrant in order of entry (players for
    an evening, teams otherwise); ``present``: those playing this round; ``members``: each
    team's two players."""
    number = len(previous) + 1
    if number > options.rounds:
        raise TournamentError.said_as("all_drawn", rounds=str(options.rounds))
    if options.format == "evening":
        draws = [
            Draw(n + 1, tuple(Seating(t.number, t.seats) for t in r))
            for n, r in enumerate(previous)
        ]
        draw = draw_round(present, draws, rng)
        return [TableDraw(t.number, t.seats, _credited(t)) for t in draw.tables]
    if options.format == "round-robin":
        if options.rounds > round_robin_rounds(len(entered)):
            raise TournamentError.said_as(
                "round_robin_rounds",
                teams=str(len(entered)),
                rounds=str(round_robin_rounds(len(entered))),
                asked=str(options.rounds),
            )
        games = round_robin(entered, number, present)
    else:
        games = swiss_round(present, outcomes, rng, options.scoring)
    tables = []
    for n, (a, b) in enumerate(games, 1):
        pa = members[a]
        pb = members[b] if b != COMPUTER else (COMPUTER, COMPUTER)
        sides: tuple[tuple[str, ...], tuple[str, ...]] = ((a,), (b,) if b != COMPUTER else ())
        tables.append(TableDraw(n, (pa[0], pb[0], pa[1], pb[1]), sides))
    return tables


def _credited(table: Seating) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The players each team of a drawn table credits (a computer credits nobody)."""
    first, second = (tuple(p for p in team if p != COMPUTER) for team in table.teams)
    return first, second


def outcome_of(game: Game, table: TableDraw, round_number: int, options: Options) -> Outcome:
    """A finished table's outcome: each side's points and Striche as the game wrote them."""
    a, b = (Side(table.sides[t], game.totals[t], game.striche[t]) for t in (0, 1))
    return Outcome(round_number, table.number, (a, b), game.winner)


__all__ = [
    "FORMATS",
    "MAX_HANDS",
    "MAX_ROUNDS",
    "Options",
    "TableDraw",
    "draw_next",
    "outcome_of",
]
