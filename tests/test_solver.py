"""The double-dummy solver against plain searches written here from chibre.play.

Positions come from real deals (``deal_cards``) played on with random legal cards, in every
contract, at the start of a trick and in the middle of one. Small endings are checked against
an exhaustive minimax, medium ones against a plain alpha-beta (no table, no pruning of
equivalent cards); card values against solving the position after each card; the compiled
search against the plain one.
"""

from __future__ import annotations

from random import Random

import pytest

from chibre.bots import solver
from chibre.bots.solver import (
    Backend,
    InvalidPosition,
    Position,
    card_results,
    card_values,
    solve,
    solve_exact,
)
from chibre.cards import cards_of, parse_cards
from chibre.deal import deal_cards
from chibre.play import CARD_POINTS, LAST_TRICK_BONUS, legal_cards, trick_winner
from tests.deals import MATCH

BACKENDS: list[Backend] = ["python", "numba"]


def random_position(
    rng: Random, tricks_left: int, contract: int, in_trick: int | None = None, bonus: int = 100
) -> Position:
    """A dealt hand played on at random to ``tricks_left`` tricks, then ``in_trick`` cards
    (random 0..3 when None) into the current trick."""
    hands = list(deal_cards(rng, rng.randrange(4)).hands)
    leader = rng.randrange(4)
    taken = [False, False]
    for _ in range(9 - tricks_left):
        trick: list[int] = []
        for i in range(4):
            seat = (leader + i) & 3
            c = rng.choice(cards_of(legal_cards(hands[seat], trick, contract)))
            hands[seat] ^= 1 << c
            trick.append(c)
        leader = (leader + trick_winner(trick, contract)) & 3
        taken[leader & 1] = True
    trick = []
    for i in range(rng.randrange(4) if in_trick is None else in_trick):
        seat = (leader + i) & 3
        c = rng.choice(cards_of(legal_cards(hands[seat], trick, contract)))
        hands[seat] ^= 1 << c
        trick.append(c)
    h0, h1, h2, h3 = hands
    return Position((h0, h1, h2, h3), contract, leader, tuple(trick), (taken[0], taken[1]), bonus)


# --- the references ------------------------------------------------------------------------------


def play_card(p: Position, c: int) -> tuple[Position | None, int, int]:
    """The position after the seat to act plays ``c``: (next position or None when the hand is
    over, the trick's points, the team that took it or -1 while the trick goes on)."""
    seat = p.to_act
    hands = list(p.hands)
    hands[seat] ^= 1 << c
    trick = (*p.trick, c)
    h = (hands[0], hands[1], hands[2], hands[3])
    if len(trick) < 4:
        return Position(h, p.contract, p.leader, trick, p.taken, p.match_bonus), 0, -1
    winner = (p.leader + trick_winner(trick, p.contract)) & 3
    got = sum(CARD_POINTS[p.contract][x] for x in trick)
    taken = (p.taken[0] or winner & 1 == 0, p.taken[1] or winner & 1 == 1)
    if not hands[winner]:
        got += LAST_TRICK_BONUS
        if p.match_bonus and not taken[1 - (winner & 1)]:
            got += p.match_bonus
        return None, got, winner & 1
    return Position(h, p.contract, winner, (), taken, p.match_bonus), got, winner & 1


def minimax(p: Position) -> tuple[int, int]:
    """Exhaustive: each team's points from here, every seat playing for its team's margin."""
    team = p.to_act & 1
    best: tuple[int, int] | None = None
    for c in cards_of(legal_cards(p.hands[p.to_act], p.trick, p.contract)):
        nxt, got, winner = play_card(p, c)
        points = [0, 0] if nxt is None else list(minimax(nxt))
        if winner >= 0:
            points[winner] += got
        if best is None or points[team] - points[1 - team] > best[team] - best[1 - team]:
            best = (points[0], points[1])
    assert best is not None
    return best


