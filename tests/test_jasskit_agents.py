"""Our players at the HSLU jass-kit's table and the kit's agents at ours (jass-kit installed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest
from jass.agents.agent_random_schieber import AgentRandomSchieber
from jass.arena.arena import Arena
from jass.game.const import PUSH, card_strings
from jass.game.game_observation import GameObservation
from jass.game.game_sim import GameSim
from jass.game.rule_schieber import RuleSchieber

from chibre import CHANCE, Game, Rules
from chibre.actions import Chibre, Choose, Play
from chibre.bots import make_player
from chibre.bots.jasskit_agents import (
    JASSKIT_RULES,
    JasskitAgent,
    JasskitPlayer,
    JasskitRandomPlayer,
    action_from_trump,
    card_from_jasskit,
    card_to_jasskit,
    observation_from_jasskit,
    observation_to_jasskit,
    seat_from_jasskit,
    seat_to_jasskit,
    trump_from_action,
)
from chibre.cards import card_code, cards_of, parse_card
from chibre.deal import deal_cards
from chibre.errors import IllegalAction, IllegalCard
from chibre.jasskit import check_hand
from chibre.observation import Observation
from chibre.play import legal_cards

SRC = Path(__file__).resolve().parents[1] / "src"


OUR_PLAYERS = ["random", "rule"]


def is_legal(action: Any, obs: Observation) -> bool:
    """By type too: Chibre() and Thank() are equal as empty tuples."""
    return any(type(a) is type(action) and a == action for a in obs.legal_actions)


def kit_random(seed: int) -> AgentRandomSchieber:
    agent = AgentRandomSchieber()
    agent._rng = np.random.default_rng(seed)
    return agent


def kit_valid(obs: Any) -> set[int]:
    """The cards (ours) the kit's own rule lets the observed player play."""
    valid = RuleSchieber().get_valid_cards_from_obs(obs)
    return {card_from_jasskit(int(i)) for i in np.flatnonzero(valid)}


def play_kit_hand(agents: list[Any], rng: Random, dealer_jk: int) -> Any:
    """One hand in the kit's simulator, every answer checked by the kit's own rules."""
    sim = GameSim(rule=RuleSchieber())
    deal = deal_cards(rng, seat_from_jasskit(dealer_jk))
    hands = np.zeros((4, 36), np.int32)
    for seat in range(4):
        for c in cards_of(deal.hands[seat]):
            hands[seat_to_jasskit(seat), card_to_jasskit(c)] = 1
    sim.init_from_cards(hands, dealer_jk)
    while sim.state.trump < 0:
        obs = sim.get_observation()
        trump = agents[obs.player].action_trump(obs)
        allowed = [*range(6), PUSH] if obs.forehand == -1 else list(range(6))
        assert trump in allowed
        sim.action_trump(trump)
    while not sim.is_done():
        obs = sim.get_observation()
        card = agents[obs.player].action_play_card(obs)
        assert RuleSchieber().get_valid_cards_from_obs(obs)[card] == 1, card_strings[card]
        sim.action_play_card(card)
    return sim.state


# --- cards, seats, contracts -----------------------------------------------------------------


def test_cards_and_seats_map_both_ways() -> None:
    for c in range(36):
        assert card_strings[card_to_jasskit(c)] == card_code(c)
        assert card_from_jasskit(card_to_jasskit(c)) == c
    assert [seat_from_jasskit(p) for p in range(4)] == [0, 3, 2, 1]
    assert all(seat_to_jasskit(seat_from_jasskit(p)) == p for p in range(4))


def test_push_is_chibre_and_contract_codes_agree() -> None:
    assert action_from_trump(PUSH) == Chibre()
    assert action_from_trump(6) == Chibre()  # the kit's PUSH_ALT
    assert [action_from_trump(k) for k in range(6)] == [Choose(k) for k in range(6)]
    assert trump_from_action(Chibre()) == PUSH
    assert trump_from_action(Choose(4)) == 4  # Obe-abe = Obenabe
    assert trump_from_action(Choose(5)) == 5  # Une-ufe = Undenufe
    with pytest.raises(IllegalAction, match="pique double"):
        trump_from_action(Choose(2, True))
    with pytest.raises(IllegalAction, match=r"not 0\.\.5"):
        action_from_trump(7)


# --- our players in the kit's simulator ------------------------------------------------------


@pytest.mark.parametrize("name", OUR_PLAYERS)
def test_our_players_play_whole_kit_hands_against_its_random_agent(name: str) -> None:
    rng = Random(11)
    hands = 12 if name == "random" else 6
    pushes = 0
    for n in range(hands):
        ours = [JasskitAgent(make_player(name, seed=n * 4 + s)) for s in (0, 1)]
        kits = [kit_random(n * 4 + s) for s in (2, 3)]
        agents = [ours[0], kits[0], ours[1], kits[1]]  # N and S ours, E and W the kit's
        state = play_kit_hand(agents, rng, dealer_jk=n % 4)
        pushes += state.forehand == 0
        assert int(state.points[0]) + int(state.points[1]) == 157
        # the same hand replays under our rules with the same score
        result = check_hand(state.to_json())
        assert result.ok, result.message
        assert result.hand is not None
        assert result.hand.score().tricks == (int(state.points[0]), int(state.points[1]))
    assert pushes > 0  # the push path was taken at least once


