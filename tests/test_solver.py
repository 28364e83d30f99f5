"""The double-dummy solver against plain searches written here from chibre.play.

Positions come from real deals (``deal_cards``) played on with random legal cards, in every
contract, at the start of a trick and in the middle of one. Small endings are checked against
an exhaustive minimax, medium ones against a plain alpha-beta (no table, no pruning of
equivalent cards); card values against solving the position after each card; the compiled
search against the plain one.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from dataclasses import replace
from random import Random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chibre.bots import solver
from chibre.bots.solver import (
    ZERO_CARDS,
    Backend,
    InvalidPosition,
    Position,
    card_results,
    card_values,
    solve,
    solve_exact,
)
from chibre.cards import cards_of, parse_card, parse_cards
from chibre.deal import deal_cards
from chibre.play import BOURG, CARD_POINTS, LAST_TRICK_BONUS, STRENGTH, legal_cards, trick_winner
from deals import MATCH

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


def _search(p: Position, prune: bool) -> int:
    """Team 0's margin (its points less team 1's, the match bonus included) with best play:
    every legal card in card order, plain alpha-beta when ``prune`` (no table, no pruning of
    equivalent cards), else exhaustive minimax."""
    hands = list(p.hands)
    contract, bonus = p.contract, p.match_bonus
    table = CARD_POINTS[contract]

    def node(leader: int, trick: list[int], t0: bool, t1: bool, alpha: int, beta: int) -> int:
        seat = (leader + len(trick)) & 3
        maximise = seat & 1 == 0
        best = -1000 if maximise else 1000
        for c in cards_of(legal_cards(hands[seat], trick, contract)):
            hands[seat] ^= 1 << c
            trick.append(c)
            if len(trick) < 4:
                v = node(leader, trick, t0, t1, alpha, beta)
            else:
                winner = (leader + trick_winner(trick, contract)) & 3
                got = sum(table[x] for x in trick)
                n0, n1 = t0 or winner & 1 == 0, t1 or winner & 1 == 1
                if not hands[winner]:
                    got += LAST_TRICK_BONUS + (bonus if not (n1 if winner & 1 == 0 else n0) else 0)
                add = got if winner & 1 == 0 else -got
                v = add
                if hands[winner]:
                    v += node(winner, [], n0, n1, alpha - add, beta - add)
            trick.pop()
            hands[seat] ^= 1 << c
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v) if prune else alpha
            else:
                best = min(best, v)
                beta = min(beta, v) if prune else beta
            if alpha >= beta:
                break
        return best

    return node(p.leader, list(p.trick), p.taken[0], p.taken[1], -1000, 1000)


def minimax(p: Position) -> int:
    """Exhaustive minimax: the points of the team to act."""
    return points_from_margin(p, _search(p, prune=False))


def alpha_beta(p: Position) -> int:
    """Plain alpha-beta: the points of the team to act."""
    return points_from_margin(p, _search(p, prune=True))


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
    for i in range(10):
        p = random_position(rng, 3 if i < 6 else 4, contract, in_trick=i % 4 if i < 6 else 3)
        want = minimax(p)
        for backend in BACKENDS:
            got = solve_exact(p, backend=backend)
            assert got.exact and got.depth == p.tricks_left
            assert got.value == want, (backend, p)


@pytest.mark.parametrize("contract", range(6))
def test_five_and_six_tricks_equal_plain_alpha_beta(contract: int) -> None:
    rng = Random(200 + contract)
    for i in range(3):
        p = random_position(rng, 6 if i == 0 else 5, contract, in_trick=3 if i == 0 else i + 1)
        want = alpha_beta(p)
        assert solve_exact(p, backend="python").value == want, p
        assert solve_exact(p, backend="numba").value == want, p


@pytest.mark.parametrize("contract", range(6))
def test_last_two_tricks_equal_exhaustive_minimax_whoever_has_taken_a_trick(
    contract: int,
) -> None:
    # the last two tricks are valued at once (the match bonus turns on the tricks taken)
    rng = Random(300 + contract)
    for i in range(16):
        p = random_position(rng, 2 + i % 2, contract, in_trick=0, bonus=(100, 0, 50, 100)[i % 4])
        for taken in ((False, False), (True, False), (False, True), (True, True)):
            q = replace(p, taken=taken)
            want = minimax(q)
            for backend in BACKENDS:
                assert solve_exact(q, backend=backend).value == want, (backend, q)


CONTRACTS = st.sampled_from([0, 1, 2, 3, 4, 5])  # the four trumps, Obenabe, Undenufe
SEEDS = st.integers(0, 2**32 - 1)

TAKEN = st.sampled_from([(False, False), (True, False), (False, True), (True, True)])


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, tricks=st.integers(3, 4), taken=TAKEN)
def test_the_last_three_tricks_equal_exhaustive_minimax_whoever_has_taken_a_trick(
    seed: int, contract: int, tricks: int, taken: tuple[bool, bool]
) -> None:
    # the last three tricks are played in nested loops, the match turning on who takes the
    # first of them as well as the tricks taken before
    p = replace(random_position(Random(seed), tricks, contract, in_trick=0), taken=taken)
    want = minimax(p)
    for backend in BACKENDS:
        assert solve_exact(p, backend=backend).value == want, (backend, p)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, tricks=st.integers(1, 3), in_trick=st.integers(0, 3))
def test_endings_equal_exhaustive_minimax_on_both_paths(
    seed: int, contract: int, tricks: int, in_trick: int
) -> None:
    p = random_position(Random(seed), tricks, contract, in_trick=in_trick)
    want = minimax(p)
    plain = card_results(p, backend="python")
    compiled = card_results(p, backend="numba")
    assert plain.value == want, p
    assert (plain.cards, plain.card_scores, plain.value, plain.nodes) == (
        compiled.cards,
        compiled.card_scores,
        compiled.value,
        compiled.nodes,
    )


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, in_trick=st.integers(0, 3))
def test_five_tricks_equal_plain_alpha_beta_on_both_paths(
    seed: int, contract: int, in_trick: int
) -> None:
    p = random_position(Random(seed), 5, contract, in_trick=in_trick)
    want = alpha_beta(p)
    plain = solve_exact(p, backend="python")
    compiled = solve_exact(p, backend="numba")
    assert plain.value == compiled.value == want, p
    assert plain.nodes == compiled.nodes


def team0_value(p: Position, margin0: int) -> int:
    """Team 0's value on the search's scale (its points, with the bonus for its match, minus
    it for the other team's), from team 0's margin."""
    total = p.points_out()
    if margin0 > total:
        return margin0
    if -margin0 > total:
        return -p.match_bonus
    return (total + margin0) // 2


WINDOWS = st.lists(st.tuples(st.integers(-120, 280), st.integers(1, 300)), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, tricks=st.integers(3, 5), windows=WINDOWS)
def test_any_window_gives_the_value_or_a_bound_on_its_side_on_both_paths(
    seed: int, contract: int, tricks: int, windows: list[tuple[int, int]]
) -> None:
    """One search per window, in turn on one table (the root asks only null windows, but wider
    ones once gave wrong values: an exact entry of the table inside the window left the node
    searching an empty one, and its children stored their bounds on the wrong side)."""
    p = random_position(Random(seed), tricks, contract, in_trick=0)
    want = team0_value(p, _search(p, prune=True))
    wide = [(-200, 400), *((a, a + w) for a, w in windows)]
    got = {}
    for backend in BACKENDS:
        core = solver._load_core(backend == "numba")
        got[backend] = core.window_search(
            list(p.hands), p.contract, p.leader, p.trick, p.taken, p.match_bonus, wide
        )
    assert got["python"] == got["numba"]
    for (alpha, beta), g in zip(wide, got["python"], strict=True):
        if g <= alpha:
            assert want <= g, (p, alpha, beta, g)
        elif g >= beta:
            assert want >= g, (p, alpha, beta, g)
        else:
            assert want == g, (p, alpha, beta, g)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, tricks=st.integers(3, 5), guess=st.integers(-120, 280))
def test_the_root_finds_the_value_from_any_guess_on_both_paths(
    seed: int, contract: int, tricks: int, guess: int
) -> None:
    """The root's null-window searches start at a guess (a whole deal in a trump) and step out
    from it: whatever the guess, inside the range of values or not, they end on the value."""
    p = random_position(Random(seed), tricks, contract, in_trick=0)
    want = team0_value(p, _search(p, prune=True))
    for backend in BACKENDS:
        core = solver._load_core(backend == "numba")
        state, tab, tt, work, fr, bottom, top = core._prepare(
            list(p.hands), p.contract, p.leader, p.trick, p.taken, p.match_bonus, 12
        )
        state[core._GEN] = state[core._BASE] + tricks
        got = core._root(state, tab, tt, work, fr, tricks, -1, bottom, top, guess)
        assert got == want, (backend, p, guess)


def play_on(rng: Random, p: Position, cards: int) -> Position:
    """``p`` after ``cards`` random legal cards (the hand not over)."""
    for _ in range(cards):
        legal = cards_of(legal_cards(p.hands[p.to_act], p.trick, p.contract))
        nxt, _, _ = play_card(p, rng.choice(legal))
        assert nxt is not None
        p = nxt
    return p


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, tricks=st.integers(1, 2))
def test_a_position_and_the_representative_of_its_class_have_one_value(
    seed: int, contract: int, tricks: int
) -> None:
    """The table's key: the position the search keys a trick's start by (the same cards worth
    points, the cards worth nothing moved to other ones of the same holders) has its value."""
    core = solver._load_core(False)
    rng = Random(seed)
    root = random_position(rng, 5, contract, in_trick=0)
    after = play_on(rng, root, 4 * tricks)
    state = core.new_array(core._STATE_SIZE)
    for seat in range(4):
        state[seat] = root.hands[seat]
    core._fill_classes(state, core._contract(contract))
    rest = after.hands[0] | after.hands[1] | after.hands[2] | after.hands[3]
    rep = core._class(state, rest)
    zero = ZERO_CARDS[contract]
    assert rep & ~zero == rest & ~zero
    assert rep & ~(root.hands[0] | root.hands[1] | root.hands[2] | root.hands[3]) == 0
    h0, h1, h2, h3 = (h & rep for h in root.hands)
    same = replace(after, hands=(h0, h1, h2, h3))
    same.check()
    assert alpha_beta(same) == alpha_beta(after), (after, same)


def same_shape(rng: Random, p: Position) -> Position:
    """A position of the shape of ``p`` at a trick's start: in each suit as many cards, other
    ones drawn at random (the bourg kept, or kept out, as in ``p``), dealt strongest first to
    the holders of ``p``'s cards of the suit strongest first."""
    bourg = BOURG[p.contract] if p.contract < 4 else 0
    hands = [0, 0, 0, 0]
    for suit in range(4):
        order = sorted(range(9 * suit, 9 * suit + 9), key=lambda c: -STRENGTH[p.contract][suit][c])
        held = [c for c in order if any(h >> c & 1 for h in p.hands)]
        holders = [next(s for s in range(4) if p.hands[s] >> c & 1) for c in held]
        kept = [c for c in held if bourg >> c & 1]  # the bourg, the strongest, if held
        pool = [c for c in order if not bourg >> c & 1]
        drawn = set(rng.sample(pool, len(held) - len(kept))) | set(kept)
        for seat, c in zip(holders, [c for c in order if c in drawn], strict=True):
            hands[seat] |= 1 << c
    h0, h1, h2, h3 = hands
    return replace(p, hands=(h0, h1, h2, h3))


def paired_shift(p: Position, c: Position) -> tuple[int, int]:
    """Each suit's cards left in ``p`` and ``c`` paired strongest first: the sum of the point
    losses from ``p`` to ``c`` and the sum of the gains."""
    points = CARD_POINTS[p.contract]
    down = up = 0
    for suit in range(4):
        order = sorted(range(9 * suit, 9 * suit + 9), key=lambda x: -STRENGTH[p.contract][suit][x])
        ours = [x for x in order if any(h >> x & 1 for h in p.hands)]
        theirs = [x for x in order if any(h >> x & 1 for h in c.hands)]
        for a, b in zip(ours, theirs, strict=True):
            down += min(0, points[b] - points[a])
            up += max(0, points[b] - points[a])
    return down, up


def root_state(core: ModuleType, p: Position, c: Position) -> Any:
    """The search's state under a root holding the cards of both ``p`` and ``c``, its shapes
    filled."""
    state = core.new_array(core._STATE_SIZE)
    for seat in range(4):
        state[seat] = p.hands[seat] | c.hands[seat]
    core._fill_shapes(state, core._contract(p.contract))
    return state


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, tricks=st.integers(2, 4), taken=TAKEN)
def test_positions_of_one_shape_differ_by_no_more_than_their_cards_points(
    seed: int, contract: int, tricks: int, taken: tuple[bool, bool]
) -> None:
    """What the table's shapes rest on: two positions with the same holders of each suit's
    cards strongest first (the bourg in both or in neither) play alike card for card, so
    team 0's values differ by no more than the points of the paired cards can: at least the
    sum of the losses, at most the sum of the gains. The search's own pairing (``_shift``)
    gives those sums."""
    rng = Random(seed)
    p = replace(random_position(rng, tricks, contract, in_trick=0), taken=taken)
    c = same_shape(rng, p)
    c.check()
    down, up = paired_shift(p, c)
    shift = team0_value(c, _search(c, prune=True)) - team0_value(p, _search(p, prune=True))
    assert down <= shift <= up, (p, c, down, shift, up)
    if all(p.hands[s] & c.hands[t] == 0 for s in range(4) for t in range(4) if s != t):
        # both lie under one root (no card held by two seats): the search pairs them alike
        core = solver._load_core(False)
        state = root_state(core, p, c)
        rest_p, rest_c = sum(p.hands), sum(c.hands)
        assert core._shape(state, rest_p) == core._shape(state, rest_c)
        assert core._shift(state, core._contract(contract), rest_p, rest_c) == (down, up)


