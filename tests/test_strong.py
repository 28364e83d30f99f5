"""The computer players ``easy``, ``medium``, ``strong`` and ``cheat``.

- every decision is legal, under every preset, in the contract and in the play;
- honesty: re-dealing every card a seat cannot know (the game replayed on the new cards)
  never changes its decision;
- the cheat plays a solver-optimal card when few tricks are left;
- in clear positions the player finds the obvious card and the obvious contract.
"""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from chibre import CHANCE, Chibre, Choose, Deal, Game, Play, Rules, Thank, parse_card, parse_cards
from chibre.bots import make_player
from chibre.bots.cheat import CheatPlayer
from chibre.bots.policy import shipped_policy
from chibre.bots.sampling import hand_counts, sample_deals
from chibre.bots.solver import Position, card_results, card_values
from chibre.bots.strong import LEVELS, GameSituation, StrongPlayer, margin, short_list
from chibre.play import CARD_POINTS
from chibre.rules import PRESETS
from test_sampling import random_position, redeal


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_decision_is_legal_under_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    players = [StrongPlayer(seat, "easy") for seat in range(4)]
    rng = Random(preset)
    game = Game(rules)
    for _ in range(2):  # two whole hands, contract and play
        if game.is_over:
            break
        game.deal(rng)
        while game.current_player not in (CHANCE, None):
            seat = game.current_player
            assert seat is not None
            obs = game.observation(seat)
            action = players[seat].act(obs)
            assert action in obs.legal_actions
            game.apply(action, seat)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_decisions_are_legal_in_random_positions(level: str) -> None:
    player = StrongPlayer(3, level)
    variants = [Rules.preset(name) for name in PRESETS] + [
        Rules(auto_weis=False, auto_stoeck=False, target=700),
        Rules(pique_double="choice", multipliers="pique_double", chibre_back=True),
    ]
    for i in range(12 if level == "easy" else 6):
        game = random_position(variants[i % len(variants)], 100 + i)
        seat = game.current_player
        assert seat is not None and seat >= 0
        obs = game.observation(seat)
        assert player.act(obs) in obs.legal_actions


def test_the_player_declares_weis_and_stoeck_when_the_table_lets_it() -> None:
    rules = Rules(auto_weis=False, auto_stoeck=False, first_chooser="right_of_dealer")
    hands = (
        parse_cards("♥6 ♥7 ♥8 ♥K ♥Q ♠A ♦A ♣A ♣K"),
        parse_cards("♦6 ♦7 ♦9 ♦10 ♠6 ♠7 ♠8 ♣6 ♣7"),
        parse_cards("♦8 ♦J ♦Q ♦K ♠9 ♠10 ♠J ♣8 ♣9"),
        parse_cards("♥9 ♥10 ♥J ♥A ♠Q ♠K ♣10 ♣J ♣Q"),
    )
    game = Game(rules)
    game.apply(Deal(hands, 3))
    game.apply(Choose(1))  # ♥ trump: seat 0 holds ♥6-♥8 and the stöck
    player = StrongPlayer(0, "easy")
    action = player.act(game.observation(0))
    assert isinstance(action, Play) and action.weis == (parse_cards("♥6 ♥7 ♥8"),)


def test_thanks_only_when_it_wins() -> None:
    rules = Rules(claim="thank", target=300)
    game = Game(rules)
    rng = Random(2)
    player = StrongPlayer(0, "easy")
    thanked = False
    while not game.is_over:
        if game.current_player == CHANCE:
            game.deal(rng)
            continue
        seat = game.current_player
        assert seat is not None
        obs = game.observation(seat)
        action = player.act(obs)
        if isinstance(action, Thank):
            assert game.totals[seat & 1] >= rules.target
            thanked = True
        game.apply(action, seat)
    assert thanked and game.winner >= 0


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_hidden_cards_never_change_a_decision(level: str) -> None:
    """The same public moment on a re-dealt game gives the same decision."""
    player = StrongPlayer(7, level)
    for i in range(10 if level == "easy" else 5):
        game = random_position(Rules.preset(list(PRESETS)[i % len(PRESETS)]), 500 + i)
        seat = game.current_player
        assert seat is not None and seat >= 0
        obs = game.observation(seat)
        for deal in sample_deals(obs, Random(i), 2):
            other = redeal(game, deal)
            hand = other.hand
            assert hand is not None
            assert [hand.hands[s] for s in range(4)] == list(deal)
            before = player.act(obs)
            assert player.act(other.observation(seat)) == before


@pytest.mark.parametrize("by_rollouts", [False, True])
def test_hidden_cards_never_change_the_contract(by_rollouts: bool) -> None:
    player = StrongPlayer(1, "medium")
    player.level = dataclasses.replace(player.level, contract_rollout=by_rollouts)
    for i in range(3):
        game = Game(Rules())
        game.deal(Random(40 + i))
        seat = game.current_player
        assert seat is not None and seat >= 0
        obs = game.observation(seat)
        for deal in sample_deals(obs, Random(i), 2):
            assert player.act(redeal(game, deal).observation(seat)) == player.act(obs)


