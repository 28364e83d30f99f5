"""Policy rollouts (``chibre.bots.rollout``) and the player that uses them early in the hand.

- a rollout only ever plays legal cards, and values exactly the legal cards of the seat to act;
  the policy sees every card played, the current trick's included;
- with no trick to roll out its values are the exact solve's, whoever is to act;
- a rollout down to the end of the hand counts the points of every trick it played;
- a whole deal's rollout score is its line's points for the team to act, and the player that
  values contracts by rollouts takes exactly those scores;
- the values and the player's decision are the same for the same seed;
- the moments the rollouts see are not all kept: a player's memory stays bounded;
- honesty: re-dealing every card the seat cannot know never changes the decision.
"""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from chibre import Game, Rules
from chibre.bots.policy import MOMENTS_KEPT, public_features, shipped_policy
from chibre.bots.rollout import (
    Line,
    play_card,
    policy_card,
    rollout_score,
    rollout_scores,
    rollout_value,
)
from chibre.bots.sampling import hand_counts, sample_deals
from chibre.bots.solver import Position, card_results
from chibre.bots.strong import StrongPlayer, card_position, count_margin, margin, short_list
from chibre.cards import ALL_CARDS, cards_of
from chibre.deal import deal_cards
from chibre.observation import Observation
from chibre.play import CARD_POINTS, legal_cards
from chibre.weis import STOECK_CARDS, STOECK_POINTS
from test_sampling import random_position, redeal


def _moment(seed: int, min_cards: int = 0) -> tuple[Game, Observation, Position, int]:
    """A random moment of the play: the game, the observation of the seat to act, the open
    position and the cards played this hand."""
    game = random_position(Rules(), seed, min_cards)
    seat = game.current_player
    assert seat is not None and seat >= 0
    o = game.observation(seat)
    hand = game.hand
    assert hand is not None
    position = card_position(o, (hand.hands[0], hand.hands[1], hand.hands[2], hand.hands[3]))
    played = sum(1 << c for t in o.tricks for c in t.cards) | sum(1 << c for c in o.trick)
    return game, o, position, played


def _early(seed: int) -> tuple[Game, Observation, Position, int]:
    """A moment with more than five tricks left."""
    for s in range(seed, seed + 200):
        got = _moment(s)
        if got[2].tricks_left > 5:
            return got
    raise AssertionError("no early moment found")


def test_a_rollout_plays_only_legal_cards() -> None:
    policy = shipped_policy()
    for i in range(6):
        _, o, position, played = _early(100 + 7 * i)
        scores = rollout_scores(position, played, len(o.tricks), policy, 2)
        seat = position.to_act
        assert set(scores) == set(cards_of(legal_cards(o.hand, o.trick, o.contract)))
        for c in scores:
            line = play_card(Line(position, played, len(o.tricks)), c)
            while any(line.position.hands):
                p = line.position
                # The policy sees every card played so far, in the trick as before it.
                assert line.played == ALL_CARDS & ~(
                    p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3]
                )
                card = policy_card(policy, line)
                assert legal_cards(p.hands[p.to_act], p.trick, p.contract) >> card & 1
                line = play_card(line, card)
            assert line.tricks_played == 9
        assert position.to_act == seat


def test_with_nothing_to_roll_out_the_values_are_exact() -> None:
    policy = shipped_policy()
    seen_teams = set()
    for i in range(12):
        _, o, position, played = _moment(300 + i, min_cards=16)
        exact_tricks = position.tricks_left
        exact = card_results(position).card_scores
        assert rollout_scores(position, played, len(o.tricks), policy, exact_tricks) == exact
        # The same through the rollout itself: team 0's value after each card, turned to the
        # side of the seat to act, is the exact value of that card.
        total = position.points_out()
        ours = position.to_act & 1 == 0
        start = Line(position, played, len(o.tricks))
        for c, v in exact.items():
            got = rollout_value(policy, play_card(start, c), exact_tricks)
            assert (got if ours else total - got) == v
        seen_teams.add(position.to_act & 1)
    assert seen_teams == {0, 1}


def test_a_rollout_to_the_end_counts_every_trick() -> None:
    """Rolled out to the last card, a card's value is the points its team took in the line
    (with the match: plus the bonus for all nine tricks, minus it for none)."""
    policy = shipped_policy()
    for i in range(6):
        _, o, position, played = _early(500 + 11 * i)
        scores = rollout_scores(position, played, len(o.tricks), policy, 0)
        team = position.to_act & 1
        for c, v in scores.items():
            line = play_card(Line(position, played, len(o.tricks)), c)
            while any(line.position.hands):
                line = play_card(line, policy_card(policy, line))
            ours = line.gained if team == 0 else position.points_out() - line.gained
            taken = line.position.taken
            if not taken[1 - team]:
                ours += position.match_bonus
            elif not taken[team]:
                ours = -position.match_bonus
            assert v == ours


