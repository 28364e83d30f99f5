"""The evening with drawn partners (le tournoi à la mêlée, Passen mit gelosten Partnern).

Players register alone. Before each round the partners and the tables are drawn at random:

1. **Byes.** When the players present are not a multiple of four, the round has
   ``4 × tables − players`` computer seats (at most three; ``tables`` = players / 4 rounded
   up). Each computer seat is the partner of one player: that player has a **bye** (*un
   joueur avec l'ordinateur*). The byes go to the players who have had the fewest so far
   (drawn among equals), so that, among players present from the start, no one has two byes
   more than another. The computer seat is marked as such on the draw.
2. **Partners.** The other players are paired so that nobody has a partner they already had,
   as long as that is possible; only when it is not are repeats allowed, as few times each as
   possible (``chibre.tournament.matching``).
3. **Tables.** The pairs are put two by two at the tables so that nobody meets an opponent
   they already met, again as long as that is possible; two pairs with a computer meet only
   when they must (five players). Among the drawings of partners with the fewest repeats,
   the first that lets the tables be drawn without repeated opponents is kept.

At a table, one pair sits at seats 0 and 2, the other at 1 and 3; which is which, and the table
numbers, are drawn.

**The bye score** (shown to the organiser): a player with a computer partner scores exactly as
anyone else — their team's points (or Striche) at their table; the computer player is not
ranked. A player who arrives late scores nothing for the rounds already played; one who
withdraws keeps what they scored and is no longer drawn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from random import Random

from chibre.tournament import COMPUTER, TournamentError
from chibre.tournament.matching import least_matching, matchings

CANDIDATES = 120
"""Drawings of partners tried (with the fewest repeats) in search of tables without repeated
opponents."""
_COMPUTERS_MEET = 1000
"""The cost of two pairs with a computer at one table: only when there is no other way."""

Pair = tuple[str, str]


@dataclass(frozen=True)
class Seating:
    """One table of a round: its number (from 1) and who sits at seats 0..3 (``COMPUTER``
    for a computer seat). Partners: seats 0 and 2, seats 1 and 3."""

    number: int
    seats: tuple[str, str, str, str]

    @property
    def teams(self) -> tuple[Pair, Pair]:
        s = self.seats
        return (s[0], s[2]), (s[1], s[3])

    def team_of(self, player: str) -> int:
        """The team (0 or 1) of ``player`` at this table; ``TournamentError`` if not here."""
        if player == COMPUTER or player not in self.seats:
            raise TournamentError(f"{player!r} does not play at table {self.number}")
        return self.seats.index(player) % 2

    @property
    def players(self) -> list[str]:
        return [p for p in self.seats if p != COMPUTER]


@dataclass(frozen=True)
class Draw:
    """The tables of one round (``round`` counts from 1)."""

    round: int
    tables: tuple[Seating, ...]

    @property
    def players(self) -> list[str]:
        return [p for t in self.tables for p in t.players]

    def table_of(self, player: str) -> Seating:
        for table in self.tables:
            if player in table.players:
                return table
        raise TournamentError(f"{player!r} does not play in round {self.round}")

    def byes(self) -> list[str]:
        """The players whose partner is a computer this round."""
        out = []
        for table in self.tables:
            for a, b in table.teams:
                if (a == COMPUTER) != (b == COMPUTER):
                    out.append(b if a == COMPUTER else a)
        return out


@dataclass
class Meetings:
    """What the rounds so far have done: partners and opponents met, byes had."""

    partners: Counter[frozenset[str]] = field(default_factory=Counter)
    opponents: Counter[frozenset[str]] = field(default_factory=Counter)
    byes: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, draws: Iterable[Draw]) -> Meetings:
        m = cls()
        for draw in draws:
            m.byes.update(draw.byes())
            for table in draw.tables:
                (a, c), (b, d) = table.teams
                for x, y in ((a, c), (b, d)):
                    if COMPUTER not in (x, y):
                        m.partners[frozenset((x, y))] += 1
                for x in (a, c):
                    for y in (b, d):
                        if COMPUTER not in (x, y):
                            m.opponents[frozenset((x, y))] += 1
        return m

    def partnered(self, a: str, b: str) -> int:
        return self.partners[frozenset((a, b))]

    def opposed(self, first: Pair, second: Pair) -> int:
        """How many times the players of two pairs have met as opponents."""
        return sum(
            self.opponents[frozenset((x, y))]
            for x in first
            for y in second
            if COMPUTER not in (x, y)
        )


def check_players(players: Sequence[str]) -> None:
    """``TournamentError`` unless the players are distinct names, at least four."""
    if len(players) < 4:
        raise TournamentError.said_as("few_players", n=str(len(players)))
    if len(set(players)) != len(players):
        twice = sorted(p for p, n in Counter(players).items() if n > 1)
        raise TournamentError(f"a player is entered twice: {', '.join(twice)}")
    if COMPUTER in players:
        raise TournamentError("a player needs a name")


def draw_round(players: Sequence[str], previous: Sequence[Draw], rng: Random) -> Draw:
    """The draw of the next round for the players present, given the rounds before."""
    check_players(players)
    met = Meetings.of(previous)
    tables = -(-len(players) // 4)
    computers = 4 * tables - len(players)
    present = sorted(players)
    rng.shuffle(present)
    present.sort(key=lambda p: met.byes[p])  # stable: drawn among equals
    with_bye, others = present[:computers], present[computers:]
    bye_pairs: list[Pair] = [(p, COMPUTER) for p in with_bye]

    _, level = least_matching(others, met.partnered, rng)
    best: tuple[int, list[tuple[Pair, Pair]]] | None = None
    tried = matchings(others, lambda a, b: met.partnered(a, b) <= level, rng)
    for partners in islice(tried, CANDIDATES):
        pairs = [*partners, *bye_pairs]
        tabled, cost = least_matching(pairs, lambda x, y: _table_cost(met, x, y), rng)
        if best is None or cost < best[0]:
            best = (cost, tabled)
        if cost == 0:
            break
    assert best is not None  # the level found has a matching
    rng.shuffle(best[1])
    seatings = []
    for number, (first, second) in enumerate(best[1], 1):
        if rng.random() < 0.5:
            first, second = second, first
        a, c = first if rng.random() < 0.5 else first[::-1]
        b, d = second if rng.random() < 0.5 else second[::-1]
        seatings.append(Seating(number, (a, b, c, d)))
    return Draw(len(previous) + 1, tuple(seatings))


def _table_cost(met: Meetings, first: Pair, second: Pair) -> int:
    if COMPUTER in first and COMPUTER in second:
        return _COMPUTERS_MEET + met.opposed(first, second)
    return met.opposed(first, second)


__all__ = ["Draw", "Meetings", "Seating", "check_players", "draw_round"]
