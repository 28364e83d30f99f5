"""The duplicate arena: fair swaps, determinism, the confidence interval, the command."""

from __future__ import annotations

import math
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from chibre import arena
from chibre.actions import Action, Play
from chibre.bots import PLAYERS
from chibre.bots.random_player import RandomPlayer
from chibre.cards import ALL_CARDS, card_code, cards_of
from chibre.observation import Observation
from chibre.rules import Rules

SRC = str(Path(__file__).resolve().parents[1] / "src")


class BrokenPlayer:
    """Names a contract like anyone, then plays a card it does not hold."""

    name = "broken"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        if observation.phase == "contract":
            return observation.legal_actions[0]
        missing = cards_of(ALL_CARDS & ~observation.hand)[0]
        return Play(missing)


class SeeingPlayer:
    """A clairvoyant test player: refuses to act unless it was shown the true hands."""

    name = "seeing"

    def __init__(self, seed: int = 0) -> None:
        self.hands: tuple[int, int, int, int] | None = None

    def see(self, hands: tuple[int, int, int, int]) -> None:
        self.hands = hands

    def act(self, observation: Observation) -> Action:
        assert self.hands is not None and self.hands[observation.seat] == observation.hand
        self.hands = None
        return observation.legal_actions[0]


class BudgetPlayer:
    """Takes a time budget, and checks it is the one the arena was given."""

    name = "budget"
    expected: float | None = None

    def __init__(self, seed: int = 0, time_per_move: float | None = None) -> None:
        assert time_per_move == BudgetPlayer.expected
        self.inner = RandomPlayer(seed)

    def act(self, observation: Observation) -> Action:
        return self.inner.act(observation)


def test_a_player_against_itself_scores_exactly_zero_on_every_deal() -> None:
    for name in ("random", "rule"):
        result = arena.duplicate(name, name, deals=12, seed=4, jobs=1)
        assert [d.difference for d in result.deals] == [0.0] * 12
        # The same seats got the same cards: A's points in one play are B's in the other.
        for d in result.deals:
            assert d.a_points == (d.b_points[1], d.b_points[0])
        assert result.mean == 0.0
        assert result.share == 50.0


def test_both_plays_see_the_same_deal_with_the_teams_swapped() -> None:
    result = arena.duplicate("rule", "random", deals=20, seed=2, jobs=1)
    for d in result.deals:
        # Card points only: the two teams of each play share 157 (257 with a match).
        for play in (0, 1):
            assert d.a_points[play] + d.b_points[play] in (157, 257)
    # Over the two plays each player held both halves of each deal.
    assert sum(d.a_points[0] + d.b_points[1] for d in result.deals) > 0


def test_results_depend_on_the_seed_only_not_on_the_number_of_jobs() -> None:
    one = arena.duplicate("rule", "random", deals=16, seed=11, jobs=1)
    two = arena.duplicate("rule", "random", deals=16, seed=11, jobs=2)
    again = arena.duplicate("rule", "random", deals=16, seed=11, jobs=2)
    assert one.deals == two.deals == again.deals
    other = arena.duplicate("rule", "random", deals=16, seed=12, jobs=1)
    assert other.deals != one.deals


def test_confidence_interval_matches_a_computation_by_hand() -> None:
    result = arena.duplicate("rule", "random", deals=30, seed=3, jobs=2)
    diffs = [
        ((d.a_points[0] - d.b_points[0]) + (d.a_points[1] - d.b_points[1])) / 2
        for d in result.deals
    ]
    mean = statistics.fmean(diffs)
    half = 1.959963984540054 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    assert result.mean == pytest.approx(mean)
    assert result.half_width == pytest.approx(half)
    a = sum(sum(d.a_points) for d in result.deals)
    b = sum(sum(d.b_points) for d in result.deals)
    assert result.share == pytest.approx(100 * a / (a + b))
    assert result.mean > 0  # the rule player beats random even on 30 deals
    assert result.summary() == (
        f"rule vs random: {mean:+.1f} ± {half:.1f} points/hand (95% CI), "
        f"{100 * a / (a + b):.1f}% of points, 30 deals"
    )


