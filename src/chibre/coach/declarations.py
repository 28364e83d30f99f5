"""Weis and stöck the seat could have declared and did not (tables that let the players
declare: ``auto_weis`` or ``auto_stoeck`` off).

What a seat could declare depends on its own cards and the contract only: stöck left
undeclared lose their 20, always credited; a weis left undeclared loses what the team would
have written with it — its points when the team's best weis then wins the comparison with the
other team's as they were declared (RULES.md §5), nothing when it could not have won.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chibre.actions import Deal, Play
from chibre.game import GameRecord
from chibre.hand import Hand, team_of
from chibre.weis import STOECK_CARDS, STOECK_POINTS, Weis, best_weis, weis_winner

STOECK = "stoeck"
WEIS = "weis"


@dataclass(frozen=True)
class Missed:
    """``seat`` did not declare ``kind`` (``weis`` or ``stoeck``) worth ``points`` in hand
    ``hand_index``; ``entry`` is the record's place of the card it was due with; ``cards``
    the cards it was declared by (a set: the weis', or king and queen of trump)."""

    seat: int
    kind: str
    points: int
    hand_index: int
    entry: int
    cards: int = 0


def _due_entries(record: GameRecord) -> list[tuple[int, dict[int, int], dict[int, int]]]:
    """Per hand: its first entry, each seat's first-trick card entry, and the entry of each
    seat's last card played (the stöck are due with the second of king and queen)."""
    out: list[tuple[int, dict[int, int], dict[int, int]]] = []
    cards_in_hand = 0
    for i, (seat, action) in enumerate(record.entries):
        if isinstance(action, Deal):
            out.append((i, {}, {}))
            cards_in_hand = 0
        elif isinstance(action, Play) and out:
            if cards_in_hand < 4:
                out[-1][1][seat] = i
            out[-1][2][seat * 100 + action.card] = i
            cards_in_hand += 1
    return out


def missed_declarations(record: GameRecord, seats: Iterable[int]) -> list[Missed]:
    """Every weis and stöck of ``seats`` left undeclared, hand by hand."""
    rules = record.rules
    wanted = sorted(set(seats))
    if (rules.auto_weis or not rules.weis) and (rules.auto_stoeck or not rules.stoeck):
        return []
    game, _ = record.replay()
    dues = _due_entries(record)
    out: list[Missed] = []
    for h, hand in enumerate(game.hands):
        if hand.contract < 0 or h >= len(dues):
            continue
        _, first, cards = dues[h]
        for seat in wanted:
            dealt = hand.dealt[seat]
            if not rules.auto_weis and rules.weis and seat in first:
                best = best_weis(dealt, rules, hand.contract)
                lost = _weis_written(hand, seat, best) - _weis_written(hand, seat, None)
                if lost > 0:  # the weis its announcement left out (a later one does not compare)
                    announced = hand.declared[seat][: hand.compared[seat]]
                    left = 0
                    for w in best:
                        if w not in announced:
                            left |= w.cards
                    out.append(Missed(seat, WEIS, lost, h, first[seat], left))
            sc = STOECK_CARDS[hand.contract] if hand.contract < 4 else 0
            if not rules.auto_stoeck and rules.stoeck and sc and dealt & sc == sc:
                entries = [cards.get(seat * 100 + c) for c in range(36) if sc >> c & 1]
                declared = hand.stoeck_declared and hand.stoeck_seat == seat
                if all(e is not None for e in entries) and not declared:
                    due = max(e or 0 for e in entries)
                    out.append(Missed(seat, STOECK, STOECK_POINTS * hand.factor, h, due, sc))
    return out


def _weis_written(hand: Hand, seat: int, instead: tuple[Weis, ...] | None) -> int:
    """The weis points the team of ``seat`` writes in ``hand`` (after the multiplier), had
    ``seat`` announced ``instead`` at the first trick (``None``: as it did); the other
    seats' weis as they were declared."""
    declared = list(hand.declared)
    compared = [ws[: hand.compared[s]] for s, ws in enumerate(declared)]
    if instead is not None:
        declared[seat] = compared[seat] = instead
    best = weis_winner(compared, hand.contract, hand.chooser, hand.rules)
    team = team_of(seat)
    if best < 0 or team_of(best) != team:
        return 0
    return hand.factor * sum(w.points for s in (team, team + 2) for w in declared[s])
