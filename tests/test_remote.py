"""Player specs (chibre.remote) and the V0.2 observation JSON (chibre.jasskit), checked against
the jass-kit's own reading and writing of it."""

from __future__ import annotations

import http.server
import threading
import time
from random import Random

import pytest
from jass.game.game_observation import GameObservation

from chibre.arena import accepts_budget, build_player, duplicate
from chibre.bots import make_player
from chibre.bots.jasskit_agents import observation_from_jasskit, observation_to_jasskit
from chibre.deal import deal_cards
from chibre.errors import ChibreError, NotationError
from chibre.game import Game
from chibre.jasskit import RULES, observation_from_json, observation_to_json
from chibre.observation import Observation
from chibre.player_service import players_from
from chibre.remote import JasskitHttpPlayer, is_spec, make_remote


def kit_hand_observations(seed: int) -> list[Observation]:
    """Every observation of the seat to act in one hand of four rule players (kit rules)."""
    rules = RULES.replace(first_chooser="right_of_dealer")
    game = Game(rules)
    rng = Random(seed)
    game.apply(deal_cards(rng, rng.randrange(4)))
    rule = make_player("rule", seed)
    seen = []
    while game.hand is not None and not game.hand.is_over:
        seat = game.current_player
        assert seat is not None
        o = game.observation(seat)
        seen.append(o)
        game.apply(rule.act(o), seat)
    return seen


def comparable(o: Observation) -> tuple[object, ...]:
    """What the V0.2 format carries of an observation."""
    return (
        o.seat, o.chooser, o.phase, o.to_act, o.hand, o.chibres, o.contract, o.contract_seat,
        o.tricks, o.trick, o.trick_leader if o.contract >= 0 else -1, o.hand_points,
        set(o.legal_actions),
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_our_v02_json_is_the_kits(seed: int) -> None:
    for o in kit_hand_observations(seed):
        ours = observation_to_json(o)
        kit = observation_to_jasskit(o).to_json()
        assert ours == kit
        back = observation_from_json(ours)
        assert comparable(back) == comparable(o)
        via_kit = observation_from_jasskit(GameObservation.from_json(kit))
        assert comparable(back) == comparable(via_kit)


def test_a_bad_observation_says_what_is_wrong() -> None:
    o = observation_to_json(kit_hand_observations(0)[5])
    for change, words in (
        ({"version": "V0.1"}, "only 'V0.2'"),
        ({"trump": 8}, "trump = 8"),
        ({"playerView": 7}, "playerView = 7"),
        ({"player": []}, "four entries"),
        ({"tricks": [{"cards": ["X9"]}]}, "X9"),
    ):
        with pytest.raises(NotationError, match=words):
            observation_from_json({**o, **change})
    del o["dealer"]
    with pytest.raises(NotationError, match="missing key 'dealer'"):
        observation_from_json(o)


def test_specs_name_foreign_players() -> None:
    assert is_spec("examples.lowest_card:LowestCard")
    assert is_spec("jasskit-http:http://127.0.0.1:5000/random")
    assert not is_spec("strong") and not is_spec("rule")
    player = make_player("jasskit-http:http://127.0.0.1:5000/random")
    assert isinstance(player, JasskitHttpPlayer) and player.time_limit == 10.0
    assert isinstance(make_remote("jasskit-http:http://h:1/x", time_limit=0.5), JasskitHttpPlayer)
    for bad, words in (
        ("jasskit-http:127.0.0.1:5000", "the service's address and the bot's name"),
        ("jasskit-http:http://127.0.0.1:5000", "the service's address and the bot's name"),
        ("no_such_module:Bot", "cannot load the player"),
        ("chibre.cards:SUITS", "cannot load the player"),
        ("chibre.actions:Chibre", "no act"),
        ("not a: spec", "neither module:Class"),
    ):
        with pytest.raises(ChibreError, match=words):
            make_remote(bad)
    rule = make_player("chibre.bots.rule:RulePlayer", 4)
    assert rule.act(kit_hand_observations(1)[0]) is not None


def test_our_budget_and_the_foreign_limit_are_two_settings() -> None:
    foreign = build_player("jasskit-http:http://127.0.0.1:5000/random", 0, 0.25, 3.0)
    assert isinstance(foreign, JasskitHttpPlayer) and foreign.time_limit == 3.0
    default = build_player("jasskit-http:http://127.0.0.1:5000/random", 0, 0.25)
    assert isinstance(default, JasskitHttpPlayer) and default.time_limit == 10.0
    strong, plain = build_player("strong", 0, 0.25, 3.0), build_player("strong", 0)
    assert strong.level != plain.level  # the budget scaled ours; the limit did not touch it
    assert strong.level == build_player("strong", 0, 0.25).level
    assert not accepts_budget("jasskit-http:http://127.0.0.1:5000/random")
    with pytest.raises(ChibreError, match="--foreign-limit must be a positive"):
        duplicate("rule", "random", deals=1, jobs=1, foreign_limit=0)
    served = players_from(["kit=jasskit-http:http://127.0.0.1:5000/random", "rule"], 0, 0.2, 3.0)
    assert isinstance(served["kit"], JasskitHttpPlayer) and served["kit"].time_limit == 3.0


class Trickle(http.server.BaseHTTPRequestHandler):
    """A service that answers at once, then sends its body a byte every 0.2 s."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b'{"trump": 0}                    '
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        for i in range(len(body)):
            self.wfile.write(body[i : i + 1])
            self.wfile.flush()
            time.sleep(0.2)

    def log_message(self, *args: object) -> None:
        pass


def test_a_reply_sent_a_byte_at_a_time_is_late() -> None:
    """The time limit bounds the whole reply, not each read of it."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Trickle)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        player = JasskitHttpPlayer(f"http://127.0.0.1:{server.server_port}/slow", time_limit=0.5)
        o = kit_hand_observations(1)[0]
        start = time.monotonic()
        action = player.act(o)
        took = time.monotonic() - start
    finally:
        server.shutdown()
    assert action in o.legal_actions
    assert [i.kind for i in player.incidents] == ["late"] and took < 2.0, took