def test_one_deal_has_no_interval() -> None:
    one = arena.duplicate("rule", "random", deals=1, seed=1, jobs=1)
    assert one.summary().startswith(f"rule vs random: {one.mean:+.1f} points/hand (one deal")
    assert "inf" not in one.summary()


def test_an_illegal_move_stops_the_arena_naming_player_position_and_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(PLAYERS, "broken", (__name__, "BrokenPlayer", {}))
    with pytest.raises(arena.IllegalMove) as caught:
        arena.duplicate("broken", "random", deals=2, seed=1, jobs=1)
    message = str(caught.value)
    assert "player 'broken'" in message
    assert "rules {" in message and "hand " in message  # the position, in notation
    played = re.search(r"illegal action (\S+)", message)
    assert played is not None
    assert played.group(1) in {card_code(c) for c in range(36)}
    assert "do not hold" in message  # the engine's reason


def test_a_clairvoyant_player_is_shown_every_hand_before_it_acts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(PLAYERS, "seeing", (__name__, "SeeingPlayer", {}))
    result = arena.duplicate("seeing", "random", deals=3, seed=1, jobs=1)
    assert len(result.deals) == 3


def test_the_time_budget_goes_to_players_that_take_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYERS, "budget", (__name__, "BudgetPlayer", {}))
    assert arena.accepts_budget("budget") and not arena.accepts_budget("rule")
    monkeypatch.setattr(BudgetPlayer, "expected", 0.25)
    result = arena.duplicate("budget", "rule", deals=2, seed=1, jobs=1, time_per_move=0.25)
    assert len(result.deals) == 2
    monkeypatch.setattr(BudgetPlayer, "expected", None)
    arena.duplicate("budget", "rule", deals=1, seed=1, jobs=1)


def test_whole_games_are_played_twice_from_the_same_deals() -> None:
    result = arena.duplicate("rule", "rule", deals=1, seed=5, jobs=1, games=2)
    assert len(result.games) == 2
    for g in result.games:
        # The same player on both sides: each game is won once from each side.
        assert g.a_won[0] != g.a_won[1]
        assert g.hands[0] == g.hands[1]
    assert result.games_won == (2, 2)


def test_weis_rules_count_weis_and_stoeck() -> None:
    rules = arena.rules_from("romand", [])
    assert rules.weis and rules.stoeck
    result = arena.duplicate("rule", "random", deals=10, seed=6, rules=rules, jobs=1)
    totals = [d.a_points[p] + d.b_points[p] for d in result.deals for p in (0, 1)]
    assert any(t not in (157, 257) for t in totals)  # some weis or stöck were written


def test_rules_from_options() -> None:
    assert arena.rules_from(None, None) == arena.STRENGTH_RULES
    assert arena.STRENGTH_RULES.weis is False and arena.STRENGTH_RULES.stoeck is False
    assert set(arena.STRENGTH_RULES.grid) == {1}
    assert arena.rules_from(None, ["weis=true"]).weis is True
    assert arena.rules_from("jasvel", ["target=3000"]) == Rules.preset("jasvel", target=3000)


def _chibre(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-m", "chibre.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_the_command_ends_with_the_summary_line() -> None:
    done = _chibre("arena", "random", "random", "--deals", "20", "--seed", "1")
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    pattern = (
        r"random vs random: [+-]\d+\.\d ± \d+\.\d points/hand \(95% CI\), "
        r"\d+\.\d% of points, 20 deals"
    )
    assert re.fullmatch(pattern, last), last
    assert last.startswith("random vs random: +0.0 ± 0.0")
    done = _chibre("arena", "rule", "random", "--deals", "2", "--games", "1", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert re.search(r"games to 1000: rule won \d of 2", done.stdout)
    assert done.stdout.strip().splitlines()[-1].startswith("rule vs random: ")


def test_the_command_refuses_bad_arguments() -> None:
    done = _chibre("arena", "rule", "nobody", "--deals", "5")
    assert done.returncode == 2
    assert "no player 'nobody'" in done.stderr
    done = _chibre("arena", "rule", "random", "--deals", "5", "--time-per-move", "0")
    assert done.returncode == 2
    assert "time-per-move" in done.stderr
    done = _chibre("arena", "rule", "random", "--deals", "5", "--set", "weis=maybe")
    assert done.returncode == 2
    assert "weis" in done.stderr
