"""The double-dummy search of ``chibre.bots.solver``: one source, run compiled or plain.

Every function of the search is written for numba's ``njit``: without recursion — one frame per
card on an explicit stack (``_run``) — on flat int64 arrays: the hands and the trick in one
(``st``), the contract's tables in another (``tab``), the transposition table in a third (key,
generation, lower bound, upper bound and best lead in two words a slot, reused from call to
call: a generation stamp replaces clearing it; when the probed slots are full the one with the
fewest cards left goes; positions are keyed by their class, ``_fill_classes``). Searched to the
end of the hand, positions of one shape — each suit's cards left held by the same seats,
strongest first — share their slots, and a bound found for one holds for the other shifted by
what the paired cards' points can change (``_fill_shapes``, ``_shape``, ``_shift``), which
takes a whole deal's nodes down by two to four times. The last three tricks are not searched
frame by frame: after the table (which keeps its value),
``_three_tricks`` plays the first of them in nested loops, and ``_two_tricks`` gives the last
two at once (before the table: cheaper than a probe). The root bisects with null windows
(``_root``; a whole deal in a trump from a guess, ``GUESS_TRICKS``); the search gives right
values in any window (``_window``: a child's window is its parent's, shifted by the trick's
points), fail-soft. With numba (``COMPILE``) the functions are compiled, and
``numba.njit(cache=True)`` keeps the machine code on disk, so only the very first run on a
machine compiles (a few seconds; ``warm_up`` does it early). Without numba the decorator is the
identity and the very same functions run in plain Python on ``array('q')`` arrays: only the
three bit primitives (lowest card, card count, table slot) and the prefetch have a plain twin.

``chibre.bots.solver`` loads this module twice when numba is installed — compiled, and plain
as ``chibre.bots.solver_core_plain`` (``COMPILE`` set false before it runs) — so that the
tests hold the two runs to the same values and node counts. Calls are serialised by a lock
(the tables are shared).
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable
from typing import Any, TypeVar, cast

from chibre.cards import SUIT_MASKS
from chibre.play import (
    BOURG,
    CARD_POINTS,
    LAST_TRICK_BONUS,
    LOWER_TRUMPS,
    STRENGTH,
    legal_cards,
)

try:
    import numba
    import numpy as np

    NUMBA = True
except ImportError:  # pragma: no cover - the plain run is used instead
    NUMBA = False

COMPILE: bool = NUMBA and bool(globals().get("COMPILE", True))
"""Whether this copy of the search runs compiled (the loader may set it false first)."""

F = TypeVar("F", bound=Callable[..., Any])

_JIT_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}


def _njit(fn: F) -> F:
    """``numba.njit(cache=True)`` when compiling, else the function itself. Without numba's
    runtime (``_nrt=False``): the search allocates nothing, and with the runtime every call and
    every inlined helper taking an array counts references to it, atomically — about half the
    time of a search went there."""
    if not COMPILE:
        return fn
    return cast(F, numba.njit(**_JIT_OPTIONS)(fn))


def _njit_inline(fn: F) -> F:
    """As ``_njit``, inlined into its callers (the small helpers of the hot loop)."""
    if not COMPILE:
        return fn
    return cast(F, numba.njit(inline="always", **_JIT_OPTIONS)(fn))


def new_array(n: int) -> Any:
    """``n`` int64 zeros: a numpy array when compiling, an ``array('q')`` in plain Python."""
    if COMPILE:
        return np.zeros(n, dtype=np.int64)
    return array("q", bytes(8 * n))


_INF = 1 << 20
_PROBES = 8
_KEY_MASK = (1 << 40) - 1  # a table slot's first word: the key, and the generation above it
_GEN_LIMIT = 1 << 23  # generations stay below this (the tables are dropped before)
_BIAS = 1 << 22  # a slot's second word: lower bound + _BIAS << 32 | upper + _BIAS << 8 | lead

# Offsets in the contract's table array.
_PTS = 0  # 36 card points
_STR = 36  # 4 × 36 trick strength by led suit
_BEATS = 180  # 4 × 36 masks: the cards that take a trick from this card
_LOWER = 324  # 36 masks: the trumps below this card (undertrumping)
_LEAD_KEY = 360  # 36 lead strength
_SLUFF_KEY = 396  # 36 order on a partner's trick
_SUIT_PTS = 432  # 4 × 512 points of a suit's cards
_BETWEEN = 2480  # 36 × 36 masks: cards strictly between two of a suit
_ORDER = 3776  # 4 × 9 each suit's cards, strongest first
_CONTRACT = 3812
_ZERO = 3813  # mask of the cards worth nothing
_TRUMPS = 3814  # mask of the trump suit (0 in Obenabe/Undenufe)
_BOURG = 3815
_HIGH = 3816  # mask of the cards worth 10 or more
_FIT = 3817  # the horizon's weights (``HORIZON_WEIGHTS``) × 2**16
_FOLLOW = _FIT + 11  # 4 × 512 × 4: the points of a suit's k lowest cards in a subset, k = 1..4
_TABLE_SIZE = _FOLLOW + 8192

# Slots of the state array.
_NODES = 4
_LIMIT = 5
_TABLE = 6  # the cards of the current trick
_BEST = 7  # the lead ``_three_tricks`` chose (kept in the table)
_BONUS = 8
_ABORT = 9
_GEN = 10  # the generation stamp of this iteration
_BASE = 11  # the first generation of this call (hints from earlier iterations)
_RET = 12  # the value an opened node decided at once
_CANON = 13  # 4 × 512: each suit's cards left (a subset of the root's) -> their class
_KILLER = _CANON + 2048  # 48 by ply: the card that last refuted a move there (-1: none)
_KILLER2 = _KILLER + 48  # the killer before it
_SHAPE = _KILLER2 + 48  # 4 × 512: each suit's cards left -> their shape (``_fill_shapes``)
_LADDER = _SHAPE + 2048  # 4 × 512: each suit's cards left -> their points, strongest first
_SHAPED = _LADDER + 2048  # 1 once ``_fill_shapes`` has run (else the table keys cards only)
_STATE_SIZE = _SHAPED + 1


if COMPILE and not getattr(numba.config, "DISABLE_JIT", False):
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def _cttz(typingctx: Any, x: Any) -> Any:
        """LLVM's count of trailing zeros: the lowest card of a set."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctpop(typingctx: Any, x: Any) -> Any:
        """LLVM's population count: the number of cards in a set."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _prefetch_at(typingctx: Any, a: Any, i: Any) -> Any:
        """LLVM's prefetch (for reading, kept in all caches) of item ``i`` of array ``a``."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            ptr = builder.gep(ary.data, [args[1]])
            i8p = ir.IntType(8).as_pointer()
            fnty = ir.FunctionType(ir.VoidType(), [i8p, ir.IntType(32), ir.IntType(32),
                                                  ir.IntType(32)])  # fmt: skip
            fn = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
                builder.module, fnty, "llvm.prefetch.p0"
            )
            i32 = ir.IntType(32)
            builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(a, i), codegen

    @_njit_inline
    def _prefetch(a: Any, i: int) -> None:
        """Ask for item ``i`` of ``a`` to be brought into the caches (no effect on values)."""
        _prefetch_at(a, i)  # type: ignore[call-arg]

    @_njit
    def _bit_index(x: int) -> int:
        return int(_cttz(x))  # type: ignore[call-arg]

    @_njit
    def _count(x: int) -> int:
        return int(_ctpop(x))  # type: ignore[call-arg]

    @_njit
    def _slot(key: int) -> int:
        """The table slot of a key (Fibonacci hashing, the top 24 bits of 64)."""
        return int((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40))

