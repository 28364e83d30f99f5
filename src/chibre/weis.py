"""Weis (annonces) and stöck — RULES.md §5.

A ``Weis`` is one combination held from the deal: a sequence (3+ consecutive cards of one suit,
natural order 6 … A) or a four of a kind (carré). ``best_weis(hand, rules, contract)`` is what
the table announces for a player (the set with the best single weis, then the highest total);
``weis_key`` orders weis across the table by the comparison ladder, and ``weis_reason`` says on
which of its steps the best weis beat the other team's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import NamedTuple

from chibre.cards import RANK_CODES, RANK_MASKS, SUIT_MASKS, SUIT_SYMBOLS, cards_of
from chibre.play import UNDENUFE
from chibre.refusals import refused
from chibre.rules import Rules

SEQUENCE = "sequence"
CARRE = "carre"
STOECK_POINTS = 20


class Weis(NamedTuple):
    """Une annonce / ein Weis: the cards and what they are worth under the table's rules."""

    cards: int  # the cards, as a set
    kind: str  # SEQUENCE or CARRE
    points: int
    length: int  # number of cards
    suit: int  # the sequence's suit; -1 for a carré
    top: int  # natural rank of the highest card (a carré: its rank)
    low: int  # natural rank of the lowest card (a carré: its rank)

    def describe(self) -> str:
        if self.kind == CARRE:
            return f"four {RANK_CODES[self.top]} ({self.points})"
        sym = SUIT_SYMBOLS[self.suit]
        return f"{sym}{RANK_CODES[self.low]}–{sym}{RANK_CODES[self.top]} ({self.points})"


def sequence_points(length: int, big_sequences: bool = True) -> int:
    """A sequence's value: 3 → 20, 4 → 50, 5 → 100, then 150 … 300 with ``big_sequences``
    (else 100 for any five or more)."""
    if length < 3:
        return 0
    if length >= 5 and not big_sequences:
        return 100
    return (20, 50, 100, 150, 200, 250, 300)[length - 3]


def carre_points(rank: int, rules: Rules) -> int:
    if rank == 5:  # four jacks / Under
        return 200
    if rank == 3:  # four nines
        return 150
    if rank >= 4:
        return 100
    return 100 if rules.low_carres_100 else 0


def _sequence(suit: int, low: int, length: int, big_sequences: bool) -> Weis:
    bits = ((1 << length) - 1) << (9 * suit + low)
    points = sequence_points(length, big_sequences)
    return Weis(bits, SEQUENCE, points, length, suit, low + length - 1, low)


def _carre(rank: int, rules: Rules) -> Weis:
    return Weis(RANK_MASKS[rank], CARRE, carre_points(rank, rules), 4, -1, rank, rank)


def _runs(bits9: int) -> list[tuple[int, int]]:
    """Maximal runs (low rank, length) of at least 3 in a 9-bit suit pattern."""
    runs, r = [], 0
    while r < 9:
        if bits9 >> r & 1:
            start = r
            while r < 9 and bits9 >> r & 1:
                r += 1
            if r - start >= 3:
                runs.append((start, r - start))
        else:
            r += 1
    return runs


_RUNS = tuple(_runs(b) for b in range(512))


def _suit_sequences(suit: int, bits9: int, big: bool, low_first: bool) -> tuple[Weis, ...]:
    """The sequences of one suit: each run whole, or (``big_sequences`` off) an 8- or 9-card
    run split into five and the rest — the five at the top, or at the bottom where the low
    cards rank first (Undenufe under ``undenufe_low_weis``)."""
    out = []
    for low, length in _RUNS[bits9]:
        if length >= 8 and not big:
            five = low if low_first else low + length - 5
            rest = low + 5 if low_first else low
            out.append(_sequence(suit, five, 5, big))
            out.append(_sequence(suit, rest, length - 5, big))
        else:
            out.append(_sequence(suit, low, length, big))
    return tuple(out)


_SEQUENCE_TABLES = {
    (big, low_first): tuple(
        tuple(_suit_sequences(s, b, big, low_first) for b in range(512)) for s in range(4)
    )
    for big in (True, False)
    for low_first in (True, False)
}


_RUN_STARTS = sum(0x7F << (9 * s) for s in range(4))
"""Where a run of three can start: ranks 6 … Q of each suit (ranks 0..6)."""


def _sequences(hand: int, rules: Rules, contract: int) -> tuple[Weis, ...]:
    low_first = contract == UNDENUFE and rules.undenufe_low_weis
    d, h, s, c = _SEQUENCE_TABLES[rules.big_sequences, low_first]
    return d[hand & 0x1FF] + h[(hand >> 9) & 0x1FF] + s[(hand >> 18) & 0x1FF] + c[hand >> 27]


def _carres(hand: int, rules: Rules) -> list[Weis]:
    fours = hand & (hand >> 9) & (hand >> 18) & (hand >> 27) & 0x1FF
    if not fours:
        return []
    return [_carre(r, rules) for r in range(9) if fours >> r & 1 and carre_points(r, rules)]


def _set_key(ws: Sequence[Weis]) -> tuple[int, int, int]:
    if not ws:
        return (0, 0, 0)
    best = max(ws, key=lambda w: (w.points, w.length))
    return (best.points, best.length, sum(w.points for w in ws))


