"""A whole game reviewed: every decision of the chosen seats assessed, and a summary per
player (points lost per hand, accuracy, the biggest mistakes).

``assess(decision, budget)`` values the options of one decision from the seat's observation
(``chibre.coach.value``), grades the loss (``chibre.coach.verdict``) and gives the reason
(``chibre.coach.reasons``); the hindsight column — the best card with every hand open — is
added in the last tricks, where it is exact, and is the only part that reads the real hands.
``review_record`` does it for a record, reporting its progress as it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from chibre.actions import Action, Chibre, Choose, Deal, Play
from chibre.cards import card_code
from chibre.coach.decisions import CARD, Decision, decisions
from chibre.coach.declarations import Missed, missed_declarations
from chibre.coach.reasons import Reason, card_reason, contract_reason, declaration_reason
from chibre.coach.value import Budget, hindsight, paired_loss, value_cards, value_contract
from chibre.coach.verdict import Verdict, grade
from chibre.events import Thanked
from chibre.game import Game, GameRecord
from chibre.notation import format_action, parse_action
from chibre.rules import CONTRACT_NAMES

DEFAULT = Budget()
"""The budget and seed of a review unless told otherwise."""

BIGGEST = 3
"""How many mistakes the summary names."""


def action_code(action: Action) -> str:
    """A short, language-free name: a card code, a contract name, ``chibre``."""
    if isinstance(action, Play):
        return card_code(action.card)
    if isinstance(action, Choose):
        return CONTRACT_NAMES[action.contract] + (" x2" if action.double else "")
    if isinstance(action, Chibre):
        return "chibre"
    return type(action).__name__.lower()


@dataclass(frozen=True)
class Assessment:
    """The coach's word on one decision. ``options``: each option and its expected value
    (points; for the contract, half the margin times the factor), best first; ``loss`` and
    ``error``: the loss of the option taken against the best and its standard error;
    ``hindsight``: the best cards with every hand open (``None`` where not exact);
    ``expected``: for a card, the points the seat's team may expect from the hand with the
    card taken — the points it has taken so far and the card's value from here on."""

    seat: int
    kind: str
    hand_index: int
    entry: int
    taken: Action
    best: Action
    options: tuple[tuple[Action, float], ...]
    loss: float
    error: float
    verdict: Verdict
    reason: Reason
    exact: bool
    hindsight: tuple[int, ...] | None = None
    expected: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (cards as codes)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "hand": self.hand_index,
            "entry": self.entry,
            "taken": action_code(self.taken),
            "best": action_code(self.best),
            "options": [[action_code(a), round(v, 1)] for a, v in self.options],
            "loss": round(self.loss, 1),
            "error": round(self.error, 1),
            "verdict": self.verdict.value,
            "verdict_key": self.verdict.key,
            "reason": {"key": self.reason.key, "fields": dict(self.reason.fields)},
            "exact": self.exact,
            "expected": None if self.expected is None else round(self.expected, 1),
            "hindsight": None if self.hindsight is None else [card_code(c) for c in self.hindsight],
        }


def assessment_to_json(a: Assessment) -> dict[str, Any]:
    """``a`` whole, to be kept (``assessment_from_json`` reads it back): the actions in the
    engine's notation, the figures unrounded."""
    return {
        "seat": a.seat,
        "kind": a.kind,
        "hand": a.hand_index,
        "entry": a.entry,
        "taken": format_action(a.taken, a.seat),
        "best": format_action(a.best, a.seat),
        "options": [[format_action(o, a.seat), v] for o, v in a.options],
        "loss": a.loss,
        "error": a.error,
        "verdict": a.verdict.value,
        "reason": [a.reason.key, a.reason.fields],
        "exact": a.exact,
        "hindsight": None if a.hindsight is None else list(a.hindsight),
        "expected": a.expected,
    }


def assessment_from_json(d: dict[str, Any]) -> Assessment:
    """The assessment ``assessment_to_json`` wrote."""
    return Assessment(
        seat=d["seat"],
        kind=d["kind"],
        hand_index=d["hand"],
        entry=d["entry"],
        taken=parse_action(d["taken"])[0],
        best=parse_action(d["best"])[0],
        options=tuple((parse_action(o)[0], float(v)) for o, v in d["options"]),
        loss=float(d["loss"]),
        error=float(d["error"]),
        verdict=Verdict(d["verdict"]),
        reason=Reason(d["reason"][0], dict(d["reason"][1])),
        exact=d["exact"],
        hindsight=None if d["hindsight"] is None else tuple(d["hindsight"]),
        expected=d["expected"],
    )


def assess(decision: Decision, budget: Budget = DEFAULT) -> Assessment:
    """Value every option of ``decision`` from its observation and grade the one taken."""
    o = decision.observation
    v = value_cards(o, budget) if decision.kind == CARD else value_contract(o, budget)
    means = v.means()
    best = v.best()
    taken = v.index(decision.action)
    if means[taken] >= means[best] - 1e-9:
        best = taken  # as good as any: the option taken is shown as the best
    loss, error = paired_loss(v, best, taken)
    expected = None
    if decision.kind == CARD:
        reason = card_reason(o, v, best, taken)
        seen = hindsight(o, decision.hands)
        expected = sum(t.points for t in o.tricks if t.winner & 1 == o.seat & 1) + means[taken]
    else:
        reason = contract_reason(o, v, best)
        seen = None
    order = sorted(range(len(v.options)), key=lambda j: -means[j])
    return Assessment(
        seat=decision.seat,
        kind=decision.kind,
        hand_index=decision.hand_index,
        entry=decision.entry,
        taken=decision.action,
        best=v.options[best],
        options=tuple((v.options[j], float(means[j])) for j in order),
        loss=max(loss, 0.0),
        error=error,
        verdict=grade(loss, error),
        reason=reason,
        exact=v.exact,
        hindsight=seen,
        expected=None if expected is None else float(expected),
    )


