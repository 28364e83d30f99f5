"""What a seat can do — and the deal, the chance step that starts each hand.

Actions are small immutable tuples; a game record is the list of them. The seat that acts is
given beside the action (``Game.apply(action, seat)``), never inside it.
"""

from __future__ import annotations

from typing import NamedTuple


class Deal(NamedTuple):
    """La donne: the four hands (sets of 9 cards, by seat) and the dealer."""

    hands: tuple[int, int, int, int]
    dealer: int


class Chibre(NamedTuple):
    """Chibrer / schieben: pass the choice of the contract to the partner."""

    # Two empty tuples are equal: compare by kind, so that ``Chibre() != Thank()``.
    def __eq__(self, other: object) -> bool:
        return type(other) is Chibre

    def __ne__(self, other: object) -> bool:
        return type(other) is not Chibre

    def __hash__(self) -> int:
        return hash("Chibre")


class Choose(NamedTuple):
    """Name the contract (0..3 trump ♦ ♥ ♠ ♣, 4 Obenabe, 5 Undenufe).

    ``double`` is the pique double (rules ``pique_double = choice``), only with ♠.
    """

    contract: int
    double: bool = False


class Play(NamedTuple):
    """Play a card, declaring with it (when the table does not do it itself)
    the weis — at the first trick, each weis as a set of cards — and the stöck."""

    card: int
    weis: tuple[int, ...] = ()
    stoeck: bool = False


class Declare(NamedTuple):
    """Annoncer / weisen outside one's card (rules ``auto_weis`` or ``auto_stoeck`` off).

    Any seat may declare in its window, whether it is its turn or not (RULES.md §5, §7):
    weis at the first trick after its own card until the next player plays, further weis
    (after an announcement) until the lead to the second trick; stöck after the second of
    king and queen until the next player plays, at the first trick with a weis that holds
    them (``stoeck_in_weis``), or at any moment when they take the team to the target
    (``immediate``). Each weis is a set of cards, as in ``Play``.
    """

    weis: tuple[int, ...] = ()
    stoeck: bool = False


class Thank(NamedTuple):
    """Sich bedanken / remercier: claim the game (rules ``claim = thank``)."""

    def __eq__(self, other: object) -> bool:
        return type(other) is Thank

    def __ne__(self, other: object) -> bool:
        return type(other) is not Thank

    def __hash__(self) -> int:
        return hash("Thank")


Action = Chibre | Choose | Play | Declare | Thank
