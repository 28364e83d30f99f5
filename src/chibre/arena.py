"""`chibre arena`: duplicate deals between two computer players.

**Duplicate** (le duplicate / Duplikat-Jass) takes the luck of the cards out of a comparison:
each deal is played twice, with the same dealer, the same seat choosing first and the same
cards in every seat — player A sits on team 0 (seats 0 and 2) in the first play and on team 1
(seats 1 and 3) in the second, player B in the other seats. A deal's result is the mean
difference (A − B) of the two plays' hand points, so both players have held both halves of the
deal. The mean over the deals comes with a 95% confidence interval paired by deal
(normal approximation: mean ± 1.96 · s / √n, s the sample standard deviation of the deals).

The default scoring measures play strength: card points only — weis and stöck off, factor 1
for every contract (``STRENGTH_RULES``). Another preset or option set plays other rules. Each
deal is played as one hand counted in full (the game's target never cuts it short). With
``games``, whole games are also played to the target, each twice from the same seeded deals
(A on team 0, then on team 1), and the games each player won are counted.

The deals come from ``chibre.deal.deal_cards`` with a generator seeded by the arena's seed and
the deal's number, so a result depends on the seed only — not on how many processes share the
work (``jobs``). A player that answers with an illegal action stops the arena with an
``IllegalMove`` naming the player, the position (the game record in notation) and the action.
"""

from __future__ import annotations

import argparse
import inspect
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from random import Random
from typing import Any

from chibre.actions import Chibre, Choose, Deal, Play, Thank
from chibre.bots import PLAYERS
from chibre.bots.player import Clairvoyant, Player
from chibre.deal import deal_cards
from chibre.errors import ChibreError, IllegalAction
from chibre.game import CHANCE, Game
from chibre.notation import format_action, format_record
from chibre.options import add_set_argument, read_settings
from chibre.options import rules_from as preset_rules
from chibre.player_time import add_time_arguments, check_seconds
from chibre.remote import (
    DEFAULT_TIME_LIMIT,
    Incident,
    JasskitHttpPlayer,
    is_spec,
    make_remote,
)
from chibre.rules import MAX_TARGET, PRESETS, Rules

STRENGTH_RULES = Rules.make(weis=False, stoeck=False, multipliers="none")
"""Card points only: no weis, no stöck, factor 1 for every contract."""

Z95 = 1.959963984540054
"""The 97.5% quantile of the normal distribution (two-sided 95% interval)."""

_NO_TARGET = MAX_TARGET
"""A single deal is counted in full: no hand reaches the highest target a table may set (a hand
with match, every weis and stöck stays under 6,000 at the published grids' highest factor)."""


class IllegalMove(IllegalAction):
    """A player answered with an action the table refuses."""


@dataclass(frozen=True)
class DealResult:
    """One deal played twice: the hand points of A and B in each play.

    Play 0 has A on team 0 (seats 0, 2); play 1 has A on team 1 (seats 1, 3).
    """

    index: int
    a_points: tuple[int, int]
    b_points: tuple[int, int]
    incidents: tuple[Incident, ...] = ()
    """Decisions of a foreign player replaced by the fallback (late, refused, illegal)."""
    remote_decisions: int = 0
    """Decisions asked of foreign players (``chibre.remote``)."""

    @property
    def difference(self) -> float:
        """Mean points per hand of A minus B over the two plays."""
        return (self.a_points[0] - self.b_points[0] + self.a_points[1] - self.b_points[1]) / 2


@dataclass(frozen=True)
class GameResult:
    """One seed's game played twice: the team that won each play, from A's side."""

    index: int
    a_won: tuple[bool, bool]
    hands: tuple[int, int]


@dataclass(frozen=True)
class ArenaResult:
    """The outcome of a duplicate match between players ``a`` and ``b``."""

    a: str
    b: str
    seed: int
    rules: Rules
    deals: tuple[DealResult, ...]
    games: tuple[GameResult, ...] = ()

    @property
    def differences(self) -> list[float]:
        return [d.difference for d in self.deals]

    @property
    def mean(self) -> float:
        """Mean points per hand of A minus B."""
        return sum(self.differences) / len(self.deals) if self.deals else 0.0

    @property
    def half_width(self) -> float:
        """Half the width of the 95% confidence interval of ``mean`` (paired by deal);
        infinite with fewer than two deals."""
        n = len(self.deals)
        if n < 2:
            return math.inf
        m = self.mean
        variance = sum((x - m) ** 2 for x in self.differences) / (n - 1)
        return Z95 * math.sqrt(variance / n)

    @property
    def a_total(self) -> int:
        return sum(sum(d.a_points) for d in self.deals)

    @property
    def b_total(self) -> int:
        return sum(sum(d.b_points) for d in self.deals)

    @property
    def share(self) -> float:
        """A's share of all the points made, in percent."""
        total = self.a_total + self.b_total
        return 100 * self.a_total / total if total else 50.0

    @property
    def games_won(self) -> tuple[int, int]:
        """Games won by A and by B."""
        a = sum(sum(g.a_won) for g in self.games)
        return a, 2 * len(self.games) - a

    def summary(self) -> str:
        """``rule vs random: +57.3 ± 1.1 points/hand (95% CI), 68.2% of points, 1000 deals``."""
        spread = (
            f"± {self.half_width:.1f} points/hand (95% CI)"
            if math.isfinite(self.half_width)
            else "points/hand (one deal: no interval)"
        )
        return (
            f"{self.a} vs {self.b}: {self.mean:+.1f} {spread}, {self.share:.1f}% of points, "
            f"{len(self.deals)} deals"
        )


