"""One hand (une donne, ein Spiel): the contract, nine tricks with their declarations, the score.

``Hand`` is a state machine: ``apply(action)`` checks the action against the rules, changes
the state and returns the events; a refused action raises and changes nothing. Points are
recorded as ``Credit``s in the order they arise, so the game can tell when a target was reached.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from chibre.actions import Action, Chibre, Choose, Declare, Play, Thank
from chibre.cards import SUIT_MASKS, cards_of
from chibre.errors import GameOver, IllegalAction, IllegalCard, NotYourTurn
from chibre.events import (
    CardPlayed,
    Chibred,
    ContractNamed,
    Event,
    HandScored,
    StoeckDeclared,
    TrickTaken,
    WeisAdded,
    WeisAnnounced,
    WeisScored,
)
from chibre.play import (
    BOURG,
    CARD_POINTS,
    LAST_TRICK_BONUS,
    LOWER_TRUMPS,
    MATCH_BONUS,
    STRENGTH,
    why_illegal,
)
from chibre.refusals import refused
from chibre.rules import Contract, Rules
from chibre.weis import (
    STOECK_CARDS,
    STOECK_POINTS,
    Weis,
    best_weis,
    check_declaration,
    weis_of,
    weis_reason,
    weis_winner,
)

BLOCKS = ("stoeck", "weis", "tricks", "match")
_new = tuple.__new__  # builds a NamedTuple without its argument-parsing wrapper (hot path)


class Phase(StrEnum):
    CONTRACT = "contract"
    PLAY = "play"
    OVER = "over"


_PLAY = Phase.PLAY
_CHOICES = tuple(Choose(k) for k in Contract)
_SPADES_DOUBLE = Choose(Contract.SPADES, True)
_CHIBRE = Chibre()
_BITS = tuple(1 << c for c in range(36))
# The events of every card and every trick, made once (a trick is worth at most 60 points).
_CARD_PLAYED = tuple(tuple(CardPlayed(seat, c) for c in range(36)) for seat in range(4))
_TRICK_TAKEN = tuple(
    TrickTaken(number, winner, pts)
    for number in range(9)
    for winner in range(4)
    for pts in range(64)
)


class Credit(NamedTuple):
    """Points written for one team at one moment, after the multiplier."""

    team: int
    block: str  # one of BLOCKS
    points: int


class Trick(NamedTuple):
    """Un pli / ein Stich, complete."""

    leader: int
    cards: tuple[int, ...]  # in play order, from the leader
    winner: int
    points: int  # card points (+5 on the last trick), before the multiplier


def team_of(seat: int) -> int:
    return seat & 1


class HandScore(NamedTuple):
    """A hand's score per team in separate blocks, before the multiplier, and the factor."""

    factor: int
    stoeck: tuple[int, int]
    weis: tuple[int, int]
    tricks: tuple[int, int]  # card points and the last-trick 5
    match: tuple[int, int]

    def total(self, team: int) -> int:
        raw = self.stoeck[team] + self.weis[team] + self.tricks[team] + self.match[team]
        return raw * self.factor

    @property
    def totals(self) -> tuple[int, int]:
        return (self.total(0), self.total(1))


