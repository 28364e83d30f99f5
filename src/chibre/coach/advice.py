"""Advice for a hand held at a real table: the contract or the card, with the reason.

The player gives its nine cards, the dealer and, once it is named, the trump and the cards
played so far, in order from the first lead. The coach builds the observation seat 0 (the
player) would have at a table dealing those cards and asks the same question as a review:
which option is best from what the player knows (``chibre.coach.value``). The other seats'
unseen cards are filled in only to replay the tricks; the observation, and so the advice,
does not depend on how (the tests prove it). Weis and stöck are left aside: the advice is
about the contract and the card play (a real table's announcements are not entered).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from chibre.actions import Action, Chibre, Choose, Deal, Play
from chibre.bots.player import choices
from chibre.cards import ALL_CARDS, SUIT_MASKS, card_symbol, cards_of, parse_card
from chibre.coach.reasons import Reason, card_reason, contract_reason
from chibre.coach.value import Budget, value_cards, value_contract
from chibre.errors import ChibreError, IllegalAction
from chibre.game import Game
from chibre.i18n import text
from chibre.observation import Observation
from chibre.play import BOURG, trick_winner
from chibre.rules import Rules

SEAT = 0
"""The player asking is seat 0; the dealer is given relative to it."""
FILL_TRIES = 400


def played_cards(text: str) -> tuple[int, ...]:
    """The cards played, in order, from codes or symbols separated by spaces or commas."""
    return tuple(parse_card(word) for word in text.replace(",", " ").split())


FIELD_AT_FAULT = {
    "hand_size": "hand",
    "dealer": "dealer",
    "chooser": "dealer",
    "chibred_no_trump": "trump",
    "need_trump": "trump",
}
"""The input a refusal is about, where it is not the cards played (``field``)."""


class InvalidAdvice(IllegalAction):
    """A hand, dealer, trump or sequence of cards that cannot be a real table's; ``key`` and
    ``fields`` say it in the message catalogue (``coach.bad.…``), the message in English;
    ``field`` names the input at fault (``hand``, ``dealer``, ``trump`` or ``played``)."""

    def __init__(self, key: str, **fields: object) -> None:
        self.key = "coach.bad." + key
        self.fields = fields
        self.field = FIELD_AT_FAULT.get(key, "played")
        super().__init__(self.said("en"))

    def __reduce__(self) -> tuple[object, ...]:
        return (_invalid, (self.key.removeprefix("coach.bad."), self.fields))

    def said(self, lang: str) -> str:
        """The message in ``lang``; a seat named from the player's (``your partner``)."""
        fields = dict(self.fields)
        if "seat" in fields:
            fields["who"] = text(lang, f"coach.seat.{fields.pop('seat')}")
        cards = fields.get("cards")
        if isinstance(cards, int):  # a set of cards, written with the language's rank letters
            fields["cards"] = " ".join(card_symbol(c, lang) for c in cards_of(cards))
        return text(lang, self.key, **fields)


def _invalid(key: str, fields: dict[str, object]) -> InvalidAdvice:
    return InvalidAdvice(key, **fields)


@dataclass(frozen=True)
class Advice:
    """The best option, every option with its expected value (best first), and the reason."""

    best: Action
    options: tuple[tuple[Action, float], ...]
    reason: Reason
    kind: str


def advise(o: Observation, budget: Budget | None = None) -> Advice:
    """The coach's choice for the seat to act in ``o``, from ``o`` only."""
    budget = budget or Budget()
    if o.to_act != o.seat or not choices(o):
        raise InvalidAdvice("not_turn")
    if o.phase == "contract":
        v = value_contract(o, budget)
        best = v.best()
        reason, kind = contract_reason(o, v, best), "contract"
    else:
        v = value_cards(o, budget)
        best = v.best()
        reason, kind = card_reason(o, v, best, best), "card"
    means = v.means()
    order = sorted(range(len(v.options)), key=lambda j: -means[j])
    options = tuple((v.options[j], float(means[j])) for j in order)
    return Advice(v.options[best], options, reason, kind)


