"""The learned policy: its features and legal cards agree with chibre.play, its probabilities
normalise, the shipped weights load and say how they were made, and the training command
makes the same weights again from a few self-played hands (end to end, in a subprocess)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from random import Random

import numpy as np
import pytest

from chibre.bots import policy_train
from chibre.bots.policy import (
    CARD_FEATURES,
    CHIBRE,
    CONTRACT_FEATURES,
    Moment,
    Policy,
    card_features,
    legal_masks,
    moments,
    shipped_policy,
)
from chibre.cards import cards_of
from chibre.deal import deal_cards
from chibre.play import CARD_POINTS, legal_cards, trick_winner


def random_moments(rng: Random, n: int) -> list[tuple[Moment, int, tuple[int, ...]]]:
    """Moments of random play in every contract: (moment, hand of the seat, all hands)."""
    out = []
    while len(out) < n:
        contract = rng.randrange(6)
        hands = list(deal_cards(rng, 0).hands)
        leader, played = rng.randrange(4), 0
        for t in range(9):
            trick: list[int] = []
            for i in range(4):
                seat = (leader + i) & 3
                m = Moment(seat, contract, tuple(trick), played, t)
                out.append((m, hands[seat], tuple(hands)))
                c = rng.choice(cards_of(legal_cards(hands[seat], trick, contract)))
                hands[seat] ^= 1 << c
                trick.append(c)
                played |= 1 << c
            leader = (leader + trick_winner(trick, contract)) & 3
    return out[:n]


def test_legal_masks_are_the_rules_of_play() -> None:
    rng = Random(1)
    for m, _hand, hands in random_moments(rng, 400):
        batch = np.array(hands, dtype=np.uint64)
        got = legal_masks(m, batch)
        for h, g in zip(hands, got, strict=True):
            if h:
                assert int(g) == legal_cards(h, m.trick, m.contract), (m, h)


def test_card_probabilities_cover_the_legal_cards_and_sum_to_one() -> None:
    policy = shipped_policy()
    for m, hand, _ in random_moments(Random(2), 200):
        if not hand:
            continue
        probs = policy.card_probs(m, hand)
        assert set(probs) == set(cards_of(legal_cards(hand, m.trick, m.contract)))
        assert abs(sum(probs.values()) - 1) < 1e-5
        batch = np.array([hand, hand], dtype=np.uint64)
        for c, p in probs.items():
            lp = policy.card_log_probs(m, batch, c)
            assert np.allclose(lp, np.log(p), atol=1e-4)


def test_features_have_the_documented_shape() -> None:
    m, _hand, hands = random_moments(Random(3), 5)[4]
    x, legal = card_features(m, np.array(hands, dtype=np.uint64))
    assert x.shape == (4, 36, CARD_FEATURES) and legal.shape == (4, 36)
    assert not legal[np.array(hands, dtype=object) == 0].any()


def test_contract_probabilities_sum_to_one() -> None:
    policy = shipped_policy()
    rng = Random(4)
    grid = (1, 1, 1, 1, 1, 1)
    for _ in range(50):
        hand = deal_cards(rng, 0).hands[0]
        with_chibre = policy.contract_probs(hand, True, grid)
        assert len(with_chibre) == CHIBRE + 1 and abs(sum(with_chibre) - 1) < 1e-5
        assert len(policy.contract_probs(hand, False, grid)) == 6
        assert abs(np.exp(policy.contract_log_prob(hand, True, grid, 2)) - with_chibre[2]) < 1e-5
        batch = policy.contract_log_probs([hand, hand], True, grid, 2)
        assert np.allclose(np.exp(batch), with_chibre[2], atol=1e-5)


def test_the_shipped_weights_load_and_say_how_they_were_made() -> None:
    policy = shipped_policy()
    meta = policy.meta
    assert meta["version"] == 1
    args = shlex.split(meta["command"])
    assert args[:3] == ["python", "-m", "chibre.bots.policy_train"]
    assert f"--seed {meta['seed']}" in meta["command"]
    assert policy.card.w1.shape[0] == CARD_FEATURES
    assert policy.contract.w1.shape[0] == CONTRACT_FEATURES
    # better than knowing nothing, on held-out decisions of the players it learned from
    for fit in (meta["card_fit"], meta["contract_fit"]):
        assert fit["held_out_log_loss"] < fit["uniform_log_loss"]


def test_moments_replay_the_hand_in_order() -> None:
    from chibre import Game, Rules
    from chibre.actions import Play

    game = Game(Rules.make(weis=False, stoeck=False))
    rng = Random(5)
    game.deal(rng)
    seen: list[int] = []
    while game.hand is not None and not game.hand.is_over and len(seen) < 11:
        seat = game.current_player
        assert seat is not None
        action = game.legal_actions()[0]
        if isinstance(action, Play):
            seen.append(action.card)
        game.apply(action, seat)
    o = game.observation(0)
    got = moments(o)
    assert [c for _, c in got] == seen
    assert got[5][0].played == sum(1 << c for c in seen[:5])
    assert [m.tricks_played for m, _ in got][:9] == [0, 0, 0, 0, 1, 1, 1, 1, 2]


def _train(out: Path, seed: int) -> dict[str, object]:
    command = [
        sys.executable, "-m", "chibre.bots.policy_train", "--hands", "3", "--seed", str(seed),
        "--players", "rule", "beginner", "--hidden", "4", "--epochs", "3", "--out", str(out),
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    loaded: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return loaded


def test_training_makes_the_same_weights_again_end_to_end(tmp_path: Path) -> None:
    """A tiny model from three self-played hands, twice: the same file, a loadable policy
    that records its own command and seed, and different weights from another seed."""
    first = _train(tmp_path / "a.json", 7)
    again = _train(tmp_path / "b.json", 7)
    other = _train(tmp_path / "c.json", 8)
    assert first == again
    assert first["card"] != other["card"]
    policy = Policy.from_dict(first)
    assert policy.meta["command"].endswith("--hidden 4 --epochs 3")
    assert policy.meta["card_fit"]["examples"] == 3 * 36
    assert policy.card.w1.shape == (CARD_FEATURES, 4)
    m, hand, _ = random_moments(Random(6), 1)[0]
    assert abs(sum(policy.card_probs(m, hand).values()) - 1) < 1e-5


def test_fit_learns_a_rule_it_is_shown() -> None:
    """Labels that always pick the highest-point legal card: the fit finds them."""
    rng = Random(9)
    records = policy_train.Records([], [])
    for m, hand, _ in random_moments(rng, 600):
        if not hand:
            continue
        legal = cards_of(legal_cards(hand, m.trick, m.contract))
        best = max(legal, key=lambda c: (CARD_POINTS[m.contract][c], c % 9))
        records.cards.append((m, hand, best))
    net, report = policy_train.fit(policy_train.card_examples(records), 16, 40, 1)
    assert report["held_out_accuracy"] > 0.8
    assert report["held_out_log_loss"] < report["uniform_log_loss"] / 2
    assert net.w1.shape == (CARD_FEATURES, 16)


@pytest.mark.parametrize("contract", [0, 4])
def test_the_shipped_card_model_takes_a_trick_and_schmiers(contract: int) -> None:
    """Sanity checks of the shipped card model on plain cases, fourth in the trick: with the
    opponents holding it, the seat takes it with the ace (Obenabe); with the partner holding
    it with an ace, the seat puts its ten on it (schmieren) rather than its six."""
    from chibre.cards import parse_card, parse_cards

    policy = shipped_policy()

    def best(trick_codes: str, hand: str) -> int:
        trick = tuple(parse_card(x) for x in trick_codes.split())
        played = sum(1 << c for c in trick)
        probs = policy.card_probs(Moment(3, contract, trick, played, 6), parse_cards(hand))
        return max(probs, key=probs.__getitem__)

    assert best("♠K ♠A ♠7", "♠10 ♠6 ♣7") == parse_card("♠10")  # partner (seat 1) holds it
    if contract == 4:
        assert best("♠10 ♠6 ♠K", "♠A ♠7 ♣6") == parse_card("♠A")
