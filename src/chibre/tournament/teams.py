"""Fixed teams (les équipes fixes, feste Teams): teams of two register, and each round pairs
them two by two, one game per table.

- **Round-robin** (*toutes rondes*): every team meets every other once, by the circle method
  on the teams in their order of entry. With an odd number of teams each round one team meets
  the **computer team** (a table of two computer players, marked as such) instead — each team
  once. A team that withdraws leaves its place in the schedule to the computer team.
- **Swiss** (*système suisse*): before each round the teams are ranked (score, then Buchholz,
  then points difference; the first round in a drawn order) and paired by **power pairing**:
  the best-placed team not yet paired meets the best-placed team below it that it has not met
  yet. A rematch happens only when no pairing without one is possible, and then as few times
  each as possible. With an odd number of teams, the lowest-placed team among those with the
  fewest byes meets the computer team.

A round is a list of ``(team, team)`` games; the second may be ``COMPUTER``. The ranking's tie
breaks are those of ``chibre.tournament.standings``: Buchholz, then points difference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from random import Random

from chibre.tournament import COMPUTER, TournamentError
from chibre.tournament.standings import Outcome, standings

Game = tuple[str, str]

SWISS_TIE_BREAKS = ("buchholz", "difference")
BUDGET = 20_000
"""Pairings tried per level of the Swiss search."""


def check_teams(teams: Sequence[str]) -> None:
    if len(teams) < 2:
        raise TournamentError.said_as("few_teams", n=str(len(teams)))
    if len(set(teams)) != len(teams):
        raise TournamentError("a team is entered twice")
    if COMPUTER in teams:
        raise TournamentError("a team needs a name")


def round_robin_rounds(count: int) -> int:
    """How many rounds a round-robin of ``count`` teams has."""
    return count - 1 if count % 2 == 0 else count


def round_robin(
    entered: Sequence[str], number: int, present: Sequence[str] | None = None
) -> list[Game]:
    """Round ``number`` (from 1) of the round-robin of the teams ``entered`` (in order of
    entry); a team not ``present`` (withdrawn) is replaced by the computer team."""
    check_teams(entered)
    rounds = round_robin_rounds(len(entered))
    if not 1 <= number <= rounds:
        raise TournamentError(f"a round-robin of {len(entered)} teams has rounds 1 to {rounds}")
    here = set(entered if present is None else present)
    ring = list(entered) + ([COMPUTER] if len(entered) % 2 else [])
    n = len(ring)
    # the circle method: the first team stays, the others turn one place per round
    others, k = ring[1:], (number - 1) % (n - 1)
    turned = [ring[0], *others[len(others) - k :], *others[: len(others) - k]]
    games = []
    for i in range(n // 2):
        a, b = turned[i], turned[n - 1 - i]
        a = a if a in here else COMPUTER
        b = b if b in here else COMPUTER
        if a == COMPUTER:
            a, b = b, a
        if a != COMPUTER:
            games.append((a, b))
    return games


def swiss_round(
    teams: Sequence[str],
    previous: Sequence[Outcome],
    rng: Random,
    scoring: str = "points",
) -> list[Game]:
    """The next Swiss round of the teams present, from the outcomes of the rounds before."""
    check_teams(teams)
    played = {e for o in previous for side in o.sides for e in side.entrants}
    everyone = [*teams, *sorted(played - set(teams))]  # withdrawn teams still count (Buchholz)
    table = {s.entrant: s for s in standings(everyone, previous, scoring, SWISS_TIE_BREAKS)}
    order = list(teams)
    rng.shuffle(order)  # the first round, and teams equal on everything: drawn
    order.sort(key=lambda t: (table[t].score, table[t].buchholz, table[t].difference), reverse=True)
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for outcome in previous:
        a, b = (s.entrants[0] if s.entrants else COMPUTER for s in outcome.sides)
        met[frozenset((a, b))] += 1
        for team, other in ((a, b), (b, a)):
            if other == COMPUTER:
                byes[team] += 1
    games: list[Game] = []
    if len(order) % 2:
        fewest = min(byes[t] for t in order)
        bye = next(t for t in reversed(order) if byes[t] == fewest)
        order.remove(bye)
        games_bye: list[Game] = [(bye, COMPUTER)]
    else:
        games_bye = []
    levels = sorted({met[frozenset((a, b))] for a in order for b in order if a != b} | {0})
    for level in levels:
        found = next(_power_pairings(order, met, level), None)
        if found is not None:
            games = found
            break
    return games + games_bye


def _power_pairings(
    order: list[str], met: Counter[frozenset[str]], level: int
) -> Iterator[list[Game]]:
    """Pairings of the ranked teams in power-pairing order, no two having met more than
    ``level`` times, until the budget runs out."""
    left = [BUDGET]
    free = list(order)
    games: list[Game] = []

    def search() -> Iterator[list[Game]]:
        if not free:
            yield list(games)
            return
        top = free.pop(0)
        for i, other in enumerate(free):
            left[0] -= 1
            if left[0] < 0:
                break
            if met[frozenset((top, other))] > level:
                continue
            free.pop(i)
            games.append((top, other))
            yield from search()
            games.pop()
            free.insert(i, other)
        free.insert(0, top)

    yield from search()


__all__ = ["SWISS_TIE_BREAKS", "check_teams", "round_robin", "round_robin_rounds", "swiss_round"]