def test_the_bourg_makes_a_shape_of_its_own() -> None:
    """Spades trumps, and the seat to lead leads one: the bourg alone of its trumps, the next
    seat need not follow and keeps it; the ♠Q in its place must follow. The holders of each
    suit's cards are the same in both positions, yet the values differ by more than the
    paired cards' points can: the search gives them different shapes."""
    p = Position(
        (parse_cards("♥8 ♥A"), parse_cards("♥K ♠J"), parse_cards("♠6 ♣6"), parse_cards("♥10 ♣A")),
        2,
        2,
        (),
        (True, True),
    )
    c = replace(p, hands=(p.hands[0], parse_cards("♥K ♠Q"), parse_cards("♠10 ♣6"), p.hands[3]))
    down, up = paired_shift(p, c)
    shift = team0_value(c, _search(c, prune=True)) - team0_value(p, _search(p, prune=True))
    assert not down <= shift <= up, (down, shift, up)
    core = solver._load_core(False)
    state = root_state(core, p, c)
    assert core._shape(state, sum(p.hands)) != core._shape(state, sum(c.hands))


def test_solve_and_card_values_use_the_default_backend() -> None:
    p = random_position(Random(5), 3, 2, in_trick=1)
    assert solve(p) == minimax(p)
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


# --- the bounds ----------------------------------------------------------------------------------


