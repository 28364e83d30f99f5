"""A player's games and figures (``chibre.server.history``, ``POST /api/history``)."""

from __future__ import annotations

from pathlib import Path
from random import Random

from chibre.arena import build_player
from chibre.game import Game
from chibre.options import rules_from
from chibre.server.history import SeatGame, figures
from chibre.server.store import SeatInfo, StoredTable
from server_support import create_table, http_json, running_server


def game_to_the_target(seed: int) -> Game:
    """A game of four `rule` players to 300, ended the moment a team reaches it."""
    game = Game(rules_from("romand", ["target=300"]))
    rng = Random(seed)
    players = [build_player("rule", seed * 10 + s) for s in range(4)]
    while not game.is_over:
        if game.current_player == -1:
            game.deal(rng)
        else:
            seat = game.current_player
            assert seat is not None
            game.apply(players[seat].act(game.observation(seat)), seat)
    return game


def test_the_contract_of_the_hand_the_game_ended_in_counts() -> None:
    """The figures count the hands played to their end, and every contract chosen — that of
    the hand cut short by the target too."""
    infos = tuple(SeatInfo("human" if s == 0 else "rule", "") for s in range(4))
    cut_short = 0
    for seed in range(12):
        game = game_to_the_target(seed)
        last = game.hands[-1]
        for seat in range(4):
            f = figures([SeatGame(StoredTable(f"t{seed}", game.rules, infos, ""), game, seat)])
            named = [h.contract for h in game.hands if h.contract_seat == seat and h.contract >= 0]
            assert sum(f["contracts"]) == len(named)
            assert all(f["contracts"][c] == named.count(c) for c in range(6))
            assert f["hands"] == sum(h.is_over for h in game.hands)
            chosen_whole = [h for h in game.hands if h.is_over and h.contract_seat == seat]
            assert f["chosen"] == len(chosen_whole)
        cut_short += not last.is_over
    assert cut_short >= 3  # the case this is about happened


def test_the_games_are_listed_newest_first(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        made = [create_table(base) for _ in range(3)]
        held = [
            {"table": t["table"], "token": t["seats"][0]["link"].split("seat=")[1]} for t in made
        ]
        for order in (held, held[::-1], [held[1], held[0], held[2]]):
            status, answer = http_json(base, "/api/history", {"seats": order})
            assert status == 200, answer
            assert [g["table"] for g in answer["games"]] == [t["table"] for t in made[::-1]]