def test_a_whole_deal_s_rollout_score_is_its_line_s_points() -> None:
    """From the first card, policy play to the end: the score of the team to act is what it
    took (the match counted whole); with five tricks solved exactly it is that many tricks of
    policy play and the exact rest."""
    policy = shipped_policy()
    teams = set()
    for i in range(8):
        rng = Random(40 + i)
        deal = deal_cards(rng, 0).hands
        position = Position(hands=deal, contract=i % 6, leader=i % 4)
        team = position.to_act & 1
        line = Line(position, 0, 0)
        while any(line.position.hands):
            line = play_card(line, policy_card(policy, line))
        ours = line.gained if team == 0 else position.points_out() - line.gained
        if not line.position.taken[1 - team]:
            ours += position.match_bonus
        elif not line.position.taken[team]:
            ours = -position.match_bonus
        assert rollout_score(policy, position, 0, 0, 0) == ours
        line = Line(position, 0, 0)
        while line.position.tricks_left > 5:
            line = play_card(line, policy_card(policy, line))
        assert line.tricks_played == 4
        rest = card_results(line.position)
        rest_ours = (
            rest.score
            if line.position.to_act & 1 == team
            else (line.position.points_out() - rest.score)
        )
        took = (
            line.gained
            if team == 0
            else sum(CARD_POINTS[position.contract][c] for c in cards_of(line.played)) - line.gained
        )
        assert rollout_score(policy, position, 0, 0, 5) == took + rest_ours
        teams.add(team)
    assert teams == {0, 1}


def test_contracts_valued_by_rollouts_take_the_rollouts_scores() -> None:
    game = Game(Rules(first_chooser="right_of_dealer"))
    game.apply(deal_cards(Random(5), 3))
    o = game.observation(0)
    player = StrongPlayer(2, "medium")
    player.level = dataclasses.replace(player.level, contract_rollout=True, contract_samples=5)
    level = player.level
    values = player.contract_values(o, Random(9))
    deals = [(d, 1) for d in sample_deals(o, Random(9), level.contract_samples)]  # unread
    counts = hand_counts(o.hand)
    probs = shipped_policy().contract_probs(o.hand, False, o.rules.grid)
    assert sorted(values) == short_list(counts, probs, o.rules.grid, level.short_list)
    policy = shipped_policy()
    for k, v in values.items():
        scores = [
            rollout_score(policy, Position(hands=d, contract=k, leader=o.chooser), 0, 0, 5)
            for d, _ in deals
        ]
        search = sum(margin(s) * t for s, (_, t) in zip(scores, deals, strict=True)) / sum(
            t for _, t in deals
        )
        want = search * level.blend + (1 - level.blend) * count_margin(counts[k])
        if k < 4 and o.rules.stoeck and o.hand & STOECK_CARDS[k] == STOECK_CARDS[k]:
            want += STOECK_POINTS
        assert v == pytest.approx(want, abs=1e-9)


def test_rollouts_do_not_keep_every_moment_they_saw() -> None:
    """Each rollout passes moments no other will (a server's player plays for days): the
    features kept for them stay bounded, however many deals are rolled out."""
    policy = shipped_policy()
    rng = Random(12)
    seen = public_features.cache_info().misses
    while public_features.cache_info().misses - seen <= 2 * MOMENTS_KEPT:
        position = Position(hands=deal_cards(rng, 0).hands, contract=rng.randrange(6), leader=0)
        rollout_score(policy, position, 0, 0, 3)
    assert public_features.cache_info().currsize <= MOMENTS_KEPT


def test_the_same_seed_gives_the_same_values_and_decision() -> None:
    policy = shipped_policy()
    for i in range(3):
        _, o, position, played = _early(700 + 5 * i)
        first = rollout_scores(position, played, len(o.tricks), policy, 5)
        assert rollout_scores(position, played, len(o.tricks), policy, 5) == first
        a, b = _rollout_player(3), _rollout_player(3)
        assert a.act(o) == b.act(o) == a.act(o)


def _rollout_player(seed: int) -> StrongPlayer:
    player = StrongPlayer(seed, "medium")
    player.level = dataclasses.replace(player.level, rollout=True, samples=6)
    return player


def test_hidden_cards_never_change_a_rollout_decision() -> None:
    """The same public moment on a re-dealt game gives the same decision."""
    player = _rollout_player(7)
    for i in range(4):
        game, o, _, _ = _early(900 + 13 * i)
        seat = o.seat
        for deal in sample_deals(o, Random(i), 2):
            other = redeal(game, deal)
            hand = other.hand
            assert hand is not None
            assert [hand.hands[s] for s in range(4)] == list(deal)
            before = player.act(o)
            assert player.act(other.observation(seat)) == before