def sure_points(hands: tuple[int, int, int, int], contract: int, seat: int) -> int:
    """The points the search counts sure for the team of ``seat``, to lead."""
    core = solver._load_core(False)
    state = core.new_array(core._STATE_SIZE)
    for s, hand in enumerate(hands):
        state[s] = hand
    rest = hands[0] | hands[1] | hands[2] | hands[3]
    tab = core._contract(contract)
    total = int(core._sure_points(state, tab, seat, rest))
    run = int(core._trump_run(state, tab, rest))
    if run >= 0 and (run & 1) == (seat & 1):
        total += run >> 1
    return total


def test_sure_tricks_take_the_cards_that_must_follow_them() -> None:
    # Obenabe: the ace of hearts takes the ten, the king and the six, which must follow
    hands = (
        parse_cards("♥A ♦6"),
        parse_cards("♥10 ♦7"),
        parse_cards("♥K ♦8"),
        parse_cards("♥6 ♦9"),
    )
    assert sure_points(hands, 4, 0) == 11 + 10 + 4 + 0
    # hearts trumps: the bourg and the nell draw the opponents' three trumps (the lowest
    # the six and the eight, then the ace); then the ace of spades takes the ten, the queen
    # and the king
    hands = (
        parse_cards("♥J ♥9 ♠A"),
        parse_cards("♥6 ♥8 ♠10"),
        parse_cards("♦6 ♦7 ♠Q"),
        parse_cards("♥A ♠K ♦8"),
    )
    trumps = 20 + 14
    assert sure_points(hands, 1, 0) == trumps + 11 + (11 + 10 + 3 + 4)
    # with a trump left to an opponent the ace of spades is not sure
    hands = (
        parse_cards("♥J ♠A ♦9"),
        parse_cards("♥6 ♥8 ♠10"),
        parse_cards("♦6 ♦7 ♠Q"),
        parse_cards("♥A ♠K ♦8"),
    )
    assert sure_points(hands, 1, 0) == 20 + 0 + 11


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, contract=CONTRACTS, tricks=st.integers(2, 4))
def test_sure_points_never_exceed_what_the_side_to_lead_takes(
    seed: int, contract: int, tricks: int
) -> None:
    p = random_position(Random(seed), tricks, contract, in_trick=0, bonus=0)
    assert sure_points(p.hands, contract, p.leader) <= alpha_beta(p), p