def best_weis(hand: int, rules: Rules, contract: int = -1) -> tuple[Weis, ...]:
    """Every weis the player scores with in ``contract``: what ``auto_weis`` announces.

    With ``kreuzweis`` a card may serve a sequence and a carré; without it the player keeps
    the non-overlapping set with the best single weis, then the highest total (RULES.md §5).
    """
    if not (hand & (hand >> 9) & (hand >> 18) & (hand >> 27) & 0x1FF):  # no four of a kind
        if not hand & (hand >> 1) & (hand >> 2) & _RUN_STARTS:  # nor three in a row
            return ()
        return _sequences(hand, rules, contract)
    carres = _carres(hand, rules)
    if not carres:
        return _sequences(hand, rules, contract)
    if rules.kreuzweis:
        return _sequences(hand, rules, contract) + tuple(carres)
    best: tuple[Weis, ...] = ()
    for n in range(len(carres) + 1):
        for chosen in combinations(carres, n):
            used = 0
            for w in chosen:
                used |= w.cards
            candidate = _sequences(hand & ~used, rules, contract) + chosen
            if _set_key(candidate) > _set_key(best):
                best = candidate
    return best


def weis_of(cards: int, rules: Rules) -> Weis:
    """Read one weis from its cards; ``IllegalAction`` if they form none."""
    cs = cards_of(cards)
    if len(cs) == 4 and len({c % 9 for c in cs}) == 1:
        w = _carre(cs[0] % 9, rules)
        if w.points:
            return w
        raise refused("no_carre", rank=cs[0] % 9)
    suits = {c // 9 for c in cs}
    if len(cs) >= 3 and len(suits) == 1:
        ranks = [c % 9 for c in cs]
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return _sequence(cs[0] // 9, ranks[0], len(cs), rules.big_sequences)
    raise refused("not_a_weis")


def check_declaration(hand: int, declared: Iterable[Weis], rules: Rules) -> None:
    """Raise ``IllegalAction`` unless a player holding ``hand`` may declare these weis."""
    ws = list(declared)
    for w in ws:
        if w.cards & ~hand:
            raise refused("weis_not_held", cards=w.cards)
    for a, b in combinations(ws, 2):
        both_sequences = a.kind == SEQUENCE and b.kind == SEQUENCE
        if a.cards & b.cards and (both_sequences or not rules.kreuzweis or a == b):
            raise refused(
                "weis_share" if both_sequences else "weis_share_kreuzweis", a=a.cards, b=b.cards
            )
        if (
            both_sequences
            and rules.big_sequences
            and a.suit == b.suit
            and (a.top + 1 == b.low or b.top + 1 == a.low)
        ):
            raise refused("weis_one_sequence", a=a.cards, b=b.cards)


def weis_key(w: Weis, contract: int, position: int, rules: Rules) -> tuple[int, int, int, int, int]:
    """Comparison key of a weis at the table — the greater wins (RULES.md §5).

    Points, then number of cards, then the top card (or carré rank) — reversed in Undenufe
    under ``undenufe_low_weis`` —, then a sequence in trump, then the earlier ``position`` in
    play order from the leader of the first trick (0 = the leader).
    """
    rank = 8 - w.low if contract == UNDENUFE and rules.undenufe_low_weis else w.top
    in_trump = int(w.kind == SEQUENCE and w.suit == contract)
    return (w.points, w.length, rank, in_trump, -position)


def _keyed(
    compared: Sequence[Sequence[Weis]], contract: int, leader: int, rules: Rules
) -> Iterator[tuple[tuple[int, int, int, int, int], int]]:
    """Each weis that compares, as (its ``weis_key``, its seat)."""
    for seat in range(4):
        for w in compared[seat]:
            yield weis_key(w, contract, (seat - leader) & 3, rules), seat


def weis_winner(
    compared: Sequence[Sequence[Weis]], contract: int, leader: int, rules: Rules
) -> int:
    """The seat whose weis wins the comparison (RULES.md §5), -1 when nobody has one:
    ``compared[s]`` the weis of seat ``s`` that compare (those of its announcement),
    ``leader`` the seat that led the first trick."""
    return max(_keyed(compared, contract, leader, rules), default=(None, -1))[1]


WEIS_REASONS = ("points", "cards", "top", "trump", "order")
"""Why one weis beats another, the steps of the comparison in order (RULES.md §5): more points,
more cards, the higher top card or carré (the lower in Undenufe under ``undenufe_low_weis``), a
sequence in trump, the player earlier in play order."""


def weis_reason(
    compared: Sequence[Sequence[Weis]], contract: int, leader: int, rules: Rules
) -> str | None:
    """Why the best weis at the table beat the other team's best (pourquoi l'annonce gagne /
    warum der Wys gewinnt): the first step of ``WEIS_REASONS`` that parts the two teams' best
    weis; ``None`` when only one team announced (nothing was compared) or nobody did.
    ``compared`` and ``leader`` as for ``weis_winner``. It names no card of either team."""
    keyed = list(_keyed(compared, contract, leader, rules))
    ours, theirs = (max((k for k, s in keyed if s & 1 == team), default=None) for team in (0, 1))
    if ours is None or theirs is None:
        return None
    return next(why for why, a, b in zip(WEIS_REASONS, ours, theirs, strict=True) if a != b)


STOECK_CARDS = tuple(
    SUIT_MASKS[k] & (RANK_MASKS[6] | RANK_MASKS[7]) if k < 4 else 0 for k in range(6)
)
"""STOECK_CARDS[contract]: king and queen (Ober) of trump; empty for Obenabe and Undenufe."""
