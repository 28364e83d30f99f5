"""What happened: the events a game emits, in order, for every accepted action.

Events carry only public facts, except ``HandStarted`` which says nothing of the cards: the
deal itself stays in the record and each seat sees its own cards through its observation.
"""

from __future__ import annotations

from typing import NamedTuple

from chibre.weis import Weis


class HandStarted(NamedTuple):
    number: int  # 0-based within the game
    dealer: int
    chooser: int


class Chibred(NamedTuple):
    seat: int


class ContractNamed(NamedTuple):
    seat: int
    contract: int
    factor: int


class CardPlayed(NamedTuple):
    seat: int
    card: int


class WeisAnnounced(NamedTuple):
    """The value of a seat's best weis, said at the first trick (nothing else is public)."""

    seat: int
    points: int


class WeisAdded(NamedTuple):
    """A further weis declared by a seat that announced at the first trick (before the lead to
    the second trick). Public: that the seat declared more; the points and the cards only when
    its team has won the weis comparison (then they are credited and shown at once)."""

    seat: int
    points: int  # after the multiplier; 0 before the comparison or for the other team
    shown: tuple[tuple[int, Weis], ...]  # (seat, weis) shown now; empty unless credited


class StoeckDeclared(NamedTuple):
    seat: int
    points: int  # after the multiplier


class TrickTaken(NamedTuple):
    number: int  # 0..8
    winner: int  # seat
    points: int  # card points (+5 on the last trick), before the multiplier


class WeisScored(NamedTuple):
    """After the first trick: the team with the best weis scores all of its weis, shown."""

    team: int
    points: int  # after the multiplier
    shown: tuple[tuple[int, Weis], ...]  # (seat, weis) of the winning team


class HandScored(NamedTuple):
    points: tuple[int, int]  # each team's hand total after the multiplier
    match_team: int  # the team that took all nine tricks, or -1


class Thanked(NamedTuple):
    seat: int
    correct: bool


class GameWon(NamedTuple):
    team: int
    totals: tuple[int, int]  # when the game was decided
    striche: tuple[int, int]


Event = (
    HandStarted
    | Chibred
    | ContractNamed
    | CardPlayed
    | WeisAnnounced
    | WeisAdded
    | StoeckDeclared
    | TrickTaken
    | WeisScored
    | HandScored
    | Thanked
    | GameWon
)
