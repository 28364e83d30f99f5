"""Policy rollouts (le jeu déroulé / das Ausspielen nach der Politik): valuing the cards of an
early position on one open deal by playing the early tricks as the table would and solving
the last ones exactly — and, from the first card (``rollout_score``), a contract's worth on one
open deal, as ``strong`` and ``expert`` value the contracts.

Early in the hand the double-dummy solver cannot search to the end within a decision's budget;
its horizon is a rough count of sure tricks. A rollout instead plays each legal card of the
seat to act, then lets every seat play the card the learned policy (``chibre.bots.policy``)
finds likeliest for that seat's own cards in the deal and the public moment — each seat sees
only its own hand and the cards played, as in the moments the policy learned from — until
``exact_tricks`` tricks are left (the current one counted while it is in play), and from there
solves exactly. The card's value is the points of the tricks played in the rollout plus the
exact value of the rest.

Values are on the solver's zero-sum scale (``solver.Result.card_scores``) for the team of the
seat to act: its points from the position on, the match bonus when it takes every trick, minus
the bonus when the other team does. With ``exact_tricks`` tricks or fewer left the rollout
plays nothing and the values are the exact solve's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from chibre.bots.policy import Moment, Policy, card_features
from chibre.bots.solver import Position, card_results, solve_exact
from chibre.cards import cards_of
from chibre.play import CARD_POINTS, LAST_TRICK_BONUS, legal_cards, trick_winner


@dataclass(frozen=True)
class Line:
    """A rollout under way: the open ``position``, the cards played this hand (``played``, the
    current trick's included), the tricks complete (``tricks_played``) and team 0's points in
    the tricks the rollout completed (``gained``)."""

    position: Position
    played: int
    tricks_played: int
    gained: int = 0


def play_card(line: Line, card: int) -> Line:
    """The line after the seat to act plays ``card`` (legal), the trick closed when full."""
    p = line.position
    seat = p.to_act
    hands = list(p.hands)
    hands[seat] &= ~(1 << card)
    trick = (*p.trick, card)
    played = line.played | 1 << card
    if len(trick) < 4:
        return replace(
            line,
            position=replace(p, hands=(hands[0], hands[1], hands[2], hands[3]), trick=trick),
            played=played,
        )
    winner = (p.leader + trick_winner(trick, p.contract)) & 3
    points = sum(CARD_POINTS[p.contract][c] for c in trick)
    if not any(hands):
        points += LAST_TRICK_BONUS
    taken = (p.taken[0] or winner & 1 == 0, p.taken[1] or winner & 1 == 1)
    return Line(
        position=replace(
            p,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            leader=winner,
            trick=(),
            taken=taken,
        ),
        played=played,
        tricks_played=line.tricks_played + 1,
        gained=line.gained + (points if winner & 1 == 0 else 0),
    )


def policy_card(policy: Policy, line: Line) -> int:
    """The card the policy finds likeliest for the seat to act, from its own hand and the
    public moment only (the lowest card among equals)."""
    p = line.position
    seat = p.to_act
    m = Moment(seat, p.contract, p.trick, line.played, line.tricks_played)
    x, legal = card_features(m, np.array([p.hands[seat]], dtype=np.uint64))
    scores = np.where(legal[0], policy.card.scores(x[0]), -np.inf)
    return int(np.argmax(scores))


def _team0_exact(position: Position) -> int:
    """Team 0's exact zero-sum value of ``position`` (0 once the hand is over)."""
    if not any(position.hands):
        return 0
    score = solve_exact(position).score
    if position.to_act & 1 == 0:
        return score
    return position.points_out() - score


def rollout_value(policy: Policy, line: Line, exact_tricks: int) -> int:
    """Team 0's zero-sum value of ``line``: policy play while more than ``exact_tricks`` tricks
    are left, then the exact solve, plus the points of the tricks the rollout took."""
    while any(line.position.hands) and line.position.tricks_left > exact_tricks:
        line = play_card(line, policy_card(policy, line))
    return line.gained + _team0_exact(line.position)


def rollout_score(
    policy: Policy, position: Position, played: int, tricks_played: int, exact_tricks: int
) -> int:
    """The value of ``position`` for the team of the seat to act (as ``Result.score``) when
    ``policy`` plays every seat down to ``exact_tricks`` tricks left and the rest is solved
    exactly. ``played`` and ``tricks_played`` as for ``rollout_scores``."""
    v = rollout_value(policy, Line(position, played, tricks_played), exact_tricks)
    return v if position.to_act & 1 == 0 else position.points_out() - v


def rollout_scores(
    position: Position, played: int, tricks_played: int, policy: Policy, exact_tricks: int
) -> dict[int, int]:
    """For each legal card of the seat to act, its value for that seat's team (as
    ``Result.card_scores``) when the rest is played by ``policy`` down to ``exact_tricks``
    tricks left and solved exactly from there. ``played``: the cards played this hand (the
    current trick's included); ``tricks_played``: the tricks complete."""
    if position.tricks_left <= exact_tricks:
        return card_results(position).card_scores
    seat = position.to_act
    ours = seat & 1 == 0
    total = position.points_out()
    start = Line(position, played, tricks_played)
    out: dict[int, int] = {}
    for c in cards_of(legal_cards(position.hands[seat], position.trick, position.contract)):
        v = rollout_value(policy, play_card(start, c), exact_tricks)
        out[c] = v if ours else total - v
    return out
