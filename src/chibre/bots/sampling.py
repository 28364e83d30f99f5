"""Les donnes possibles: deals of the unseen cards consistent with what one seat has seen.

A computer player that never sees the other hands reasons over *possible deals*: the cards
it has not seen, dealt to the three other seats so that everything public still holds —

- the cards already played (each seat holds exactly the number of cards it still must hold);
- the voids revealed by play: a seat that did not follow the led suit has none of it (in a
  trump contract it may trump instead, so only a card of a third suit tells); a seat that did
  not follow a trump lead holds no trump but, perhaps, the bourg (never forced out); a seat
  that undertrumped held nothing but trumps (no undertrumping otherwise);
- the weis: the winning team's weis are shown (those cards stay with their seat until
  played), every announced value (0 included, when the table announces for everyone) is the
  value of that seat's best weis, and the weis comparison picked the team it picked;
- the stöck: a seat that declared them holds king and queen of trump until played; with the
  table declaring stöck, nobody holds stöck the table would already have shown;
- in the first hand of a game, the chooser holds the card that names the chooser.

``sample_deals(observation, rng, n)`` draws ``n`` such deals. Play constraints (voids, fixed
cards) are sampled exactly and without rejection: the unseen cards fall into groups by the set
of seats that may hold them, a table of how many cards of each group go to each seat is drawn
with probability proportional to the number of deals it stands for, and the cards of each
group are shuffled among the seats. Weis and stöck constraints are then met by rejection, so
the deals stay uniform over every consistent deal; where a rare announced weis makes rejection
too slow, a weis of the announced value is planted in that seat's hand first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from math import factorial
from random import Random

from chibre.cards import ALL_CARDS, RANK_MASKS, SUIT_MASKS, cards_of
from chibre.errors import ChibreError
from chibre.observation import Observation
from chibre.play import BOURG, TRUMP_STRENGTH, highest_trump
from chibre.rules import Rules
from chibre.weis import (
    STOECK_CARDS,
    STOECK_POINTS,
    Weis,
    best_weis,
    carre_points,
    sequence_points,
    weis_key,
    weis_of,
)

Deal4 = tuple[int, int, int, int]

REJECTION_TRIES = 60
"""Draws per deal before a rare announced weis is planted rather than waited for."""


class InconsistentObservation(ChibreError):
    """No deal of the unseen cards agrees with what the seat has seen (a corrupt record)."""


@dataclass(frozen=True)
class Inference:
    """What one seat can tell about every hand at this moment.

    ``known[s]``: cards known to be in seat ``s``'s hand now (the seat's own hand, shown weis,
    declared stöck, the first chooser's card); ``allowed[s]``: cards seat ``s`` may still
    hold; ``counts[s]``: how many cards it holds; ``played[s]``: what it played this hand;
    ``unknown``: the cards to deal (neither played nor known anywhere).
    """

    seat: int
    contract: int
    known: Deal4
    allowed: Deal4
    counts: Deal4
    played: Deal4
    unknown: int
    announcers: tuple[int, ...] = ()  # seats that have played to the first trick
    checks: bool = False  # whether weis or stöck constrain the deals beyond play

    def needs(self, s: int) -> int:
        """How many unknown cards seat ``s`` still receives."""
        return self.counts[s] - self.known[s].bit_count()


def _seat_cards(observation: Observation) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every card played this hand as (seat, card, the trick before it)."""
    out = []
    tricks = [(t.leader, t.cards) for t in observation.tricks]
    if observation.trick:
        tricks.append((observation.trick_leader, observation.trick))
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            out.append(((leader + i) & 3, c, tuple(cards[:i])))
    return out