def _declared(m: Missed, taken: Action | Deal) -> Assessment:
    assert not isinstance(taken, Deal)
    reason = declaration_reason(m.kind, m.points, m.cards)
    return Assessment(
        seat=m.seat, kind=m.kind, hand_index=m.hand_index, entry=m.entry, taken=taken,
        best=taken, options=(), loss=float(m.points), error=0.0,
        verdict=grade(m.points, 0.0), reason=reason, exact=True,
    )  # fmt: skip


THANK = "thank"


def wrong_thanks(record: GameRecord, seats: Iterable[int]) -> list[Assessment]:
    """The thanks of ``seats`` that lost the game (the team had not reached the target):
    each a blunder, its loss the points the team still lacked (kept out of the points lost
    per hand)."""
    wanted = set(seats)
    game = Game(record.rules)
    out: list[Assessment] = []
    for i, (seat, action) in enumerate(record.entries):
        totals = game.totals
        if isinstance(action, Deal):
            game.apply(action)
            continue
        for e in game.apply(action, seat):
            if isinstance(e, Thanked) and not e.correct and e.seat in wanted:
                had, target = totals[e.seat & 1], record.rules.target
                reason = Reason("thank_wrong", {"points": had, "target": target})
                out.append(
                    Assessment(
                        seat=e.seat,
                        kind=THANK,
                        hand_index=len(game.hands) - 1,
                        entry=i,
                        taken=action,
                        best=action,
                        options=(),
                        loss=float(target - had),
                        error=0.0,
                        verdict=Verdict.BLUNDER,
                        reason=reason,
                        exact=True,
                    )
                )
    return out


@dataclass(frozen=True)
class Summary:
    """A player's game in figures: decisions assessed, hands played, points lost per hand,
    accuracy (the share judged ✓) and the biggest mistakes."""

    seat: int
    decisions: int
    hands: int
    lost: float
    accuracy: float
    biggest: tuple[Assessment, ...]

    @property
    def lost_per_hand(self) -> float:
        return self.lost / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "hands": self.hands,
            "lost_per_hand": round(self.lost_per_hand, 1),
            "accuracy": self.accuracy,  # unrounded: a page rounds it as it shows it
            "biggest": [a.entry for a in self.biggest],
        }


def summarise(seat: int, assessments: Iterable[Assessment], hands: int) -> Summary:
    """The summary of ``seat`` over ``hands`` hands."""
    mine = [a for a in assessments if a.seat == seat]
    good = sum(1 for a in mine if a.verdict is Verdict.GOOD)
    mistakes = sorted(  # a thanks that lost the game first: nothing costs more
        (a for a in mine if a.verdict is not Verdict.GOOD),
        key=lambda a: (a.kind != THANK, -a.loss, a.entry),
    )
    return Summary(
        seat=seat,
        decisions=len(mine),
        hands=hands,
        lost=sum(a.loss for a in mine if a.kind != THANK),  # points of hands, not of the game
        accuracy=good / len(mine) if mine else 1.0,
        biggest=tuple(mistakes[:BIGGEST]),
    )


@dataclass(frozen=True)
class Review:
    """A game reviewed for ``seats``: the assessments in the order of the record and a
    summary per seat."""

    seats: tuple[int, ...]
    settings: Budget
    assessments: tuple[Assessment, ...]
    summaries: tuple[Summary, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "samples": self.settings.samples,
            "seed": self.settings.seed,
            "assessments": [a.to_dict() for a in self.assessments],
            "summaries": [s.to_dict() for s in self.summaries],
        }


Progress = Callable[[int, int], None]


def compile_review(
    record: GameRecord, seats: Iterable[int], budget: Budget, assessed: Iterable[Assessment]
) -> Review:
    """The review of ``seats`` from the assessments of their decisions: with the weis and
    stöck they left undeclared, in the order of the record, and the summaries."""
    chosen = tuple(sorted(set(seats)))
    out = list(assessed)
    taken_at = dict(enumerate(a for _, a in record.entries))
    out.extend(_declared(m, taken_at[m.entry]) for m in missed_declarations(record, chosen))
    out.extend(wrong_thanks(record, chosen))
    out.sort(key=lambda a: (a.entry, a.kind))
    hands = sum(1 for _, a in record.entries if isinstance(a, Deal))
    summaries = tuple(summarise(s, out, hands) for s in chosen)
    return Review(chosen, budget, tuple(out), summaries)


def review_record(
    record: GameRecord,
    seats: Iterable[int] = (0, 1, 2, 3),
    budget: Budget = DEFAULT,
    progress: Progress | None = None,
) -> Review:
    """Review every decision of ``seats`` in ``record``; ``progress(done, total)`` is called
    after each one."""
    chosen = tuple(sorted(set(seats)))
    todo = decisions(record, chosen)
    out: list[Assessment] = []
    for i, d in enumerate(todo):
        out.append(assess(d, budget))
        if progress is not None:
            progress(i + 1, len(todo))
    return compile_review(record, chosen, budget, out)
