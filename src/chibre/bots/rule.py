"""``rule``: a heuristic player that plays as a sound club player describes the game.

It sees only its ``Observation`` and keeps nothing between decisions: everything it knows is
read again from the public history each time (``Knowledge``).

**The contract (l'atout / die Ansage).** Each contract is valued from the hand: for a trump
suit its length, the bourg and the nell (jack and nine of trump, Puur and Näll), its other
honours, and the aces and kings beside; for Obenabe the aces, kings and long solid suits;
for Undenufe the sixes, sevens and long solid low suits. Below the threshold the chooser
chibres (schiebt) and the partner, who may not pass back, names the best contract. Under
``pique_double = choice`` a very strong ♠ hand is played double.

**The play.** The player counts the cards: which cards are still out, which suits each player
has shown void in (and so, in a trump contract, the trumps still out and where the bourg can
be), and the cards a shown weis made public. From that it knows its *Bock* — the highest card
still out in a suit, which can no longer lose except to a trump — and estimates, for every
card it may play, the chance that its side takes the trick (each player after it holding a
card that beats the best card so far). A card is worth the trick it wins or loses, less what
it would be worth kept for later (trumps, Böcke). This gives the habits of good play:

- pulling trumps (Trumpf ziehen): when our side chose and the player holds the highest trump
  still out, it leads it while the opponents may still hold trumps; the player who named
  trumps without holding the highest leads a low one;
- playing the Bock: a sure winner is led or played when the trick is worth taking;
- schmieren: loading the partner's sure trick with a ten or an ace;
- not wasting a high card on a trick the partner already wins, and ducking when the trick
  cannot be won;
- cutting with a trump (stechen) only when the trick is worth the trump;
- the last trick counts 5 more, so it is worth more to win.

**Discard signals (Verwerfen).** One convention, played by both partners: a player who cannot
follow and does not schmier discards the lowest card of the suit it wants least — so a
partner's discard says "do not lead this suit"; the player leading avoids the suits its partner
has discarded from.
"""

from __future__ import annotations

from math import comb

from chibre.actions import Action, Chibre, Choose, Play, Thank
from chibre.bots.player import choices, may_thank
from chibre.cards import ALL_CARDS, SUIT_MASKS, cards_of
from chibre.observation import Observation
from chibre.play import BOURG, CARD_POINTS, LAST_TRICK_BONUS, STRENGTH, TRUMP_STRENGTH
from chibre.rules import Contract
from chibre.weis import STOECK_CARDS

OBENABE = 4
UNDENUFE = 5

# --- valuing a hand for a contract -----------------------------------------------------------
# Points per card by natural rank 6 7 8 9 10 J Q K A (a club player's count of honours).
_TRUMP_VALUE = (5, 5, 5, 19, 6, 25, 7, 10, 15)
_SIDE_VALUE = (0, 0, 0, 0, 1, 2, 5, 7, 9)
_OBENABE_VALUE = (0, 0, 5, 0, 5, 7, 8, 10, 14)
_UNDENUFE_VALUE = (14, 10, 8, 7, 5, 0, 5, 0, 0)

CHIBRE_THRESHOLD = 68
"""Below this value the chooser passes the choice to the partner."""
PIQUE_DOUBLE_THRESHOLD = 105
"""A ♠ hand valued at least this much is played double (``pique_double = choice``)."""


def _suit_ranks(hand: int, suit: int) -> int:
    """The 9-bit rank pattern of ``hand`` in ``suit`` (bit r: natural rank r)."""
    return (hand >> (9 * suit)) & 0x1FF


def _top_run(ranks: int, high_first: bool) -> int:
    """How many cards of a suit are held from the top down without a gap (A K Q … in
    Obenabe; 6 7 8 … in Undenufe)."""
    n = 0
    order = range(8, -1, -1) if high_first else range(9)
    for r in order:
        if not ranks >> r & 1:
            break
        n += 1
    return n


def _no_trump_value(hand: int, high: bool) -> int:
    """Obenabe (``high``) or Undenufe value: the honours, the solid tops and long suits that
    will run once their top is cashed."""
    table = _OBENABE_VALUE if high else _UNDENUFE_VALUE
    value = 0
    for suit in range(4):
        ranks = _suit_ranks(hand, suit)
        length = ranks.bit_count()
        run = _top_run(ranks, high)
        for r in range(9):
            if ranks >> r & 1:
                value += table[r]
        # A king without its ace (a seven without its six) is often lost: count it less.
        second = 7 if high else 1
        first = 8 if high else 0
        if ranks >> second & 1 and not ranks >> first & 1 and length < 3:
            value -= table[second] // 2
        if run >= 2 and length >= 4:
            value += 3 * (length - run + 1)  # a long suit with a solid top runs
    return value