def infer(observation: Observation) -> Inference:
    """Read the seat's observation into fixed cards, allowed cards and counts."""
    o = observation
    seat, contract = o.seat, o.contract
    played = [0, 0, 0, 0]
    allowed = [ALL_CARDS] * 4
    for s, c, before in _seat_cards(o):
        played[s] |= 1 << c
        if not allowed[s] >> c & 1:
            # a card its earlier plays said it could not hold: the seat follows other rules
            # (the jass-kit allows some undertrumps ours forbid), so read it afresh from here
            allowed[s] = ALL_CARDS
        if not before:
            continue
        led = before[0] // 9
        suit = c // 9
        if contract >= 4 or contract < 0:
            if suit != led:
                allowed[s] &= ~SUIT_MASKS[led]
        elif led == contract:
            if suit != contract:  # did not follow a trump lead: no trump but the bourg
                allowed[s] &= ~(SUIT_MASKS[contract] & ~BOURG[contract])
        elif suit == contract:
            high = highest_trump(before, contract)
            if high >= 0 and TRUMP_STRENGTH[c % 9] < TRUMP_STRENGTH[high % 9]:
                allowed[s] &= SUIT_MASKS[contract]  # undertrumped: held nothing but trumps
        elif suit != led:
            allowed[s] &= ~SUIT_MASKS[led]
    all_played = played[0] | played[1] | played[2] | played[3]
    known = [0, 0, 0, 0]
    known[seat] = o.hand
    for s, w in o.shown_weis:
        if s != seat:
            known[s] |= w.cards & ~all_played
    rules = o.rules
    if o.stoeck_seat >= 0 and 0 <= contract < 4 and o.stoeck_seat != seat:
        known[o.stoeck_seat] |= STOECK_CARDS[contract] & ~all_played
    if o.hand_number == 0 and rules.first_chooser == "card" and o.chooser >= 0:
        first = 1 << rules.first_chooser_card
        if not (all_played | o.hand) & first:
            known[o.chooser] |= first
    counts = [9 - played[s].bit_count() for s in range(4)]
    counts[seat] = o.hand.bit_count()
    allowed[seat] = o.hand
    taken = known[0] | known[1] | known[2] | known[3]
    unknown = ALL_CARDS & ~all_played & ~taken
    announcers: tuple[int, ...] = ()
    if o.contract >= 0:
        if o.tricks:
            announcers = (0, 1, 2, 3)
        else:
            announcers = tuple((o.trick_leader + i) & 3 for i in range(len(o.trick)))
    checks = bool(rules.weis and announcers) or (
        0 <= contract < 4 and rules.stoeck and rules.auto_stoeck and o.stoeck_seat < 0
    )
    return Inference(
        seat=seat,
        contract=contract,
        known=(known[0], known[1], known[2], known[3]),
        allowed=(allowed[0], allowed[1], allowed[2], allowed[3]),
        counts=(counts[0], counts[1], counts[2], counts[3]),
        played=(played[0], played[1], played[2], played[3]),
        unknown=unknown,
        announcers=announcers,
        checks=checks,
    )


# --- exact sampling of the play constraints --------------------------------------------------


@cache
def _splits(m: int, pattern: int) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """Ways to share ``m`` cards among the three seats whose bits are in ``pattern``, with
    the number of card assignments each split stands for (a multinomial)."""
    out = []
    for a in range(m + 1 if pattern & 1 else 1):
        for b in range(m - a + 1 if pattern & 2 else 1):
            c = m - a - b
            if c and not pattern & 4:
                continue
            w = factorial(m) // (factorial(a) * factorial(b) * factorial(c))
            out.append(((a, b, c), w))
    return tuple(out)


