"""How well reading the table places the hidden cards, beside drawing deals uniformly.

Plays seeded hands with four copies of one player and, at every third card decision from
the second trick to the seventh, draws deals for the seat to act as ``strong`` does
(``sampling.sample_deals``, exact for the hard facts) and scores them against the real deal:
the share of the cards the seat cannot see that a deal places at the seat that holds them.
Prints the mean share of the uniform deals (the reference) and, for each policy and power,
the mean share under the reading's weights (``reading.weights``) and its gain over the
uniform share on the same positions, with a 95% interval. A policy that reads nothing gains
nothing; the better the model of how the seats play, the more of the hidden cards land right.

    python bench/reading.py --hands 60 --seed 7 --player rule
    python bench/reading.py --hands 60 --seed 7 --player rule --weights other.json

``--weights`` adds policies from weights files (``policy_train``'s output, the same features).
"""

from __future__ import annotations

import argparse
import json
import statistics
from random import Random

import numpy as np

from chibre import CHANCE, Game, Rules, Thank
from chibre.bots import make_player
from chibre.bots.policy import Policy, shipped_policy
from chibre.bots.reading import TEMPER, weights
from chibre.bots.sampling import sample_deals
from chibre.deal import deal_cards

DEALS = 96
"""Deals drawn per position: what ``strong`` draws before resampling."""


def placed_share(deal: tuple[int, ...], true: list[int], seat: int) -> float:
    """The share of the cards ``seat`` cannot see that ``deal`` places where they are."""
    hidden = sum(true[s].bit_count() for s in range(4) if s != seat)
    return sum((deal[s] & true[s]).bit_count() for s in range(4) if s != seat) / hidden


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--player", default="rule", help="the player of all four seats")
    ap.add_argument("--weights", nargs="*", default=[], help="more policies to compare")
    args = ap.parse_args()
    policies = {"shipped": shipped_policy()}
    for path in args.weights:
        with open(path, encoding="utf-8") as f:
            policies[path] = Policy.from_dict(json.load(f))
    powers = sorted({TEMPER, 1.0})
    uniform: list[float] = []
    read: dict[tuple[str, float], list[float]] = {(k, t): [] for k in policies for t in powers}
    rng = Random(args.seed)
    rules = Rules()
    for i in range(args.hands):
        seats = [make_player(args.player, rng.getrandbits(32)) for _ in range(4)]
        game = Game(rules)
        game.apply(deal_cards(rng, rng.randrange(4)))
        hand = game.hand
        assert hand is not None
        step = 0
        while not hand.is_over:
            seat = game.current_player
            if seat is None or seat == CHANCE:
                break
            o = game.observation(seat)
            if o.phase == "play" and 1 <= len(o.tricks) <= 6 and step % 3 == 0:
                true = list(hand.hands)
                drawn = sample_deals(o, Random(f"{i}:{step}"), DEALS)
                share = np.array([placed_share(d, true, seat) for d in drawn])
                uniform.append(float(share.mean()))
                for (name, power), got in read.items():
                    got.append(float(weights(o, drawn, policies[name], power) @ share))
            step += 1
            action = seats[seat].act(o)
            if isinstance(action, Thank):
                break
            game.apply(action, seat)
    base = np.array(uniform)
    print(f"{args.player}, {len(base)} positions of {args.hands} hands, seed {args.seed}")
    print(f"  {'uniform deals (reference)':34s} {base.mean():.4f}")
    for (name, power), got in read.items():
        gain = np.array(got) - base
        half = 1.96 * statistics.stdev(gain) / len(gain) ** 0.5
        label = f"{name}, power {power}"
        print(f"  {label:34s} {np.mean(got):.4f}  gain {gain.mean():+.4f} ± {half:.4f}")


if __name__ == "__main__":
    main()
