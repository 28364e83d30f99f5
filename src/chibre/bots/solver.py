"""The double-dummy solver (le solveur à cartes ouvertes): the points a team takes from a
position when all four hands are known and everybody plays best.

A ``Position`` is the cards each seat still holds, the contract, who led the current trick (le
pli / der Stich) and the cards already in it. ``solve`` gives the points the team of the seat to
act takes from here on — the card points still out and in the current trick, 5 for the last
trick, and the match bonus when one team takes all nine tricks — and ``card_values`` the same
for every legal card of that seat. The rules of play are exactly those of ``chibre.play``.

The method is alpha-beta on bitboards: team 0 (seats 0 and 2) maximises, team 1 minimises, on
one zero-sum scale (team 0's points, plus the bonus for its match, minus it for the other
team's). The root bisects the interval of possible values with null-window searches that share
a transposition table at the start of each trick (the remaining cards, the leader and which
teams have already taken a trick; lower and upper bounds and the best lead). Moves are ordered
(the table's lead first, then strong leads; cheap winning cards; points on a partner's trick
(schmieren); few points on an opponent's) and equivalent cards pruned: cards of one hand worth
no points, of one suit, with no card of another hand (or of the current trick) between them,
play the same, so one stands for all (no two cards of a suit that are worth points are worth
the same, so cards with points are always tried one by one).

Values: ``solve`` and ``card_values`` give points, never negative. ``Result.score`` and
``Result.card_scores`` give the zero-sum scale, where a match by the other team counts minus
its bonus: two cards that both give 0 points differ there when one lets the other team make
match. For a team, its score plus the other team's is ``Position.points_out()``.

With ``max_nodes`` (a node budget: one node is one card tried) the search deepens trick by
trick and evaluates the horizon with ``estimate`` (sure tricks from the top cards of each suit,
trumps); it returns the deepest iteration it completed, and is exact when that is the last
trick. The first trick is always searched whatever the budget (at most a few thousand nodes);
beyond it the budget is checked at the start of each trick. ``solve_exact`` and
``card_results`` return a ``Result`` that says whether the values are exact.

When numba is installed (the ``fast`` extra) the same algorithm runs compiled
(``chibre.bots.solver_jit``); ``CHIBRE_NO_JIT=1`` in the environment forces plain Python.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from chibre.cards import SUIT_MASKS, cards_of
from chibre.errors import ChibreError
from chibre.play import (
    BOURG,
    CARD_POINTS,
    LAST_TRICK_BONUS,
    LOWER_TRUMPS,
    MATCH_BONUS,
    N_CONTRACTS,
    STRENGTH,
    legal_cards,
)

Backend = Literal["auto", "python", "numba"]

_INF = 1 << 20


class InvalidPosition(ChibreError, ValueError):
    """A position the solver cannot read: cards held twice, a wrong number of cards, …"""


@dataclass(frozen=True)
class Position:
    """A moment of the card play, with every hand open (à cartes ouvertes).

    ``hands``: each seat's cards not yet played (36-bit masks); ``contract``: 0..3 the trump
    suit, 4 Obenabe, 5 Undenufe; ``leader``: the seat that led the current trick; ``trick``:
    the cards already in it, in play order from the leader; ``taken``: whether team 0 / team 1
    has already won a trick this hand (for the match); ``match_bonus``: added when one team
    takes all nine tricks (0 to ignore). The seat to act is ``(leader + len(trick)) % 4``.
    """

    hands: tuple[int, int, int, int]
    contract: int
    leader: int
    trick: tuple[int, ...] = ()
    taken: tuple[bool, bool] = (False, False)
    match_bonus: int = MATCH_BONUS

    @property
    def to_act(self) -> int:
        """The seat whose turn it is."""
        return (self.leader + len(self.trick)) & 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to complete, the current one included."""
        return bin(self.hands[self.to_act]).count("1")

    def points_out(self) -> int:
        """The points still to be taken: cards in the hands and in the trick, and the 5 of the
        last trick (without the match bonus)."""
        rest = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        on_table = sum(CARD_POINTS[self.contract][c] for c in self.trick)
        return points_of(rest, self.contract) + on_table + LAST_TRICK_BONUS

    def check(self) -> None:
        """Raise ``InvalidPosition`` unless the position can be played out."""
        if not 0 <= self.contract < N_CONTRACTS:
            raise InvalidPosition(f"contract {self.contract} is not 0..5")
        if not 0 <= self.leader < 4:
            raise InvalidPosition(f"leader {self.leader} is not a seat 0..3")
        if len(self.trick) > 3:
            raise InvalidPosition("a trick in play holds at most three cards")
        seen = 0
        for m in self.hands:
            if m < 0 or m >> 36 or m & seen:
                raise InvalidPosition("each card may be in one hand only, and cards are 0..35")
            seen |= m
        for c in self.trick:
            if not 0 <= c < 36 or seen >> c & 1:
                raise InvalidPosition("a card in the trick is also in a hand, or twice in it")
            seen |= 1 << c
        n = bin(self.hands[self.to_act]).count("1")
        if n == 0:
            raise InvalidPosition("the hand is over: nobody holds a card")
        for i in range(4):
            seat = (self.leader + i) & 3
            want = n - 1 if i < len(self.trick) else n
            if bin(self.hands[seat]).count("1") != want:
                raise InvalidPosition(
                    f"seat {seat} holds {bin(self.hands[seat]).count('1')} cards, {want} expected"
                )