# --- players ---------------------------------------------------------------------------------


def accepts_budget(name: str) -> bool:
    """Whether the player called ``name`` takes a ``time_per_move`` budget (a foreign player
    takes a time limit instead: ``foreign_limit``)."""
    if is_spec(name):
        return False
    module, cls, _ = PLAYERS[name]
    try:
        factory = getattr(import_module(module), cls)
    except (ImportError, AttributeError):
        return False
    return "time_per_move" in inspect.signature(factory).parameters


def build_player(
    name: str, seed: int, time_per_move: float | None = None, foreign_limit: float | None = None
) -> Player:
    """The player ``name`` with ``seed``: one of ours given the thinking budget
    ``time_per_move`` when it takes one, a foreign player of ``chibre.remote`` the time limit
    ``foreign_limit`` (``DEFAULT_TIME_LIMIT`` when ``None``)."""
    if is_spec(name):
        return make_remote(name, seed, foreign_limit)
    if name not in PLAYERS:
        raise ChibreError(f"no player {name!r}: choose one of {', '.join(PLAYERS)}")
    module, cls, kwargs = PLAYERS[name]
    try:
        factory = getattr(import_module(module), cls)
    except ImportError as e:
        raise ChibreError(f"player {name!r} is not available: {e}") from e
    options = dict(kwargs)
    if time_per_move is not None and "time_per_move" in inspect.signature(factory).parameters:
        options["time_per_move"] = time_per_move
    player: Player = factory(seed, **options)
    return player


def _player_seed(seed: int, index: int, kind: str) -> int:
    return Random(f"{seed}:{kind}:{index}:players").getrandbits(32)


def _deal_of(seed: int, index: int) -> Deal:
    rng = Random(f"{seed}:deal:{index}")
    return deal_cards(rng, rng.randrange(4))


# --- driving a game --------------------------------------------------------------------------


def _act(game: Game, seat: int, player: Player, name: str) -> None:
    """Ask ``player`` for its action at ``seat`` and apply it; ``IllegalMove`` if refused."""
    hand = game.hand
    assert hand is not None
    observation = game.observation(seat)
    if isinstance(player, Clairvoyant):
        player.see((hand.hands[0], hand.hands[1], hand.hands[2], hand.hands[3]))
    action: Any = player.act(observation)
    problem: str | None = None
    if not isinstance(action, Chibre | Choose | Play | Thank):
        problem = "not an action"
    else:
        try:
            game.apply(action, seat)  # a refused action changes nothing and says why
        except ChibreError as e:
            problem = str(e)
    if problem is not None:
        try:
            shown = format_action(action, seat)
        except (TypeError, AttributeError, IndexError):
            shown = repr(action)
        raise IllegalMove(
            f"player {name!r} at seat {seat} chose the illegal action {shown} "
            f"({problem}) in this position:\n{format_record(game.record)}"
        )


def _play_out(game: Game, players: Sequence[Player], names: Sequence[str], one_hand: bool) -> None:
    """Play until the hand (``one_hand``) or the game is over; deals must be applied by the
    caller."""
    while True:
        seat = game.current_player
        if seat is None or seat == CHANCE:
            return
        _act(game, seat, players[seat], names[seat])
        if one_hand and game.hand is not None and game.hand.is_over:
            return


def _seats(a: Any, b: Any, play: int) -> list[Any]:
    """The four seats: A on team ``play`` (seats play, play + 2), B on the other team."""
    return [a, b, a, b] if play == 0 else [b, a, b, a]


