"""Standings (le classement, die Rangliste): who stands where after the rounds played.

Each game of a round gives an ``Outcome``: for each of its two sides, the entrants it credits
(the players of a drawn pair, or a fixed team's name; never a computer) with the side's points
and Striche. An entrant's **score** is the sum over their games of their side's points
(``scoring = "points"``, the default, as Geneva evenings count) or Striche
(``scoring = "striche"``, as clubs count). In duplicate rounds the score is instead the sum
of the entrant's duplicate results (``chibre.tournament.duplicate.compare``), passed in.

Ties are broken, in order, by the format's tie-breaks:

- ``buchholz`` (fixed teams, Swiss): the sum of the scores of the opponents met (a computer
  team adds nothing);
- ``difference``: points made minus points conceded over all games.

Entrants equal on the score and every tie-break share a rank (1, 2, 2, 4 …), listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from chibre.tournament import TournamentError

SCORINGS = ("points", "striche")
TIE_BREAKS = ("buchholz", "difference")


@dataclass(frozen=True)
class Side:
    """One side of a game: the entrants it credits, its points and its Striche."""

    entrants: tuple[str, ...]
    points: int
    striche: int = 0


@dataclass(frozen=True)
class Outcome:
    """The result of one game: round, table, its two sides, the side that won (-1: none, as
    after a Passe of a fixed number of hands)."""

    round: int
    table: int
    sides: tuple[Side, Side]
    winner: int = -1


@dataclass
class Standing:
    """One line of the standings."""

    entrant: str
    rank: int = 0
    score: float = 0
    points: int = 0
    against: int = 0
    striche: int = 0
    games: int = 0
    won: int = 0
    buchholz: float = 0
    opponents: list[str] = field(default_factory=list)

    @property
    def difference(self) -> int:
        return self.points - self.against

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "score": self.score,
            "points": self.points,
            "against": self.against,
            "difference": self.difference,
            "striche": self.striche,
            "games": self.games,
            "won": self.won,
            "buchholz": self.buchholz,
        }


def standings(
    entrants: Iterable[str],
    outcomes: Iterable[Outcome],
    scoring: str = "points",
    tie_breaks: Sequence[str] = ("difference",),
    duplicate: Mapping[str, float] | None = None,
) -> list[Standing]:
    """The standings of ``entrants`` (every one listed, with or without games) from the
    outcomes, ranked by score and then the tie-breaks; ``duplicate``: each entrant's duplicate
    results, which are then the score."""
    if scoring not in SCORINGS:
        raise TournamentError(f"scoring is {' or '.join(SCORINGS)}, not {scoring!r}")
    unknown = [t for t in tie_breaks if t not in TIE_BREAKS]
    if unknown:
        raise TournamentError(f"no tie-break {unknown[0]!r}: choose from {', '.join(TIE_BREAKS)}")
    lines = {e: Standing(e) for e in entrants}
    for outcome in outcomes:
        for i, side in enumerate(outcome.sides):
            other = outcome.sides[1 - i]
            for entrant in side.entrants:
                if entrant not in lines:
                    raise TournamentError(f"{entrant!r} played but is not entered")
                line = lines[entrant]
                line.points += side.points
                line.against += other.points
                line.striche += side.striche
                line.games += 1
                line.won += outcome.winner == i
                line.opponents.extend(other.entrants)
    for line in lines.values():
        if duplicate is not None:
            line.score = round(duplicate.get(line.entrant, 0.0), 6)
        else:
            line.score = line.points if scoring == "points" else line.striche
    for line in lines.values():
        line.buchholz = sum(lines[o].score for o in line.opponents)

    def key(line: Standing) -> tuple[float, ...]:
        return (line.score, *(getattr(line, t) for t in tie_breaks))

    ranked = sorted(lines.values(), key=lambda s: s.entrant)
    ranked.sort(key=key, reverse=True)
    for n, line in enumerate(ranked):
        line.rank = ranked[n - 1].rank if n and key(ranked[n - 1]) == key(line) else n + 1
    return ranked


__all__ = ["SCORINGS", "TIE_BREAKS", "Outcome", "Side", "Standing", "standings"]
