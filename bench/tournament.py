"""The evening's draw: how long a round takes to draw, and how many repeats it avoids.

For each number of players, an evening of ``--rounds`` rounds is drawn ``--evenings`` times
with ``chibre.tournament.evening.draw_round`` and, as the reference, with a plain random draw
(players shuffled and seated four by four, byes to the first ones, no memory of the rounds
before). Prints the median time to draw one round and the mean number of repeated partners
and repeated opponents per evening, side by side.

    python bench/tournament.py [--players 8,13,32,64] [--rounds 6] [--evenings 20]
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random

from chibre.tournament import COMPUTER
from chibre.tournament.evening import Draw, Meetings, Seating, draw_round


def random_draw(players: list[str], previous: list[Draw], rng: Random) -> Draw:
    """The reference: the players shuffled and seated in turn, the computer seats (each the
    partner of a player) filling the last places of the tables that are short."""
    order = list(players)
    rng.shuffle(order)
    tables = -(-len(order) // 4)
    sizes = [len(order) // tables + (t < len(order) % tables) for t in range(tables)]
    rows = []
    for t, size in enumerate(sizes):
        row = [*order[:size], *[COMPUTER] * (4 - size)]
        order = order[size:]
        rows.append(Seating(t + 1, (row[0], row[1], row[2], row[3])))
    return Draw(len(previous) + 1, tuple(rows))


def repeats(draws: list[Draw]) -> tuple[int, int]:
    """Partner and opponent meetings beyond the first, over the evening."""
    met = Meetings.of(draws)
    return (
        sum(n - 1 for n in met.partners.values() if n > 1),
        sum(n - 1 for n in met.opponents.values() if n > 1),
    )


def evening(draw: object, n: int, rounds: int, seed: int) -> tuple[list[float], tuple[int, int]]:
    rng = Random(seed)
    players = [f"p{i}" for i in range(n)]
    draws: list[Draw] = []
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        draws.append(draw(players, draws, rng))  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return times, repeats(draws)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="8,13,32,64")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--evenings", type=int, default=20)
    args = parser.parse_args()
    print(f"{args.rounds} rounds, {args.evenings} evenings per line")
    print(
        f"{'players':>7} | {'draw_round ms':>13} {'partners':>8} {'opponents':>9} | "
        f"{'random ms':>9} {'partners':>8} {'opponents':>9}"
    )
    for n in (int(x) for x in args.players.split(",")):
        line = [f"{n:>7} |"]
        for draw in (draw_round, random_draw):
            times: list[float] = []
            partners = opponents = 0
            for seed in range(args.evenings):
                t, (p, o) = evening(draw, n, args.rounds, seed)
                times += t
                partners += p
                opponents += o
            ms = 1000 * statistics.median(times)
            line.append(
                f"{ms:>{13 if draw is draw_round else 9}.2f} {partners / args.evenings:>8.2f} "
                f"{opponents / args.evenings:>9.2f}"
            )
            if draw is draw_round:
                line.append("|")
        print(" ".join(line))


if __name__ == "__main__":
    main()
