"""Duplicate rounds (le duplicate, Duplikat-Jass): the luck of the cards taken out.

Every table of a round plays the same deals, as a Passe of a fixed number of hands. Tables
1, 3, 5 … hold them as dealt; at tables 2, 4, 6 … the deal is **turned**: seat ``s`` holds the
cards of seat ``s + 1``, so the cards that team 0 (seats 0, 2) holds at one table team 1 holds
at the next. The dealer turns with them, so the same cards deal and choose first everywhere.

A deal's two halves are its **sides**: side 0 the cards dealt to seats 0 and 2, side 1 those of
seats 1 and 3. For each deal, a team's duplicate result is its points minus the mean points of
the other teams that held the same side; a team's round result is the sum over the deals. The
results of a round add up to zero: only the play of the cards counts, not which cards came.
A duplicate round needs at least two tables.

The deals come from the round's seed (``chibre.tournament.fairdeal.DealSource``, ``turned`` at
the turned tables), committed to before the round and revealed after it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from chibre.rules import Rules
from chibre.tournament import TournamentError


def check_rules(rules: Rules) -> None:
    """``TournamentError`` for rules under which a turned table cannot deal and choose as the
    others: a first chooser fixed to a seat (``first_chooser = first_seat``) does not turn."""
    if rules.first_chooser == "first_seat":
        raise TournamentError(
            "duplicate rounds turn the deal with the cards: first_chooser is card or "
            "right_of_dealer, not first_seat",
            "options",
        )


def is_turned(table: int) -> bool:
    """Whether table ``table`` (from 1) holds the deals turned."""
    return table % 2 == 0


def side_of(team: int, table: int) -> int:
    """The side (cards of seats 0/2 as dealt: 0; of seats 1/3: 1) that ``team`` holds."""
    return team ^ 1 if is_turned(table) else team


@dataclass(frozen=True)
class TablePlay:
    """What one table of a duplicate round did: its number, the entrants of its two teams,
    and the points of each team in each deal."""

    table: int
    teams: tuple[tuple[str, ...], tuple[str, ...]]
    points: Sequence[tuple[int, int]]


def compare(plays: Sequence[TablePlay]) -> dict[str, float]:
    """Each entrant's duplicate result over the round: per deal, the points of its team minus
    the mean of the other teams that held the same side."""
    if len(plays) < 2:
        raise TournamentError("a duplicate round needs at least two tables")
    deals = {len(p.points) for p in plays}
    if len(deals) != 1:
        raise TournamentError("every table of a duplicate round plays the same number of deals")
    held: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)  # (deal, side)
    for n, play in enumerate(plays):
        for k, points in enumerate(play.points):
            for team in (0, 1):
                held[k, side_of(team, play.table)].append((n, points[team]))
    result: dict[str, float] = defaultdict(float)
    for (_, side), scores in held.items():
        total = sum(made for _, made in scores)
        for n, made in scores:
            others = (total - made) / (len(scores) - 1)
            play = plays[n]
            team = next(t for t in (0, 1) if side_of(t, play.table) == side)
            for entrant in play.teams[team]:
                result[entrant] += made - others
    return dict(result)


__all__ = ["TablePlay", "compare", "is_turned", "side_of"]