class Hand:
    """The state of one hand. Seats 0..3, teams {0, 2} and {1, 3}; play goes seat + 1."""

    __slots__ = (
        "_best_card", "_best_seat", "_best_strength", "_bourg", "_led", "_legal", "_lower",
        "_points", "_stoeck_seat", "_strength", "_trump_suit",
        "announced", "chibred", "chooser", "compared", "contract", "contract_seat", "credits",
        "dealer",
        "dealt", "declared", "double", "factor", "hands", "leader", "phase", "raw", "rules",
        "stoeck_declared", "to_act", "totals_before", "trick", "tricks", "weis_team",
    )  # fmt: skip

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        chooser: int,
        hands: Sequence[int],
        totals_before: tuple[int, int] = (0, 0),
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.chooser = chooser
        self.dealt: tuple[int, ...] = tuple(hands)
        self.hands: list[int] = list(hands)
        self.totals_before = totals_before
        self.phase = Phase.CONTRACT
        self.to_act = chooser
        self.chibred = 0  # how many times the choice was passed
        self.contract = -1
        self.contract_seat = -1
        self.double = False
        self.factor = 1
        self.leader = chooser
        self.trick: list[int] = []
        # The trick being played, kept up to date card by card (the hot path):
        self._legal = 0  # legal cards of the seat to act; -1 until computed
        self._led = 0  # the led suit, as a set of cards
        self._strength: tuple[int, ...] = ()  # STRENGTH[contract][led suit]
        self._best_card = self._best_seat = self._best_strength = -1
        # Fixed once the contract is named:
        self._points: tuple[int, ...] = ()  # CARD_POINTS[contract]
        self._trump_suit = 0  # the trump suit as a set of cards; 0 in Obenabe / Undenufe
        self._bourg = 0
        self._lower: tuple[int, ...] = ()  # LOWER_TRUMPS[trump]
        self.tricks: list[Trick] = []
        self.announced: list[int] = [0, 0, 0, 0]  # value of each seat's best weis
        self.declared: list[tuple[Weis, ...]] = [(), (), (), ()]
        self.compared = [0, 0, 0, 0]  # how many of each seat's weis its announcement holds
        self.weis_team = -1
        self._stoeck_seat = -1
        self.stoeck_declared = False
        self.credits: list[Credit] = []
        self.raw = [[0, 0, 0, 0], [0, 0, 0, 0]]  # per team, per block of BLOCKS

    def copy(self) -> Hand:
        """An independent copy (for search: play on the copy, keep the original)."""
        new = Hand.__new__(Hand)
        for name in Hand.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands.copy()
        new.trick = self.trick.copy()
        new.tricks = self.tricks.copy()
        new.announced = self.announced.copy()
        new.declared = self.declared.copy()
        new.compared = self.compared.copy()
        new.credits = self.credits.copy()
        new.raw = [self.raw[0].copy(), self.raw[1].copy()]
        return new

    # --- reading the state ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def trick_number(self) -> int:
        return len(self.tricks)

    @property
    def stoeck_seat(self) -> int:
        """The seat holding king and queen of trump (-1: none, or stöck are off)."""
        return self._stoeck_seat

    @property
    def weis_reason(self) -> str | None:
        """Why the team that writes the weis won the comparison (``weis.WEIS_REASONS``):
        ``None`` before the first trick is complete, or when only one team announced."""
        if self.weis_team < 0:
            return None
        return weis_reason(self._compared_weis(), self.contract, self.chooser, self.rules)

    def _compared_weis(self) -> list[tuple[Weis, ...]]:
        """Each seat's weis that enter the comparison: those of its announcement, not the
        further weis declared later in the first trick."""
        return [self.declared[s][: self.compared[s]] for s in range(4)]

    def score(self) -> HandScore:
        r = self.raw
        return HandScore(
            self.factor,
            (r[0][0], r[1][0]),
            (r[0][1], r[1][1]),
            (r[0][2], r[1][2]),
            (r[0][3], r[1][3]),
        )

    def legal_cards(self) -> int:
        """The cards the seat to act may play, as a set (empty outside the play).

        The same as ``play.legal_cards``, computed from the trick's running state and kept
        until the next card is played.
        """
        legal = self._legal
        if legal >= 0:
            return legal
        hand = self.hands[self.to_act]
        trump_suit = self._trump_suit
        if not self.trick:
            legal = hand
        elif not trump_suit:
            legal = hand & self._led or hand
        elif self._led == trump_suit:
            # Trump led: follow with a trump — but the bourg is never forced out.
            trumps = hand & trump_suit
            legal = trumps if trumps and trumps != self._bourg else hand
        else:
            follow = hand & self._led
            trumps = hand & trump_suit
            legal = (follow | trumps) if follow else hand
            if self._best_strength >= 100 and trumps != hand:  # no undertrumping
                legal &= ~self._lower[self._best_card]
        self._legal = legal
        return legal

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now: the seat to act its
        turn's actions, then, for any seat, the declarations open to it (``declarations``).

        Where the player declares weis, the choices listed are none or the best set; any
        other valid set (``weis.check_declaration``) is accepted too.
        """
        if seat is not None and seat != self.to_act:
            return list(self.declarations(seat))
        if self.phase is Phase.CONTRACT:
            return self._contract_actions()
        if self.phase is Phase.OVER:
            return []
        seat = self.to_act
        weis_options: list[tuple[int, ...]] = [()]
        if self._declares_weis():
            best = best_weis(self.dealt[seat], self.rules, self.contract)
            if best:
                weis_options.append(tuple(w.cards for w in best))
        out: list[Action] = []
        for c in cards_of(self.legal_cards()):
            for ws in weis_options:
                out.append(Play(c, ws))
                if self._may_declare_stoeck(seat, c, ws):
                    out.append(Play(c, ws, True))
        out += self.declarations(seat)
        return out

    def declarations(self, seat: int) -> list[Declare]:
        """The declarations ``seat`` may make now outside its card (``Declare``): the best
        weis it may still declare, and the stöck. Any other valid set of weis is accepted."""
        if self.phase is not _PLAY or type(seat) is not int or not 0 <= seat <= 3:
            return []
        out: list[Declare] = []
        window = self._weis_window(seat)
        further: tuple[int, ...] = ()
        if window:
            further = self._weis_left(seat)
            # further weis count only for the team that won the comparison
            if further and (window == "first" or not self.tricks or self._weis_pays(seat)):
                out.append(Declare(further))
        if self._may_declare_stoeck_now(seat, ()):
            out.append(Declare((), True))
        elif further and self._may_declare_stoeck_now(seat, further):
            out.append(Declare(further, True))
        return out

    def _contract_actions(self) -> list[Action]:
        out: list[Action] = [*_CHOICES]
        if self.rules.pique_double == "choice":
            out.append(_SPADES_DOUBLE)
        if self.chibred == 0 or (self.chibred == 1 and self.rules.chibre_back):
            out.append(_CHIBRE)
        return out

    def _declares_weis(self) -> bool:
        return not self.tricks and self.rules.weis and not self.rules.auto_weis

    # --- acting --------------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply ``action`` by ``seat`` (default: the seat to act); returns the events."""
        if self.phase is Phase.OVER:
            raise GameOver("the hand is over")
        kind = type(action)
        if kind is Declare:
            assert isinstance(action, Declare)
            return self.declare(self.to_act if seat is None else seat, action.weis, action.stoeck)
        if seat is not None and seat != self.to_act:
            raise NotYourTurn(f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if kind is Play:
            assert isinstance(action, Play)
            if type(action.card) is not int:
                raise IllegalCard(f"{action.card!r} is not a card")
            return self.play(action.card, action.weis, action.stoeck)
        if kind is Choose:
            assert isinstance(action, Choose)
            return self.choose(action.contract, action.double)
        if kind is Chibre:
            return self.chibre()
        if kind is Thank:
            raise IllegalAction("thanking ends the game: apply it to the Game")
        raise IllegalAction(f"unknown action {action!r}")

    def chibre(self) -> list[Event]:
        if self.phase is not Phase.CONTRACT:
            raise refused("contract_named")
        if self.chibred and not (self.chibred == 1 and self.rules.chibre_back):
            raise refused("no_second_chibre")
        seat = self.to_act
        self.chibred += 1
        self.to_act = (seat + 2) % 4
        return [Chibred(seat)]

    def choose(self, contract: int, double: bool = False) -> list[Event]:
        if self.phase is not Phase.CONTRACT:
            raise refused("contract_named")
        if not isinstance(contract, int) or isinstance(contract, bool) or not 0 <= contract <= 5:
            raise IllegalAction(
                f"unknown contract {contract!r}: 0..3 trumps, 4 Obenabe, 5 Undenufe"
            )
        if double and not (self.rules.pique_double == "choice" and contract == Contract.SPADES):
            raise refused("double_spades_only")
        seat = self.to_act
        self.contract = contract
        self.double = bool(double)
        self.factor = self.rules.factor(contract, self.double)
        self.contract_seat = seat
        self.phase = Phase.PLAY
        self.to_act = self.leader = self.chooser
        self._legal = -1
        self._points = CARD_POINTS[contract]
        if contract < 4:
            self._trump_suit = SUIT_MASKS[contract]
            self._bourg = BOURG[contract]
            self._lower = LOWER_TRUMPS[contract]
        events: list[Event] = [_new(ContractNamed, (seat, contract, self.factor))]
        sc = STOECK_CARDS[contract]
        if sc and self.rules.stoeck:
            for s in range(4):
                if self.dealt[s] & sc == sc:
                    self._stoeck_seat = s
            events += self._show_winning_stoeck()
        return events

    def play(self, card: int, weis: Sequence[int] = (), stoeck: bool = False) -> list[Event]:
        """Play ``card`` for the seat to act (with a declaration where the player makes it)."""
        seat = self.to_act
        hand = self.hands[seat]
        legal = self._legal  # 0 outside the play phase
        if legal < 0:
            legal = self.legal_cards()
        try:
            accepted = legal >> card & 1
        except (TypeError, ValueError):
            accepted = 0
        if not accepted:
            if self.phase is Phase.OVER:
                raise GameOver("the hand is over")
            if self.phase is not _PLAY:
                raise refused("contract_first")
            if type(card) is not int or not 0 <= card < 36:
                raise IllegalCard(f"{card!r} is not a card")
            raise IllegalCard(why_illegal(hand, self.trick, self.contract, card) or "illegal")
        declared: tuple[Weis, ...] = ()
        if weis:
            declared = self._check_weis(seat, weis)
        if stoeck and not self._may_declare_stoeck(seat, card, [w.cards for w in declared]):
            raise self._why_no_stoeck(seat, card)
        # Accepted: from here on nothing raises.
        self._legal = -1
        self.hands[seat] = hand ^ _BITS[card]
        trick = self.trick
        if trick:
            strength = self._strength[card]
            if strength > self._best_strength:
                self._best_strength = strength
                self._best_card = card
                self._best_seat = seat
        else:
            led = card // 9
            self._led = SUIT_MASKS[led]
            self._strength = STRENGTH[self.contract][led]
            self._best_strength = self._strength[card]
            self._best_card = card
            self._best_seat = seat
        trick.append(card)
        events: list[Event] = [_CARD_PLAYED[seat][card]]
        if not self.tricks:
            events += self._announce(seat, declared)
        if self._stoeck_seat == seat and not self.stoeck_declared:
            events += self._stoeck_on_play(seat, card, stoeck)
        if len(trick) == 4:
            events += self._gather()
        else:
            self.to_act = (seat + 1) & 3
        return events

    def declare(self, seat: int, weis: Sequence[int] = (), stoeck: bool = False) -> list[Event]:
        """Declare weis or stöck outside one's card (``Declare``): any seat, in its window."""
        if self.phase is Phase.OVER:
            raise GameOver("the hand is over")
        if weis and not (self.rules.weis and not self.rules.auto_weis):  # the table's rules first
            raise refused("weis_off" if not self.rules.weis else "table_declares")
        if self.phase is not _PLAY:
            raise refused("contract_first")
        if type(seat) is not int or not 0 <= seat <= 3:
            raise IllegalAction(f"say which seat (0..3) declares, not {seat!r}")
        if not isinstance(weis, tuple | list) or not isinstance(stoeck, bool):
            raise IllegalAction("a declaration is a list of weis (sets of cards) and a stöck flag")
        if not weis and not stoeck:
            raise refused("nothing_to_declare")
        window = ""
        declared: tuple[Weis, ...] = ()
        if weis:
            window = self._weis_window(seat)
            if not window:
                raise self._why_no_weis_window(seat)
            declared = self._read_weis(seat, weis, self.declared[seat])
        if stoeck and not self._may_declare_stoeck_now(seat, [w.cards for w in declared]):
            raise self._why_no_stoeck_now(seat)
        # Accepted: from here on nothing raises.
        events: list[Event] = []
        if window == "first":
            events += self._announce(seat, declared)
        elif declared:
            events += self._add_weis(seat, declared)
        if stoeck:
            if not self.tricks and self._stoeck_in_weis([w.cards for w in self.declared[seat]]):
                events += self._mark_stoeck_in_weis(seat)
            else:
                events.append(self._declare_stoeck())
        return events

    # --- weis and stöck ------------------------------------------------------------------

    def _check_weis(self, seat: int, weis: Sequence[int]) -> tuple[Weis, ...]:
        if not self._declares_weis():
            if self.tricks:
                raise refused("weis_first_trick")
            raise refused("weis_off" if not self.rules.weis else "table_declares")
        return self._read_weis(seat, weis, ())

    def _read_weis(
        self, seat: int, weis: Sequence[int], before: tuple[Weis, ...]
    ) -> tuple[Weis, ...]:
        """The weis given by their cards, checked together with those declared ``before``."""
        for m in weis:
            if type(m) is not int and not isinstance(m, Weis):
                raise IllegalAction(f"a weis is given by its cards (a set of cards), not {m!r}")
        declared = tuple(weis_of(getattr(m, "cards", m), self.rules) for m in weis)
        check_declaration(self.dealt[seat], (*before, *declared), self.rules)
        return declared

    def _weis_window(self, seat: int) -> str:
        """Whether ``seat`` may declare weis outside its card now (RULES.md §5): ``"first"``
        (its announcement, after its card until the next player plays), ``"further"`` (more
        weis after an announcement, until the lead to the second trick) or ``""``."""
        if not self.rules.weis or self.rules.auto_weis or self.phase is not _PLAY:
            return ""
        trick = self.trick
        if not self.tricks:
            if (seat - self.leader) & 3 >= len(trick):
                return ""  # it has not played yet: it declares with its card
            if self.declared[seat]:
                return "further"
            return "first" if (self.leader + len(trick) - 1) & 3 == seat else ""
        if len(self.tricks) == 1 and not trick and self.declared[seat]:
            return "further"
        return ""

    def _why_no_weis_window(self, seat: int) -> IllegalAction:
        if not self.rules.weis:
            return refused("weis_off")
        if self.rules.auto_weis:
            return refused("table_declares")
        if len(self.tricks) > 1 or (self.tricks and self.trick):
            return refused("weis_too_late")
        if self.tricks:
            return refused("weis_none_announced")
        if (seat - self.leader) & 3 >= len(self.trick):
            return refused("weis_with_card")
        return refused("weis_next_played")

    def _weis_left(self, seat: int) -> tuple[int, ...]:
        """The cards of the best weis ``seat`` may still add to what it has declared."""
        chosen = list(self.declared[seat])
        out: list[int] = []
        for w in best_weis(self.dealt[seat], self.rules, self.contract):
            if w in chosen:
                continue
            try:
                check_declaration(self.dealt[seat], [*chosen, w], self.rules)
            except IllegalAction:
                continue
            chosen.append(w)
            out.append(w.cards)
        return tuple(out)

    def _weis_pays(self, seat: int) -> bool:
        """Has the seat's team won the weis comparison (so further weis count)?"""
        return self.weis_team == team_of(seat)

    def _add_weis(self, seat: int, declared: tuple[Weis, ...]) -> list[Event]:
        """Further weis: kept with the seat's; after the comparison credited and shown at once
        if its team won it, else they count nothing and stay private."""
        self.declared[seat] += declared
        if not (self.tricks and self._weis_pays(seat)):
            return [WeisAdded(seat, 0, ())]
        total = 0
        for w in declared:
            total += w.points
        self._credit(team_of(seat), 1, total)
        events: list[Event] = [
            WeisAdded(seat, total * self.factor, tuple((seat, w) for w in declared))
        ]
        return events + self._show_winning_stoeck()

    def _announce(self, seat: int, declared: tuple[Weis, ...]) -> list[Event]:
        if not self.rules.weis:
            return []
        if self.rules.auto_weis:
            declared = best_weis(self.dealt[seat], self.rules, self.contract)
        if not declared:
            return []
        best = 0
        for w in declared:
            if w.points > best:
                best = w.points
        self.declared[seat] = declared
        self.compared[seat] = len(declared)
        self.announced[seat] = best
        return [_new(WeisAnnounced, (seat, best))]

    def _stoeck_in_weis(self, weis: Sequence[int]) -> bool:
        """Are the stöck part of one of these weis (``stoeck_in_weis``)?"""
        sc = STOECK_CARDS[self.contract]
        return self.rules.stoeck_in_weis and any(m & sc == sc for m in weis)

    def _stoeck_wins_now(self) -> bool:
        """Would the stöck take the holder's team to the target right now (immediate mode)?"""
        if self.rules.end_mode != "immediate":
            return False
        team = team_of(self._stoeck_seat)
        written = self.totals_before[team] + sum(self.raw[team]) * self.factor
        return written + STOECK_POINTS * self.factor >= self.rules.target

    def _may_declare_stoeck(self, seat: int, card: int, weis: Sequence[int]) -> bool:
        if self.rules.auto_stoeck or seat != self._stoeck_seat or self.stoeck_declared:
            return False
        if not self.tricks and self.rules.stoeck_in_weis:
            if self.rules.auto_weis and self.rules.weis:  # the table announces the weis
                weis = [w.cards for w in best_weis(self.dealt[seat], self.rules, self.contract)]
            if self._stoeck_in_weis(weis):
                return True
        if self._stoeck_wins_now():
            return True  # shown with any card: they take the team to the target
        sc = STOECK_CARDS[self.contract]
        return bool(sc >> card & 1) and self.hands[seat] & sc == 1 << card  # the second one

    def _may_declare_stoeck_now(self, seat: int, weis: Sequence[int]) -> bool:
        """May ``seat`` declare its stöck outside a card (``Declare``), with these new weis?"""
        if (
            self.rules.auto_stoeck
            or seat != self._stoeck_seat
            or self.stoeck_declared
            or self.phase is not _PLAY
        ):
            return False
        if self._stoeck_wins_now():
            return True  # at any time, even before either card is played
        trick, sc = self.trick, STOECK_CARDS[self.contract]
        if (
            trick
            and (self.leader + len(trick) - 1) & 3 == seat
            and sc >> trick[-1] & 1
            and not self.hands[seat] & sc
        ):
            return True  # the second of king and queen, and the next player has not played
        if not self.tricks and self._weis_window(seat):
            return self._stoeck_in_weis([*(w.cards for w in self.declared[seat]), *weis])
        return False

    def _why_no_stoeck_basic(self, seat: int) -> IllegalAction | None:
        if not self.rules.stoeck:
            return refused("stoeck_off")
        if self.contract >= 4:
            return refused("no_stoeck_contract")
        if self.rules.auto_stoeck:
            return refused("table_declares_stoeck")
        if seat != self._stoeck_seat:
            return refused("no_stoeck_cards")
        if self.stoeck_declared:
            return refused("stoeck_declared")
        return None

    def _why_no_stoeck(self, seat: int, card: int) -> IllegalAction:
        return self._why_no_stoeck_basic(seat) or refused("stoeck_with_card", card=card)

    def _why_no_stoeck_now(self, seat: int) -> IllegalAction:
        return self._why_no_stoeck_basic(seat) or refused("stoeck_when")

    def _stoeck_on_play(self, seat: int, card: int, flag: bool) -> list[Event]:
        sc = STOECK_CARDS[self.contract]
        if self.rules.auto_stoeck:
            if not self.tricks and self._stoeck_in_weis([w.cards for w in self.declared[seat]]):
                return self._mark_stoeck_in_weis(seat)
            if self.hands[seat] & sc == 0 and sc >> card & 1:
                return [self._declare_stoeck()]
            return []
        if not flag:
            return []
        if not self.tricks and self._stoeck_in_weis([w.cards for w in self.declared[seat]]):
            return self._mark_stoeck_in_weis(seat)
        return [self._declare_stoeck()]

    def _mark_stoeck_in_weis(self, seat: int) -> list[Event]:
        """Stöck declared with the weis: credited with them when the first trick is complete."""
        self.stoeck_declared = True
        return [StoeckDeclared(seat, STOECK_POINTS * self.factor)]

    def _declare_stoeck(self) -> Event:
        self.stoeck_declared = True
        if not self.tricks and self._stoeck_after_weis():
            # shown before the first trick is complete, under a counting order that puts the
            # weis first: credited right after that trick's weis (RULES.md §7)
            return StoeckDeclared(self._stoeck_seat, STOECK_POINTS * self.factor)
        self._credit(team_of(self._stoeck_seat), 0, STOECK_POINTS)
        return StoeckDeclared(self._stoeck_seat, STOECK_POINTS * self.factor)

    def _stoeck_after_weis(self) -> bool:
        """Does the counting order credit the first trick's weis before stöck shown early?"""
        order = self.rules.order
        return self.rules.weis and order.index("weis") < order.index("stoeck")

    def _credit(self, team: int, block: int, raw: int) -> None:
        self.raw[team][block] += raw
        self.credits.append(_new(Credit, (team, BLOCKS[block], raw * self.factor)))

    # --- the end of a trick and of the hand ----------------------------------------------

    def _gather(self) -> list[Event]:
        winner = self._best_seat
        points = self._points
        c0, c1, c2, c3 = trick = tuple(self.trick)
        pts = points[c0] + points[c1] + points[c2] + points[c3]
        tricks = self.tricks
        number = len(tricks)
        if number == 8:
            pts += LAST_TRICK_BONUS
        tricks.append(_new(Trick, (self.leader, trick, winner, pts)))
        events: list[Event] = [_TRICK_TAKEN[(number * 4 + winner) * 64 + pts]]
        team = winner & 1
        if number == 0:
            events += self._first_trick_credits(team, pts)
        else:
            self.raw[team][2] += pts
            self.credits.append(_new(Credit, (team, "tricks", pts * self.factor)))
            if self._stoeck_seat >= 0 and not self.stoeck_declared:
                events += self._show_winning_stoeck()
        if number == 8:
            events.append(self._finish())
        else:
            self.leader = self.to_act = winner
            self.trick = []
        return events

    def _first_trick_credits(self, trick_team: int, trick_points: int) -> list[Event]:
        """Weis, stöck shown with them and the first trick's points: one moment, credited in
        the table's counting order."""
        stoeck_seat = self._stoeck_seat
        stoeck_pending = (
            self.stoeck_declared and stoeck_seat >= 0 and self.raw[team_of(stoeck_seat)][0] == 0
        )
        if not stoeck_pending and not any(self.declared):
            self._credit(trick_team, 2, trick_points)
            return self._show_winning_stoeck() if stoeck_seat >= 0 else []
        events: list[Event] = []
        steps: dict[str, tuple[int, int, int]] = {"tricks": (trick_team, 2, trick_points)}
        if stoeck_pending:
            steps["stoeck"] = (team_of(stoeck_seat), 0, STOECK_POINTS)
        best_seat = weis_winner(self._compared_weis(), self.contract, self.chooser, self.rules)
        if best_seat >= 0:
            team = team_of(best_seat)
            self.weis_team = team
            shown = tuple((s, w) for s in (team, team + 2) for w in self.declared[s])
            total = 0
            for _, w in shown:
                total += w.points
            steps["weis"] = (team, 1, total)
            events.append(_new(WeisScored, (team, total * self.factor, shown)))
        watch_stoeck = stoeck_seat >= 0 and not self.stoeck_declared
        for block in self.rules.order:
            if block in steps:
                self._credit(*steps[block])
                if watch_stoeck:
                    events += self._show_winning_stoeck()
        return events

    def _show_winning_stoeck(self) -> list[Event]:
        """The table shows the stöck as soon as they would take their team to the target
        (``immediate``: "at any time, even before either card is played")."""
        if (
            self._stoeck_seat >= 0
            and not self.stoeck_declared
            and self.rules.auto_stoeck
            and self._stoeck_wins_now()
        ):
            return [self._declare_stoeck()]
        return []

    def _finish(self) -> Event:
        self.phase = Phase.OVER
        self.to_act = -1
        self._legal = 0
        match_team = self.tricks[0].winner & 1
        for t in self.tricks:
            if t.winner & 1 != match_team:
                match_team = -1
                break
        if match_team >= 0:
            self._credit(match_team, 3, MATCH_BONUS)
        r, f = self.raw, self.factor
        return _new(HandScored, ((sum(r[0]) * f, sum(r[1]) * f), match_team))

    def credits_by_block(self) -> list[Credit]:
        """The credits in the table's counting order (``end_of_hand``): block by block, the
        tricks in the order they were taken, the match after them."""
        order = [*self.rules.order]
        order.insert(order.index("tricks") + 1, "match")
        return sorted(self.credits, key=lambda c: order.index(c.block))