# --- the match -----------------------------------------------------------------------------------


def match_ending() -> Position:
    """tests.deals.MATCH (♠ trump) after four tricks: seat 0 led ♠J ♠A ♠9 ♠8 and took them
    all (the others playing their lowest legal card); it takes the five left too."""
    hands = list(MATCH)
    for lead in [parse_card(code) for code in ("♠J", "♠A", "♠9", "♠8")]:
        trick = [lead]
        hands[0] ^= 1 << lead
        for seat in (1, 2, 3):
            c = cards_of(legal_cards(hands[seat], trick, 2))[0]
            hands[seat] ^= 1 << c
            trick.append(c)
        assert trick_winner(trick, 2) == 0
    h0, h1, h2, h3 = hands
    return Position((h0, h1, h2, h3), 2, 0, taken=(True, False))


@pytest.mark.parametrize("backend", BACKENDS)
def test_match_bonus(backend: Backend) -> None:
    p = match_ending()
    out = p.points_out()
    assert solve_exact(p, backend=backend).value == out + 100
    assert solve_exact(replace(p, match_bonus=0), backend=backend).value == out
    assert solve_exact(replace(p, match_bonus=50), backend=backend).value == out + 50
    # team 1 already took a trick: no match any more
    assert solve_exact(replace(p, taken=(True, True)), backend=backend).value == out
    # seen from team 1 after the next lead: nothing, and minus the bonus on the zero-sum scale
    lead = cards_of(p.hands[0])[-1]
    after = replace(p, hands=(p.hands[0] ^ 1 << lead, *p.hands[1:]), trick=(lead,))
    theirs = solve_exact(after, backend=backend)
    assert (theirs.value, theirs.score) == (0, -100)
    assert alpha_beta(after) == 0