@dataclass(frozen=True)
class Result:
    """What a search found, from the side of the team of the seat to act.

    ``value``: its points from here on (as ``solve``); ``cards``: for each legal card (only
    when asked for) the value of playing it; ``exact``: whether these are the exact
    double-dummy values (else the deepest estimate the node budget allowed); ``depth``: tricks
    searched (the tricks left when exact); ``nodes``: cards tried. ``score`` and
    ``card_scores`` are the same on a zero-sum scale where a match by the other team counts
    minus its bonus (``value`` is ``max(score, 0)``): useful to rank cards that all give 0.
    """

    value: int
    exact: bool
    depth: int
    nodes: int
    score: int
    cards: dict[int, int] = field(default_factory=dict)
    card_scores: dict[int, int] = field(default_factory=dict)


# --- tables --------------------------------------------------------------------------------------


def _zero_cards(contract: int) -> int:
    """The cards worth no points in ``contract`` (the only ones that can be interchangeable:
    no two other cards of a suit are worth the same)."""
    return sum(1 << c for c in range(36) if CARD_POINTS[contract][c] == 0)


BETWEEN: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << x for x in range(min(a, b) + 1, max(a, b))) if a // 9 == b // 9 else 0
        for b in range(36)
    )
    for a in range(36)
)
"""BETWEEN[a][b]: the cards of the suit strictly between ``a`` and ``b`` in natural rank."""