def _trump_value(hand: int, trump: int, stoeck: bool) -> int:
    value = 0
    for suit in range(4):
        table = _TRUMP_VALUE if suit == trump else _SIDE_VALUE
        ranks = _suit_ranks(hand, suit)
        for r in range(9):
            if ranks >> r & 1:
                value += table[r]
    trumps = _suit_ranks(hand, trump)
    length = trumps.bit_count()
    if length >= 4:
        value += 4 * (length - 3)  # long trumps draw the others' and take the last tricks
    if length >= 5:
        value += 6 * (length - 4)
    if stoeck and trumps >> 6 & 1 and trumps >> 7 & 1:
        value += 8  # the stöck (20 points)
    return value


def contract_values(hand: int, stoeck: bool = True) -> tuple[int, ...]:
    """The hand's value for ♦ ♥ ♠ ♣, Obenabe and Undenufe (``CHIBRE_THRESHOLD`` is par)."""
    trumps = tuple(_trump_value(hand, s, stoeck) for s in range(4))
    return (*trumps, _no_trump_value(hand, True), _no_trump_value(hand, False))


def choose_contract(observation: Observation) -> Action:
    """Name the best contract, or chibre a weak hand when the table allows it."""
    o = observation
    values = contract_values(o.hand, o.rules.stoeck)
    may_chibre = Chibre() in o.legal_actions
    may_double = any(isinstance(a, Choose) and a.double for a in o.legal_actions)
    # With multipliers, a good hand is worth more in a contract that counts more — and a
    # weak one (a choice after a chibre) costs less in a contract that counts less.
    weighted = [
        v + (o.rules.factor(k) - 1) * (v - CHIBRE_THRESHOLD) / 2 for k, v in enumerate(values)
    ]
    best = max(range(6), key=lambda k: (weighted[k], -k))
    if may_chibre and values[best] < CHIBRE_THRESHOLD:
        return Chibre()
    if may_double and best == Contract.SPADES and values[best] >= PIQUE_DOUBLE_THRESHOLD:
        return Choose(Contract.SPADES, True)
    return Choose(best)


# --- what the player knows during the play ---------------------------------------------------

# BEATS[contract][led suit][card]: the cards that take a trick from ``card``.
BEATS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            sum(1 << x for x in range(36) if STRENGTH[k][led][x] > STRENGTH[k][led][c])
            for c in range(36)
        )
        for led in range(4)
    )
    for k in range(6)
)


def _power(contract: int, c: int) -> int:
    """How high a card stands in its own suit under the contract."""
    r = c % 9
    if contract < 4 and c // 9 == contract:
        return 100 + TRUMP_STRENGTH[r]
    return 8 - r if contract == UNDENUFE else r