class _Dealer:
    """Uniform deals of the unknown cards to the three other seats, play constraints only."""

    def __init__(self, inf: Inference) -> None:
        self.others = [s for s in range(4) if s != inf.seat]
        groups: dict[int, list[int]] = {}
        for c in cards_of(inf.unknown):
            pattern = sum(1 << i for i, s in enumerate(self.others) if inf.allowed[s] >> c & 1)
            groups.setdefault(pattern, []).append(c)
        self.groups = sorted(groups.items())
        self.needs = tuple(inf.needs(s) for s in self.others)
        self.known = inf.known
        self.seat = inf.seat
        self._ways: dict[tuple[int, int, int, int], int] = {}
        self._choices: dict[tuple[int, int, int, int], tuple[list[tuple[int, int, int]], list[int]]]
        self._choices = {}
        if any(n < 0 for n in self.needs) or self.ways(0, *self.needs) == 0:
            raise InconsistentObservation(
                f"no deal of the unseen cards agrees with what seat {inf.seat} has seen"
            )

    def ways(self, g: int, a: int, b: int, c: int) -> int:
        """Deals of groups ``g``… with ``a``, ``b``, ``c`` cards still owed to each seat."""
        if g == len(self.groups):
            return 1 if a == b == c == 0 else 0
        key = (g, a, b, c)
        cached = self._ways.get(key)
        if cached is not None:
            return cached
        pattern, cards = self.groups[g]
        total = 0
        for (ka, kb, kc), w in _splits(len(cards), pattern):
            if ka <= a and kb <= b and kc <= c:
                total += w * self.ways(g + 1, a - ka, b - kb, c - kc)
        self._ways[key] = total
        return total

    def _options(
        self, g: int, a: int, b: int, c: int
    ) -> tuple[list[tuple[int, int, int]], list[int]]:
        key = (g, a, b, c)
        got = self._choices.get(key)
        if got is None:
            pattern, cards = self.groups[g]
            splits, cumulative, total = [], [], 0
            for (ka, kb, kc), w in _splits(len(cards), pattern):
                if ka <= a and kb <= b and kc <= c:
                    rest = self.ways(g + 1, a - ka, b - kb, c - kc)
                    if rest:
                        total += w * rest
                        splits.append((ka, kb, kc))
                        cumulative.append(total)
            got = (splits, cumulative)
            self._choices[key] = got
        return got

    def deal(self, rng: Random) -> Deal4:
        hands = list(self.known)
        a, b, c = self.needs
        for g, (_, cards) in enumerate(self.groups):
            splits, cumulative = self._options(g, a, b, c)
            x = rng.randrange(cumulative[-1])
            i = 0
            while cumulative[i] <= x:
                i += 1
            ka, kb, kc = splits[i]
            order = cards.copy()
            rng.shuffle(order)
            for k, s, start in ((ka, 0, 0), (kb, 1, ka), (kc, 2, ka + kb)):
                for card in order[start : start + k]:
                    hands[self.others[s]] |= 1 << card
            a, b, c = a - ka, b - kb, c - kc
        return (hands[0], hands[1], hands[2], hands[3])


# --- weis and stöck --------------------------------------------------------------------------


def held_weis_sets(cards: int) -> list[int]:
    """The cards of every carré and every run of three or more (any part of a longer run)
    within ``cards``: carrés by rank, then runs by suit, lowest card and length."""
    sets = [RANK_MASKS[r] for r in range(9) if cards & RANK_MASKS[r] == RANK_MASKS[r]]
    for suit in range(4):
        for low in range(7):
            for n in range(3, 10 - low):
                run = ((1 << n) - 1) << (9 * suit + low)
                if cards & run != run:
                    break
                sets.append(run)
    return sets


def weis_worth(dealt: int, value: int, rules: Rules) -> list[Weis]:
    """Every weis worth ``value`` a player holding ``dealt`` could declare by hand (any part
    of a run may be declared)."""
    found: list[Weis] = []
    for cards in held_weis_sets(dealt):
        if cards in RANK_MASKS:
            points = carre_points(RANK_MASKS.index(cards), rules)
        else:
            points = sequence_points(cards.bit_count(), rules.big_sequences)
        if points and points == value:
            found.append(weis_of(cards, rules))
    return found


def weakest_weis_worth(dealt: int, value: int, rules: Rules, contract: int) -> Weis | None:
    """The weis worth ``value`` a player holding ``dealt`` could declare that ranks lowest at
    the table (declaring by hand, any part of a run may be declared); ``None`` if none."""
    found = weis_worth(dealt, value, rules)
    if not found:
        return None
    return min(found, key=lambda w: weis_key(w, contract, 3, rules))