else:
    # The plain twins of the primitives, with the same results.

    def _prefetch(a: Any, i: int) -> None:
        pass

    def _bit_index(x: int) -> int:
        x = int(x)
        return (x & -x).bit_length() - 1

    def _count(x: int) -> int:
        return int(x).bit_count()

    def _slot(key: int) -> int:
        return ((int(key) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) >> 40


@_njit_inline
def _suit_points(tab: Any, rest: int) -> int:
    return int(
        tab[_SUIT_PTS + (rest & 511)]
        + tab[_SUIT_PTS + 512 + ((rest >> 9) & 511)]
        + tab[_SUIT_PTS + 1024 + ((rest >> 18) & 511)]
        + tab[_SUIT_PTS + 1536 + ((rest >> 27) & 511)]
    )


HORIZON_FEATURES = 11
"""How many features ``_horizon_features`` gives (after the points out)."""

HORIZON_WEIGHTS: dict[str, tuple[float, ...]] = {
    "trump": (
        0.3738, 1.7533, -0.0400, 0.0841, 0.0272, 0.0370, -0.0695, -0.0411, -0.0084, 0.0118,
        -0.5541,
    ),
    "obenabe": (-0.0456, 0.7895, 0.0860, 0, 0, 0, 0, 0.0157, 0.0229, 0, 0.1236),
    "undenufe": (0.1780, 0.7943, 0.0798, 0, 0, 0, 0, 0.0164, 0.0127, 0, 0.0201),
}  # fmt: skip
"""The horizon's weights by kind of contract, as printed by ``python -m chibre.bots.horizon
--positions 3000 --seed 1``."""


@_njit
def _horizon_features(st: Any, tab: Any, leader: int) -> tuple[float, ...]:
    """What the horizon of a budgeted search knows of a trick's start, for team 0: the points
    out (with the last 5), then the ``HORIZON_FEATURES`` numbers:

    - the share of the points team 0 holds;
    - its share of the sure tricks (each suit's top cards held by one team in an unbroken
      run, side suits counting half in a trump contract while the other team still holds
      trumps; the leader gets a small tempo);
    - the lead (±1);
    - team 0's less team 1's: trumps, trump points / 20, the bourg (±1), top trumps, top side
      cards, cards worth 10 or more, and the voids of the hands that hold trumps;
    - 1 (the constant)."""
    contract = tab[_CONTRACT]
    rest = st[0] | st[1] | st[2] | st[3]
    total = _suit_points(tab, rest) + LAST_TRICK_BONUS
    team0 = st[0] | st[2]
    team1 = st[1] | st[3]
    sure0 = 1.0
    sure1 = 1.0
    if leader & 1 == 0:
        sure0 += 0.5
    else:
        sure1 += 0.5
    trumps = tab[_TRUMPS]
    top_trumps = 0
    top_side = 0
    for s in range(4):
        owner = -1
        run = 0
        for i in range(9):
            c = tab[_ORDER + 9 * s + i]
            if not (rest >> c) & 1:
                continue
            t = 0 if (team0 >> c) & 1 else 1
            if owner < 0:
                owner = t
            if t != owner:
                break
            run += 1
        if owner < 0:
            continue
        sign = 1 if owner == 0 else -1
        if contract < 4 and s == contract:
            top_trumps += sign * run
        else:
            top_side += sign * run
        weight = 1.0
        if contract < 4 and s != contract and ((team1 if owner == 0 else team0) & trumps) != 0:
            weight = 0.5
        if owner == 0:
            sure0 += run * weight
        else:
            sure1 += run * weight
    voids = 0
    if trumps:
        for seat in range(4):
            hand = st[seat]
            if hand & trumps:
                for s in range(4):
                    if s != contract and hand & (511 << (9 * s)) == 0:
                        voids += 1 if seat & 1 == 0 else -1
    bourg = 0.0
    if trumps:
        if team0 & tab[_BOURG]:
            bourg = 1.0
        elif team1 & tab[_BOURG]:
            bourg = -1.0
    return (
        float(total),
        _suit_points(tab, team0) / total,
        sure0 / (sure0 + sure1),
        1.0 if leader & 1 == 0 else -1.0,
        float(_count(team0 & trumps) - _count(team1 & trumps)),
        (_suit_points(tab, team0 & trumps) - _suit_points(tab, team1 & trumps)) / 20.0,
        bourg,
        float(top_trumps),
        float(top_side),
        float(_count(team0 & tab[_HIGH]) - _count(team1 & tab[_HIGH])),
        float(voids),
        1.0,
    )


@_njit
def _estimate(st: Any, tab: Any, leader: int) -> int:
    """``chibre.bots.solver.estimate``: team 0's points from the start of a trick led by
    ``leader``, its share of the points out by the weights of the contract's table (clipped
    to 0..1)."""
    f = _horizon_features(st, tab, leader)
    x = 0.0
    for i in range(HORIZON_FEATURES):
        x += tab[_FIT + i] * f[i + 1]
    share = min(max(x / 65536.0, 0.0), 1.0)
    return int(f[0] * share + 0.5)


@_njit_inline
def _top_run(tab: Any, hand: int, rest: int, suit: int) -> tuple[int, int]:
    """How many of the highest cards left of ``suit`` ``hand`` holds in an unbroken run, and
    their points."""
    run = 0
    points = 0
    for i in range(9):
        c = tab[_ORDER + 9 * suit + i]
        if not (rest >> c) & 1:
            continue
        if not (hand >> c) & 1:
            break
        run += 1
        points += tab[_PTS + c]
    return run, points


@_njit_inline
def _sure_points(st: Any, tab: Any, seat: int, rest: int) -> int:
    """A lower bound of the points the team of ``seat``, to lead, takes from its quick tricks:
    leading its own top trumps, the trumps the opponents must follow with (the trumps' own
    points are ``_trump_run``'s); then, once no opponent holds a trump (none did, or they fell
    to those leads), its top cards of the other suits no card can beat — a suit's highest cards
    in an unbroken run in that hand. With each such trick, the lowest cards of the suit each
    hand that holds it must follow with (``_FOLLOW``)."""
    hand = st[seat]
    left = st[(seat + 1) & 3]
    right = st[(seat + 3) & 3]
    trumps = tab[_TRUMPS]
    contract = tab[_CONTRACT]
    opp_trumps = (left | right) & trumps
    total = 0
    if hand & trumps:
        run, _ = _top_run(tab, hand, rest, contract)
        if run and opp_trumps:
            k = min(run, 4) - 1
            for held in ((left >> (9 * contract)) & 0x1FF, (right >> (9 * contract)) & 0x1FF):
                if held:
                    total += tab[_FOLLOW + 4 * (512 * contract + held) + k]
            if _count(left & trumps) <= run and _count(right & trumps) <= run:
                opp_trumps = 0
    if opp_trumps:
        return int(total)
    for s in range(4):
        if s == contract or (hand >> (9 * s)) & 0x1FF == 0:
            continue
        run, points = _top_run(tab, hand, rest, s)
        total += points
        if run:
            k = min(run, 4) - 1
            for other in range(1, 4):
                held = (st[(seat + other) & 3] >> (9 * s)) & 0x1FF
                if held:
                    total += tab[_FOLLOW + 4 * (512 * s + held) + k]
    return int(total)


@_njit_inline
def _trump_run(st: Any, tab: Any, rest: int) -> int:
    """The top trumps one team holds in an unbroken run (its two hands together): each takes
    the trick it falls in, whoever leads. ``2 * points + team``, or -1 without trumps."""
    contract = tab[_CONTRACT]
    if contract >= 4 or (rest & tab[_TRUMPS]) == 0:
        return -1
    team0 = st[0] | st[2]
    owner = -1
    total = 0
    for i in range(9):
        c = tab[_ORDER + 9 * contract + i]
        if not (rest >> c) & 1:
            continue
        t = 0 if (team0 >> c) & 1 else 1
        if owner < 0:
            owner = t
        elif t != owner:
            break
        total += tab[_PTS + c]
    return int(2 * total + owner)


@_njit
def _fill_classes(st: Any, tab: Any) -> None:
    """Fill ``st[_CANON:]`` for the hands in ``st`` (the root's): for each suit, each subset of
    its cards left maps to one representative of its class. Cards worth nothing with no
    card worth points left between them (in trick order) are interchangeable when they change
    hands the same way: positions whose cards differ only there have the same value, so the
    table keys them alike. The representative keeps the cards worth points and, between two
    of them, the same sequence of holders on the earliest such cards of the deal."""
    rest = st[0] | st[1] | st[2] | st[3]
    zero = tab[_ZERO]
    for s in range(4):
        full = (rest >> (9 * s)) & 511
        sub = full
        while True:
            out = 0
            cands = 0  # the span's cards of the deal worth nothing, 4 bits each, in order
            nc = 0
            seq = 0  # the holders of those left, 2 bits each, in order
            ns = 0
            for i in range(10):
                r = -1
                if i < 9:
                    c = tab[_ORDER + 9 * s + i]
                    r = c - 9 * s
                    if not (full >> r) & 1:
                        continue
                    if (zero >> c) & 1:
                        cands |= r << (4 * nc)
                        nc += 1
                        if (sub >> r) & 1:
                            h = 0
                            while not (st[h] >> c) & 1:
                                h += 1
                            seq |= h << (2 * ns)
                            ns += 1
                        continue
                    if not (sub >> r) & 1:
                        continue
                    out |= 1 << r
                # a card worth points left (or the end) closes the span
                j = 0
                for q in range(ns):
                    h = (seq >> (2 * q)) & 3
                    while True:
                        x = (cands >> (4 * j)) & 15
                        j += 1
                        if (st[h] >> (9 * s + x)) & 1:
                            out |= 1 << x
                            break
                cands = 0
                nc = 0
                seq = 0
                ns = 0
            st[_CANON + 512 * s + sub] = out
            if sub == 0:
                break
            sub = (sub - 1) & full


@_njit
def _fill_shapes(st: Any, tab: Any) -> None:
    """Fill, for the hands in ``st`` (the root's), each suit's subsets of its cards left with
    their shape (``st[_SHAPE:]``: how many cards, whether the bourg is among them, their
    holders strongest first) and their ladder (``st[_LADDER:]``: their points strongest first,
    five bits each), which ``_shape`` and ``_shift`` read; only searches to the end of the
    hand use them, so the others do not pay for them."""
    rest = st[0] | st[1] | st[2] | st[3]
    for s in range(4):
        full = (rest >> (9 * s)) & 511
        sub = full
        while True:
            n = 0
            holders = 0
            ladder = 0
            for i in range(9):
                c = tab[_ORDER + 9 * s + i]
                if (sub >> (c - 9 * s)) & 1:
                    h = 0
                    while not (st[h] >> c) & 1:
                        h += 1
                    holders |= h << (2 * n)
                    ladder |= tab[_PTS + c] << (5 * n)
                    n += 1
            st[_LADDER + 512 * s + sub] = ladder
            bourg = 1 if (sub << (9 * s)) & tab[_BOURG] else 0
            st[_SHAPE + 512 * s + sub] = n | (bourg << 4) | (holders << 5)
            if sub == 0:
                break
            sub = (sub - 1) & full
    st[_SHAPED] = 1


@_njit_inline
def _class(st: Any, rest: int) -> int:
    """The representative of ``rest`` (``_fill_classes``)."""
    return int(
        st[_CANON + (rest & 511)]
        | (st[_CANON + 512 + ((rest >> 9) & 511)] << 9)
        | (st[_CANON + 1024 + ((rest >> 18) & 511)] << 18)
        | (st[_CANON + 1536 + ((rest >> 27) & 511)] << 27)
    )


@_njit_inline
def _shape(st: Any, rest: int) -> int:
    """A hash of the shape of ``rest``: in each suit, who holds its cards left, strongest first
    (``_fill_shapes``). Positions of one shape play alike, card for card; only their points
    differ."""
    return int(
        st[_SHAPE + (rest & 511)]
        ^ (st[_SHAPE + 512 + ((rest >> 9) & 511)] << 13)
        ^ (st[_SHAPE + 1024 + ((rest >> 18) & 511)] << 26)
        ^ (st[_SHAPE + 1536 + ((rest >> 27) & 511)] << 39)
    ) & ((1 << 59) - 1)


@_njit_inline
def _shift(st: Any, tab: Any, other: int, rest: int) -> tuple[int, int]:
    """How far the value of ``rest`` can lie from that of ``other`` when both have one shape:
    card for card (each suit's cards paired strongest first), the sum of the point losses and
    the sum of the gains — team 0 takes some of the pairs, the same ones in both. ``(1, 0)``
    when the shapes differ."""
    down = 0
    up = 0
    for s in range(4):
        a = (other >> (9 * s)) & 511
        b = (rest >> (9 * s)) & 511
        if a == b:
            continue
        if st[_SHAPE + 512 * s + a] != st[_SHAPE + 512 * s + b]:
            return 1, 0
        pa = st[_LADDER + 512 * s + a]
        pb = st[_LADDER + 512 * s + b]
        while pa | pb:
            d = (pb & 31) - (pa & 31)
            if d < 0:
                down += d
            else:
                up += d
            pa >>= 5
            pb >>= 5
    return down, up


@_njit_inline
def _legal(tab: Any, hand: int, led: int, win_card: int) -> int:
    follow = hand & (0x1FF << (9 * led))
    contract = tab[_CONTRACT]
    if contract >= 4:
        return follow if follow else hand
    trumps = hand & tab[_TRUMPS]
    if led == contract:
        return trumps if (trumps != 0 and trumps != tab[_BOURG]) else hand
    allowed = (follow | trumps) if follow else hand
    if trumps != hand and win_card // 9 == contract:
        allowed &= ~tab[_LOWER + win_card]
    return int(allowed)


@_njit_inline
def _last_trick(tab: Any, leader: int, c0: int, c1: int, c2: int, c3: int) -> int:
    """The seat taking the trick ``c0``..``c3`` that ``leader`` leads with ``c0``."""
    base = _STR + 36 * (c0 // 9)
    win = 0
    best = tab[base + c0]
    if tab[base + c1] > best:
        win = 1
        best = tab[base + c1]
    if tab[base + c2] > best:
        win = 2
        best = tab[base + c2]
    if tab[base + c3] > best:
        win = 3
    return (leader + win) & 3


@_njit_inline
def _nth(i: int, a: int, b: int, c: int, d: int) -> int:
    """The ``i``-th (mod 4) of ``a``, ``b``, ``c``, ``d``."""
    i &= 3
    if i == 0:
        return a
    if i == 1:
        return b
    if i == 2:
        return c
    return d


@_njit
def _two_tricks(
    st: Any, tab: Any, seat: int, t0: int, t1: int, bonus: int, alpha: int, beta: int
) -> int:
    """The value (team 0's points from here on) of the last two tricks, ``seat`` to lead, in
    the window ``(alpha, beta)``, fail-soft: the plays of the first (at most two cards a hand)
    in minimax with alpha-beta, the last trick following from each. Values are taken on the
    leader's side (``sign``): the leader and its partner maximise, the others minimise."""
    s1 = (seat + 1) & 3
    s2 = (seat + 2) & 3
    s3 = (seat + 3) & 3
    h0 = st[seat]
    h1 = st[s1]
    h2 = st[s2]
    h3 = st[s3]
    sign = 1 if seat & 1 == 0 else -1
    lo = alpha if sign == 1 else -beta
    hi = beta if sign == 1 else -alpha
    v0 = -_INF
    m0 = h0
    while m0 and v0 < hi:
        c0 = _bit_index(m0)
        m0 &= m0 - 1
        led = c0 // 9
        base = _STR + 36 * led
        v1 = _INF
        a0 = lo if lo > v0 else v0
        m1 = _legal(tab, h1, led, c0)
        while m1 and v1 > a0:
            c1 = _bit_index(m1)
            m1 &= m1 - 1
            w1 = c1 if tab[base + c1] > tab[base + c0] else c0
            v2 = -_INF
            b1 = hi if hi < v1 else v1
            m2 = _legal(tab, h2, led, w1)
            while m2 and v2 < b1:
                c2 = _bit_index(m2)
                m2 &= m2 - 1
                w2 = c2 if tab[base + c2] > tab[base + w1] else w1
                v3 = _INF
                floor = a0 if a0 > v2 else v2
                m3 = _legal(tab, h3, led, w2)
                while m3 and v3 > floor:
                    c3 = _bit_index(m3)
                    m3 &= m3 - 1
                    ws = _last_trick(tab, seat, c0, c1, c2, c3)
                    # the last trick: each hand's other card, led by the first trick's taker
                    e0 = h0 ^ (1 << c0)
                    e1 = h1 ^ (1 << c1)
                    e2 = h2 ^ (1 << c2)
                    e3 = h3 ^ (1 << c3)
                    o = (ws - seat) & 3
                    d0 = _bit_index(_nth(o, e0, e1, e2, e3))
                    d1 = _bit_index(_nth(o + 1, e0, e1, e2, e3))
                    d2 = _bit_index(_nth(o + 2, e0, e1, e2, e3))
                    d3 = _bit_index(_nth(o + 3, e0, e1, e2, e3))
                    wl = _last_trick(tab, ws, d0, d1, d2, d3)
                    v = 0
                    if ws & 1 == 0:
                        v = tab[_PTS + c0] + tab[_PTS + c1] + tab[_PTS + c2] + tab[_PTS + c3]
                    if wl & 1 == 0:
                        v += tab[_PTS + d0] + tab[_PTS + d1] + tab[_PTS + d2] + tab[_PTS + d3]
                        v += LAST_TRICK_BONUS
                    if bonus:
                        if ws & 1 == 0 and wl & 1 == 0:
                            if not t1:
                                v += bonus
                        elif ws & 1 == 1 and wl & 1 == 1 and not t0:
                            v -= bonus
                    v *= sign
                    if v < v3:
                        v3 = v
                if v3 > v2:
                    v2 = v3
            if v2 < v1:
                v1 = v2
        if v1 > v0:
            v0 = v1
    return int(sign * v0)


@_njit
def _three_tricks(st: Any, tab: Any, seat: int, t0: int, t1: int, bonus: int, alpha: int,
                  beta: int, first: int) -> int:  # fmt: skip
    """The value of the last three tricks, ``seat`` to lead, in the window ``(alpha, beta)``,
    fail-soft, as ``_two_tricks`` gives the last two: the plays of the first trick in minimax
    with alpha-beta (the lead ``first`` tried first), each followed by ``_two_tricks`` in the
    window that can still change the result. Leaves its best lead in ``st[_BEST]`` and counts
    the first trick's cards as nodes."""
    s1 = (seat + 1) & 3
    s2 = (seat + 2) & 3
    s3 = (seat + 3) & 3
    h0 = st[seat]
    h1 = st[s1]
    h2 = st[s2]
    h3 = st[s3]
    sign = 1 if seat & 1 == 0 else -1
    lo = alpha if sign == 1 else -beta
    hi = beta if sign == 1 else -alpha
    v0 = -_INF
    order = h0
    c0 = -1
    if first >= 0 and (h0 >> first) & 1:
        order ^= 1 << first
        c0 = first
    nodes = 0
    while v0 < hi:
        if c0 < 0:
            if order == 0:
                break
            c0 = _bit_index(order)
            order &= order - 1
        nodes += 1
        led = c0 // 9
        base = _STR + 36 * led
        a0 = lo if lo > v0 else v0
        v1 = _INF
        m1 = _legal(tab, h1, led, c0)
        while m1 and v1 > a0:
            c1 = _bit_index(m1)
            m1 &= m1 - 1
            nodes += 1
            w1 = c1 if tab[base + c1] > tab[base + c0] else c0
            b1 = hi if hi < v1 else v1
            v2 = -_INF
            m2 = _legal(tab, h2, led, w1)
            while m2 and v2 < b1:
                c2 = _bit_index(m2)
                m2 &= m2 - 1
                nodes += 1
                w2 = c2 if tab[base + c2] > tab[base + w1] else w1
                a2 = a0 if a0 > v2 else v2
                v3 = _INF
                m3 = _legal(tab, h3, led, w2)
                while m3 and v3 > a2:
                    c3 = _bit_index(m3)
                    m3 &= m3 - 1
                    nodes += 1
                    ws = _last_trick(tab, seat, c0, c1, c2, c3)
                    st[seat] = h0 ^ (1 << c0)
                    st[s1] = h1 ^ (1 << c1)
                    st[s2] = h2 ^ (1 << c2)
                    st[s3] = h3 ^ (1 << c3)
                    v = 0
                    u0 = t0
                    u1 = t1
                    if ws & 1 == 0:
                        v = tab[_PTS + c0] + tab[_PTS + c1] + tab[_PTS + c2] + tab[_PTS + c3]
                        u0 = 1
                    else:
                        u1 = 1
                    if sign == 1:
                        v += _two_tricks(st, tab, ws, u0, u1, bonus, a2 - v, v3 - v)
                    else:
                        v += _two_tricks(st, tab, ws, u0, u1, bonus, -v3 - v, -a2 - v)
                    v *= sign
                    if v < v3:
                        v3 = v
                if v3 > v2:
                    v2 = v3
            if v2 < v1:
                v1 = v2
        if v1 > v0:
            v0 = v1
            st[_BEST] = c0
        c0 = -1
    st[seat] = h0
    st[s1] = h1
    st[s2] = h2
    st[s3] = h3
    st[_NODES] += nodes
    return int(sign * v0)


# Fields of a frame (one node of the search, by ply).
_SEAT = 0
_K = 1
_LED = 2
_WS = 3  # seat holding the trick
_WC = 4  # card holding the trick (-1 before the lead)
_WSTR = 5  # its strength
_ONT = 6  # points on the table
_T0 = 7
_T1 = 8
_ALPHA = 9
_BETA = 10
_D = 11  # tricks still to search, this one included
_START = 12  # 1: the trick starts here (table entry, bounds, horizon)
_SLOT = 13
_KEY = 14
_LO = 15
_HI = 16
_N = 17  # moves
_I = 18  # the move being tried
_BESTV = 19
_CHOICE = 20
_HAND = 21
_ADD = 22  # added to the child's value (the trick's points when team 0 takes it)
_SAVED = 23  # the trick's cards before the move
_FIRST = 24  # the move to try first (-1: none)
_ONLY = 25  # 1: try only _FIRST (the root's frame only; the others stay 0)
_A0 = 26  # the window the node was opened with (after the table narrowed it)
_B0 = 27
_FIELDS = 28

_ENTER = 0
_NEXT = 1
_RETURN = 2
_CHILD = 3


@_njit_inline
def _enter(
    st: Any,
    tab: Any,
    tt: Any,
    work: Any,
    fr: Any,
    ply: int,
) -> int:
    """Open the node of frame ``ply``: returns 1 and leaves its value in ``st[_RET]`` when it is
    decided at once (bounds, table, horizon, last trick), else 0 with its moves in order."""
    fb = ply * _FIELDS
    seat = fr[fb + _SEAT]
    k = fr[fb + _K]
    bonus = st[_BONUS]
    t0 = fr[fb + _T0]
    t1 = fr[fb + _T1]
    if fr[fb + _START]:
        fr[fb + _LO] = -_INF
        fr[fb + _HI] = _INF
        if st[_NODES] > st[_LIMIT]:
            st[_ABORT] = 1
            st[_RET] = 0
            return 1
        if fr[fb + _D] == 0:
            st[_RET] = _estimate(st, tab, seat)
            return 1
        hand = st[seat]
        if hand & (hand - 1) == 0:
            c0 = _bit_index(st[seat])
            c1 = _bit_index(st[(seat + 1) & 3])
            c2 = _bit_index(st[(seat + 2) & 3])
            c3 = _bit_index(st[(seat + 3) & 3])
            base = _STR + 36 * (c0 // 9)
            win = 0
            best_s = tab[base + c0]
            if tab[base + c1] > best_s:
                win = 1
                best_s = tab[base + c1]
            if tab[base + c2] > best_s:
                win = 2
                best_s = tab[base + c2]
            if tab[base + c3] > best_s:
                win = 3
            team = (seat + win) & 1
            v = 0
            if team == 0:
                v = tab[c0] + tab[c1] + tab[c2] + tab[c3] + LAST_TRICK_BONUS
            if bonus:
                if team == 0:
                    if not t1:
                        v += bonus
                elif not t0:
                    v -= bonus
            st[_RET] = v
            return 1
        rest = st[0] | st[1] | st[2] | st[3]
        key = _class(st, rest) | (seat << 36)
        if bonus:
            key |= (t0 << 38) | (t1 << 39)
        mask = (len(tt) >> 1) - 1
        cards = _count(hand)
        # searched to the end of the hand (no horizon below), positions of one shape share
        # their slots (their bounds hold for one another, shifted); else each its own
        exact = fr[fb + _D] >= cards and st[_SHAPED]
        place = _shape(st, rest) ^ ((key >> 36) << 59) if exact else key
        j0 = _slot(place) & mask
        last_two = cards == 2 and fr[fb + _D] >= 2
        if not last_two:
            _prefetch(tt, 2 * j0)  # the table's slot comes from memory while the bounds are made
        # sure points of each team (0, 1) and whether it takes a trick for sure
        sure0 = 0
        sure1 = 0
        win0 = 0
        win1 = 0
        sure = _sure_points(st, tab, seat, rest)
        if sure:
            if seat & 1:
                sure1 = sure
                win1 = 1
            else:
                sure0 = sure
                win0 = 1
        run = _trump_run(st, tab, rest)
        if run >= 0:
            if run & 1:
                sure1 += run >> 1
                win1 = 1
            else:
                sure0 += run >> 1
                win0 = 1
        most = _suit_points(tab, rest) + LAST_TRICK_BONUS - sure1
        least = sure0
        if bonus:
            if not t1 and not win1:
                most += bonus
            if not t0 and not win0:
                least = -bonus
        alpha = fr[fb + _ALPHA]
        beta = fr[fb + _BETA]
        if most <= alpha:
            st[_RET] = most
            return 1
        if least >= beta:
            st[_RET] = least
            return 1
        if last_two:
            st[_RET] = _two_tricks(st, tab, seat, t0, t1, bonus, alpha, beta)
            return 1
        # a free slot, else ours, else the one with the fewest cards left (cheapest to redo)
        slot = j0
        fewest = 99
        lo = -_INF
        hi = _INF
        for i in range(_PROBES):
            j = (j0 + i) & mask
            eb = 2 * j
            w = tt[eb]
            if (w >> 40) < st[_BASE]:
                slot = j
                break
            if (w & _KEY_MASK) == key:
                slot = j
                w1 = tt[eb + 1]
                if (w >> 40) == st[_GEN]:
                    lo = max(lo, (w1 >> 32) - _BIAS)
                    hi = min(hi, ((w1 >> 8) & 0xFFFFFF) - _BIAS)
                fr[fb + _FIRST] = w1 & 255
                break
            if exact and (w >> 40) == st[_GEN] and ((w ^ key) >> 36) & 15 == 0:
                # a position of the same shape: its bounds, shifted by what the points of
                # the cards that differ can change, where they may decide the window
                w1 = tt[eb + 1]
                other_lo = (w1 >> 32) - _BIAS
                other_hi = ((w1 >> 8) & 0xFFFFFF) - _BIAS
                if other_lo >= beta or other_hi <= alpha:
                    down, up = _shift(st, tab, w & 0xFFFFFFFFF, key & 0xFFFFFFFFF)
                    if down <= 0:
                        lo = max(lo, other_lo + down)
                        hi = min(hi, other_hi + up)
            left = _count(w & 0xFFFFFFFFF)
            if left < fewest:
                fewest = left
                slot = j
        if lo >= beta:
            st[_RET] = lo
            return 1
        if hi <= alpha:
            st[_RET] = hi
            return 1
        if lo == hi:
            # the exact value, inside the window: narrowed to it, the window would be empty,
            # and children searched in an empty window store their fail-soft values as bounds
            # on the wrong side
            st[_RET] = lo
            return 1
        if lo > alpha:
            fr[fb + _ALPHA] = lo
        if hi < beta:
            fr[fb + _BETA] = hi
        fr[fb + _LO] = lo
        fr[fb + _HI] = hi
        if cards == 3 and fr[fb + _D] >= 3:
            a = fr[fb + _ALPHA]
            b = fr[fb + _BETA]
            v = _three_tricks(st, tab, seat, t0, t1, bonus, a, b, fr[fb + _FIRST])
            lo = fr[fb + _LO]
            hi = fr[fb + _HI]
            if v <= a:
                hi = min(hi, v)
            elif v >= b:
                lo = max(lo, v)
            else:
                lo = v
                hi = v
            eb = 2 * slot
            tt[eb] = key | (st[_GEN] << 40)
            tt[eb + 1] = ((lo + _BIAS) << 32) | ((hi + _BIAS) << 8) | st[_BEST]
            st[_RET] = v
            return 1
        fr[fb + _SLOT] = slot
        fr[fb + _KEY] = key
        fr[fb + _A0] = fr[fb + _ALPHA]
        fr[fb + _B0] = fr[fb + _BETA]
    hand = st[seat]
    fr[fb + _HAND] = hand
    mb = ply * 9
    kb = (ply + 40) * 9
    n = 0
    first_move = fr[fb + _FIRST]
    if fr[fb + _ONLY]:
        work[mb + 0] = first_move
        n = 1
    else:
        led = fr[fb + _LED]
        win_card = fr[fb + _WC]
        allowed = hand if k == 0 else _legal(tab, hand, led, win_card)
        z = allowed & tab[_ZERO]
        if z & (z - 1):
            outside = ((st[0] | st[1] | st[2] | st[3]) ^ hand) | st[_TABLE]
            prev = -1
            m = z
            while m:
                c = _bit_index(m)
                m &= m - 1
                if (
                    prev >= 0
                    and prev // 9 == c // 9
                    and (outside & tab[_BETWEEN + 36 * prev + c]) == 0
                ):
                    allowed ^= 1 << c
                prev = c
        opp = st[(seat + 1) & 3] | st[(seat + 3) & 3]
        partner = (fr[fb + _WS] ^ seat) & 1 == 0
        over = 0
        if k > 0 and not partner:
            over = allowed & tab[_BEATS + 36 * led + win_card]
        to_partner = 0
        if k == 0:
            # the suits where the partner holds a card no opponent's card of the suit beats
            mate = st[(seat + 2) & 3]
            q = mate
            while q:
                c = _bit_index(q)
                q &= q - 1
                if (tab[_BEATS + 36 * (c // 9) + c] & opp & (0x1FF << (9 * (c // 9)))) == 0:
                    to_partner |= 1 << (c // 9)
        killer = st[_KILLER + ply]
        m = allowed
        while m:
            c = _bit_index(m)
            m &= m - 1
            if k == 0:
                # the table's lead first, then the two leads that last refuted a move at this
                # ply (killers), then sure winners (no opponent holds a higher card of the suit
                # or, in a side suit, a trump), strongest first; then low cards of the suits
                # the partner holds the top of, then the other cards, weakest first
                kv = tab[_LEAD_KEY + c]
                if (tab[_BEATS + 36 * (c // 9) + c] & opp) == 0:
                    kv = -200 - kv
                elif (to_partner >> (c // 9)) & 1:
                    kv -= 100
                if c == killer:
                    kv = -900
                elif c == st[_KILLER2 + ply]:
                    kv = -800
                if c == first_move:
                    kv = -1000
            elif partner:
                kv = tab[_SLUFF_KEY + c]
            elif (over >> c) & 1:
                kv = tab[_STR + 36 * led + c]
            else:
                kv = 1000 + tab[_PTS + c]
            # insertion, stable: equal keys keep card order
            i = n
            while i > 0 and work[kb + i - 1] > kv:
                work[kb + i] = work[kb + i - 1]
                work[mb + i] = work[mb + i - 1]
                i -= 1
            work[kb + i] = kv
            work[mb + i] = c
            n += 1
    fr[fb + _N] = n
    fr[fb + _I] = 0
    fr[fb + _BESTV] = -_INF if seat & 1 == 0 else _INF
    fr[fb + _CHOICE] = work[mb + 0]
    return 0


@_njit
def _run(st: Any, tab: Any, tt: Any, work: Any, fr: Any) -> int:
    """Search from frame 0 (set up by the caller) without recursion: frames on a stack."""
    ply = 0
    phase = _ENTER
    ret = 0
    bonus = st[_BONUS]
    while True:
        fb = ply * _FIELDS
        if phase == _ENTER:
            if _enter(st, tab, tt, work, fr, ply):
                ret = st[_RET]
                phase = _RETURN
            else:
                phase = _NEXT
        if phase == _NEXT:
            i = fr[fb + _I]
            if i >= fr[fb + _N]:
                best = fr[fb + _BESTV]
                if fr[fb + _START]:
                    lo = fr[fb + _LO]
                    hi = fr[fb + _HI]
                    if best <= fr[fb + _A0]:
                        if best < hi:
                            hi = best
                    elif best >= fr[fb + _B0]:
                        if best > lo:
                            lo = best
                    else:
                        lo = best
                        hi = best
                    eb = 2 * fr[fb + _SLOT]
                    tt[eb] = fr[fb + _KEY] | (st[_GEN] << 40)
                    tt[eb + 1] = ((lo + _BIAS) << 32) | ((hi + _BIAS) << 8) | fr[fb + _CHOICE]
                ret = best
                phase = _RETURN
            else:
                seat = fr[fb + _SEAT]
                k = fr[fb + _K]
                c = work[ply * 9 + i]
                bit = 1 << c
                st[_NODES] += 1
                st[seat] = fr[fb + _HAND] ^ bit
                p = fr[fb + _ONT] + tab[_PTS + c]
                fr[fb + _SAVED] = st[_TABLE]
                gb = fb + _FIELDS
                fr[gb + _T0] = fr[fb + _T0]
                fr[gb + _T1] = fr[fb + _T1]
                fr[gb + _ALPHA] = fr[fb + _ALPHA]
                fr[gb + _BETA] = fr[fb + _BETA]
                fr[gb + _D] = fr[fb + _D]
                fr[gb + _FIRST] = -1
                fr[gb + _START] = 0
                fr[fb + _ADD] = 0
                if k < 3:
                    fr[gb + _SEAT] = (seat + 1) & 3
                    fr[gb + _K] = k + 1
                    fr[gb + _ONT] = p
                    if k == 0:
                        st[_TABLE] = bit
                        led = c // 9
                        fr[gb + _LED] = led
                        fr[gb + _WS] = seat
                        fr[gb + _WC] = c
                        fr[gb + _WSTR] = tab[_STR + 36 * led + c]
                    else:
                        st[_TABLE] |= bit
                        led = fr[fb + _LED]
                        fr[gb + _LED] = led
                        s = tab[_STR + 36 * led + c]
                        if s > fr[fb + _WSTR]:
                            fr[gb + _WS] = seat
                            fr[gb + _WC] = c
                            fr[gb + _WSTR] = s
                        else:
                            fr[gb + _WS] = fr[fb + _WS]
                            fr[gb + _WC] = fr[fb + _WC]
                            fr[gb + _WSTR] = fr[fb + _WSTR]
                    ply += 1
                    phase = _ENTER
                    continue
                ws = seat if tab[_STR + 36 * fr[fb + _LED] + c] > fr[fb + _WSTR] else fr[fb + _WS]
                st[_TABLE] = 0
                if st[ws] == 0:
                    # the ninth trick is complete
                    if ws & 1 == 0:
                        ret = p + LAST_TRICK_BONUS
                        if bonus and not fr[fb + _T1]:
                            ret += bonus
                    else:
                        ret = 0
                        if bonus and not fr[fb + _T0]:
                            ret = -bonus
                    phase = _CHILD
                else:
                    fr[gb + _SEAT] = ws
                    fr[gb + _K] = 0
                    fr[gb + _LED] = 0
                    fr[gb + _WS] = ws
                    fr[gb + _WC] = -1
                    fr[gb + _WSTR] = 0
                    fr[gb + _ONT] = 0
                    fr[gb + _START] = 1
                    fr[gb + _D] = fr[fb + _D] - 1
                    if ws & 1 == 0:
                        fr[gb + _T0] = 1
                        fr[gb + _ALPHA] = fr[fb + _ALPHA] - p
                        fr[gb + _BETA] = fr[fb + _BETA] - p
                        fr[fb + _ADD] = p
                    else:
                        fr[gb + _T1] = 1
                    ply += 1
                    phase = _ENTER
                    continue
        if phase == _RETURN:
            if ply == 0:
                return ret
            ply -= 1
            fb = ply * _FIELDS
            phase = _CHILD
        if phase == _CHILD:
            if st[_ABORT]:
                return 0
            v = ret + fr[fb + _ADD]
            st[fr[fb + _SEAT]] = fr[fb + _HAND]
            st[_TABLE] = fr[fb + _SAVED]
            c = work[ply * 9 + fr[fb + _I]]
            if fr[fb + _SEAT] & 1 == 0:
                if v > fr[fb + _BESTV]:
                    fr[fb + _BESTV] = v
                    fr[fb + _CHOICE] = c
                    if v > fr[fb + _ALPHA]:
                        fr[fb + _ALPHA] = v
            elif v < fr[fb + _BESTV]:
                fr[fb + _BESTV] = v
                fr[fb + _CHOICE] = c
                if v < fr[fb + _BETA]:
                    fr[fb + _BETA] = v
            fr[fb + _I] += 1
            if fr[fb + _ALPHA] >= fr[fb + _BETA]:
                if st[_KILLER + ply] != c:
                    st[_KILLER2 + ply] = st[_KILLER + ply]
                    st[_KILLER + ply] = c
                fr[fb + _I] = fr[fb + _N]
            phase = _NEXT


@_njit_inline
def _open_root(fr: Any, alpha: int, beta: int, depth: int, only: int) -> None:
    """Set frame 0 (its trick fields set by ``_search``) for one search of ``depth`` tricks
    in the window ``(alpha, beta)``; ``only`` >= 0: of that card only."""
    fr[_ALPHA] = alpha
    fr[_BETA] = beta
    fr[_D] = depth
    fr[_START] = 1 if fr[_K] == 0 and only < 0 else 0
    fr[_FIRST] = only
    fr[_ONLY] = 1 if only >= 0 else 0


@_njit
def _root(st: Any, tab: Any, tt: Any, work: Any, fr: Any, depth: int, only: int, bottom: int,
          top: int, guess: int) -> int:  # fmt: skip
    """Null-window searches until the bounds meet (``chibre.bots.solver``): bisection,
    or, with a ``guess`` strictly inside the bounds, first at the guess and then in steps that
    double away from it until the value is bracketed on both sides, then bisection."""
    lo = bottom
    hi = top
    beta = (lo + hi + 1) // 2
    step = 0
    if bottom < guess <= top:
        beta = guess
        step = 1
    while lo < hi:
        _open_root(fr, beta - 1, beta, depth, only)
        g = _run(st, tab, tt, work, fr)
        if st[_ABORT]:
            return 0
        if g < beta:
            hi = g
            beta = hi - step + 1
        else:
            lo = g
            beta = lo + step
        if step and lo > bottom and hi < top:
            step = 0
        step *= 2
        if step == 0 or beta <= lo or beta > hi:
            beta = (lo + hi + 1) // 2
    return int(lo)


@_njit
def _window(st: Any, tab: Any, tt: Any, work: Any, fr: Any, depth: int, alpha: int,
            beta: int) -> int:  # fmt: skip
    """One search in the window ``(alpha, beta)``, fail-soft: the value when it falls inside,
    else a bound on its side (at most ``alpha``: an upper bound; at least ``beta``: a lower)."""
    _open_root(fr, alpha, beta, depth, -1)
    return int(_run(st, tab, tt, work, fr))


_lock = threading.Lock()
_contract_tables: dict[int, Any] = {}
_buffers: dict[int, Any] = {}
_generation = [1]


def _contract(contract: int) -> Any:
    """The table array of ``contract`` (built once): its card points, trick strengths, … at
    the offsets above, from the tables of ``chibre.bots.solver``."""
    tab = _contract_tables.get(contract)
    if tab is not None:
        return tab
    from chibre.bots import solver as py

    t = new_array(_TABLE_SIZE)
    for c in range(36):
        t[_PTS + c] = CARD_POINTS[contract][c]
        t[_LEAD_KEY + c] = py._LEAD_STRENGTH[contract][c]
        t[_SLUFF_KEY + c] = py._SLUFF_KEY[contract][c]
        t[_LOWER + c] = LOWER_TRUMPS[contract][c] if contract < 4 else 0
        for led in range(4):
            t[_STR + 36 * led + c] = STRENGTH[contract][led][c]
            t[_BEATS + 36 * led + c] = py._BEATS[contract][led][c]
        for b in range(36):
            t[_BETWEEN + 36 * c + b] = py.BETWEEN[c][b]
    for s in range(4):
        for m in range(512):
            t[_SUIT_PTS + 512 * s + m] = py._SUIT_POINTS[contract][s][m]
            low = sorted(CARD_POINTS[contract][9 * s + r] for r in range(9) if (m >> r) & 1)
            for k in range(4):
                t[_FOLLOW + 4 * (512 * s + m) + k] = sum(low[: k + 1])
        for i, c in enumerate(py._POWER_ORDER[contract][s]):
            t[_ORDER + 9 * s + i] = c
    t[_CONTRACT] = contract
    t[_ZERO] = py.ZERO_CARDS[contract]
    t[_TRUMPS] = SUIT_MASKS[contract] if contract < 4 else 0
    t[_BOURG] = BOURG[contract] if contract < 4 else 0
    t[_HIGH] = sum(1 << c for c in range(36) if CARD_POINTS[contract][c] >= 10)
    kind = ("obenabe", "undenufe")[contract - 4] if contract > 3 else "trump"
    for i, w in enumerate(HORIZON_WEIGHTS[kind]):
        t[_FIT + i] = round(w * 65536)
    _contract_tables[contract] = t
    return t


def _table_array(entries: int) -> Any:
    """A reused transposition table of ``entries`` slots (a power of two), two int64 per
    slot (16 bytes, four slots to a cache line): the key (40 bits) with the generation above
    it, and the lower bound, the upper bound (each biased by ``_BIAS``) and the best lead."""
    got = _buffers.get(entries)
    if got is None:
        got = _buffers[entries] = new_array(2 * entries)
    return got


GUESS_TRICKS = 4
"""An exact solve of a whole deal in a trump first searches this many tricks deep (the horizon
after them) and starts its null-window searches at that estimate: a third fewer nodes than
bisecting from the middle of the range (``bench/solver.py``); elsewhere the first probes of the
bisection are cheap and a guess saves nothing."""

RELEASE_TRICKS = 7
"""An exact solve with this many tricks left or more drops its table after use (2^16 slots,
1 MiB, at 7 tricks; 16 MiB at 9, 64 MiB for a whole deal in a trump), so that a long-lived
process does not keep it."""


def release() -> None:
    """Drop the reused transposition tables."""
    with _lock:
        _buffers.clear()


def held_bytes() -> int:
    """The memory the reused transposition tables hold now."""
    with _lock:
        return sum(8 * len(a) for a in _buffers.values())


def search(
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
    reached (tricks): exact without ``limit``; else deepening trick by trick while the budget
    lasts (the first trick is always searched, the budget is checked at each trick's start)."""
    with _lock:
        try:
            return _search(hands, contract, leader, trick, taken, bonus, limit, per_card)
        finally:
            if limit is None and bin(hands[(leader + len(trick)) & 3]).count("1") >= (
                RELEASE_TRICKS
            ):
                _buffers.clear()


def _prepare(
    hands: list[int],
    contract: int,
    leader: int,
    trick: tuple[int, ...],
    taken: tuple[bool, bool],
    bonus: int,
    bits: int,
) -> tuple[Any, Any, Any, Any, Any, int, int]:
    """The arrays of a search from this position (state, contract, table of ``2 ** bits``
    slots, moves, frames: frame 0 holds the current trick) and the range of its value."""
    from chibre.bots.solver import points_of

    tab = _contract(contract)
    if _generation[0] + 16 >= _GEN_LIMIT:
        # the stamps would overflow their bits: start again on fresh tables
        _buffers.clear()
        _generation[0] = 1
    tt = _table_array(1 << bits)
    work = new_array(80 * 9)
    fr = new_array(48 * _FIELDS)
    st = new_array(_STATE_SIZE)
    st[0], st[1], st[2], st[3] = hands
    _fill_classes(st, tab)
    for i in range(96):
        st[_KILLER + i] = -1
    st[_BONUS] = bonus
    led = trick[0] // 9 if trick else 0
    ws, wc, wst, on_table = leader, -1, -1, 0
    for i, c in enumerate(trick):
        st[_TABLE] |= 1 << c
        s = STRENGTH[contract][led][c]
        if s > wst:
            ws, wc, wst = (leader + i) & 3, c, s
        on_table += CARD_POINTS[contract][c]
    fr[_SEAT] = (leader + len(trick)) & 3
    fr[_K] = len(trick)
    fr[_LED] = led
    fr[_WS] = ws
    fr[_WC] = wc
    fr[_WSTR] = wst
    fr[_ONT] = on_table
    fr[_T0] = int(taken[0])
    fr[_T1] = int(taken[1])
    rest = hands[0] | hands[1] | hands[2] | hands[3]
    top = on_table + points_of(rest, contract) + LAST_TRICK_BONUS + (bonus if not taken[1] else 0)
    bottom = -bonus if not taken[0] else 0
    base = _generation[0]
    _generation[0] += 16
    st[_BASE] = base
    st[_GEN] = base
    st[_LIMIT] = 1 << 62
    return st, tab, tt, work, fr, bottom, top


def _search(
    hands: list[int],
    contract: int,
    leader: int,
    trick: tuple[int, ...],
    taken: tuple[bool, bool],
    bonus: int,
    limit: int | None,
    per_card: bool,
) -> tuple[int, dict[int, int], int, int]:
    seat0 = (leader + len(trick)) & 3
    n = bin(hands[seat0]).count("1")
    whole_trump_deal = limit is None and n == 9 and contract < 4
    if limit is None:
        # a larger table, freshly zeroed and spread over more memory, costs more time than
        # its few more hits save — except on a whole deal in a trump, the longest solves by
        # far, where 2^22 slots (64 MiB) save a fifth of the time (``bench/solver.py``)
        bits = 22 if whole_trump_deal else 2 + 2 * n
    else:
        bits = max(10, min(22, 4 + 2 * n, (limit // 2).bit_length()))
    st, tab, tt, work, fr, bottom, top = _prepare(
        hands, contract, leader, trick, taken, bonus, bits
    )
    roots = [-1]
    if per_card:
        allowed = legal_cards(hands[seat0], trick, contract)
        roots = [c for c in range(36) if allowed >> c & 1]
    base = st[_BASE]
    nodes = 0
    v, values, depth = 0, {}, 0
    for d in [n] if limit is None else range(1, n + 1):
        if d == n:
            _fill_shapes(st, tab)
        st[_GEN] = base + d
        st[_ABORT] = 0
        st[_NODES] = 0
        st[_LIMIT] = (1 << 62) if limit is None or d == 1 else limit - nodes
        if st[_LIMIT] <= 0:
            break
        got: dict[int, int] = {}
        for c in roots:
            guess = bottom
            if whole_trump_deal:
                st[_GEN] = base + GUESS_TRICKS
                guess = _root(st, tab, tt, work, fr, GUESS_TRICKS, c, bottom, top, bottom)
                st[_GEN] = base + d
            g = _root(st, tab, tt, work, fr, d, c, bottom, top, guess)
            if st[_ABORT]:
                break
            got[c] = int(g)
        nodes += int(st[_NODES])
        if st[_ABORT]:
            break
        depth = d
        if per_card:
            values = got
            v = max(got.values()) if seat0 & 1 == 0 else min(got.values())
        else:
            v = got[-1]
    return v, values, nodes, depth


def window_search(
    hands: list[int],
    contract: int,
    leader: int,
    trick: tuple[int, ...],
    taken: tuple[bool, bool],
    bonus: int,
    windows: list[tuple[int, int]],
) -> list[int]:
    """Exact searches of one position in each window ``(alpha, beta)`` in turn, sharing one
    table (team 0's scale, as ``search``): each a fail-soft value, exact strictly inside its
    window, else a bound on the side it fell (``_window``)."""
    with _lock:
        n = bin(hands[(leader + len(trick)) & 3]).count("1")
        st, tab, tt, work, fr, _, _ = _prepare(hands, contract, leader, trick, taken, bonus, 16)
        _fill_shapes(st, tab)
        st[_GEN] = st[_BASE] + n
        return [int(_window(st, tab, tt, work, fr, n, a, b)) for a, b in windows]


def estimate(hands: tuple[int, ...] | list[int], contract: int, leader: int) -> int:
    """``_estimate`` (the horizon of a budgeted search) for ``hands``."""
    st = new_array(_STATE_SIZE)
    st[0], st[1], st[2], st[3] = hands
    with _lock:
        return int(_estimate(st, _contract(contract), leader))


def horizon_features(
    hands: tuple[int, ...] | list[int], contract: int, leader: int
) -> tuple[float, ...]:
    """``_horizon_features`` for ``hands``: the points out, then the features."""
    st = new_array(_STATE_SIZE)
    st[0], st[1], st[2], st[3] = hands
    with _lock:
        return tuple(float(x) for x in _horizon_features(st, _contract(contract), leader))


def warm_up() -> None:
    """Compile the search (or load it from the cache) with one small solve of each kind."""
    if not COMPILE:
        return
    hands = [1 << 0 | 1 << 9, 1 << 1 | 1 << 10, 1 << 2 | 1 << 11, 1 << 3 | 1 << 12]
    search(hands, 0, 0, (), (True, True), 100, None, True)
    search(hands, 4, 1, (), (False, False), 100, 1000, False)