class Knowledge:
    """What one seat knows of the hand: the cards still out, who may hold them, the
    partner's discard signals."""

    def __init__(self, o: Observation) -> None:
        self.o = o
        self.seat = o.seat
        self.partner = (o.seat + 2) % 4
        self.contract = k = o.contract
        self.trump = k if k < 4 else -1
        self.points = CARD_POINTS[k]
        self.mine = o.hand
        played = 0
        count = [0, 0, 0, 0]
        void = [0, 0, 0, 0]  # cards each seat cannot hold
        self.unwanted = [0, 0, 0, 0]  # suits each seat discarded from (as suit masks)
        history = [(t.leader, t.cards) for t in o.tricks]
        if o.trick:
            history.append((o.trick_leader, o.trick))
        trump_mask = SUIT_MASKS[k] if k < 4 else 0
        for leader, cards in history:
            led = cards[0] // 9
            for i, c in enumerate(cards):
                p = (leader + i) % 4
                played |= 1 << c
                count[p] += 1
                s = c // 9
                if i == 0 or s == led:
                    continue
                if k < 4 and led == k:
                    void[p] |= trump_mask & ~BOURG[k]  # the bourg is never forced out
                elif s != k:
                    void[p] |= SUIT_MASKS[led]
                    if CARD_POINTS[k][c] < 10:  # a ten or an ace is schmiert, not a signal
                        self.unwanted[p] |= SUIT_MASKS[s]
        self.played = played
        self.out = ALL_CARDS & ~played & ~self.mine
        known = [0, 0, 0, 0]
        for p, w in o.shown_weis:
            known[p] |= w.cards & self.out
        if 0 <= o.stoeck_seat != self.seat and k < 4:
            known[o.stoeck_seat] |= STOECK_CARDS[k] & self.out
        self.known = known
        any_known = known[0] | known[1] | known[2] | known[3]
        self.may_hold = [
            (self.out & ~void[p] & ~(any_known & ~known[p])) | known[p] for p in range(4)
        ]
        self.may_hold[self.seat] = 0
        self.left = [9 - count[p] for p in range(4)]
        self.trick_number = len(o.tricks)

    # --- counting ----------------------------------------------------------------------

    def is_bock(self, c: int) -> bool:
        """No card still out in ``c``'s suit stands higher (trumps aside)."""
        s = c // 9
        power = _power(self.contract, c)
        return not any(_power(self.contract, x) > power for x in cards_of(self.out & SUIT_MASKS[s]))

    def chance_beats(self, p: int, beaters: int) -> float:
        """The chance that seat ``p`` holds one of ``beaters`` (cards spread evenly over
        the hands that may hold them)."""
        if self.known[p] & beaters:
            return 1.0
        pool = self.may_hold[p] & ~self.known[p]
        slots = self.left[p] - self.known[p].bit_count()
        b = (pool & beaters).bit_count()
        u = pool.bit_count()
        if slots <= 0 or b == 0:
            return 0.0
        if u - b < slots:
            return 1.0
        return 1.0 - comb(u - b, slots) / comb(u, slots)

    def win_chance(self, c: int) -> float:
        """The chance that our side takes the current trick if this seat plays ``c``."""
        o = self.o
        trick = (*o.trick, c)
        leader = o.trick_leader if o.trick else self.seat
        led = trick[0] // 9
        strength = STRENGTH[self.contract][led]
        best_i = 0
        for i in range(1, len(trick)):
            if strength[trick[i]] > strength[trick[best_i]]:
                best_i = i
        best = trick[best_i]
        ours = (leader + best_i) % 2 == self.seat % 2
        beats = BEATS[self.contract][led]
        beaters = beats[best]
        chance = 1.0 if ours else 0.0
        for i in range(len(trick), 4):
            p = (leader + i) % 4
            h = self.chance_beats(p, beaters)
            if p == self.partner:
                chance += (1.0 - chance) * h
            else:
                chance *= 1.0 - h
                if h > 0.0:
                    # The partner after this opponent must beat what it played: say the
                    # upper quarter of the cards it may beat with.
                    held = sorted(cards_of(beaters & self.may_hold[p]), key=strength.__getitem__)
                    beaters = beats[held[_RESCUE_QUANTILE * len(held) // 4]] if held else beaters
        return chance

    def keep_value(self, c: int) -> float:
        """What ``c`` is worth kept for the tricks to come (trumps and Böcke)."""
        if self.mine.bit_count() <= 1:
            return 0.0
        s = c // 9
        if s == self.trump:
            value = _TRUMP_KEEP[c % 9]
            if self.is_bock(c):
                value += 4
            return value
        if self.is_bock(c):
            return _BOCK_KEEP if self.trump >= 0 else _BOCK_KEEP_NO_TRUMP
        power = _power(self.contract, c)
        above = sum(
            1 for x in cards_of(self.out & SUIT_MASKS[s]) if _power(self.contract, x) > power
        )
        if above == 1 and (self.mine & SUIT_MASKS[s]).bit_count() >= 2:
            return _SECOND_KEEP  # the second card of a guarded suit becomes the Bock
        return 0.0


# What a card is worth kept for later, in points won or lost (the tuning of the player).
_TRUMP_KEEP = (20.0, 20.0, 20.0, 40.0, 24.0, 50.0, 24.0, 26.0, 30.0)  # by rank 6 7 8 9 10 J Q K A
_BOCK_KEEP = 8.0  # a Bock beside trumps (it may still be cut)
_BOCK_KEEP_NO_TRUMP = 10.0  # a Bock in Obenabe or Undenufe
_SECOND_KEEP = 7.0
_PER_CARD_TO_COME = 3.0  # points the cards still to come bring to the trick, on average
_TRUMP_LEAD_PENALTY = 6.0
_UNWANTED_PENALTY = 4.0
_BOCK_LEAD_BONUS = 10.0  # leading a Bock keeps the lead: it costs nothing kept
_RESCUE_QUANTILE = 1  # in quarters: which of its possible beaters an opponent is taken to play
_LOW_TRUMP_LEAD = 2  # who named trumps, without the top one, leads a low one from this many
_GAME_AT_STAKE = 1000.0  # a trick that can end the game outweighs any hand's points


class RulePlayer:
    """A heuristic player: chooses from the hand's shape, plays by counting the cards."""

    name = "rule"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        o = observation
        if may_thank(o):
            return Thank()
        options = choices(o)
        if o.phase == "contract":
            return choose_contract(o)
        plays = {a.card: a for a in options if isinstance(a, Play)}
        if not plays:
            return options[0]
        if len(plays) == 1:
            return next(iter(plays.values()))
        return plays[choose_card(o, tuple(plays))]


def choose_card(o: Observation, legal: tuple[int, ...]) -> int:
    """The card to play among ``legal``."""
    know = Knowledge(o)
    if not o.trick:
        pulled = _pull_trumps(know, legal)
        if pulled is not None:
            return pulled
    return max(legal, key=lambda c: (_card_score(know, c), -_tie_rank(know, c)))


def _pull_trumps(know: Knowledge, legal: tuple[int, ...]) -> int | None:
    """Lead the highest trump when our side chose, it is the highest still out and the
    opponents may still hold trumps."""
    t = know.trump
    if t < 0 or (know.o.contract_seat - know.seat) % 2:
        return None
    mine = know.mine & SUIT_MASKS[t]
    if not mine:
        return None
    opp = know.may_hold[(know.seat + 1) % 4] | know.may_hold[(know.seat + 3) % 4]
    if not opp & SUIT_MASKS[t]:
        return None
    top = max(cards_of(mine), key=lambda c: TRUMP_STRENGTH[c % 9])
    if top in legal and know.is_bock(top):
        return top
    if know.o.contract_seat == know.seat and mine.bit_count() >= _LOW_TRUMP_LEAD:
        return min(cards_of(mine), key=lambda c: TRUMP_STRENGTH[c % 9])
    return None


def _card_score(know: Knowledge, c: int) -> float:
    o = know.o
    trick_points = sum(know.points[x] for x in o.trick)
    if know.trick_number == 8:
        trick_points += LAST_TRICK_BONUS
    to_come = 3 - len(o.trick)
    stake = trick_points + know.points[c] + _PER_CARD_TO_COME * to_come
    p = know.win_chance(c)
    score = (2 * p - 1) * stake - know.keep_value(c)
    if _trick_decides_the_game(o, stake):
        score += _GAME_AT_STAKE * p  # this trick can end the game: take it, or stop them
    if not o.trick:
        s = c // 9
        if s == know.trump and (o.contract_seat - know.seat) % 2:
            score -= _TRUMP_LEAD_PENALTY  # do not lead trumps into the side that chose them
        if know.unwanted[know.partner] & SUIT_MASKS[s] and s != know.trump:
            score -= _UNWANTED_PENALTY  # the partner discarded from this suit: not wanted
        if s != know.trump and know.is_bock(c):
            score += _BOCK_LEAD_BONUS  # cash the Bock while we hold the lead
    return score


def _trick_decides_the_game(o: Observation, points: float) -> bool:
    """Whether taking this trick (about ``points``) can take either team to the target —
    where the table stops at that moment (``immediate``): a player then plays for the game,
    not for the hand's points."""
    if o.rules.end_mode != "immediate":
        return False
    worth = points * max(o.factor, 1)
    return any(o.rules.target - total <= worth for total in o.totals)


def _tie_rank(know: Knowledge, c: int) -> float:
    """Among equal cards: the lowest card of the suit we hold least strongly goes first
    (the discard signal)."""
    s = c // 9
    strength = sum(
        1
        for x in cards_of(know.mine & SUIT_MASKS[s])
        if know.is_bock(x) or _power(know.contract, x) % 100 >= 6
    )
    return strength * 100 + _power(know.contract, c)


__all__ = ["CHIBRE_THRESHOLD", "Knowledge", "RulePlayer", "choose_contract", "contract_values"]