def alpha_beta(p: Position, alpha: int, beta: int) -> int:
    """Plain alpha-beta on team 0's margin (team 0's points less team 1's), in card order."""
    maximise = p.to_act & 1 == 0
    best = -1000 if maximise else 1000
    for c in cards_of(legal_cards(p.hands[p.to_act], p.trick, p.contract)):
        nxt, got, winner = play_card(p, c)
        add = 0 if winner < 0 else got if winner == 0 else -got
        v = add + (0 if nxt is None else alpha_beta(nxt, alpha - add, beta - add))
        if maximise:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def points_from_margin(p: Position, margin0: int) -> int:
    """The points of the team to act, from team 0's margin."""
    margin = margin0 if p.to_act & 1 == 0 else -margin0
    total = p.points_out()
    if margin > total:  # our match: the margin holds the bonus
        return margin
    if -margin > total:  # theirs
        return 0
    return (total + margin) // 2


# --- exactness -----------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", range(6))
def test_small_endings_equal_exhaustive_minimax(contract: int) -> None:
    rng = Random(100 + contract)
    for i in range(24):
        p = random_position(rng, 2 + i % 3, contract, in_trick=i % 4)
        points = minimax(p)
        want = points[p.to_act & 1]
        for backend in BACKENDS:
            got = solve_exact(p, backend=backend)
            assert got.exact and got.depth == p.tricks_left
            assert got.value == want, (backend, p)


@pytest.mark.parametrize("contract", range(6))
def test_five_and_six_tricks_equal_plain_alpha_beta(contract: int) -> None:
    rng = Random(200 + contract)
    for i in range(3):
        p = random_position(rng, 6 if i == 0 else 5, contract, in_trick=(i * 3) % 4)
        want = points_from_margin(p, alpha_beta(p, -1000, 1000))
        assert solve_exact(p, backend="python").value == want, p
        assert solve_exact(p, backend="numba").value == want, p


def test_solve_and_card_values_use_the_default_backend() -> None:
    p = random_position(Random(5), 3, 2, in_trick=1)
    assert solve(p) == minimax(p)[p.to_act & 1]
    values = card_values(p)
    assert set(values) == set(cards_of(legal_cards(p.hands[p.to_act], p.trick, p.contract)))
    assert max(values.values()) == solve(p)


@pytest.mark.parametrize("backend", BACKENDS)
def test_card_values_are_the_value_after_each_card(backend: Backend) -> None:
    rng = Random(300)
    for i in range(18):
        p = random_position(rng, 3 + i % 3, i % 6, in_trick=i % 4)
        team = p.to_act & 1
        result = card_results(p, backend=backend)
        legal = cards_of(legal_cards(p.hands[p.to_act], p.trick, p.contract))
        assert sorted(result.cards) == sorted(legal)
        for c in legal:
            nxt, got, winner = play_card(p, c)
            if nxt is None:
                ours = got if winner == team else 0
                if winner != team and p.match_bonus and not p.taken[team]:
                    ours = -p.match_bonus
            else:
                after = solve_exact(nxt, backend=backend)
                ours = after.score if nxt.to_act & 1 == team else nxt.points_out() - after.score
                if winner == team:
                    ours += got
            assert result.card_scores[c] == ours, (p, c)
            assert result.cards[c] == max(ours, 0)
        best = max(result.card_scores.values())
        assert result.score == best
        assert solve_exact(p, backend=backend).score == best


def test_compiled_search_matches_plain_search_node_for_node() -> None:
    rng = Random(400)
    for i in range(12):
        p = random_position(rng, 4 + i % 3, i % 6)
        a = card_results(p, backend="python")
        b = card_results(p, backend="numba")
        assert (a.cards, a.value, a.nodes) == (b.cards, b.value, b.nodes)
        a = solve_exact(p, 3000, backend="python")
        b = solve_exact(p, 3000, backend="numba")
        assert (a.value, a.exact, a.depth, a.nodes) == (b.value, b.exact, b.depth, b.nodes)


