"""What one seat may know — the only view of a game a player (or a bot, or a client) gets.

``observe(game, seat)`` is the one audited place where hidden cards are kept hidden: the seat's
own cards, the public plays, the announced weis values, the weis shown by the winning team,
declared stöck, the scores and the rules — and nothing of any other seat's unplayed cards
beyond what a shown weis made public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chibre.actions import Action
from chibre.cards import card_code, cards_of
from chibre.hand import Trick
from chibre.rules import Rules
from chibre.weis import Weis

if TYPE_CHECKING:
    from chibre.game import Game


@dataclass(frozen=True)
class Observation:
    """Everything ``seat`` may know of the game at this moment."""

    seat: int
    rules: Rules
    hand_number: int  # -1 before the first deal
    dealer: int
    chooser: int  # who had to choose (and leads the first trick)
    phase: str  # "deal", "contract", "play", "over"
    to_act: int  # the seat to act; -1 for none (a deal is due, or the game is over)
    hand: int  # this seat's cards not yet played
    chibres: int  # how many times the choice was passed
    contract: int  # -1 before it is named
    contract_seat: int
    factor: int
    tricks: tuple[Trick, ...]  # complete tricks of this hand
    trick: tuple[int, ...]  # the trick being played, from its leader
    trick_leader: int
    announced: tuple[int, int, int, int]  # each seat's announced weis value (0: none)
    own_weis: tuple[Weis, ...]  # what this seat declared
    shown_weis: tuple[tuple[int, Weis], ...]  # (seat, weis) of the team that won the weis
    weis_team: int  # -1 until the first trick is complete, or when nobody had weis
    stoeck_seat: int  # the seat whose stöck were declared, -1 if none
    hand_points: tuple[int, int]  # written so far for this hand, after the multiplier
    totals: tuple[int, int]  # game totals
    winner: int  # -1 while the game goes on
    striche: tuple[int, int]
    legal_actions: tuple[Action, ...]  # its turn's actions; out of turn only declarations

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (cards as codes such as ``"H10"``)."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "chooser": self.chooser,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": [card_code(c) for c in cards_of(self.hand)],
            "chibres": self.chibres,
            "contract": self.contract,
            "contract_seat": self.contract_seat,
            "factor": self.factor,
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [card_code(c) for c in t.cards],
                    "winner": t.winner,
                    "points": t.points,
                }
                for t in self.tricks
            ],
            "trick": [card_code(c) for c in self.trick],
            "trick_leader": self.trick_leader,
            "announced": list(self.announced),
            "own_weis": [[card_code(c) for c in cards_of(w.cards)] for w in self.own_weis],
            "shown_weis": [
                {"seat": s, "cards": [card_code(c) for c in cards_of(w.cards)], "points": w.points}
                for s, w in self.shown_weis
            ],
            "weis_team": self.weis_team,
            "stoeck_seat": self.stoeck_seat,
            "hand_points": list(self.hand_points),
            "totals": list(self.totals),
            "winner": self.winner,
            "striche": list(self.striche),
        }


def observe(game: Game, seat: int) -> Observation:
    """The observation of ``seat`` (0..3) in ``game``."""
    if not 0 <= seat <= 3:
        raise ValueError(f"no seat {seat}")
    current = game.current_player
    to_act = current if current is not None and current >= 0 else -1
    legal = tuple(game.legal_actions(seat)) if to_act >= 0 else ()
    totals = (game.totals[0], game.totals[1])
    striche = (game.striche[0], game.striche[1])
    hand = game.hand
    if hand is None:
        return Observation(
            seat=seat, rules=game.rules, hand_number=-1, dealer=-1, chooser=-1, phase="deal",
            to_act=to_act, hand=0, chibres=0, contract=-1, contract_seat=-1, factor=1,
            tricks=(), trick=(), trick_leader=-1, announced=(0, 0, 0, 0), own_weis=(),
            shown_weis=(), weis_team=-1, stoeck_seat=-1, hand_points=(0, 0), totals=totals,
            winner=game.winner, striche=striche, legal_actions=legal,
        )  # fmt: skip
    shown: tuple[tuple[int, Weis], ...] = ()
    if hand.weis_team >= 0:
        t = hand.weis_team
        shown = tuple((s, w) for s in (t, t + 2) for w in hand.declared[s])
    points = [0, 0]
    for credit in game.written_credits():
        points[credit.team] += credit.points
    a = hand.announced
    phase = "over" if game.is_over else ("deal" if hand.is_over else hand.phase.value)
    return Observation(
        seat=seat,
        rules=game.rules,
        hand_number=len(game.hands) - 1,
        dealer=hand.dealer,
        chooser=hand.chooser,
        phase=phase,
        to_act=to_act,
        hand=hand.hands[seat],
        chibres=hand.chibred,
        contract=hand.contract,
        contract_seat=hand.contract_seat,
        factor=hand.factor,
        tricks=tuple(hand.tricks),
        trick=tuple(hand.trick) if not hand.is_over else (),
        trick_leader=hand.leader,
        announced=(a[0], a[1], a[2], a[3]),
        own_weis=hand.declared[seat],
        shown_weis=shown,
        weis_team=hand.weis_team,
        stoeck_seat=hand.stoeck_seat if hand.stoeck_declared else -1,
        hand_points=(points[0], points[1]),
        totals=totals,
        winner=game.winner,
        striche=striche,
        legal_actions=legal,
    )