def test_kit_arena_seats_our_players_with_its_move_check() -> None:
    arena = Arena(nr_games_to_play=4, print_every_x_games=100, check_move_validity=True)
    arena.set_players(
        JasskitAgent(make_player("random", 1)),
        kit_random(2),
        JasskitAgent(make_player(OUR_PLAYERS[-1], 3)),
        kit_random(4),
    )
    arena.play_all_games()
    assert arena.nr_games_played == 4
    assert all(a + b == 157 for a, b in zip(arena.points_team_0, arena.points_team_1, strict=True))


# --- the kit's agent in our engine -----------------------------------------------------------


def test_kit_random_agent_plays_a_whole_game_of_ours_legally() -> None:
    rules = Rules.preset("romand", target=1000)
    game = Game(rules)
    rng = Random(5)
    kit = {1: JasskitRandomPlayer(seed=1), 3: JasskitRandomPlayer(seed=3)}
    players = {0: make_player("random", 0), 2: make_player("random", 2), **kit}
    kit_moves = 0
    checked_refusals = 0
    while not game.is_over:
        if game.current_player == CHANCE:
            game.deal(rng)
            continue
        seat = game.current_player
        assert seat is not None
        obs = game.observation(seat)
        player = players[seat]
        before = len(player.refused) if isinstance(player, JasskitPlayer) else 0
        action = player.act(obs)
        assert is_legal(action, obs)
        if isinstance(player, JasskitPlayer):
            kit_moves += 1
            if len(player.refused) > before:
                # the only cards refused are undertrumps the kit's looser check allows
                card, why = player.refused[-1]
                assert "undertrump" in why
                assert card in kit_valid(observation_to_jasskit(obs))
                assert not legal_cards(obs.hand, obs.trick, obs.contract) >> card & 1
                checked_refusals += 1
        game.apply(action, seat)
    assert game.winner in (0, 1)
    assert max(game.totals) >= 1000
    assert kit_moves > 36
    assert checked_refusals == sum(len(p.refused) for p in kit.values())
    # a seed replays the same game
    replayed, _ = game.record.replay()
    assert replayed.totals == game.totals


def test_kit_random_player_is_reproducible() -> None:
    def first_hand(seed: int) -> list[Any]:
        game = Game(JASSKIT_RULES)
        game.deal(Random(2))
        players = [JasskitRandomPlayer(seed + s) for s in range(4)]
        while game.hand is not None and not game.hand.is_over:
            seat = game.current_player
            assert seat is not None and seat >= 0
            game.apply(players[seat].act(game.observation(seat)), seat)
        return [a for _, a in game.record.entries]

    assert first_hand(7) == first_hand(7)


class _Stubborn:
    """A kit agent that always plays its first card, legal or not."""

    def action_trump(self, obs: Any) -> int:
        return 0

    def action_play_card(self, obs: Any) -> int:
        return int(np.flatnonzero(obs.hand)[0])


def test_strict_player_refuses_an_illegal_card_with_the_reason() -> None:
    rng = Random(0)
    for _ in range(200):
        game = Game(JASSKIT_RULES)
        game.deal(rng)
        game.apply(Choose(0))
        leader = game.current_player
        assert leader is not None
        assert game.hand is not None
        game.apply(Play(cards_of(game.hand.hands[leader])[-1]), leader)
        seat = game.current_player
        assert seat is not None
        obs = game.observation(seat)
        kit_first = card_from_jasskit(int(np.flatnonzero(observation_to_jasskit(obs).hand)[0]))
        if not legal_cards(obs.hand, obs.trick, obs.contract) >> kit_first & 1:
            break
    else:
        pytest.fail("no deal found where the first card is illegal")
    strict = JasskitPlayer(_Stubborn(), name="stubborn", strict=True)
    with pytest.raises(IllegalCard, match=r"stubborn plays .*must follow suit"):
        strict.act(obs)
    lenient = JasskitPlayer(_Stubborn(), name="stubborn")
    action = lenient.act(obs)
    assert is_legal(action, obs)
    assert lenient.refused and lenient.refused[0][0] == kit_first


# --- the observation conversion --------------------------------------------------------------

FIELDS = (
    "seat", "dealer", "chooser", "phase", "to_act", "hand", "chibres", "contract",
    "contract_seat", "tricks", "trick", "trick_leader", "hand_points", "legal_actions",
)  # fmt: skip


def _same(a: Observation, b: Observation) -> None:
    for name in FIELDS:
        assert getattr(a, name) == getattr(b, name), name


