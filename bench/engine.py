"""Engine speed: complete random hands through the public API, per second.

Each hand: a seeded deal, a random legal contract action (chibre included) until a contract
is named, then 36 random legal cards with legal-move generation, weis and stöck as the rules
say, and the hand's score. Prints the median of several timed rounds for one process and for
one process per core, side by side with the HSLU jass-kit simulator when it is installed
(``pip install jass-kit``), and ends with ``hands_per_s=<N>`` (all cores).

    python bench/engine.py [--seconds 20] [--rules romand]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from random import Random

from chibre import Hand, Rules, cards_of, deal_cards


def play_hands(rules: Rules, n: int, seed: int) -> int:
    """Play ``n`` random hands; returns a checksum of the scores (so nothing is skipped)."""
    rng = Random(seed)
    uniform = rng.random
    checksum = 0
    for i in range(n):
        dealer = i & 3
        deal = deal_cards(rng, dealer)
        hand = Hand(rules, dealer, (dealer + 1) & 3, deal.hands)
        while hand.contract < 0:
            actions = hand.legal_actions()
            hand.apply(actions[int(uniform() * len(actions))])
        for _ in range(36):
            legal = cards_of(hand.legal_cards())
            hand.play(legal[int(uniform() * len(legal))])
        assert hand.is_over
        checksum += hand.score().total(0)
    return checksum


def _rate(args: tuple[str, int, int]) -> float:
    preset, n, seed = args
    rules = Rules.preset(preset)
    start = time.perf_counter()
    play_hands(rules, n, seed)
    return n / (time.perf_counter() - start)


def jass_kit_rate(n: int, seed: int) -> float | None:
    """Random hands/s of the jass-kit simulator (GameSim with its random agent), if installed:
    the same work — deal, trump or push, 36 legal random cards, the score."""
    try:
        import numpy as np
        from jass.agents.agent_random_schieber import AgentRandomSchieber
        from jass.game.game_sim import GameSim
        from jass.game.game_util import deal_random_hand
        from jass.game.rule_schieber import RuleSchieber
    except ImportError:
        return None
    np.random.seed(seed)
    agent = AgentRandomSchieber()
    sim = GameSim(rule=RuleSchieber())
    start = time.perf_counter()
    for i in range(n):
        sim.init_from_cards(hands=deal_random_hand(), dealer=i % 4)
        while not sim.is_done():
            obs = sim.get_observation()
            if sim.state.trump == -1:
                sim.action_trump(agent.action_trump(obs))
            else:
                sim.action_play_card(agent.action_play_card(obs))
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="rough total budget")
    parser.add_argument("--rules", default="romand", help="preset to play under")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    calib = _rate((args.rules, 300, 0))
    rounds = 5
    n = max(200, int(calib * args.seconds / (rounds * 3)))
    single = [_rate((args.rules, n, seed)) for seed in range(rounds)]
    with multiprocessing.Pool(cores) as pool:
        multi = []
        for r in range(rounds):
            jobs = [(args.rules, n, 1000 * r + k) for k in range(cores)]
            multi.append(sum(pool.map(_rate, jobs)))
    one, allc = statistics.median(single), statistics.median(multi)
    print(f"chibre engine, rules={args.rules}, {n} hands per round, {rounds} rounds (median)")
    print(f"  1 process:          {one:10.0f} hands/s")
    print(f"  {cores} processes:        {allc:10.0f} hands/s")
    ref = jass_kit_rate(max(200, n // 20), 0)
    if ref is None:
        print("  jass-kit reference:  not installed (pip install jass-kit to compare in this run)")
    else:
        print(f"  jass-kit GameSim:   {ref:10.0f} hands/s (1 process)")
        print(f"  ratio chibre/jass-kit, 1 process: {one / ref:.1f}x")
    print(f"hands_per_s={allc:.0f}")


if __name__ == "__main__":
    main()