def test_match_on_a_full_deal() -> None:
    """A full-deal exact solve does not keep its table (64 MiB in a trump)."""
    solver.release_tables()
    assert solve_exact(Position(MATCH, 2, 0), backend="numba").value == 257
    assert solver.held_table_bytes() == 0
    solver.release_tables()


@pytest.mark.parametrize("backend", BACKENDS)
def test_generation_stamps_start_again_on_fresh_tables_before_they_overflow(
    backend: Backend,
) -> None:
    core = solver._core(backend)
    rng = Random(13)
    p = random_position(rng, 4, 0, in_trick=0)
    q = random_position(rng, 4, 0, in_trick=0)
    want_p, want_q = minimax(p), minimax(q)
    core._generation[0] = core._GEN_LIMIT - 40
    for _ in range(4):  # the stamps run out on the way: the tables start again
        assert solve_exact(p, 100_000, backend=backend).value == want_p
        assert solve_exact(q, 100_000, backend=backend).value == want_q
    assert core._generation[0] < 100


def test_budgeted_tables_are_kept_and_small() -> None:
    """A budgeted call keeps its table for the next (4 MiB at ``strong``'s largest budget);
    an exact solve from seven tricks left drops the tables."""
    solver.release_tables()
    p = random_position(Random(11), 9, 2, in_trick=0)
    solve_exact(p, 300_000, backend="numba")
    assert 0 < solver.held_table_bytes() <= 4 << 20
    solve_exact(random_position(Random(12), 7, 1, in_trick=0), backend="numba")
    assert solver.held_table_bytes() == 0


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
    assert solve(p) == p.points_out() + 100 == minimax(p)
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