def test_the_cheat_plays_a_solver_optimal_card_late_in_the_hand() -> None:
    cheat = CheatPlayer(0)
    checked = 0
    for i in range(30):
        game = random_position(Rules.preset(list(PRESETS)[i % len(PRESETS)]), 900 + i, 22)
        hand = game.hand
        assert hand is not None
        seat = hand.to_act
        obs = game.observation(seat)
        if 9 - len(obs.tricks) > 4 or len(obs.legal_actions) < 2:
            continue
        hands = (hand.hands[0], hand.hands[1], hand.hands[2], hand.hands[3])
        cheat.see(hands)
        action = cheat.act(obs)
        assert isinstance(action, Play)
        teams = {t.winner & 1 for t in obs.tricks}
        position = Position(
            hands, obs.contract, obs.trick_leader, obs.trick, (0 in teams, 1 in teams)
        )
        values = card_values(position)
        assert values[action.card] == max(values.values())
        checked += 1
    assert checked >= 5


def test_the_cheat_needs_to_see_the_hands() -> None:
    game = Game(Rules())
    game.deal(Random(3))
    seat = game.current_player
    assert seat is not None
    cheat = make_player("cheat")
    with pytest.raises(RuntimeError):
        cheat.act(game.observation(seat))


def _play_scripted(game: Game, script: dict[int, list[int]], keep: dict[int, int]) -> None:
    """Play until a seat with nothing left in its script is to act: seat 0 leads its script
    in order; the others play the first legal card they do not keep."""
    while True:
        hand = game.hand
        assert hand is not None
        seat = hand.to_act
        legal = hand.legal_cards()
        if script.get(seat):
            c = script[seat].pop(0)
        else:
            free = [c for c in range(36) if legal >> c & 1 and not keep.get(seat, 0) >> c & 1]
            if seat not in keep or not free:
                return
            c = free[0]
        game.apply(Play(c))


def test_takes_the_trick_with_the_bourg_to_make_the_match() -> None:
    """♥ trump. Seat 0 draws seven trumps; at trick 8 it leads ♣6, seat 1 plays ♣A. Seat 2
    holds the bourg ♥J (never forced out) and ♦A: the bourg takes this trick and ♦A the last,
    for the match — discarding ♦A gives the trick and the match away."""
    hands = (
        parse_cards("♥9 ♥A ♥K ♥Q ♥10 ♥8 ♥7 ♣6 ♠6"),
        parse_cards("♥6 ♣A ♦6 ♦7 ♦8 ♦9 ♠7 ♠8 ♠9"),
        parse_cards("♥J ♦A ♦10 ♦J ♠10 ♠J ♠Q ♠K ♠A"),
        parse_cards("♦Q ♦K ♣7 ♣8 ♣9 ♣10 ♣J ♣Q ♣K"),
    )
    game = Game(Rules(first_chooser="right_of_dealer", weis=False))
    game.apply(Deal(hands, 3))
    game.apply(Choose(1))
    leads = [parse_card(c) for c in ("♥9", "♥A", "♥K", "♥Q", "♥10", "♥8", "♥7", "♣6")]
    script = {0: leads, 1: [parse_card("♥6")]}
    keep = {1: parse_cards("♣A"), 2: parse_cards("♥J ♦A"), 3: parse_cards("♣K")}
    _play_scripted(game, script, keep)
    hand = game.hand
    assert hand is not None
    assert len(hand.tricks) == 7 and {t.winner for t in hand.tricks} == {0}
    game.apply(Play(parse_card("♣A")))
    assert hand.to_act == 2
    for level in ("easy", "medium"):
        action = StrongPlayer(0, level).act(game.observation(2))
        assert action == Play(parse_card("♥J"))


def test_does_not_throw_away_its_bock() -> None:
    """Obenabe, seat 0 leads ♦A; seat 1 has no ♦ and holds ♠A, the top spade (the Bock):
    it discards a card worth nothing, never the ace."""
    hands = (
        parse_cards("♦A ♦K ♦Q ♦J ♥A ♥K ♣A ♣K ♣Q"),
        parse_cards("♠A ♠6 ♠7 ♣6 ♣7 ♥6 ♥7 ♣9 ♥9"),
        parse_cards("♦6 ♦7 ♦8 ♦9 ♦10 ♥8 ♥10 ♥J ♥Q"),
        parse_cards("♠8 ♠9 ♠10 ♠J ♠Q ♠K ♣8 ♣10 ♣J"),
    )
    game = Game(Rules(first_chooser="right_of_dealer"))
    game.apply(Deal(hands, 3))
    game.apply(Choose(4))
    game.apply(Play(parse_card("♦A")))
    for level in ("easy", "medium"):
        action = StrongPlayer(0, level).act(game.observation(1))
        assert isinstance(action, Play)
        assert action.card != parse_card("♠A")
        assert CARD_POINTS[4][action.card] == 0


