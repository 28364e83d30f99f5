"""``easy``, ``medium`` and ``strong``: computer players that never see another hand.

Each decision is a determinized search (Monte Carlo over possible deals): the player draws
deals of the cards it has not seen that agree with everything public
(``chibre.bots.sampling``), lets the double-dummy solver value each legal card on each deal,
and plays the card with the best mean. Early in the hand the solver gives budgeted estimates;
in the last tricks its values are exact. The contract (l'atout, der Trumpf) is chosen the same
way: the contracts the learned policy finds likely (``short_list``: the likeliest until they
make nine tenths of its probability, at most three — one for most hands) are valued over
sampled deals with the chooser leading, each value blended with the quick hand count
(``sampling.hand_counts``) — in duplicate matches against the ``rule`` player the search
alone named worse contracts than the blend —; the best is named when it is worth enough,
else the player chibres (schiebt) where it may; pique double is taken when the doubled value
is better. ``strong`` and ``expert`` (with numba) value a contract's deals by policy rollouts
(``Level.contract_rollout``: every seat plays the policy's card from its own hand down to the
last tricks, solved exactly) rather than by a budgeted double-dummy search from the first
card, which plays as if every seat saw every hand: in duplicate against ``rule``, paired by
deal, the rollouts named better contracts (+1.4 ± 1.2 points a hand over 1,400 deals).
Rollouts being cheap, these two value the policy's three likeliest contracts on every hand
rather than its short list (+0.7 ± 0.4 over the same 1,400 deals; all six, +0.0 ± 0.3
over the first 400 of them).

The levels differ in budget: ``easy`` looks at few deals with a tiny budget (and so errs),
``medium`` decides within about 0.2 s, ``strong`` within about a second (96 deals, exact from
six tricks left), ``expert`` with more deals for the cards and twice ``strong``'s for the
contract; ``strong`` and ``expert`` also read the table: the deals are drawn four times over
(twice without numba) and resampled by how likely each makes what the other seats did
(``chibre.bots.reading``, under the learned policy). The budgets depend on whether numba runs:
with it the players take ``LEVELS_COMPILED``, without it the far smaller ``LEVELS_PLAIN`` (the
plain-Python solver searches far fewer nodes per second), so the same seed can decide
differently on a machine without numba.

A level may value the early cards by policy rollouts instead (``Level.rollout``,
``chibre.bots.rollout``: the learned policy plays every seat down to ``exact_tricks`` tricks
left, then the exact solve); no level does: in duplicate matches against ``strong`` it
measured no better than the budgeted search.

Near the end of a game a deal is valued by whether it wins the game, then by points: a team
close to the target takes the points that are sure rather than the most points on average.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random

from chibre.actions import Action, Chibre, Choose, Play, Thank
from chibre.bots.player import choices, decision_rng, may_thank
from chibre.bots.policy import shipped_policy
from chibre.bots.reading import weighted_deals
from chibre.bots.rollout import rollout_score, rollout_scores
from chibre.bots.sampling import PAR, Deal4, hand_counts, sample_deals
from chibre.bots.solver import Position, card_results, jit_available, solve_exact, warm_up
from chibre.observation import Observation
from chibre.play import MATCH_BONUS
from chibre.weis import STOECK_CARDS, STOECK_POINTS

HAND_POINTS = 157
CHIBRE_MARGIN = 50
MARGIN_PER_COUNT = 2.0
CONTRACTS_SEARCHED = 3
COUNT_PER_FACTOR = 10
"""In choosing which contracts to search, a multiplier step is worth this much count."""
WIN_BONUS = 1000
"""What winning the game is worth against points, when a deal can decide it."""


@dataclass(frozen=True)
class Level:
    """A player's budget: deals sampled per decision and solver nodes per deal — a small
    budget early in the hand (an estimate), a large one from ``exact_tricks`` tricks left
    (where it is nearly always enough to solve exactly) — and the same for the contract."""

    samples: int
    nodes: int
    exact_tricks: int
    end_nodes: int
    contract_samples: int
    contract_nodes: int
    chibre_below: float  # expected margin of the best contract under which to chibre
    blend: float = 0.4  # weight of the search against the hand count in the contract
    read: bool = False  # weigh the deals by the policy's likelihood of what the others did
    pool: int = 2  # deals drawn per deal kept when reading the table
    short_list: float = 0.9  # policy mass the searched contracts cover (0: by hand count;
    # 1: always the policy's three likeliest)
    rollout: bool = False  # early in the hand, value cards by policy rollouts (``rollout``)
    contract_rollout: bool = False  # value the contracts by policy rollouts, not the search


# Budgets for the compiled solver (numba, about 10 M nodes/s) and for plain Python (the same
# search uncompiled, about 140,000 nodes/s). With numba ``strong`` takes what was ``expert``'s
# budget once the faster solver left it well inside a second a move (README, "The players").
LEVELS_COMPILED: dict[str, Level] = {
    "easy": Level(2, 200, 3, 5_000, 2, 200, 40),
    "medium": Level(16, 12_000, 5, 100_000, 10, 5_000, 50),
    "strong": Level(
        96,
        120_000,
        6,
        400_000,
        64,
        60_000,
        50,
        read=True,
        pool=4,
        short_list=1,
        contract_rollout=True,
    ),
    "expert": Level(
        160,
        120_000,
        6,
        400_000,
        128,
        60_000,
        50,
        read=True,
        pool=4,
        short_list=1,
        contract_rollout=True,
    ),
}
LEVELS_PLAIN: dict[str, Level] = {
    "easy": Level(3, 150, 3, 2_000, 3, 100, 40),
    "medium": Level(6, 500, 4, 2_000, 5, 350, 50),
    "strong": Level(16, 2_000, 5, 7_000, 10, 1_000, 50, read=True),
    "expert": Level(24, 4_000, 5, 10_000, 16, 2_000, 50, read=True),
}
LEVELS = ("easy", "medium", "strong", "expert")
"""The level names; the budgets taken depend on whether the compiled solver runs."""


LEVEL_SECONDS = {"easy": 0.02, "medium": 0.2, "strong": 1.0, "expert": 3.0}
"""The longest decision each level's budget is made for (on one core)."""


