"""Offline: the contract choice of several scorers, valued by the realized play-out margins."""

import json
import sys
from random import Random

import numpy as np

from chibre.bots import contract_value_train as T
from chibre.bots.contract_value import ContractValues
from chibre.bots.policy import shipped_policy
from chibre.bots.sampling import hand_counts
from chibre.bots.strong import count_margin, short_list
from chibre.rules import Rules

data = sys.argv[1]
search = len(sys.argv) > 2
LEVEL = sys.argv[2] if search else ""
ex = [(h, k, bool(l), m, d) for h, k, l, m, d in json.load(open(data))]
deals: dict[int, dict] = {}
for h, k, lead, m, d in ex:
    g = deals.setdefault(d, {"real": [0] * 6})
    g["ch" if lead else "pa"] = h
    g["real"][k] = m
ids = sorted(deals)
print(len(ids), "deals")

# two-fold cross-fit of the learned values
learned: dict[int, tuple[list[float], list[float]]] = {}
for fold in (0, 1):
    train = [e for e in ex if e[4] % 2 != fold]
    nets = [T.fit(*T._arrays(train, kind)[:2], 16, 40, 1 + kind) for kind in range(3)]
    vals = ContractValues((nets[0], nets[1], nets[2]), {})
    for d in ids:
        if d % 2 == fold:
            g = deals[d]
            learned[d] = (vals.margins(g["ch"], True), vals.margins(g["pa"], False))

grid = Rules().grid
policy = shipped_policy()


def count_scores(h: int, lead: bool, d: int, who: int) -> dict[int, float]:
    c = hand_counts(h)
    p = policy.contract_probs(h, False, grid)
    return {k: count_margin(c[k]) for k in short_list(c, p, grid, 0.9)}


def learned_all(h: int, lead: bool, d: int, who: int) -> dict[int, float]:
    return dict(enumerate(learned[d][who]))


def learned_short(h: int, lead: bool, d: int, who: int) -> dict[int, float]:
    c = hand_counts(h)
    p = policy.contract_probs(h, False, grid)
    return {k: learned[d][who][k] for k in short_list(c, p, grid, 0.9)}


def blend_of(base, w):
    def f(h, lead, d, who):
        b = base(h, lead, d, who)
        c = hand_counts(h)
        return {k: w * v + (1 - w) * count_margin(c[k]) for k, v in b.items()}

    return f


def search_values(d: int) -> tuple[dict, dict]:
    from chibre.actions import Chibre
    from chibre.bots.strong import StrongPlayer
    from chibre.deal import deal_cards
    from chibre.game import Game
    from chibre.arena import STRENGTH_RULES, _NO_TARGET
    from chibre.bots.player import decision_rng

    rng = Random(f"1:contract-values:{d}")
    deal = deal_cards(rng, rng.randrange(4))
    game = Game(STRENGTH_RULES.replace(target=_NO_TARGET))
    game.apply(deal)
    chooser = game.current_player
    p = StrongPlayer(5, LEVEL)
    o = game.observation(chooser)
    a = p.contract_values(o, decision_rng(5, o))
    game.apply(Chibre(), chooser)
    o = game.observation((chooser + 2) & 3)
    b = p.contract_values(o, decision_rng(5, o))
    return a, b


import os
cache_file = f"{data}.{LEVEL}.json"
if search and os.path.exists(cache_file):
    got = {int(d): tuple({int(k): v for k, v in x.items()} for x in ab) for d, ab in json.load(open(cache_file)).items()}
elif search:
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2) as pool:
        got = dict(zip(ids, pool.map(search_values, ids, chunksize=10)))
    json.dump({d: got[d] for d in ids}, open(cache_file, "w"))


def searched(h, lead, d, who):
    return got[d][who]


scorers = {"count": count_scores, "learned": learned_all, "learned-short": learned_short}
for w in (0.5, 0.7):
    scorers[f"learned{w}+count"] = blend_of(learned_short, w)
if search:
    scorers["strong (search .4)"] = searched
    def search_learned(h, lead, d, who):
        c = hand_counts(h)
        return {k: (v - 0.6 * count_margin(c[k])) + 0.6 * learned[d][who][k] for k, v in got[d][who].items()}
    scorers["search .4 + learned"] = search_learned
    def reblend(w):
        def f(h, lead, d, who):
            c = hand_counts(h)
            return {k: w * (v - 0.6 * count_margin(c[k])) / 0.4 + (1 - w) * count_margin(c[k]) for k, v in got[d][who].items()}
        return f
    for w in (0.2, 0.3, 0.5, 0.6, 0.8, 1.0):
        scorers[f"search {w}"] = reblend(w)


def realized(scorer, theta: float) -> np.ndarray:
    out = []
    for d in ids:
        g = deals[d]
        own = scorer(g["ch"], True, d, 0)
        if max(own.values()) < theta:
            part = scorer(g["pa"], False, d, 1)
            k = max(part, key=part.get)
        else:
            k = max(own, key=own.get)
        out.append(g["real"][k])
    return np.array(out, dtype=float)


best_k = np.array([max(deals[d]["real"]) for d in ids], dtype=float)
print(f"oracle (best contract in hindsight, no chibre): {best_k.mean():.1f}")
base = realized(count_scores, 50)
print(f"count, chibre below 50: {base.mean():.1f}")
for name, s in scorers.items():
    for theta in (-100, 0, 20, 35, 50, 65):
        r = realized(s, theta)
        diff = r - base
        ci = 1.96 * diff.std() / len(diff) ** 0.5
        print(f"{name:18s} theta {theta:4d}: {r.mean():6.1f}  vs count {diff.mean():+5.1f} ± {ci:.1f}")