ZERO_CARDS = tuple(_zero_cards(k) for k in range(N_CONTRACTS))
_SUIT_POINTS = tuple(
    tuple(
        tuple(sum(CARD_POINTS[k][9 * s + r] for r in range(9) if m >> r & 1) for m in range(512))
        for s in range(4)
    )
    for k in range(N_CONTRACTS)
)
# Lead strength of each card: its rank within the suit (trumps above every other suit).
_LEAD_STRENGTH = tuple(tuple(STRENGTH[k][c // 9][c] for c in range(36)) for k in range(N_CONTRACTS))
# Partner holds the trick: most points first, trumps last.
_SLUFF_KEY = tuple(
    tuple((c // 9 == k) * 64 - CARD_POINTS[k][c] for c in range(36)) for k in range(N_CONTRACTS)
)
# _BEATS[contract][led][card]: the cards that take a trick led in ``led`` from ``card``.
_BEATS = tuple(
    tuple(
        tuple(
            sum(1 << x for x in range(36) if STRENGTH[k][led][x] > STRENGTH[k][led][c])
            for c in range(36)
        )
        for led in range(4)
    )
    for k in range(N_CONTRACTS)
)
_BITS = tuple(1 << c for c in range(36))
# Each suit's cards in trick order, strongest first.
_POWER_ORDER = tuple(
    tuple(
        tuple(sorted(range(9 * s, 9 * s + 9), key=_LEAD_STRENGTH[k].__getitem__, reverse=True))
        for s in range(4)
    )
    for k in range(N_CONTRACTS)
)


def points_of(rest: int, contract: int) -> int:
    """Card points of the set ``rest`` in ``contract``."""
    t = _SUIT_POINTS[contract]
    return t[0][rest & 511] + t[1][(rest >> 9) & 511] + t[2][(rest >> 18) & 511] + t[3][rest >> 27]


def estimate(hands: tuple[int, ...] | list[int], contract: int, leader: int) -> int:
    """A quick estimate of the points team 0 takes from the start of a trick led by ``leader``
    (the horizon of a budgeted search).

    Each suit's top cards held by one team in an unbroken run are sure tricks for it (side
    suits count half in a trump contract while the other team still holds trumps), the leader
    gets a small tempo; the remaining points (and the last 5) are shared in proportion.
    """
    rest = hands[0] | hands[1] | hands[2] | hands[3]
    total = points_of(rest, contract) + LAST_TRICK_BONUS
    team = (hands[0] | hands[2], hands[1] | hands[3])
    sure = [1.0, 1.0]
    sure[leader & 1] += 0.5
    trump_left = (
        (team[0] & SUIT_MASKS[contract], team[1] & SUIT_MASKS[contract]) if contract < 4 else None
    )
    for s in range(4):
        order = _POWER_ORDER[contract][s]
        owner = -1
        run = 0
        for c in order:
            if not rest >> c & 1:
                continue
            t = 0 if team[0] >> c & 1 else 1
            if owner < 0:
                owner = t
            if t != owner:
                break
            run += 1
        if owner < 0:
            continue
        weight = 1.0
        if trump_left is not None and s != contract and trump_left[1 - owner]:
            weight = 0.5
        sure[owner] += run * weight
    return int(total * sure[0] / (sure[0] + sure[1]) + 0.5)


# --- the plain-Python search ---------------------------------------------------------------------


class _OutOfNodes(Exception):
    """The node budget is spent."""


def _python_iteration(
    hands: list[int],
    contract: int,
    leader: int,
    trick: tuple[int, ...],
    taken: tuple[bool, bool],
    bonus: int,
    depth: int,
    limit: int,
    per_card: bool,
    hints: dict[int, int] | None,
) -> tuple[int, dict[int, int], int]:
    """Search ``depth`` tricks (the current one included) from the position; returns team 0's
    value (null-window searches on a shared table, bisecting the interval), the value of each
    root card (when ``per_card``) and the nodes. Raises ``_OutOfNodes`` past ``limit`` nodes
    (checked at the start of each trick)."""
    h = hands
    pts = CARD_POINTS[contract]
    pts_key = pts.__getitem__
    strength = STRENGTH[contract]
    beats = _BEATS[contract]
    lead_key = _LEAD_STRENGTH[contract].__getitem__
    sluff_key = _SLUFF_KEY[contract].__getitem__
    zero = ZERO_CARDS[contract]
    trump_mask = SUIT_MASKS[contract] if contract < 4 else 0
    suit_masks = SUIT_MASKS
    bourg = BOURG[contract] if contract < 4 else 0
    lower = LOWER_TRUMPS[contract] if contract < 4 else ()
    no_trump = contract >= 4
    bits = _BITS
    suit_points = _SUIT_POINTS[contract]
    tt: dict[int, tuple[int, int, int]] = {}
    use_hints = hints is not None
    memo: dict[int, int] = {} if hints is None else hints
    nodes = 0
    table = 0  # the cards of the current trick
    best_lead = -1  # the lead chosen by the last ``play`` at k == 0

    def trick_start(first: int, t0: bool, t1: bool, alpha: int, beta: int, d: int) -> int:
        """Value for team 0 of the tricks from here, ``first`` to lead."""
        if nodes > limit:
            raise _OutOfNodes(nodes)
        if d == 0:
            return estimate(h, contract, first)
        h0, h1, h2, h3 = h
        hand = h[first]
        if hand & (hand - 1) == 0:
            # the ninth trick: one card each, nothing to choose
            c0, c1, c2, c3 = (
                h[first].bit_length() - 1,
                h[(first + 1) & 3].bit_length() - 1,
                h[(first + 2) & 3].bit_length() - 1,
                h[(first + 3) & 3].bit_length() - 1,
            )
            s = strength[c0 // 9]
            win, best = 0, s[c0]
            if s[c1] > best:
                win, best = 1, s[c1]
            if s[c2] > best:
                win, best = 2, s[c2]
            if s[c3] > best:
                win = 3
            team = (first + win) & 1
            v = pts[c0] + pts[c1] + pts[c2] + pts[c3] + LAST_TRICK_BONUS if team == 0 else 0
            if bonus:
                if team == 0:
                    if not t1:
                        v += bonus
                elif not t0:
                    v -= bonus
            return v
        rest = h0 | h1 | h2 | h3
        # what is left bounds the value: 0 … all the points (± a match still possible)
        most = (
            suit_points[0][rest & 511]
            + suit_points[1][(rest >> 9) & 511]
            + suit_points[2][(rest >> 18) & 511]
            + suit_points[3][rest >> 27]
            + LAST_TRICK_BONUS
        )
        least = 0
        key = rest | first << 36
        if bonus:
            key |= t0 << 38 | t1 << 39
            if not t1:
                most += bonus
            if not t0:
                least = -bonus
        if most <= alpha:
            return most
        if least >= beta:
            return least
        hit = tt.get(key)
        if hit is not None:
            lo, hi, move = hit
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = -_INF, _INF
            move = memo.get(key, -1) if use_hints else -1
        v = play(first, 0, 0, first, -1, 0, 0, t0, t1, alpha, beta, d, move, False)
        if v <= alpha:
            if v < hi:
                hi = v
        elif v >= beta:
            if v > lo:
                lo = v
        else:
            lo = hi = v
        tt[key] = (lo, hi, best_lead)
        if use_hints:
            memo[key] = best_lead
        return v

    def play(
        seat: int,
        k: int,
        led: int,
        win_seat: int,
        win_card: int,
        win_str: int,
        on_table: int,
        t0: bool,
        t1: bool,
        alpha: int,
        beta: int,
        d: int,
        first_move: int,
        only: bool,
    ) -> int:
        """Value for team 0 from ``seat`` playing the ``k``-th card of the trick (only
        ``first_move`` when ``only``)."""
        nonlocal nodes, table, best_lead
        hand = h[seat]
        if only:
            moves: list[int] | tuple[int, ...] = (first_move,)
        else:
            if k == 0:
                allowed = hand
            else:
                # the rules of chibre.play.legal_cards, inline
                allowed = hand & suit_masks[led]
                if no_trump:
                    if not allowed:
                        allowed = hand
                else:
                    trumps = hand & trump_mask
                    if led == contract:
                        allowed = trumps if trumps and trumps != bourg else hand
                    else:
                        allowed = (allowed | trumps) if allowed else hand
                        if trumps != hand and win_card // 9 == contract:
                            allowed &= ~lower[win_card]
            z = allowed & zero
            if z & (z - 1):
                allowed = _drop_twins(allowed, z, ((h[0] | h[1] | h[2] | h[3]) ^ hand) | table)
            if k == 0:
                # sure winners first (no opponent holds a higher card of the suit or, in a
                # side suit, a trump), each group strongest first; the table's lead before all
                opp = h[(seat + 1) & 3] | h[(seat + 3) & 3]
                moves = sorted(cards_of(allowed), key=lead_key, reverse=True)
                sure = [c for c in moves if not beats[c // 9][c] & opp]
                if sure and len(sure) < len(moves):
                    moves = sure + [c for c in moves if beats[c // 9][c] & opp]
                if first_move >= 0 and allowed >> first_move & 1:
                    moves.remove(first_move)
                    moves.insert(0, first_move)
            elif allowed & (allowed - 1) == 0:
                moves = cards_of(allowed)
            elif (win_seat ^ seat) & 1 == 0:
                # partner holds the trick: points on it (schmieren), trumps last
                moves = sorted(cards_of(allowed), key=sluff_key)
            else:
                # opponents hold it: the cheapest winning card, else the fewest points
                over = allowed & beats[led][win_card]
                moves = sorted(cards_of(over), key=strength[led].__getitem__)
                if over != allowed:
                    moves += sorted(cards_of(allowed ^ over), key=pts_key)
        maximise = seat & 1 == 0
        best = -_INF if maximise else _INF
        choice = moves[0]
        nxt = (seat + 1) & 3
        for c in moves:
            nodes += 1
            h[seat] = hand ^ bits[c]
            p = on_table + pts[c]
            if k == 0:
                s = strength[c // 9][c]
                table = bits[c]
                v = play(nxt, 1, c // 9, seat, c, s, p, t0, t1, alpha, beta, d, -1, False)
                table = 0
            elif k < 3:
                s = strength[led][c]
                table |= bits[c]
                if s > win_str:
                    v = play(nxt, k + 1, led, seat, c, s, p, t0, t1, alpha, beta, d, -1, False)
                else:
                    v = play(
                        nxt, k + 1, led, win_seat, win_card, win_str, p, t0, t1, alpha, beta, d,
                        -1, False,
                    )  # fmt: skip
                table ^= bits[c]
            else:
                ws = seat if strength[led][c] > win_str else win_seat
                saved = table
                table = 0
                if ws & 1 == 0:
                    if h[ws]:
                        v = p + trick_start(ws, True, t1, alpha - p, beta - p, d - 1)
                    else:
                        v = p + LAST_TRICK_BONUS + (bonus if bonus and not t1 else 0)
                elif h[ws]:
                    v = trick_start(ws, t0, True, alpha, beta, d - 1)
                else:
                    v = -bonus if bonus and not t0 else 0
                table = saved
            h[seat] = hand
            if maximise:
                if v > best:
                    best, choice = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, choice = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if k == 0:
            best_lead = choice
        return best

    # --- the root: possibly in the middle of a trick
    k0 = len(trick)
    seat0 = (leader + k0) & 3
    t0, t1 = taken
    led = trick[0] // 9 if trick else -1
    ws, wc, wst, on_table = leader, -1, -1, 0
    for i, c in enumerate(trick):
        table |= bits[c]
        st = strength[led][c]
        if st > wst:
            ws, wc, wst = (leader + i) & 3, c, st
        on_table += pts[c]

    def root(alpha: int, beta: int, only: int) -> int:
        if k0 == 0 and only < 0:
            return trick_start(leader, t0, t1, alpha, beta, depth)
        return play(
            seat0, k0, led, ws, wc, wst, on_table, t0, t1, alpha, beta, depth, only, only >= 0
        )

    # team 0's value lies in [bottom, top]: the bonus counts only while a match is possible
    top = on_table + points_of(h[0] | h[1] | h[2] | h[3], contract) + LAST_TRICK_BONUS
    top += bonus if not t1 else 0
    bottom = -bonus if not t0 else 0

    def bisect(only: int) -> int:
        """Null-window searches on a shared table that halve the interval holding the value
        (from minus the bonus to every point out and the bonus, while a match is possible)
        until it closes; each fail-soft answer narrows it further."""
        lo, hi = bottom, top
        while lo < hi:
            beta = (lo + hi + 1) // 2
            g = root(beta - 1, beta, only)
            if g < beta:
                hi = g
            else:
                lo = g
        return lo

    if not per_card:
        return bisect(-1), {}, nodes
    values: dict[int, int] = {}
    for c in cards_of(legal_cards(h[seat0], trick, contract)):
        values[c] = bisect(c)
    return (max(values.values()) if seat0 & 1 == 0 else min(values.values())), values, nodes


def _drop_twins(allowed: int, zero: int, outside: int) -> int:
    """``allowed`` less the point-less cards interchangeable with a lower one: same suit, no
    card of another hand or of the trick between them (their rank order is the trick order
    in every contract: 6-7-8 in trump, 6 to 9 in a side suit, 6-7 and 9 … in Obenabe and
    Undenufe)."""
    prev = -1
    m = zero
    while m:
        b = m & -m
        c = b.bit_length() - 1
        m ^= b
        if prev >= 0 and prev // 9 == c // 9 and not outside & BETWEEN[prev][c]:
            allowed ^= b
        prev = c
    return allowed


# --- the driver ----------------------------------------------------------------------------------

SearchFn = Callable[
    [list[int], int, int, tuple[int, ...], tuple[bool, bool], int, int | None, bool],
    tuple[int, dict[int, int], int, int],
]


def _python_search(
    hands: list[int],
    contract: int,
    leader: int,
    trick: tuple[int, ...],
    taken: tuple[bool, bool],
    bonus: int,
    limit: int | None,
    per_card: bool,
) -> tuple[int, dict[int, int], int, int]:
    """Team 0's value, each root card's value (when ``per_card``), the nodes and the depth
    reached: exact without ``limit``; else deepening trick by trick while the budget lasts
    (the first trick is always searched)."""
    n = bin(hands[(leader + len(trick)) & 3]).count("1")
    if limit is None:
        v, values, nodes = _python_iteration(
            list(hands), contract, leader, trick, taken, bonus, n, 1 << 62, per_card, None
        )
        return v, values, nodes, n
    hints: dict[int, int] = {}
    nodes, depth = 0, 0
    v, values = 0, {}
    for d in range(1, n + 1):
        budget = 1 << 62 if d == 1 else limit - nodes
        if budget <= 0:
            break
        try:
            v, values, used = _python_iteration(
                list(hands), contract, leader, trick, taken, bonus, d, budget, per_card, hints
            )
        except _OutOfNodes as spent:
            nodes += int(spent.args[0])
            break
        nodes += used
        depth = d
    return v, values, nodes, depth


def jit_available() -> bool:
    """Whether the compiled search can run (numba imports and ``CHIBRE_NO_JIT`` is not set)."""
    if os.environ.get("CHIBRE_NO_JIT", "") not in ("", "0"):
        return False
    try:
        from chibre.bots import solver_jit
    except ImportError:
        return False
    return solver_jit.AVAILABLE


def _search_fn(backend: Backend) -> SearchFn:
    if backend == "python" or (backend == "auto" and not jit_available()):
        return _python_search
    from chibre.bots import solver_jit

    if not solver_jit.AVAILABLE:
        raise ImportError("the numba backend needs numba: pip install 'chibre[fast]'")
    return solver_jit.search


def warm_up() -> None:
    """Compile (or load from numba's cache) the fast search now, so that a player's first move
    is not slow; does nothing without numba."""
    if jit_available():
        from chibre.bots import solver_jit

        solver_jit.warm_up()


def release_tables() -> None:
    """Free the compiled search's reused transposition tables. Their size grows with the
    tricks left, and with a budget, with the budget: 2^18 slots of 32 bytes (8 MiB) for the
    ``strong`` player's 300,000-node calls; an exact solve takes up to 128 MiB at nine tricks
    left, and drops its table itself from seven tricks left."""
    if jit_available():
        from chibre.bots import solver_jit

        solver_jit.release()


def held_table_bytes() -> int:
    """The memory the compiled search's reused transposition tables hold now (0 without
    numba)."""
    if not jit_available():
        return 0
    from chibre.bots import solver_jit

    return solver_jit.held_bytes()


def _analyse(position: Position, max_nodes: int | None, per_card: bool, backend: Backend) -> Result:
    position.check()
    search = _search_fn(backend)
    n = position.tricks_left
    v, values, nodes, depth = search(
        list(position.hands),
        position.contract,
        position.leader,
        position.trick,
        position.taken,
        position.match_bonus,
        max_nodes,
        per_card,
    )
    total = position.points_out()
    ours = position.to_act & 1 == 0

    def side(x: int) -> int:
        return x if ours else total - x

    score = side(v)
    card_scores = {c: side(x) for c, x in values.items()}
    return Result(
        value=max(score, 0),
        exact=depth == n,
        depth=depth,
        nodes=nodes,
        score=score,
        cards={c: max(x, 0) for c, x in card_scores.items()},
        card_scores=card_scores,
    )


def solve_exact(
    position: Position, max_nodes: int | None = None, *, backend: Backend = "auto"
) -> Result:
    """The value of the position for the team of the seat to act, with ``exact`` saying whether
    it is the exact double-dummy value (always, without ``max_nodes``)."""
    return _analyse(position, max_nodes, False, backend)


def card_results(
    position: Position, max_nodes: int | None = None, *, backend: Backend = "auto"
) -> Result:
    """As ``solve_exact``, with ``cards``: the value of each legal card of the seat to act."""
    return _analyse(position, max_nodes, True, backend)


def solve(position: Position, max_nodes: int | None = None) -> int:
    """The points the team of the seat to act takes from here on with best play by all four
    (card points of the cards still out and in the current trick, 5 for the last trick, the
    match bonus when it applies). Exact without ``max_nodes``; with it, the deepest estimate
    the budget allowed (``solve_exact`` says which)."""
    return _analyse(position, max_nodes, False, "auto").value


def card_values(position: Position, max_nodes: int | None = None) -> dict[int, int]:
    """For every legal card of the seat to act, the value (as ``solve``) of playing it: exact
    without ``max_nodes`` (``card_results`` says whether a budgeted call was exact)."""
    return _analyse(position, max_nodes, True, "auto").cards