def scaled(level: Level, factor: float) -> Level:
    """The level with its budget scaled by ``factor`` (deals and nodes, each by its root)."""
    root = max(factor, 0.0) ** 0.5

    def up(n: int, least: int) -> int:
        return max(least, int(n * root + 0.5))

    return replace(
        level,
        samples=up(level.samples, 1),
        nodes=up(level.nodes, 100),
        end_nodes=up(level.end_nodes, 1000),
        contract_samples=up(level.contract_samples, 1),
        contract_nodes=up(level.contract_nodes, 100),
    )


def taken_tricks(observation: Observation) -> tuple[bool, bool]:
    """Whether each team has taken a trick this hand (a match is still possible otherwise)."""
    teams = {t.winner & 1 for t in observation.tricks}
    return (0 in teams, 1 in teams)


def card_position(o: Observation, hands: Deal4) -> Position:
    """The card play from this observation's moment with ``hands`` open."""
    return Position(
        hands=hands,
        contract=o.contract,
        leader=o.trick_leader,
        trick=o.trick,
        taken=taken_tricks(o),
        match_bonus=MATCH_BONUS,
    )


def _points_left(observation: Observation) -> int:
    """Card points (with the last-trick 5) not yet taken in this hand."""
    return HAND_POINTS - sum(t.points for t in observation.tricks)


def _needs(observation: Observation) -> tuple[int, int]:
    """How many points each team still needs to reach the target (by the table's count)."""
    o = observation
    target = o.rules.target
    if o.rules.end_mode == "immediate":
        return (target - o.totals[0], target - o.totals[1])
    return (target - o.totals[0] - o.hand_points[0], target - o.totals[1] - o.hand_points[1])


