"""Reading the table: deals weighed by the likelihood of what the other seats did.

Constructed cases: a seat that did not follow a trump lead while the bourg was out, a partner
who chibred, a schmieren; each deal's likelihood is the product of the policy's probabilities
of the actions seen, recomputed here one hand at a time; the weights normalise; and with a
model under which the actions tell nothing the weighted sampler is today's sampler.
"""

from __future__ import annotations

import math
from random import Random

import numpy as np

from chibre import Game, Rules
from chibre.actions import Chibre, Choose, Deal, Play
from chibre.bots.policy import CHIBRE, Uninformed, moments, shipped_policy
from chibre.bots.reading import contract_decisions, log_likelihoods, weighted_deals, weights
from chibre.bots.sampling import PAR, hand_counts, sample_deals
from chibre.cards import SUIT_MASKS, parse_card, parse_cards
from chibre.observation import Observation
from chibre.play import BOURG

RULES = Rules.make(weis=False, stoeck=False, multipliers="none", first_chooser="right_of_dealer")

HANDS = (
    parse_cards("♥6 ♥7 ♥8 ♦A ♦K ♦Q ♣A ♣K ♣Q"),
    parse_cards("♥J ♠6 ♠7 ♠8 ♠9 ♦6 ♦7 ♦8 ♣6"),
    parse_cards("♥9 ♥10 ♥Q ♥K ♥A ♠10 ♠J ♠Q ♣10"),
    parse_cards("♠A ♠K ♦9 ♦10 ♦J ♣7 ♣8 ♣9 ♣J"),
)


def game_with_chooser(seat: int) -> Game:
    """A game of HANDS where ``seat`` chooses first."""
    for dealer in range(4):
        game = Game(RULES)
        game.apply(Deal(HANDS, dealer))
        if game.current_player == seat:
            return game
    raise AssertionError("no dealer makes that seat choose")


def play(game: Game, *cards: str) -> None:
    for code in cards:
        seat = game.current_player
        assert seat is not None
        game.apply(Play(parse_card(code)), seat)


def scalar_log_likelihood(o: Observation, deal: tuple[int, int, int, int]) -> float:
    """The same likelihood, one hand and one action at a time with the single-hand calls."""
    policy = shipped_policy()
    seen = moments(o)
    total = 0.0
    for seat, may, choice in contract_decisions(o):
        if seat != o.seat:
            start = deal[seat] | sum(1 << c for m, c in seen if m.seat == seat)
            total += math.log(policy.contract_probs(start, may, o.rules.grid)[choice])
    for i, (m, c) in enumerate(seen):
        if m.seat == o.seat:
            continue
        hand = deal[m.seat] | sum(1 << x for n, x in seen[i:] if n.seat == m.seat)
        total += math.log(policy.card_probs(m, hand)[c])
    return total


def check_likelihoods(o: Observation, n: int = 30) -> list[tuple[int, int, int, int]]:
    deals = sample_deals(o, Random(1), n)
    got = log_likelihoods(o, deals, shipped_policy())
    want = [scalar_log_likelihood(o, d) for d in deals]
    assert np.allclose(got, want, atol=1e-3)
    w = weights(o, deals, shipped_policy())
    assert abs(w.sum() - 1) < 1e-9 and (w >= 0).all()
    assert np.allclose(w, np.exp(0.5 * (got - got.max())) / np.exp(0.5 * (got - got.max())).sum())
    assert w.max() > 2 * w.min()  # the actions tell something: the weights are not uniform
    return deals


def test_a_seat_that_did_not_follow_a_trump_lead_holds_at_most_the_bourg() -> None:
    game = game_with_chooser(0)
    game.apply(Choose(1), 0)  # ♥ trump
    play(game, "♥6", "♠6")  # seat 1 does not follow: it may still hold the bourg
    o = game.observation(0)
    check_likelihoods(o)
    kept = weighted_deals(o, Random(2), 60, shipped_policy())
    assert sum(times for _, times in kept) == 60
    other_trumps = SUIT_MASKS[1] & ~BOURG[1]
    assert all(d[1] & other_trumps == 0 for d, _ in kept)
    assert any(d[1] & BOURG[1] for d, _ in kept)  # the bare bourg is still possible


def test_a_partner_who_chibred_is_weak_in_every_contract() -> None:
    game = game_with_chooser(0)
    game.apply(Chibre(), 0)
    # the partner must now choose: the chibre is read before it does
    assert contract_decisions(game.observation(2)) == [(0, True, CHIBRE)]
    game.apply(Choose(0), 2)
    o = game.observation(2)
    assert contract_decisions(o) == [(0, True, CHIBRE), (2, False, 0)]
    check_likelihoods(o)
    n = 300
    plain = sample_deals(o, Random(3), n)
    read = weighted_deals(o, Random(3), n, shipped_policy())
    plain_mean = sum(max(hand_counts(d[0])) for d in plain) / n
    read_mean = sum(times * max(hand_counts(d[0])) for d, times in read) / n
    assert read_mean < plain_mean - 1, (read_mean, plain_mean)
    # fewer of the chooser's hands are worth naming a contract (a count of par or more)
    plain_strong = sum(max(hand_counts(d[0])) >= PAR for d in plain)
    read_strong = sum(times * (max(hand_counts(d[0])) >= PAR) for d, times in read)
    assert read_strong < 0.9 * plain_strong, (read_strong, plain_strong)


def test_a_schmieren_is_read() -> None:
    game = game_with_chooser(0)
    game.apply(Choose(0), 0)  # ♦ trump
    play(game, "♣A", "♣6", "♣10")  # the partner puts its ten on the ace
    o = game.observation(0)
    deals = check_likelihoods(o)
    assert all(d[2] >> parse_card("♣10") & 1 == 0 for d in deals)


def test_with_an_uninformed_model_the_weighted_sampler_is_todays() -> None:
    game = game_with_chooser(0)
    game.apply(Choose(1), 0)
    play(game, "♥6", "♠6", "♥9", "♠A", "♠10")
    o = game.observation(3)
    for seed in range(3):
        got = weighted_deals(o, Random(seed), 20, Uninformed())
        assert got == [(d, 1) for d in sample_deals(o, Random(seed), 20)]
    w = weights(o, sample_deals(o, Random(0), 25), Uninformed())
    assert np.allclose(w, 1 / 25)
