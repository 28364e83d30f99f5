"""The coach's speed: reviewing one hand of one seat, and a whole game to 1000, on one core.

Games are played by four ``rule`` players from seeded deals (default rules, a game to
1000). For each hand the review of one seat (seat 0) is timed (process time); beside it, as
the named reference in the same run, the ``strong`` player taking the same seat's decisions
from the same observations (the coach looks at every option on every deal, the player only
plays). Prints the median and maximum per hand, then the whole game's review (the seat, and
with --all-seats all four), and whether the solver ran compiled (numba). The goal: a hand in
5 s or less with numba.

    python bench/review.py [--games 1] [--seed 1] [--samples 32] [--all-seats]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from random import Random

from chibre.actions import Deal
from chibre.bots import make_player
from chibre.bots.solver import jit_available, warm_up
from chibre.coach import Budget, assess, decisions, review_record
from chibre.game import Game, GameRecord
from chibre.rules import Rules

SEAT = 0


def play_game(seed: int) -> GameRecord:
    """A game to 1000 between four ``rule`` players, from seeded deals."""
    game = Game(Rules())
    players = [make_player("rule", seed * 4 + s) for s in range(4)]
    rng = Random(seed)
    while not game.is_over:
        if game.current_player == -1:
            game.deal(rng)
            continue
        s = game.current_player
        assert s is not None
        game.apply(players[s].act(game.observation(s)), s)
    return game.record


def hands_of(record: GameRecord) -> list[GameRecord]:
    """Each hand of the game as a record of its own (the game up to its end)."""
    starts = [i for i, (_, a) in enumerate(record.entries) if isinstance(a, Deal)]
    ends = [*starts[1:], len(record.entries)]
    return [GameRecord(record.rules, record.entries[:end]) for end in ends]


def review_hand(upto: GameRecord, budget: Budget) -> tuple[float, int]:
    """Seconds to review seat 0's decisions of the last hand of ``upto`` and their count."""
    last = len(upto.entries) - 1
    first = max(i for i, (_, a) in enumerate(upto.entries) if isinstance(a, Deal))
    mine = [d for d in decisions(upto, [SEAT]) if first <= d.entry <= last]
    start = time.process_time()
    for d in mine:
        assess(d, budget)
    return time.process_time() - start, len(mine)


def player_hand(upto: GameRecord) -> float:
    """Seconds for the ``strong`` player to take the same decisions."""
    player = make_player("strong", 1)
    first = max(i for i, (_, a) in enumerate(upto.entries) if isinstance(a, Deal))
    mine = [d for d in decisions(upto, [SEAT]) if d.entry >= first]
    start = time.process_time()
    for d in mine:
        player.act(d.observation)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=Budget.samples)
    parser.add_argument("--all-seats", action="store_true")
    args = parser.parse_args()
    warm_up()
    budget = Budget(samples=args.samples)
    compiled = "numba" if jit_available() else "plain Python"
    print(f"coach review, solver {compiled}, {args.samples} deals a decision, pid {os.getpid()}")
    coach, strong, counts = [], [], []
    game_times = []
    for g in range(args.games):
        record = play_game(args.seed + g)
        for upto in hands_of(record):
            seconds, n = review_hand(upto, budget)
            coach.append(seconds)
            counts.append(n)
            strong.append(player_hand(upto))
        seats = [0, 1, 2, 3] if args.all_seats else [SEAT]
        start = time.process_time()
        review = review_record(record, seats, budget)
        game_times.append(time.process_time() - start)
        print(
            f"game {g + 1}: {len(hands_of(record))} hands, {len(review.assessments)} decisions "
            f"of seat(s) {seats} reviewed in {game_times[-1]:.1f} s"
        )
    print(f"{'per hand of one seat':<28}{'median':>9}{'max':>9}")
    print(f"{'coach review':<28}{statistics.median(coach):>8.2f}s{max(coach):>8.2f}s")
    print(
        f"{'strong player (reference)':<28}{statistics.median(strong):>8.2f}s{max(strong):>8.2f}s"
    )
    print(f"decisions per hand: median {statistics.median(counts):.0f}, max {max(counts)}")
    ratio = statistics.median(coach) / max(statistics.median(strong), 1e-9)
    print(
        f"summary: a hand reviewed in {statistics.median(coach):.2f} s median "
        f"({max(coach):.2f} s max, goal 5 s), {ratio:.1f}x the strong player's time; a game in "
        f"{statistics.median(game_times):.1f} s"
    )


if __name__ == "__main__":
    main()