def test_our_observations_round_trip_through_the_kit() -> None:
    rng = Random(3)
    game = Game(JASSKIT_RULES.replace(target=2000))
    players = [make_player("random", s) for s in range(4)]
    positions = 0
    while not game.is_over and len(game.hands) <= 4:
        if game.current_player == CHANCE:
            game.deal(rng)
            continue
        seat = game.current_player
        assert seat is not None
        for view in range(4):  # the seat to act and the others watching
            obs = game.observation(view)
            back = observation_from_jasskit(observation_to_jasskit(obs), obs.rules)
            _same(obs, back)
            positions += 1
        game.apply(players[seat].act(game.observation(seat)), seat)
    assert positions > 4 * 36 * 3


def test_kit_observations_round_trip_through_ours() -> None:
    rng = Random(4)
    positions = 0
    for n in range(6):
        agents = [kit_random(n * 4 + p) for p in range(4)]
        sim = GameSim(rule=RuleSchieber())
        deal = deal_cards(rng, 0)
        hands = np.zeros((4, 36), np.int32)
        for seat in range(4):
            for c in cards_of(deal.hands[seat]):
                hands[seat_to_jasskit(seat), card_to_jasskit(c)] = 1
        sim.init_from_cards(hands, n % 4)
        while not sim.is_done():
            obs = sim.get_observation()
            ours = observation_from_jasskit(obs)
            assert observation_to_jasskit(ours) == obs
            if ours.phase == "play":
                # our legal cards are the kit's, less the undertrumps it wrongly allows
                legal = {a.card for a in ours.legal_actions if isinstance(a, Play)}
                assert legal <= kit_valid(obs)
                if kit_valid(obs) - legal:
                    assert ours.contract < 4  # the kit's undertrump check
                sim.action_play_card(agents[obs.player].action_play_card(obs))
            else:
                assert ours.legal_actions[-1:] == (
                    (Chibre(),) if obs.forehand == -1 else (Choose(5),)
                )
                sim.action_trump(agents[obs.player].action_trump(obs))
            positions += 1
    assert positions >= 6 * 37


# --- an optional extra -----------------------------------------------------------------------


def _python(code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def test_without_jass_kit_the_import_names_the_extra() -> None:
    run = _python("import sys; sys.modules['jass'] = None; import chibre.bots.jasskit_agents")
    assert run.returncode == 1
    assert "ImportError" in run.stderr
    assert "'reference'" in run.stderr and "pip install '.[reference]'" in run.stderr


def test_the_rest_of_chibre_never_imports_jass_kit() -> None:
    run = _python(
        "import sys, chibre, chibre.bots, chibre.cli, chibre.terminal\n"
        "print(sorted(m for m in sys.modules if m == 'jass' or m.startswith('jass.')))"
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


class _Plays:
    """A kit agent that always answers one card."""

    def __init__(self, code: str) -> None:
        self.code = code

    def action_trump(self, obs: Any) -> int:
        return 1

    def action_play_card(self, obs: Any) -> int:
        return int(list(card_strings).index(self.code))


def test_the_kits_undertrump_slip_is_refused_at_our_table() -> None:
    # trump ♥, trick ♣10 ♥J ♥10, hand {♥A, ♠6, ♠7}: the kit allows ♥A, the rules do not
    kit_obs = GameObservation.from_json(
        {
            "version": "V0.2", "trump": 1, "dealer": 1, "currentPlayer": 1, "playerView": 1,
            "forehand": 1, "jassTyp": "SCHIEBER",
            "tricks": [{"cards": ["C10", "HJ", "H10"], "first": 0}],
            "player": [{"hand": []}, {"hand": ["HA", "S6", "S7"]}, {"hand": []}, {"hand": []}],
        }
    )  # fmt: skip
    ours = observation_from_jasskit(kit_obs)
    ha = parse_card("HA")
    assert ha in kit_valid(kit_obs)
    assert {a.card for a in ours.legal_actions if isinstance(a, Play)} == {
        parse_card("S6"),
        parse_card("S7"),
    }
    player = JasskitPlayer(_Plays("HA"), name="kit")
    action = player.act(ours)
    assert is_legal(action, ours)
    assert player.refused == [(ha, player.refused[0][1])]
    assert "undertrump" in player.refused[0][1]
    with pytest.raises(IllegalCard, match="undertrump"):
        JasskitPlayer(_Plays("HA"), strict=True).act(ours)
    # our player, as a kit agent, answers from the legal cards only
    card = JasskitAgent(make_player("random", 0)).action_play_card(kit_obs)
    assert card_strings[card] in ("S6", "S7")


def test_the_kits_random_agent_sits_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from chibre.bots import PLAYERS
    from chibre.bots.jasskit_agents import PLAYER_ENTRY

    monkeypatch.setitem(PLAYERS, "jasskit-random", PLAYER_ENTRY)
    game = Game(JASSKIT_RULES)
    game.deal(Random(6))
    players = [make_player("jasskit-random", s) for s in range(4)]
    assert all(isinstance(p, JasskitRandomPlayer) and p.name == "jasskit-random" for p in players)
    while game.hand is not None and not game.hand.is_over:
        seat = game.current_player
        assert seat is not None and seat >= 0
        game.apply(players[seat].act(game.observation(seat)), seat)
    assert sum(game.hand.score().tricks) == 157
