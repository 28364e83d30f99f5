"""Playing a trick: which cards are legal, who wins the trick, what the cards are worth.

Pure functions on hands as 36-bit ints, with tables precomputed per contract (RULES.md §3–§4).
A contract is an int: 0..3 the trump suit (♦ ♥ ♠ ♣), 4 Obenabe, 5 Undenufe.
"""

from __future__ import annotations

from collections.abc import Sequence

from chibre.cards import SUIT_MASKS, SUIT_SYMBOLS, card_symbol, cards_of
from chibre.i18n import text

OBENABE = 4
UNDENUFE = 5
N_CONTRACTS = 6

LAST_TRICK_BONUS = 5
MATCH_BONUS = 100

# Rank order of the trump suit, weakest first: 6 7 8 10 Q K A 9 J.
_TRUMP_ORDER = (0, 1, 2, 4, 6, 7, 8, 3, 5)
TRUMP_STRENGTH = tuple(_TRUMP_ORDER.index(r) for r in range(9))
"""Strength of a trump by natural rank (6 → 0 … bourg J → 8)."""

_TRUMP_POINTS = (0, 0, 0, 14, 10, 20, 3, 4, 11)
_PLAIN_POINTS = (0, 0, 0, 0, 10, 2, 3, 4, 11)
_OBENABE_POINTS = (0, 0, 8, 0, 10, 2, 3, 4, 11)
_UNDENUFE_POINTS = (11, 0, 8, 0, 10, 2, 3, 4, 0)


def _points_table(contract: int) -> tuple[int, ...]:
    if contract == OBENABE:
        return tuple(_OBENABE_POINTS[c % 9] for c in range(36))
    if contract == UNDENUFE:
        return tuple(_UNDENUFE_POINTS[c % 9] for c in range(36))
    return tuple((_TRUMP_POINTS if c // 9 == contract else _PLAIN_POINTS)[c % 9] for c in range(36))


CARD_POINTS: tuple[tuple[int, ...], ...] = tuple(_points_table(k) for k in range(N_CONTRACTS))
"""CARD_POINTS[contract][card]: the card's value in that contract."""


def _strength_table(contract: int, led: int) -> tuple[int, ...]:
    """How strongly each card bids for a trick led in suit ``led``; -1 never wins."""
    out = []
    for c in range(36):
        s, r = divmod(c, 9)
        if contract < 4 and s == contract:
            out.append(100 + TRUMP_STRENGTH[r])
        elif s != led:
            out.append(-1)
        elif contract == UNDENUFE:
            out.append(8 - r)
        else:
            out.append(r)
    return tuple(out)


STRENGTH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_strength_table(k, led) for led in range(4)) for k in range(N_CONTRACTS)
)
"""STRENGTH[contract][led suit][card]: the higher wins the trick."""

BOURG = tuple(1 << (9 * s + 5) for s in range(4))
"""The bourg (trump jack, Puur) of each suit, as a one-card set."""

LOWER_TRUMPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(
            1 << (9 * t + r)
            for r in range(9)
            if c // 9 == t and TRUMP_STRENGTH[r] < TRUMP_STRENGTH[c % 9]
        )
        for c in range(36)
    )
    for t in range(4)
)
"""LOWER_TRUMPS[trump][card]: the trumps ranked below ``card`` (empty unless it is a trump)."""


def highest_trump(trick: Sequence[int], trump: int) -> int:
    """The highest-ranked trump in the trick, or -1."""
    best, best_strength = -1, -1
    for c in trick:
        if c // 9 == trump and TRUMP_STRENGTH[c % 9] > best_strength:
            best, best_strength = c, TRUMP_STRENGTH[c % 9]
    return best


def legal_cards(hand: int, trick: Sequence[int], contract: int) -> int:
    """The cards of ``hand`` that may be played on ``trick`` (cards so far, in play order)."""
    if not trick:
        return hand
    led = trick[0] // 9
    follow = hand & SUIT_MASKS[led]
    if contract >= 4:
        return follow or hand
    trumps = hand & SUIT_MASKS[contract]
    if led == contract:
        # Trump led: follow with a trump — but the bourg is never forced out.
        return trumps if trumps and trumps != BOURG[contract] else hand
    allowed = (follow | trumps) if follow else hand
    if trumps != hand:
        high = highest_trump(trick, contract)
        if high >= 0:
            allowed &= ~LOWER_TRUMPS[contract][high]
    return allowed


IllegalReason = tuple[str, dict[str, int]]
"""Why a card may not be played: a catalogue key (``illegal.…``) and its fields — ``card``,
``high`` (cards), ``suit`` (a suit) and ``held`` (a set of cards, as an int)."""


def illegal_reason(hand: int, trick: Sequence[int], contract: int, c: int) -> IllegalReason | None:
    """Which rule forbids playing ``c`` now, and the cards it names; ``None`` when it is
    legal. Each language words it (:func:`why_illegal`, the terminal)."""
    if not hand >> c & 1:
        return "illegal.held", {"card": c}
    if legal_cards(hand, trick, contract) >> c & 1:
        return None
    led = trick[0] // 9
    follow = hand & SUIT_MASKS[led]
    if contract >= 4:
        return "illegal.follow", {"suit": led, "held": follow}
    trumps = hand & SUIT_MASKS[contract]
    if led == contract:
        return "illegal.trump_led", {"suit": contract, "held": trumps & ~BOURG[contract] or trumps}
    high = highest_trump(trick, contract)
    if c // 9 == contract and high >= 0:
        return "illegal.undertrump", {"high": high, "card": c}
    return "illegal.follow_or_trump", {"suit": led, "held": follow}


def why_illegal(
    hand: int, trick: Sequence[int], contract: int, c: int, lang: str = "en"
) -> str | None:
    """Why ``c`` may not be played, in words a player reads (cards as ♥A, in ``lang``);
    ``None`` when it is legal."""
    reason = illegal_reason(hand, trick, contract, c)
    if reason is None:
        return None
    key, fields = reason
    words = {
        name: SUIT_SYMBOLS[value]
        if name == "suit"
        else ", ".join(card_symbol(x) for x in cards_of(value))
        if name == "held"
        else card_symbol(value)
        for name, value in fields.items()
    }
    return text(lang, key, **words)


def trick_winner(trick: Sequence[int], contract: int) -> int:
    """Index (0..3, in play order) of the card that takes the trick."""
    strength = STRENGTH[contract][trick[0] // 9]
    best, best_strength = 0, strength[trick[0]]
    for i in range(1, len(trick)):
        s = strength[trick[i]]
        if s > best_strength:
            best, best_strength = i, s
    return best


def points(cards: int | Sequence[int], contract: int) -> int:
    """Card points of a set (int mask) or a sequence of cards in ``contract``."""
    table = CARD_POINTS[contract]
    if isinstance(cards, int):
        return sum(table[c] for c in cards_of(cards))
    return sum(table[c] for c in cards)