class GameSituation:
    """Turns a deal's points for the team to act into what they are worth for the game.

    Far from the target a point is a point. When this hand can take a team to the target,
    a deal is worth ``WIN_BONUS`` if the team gets there and the other does not, half of it
    when both can (who gets there first depends on the order), nothing when only the other
    team does — plus the points, so that among equal outcomes more is better.
    """

    def __init__(self, observation: Observation) -> None:
        o = observation
        team = o.seat & 1
        need = _needs(o)
        self.factor = max(o.factor, 1)
        self.left = _points_left(o)
        self.need_us = need[team]
        self.need_them = need[1 - team]
        reach = (self.left + MATCH_BONUS) * self.factor
        self.matters = min(self.need_us, self.need_them) <= reach

    def value(self, score: int) -> float:
        """``score``: our points from here on, or minus the bonus when they make match."""
        if not self.matters:
            return float(score)
        points = max(score, 0)
        ours = points * self.factor
        theirs = (
            self.left + MATCH_BONUS if score < 0 else max(self.left - points, 0)
        ) * self.factor
        win = (1.0 if ours >= self.need_us else 0.0) - (1.0 if theirs >= self.need_them else 0.0)
        return points + WIN_BONUS * (win + 1) / 2


class StrongPlayer:
    """Le joueur fort / der starke Spieler: Monte Carlo over deals it cannot see, solved
    double-dummy. ``level``: ``easy``, ``medium``, ``strong`` or ``expert``; ``read``
    overrides whether the level weighs the deals by the policy (to measure what it is worth).

    ``time_per_move`` (seconds) scales the level's budget from the time it is made for
    (``LEVEL_SECONDS``); the budget stays a count of deals and nodes, never a clock, so a
    decision still depends only on the observation and the seed.
    """

    def __init__(
        self,
        seed: int = 0,
        level: str = "strong",
        time_per_move: float | None = None,
        read: bool | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}: choose one of {', '.join(LEVELS)}")
        self.seed = seed
        self.name = level
        warm_up()
        self.level = (LEVELS_COMPILED if jit_available() else LEVELS_PLAIN)[level]
        if time_per_move is not None:
            self.level = scaled(self.level, time_per_move / LEVEL_SECONDS[level])
        if read is not None:
            self.level = replace(self.level, read=read)

    def act(self, observation: Observation) -> Action:
        if may_thank(observation):
            return Thank()
        options = choices(observation)
        if len(options) == 1:
            return options[0]
        rng = decision_rng(self.seed, observation)
        if observation.phase == "contract":
            return self._contract(observation, options, rng)
        return self._card(observation, options, rng)

    def _deals(self, o: Observation, rng: Random, n: int) -> list[tuple[Deal4, int]]:
        """``n`` possible deals as (deal, times counted): weighed by the policy's reading of
        the table when the level reads it, else uniform."""
        if self.level.read:
            return weighted_deals(o, rng, n, shipped_policy(), self.level.pool)
        return [(d, 1) for d in sample_deals(o, rng, n)]

    # --- the play -------------------------------------------------------------------------

    def _card(self, o: Observation, options: list[Action], rng: Random) -> Action:
        plays = {a.card: a for a in options if isinstance(a, Play)}
        level = self.level
        tricks_left = 9 - len(o.tricks)
        budget = level.end_nodes if tricks_left <= level.exact_tricks else level.nodes
        situation = GameSituation(o)
        totals = dict.fromkeys(plays, 0.0)
        roll = level.rollout and tricks_left > level.exact_tricks
        played = sum(1 << c for t in o.tricks for c in t.cards) | sum(1 << c for c in o.trick)
        for hands, times in self._deals(o, rng, level.samples):
            position = card_position(o, hands)
            if roll:
                scores = rollout_scores(
                    position, played, len(o.tricks), shipped_policy(), level.exact_tricks
                )
            else:
                scores = card_results(position, budget).card_scores
            for c, v in scores.items():
                if c in totals:
                    totals[c] += times * situation.value(v)
        best = max(totals.values())
        return plays[min(c for c, v in totals.items() if v == best)]

    # --- the contract ---------------------------------------------------------------------

    def contract_values(self, o: Observation, rng: Random) -> dict[int, float]:
        """Our team's expected margin (our points less theirs, before the multiplier) in
        the contracts worth considering, the chooser leading: card points, the match, and
        our stöck. The contracts of the policy's short list (``short_list``) are searched,
        each with twice the budget of searching all six."""
        level = self.level
        deals = self._deals(o, rng, level.contract_samples)
        n = sum(times for _, times in deals)
        counts = hand_counts(o.hand)
        policy = shipped_policy().contract_probs(o.hand, False, o.rules.grid)
        out: dict[int, float] = {}
        for k in short_list(counts, policy, o.rules.grid, level.short_list):
            total = 0.0
            for hands, times in deals:
                position = Position(hands=hands, contract=k, leader=o.chooser)
                total += times * margin(self._contract_score(position))
            mean = (total / n) * level.blend + (1 - level.blend) * count_margin(counts[k])
            if k < 4 and o.rules.stoeck and o.hand & STOECK_CARDS[k] == STOECK_CARDS[k]:
                mean += STOECK_POINTS
            out[k] = mean
        return out

    def _contract_score(self, position: Position) -> int:
        """Our score in a whole deal with ``position``'s contract, the chooser leading: by
        policy rollouts (every seat playing from its own hand) down to ``exact_tricks``
        tricks left and exact from there where the level values contracts so, else by the
        budgeted search (double dummy from the first card)."""
        level = self.level
        if level.contract_rollout:
            return rollout_score(shipped_policy(), position, 0, 0, level.exact_tricks)
        return solve_exact(position, 2 * level.contract_nodes).score

    def _contract(self, o: Observation, options: list[Action], rng: Random) -> Action:
        values = self.contract_values(o, rng)
        rules = o.rules
        best_action: Action | None = None
        best_score = 0.0
        for a in options:
            if isinstance(a, Choose) and a.contract in values:
                score = rules.factor(a.contract, a.double) * values[a.contract]
                if best_action is None or score > best_score:
                    best_action, best_score = a, score
        assert best_action is not None
        best_margin = max(values.values())
        if best_margin < self.level.chibre_below and any(isinstance(a, Chibre) for a in options):
            return Chibre()
        return best_action