def test_no_jit_environment_variable_forces_plain_python(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(solver, "_said_plain", [False])
    monkeypatch.setenv("CHIBRE_NO_JIT", "1")
    assert not solver.jit_available()
    with caplog.at_level(logging.WARNING, logger="chibre.bots.solver"):
        plain = solver._core("auto")
    assert not plain.COMPILE
    assert "plain Python (CHIBRE_NO_JIT is set)" in caplog.text
    monkeypatch.setenv("CHIBRE_NO_JIT", "0")
    assert solver.jit_available()
    compiled = solver._core("auto")
    assert compiled.COMPILE and compiled is not plain
    # one source: the plain copy runs the very functions numba compiles
    assert compiled._run.py_func.__code__.co_code == plain._run.__code__.co_code
    solver.warm_up()
    solver.release_tables()
    p = random_position(Random(7), 4, 5, in_trick=1)
    assert solve_exact(p, backend="numba").value == solve_exact(p, backend="python").value


def test_without_numba_the_plain_search_runs_and_says_so() -> None:
    """A process where numba cannot be imported solves in plain Python and logs it once."""
    code = (
        "import sys, logging; sys.modules['numba'] = None; logging.basicConfig()\n"
        "from chibre.bots import solver\n"
        "from chibre.bots.solver import Position, solve\n"
        "from chibre.cards import parse_cards as p\n"
        "hands = (p('♠A ♥6'), p('♠K ♥7'), p('♠Q ♥8'), p('♠J ♥9'))\n"
        "assert not solver.jit_available()\n"
        "print(solve(Position(hands, 4, 0)), solve(Position(hands, 4, 0)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    hands = (parse_cards("♠A ♥6"), parse_cards("♠K ♥7"), parse_cards("♠Q ♥8"), parse_cards("♠J ♥9"))
    want = str(solve_exact(Position(hands, 4, 0), backend="numba").value)
    assert done.stdout.split() == [want, want] == ["25", "25"]
    assert done.stderr.count("runs in plain Python (numba is not installed)") == 1


def test_invalid_positions_are_refused() -> None:
    hands = (parse_cards("♦6"), parse_cards("♦6"), parse_cards("♦8"), parse_cards("♦9"))
    with pytest.raises(InvalidPosition, match="one hand only"):
        solve(Position(hands, 0, 0))
    hands = (parse_cards("♦6 ♦7"), parse_cards("♥6"), parse_cards("♦8"), parse_cards("♦9"))
    with pytest.raises(InvalidPosition, match="cards"):
        solve(Position(hands, 0, 0))
    with pytest.raises(InvalidPosition, match="contract"):
        solve(Position((1, 2, 4, 8), 7, 0))