def _deal_around(hand: str, seed: int) -> Deal:
    """Seat 0 holds ``hand``; the other 27 cards are shuffled to seats 1..3; seat 0 chooses."""
    own = parse_cards(hand)
    rest = [c for c in range(36) if not own >> c & 1]
    Random(seed).shuffle(rest)
    others = [sum(1 << c for c in rest[9 * i : 9 * i + 9]) for i in range(3)]
    return Deal((own, others[0], others[1], others[2]), 3)


def test_names_the_obvious_trump() -> None:
    game = Game(Rules(first_chooser="right_of_dealer"))
    game.apply(_deal_around("♥J ♥9 ♥A ♥K ♥Q ♥10 ♥8 ♦6 ♣6", 1))
    assert StrongPlayer(0, "medium").act(game.observation(0)) == Choose(1)


def test_chibres_a_hand_without_a_contract() -> None:
    game = Game(Rules(first_chooser="right_of_dealer"))
    game.apply(_deal_around("♦9 ♦10 ♥10 ♥J ♠9 ♠10 ♣J ♣10 ♦8", 1))
    assert StrongPlayer(0, "medium").act(game.observation(0)) == Chibre()


def test_pique_double_is_taken_with_a_strong_spade_hand() -> None:
    game = Game(Rules.make(first_chooser="right_of_dealer", pique_double="choice"))
    game.apply(_deal_around("♠J ♠9 ♠A ♠K ♠Q ♠10 ♠7 ♦7 ♣6", 1))
    assert StrongPlayer(0, "medium").act(game.observation(0)) == Choose(2, True)


def test_near_the_target_a_deal_is_valued_by_the_game() -> None:
    game = random_position(Rules(target=1000), 12, 8)
    obs = game.observation(game.current_player or 0)
    far = GameSituation(obs)
    assert not far.matters and far.value(10) == 10.0  # far from the target a point is a point
    assert far.left == 88
    # 150 short of the target with 88 points left: only a match (88 + 100) gets there
    match_only = GameSituation(dataclasses.replace(obs, totals=(850, 0), seat=0))
    assert match_only.matters
    assert match_only.value(10) < match_only.value(30) < match_only.value(88)
    assert match_only.value(188) > match_only.value(88) + 500
    near = GameSituation(dataclasses.replace(obs, totals=(980, 0), seat=0))
    assert near.matters
    assert near.value(20) > near.value(19) + 500  # 20 points reach the target: the game


def test_margin_counts_a_match_whole() -> None:
    assert margin(257) == 257 and margin(-100) == -257 and margin(100) == 43
    assert margin(0) == -157  # a trick without points spoils their match


def test_a_conceded_match_ranks_below_a_spoiled_one() -> None:
    # ♠ trump, team 0 has taken every trick; seat 0 led ♦8. Seat 1 must take it with ♦9:
    # both cards leave team 1 no points, but ♦7 lets team 0 make match.
    hands = tuple(parse_cards(h) for h in ("♠6", "♦7 ♦9", "♥6 ♥7", "♣7 ♥8"))
    position = Position(
        hands=hands,  # type: ignore[arg-type]
        contract=2,
        leader=0,
        trick=(parse_card("♦8"),),
        taken=(True, False),
    )
    scores = card_results(position).card_scores
    assert scores[parse_card("♦7")] == -100
    assert scores[parse_card("♦9")] == 0
    situation = GameSituation(random_position(Rules(), 3, 30).observation(0))
    assert situation.value(-100) < situation.value(0)


def test_levels_and_names() -> None:
    assert set(LEVELS) == {"easy", "medium", "strong", "expert"}
    for name in LEVELS:
        assert make_player(name, 1).name == name
    with pytest.raises(ValueError):
        StrongPlayer(0, "master")


def test_a_time_per_move_scales_the_budget_not_the_clock() -> None:
    base = StrongPlayer(0, "medium")
    half = StrongPlayer(0, "medium", time_per_move=0.05)
    assert half.level.samples < base.level.samples and half.level.nodes < base.level.nodes
    game = random_position(Rules(), 21)
    seat = game.current_player
    assert seat is not None and seat >= 0
    obs = game.observation(seat)
    assert half.act(obs) == StrongPlayer(0, "medium", time_per_move=0.05).act(obs)


def test_the_policy_short_lists_the_contracts_searched() -> None:
    grid = Rules().grid
    plain = parse_cards("♥J ♥9 ♥A ♥K ♥Q ♥10 ♥8 ♦6 ♣6")
    policy = shipped_policy().contract_probs(plain, False, grid)
    assert short_list(hand_counts(plain), policy, grid, 0.9) == [1]  # hearts, nothing else
    assert len(short_list(hand_counts(plain), policy, grid, 0.0)) == 3  # by the hand count
    flat = [1 / 6] * 6
    assert short_list(hand_counts(plain), flat, grid, 0.9) == [0, 1, 2]  # never more than 3
    assert short_list(hand_counts(plain), flat, grid, 0.3) == [0, 1]  # ties: the first ones
    three = short_list(hand_counts(plain), policy, grid, 1.0)  # the three likeliest, always
    assert len(three) == 3 and 1 in three
    assert all(policy[k] >= policy[j] for k in three for j in range(6) if j not in three)