def _consistent(o: Observation, inf: Inference, hands: Deal4) -> bool:
    """Do these hands agree with the weis and stöck the table has made public?"""
    rules = o.rules
    k = inf.contract
    dealt = [hands[s] | inf.played[s] for s in range(4)]
    weis: dict[int, tuple[Weis, ...]] = {}
    with_stoeck: set[int] = set()  # seats declaring by hand whose weis must hold the stöck
    if rules.weis and inf.announcers:
        shown_team = o.weis_team
        for s in inf.announcers:
            if s == o.seat:
                continue
            if rules.auto_weis:
                ws = best_weis(dealt[s], rules, k)
                weis[s] = ws
                if max((w.points for w in ws), default=0) != o.announced[s]:
                    return False
                if shown_team >= 0 and s & 1 == shown_team:
                    shown = sorted(w for t, w in o.shown_weis if t == s)
                    if sorted(ws) != shown:
                        return False
            elif o.announced[s] and not (shown_team >= 0 and s & 1 == shown_team):
                worth = weis_worth(dealt[s], o.announced[s], rules)
                if not worth:
                    return False
                if 0 <= k < 4 and all(v.cards & STOECK_CARDS[k] == STOECK_CARDS[k] for v in worth):
                    with_stoeck.add(s)  # whatever it declared holds the stöck
                w = min(worth, key=lambda v: weis_key(v, k, 3, rules))
                if shown_team >= 0 and o.tricks:  # it lost the comparison
                    mine = weis_key(w, k, (s - o.chooser) & 3, rules)
                    if not any(
                        weis_key(v, k, (t - o.chooser) & 3, rules) > mine for t, v in o.shown_weis
                    ):
                        return False
        if rules.auto_weis and o.tricks:
            weis[o.seat] = o.own_weis
            best_team, best = -1, None
            for s in range(4):
                for w in weis.get(s, ()):
                    key = weis_key(w, k, (s - o.chooser) & 3, rules)
                    if best is None or key > best:
                        best_team, best = s & 1, key
            if best_team != o.weis_team:
                return False
    shower = o.stoeck_seat
    if (
        0 <= k < 4
        and rules.stoeck
        and rules.auto_stoeck
        and rules.stoeck_in_weis
        and 0 <= shower != o.seat
        and inf.played[shower] & STOECK_CARDS[k] != STOECK_CARDS[k]
        and not (rules.end_mode == "immediate" and rules.claim == "thank")
    ):
        # stöck the table showed before their second card: with the weis announced at the
        # first trick (the table would have ended a game they took to the target)
        sc = STOECK_CARDS[k]
        if not (shower in with_stoeck or any(w.cards & sc == sc for w in weis.get(shower, ()))):
            return False
    if 0 <= k < 4 and rules.stoeck and rules.auto_stoeck and o.stoeck_seat < 0:
        sc = STOECK_CARDS[k]
        for s in range(4):
            if s == o.seat or dealt[s] & sc != sc:
                continue
            # the table would have shown stöck that take the team to the target …
            if (
                rules.end_mode == "immediate"
                and o.totals[s & 1] + STOECK_POINTS * o.factor >= rules.target
            ):
                return False
            # … and stöck that are part of the weis announced at the first trick
            if (
                rules.stoeck_in_weis
                and rules.weis
                and s in inf.announcers
                and (s in with_stoeck or any(w.cards & sc == sc for w in weis.get(s, ())))
            ):
                return False
    return True


def _plant_candidates(o: Observation, inf: Inference) -> list[tuple[int, int]]:
    """(seat, cards) of every weis a seat announced but did not show that could be in its
    hand: the cards are each played by that seat, known to it, or unknown and allowed."""
    rules = o.rules
    out: list[tuple[int, int]] = []
    for s in inf.announcers:
        value = o.announced[s]
        if s == o.seat or not value or (o.weis_team >= 0 and s & 1 == o.weis_team):
            continue
        possible = inf.played[s] | inf.known[s] | (inf.unknown & inf.allowed[s])
        for cards in held_weis_sets(possible):
            if any(w.points == value for w in best_weis(cards, rules, inf.contract)):
                out.append((s, cards))
    return out


def _planted(inf: Inference, s: int, cards: int) -> Inference | None:
    """The inference with the unplayed cards of ``cards`` given to seat ``s``."""
    extra = cards & inf.unknown
    if (inf.known[s] | extra).bit_count() > inf.counts[s]:
        return None
    known = list(inf.known)
    known[s] |= extra
    return Inference(
        seat=inf.seat,
        contract=inf.contract,
        known=(known[0], known[1], known[2], known[3]),
        allowed=inf.allowed,
        counts=inf.counts,
        played=inf.played,
        unknown=inf.unknown & ~extra,
        announcers=inf.announcers,
        checks=inf.checks,
    )