def play_deal(
    a: str,
    b: str,
    seed: int,
    index: int,
    rules: Rules = STRENGTH_RULES,
    time_per_move: float | None = None,
    foreign_limit: float | None = None,
) -> DealResult:
    """Deal ``index`` of ``seed`` played twice, A on team 0 then on team 1."""
    deal = _deal_of(seed, index)
    hand_rules = rules.replace(target=max(rules.target, _NO_TARGET))
    pseed = _player_seed(seed, index, "deal")
    a_points: list[int] = []
    b_points: list[int] = []
    incidents: list[Incident] = []
    asked = 0
    for play in (0, 1):
        pa = build_player(a, pseed, time_per_move, foreign_limit)
        pb = build_player(b, pseed, time_per_move, foreign_limit)
        game = Game(hand_rules)
        game.apply(deal)
        _play_out(game, _seats(pa, pb, play), _seats(a, b, play), one_hand=True)
        assert game.hand is not None
        totals = game.hand.score().totals
        a_points.append(totals[play])
        b_points.append(totals[1 - play])
        for p in (pa, pb):
            incidents.extend(getattr(p, "incidents", ()))
            asked += getattr(p, "decisions", 0) if isinstance(p, JasskitHttpPlayer) else 0
    return DealResult(
        index, (a_points[0], a_points[1]), (b_points[0], b_points[1]), tuple(incidents), asked
    )


def play_game_pair(
    a: str,
    b: str,
    seed: int,
    index: int,
    rules: Rules = STRENGTH_RULES,
    time_per_move: float | None = None,
    foreign_limit: float | None = None,
) -> GameResult:
    """Game ``index`` of ``seed`` played to the target twice from the same seeded deals."""
    pseed = _player_seed(seed, index, "game")
    won: list[bool] = []
    hands: list[int] = []
    for play in (0, 1):
        rng = Random(f"{seed}:game:{index}")
        pa = build_player(a, pseed, time_per_move, foreign_limit)
        pb = build_player(b, pseed, time_per_move, foreign_limit)
        game = Game(rules)
        players, names = _seats(pa, pb, play), _seats(a, b, play)
        while not game.is_over:
            game.deal(rng)
            _play_out(game, players, names, one_hand=False)
        won.append(game.winner == play)
        hands.append(len(game.hands))
    return GameResult(index, (won[0], won[1]), (hands[0], hands[1]))


# --- the match -------------------------------------------------------------------------------


def _chunk(
    task: tuple[str, str, str, int, int, int, Rules, float | None, float | None],
) -> list[Any]:
    kind, a, b, seed, start, stop, rules, budget, limit = task
    play = play_deal if kind == "deal" else play_game_pair
    return [play(a, b, seed, i, rules, budget, limit) for i in range(start, stop)]


