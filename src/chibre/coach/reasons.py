"""Why the best option is best, in one line and in the game's words.

A reason is a key of the message catalogue (``coach.reason.…``) and the fields to fill it
with (cards, a suit, a contract, points). The rules are those a Jass teacher would say, read
from the trick and the solved deals:

- **match** — on a good share of the deals the better card keeps our match (or stops theirs);
- at the lead: the **trump pull** (a trump led once the bourg is gone or ours, while another
  hand may still hold a trump), the **Bock** (the highest card left of a suit, cashed), the
  **partner's signal** (the suit the partner showed with a high discard on the opponents'
  trick);
- following: **schmieren** (points on the partner's trick), **ducking** (letting the trick go
  rather than taking it; not overtaking the partner who holds it), taking the trick;
- late in the hand, **keeping the last trick** (the card taken was the one to keep for it);
- else the points the better card takes more on average.

For the contract: the **chibre** (the partner's choice worth more than any contract of ours),
the contract that makes **match**, the **pique double**, or the contract and its value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from chibre.actions import Choose, Play
from chibre.cards import SUIT_MASKS
from chibre.coach.value import Valuation
from chibre.observation import Observation
from chibre.play import BOURG, CARD_POINTS, STRENGTH, trick_winner

MATCH_SHARE = 0.25
"""The share of deals on which a card must keep (or stop) a match for the match to be why."""
LATE_TRICKS = 3
"""Tricks left from which keeping a card for the last trick is a reason."""


@dataclass(frozen=True)
class Reason:
    """A key of the catalogue (``coach.reason.<key>``) and its fields: ``card``/``other``
    (cards), ``cards`` (a set of cards), ``suit``, ``contract``, ``points``."""

    key: str
    fields: dict[str, int | float] = field(default_factory=dict)


def _played(o: Observation) -> int:
    m = 0
    for t in o.tricks:
        for c in t.cards:
            m |= 1 << c
    for c in o.trick:
        m |= 1 << c
    return m


def is_bock(o: Observation, card: int) -> bool:
    """Whether ``card`` is the highest card left of its suit (its betters played or ours)."""
    suit = card // 9
    strength = STRENGTH[o.contract][suit]
    gone = _played(o) | o.hand
    higher = sum(1 << c for c in range(9 * suit, 9 * suit + 9) if strength[c] > strength[card])
    return higher & ~gone == 0


def _wins_now(o: Observation, card: int) -> bool:
    """Whether ``card`` would hold the trick as it stands."""
    trick = (*o.trick, card)
    return trick_winner(trick, o.contract) == len(trick) - 1


def _partner_holds(o: Observation) -> bool:
    if not o.trick:
        return False
    return (o.trick_leader + trick_winner(o.trick, o.contract)) & 3 == o.seat ^ 2


def partner_signal(o: Observation) -> int:
    """The suit the partner showed this hand: its first discard of a card worth points on a
    suit it could not follow, on a trick the opponents held (-1 if none; points given to
    our own trick are a schmier, not a signal)."""
    partner = o.seat ^ 2
    for t in o.tricks:
        led = t.cards[0] // 9
        for i, c in enumerate(t.cards):
            if (t.leader + i) & 3 != partner or i == 0:
                continue
            ours = (t.leader + trick_winner(t.cards[:i], o.contract)) & 3 == o.seat
            if (
                c // 9 != led
                and c // 9 != o.contract
                and CARD_POINTS[o.contract][c] >= 10
                and not ours
            ):
                return c // 9
    return -1


def _trumps_out(o: Observation) -> bool:
    """Whether a trump is still in another hand (neither played nor ours)."""
    k = o.contract
    return k < 4 and SUIT_MASKS[k] & ~(_played(o) | o.hand) != 0


def _share(mask: np.ndarray, v: Valuation) -> float:
    return float(v.times @ mask) / float(v.times.sum())


def card_reason(o: Observation, v: Valuation, best: int, taken: int) -> Reason:
    """The reason for the best card ``best`` (an index of ``v.options``) against ``taken``."""
    b = v.options[best]
    t = v.options[taken]
    assert isinstance(b, Play) and isinstance(t, Play)
    card, other = b.card, t.card
    k = o.contract
    if best != taken:
        ours = (v.values[:, best] > v.points_out) & (v.values[:, taken] <= v.points_out)
        if _share(ours, v) >= MATCH_SHARE:
            return Reason("match", {"card": card})
        theirs = (v.values[:, taken] < 0) & (v.values[:, best] >= 0)
        if _share(theirs, v) >= MATCH_SHARE:
            return Reason("match_against", {"card": card})
    if not o.trick:
        if k < 4 and card // 9 == k and (BOURG[k] & (_played(o) | o.hand)) and _trumps_out(o):
            return Reason("trump_pull", {"card": card})
        if (k >= 4 or card // 9 != k) and is_bock(o, card):
            return Reason("bock", {"card": card})
        if card // 9 == partner_signal(o):
            return Reason("partner_signal", {"card": card, "suit": card // 9})
    else:
        points = CARD_POINTS[k]
        if (
            _partner_holds(o)
            and not _wins_now(o, card)
            and points[card] >= 10
            and points[card] > points[other]
        ):
            return Reason("schmieren", {"card": card})
        if best != taken and _wins_now(o, other) and not _wins_now(o, card):
            key = "keep_partner" if _partner_holds(o) else "duck"
            return Reason(key, {"card": card, "other": other})
        if best != taken and _wins_now(o, card) and not _wins_now(o, other):
            return Reason("take", {"card": card})
    tricks_left = 9 - len(o.tricks)
    if best != taken and tricks_left <= LATE_TRICKS and _keeps_top(o, other, card):
        return Reason("last_trick", {"card": card, "other": other})
    if best == taken:
        return Reason("best", {"card": card})
    gain = round(float(v.means()[best] - v.means()[taken]))
    if gain == 0:  # within half a point: as good as the card taken, all but the rounding
        return Reason("about_as_good", {"card": card})
    if gain == 1:
        return Reason("point", {"card": card})
    return Reason("points", {"card": card, "points": gain})


def _keeps_top(o: Observation, spent: int, kept: int) -> bool:
    """Whether ``spent`` was the seat's strongest card (a top trump or a Bock) and ``kept``
    is not: the card to keep for the last trick was spent."""
    k = o.contract
    strong = [
        c for c in range(36) if o.hand >> c & 1 and (is_bock(o, c) or (k < 4 and c // 9 == k))
    ]
    return spent in strong and kept not in strong and (o.hand & SUIT_MASKS[spent // 9]) != 0


def contract_reason(o: Observation, v: Valuation, best: int) -> Reason:
    """The reason for the best contract choice (an index of ``v.options``)."""
    a = v.options[best]
    means = v.means()
    if not isinstance(a, Choose):
        named = [j for j, x in enumerate(v.options) if isinstance(x, Choose)]
        top = max(named, key=lambda j: means[j])
        x = v.options[top]
        assert isinstance(x, Choose)
        return Reason("chibre", {"contract": int(x.contract), "points": round(float(means[top]))})
    factor = o.rules.factor(a.contract, a.double)
    match_value = factor * 257 / 2
    if _share(v.values[:, best] >= match_value - 1e-9, v) >= 0.5:
        return Reason("contract_match", {"contract": int(a.contract)})
    if a.double:
        return Reason("pique_double", {"contract": int(a.contract)})
    return Reason("contract", {"contract": int(a.contract), "points": round(float(means[best]))})


def declaration_reason(kind: str, points: int, cards: int) -> Reason:
    """The reason for declaring what was not: ``stoeck`` or ``weis``, worth ``points``, by
    ``cards`` (a set)."""
    return Reason(kind, {"points": points, "cards": cards})


__all__ = ["Reason", "card_reason", "contract_reason", "declaration_reason"]