def sample_deals(observation: Observation, rng: Random, n: int) -> list[Deal4]:
    """``n`` deals of the cards ``observation.seat`` has not seen, consistent with it.

    Each deal gives every seat its current hand (the seat's own hand in its place, the
    others' cards drawn), uniformly among the deals that agree with everything public.
    Should neither rejection nor a planted weis find a deal that agrees with the weis and
    stöck, that deal and every later one of the call keep the play constraints only (so a
    call makes at most ``REJECTION_TRIES`` checks per deal plus one fallback's worth). Should
    the voids read from the play leave no deal at all (a seat played by other rules, such as
    the jass-kit's), the deals keep only what the cards themselves show.
    """
    inf = infer(observation)
    try:
        dealer = _Dealer(inf)
    except InconsistentObservation:
        inf = _cards_only(inf)
        dealer = _Dealer(inf)
    if not inf.checks:
        return [dealer.deal(rng) for _ in range(n)]
    check: Callable[[Deal4], bool] = lambda h: _consistent(observation, inf, h)  # noqa: E731
    out: list[Deal4] = []
    planted: list[_Dealer] | None = None
    exhausted = False
    while len(out) < n:
        if exhausted:
            out.append(dealer.deal(rng))
            continue
        for _ in range(REJECTION_TRIES):
            hands = dealer.deal(rng)
            if check(hands):
                out.append(hands)
                break
        else:
            if planted is None:
                planted = _planted_dealers(observation, inf)
            found = _deal_planted(planted, dealer, check, rng)
            exhausted = found is None
            out.append(dealer.deal(rng) if found is None else found)
    return out


def _cards_only(inf: Inference) -> Inference:
    """The inference without what the play was read to say about the other hands (the voids,
    the undertrumps): for a seat that played by other rules and left no card to show it."""
    allowed = tuple(inf.allowed[s] if s == inf.seat else ALL_CARDS for s in range(4))
    return replace(inf, allowed=(allowed[0], allowed[1], allowed[2], allowed[3]))


def _planted_dealers(o: Observation, inf: Inference) -> list[_Dealer]:
    dealers = []
    for s, cards in _plant_candidates(o, inf):
        p = _planted(inf, s, cards)
        if p is None:
            continue
        try:
            dealers.append(_Dealer(p))
        except InconsistentObservation:
            continue
    return dealers


def _deal_planted(
    planted: list[_Dealer], dealer: _Dealer, check: Callable[[Deal4], bool], rng: Random
) -> Deal4 | None:
    """A consistent deal drawn with a possible weis planted first, then by longer rejection;
    None when neither finds one."""
    if planted:
        for _ in range(20 * REJECTION_TRIES):
            hands = rng.choice(planted).deal(rng)
            if check(hands):
                return hands
    for _ in range(20 * REJECTION_TRIES):
        hands = dealer.deal(rng)
        if check(hands):
            return hands
    return None


# --- the hand count: what a club player reads in a hand -----------------------------------------

# A club player's count of a hand for each contract, by natural rank 6 7 8 9 10 J Q K A.
_TRUMP_COUNT = (5, 5, 5, 19, 6, 25, 7, 10, 15)
_SIDE_COUNT = (0, 0, 0, 0, 1, 2, 5, 7, 9)
_OBENABE_COUNT = (0, 0, 5, 0, 5, 7, 8, 10, 14)
_UNDENUFE_COUNT = (14, 10, 8, 7, 5, 0, 5, 0, 0)
_SUIT_COUNTS = {
    table: tuple(sum(table[r] for r in range(9) if b >> r & 1) for b in range(512))
    for table in (_TRUMP_COUNT, _SIDE_COUNT, _OBENABE_COUNT, _UNDENUFE_COUNT)
}
PAR = 68
"""A hand counted below par is usually passed (chibre) to the partner."""


def hand_counts(hand: int) -> tuple[int, int, int, int, int, int]:
    """A quick count of a 9-card hand for ♦ ♥ ♠ ♣, Obenabe and Undenufe: honours, with the
    bourg and nell in trump, and length in trump."""
    suits = [(hand >> (9 * s)) & 0x1FF for s in range(4)]
    trump, side = _SUIT_COUNTS[_TRUMP_COUNT], _SUIT_COUNTS[_SIDE_COUNT]
    sides = [side[b] for b in suits]
    total_side = sum(sides)
    counts = []
    for t in range(4):
        n = suits[t].bit_count()
        counts.append(trump[suits[t]] + total_side - sides[t] + (6 * (n - 4) if n > 4 else 0))
    oben, unden = _SUIT_COUNTS[_OBENABE_COUNT], _SUIT_COUNTS[_UNDENUFE_COUNT]
    counts.append(sum(oben[b] for b in suits))
    counts.append(sum(unden[b] for b in suits))
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
