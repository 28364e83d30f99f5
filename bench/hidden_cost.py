"""Where the hidden cards cost ``strong`` its points: each phase of the hand played seeing them.

Plays ``strong`` against ``rule`` in duplicate (card points only, ``chibre.arena``), then, on
the same deals, players that are ``strong`` except in one part of the hand, where they see
every hand and choose as the ``cheat`` does (the double-dummy optimum of the real deal, with
``strong``'s node budget, exact where ``strong`` is): the cards of the last 3, 6 or
all 9 tricks (``--tricks``), and with ``--contract`` the contract alone. Prints each player's
result against ``rule`` and, paired by deal, its gain over ``strong``'s: what seeing the cards
in that part is worth — the most any search that cannot see them could gain there.

    python bench/hidden_cost.py --deals 400 --seed 1 --tricks 3 6 9 --contract

The ``strong`` match took about 9 minutes of two cores for 400 deals with the budget
``strong`` had until f88eca8; its budget now takes about five times as long.
"""

from __future__ import annotations

import argparse

from chibre.actions import Action
from chibre.bots.cheat import CheatPlayer
from chibre.bots.strong import LEVELS_COMPILED, StrongPlayer
from chibre.observation import Observation
from paired import gains, interval, timed_match

STRONG = LEVELS_COMPILED["strong"]


class SeesLast:
    """``strong``, but in the last ``TRICKS`` tricks (and in the contract when ``CONTRACT``)
    it sees every hand and plays as the ``cheat``."""

    TRICKS = 0
    CONTRACT = False

    def __init__(self, seed: int = 0) -> None:
        self.name = type(self).__name__
        self.strong = StrongPlayer(seed, "strong")
        self.cheat = CheatPlayer(seed, max_nodes=STRONG.nodes, exact_tricks=STRONG.exact_tricks)

    def see(self, hands: tuple[int, int, int, int]) -> None:
        self.cheat.see(hands)

    def act(self, observation: Observation) -> Action:
        o = observation
        sees = self.CONTRACT if o.phase == "contract" else 9 - len(o.tricks) <= self.TRICKS
        return (self.cheat if sees else self.strong).act(o)


class SeesLast3(SeesLast):
    TRICKS = 3


class SeesLast6(SeesLast):
    TRICKS = 6


class SeesLast9(SeesLast):
    TRICKS = 9


class SeesContract(SeesLast):
    CONTRACT = True


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--tricks", type=int, nargs="*", default=[3, 6, 9], choices=[3, 6, 9])
    p.add_argument("--contract", action="store_true", help="also the contract alone")
    args = p.parse_args(argv)
    names = [f"SeesLast{k}" for k in args.tricks] + (["SeesContract"] * args.contract)

    base, wall = timed_match("strong", "rule", args.deals, args.seed, args.jobs)
    print(f"{args.deals} deals, seed {args.seed}, card points only, against rule")
    head = ("player", "vs rule", "gain over strong", "deals differ", "wall s")
    print(f"{head[0]:<14} {head[1]:>16} {head[2]:>18} {head[3]:>13} {head[4]:>7}")
    print(f"{'strong':<14} {interval(base.differences):>16} {'':>18} {'':>13} {wall:7.0f}")
    for name in names:
        result, wall = timed_match(f"hidden_cost:{name}", "rule", args.deals, args.seed, args.jobs)
        gained = gains(result, base)
        differ = sum(g != 0 for g in gained)
        row = f"{interval(result.differences):>16} {interval(gained):>18} {differ:>13} {wall:7.0f}"
        print(f"{name:<14} {row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