def _split(n: int, parts: int) -> list[tuple[int, int]]:
    """``range(n)`` in ``parts`` contiguous slices (more slices than jobs, for balance)."""
    parts = max(1, min(n, parts))
    bounds = [n * k // parts for k in range(parts + 1)]
    return [(bounds[k], bounds[k + 1]) for k in range(parts) if bounds[k] < bounds[k + 1]]


def _run_all(
    kind: str,
    a: str,
    b: str,
    seed: int,
    n: int,
    rules: Rules,
    jobs: int,
    budget: float | None,
    limit: float | None = None,
) -> list[Any]:
    """Play items ``0 .. n - 1`` of ``kind`` ("deal" or "game"), split over ``jobs``
    processes; the results in order, whatever the split."""
    tasks = [(kind, a, b, seed, lo, hi, rules, budget, limit) for lo, hi in _split(n, 8 * jobs)]
    if jobs <= 1 or len(tasks) <= 1:
        chunks = [_chunk(t) for t in tasks]
    else:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        with context.Pool(jobs) as pool:
            chunks = pool.map(_chunk, tasks, chunksize=1)
    return [r for chunk in chunks for r in chunk]


def duplicate(
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    rules: Rules = STRENGTH_RULES,
    jobs: int = 2,
    games: int = 0,
    time_per_move: float | None = None,
    foreign_limit: float | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals (and ``games`` duplicate games) between the players
    named ``a`` and ``b`` (``time_per_move``: our players' thinking budget; ``foreign_limit``:
    a foreign player's time limit); the same result for a seed whatever ``jobs`` is."""
    if deals < 0 or games < 0:
        raise ChibreError("the numbers of deals and games cannot be negative")
    check_seconds(time_per_move, foreign_limit)
    for name in (a, b):
        build_player(name, 0, time_per_move, foreign_limit)  # an unknown player fails first
    budget, limit = time_per_move, foreign_limit
    dealt = _run_all("deal", a, b, seed, deals, rules, jobs, budget, limit)
    played = _run_all("game", a, b, seed, games, rules, jobs, budget, limit) if games else []
    return ArenaResult(a, b, seed, rules, tuple(dealt), tuple(played))


# --- the command -----------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    """Add `arena` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "arena",
        help="play duplicate deals between two computer players",
        description="Play duplicate deals between two computer players: each deal twice, the "
        "teams' cards swapped, and report A's mean points per hand minus B's with a 95% "
        "confidence interval. Default scoring: card points only (no weis, no stöck, factor 1).",
    )
    p.add_argument("a", metavar="A", help=f"a player: {', '.join(PLAYERS)}")
    p.add_argument("b", metavar="B", help="the other player")
    p.add_argument("--deals", type=int, default=1000, help="number of deals (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument(
        "--rules",
        choices=sorted(PRESETS),
        help="play under this preset (weis, stöck and multipliers as it says)",
    )
    add_set_argument(p)
    add_time_arguments(p)
    p.add_argument(
        "--games",
        type=int,
        nargs="?",
        const=100,
        default=0,
        metavar="G",
        help="also play G duplicate pairs of whole games to the target (default 100)",
    )
    p.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    p.set_defaults(func=run)


def rules_from(preset: str | None, settings: Sequence[str] | None) -> Rules:
    """The arena's rules: ``preset`` (card points only when there is none, see
    ``STRENGTH_RULES``), then each ``OPTION=VALUE`` of ``settings``."""
    if preset is None:
        return STRENGTH_RULES.replace(**read_settings(settings))
    return preset_rules(preset, settings)


def _describe_rules(rules: Rules, preset: str | None) -> str:
    if rules == STRENGTH_RULES:
        return "card points only (no weis, no stöck, factor 1)"
    weis = "weis" if rules.weis else "no weis"
    stoeck = "stöck" if rules.stoeck else "no stöck"
    grid = rules.multipliers if isinstance(rules.multipliers, str) else "custom"
    name = preset or "card points only, changed"
    return f"{name}: {weis}, {stoeck}, multipliers {grid}, target {rules.target}"


def run(args: argparse.Namespace) -> int:
    if args.deals < 1:
        print("chibre arena: --deals must be at least 1", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("chibre arena: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.games < 0:
        print("chibre arena: --games must not be negative", file=sys.stderr)
        return 2
    for name in (args.a, args.b):
        if name not in PLAYERS and not is_spec(name):
            names = ", ".join(PLAYERS)
            print(f"chibre arena: no player {name!r}: choose one of {names}", file=sys.stderr)
            return 2
    rules = rules_from(args.rules, args.set)
    budget, limit = args.time_per_move, args.foreign_limit
    try:
        check_seconds(budget, limit)
    except ChibreError as e:
        print(f"chibre arena: {e}", file=sys.stderr)
        return 2
    if budget is not None:
        for name in (args.a, args.b):
            if not accepts_budget(name):
                print(f"note: {name} takes no time budget; --time-per-move does not apply to it")
    print(
        f"duplicate {args.a} vs {args.b}: {args.deals} deals, each played twice, seed {args.seed}, "
        f"{args.jobs} job{'s' if args.jobs != 1 else ''}; {_describe_rules(rules, args.rules)}"
    )
    start = time.perf_counter()
    result = duplicate(
        args.a, args.b, args.deals, args.seed, rules, args.jobs, args.games, budget, limit
    )
    wall = time.perf_counter() - start
    n = 2 * len(result.deals)
    print(
        f"{args.a}: {result.a_total / n:.1f} points/hand, {args.b}: {result.b_total / n:.1f} "
        f"points/hand ({wall:.1f} s)"
    )
    if result.games:
        won_a, won_b = result.games_won
        total = won_a + won_b
        print(
            f"games to {rules.target}: {args.a} won {won_a} of {total} "
            f"({100 * won_a / total:.1f}%), {args.b} won {won_b}"
        )
    _report_remote(result, limit)
    print(result.summary())
    return 0


def _report_remote(result: ArenaResult, foreign_limit: float | None) -> None:
    """The foreign players' decisions, time limit and incidents (each replaced by ``rule``)."""
    asked = sum(d.remote_decisions for d in result.deals)
    if not asked:
        return
    incidents = [i for d in result.deals for i in d.incidents]
    limit = DEFAULT_TIME_LIMIT if foreign_limit is None else foreign_limit
    kinds: dict[str, int] = {}
    for i in incidents:
        kinds[i.kind] = kinds.get(i.kind, 0) + 1
    said = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
    slowest = max((i.seconds for i in incidents if i.kind == "late"), default=0.0)
    late = f"; the latest waited {slowest:.2f} s" if slowest else ""
    print(
        f"foreign decisions: {asked}, time limit {limit:g} s a move; "
        f"replaced by rule: {len(incidents)} ({said}){late}"
    )


__all__ = [
    "STRENGTH_RULES",
    "ArenaResult",
    "DealResult",
    "GameResult",
    "IllegalMove",
    "accepts_budget",
    "build_player",
    "duplicate",
    "play_deal",
    "play_game_pair",
    "rules_from",
]