def short_list(
    counts: tuple[int, ...], policy: list[float], grid: tuple[int, ...], mass: float
) -> list[int]:
    """The contracts worth searching, in order: with ``mass`` 0 the ``CONTRACTS_SEARCHED``
    the hand counts best in (the multiplier weighed in); else those the policy finds likeliest
    until together they make ``mass`` of its probability — one where the hand is plain, never
    more than ``CONTRACTS_SEARCHED``; with ``mass`` 1 always ``CONTRACTS_SEARCHED``."""
    if mass <= 0:
        ranked = sorted(range(6), key=lambda k: -(counts[k] + COUNT_PER_FACTOR * grid[k]))
        return sorted(ranked[:CONTRACTS_SEARCHED])
    out: list[int] = []
    covered = 0.0
    for k in sorted(range(6), key=lambda k: (-policy[k], k)):
        out.append(k)
        covered += policy[k]
        if len(out) == CONTRACTS_SEARCHED or (mass < 1 and covered >= mass):
            break
    return sorted(out)


def count_margin(count: int) -> float:
    """The margin a hand count stands for (calibrated: par, 68, is the chibre threshold)."""
    return CHIBRE_MARGIN + MARGIN_PER_COUNT * (count - PAR)


def margin(score: int) -> int:
    """Our points less theirs in a hand where we score ``score`` (the solver's zero-sum
    ``score``: card points, the last trick's 5 and our match bonus, or minus the bonus when
    they make match): a match counts 257 to 0 either way."""
    if score > HAND_POINTS:
        return HAND_POINTS + MATCH_BONUS
    if score < 0:
        return -(HAND_POINTS + MATCH_BONUS)
    return 2 * score - HAND_POINTS
