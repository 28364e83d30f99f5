"""A game (une partie): hands until a team reaches the target, then the Striche.

``Game`` takes the deal of each hand as a chance action (``Deal``) and the players' actions;
it keeps the totals, decides the end by the table's ``end_mode``, ``claim`` and counting order,
and records everything so that ``GameRecord.replay()`` plays the same game again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random

from chibre.actions import Action, Deal, Declare, Play, Thank
from chibre.cards import ALL_CARDS
from chibre.deal import deal_cards
from chibre.errors import GameOver, IllegalAction
from chibre.events import Event, GameWon, HandStarted, Thanked
from chibre.hand import BLOCKS, Credit, Hand, HandScore, Phase, team_of
from chibre.observation import Observation, observe
from chibre.refusals import refused
from chibre.rules import Rules
from chibre.weis import Weis

CHANCE = -1
"""``Game.current_player`` while the next hand waits for its deal."""


@dataclass
class GameRecord:
    """Everything needed to replay a game: the full option set, then each hand's deal and
    actions as ``(seat, action)`` in order."""

    rules: Rules
    entries: list[tuple[int, Deal | Action]] = field(default_factory=list)

    def replay(self) -> tuple[Game, list[Event]]:
        """Play the record again; returns the game and every event it emitted."""
        game = Game(self.rules)
        events: list[Event] = []
        for seat, action in self.entries:
            events.extend(game.apply(action, None if isinstance(action, Deal) else seat))
        return game, events

    def hands(self) -> list[tuple[Deal, list[tuple[int, Action]]]]:
        """The record split by hand: each deal with the actions that followed it."""
        out: list[tuple[Deal, list[tuple[int, Action]]]] = []
        for seat, action in self.entries:
            if isinstance(action, Deal):
                out.append((action, []))
            elif out:
                out[-1][1].append((seat, action))
        return out


class Game:
    """A chibre game. Seats 0..3; teams 0 = seats {0, 2}, 1 = seats {1, 3}."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.hands: list[Hand] = []
        self.totals = [0, 0]
        self.winner = -1
        self.decided_at: tuple[int, int] = (0, 0)
        self.bergpreis = -1  # the team that reached half the target first
        self.striche = [0, 0]
        self.striche_kinds: tuple[dict[str, int], dict[str, int]] = ({}, {})  # e.g. {"sieg": 2}
        self.record = GameRecord(self.rules)
        self._counted = 0  # credits of the current hand already added to the totals

    # --- reading the state ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.winner >= 0

    @property
    def hand(self) -> Hand | None:
        """The hand being played (or the last one)."""
        return self.hands[-1] if self.hands else None

    @property
    def current_player(self) -> int | None:
        """The seat to act, ``CHANCE`` when a deal is due, ``None`` when the game is over."""
        if self.is_over:
            return None
        hand = self.hand
        if hand is None or hand.is_over:
            return CHANCE
        return hand.to_act

    def written_credits(self) -> list[Credit]:
        """The current hand's credits as the table has written them so far: in
        ``immediate`` mode none after the moment the game was decided."""
        hand = self.hand
        if hand is None:
            return []
        if self.is_over and self.rules.end_mode == "immediate":
            return hand.credits[: self._counted]
        return list(hand.credits)

    def written_score(self) -> HandScore:
        """The current hand's score as the table wrote it, block by block (the credits of
        ``written_credits``): the whole hand's, but for a game decided in it under ``immediate``,
        where what came after that moment — the match after the last trick, say — is not
        written."""
        hand = self.hand
        if hand is None:
            raise IllegalAction("no hand is dealt yet")
        if not (self.is_over and self.rules.end_mode == "immediate"):
            return hand.score()
        blocks = {block: [0, 0] for block in BLOCKS}
        for credit in self.written_credits():
            blocks[credit.block][credit.team] += credit.points // hand.factor
        stoeck, weis, tricks, match = ((blocks[b][0], blocks[b][1]) for b in BLOCKS)
        return HandScore(hand.factor, stoeck, weis, tricks, match)

    def next_dealer(self) -> int | None:
        """Who deals the next hand: the previous chooser; for the first ``None`` (free), but
        seat 3 under ``first_chooser = first_seat`` (seat 0 chooses first, as the Jass
        Challenge protocol has it)."""
        hand = self.hand
        if hand is None:
            return 3 if self.rules.first_chooser == "first_seat" else None
        return hand.chooser

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now — what a player or a client is given."""
        return observe(self, seat)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions of ``seat`` (default: the seat to act): the seat to act its turn's
        actions, and any seat the declarations open to it outside its turn (``Declare``:
        weis after its card, stöck). Under ``claim = thank`` any seat may also thank at any
        moment (``apply(Thank(), seat)``); the list offers it to the seat to act."""
        hand = self.hand
        if self.is_over or hand is None or hand.is_over:
            return []
        actions = hand.legal_actions(seat)
        if self.rules.claim == "thank" and (seat is None or seat == hand.to_act):
            actions.append(Thank())
        return actions

    # --- acting --------------------------------------------------------------------------

    def deal(self, rng: Random) -> list[Event]:
        """Deal the next hand from ``rng`` (a seeded ``Random`` for tests and replays,
        ``secrets.SystemRandom()`` for real play) and apply it."""
        if self.is_over:
            raise GameOver("the game is over")
        if self.hand is not None and not self.hand.is_over:
            raise IllegalAction("the current hand is not finished")
        dealer = self.next_dealer()
        return self.apply(deal_cards(rng, rng.randrange(4) if dealer is None else dealer))

    def apply(self, action: Deal | Action, seat: int | None = None) -> list[Event]:
        """Apply a deal (chance) or a seat's action; returns the events. A refused action
        raises and changes nothing."""
        if self.is_over:
            raise GameOver("the game is over")
        if isinstance(action, Deal):
            events = self._start_hand(action)
            self.record.entries.append((CHANCE, action))
            return events
        if isinstance(action, Thank):
            events = self._thank(seat)
            assert seat is not None  # checked by _thank
            self.record.entries.append((seat, action))
            return events
        hand = self.hand
        if hand is None or hand.is_over:
            raise IllegalAction("the next hand must be dealt first")
        acting = hand.to_act if seat is None else seat
        if isinstance(action, Play | Declare) and any(isinstance(w, Weis) for w in action.weis):
            action = action._replace(weis=tuple(getattr(w, "cards", w) for w in action.weis))
        events = hand.apply(action, seat)
        events.extend(self._count(hand))
        self.record.entries.append((acting, action))
        return events

    def _start_hand(self, deal: Deal) -> list[Event]:
        hand = self.hand
        if hand is not None and not hand.is_over:
            raise IllegalAction("the current hand is not finished")
        check_deal(deal)
        expected = self.next_dealer()
        if expected is not None and deal.dealer != expected:
            raise IllegalAction(f"seat {expected} deals this hand, not seat {deal.dealer}")
        if expected is not None or self.rules.first_chooser == "right_of_dealer":
            chooser = (deal.dealer + 1) % 4
        else:
            card = self.rules.first_chooser_card
            chooser = next(s for s in range(4) if deal.hands[s] >> card & 1)
        self.hands.append(
            Hand(self.rules, deal.dealer, chooser, deal.hands, (self.totals[0], self.totals[1]))
        )
        self._counted = 0
        return [HandStarted(len(self.hands) - 1, deal.dealer, chooser)]

    def _count(self, hand: Hand) -> list[Event]:
        """Add the hand's new credits to the totals and end the game when it is decided."""
        rules = self.rules
        if rules.end_mode == "end_of_hand":
            if not hand.is_over:
                return []
            credits: list[Credit] = hand.credits_by_block()
        else:
            credits = hand.credits[self._counted :]
        for credit in credits:
            self._counted += 1
            self.totals[credit.team] += credit.points
            if self.bergpreis < 0 and self.totals[credit.team] >= rules.half_target:
                self.bergpreis = credit.team
            if (
                self.winner < 0
                and rules.claim == "auto"
                and self.totals[credit.team] >= rules.target
            ):
                self.decided_at = (self.totals[0], self.totals[1])
                self.winner = credit.team
                if rules.end_mode == "immediate":
                    break  # the game ends at that moment: nothing later is written
        if self.winner >= 0:
            return [self._won()]
        return []

    def _thank(self, seat: int | None) -> list[Event]:
        if self.rules.claim != "thank":
            raise refused("no_thanks")
        if seat is None and self.hand is not None and not self.hand.is_over:
            seat = self.hand.to_act  # as ``legal_actions`` offers it: the seat to act thanks
        if type(seat) is not int or not 0 <= seat <= 3:
            raise IllegalAction(f"say which seat (0..3) thanks, not {seat!r}")
        if self.hand is None:
            raise refused("thank_first_deal")
        team = team_of(seat)
        correct = self.totals[team] >= self.rules.target
        self.decided_at = (self.totals[0], self.totals[1])
        self.winner = team if correct else 1 - team
        return [Thanked(seat, correct), self._won()]

    def _won(self) -> GameWon:
        """Write the Striche of the whole game (RULES.md §8) once the winner is known."""
        s = self.rules.striche
        win, lose = self.winner, 1 - self.winner
        self._strich(win, "sieg", s.sieg)
        for hand in self.hands:
            if hand.phase is not Phase.OVER:
                continue
            winners = {t.winner & 1 for t in hand.tricks}
            if len(winners) == 1:
                team = winners.pop()
                if team == team_of(hand.contract_seat):
                    self._strich(team, "match", s.match)
                else:
                    self._strich(team, "kontermatsch", s.kontermatsch)
        if self.bergpreis >= 0:
            self._strich(self.bergpreis, "bergpreis", s.bergpreis)
        if self.decided_at[lose] < self.rules.half_target:
            self._strich(win, "schneider", s.schneider)
        return GameWon(win, self.decided_at, (self.striche[0], self.striche[1]))

    def _strich(self, team: int, kind: str, count: int) -> None:
        if count:
            self.striche[team] += count
            kinds = self.striche_kinds[team]
            kinds[kind] = kinds.get(kind, 0) + count


def check_deal(deal: Deal) -> None:
    """Raise ``IllegalAction`` unless the deal gives 9 distinct cards to each seat."""
    if not isinstance(deal.dealer, int) or not 0 <= deal.dealer <= 3:
        raise IllegalAction(f"dealer must be a seat 0..3, not {deal.dealer!r}")
    hands: Sequence[int] = deal.hands
    if len(hands) != 4:
        raise IllegalAction("a deal has four hands")
    seen = 0
    for seat, h in enumerate(hands):
        if not isinstance(h, int) or h < 0 or h & ~ALL_CARDS or h.bit_count() != 9:
            raise IllegalAction(f"seat {seat} must be dealt 9 cards")
        if seen & h:
            raise IllegalAction(f"seat {seat} is dealt a card that another seat holds")
        seen |= h