# --- the match -----------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_match_bonus(backend: Backend) -> None:
    full = Position(MATCH, 2, 0)  # ♠ trump: seat 0 leads and takes all nine tricks
    assert solve_exact(full, backend=backend).value == 257
    without = Position(MATCH, 2, 0, match_bonus=0)
    assert solve_exact(without, backend=backend).value == 157
    # team 1 already took a trick: no match any more
    spoiled = Position(MATCH, 2, 0, taken=(True, True))
    assert solve_exact(spoiled, backend=backend).value == 157
    # seen from team 1: nothing, and minus the bonus on the zero-sum scale
    bourg = parse_cards("♠J")
    hands = (MATCH[0] & ~bourg, MATCH[1], MATCH[2], MATCH[3])
    after_lead = Position(hands, 2, 0, trick=cards_of(bourg))
    theirs = solve_exact(after_lead, backend=backend)
    assert (theirs.value, theirs.score) == (0, -100)


def test_match_in_a_three_trick_ending_in_obenabe() -> None:
    # Obenabe: seat 1 leads hearts, nobody else holds one
    hands = (
        parse_cards("♦6 ♦7 ♦8"),
        parse_cards("♥A ♥K ♥Q"),
        parse_cards("♣6 ♣7 ♣8"),
        parse_cards("♠A ♠K ♠Q"),
    )
    p = Position(hands, 4, 1, taken=(False, True))
    # seat 1 takes the three tricks: every card point left (♥A K Q, ♠A K Q, ♦8, ♣8) and 5
    assert p.points_out() == 18 + 18 + 8 + 8 + 5
    assert solve(p) == p.points_out() + 100 == minimax(p)[1]
    assert solve(Position(hands, 4, 1, taken=(True, True))) == p.points_out()
    assert solve(Position(hands, 4, 1, taken=(True, True), match_bonus=0)) == p.points_out()


# --- budgets -------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_budgeted_search_stops_and_is_exact_when_it_can(backend: Backend) -> None:
    rng = Random(500)
    full = random_position(rng, 9, 1, in_trick=0)
    small = card_results(full, 2000, backend=backend)
    assert not small.exact and 1 <= small.depth < 9
    assert small.nodes <= 2000 + 6561  # the first trick is always searched
    assert set(small.cards) == set(cards_of(full.hands[full.to_act]))
    assert 0 <= small.value <= full.points_out()
    ending = random_position(rng, 4, 3, in_trick=2)
    exact = solve_exact(ending, backend=backend)
    roomy = solve_exact(ending, 10**7, backend=backend)
    assert roomy.exact and roomy.value == exact.value and roomy.depth == 4


def test_estimate_shares_the_points_out() -> None:
    rng = Random(600)
    for contract in range(6):
        p = random_position(rng, 9, contract, in_trick=0)
        v = solver.estimate(p.hands, contract, p.leader)
        assert 0 <= v <= p.points_out() == 157


# --- the interface -------------------------------------------------------------------------------


def test_no_jit_environment_variable_forces_plain_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHIBRE_NO_JIT", "1")
    assert not solver.jit_available()
    monkeypatch.setenv("CHIBRE_NO_JIT", "0")
    assert solver.jit_available()
    solver.warm_up()


def test_invalid_positions_are_refused() -> None:
    hands = (parse_cards("♦6"), parse_cards("♦6"), parse_cards("♦8"), parse_cards("♦9"))
    with pytest.raises(InvalidPosition, match="one hand only"):
        solve(Position(hands, 0, 0))
    hands = (parse_cards("♦6 ♦7"), parse_cards("♥6"), parse_cards("♦8"), parse_cards("♦9"))
    with pytest.raises(InvalidPosition, match="cards"):
        solve(Position(hands, 0, 0))
    with pytest.raises(InvalidPosition, match="contract"):
        solve(Position((1, 2, 4, 8), 7, 0))