def _voids(contract: int, dealer: int, played: list[int]) -> tuple[list[int], list[int], int]:
    """Each seat's cards played, the cards the play shows it cannot hold, and the seat to
    play next, trick by trick from the chooser's lead (the engine checks the rest when
    replaying)."""
    cards = [0, 0, 0, 0]
    barred = [0, 0, 0, 0]
    leader = (dealer + 1) & 3
    for start in range(0, len(played), 4):
        trick = played[start : start + 4]
        led = trick[0] // 9
        for i, c in enumerate(trick):
            s = (leader + i) & 3
            cards[s] |= 1 << c
            if i == 0:
                continue
            if contract < 4 and led == contract and c // 9 != contract:
                barred[s] |= SUIT_MASKS[contract] & ~BOURG[contract]
            elif c // 9 != led and (contract >= 4 or c // 9 != contract):
                barred[s] |= SUIT_MASKS[led]
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, contract)) & 3
    return cards, barred, (leader + len(played) % 4) & 3


def observation_for(
    hand: int,
    dealer: int = 3,
    contract: int | None = None,
    played: tuple[int, ...] = (),
    rules: Rules | None = None,
    seed: int = 0,
    chibred: bool = False,
) -> Observation:
    """Seat 0's observation at a table where it was dealt ``hand``, ``dealer`` dealt,
    ``contract`` was named (``None``: still to choose) — by the chooser's partner when the
    chooser ``chibred`` — and ``played`` were played in order; ``InvalidAdvice`` when no table
    could reach it."""
    rules = (rules or Rules()).replace(weis=False, stoeck=False, first_chooser="right_of_dealer")
    if hand.bit_count() != 9 or hand & ~ALL_CARDS:
        raise InvalidAdvice("hand_size", n=hand.bit_count())
    if not 0 <= dealer <= 3:
        raise InvalidAdvice("dealer", dealer=dealer)
    chooser = (dealer + 1) & 3
    if contract is None:
        if chibred and chooser == SEAT:  # the player chibred: its partner named the trump
            raise InvalidAdvice("chibred_no_trump")
        if played:
            raise InvalidAdvice("need_trump")
        if chooser not in (SEAT, SEAT ^ 2):
            raise InvalidAdvice("chooser", seat=chooser)
    if len(set(played)) != len(played):
        raise InvalidAdvice("twice")
    if len(played) == 36:
        raise InvalidAdvice("hand_over")
    k = -1 if contract is None else contract
    mine, barred, to_play = _voids(max(k, 0), dealer, list(played))
    if contract is not None and to_play != SEAT:
        raise InvalidAdvice("their_turn", seat=to_play)
    if mine[SEAT] & ~hand:
        raise InvalidAdvice("not_yours", cards=mine[SEAT] & ~hand)
    others = [s for s in range(4) if s != SEAT]
    if any(mine[s] & hand for s in others):
        raise InvalidAdvice("yours", cards=hand & (mine[1] | mine[2] | mine[3]))
    rng = Random(seed)
    last: ChibreError | None = None
    for _ in range(FILL_TRIES):
        free = ALL_CARDS & ~hand & ~(mine[1] | mine[2] | mine[3])
        hands = [hand, mine[1], mine[2], mine[3]]
        pool = list(cards_of(free))
        rng.shuffle(pool)
        for c in pool:
            seats = [s for s in others if hands[s].bit_count() < 9 and not barred[s] >> c & 1]
            if not seats:
                break
            s = rng.choice(seats)
            hands[s] |= 1 << c
        if any(h.bit_count() != 9 for h in hands):
            continue
        try:
            return _replay(rules, hands, dealer, contract, played, chibred)
        except ChibreError as e:
            last = e
    raise InvalidAdvice("impossible", why=str(last))


def _replay(
    rules: Rules,
    hands: list[int],
    dealer: int,
    contract: int | None,
    played: tuple[int, ...],
    chibred: bool = False,
) -> Observation:
    game = Game(rules)
    game.apply(Deal((hands[0], hands[1], hands[2], hands[3]), dealer))
    chooser = (dealer + 1) & 3
    if contract is None:
        if chooser != SEAT:
            game.apply(Chibre(), chooser)
        return game.observation(SEAT)
    if chibred:
        game.apply(Chibre(), chooser)
    game.apply(Choose(contract), chooser ^ 2 if chibred else chooser)
    for c in played:
        game.apply(Play(c))
    return game.observation(SEAT)
