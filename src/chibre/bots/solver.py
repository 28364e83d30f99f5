"""The double-dummy solver (le solveur à cartes ouvertes): the points a team takes from a
position when all four hands are known and everybody plays best.

A ``Position`` is the cards each seat still holds, the contract, who led the current trick (le
pli / der Stich) and the cards already in it. ``solve`` gives the points the team of the seat to
act takes from here on — the card points still out and in the current trick, 5 for the last
trick, and the match bonus when one team takes all nine tricks — and ``card_values`` the same
for every legal card of that seat. The rules of play are exactly those of ``chibre.play``.

The method is alpha-beta on bitboards: team 0 (seats 0 and 2) maximises, team 1 minimises, on
one zero-sum scale (team 0's points, plus the bonus for its match, minus it for the other
team's). The root bisects the interval of possible values with null-window searches (a whole
deal in a trump starts them at a four-trick-deep estimate and steps out from it) that share
a transposition table at the start of each trick (the remaining cards, the leader and which
teams have already taken a trick; lower and upper bounds and the best lead), keyed by class:
positions that differ only in which cards worth nothing are left, with the same holders in the
same order between the same cards worth points, share an entry. At each trick's start the
quick tricks of the leader and the unbroken run of top trumps of each team bound the value.
Moves are ordered (the table's lead first, then the two leads that last refuted a move at that
depth, sure winners, low cards to the partner's top cards, then the weakest; cheap winning
cards; points on a partner's trick (schmieren); few points on an opponent's) and equivalent
cards pruned: cards of one hand worth no points, of one suit, with no card of another hand (or
of the current trick) between them, play the same, so one stands for all (no two cards of a
suit that are worth points are worth the same, so cards with points are always tried one by
one).

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

The search itself is ``chibre.bots.solver_core``: one source, compiled by numba when it is
installed (a default dependency where numba has wheels), else run as plain Python, which
says so once in the log; ``CHIBRE_NO_JIT=1`` in the environment forces plain Python and
``backend=`` picks one for a call.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Literal

from chibre.errors import ChibreError
from chibre.play import (
    CARD_POINTS,
    LAST_TRICK_BONUS,
    MATCH_BONUS,
    N_CONTRACTS,
    STRENGTH,
)

try:
    import numba  # noqa: F401

    _NUMBA = True
except ImportError:  # pragma: no cover - the plain run is used instead
    _NUMBA = False

Backend = Literal["auto", "python", "numba"]
log = logging.getLogger(__name__)


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
    (the horizon of a budgeted search): its share of the points out, by the weights that
    ``chibre.bots.horizon`` fitted to exact values for the kind of contract, over
    ``horizon_features`` (the points it holds, its sure tricks, its trumps, …).
    """
    return int(_core("auto").estimate(hands, contract, leader))


def horizon_features(
    hands: tuple[int, ...] | list[int], contract: int, leader: int
) -> tuple[float, ...]:
    """The points out at the start of a trick led by ``leader``, then what the horizon
    weighs (``solver_core._horizon_features``)."""
    return tuple(_core("auto").horizon_features(hands, contract, leader))


# --- the driver ----------------------------------------------------------------------------------


def jit_available() -> bool:
    """Whether the compiled search can run (numba imports and ``CHIBRE_NO_JIT`` is not set)."""
    if os.environ.get("CHIBRE_NO_JIT", "") not in ("", "0"):
        return False
    return _NUMBA


_cores: dict[bool, ModuleType] = {}
_said_plain = [False]


def _load_core(compiled: bool) -> ModuleType:
    """``chibre.bots.solver_core``, compiled; or its plain copy (``COMPILE`` false)."""
    known = _cores.get(compiled)
    if known is not None:
        return known
    if compiled:
        from chibre.bots import solver_core as got
    else:
        name = "chibre.bots.solver_core_plain"
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).with_name("solver_core.py")
        )
        assert spec is not None and spec.loader is not None
        got = importlib.util.module_from_spec(spec)
        got.__dict__["COMPILE"] = False
        sys.modules[name] = got
        spec.loader.exec_module(got)
    _cores[compiled] = got
    return got


def _core(backend: Backend) -> ModuleType:
    """The copy of the search that ``backend`` runs on: ``auto`` is the compiled one when
    ``jit_available()`` (else the plain one, which says so once in the log)."""
    if backend == "numba" or (backend == "auto" and jit_available()):
        if not _NUMBA:
            raise ImportError("the numba backend needs numba: pip install numba")
        return _load_core(True)
    if backend == "auto" and not _said_plain[0]:
        _said_plain[0] = True
        log.warning(
            "the double-dummy solver runs in plain Python (%s): the computer players take "
            "their small budgets",
            "CHIBRE_NO_JIT is set" if _NUMBA else "numba is not installed",
        )
    return _load_core(False)


def warm_up() -> None:
    """Compile (or load from numba's cache) the fast search now, so that a player's first move
    is not slow; does nothing without numba."""
    if jit_available():
        _load_core(True).warm_up()


def release_tables() -> None:
    """Free the search's reused transposition tables. Their size grows with the tricks left,
    and with a budget, with the budget: 2^18 slots of 16 bytes (4 MiB) for the ``strong``
    player's 300,000-node calls; an exact solve takes up to 16 MiB at nine tricks left (64 MiB
    for a whole deal in a trump), and drops its table itself from seven tricks left."""
    for core in _cores.values():
        core.release()


def held_table_bytes() -> int:
    """The memory the search's reused transposition tables hold now."""
    return sum(int(core.held_bytes()) for core in _cores.values())


def _analyse(position: Position, max_nodes: int | None, per_card: bool, backend: Backend) -> Result:
    position.check()
    n = position.tricks_left
    v, values, nodes, depth = _core(backend).search(
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
