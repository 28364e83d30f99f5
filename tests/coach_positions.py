"""Constructed positions for the coach's tests, written in the engine's notation.

``deal_with(dealer, fixed)`` deals the cards named in ``fixed`` (seat -> card codes) to their
seats and the rest, in card order, to the seats that still need cards — a deal that reads
like a teacher's example: the cards that matter are chosen, the others are filler.
"""

from __future__ import annotations

from chibre.actions import Deal
from chibre.cards import parse_card
from chibre.game import GameRecord
from chibre.notation import format_deal, parse_record

RULES = 'rules {"weis": false, "first_chooser": "right_of_dealer"}'
"""No weis (nothing announced hides in the deals), the chooser right of the dealer."""


def deal_with(dealer: int, fixed: dict[int, str]) -> str:
    """A deal in notation with ``fixed`` cards where they are named, filler elsewhere."""
    hands = [0, 0, 0, 0]
    for seat, codes in fixed.items():
        for code in codes.split():
            hands[seat] |= 1 << parse_card(code)
    used = hands[0] | hands[1] | hands[2] | hands[3]
    seat = 0
    for c in range(36):
        if used >> c & 1:
            continue
        while hands[seat].bit_count() == 9:
            seat += 1
        hands[seat] |= 1 << c
    return format_deal(Deal((hands[0], hands[1], hands[2], hands[3]), dealer))


def record(deal: str, actions: str, rules: str = RULES) -> GameRecord:
    """A one-hand record: the rules line, then the deal and its actions."""
    return parse_record(f"{rules}\nhand {deal} {actions}\n")


SCHMIEREN = record(
    "0:T96.QJ6.QJ6./AKQJ.AK.AK.6/87.T9.T9.A87/.87.87.KQJT9",
    "=O SA ST S8 SQ SK S9 S7 SJ HA HT H8 HQ HK H9 H7 HJ C6 CA C9 D6",
)
"""Obenabe, five tricks left (the coach is exact): the partner's ♣A holds the trick, seat 0
plays last and is void in ♣; it threw ♦6 and keeps ♦10, which the opponents' ♦A K Q J will
take, where ♦10 on the partner's sure trick was 10 points more."""

FORCED_MATCH = record(deal_with(3, {0: "HJ H9 HA HK H10 H8 SA CA DA"}), "=U")
"""Seat 0 holds six hearts with the bourg, the nell, the ace and the king, and three aces:
trump ♥ makes match whatever the others hold; in Undenufe its aces and high hearts are the
lowest cards, and it named Undenufe."""

NEAR_MATCH = record(deal_with(3, {0: "HJ H9 HA HK H10 H8 SA CA DA"}), "=O")
"""The same hand named Obenabe: its three aces and ♥A ♥K make match there too on most deals
(not where one seat holds ♥Q ♥7 ♥6 and keeps the queen guarded) — a small loss at most."""

OBVIOUS_CHIBRE = record(
    deal_with(3, {0: "DQ D10 D8 HQ H10 H8 SQ S10 C8", 2: "DJ D9 DA HJ H9 HA SJ S9 SA"}), "=D"
)
"""Seat 0 holds no bourg, no nell, no ace, no six: nothing to name; it named trump ♦."""

ALL_EQUAL = record(deal_with(3, {0: "DA DK DQ HA HK SA SK CA CK"}), "=O DQ")
"""Obenabe with every top card: whatever seat 0 leads, it takes all nine tricks."""

BOCK = record(
    "0:9.T.98.AKQ98/QJ8.87.AKT7./KT6.J96.J.J6/A7.AKQ.Q6.T7",
    "=D DJ D10 D7 D9 SK DK SQ S8 D6 DA S9 DQ HA H10 D8 H6 S7",
)
"""Trump ♦, all trumps but seat 1's gone after four tricks; seat 1 leads with ♠A the Bock of
spades (♠K and ♠Q are played) and led ♠7 instead, giving the trick away."""

TRUMP_PULL = record(
    deal_with(
        3,
        {0: "HJ H9 HA H8 SA SK CA DA D6", 1: "HK H10", 2: "H7", 3: "HQ H6"},
    ),
    "=H HJ H10 H7 H6 SA",
)
"""Trump ♥: seat 0 led the bourg, the opponents still hold ♥K and ♥Q; pulling them with
♥9 or ♥A keeps the aces safe, and seat 0 led ♠A into their trumps."""
