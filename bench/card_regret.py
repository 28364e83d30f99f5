"""What ``strong``'s budgeted search costs its card choice against exact solving, by trick.

Plays seeded hands with four ``rule`` players and takes, for team 0's seats, the card
decisions with ``--tricks-left`` tricks left that have more than one legal card. At each, it
draws the deals ``strong`` would (its own seed, weights and number), values every legal card on
each deal with the node budgets given and exactly (the reference), and picks the card with the
best mean each way. It prints, for each budget, how often that card differs from the exact
choice and the mean loss: the exact mean of the exact choice less the exact mean of the budget's
choice, in points (zero when they agree). What exact solving would add is an upper bound on what
any budget can: a loss that does not shrink with the budget lies in the horizon.

    python bench/card_regret.py --tricks-left 8 --decisions 30 --seed 99
    python bench/card_regret.py --tricks-left 9 --decisions 12 --budgets 60000 1000000

A decision with 9 tricks left solves full deals exactly: about a minute each here.
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random

from chibre import CHANCE, Game
from chibre.arena import STRENGTH_RULES
from chibre.bots import make_player
from chibre.bots.player import choices, decision_rng
from chibre.bots.solver import card_results
from chibre.bots.strong import StrongPlayer, card_position
from chibre.deal import deal_cards
from chibre.observation import Observation
from chibre.rules import MAX_TARGET


def decisions(tricks_left: int, n: int, seed: int) -> list[Observation]:
    """The first ``n`` card decisions of team 0 with ``tricks_left`` tricks left and a choice,
    in hands of four ``rule`` players dealt from ``seed``."""
    rules = STRENGTH_RULES.replace(target=MAX_TARGET)
    rule = make_player("rule", seed)
    found: list[Observation] = []
    i = 0
    while len(found) < n:
        rng = Random(f"{seed}:{i}")
        i += 1
        game = Game(rules)
        game.apply(deal_cards(rng, rng.randrange(4)))
        while game.hand is not None and not game.hand.is_over:
            seat = game.current_player
            if seat is None or seat == CHANCE:
                break
            o = game.observation(seat)
            if (
                seat % 2 == 0
                and o.phase == "play"
                and 9 - len(o.tricks) == tricks_left
                and len(choices(o)) > 1
            ):
                found.append(o)
            game.apply(rule.act(o), seat)
    return found[:n]


def losses(o: Observation, player: StrongPlayer, budgets: list[int]) -> list[float]:
    """Per budget: the exact mean of the exact choice less that of the budget's choice."""
    deals = player._deals(o, decision_rng(player.seed, o), player.level.samples)
    exact: dict[int, float] = {}
    budgeted: list[dict[int, float]] = [{} for _ in budgets]
    for hands, times in deals:
        position = card_position(o, hands)
        values = card_results(position).card_scores
        for c, v in values.items():
            exact[c] = exact.get(c, 0.0) + times * v
        for totals, budget in zip(budgeted, budgets, strict=True):
            for c, v in card_results(position, budget).card_scores.items():
                totals[c] = totals.get(c, 0.0) + times * v
    n = sum(times for _, times in deals)
    best = max(exact, key=lambda c: (exact[c], -c))
    out = []
    for totals in budgeted:
        chosen = max(totals, key=lambda c: (totals[c], -c))
        out.append((exact[best] - exact[chosen]) / n)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tricks-left", type=int, default=7, choices=range(2, 10))
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--budgets", type=int, nargs="+", default=None)
    args = parser.parse_args(argv)
    player = StrongPlayer(args.seed, "strong")
    budgets = args.budgets or [player.level.nodes, 4 * player.level.nodes]
    start = time.perf_counter()
    found = decisions(args.tricks_left, args.decisions, args.seed)
    rows = [losses(o, player, budgets) for o in found]
    print(f"{len(rows)} decisions of team 0 with {args.tricks_left} tricks left (seed {args.seed})")
    for k, budget in enumerate(budgets):
        column = [r[k] for r in rows]
        differ = sum(x > 0 for x in column)
        print(
            f"  {budget:>9,} nodes a deal: {differ} of {len(column)} choices worse than the "
            f"exact one, mean loss {statistics.mean(column):.2f} points (max {max(column):.2f})"
        )
    print(f"  {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
