"""The learned contract values: a hand is seen alike in every suit, the play-outs that train
them count a hand right, the shipped networks load, say how they were made and know a good
trump from a bad one, and the training command makes the same networks again (end to end, in
a subprocess)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from random import Random

import numpy as np

from chibre.bots import contract_value_train
from chibre.bots.contract_value import (
    FEATURES,
    KINDS,
    ContractValues,
    features,
    shipped_values,
)
from chibre.cards import parse_cards
from chibre.deal import deal_cards


def _swap_suits(hand: int, a: int, b: int) -> int:
    """``hand`` with the suits ``a`` and ``b`` exchanged."""
    bits = [(hand >> (9 * s)) & 0x1FF for s in range(4)]
    bits[a], bits[b] = bits[b], bits[a]
    return sum(x << (9 * s) for s, x in enumerate(bits))


def test_a_hand_is_seen_alike_whatever_its_suits() -> None:
    rng = Random(3)
    for _ in range(200):
        hand = deal_cards(rng, 0).hands[0]
        a, b = rng.sample(range(4), 2)
        other = _swap_suits(hand, a, b)
        for lead in (True, False):
            assert np.array_equal(features(hand, a, lead), features(other, b, lead))
            for contract in (4, 5):
                assert np.array_equal(
                    features(hand, contract, lead), features(other, contract, lead)
                )
        row = features(hand, a, True)
        assert row.shape == (FEATURES,)
        assert row[:36].sum() == 9
        assert row[36] == 1 and features(hand, a, False)[36] == 0


def test_trumps_come_first_then_the_longest_side_suit() -> None:
    hand = parse_cards("♠J ♠9 ♦A ♦K ♦Q ♦10 ♣6 ♣7 ♥A")
    row = features(hand, 2, True)  # ♠ trumps
    spades = (hand >> 18) & 0x1FF
    assert [int(b) for b in row[:9]] == [spades >> r & 1 for r in range(9)]
    assert row[9:18].sum() == 4  # the ♦, four long
    assert row[18:27].sum() == 2  # then the ♣
    assert row[27:36].sum() == 1


def test_a_play_out_counts_the_hand_in_each_contract() -> None:
    examples = contract_value_train.play_deal(5, 0, "rule")
    assert len(examples) == 12
    for contract in range(6):
        chooser, partner = (e for e in examples if e[1] == contract)
        assert chooser[2] and not partner[2]
        assert chooser[3] == partner[3]  # the team's margin, as seen by both
        margin = chooser[3]
        assert abs(margin) <= 257 and margin % 2 == 1  # 2 × points − 157, or ±257 for a match
        assert chooser[0] & partner[0] == 0
        assert chooser[0].bit_count() == partner[0].bit_count() == 9


def test_the_shipped_values_load_and_know_a_good_trump() -> None:
    values = shipped_values()
    meta = values.meta
    args = shlex.split(meta["command"])
    assert args[:3] == ["python", "-m", "chibre.bots.contract_value_train"]
    assert f"--seed {meta['seed']}" in meta["command"]
    for kind in KINDS:
        fit = meta["fit"][kind]
        assert fit["held_out_error"] < fit["held_out_spread"]  # better than knowing nothing
    hand = parse_cards("♥J ♥9 ♥A ♥K ♥10 ♠A ♠K ♣A ♦6")
    margins = values.margins(hand, True)
    assert max(range(6), key=lambda k: margins[k]) == 1  # ♥ trumps
    assert margins[1] > 60
    assert margins[1] > margins[0] + 50
    weak = parse_cards("♥6 ♥8 ♠7 ♠10 ♣6 ♣9 ♦7 ♦8 ♦Q")
    assert max(values.margins(weak, True)) < margins[1] - 80


def _train(out: Path, seed: int) -> dict[str, object]:
    command = [
        sys.executable, "-m", "chibre.bots.contract_value_train", "--deals", "4", "--seed",
        str(seed), "--player", "rule", "--hidden", "3", "--epochs", "2", "--out", str(out),
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    loaded: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return loaded


def test_training_makes_the_same_values_again_end_to_end(tmp_path: Path) -> None:
    first = _train(tmp_path / "a.json", 7)
    again = _train(tmp_path / "b.json", 7)
    other = _train(tmp_path / "c.json", 8)
    assert first == again
    assert first["trump"] != other["trump"]
    values = ContractValues.from_dict(first)
    assert values.meta["command"].endswith("--player rule --hidden 3 --epochs 2")
    assert values.meta["fit"]["trump"]["examples"] == 4 * 4 * 2
    assert values.networks[0].w1.shape == (FEATURES, 3)
    assert len(values.margins(deal_cards(Random(1), 0).hands[0], False)) == 6


def test_the_examples_do_not_depend_on_the_jobs() -> None:
    one = contract_value_train.generate(3, 2, "rule", jobs=1)
    two = contract_value_train.generate(3, 2, "rule", jobs=2)
    assert one == two
    assert [e[4] for e in one[::12]] == [0, 1, 2]
