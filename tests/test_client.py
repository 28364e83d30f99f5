"""chibre.client and `chibre bot` against a real `chibre serve` over real WebSockets."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect as ws_connect

from chibre.actions import Thank
from chibre.bots import make_player
from chibre.client import SeatRefused, observation_from_view, play_seat, seat_socket_url
from chibre.errors import ChibreError
from chibre.game import Game
from chibre.notation import record_from_json
from server_support import (
    create_table,
    http_json,
    running_server,
    server_env,
    start_server,
    stop_server,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "examples.lowest_card:LowestCard"


def record_of(base: str, link: str) -> Any:
    table, token = link.split("/t/")[1].split("?seat=")
    url = f"{base}/api/tables/{table}/record?format=json&token={token}"
    with urllib.request.urlopen(url, timeout=10) as r:
        return record_from_json(r.read().decode())


def test_seat_links_become_socket_urls() -> None:
    assert seat_socket_url("http://h:8000/t/abc?seat=T0K") == "ws://h:8000/ws/abc?token=T0K"
    assert seat_socket_url("https://h/t/abc?seat=T") == "wss://h/ws/abc?token=T"
    assert seat_socket_url("ws://h/ws/abc?token=T") == "ws://h/ws/abc?token=T"
    bad_links = ("h:8000/t/abc", "http://h/t/abc", "http://h/x?seat=T", "ftp://h/t/a?seat=T")
    for bad in (*bad_links, "ws://h/ws/abc?watch=W"):  # a spectator's socket opens no seat
        with pytest.raises(ChibreError):
            seat_socket_url(bad)


def test_two_clients_play_a_game_and_see_exactly_their_seats_observation(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path) as base:
        answer = create_table(base, ["human", "rule", "human", "rule"], options={"target": 400})
        links = [base + answer["seats"][s]["link"] for s in (0, 2)]
        states: dict[int, list[dict[str, Any]]] = {0: [], 2: []}
        sys.path.insert(0, str(ROOT))
        try:
            example = make_player(EXAMPLE)
        finally:
            sys.path.remove(str(ROOT))

        async def both() -> list[Any]:
            return list(
                await asyncio.gather(
                    play_seat(links[0], make_player("rule", 3), on_state=states[0].append),
                    play_seat(links[1], example, on_state=states[2].append),
                )
            )

        results = asyncio.run(asyncio.wait_for(both(), 120))
        record = record_of(base, links[0])
    game, _ = record.replay()
    assert game.is_over
    for seat, result in zip((0, 2), results, strict=True):
        assert result.finished and result.refusals == [] and result.connections == 1
        assert result.view["totals"] == list(game.totals)
        acted = sum(1 for s, _ in record.entries if s == seat)
        assert result.decisions == acted > 9
    # every state read back is the observation the engine gives that seat at that moment
    checked = 0
    for seat, frames in states.items():
        for frame in frames:
            replay = Game(record.rules)
            for s, action in record.entries[: frame["seq"]]:
                replay.apply(action, None if s < 0 else s)
            assert observation_from_view(frame["view"]) == replay.observation(seat)
            checked += 1
    assert checked > 40


def hands_dealt(base: str, link: str) -> int:
    table, token = link.split("/t/")[1].split("?seat=")
    with urllib.request.urlopen(f"{base}/api/tables/{table}?token={token}", timeout=5) as r:
        return int(json.loads(r.read())["hands"])


def test_the_client_reconnects_with_its_token_after_a_server_restart(tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    slow = ("--deal-delay", "0.3")  # time to restart the server in the middle of the game
    process, base = start_server(db, *slow)
    port = int(base.rsplit(":", 1)[1])
    try:
        answer = create_table(base, ["human", "rule", "rule", "rule"], options={"target": 800})
        link = base + answer["seats"][0]["link"]

        async def play() -> Any:
            nonlocal process
            task = asyncio.create_task(play_seat(link, make_player("rule")))
            while await asyncio.to_thread(hands_dealt, base, link) < 2:
                await asyncio.sleep(0.05)
            assert not task.done()
            await asyncio.to_thread(stop_server, process)
            process, _ = await asyncio.to_thread(start_server, db, *slow, port=port)
            return await asyncio.wait_for(task, 120)

        result = asyncio.run(play())
        assert result.finished and result.connections >= 2 and result.refusals == []
        game, _ = record_of(base, link).replay()
        assert game.is_over and result.view["totals"] == list(game.totals)
    finally:
        stop_server(process)


def test_a_wrong_token_is_refused(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        answer = create_table(base, ["human", "rule", "rule", "rule"])
        table = answer["table"]
        with pytest.raises(SeatRefused, match="does not open"):
            asyncio.run(play_seat(f"{base}/t/{table}?seat=nottheone", make_player("rule")))


def test_chibre_bot_seats_the_example_bot(tmp_path: Path) -> None:
    with running_server(tmp_path) as base:
        answer = create_table(base, ["human", "rule", "rule", "rule"], options={"target": 300})
        link = base + answer["seats"][0]["link"]
        done = subprocess.run(
            [sys.executable, "-m", "chibre.cli", "bot", link, "--player", EXAMPLE, "--quiet"],
            cwd=ROOT, env=server_env(), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        game, _ = record_of(base, link).replay()
        assert game.is_over
        totals = f"{game.totals[0]}:{game.totals[1]}"
        assert f"game over: team {game.winner} won {totals}" in done.stdout
        assert "0 refused" in done.stdout
        bad = subprocess.run(
            [sys.executable, "-m", "chibre.cli", "bot", link, "--player", "nosuch:Thing"],
            cwd=ROOT, env=server_env(), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert bad.returncode == 2 and "cannot load the player 'nosuch:Thing'" in bad.stderr
        # the finished game's link, once a rematch was asked for: the rematch is named
        with ws_connect(seat_socket_url(link)) as ws:
            ws.send(json.dumps({"type": "rematch"}))
            frame = json.loads(ws.recv(timeout=10))
            while not (frame.get("type") == "state" and frame["table"].get("next")):
                frame = json.loads(ws.recv(timeout=10))
        again = subprocess.run(
            [sys.executable, "-m", "chibre.cli", "bot", link, "--quiet"],
            cwd=ROOT, env=server_env(), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        rematch = link.replace(answer["table"], frame["table"]["next"])
        assert again.returncode == 0 and f"its rematch: {rematch}" in again.stdout, again.stdout


class Unruly:
    """A bot that answers nothing (``None``), fails, or thinks past the table's time limit on
    every third decision, by its ``how``."""

    name = "unruly"

    def __init__(self, how: str) -> None:
        self.how = how
        self.calls = 0

    def act(self, observation: Any) -> Any:
        self.calls += 1
        if self.how == "none":
            return None
        if self.how == "raise":
            raise RuntimeError("a bug in the bot")
        if self.calls % 3 == 0:
            time.sleep(1.2)  # the table's clock makes this move meanwhile
        return next(a for a in observation.legal_actions if not isinstance(a, Thank))


@pytest.mark.parametrize("how", ["none", "raise", "slow"])
def test_a_bot_that_fails_or_is_late_never_forfeits_nor_plays_a_stale_card(
    tmp_path: Path, how: str
) -> None:
    """An answer that is no legal action, or a bot that raises, is replaced by the first
    legal action (never a thanks, which would give the game away); an answer the table moved
    past is not sent, so that it is never played in the next trick."""
    with running_server(tmp_path, "--bot-delay", "0", "--deal-delay", "0") as base:
        status, answer = http_json(
            base,
            "/api/tables",
            {
                "seats": ["human", "rule", "rule", "rule"],
                # no weis: a weis at the first trick could end the game before seat 0 decides
                "options": {"target": 150, "claim": "thank", "weis": False},
                "move_limit": 0.5 if how == "slow" else 0,
            },
        )
        assert status == 200, answer
        link = base + answer["seats"][0]["link"]
        bot = Unruly(how)
        result = asyncio.run(asyncio.wait_for(play_seat(link, bot), 120))
        game, _ = record_of(base, link).replay()
    assert game.is_over and result.finished and bot.calls > 3
    thanked = any(isinstance(a, Thank) for s, a in game.record.entries if s == 0)
    if how == "slow":  # the table's computer, moving for the seat, may rightly thank
        assert not thanked or game.winner == 0
        # an answer sent before the computer's move reached the client is refused, not played
        assert {code for code, _ in result.refusals} <= {"moved_on"}
    else:
        assert not thanked
        assert result.refusals == []  # nothing stale, nothing illegal was sent


def test_a_seat_open_elsewhere_too_is_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with running_server(tmp_path, "--bot-delay", "0") as base:
        answer = create_table(base, ["human", "rule", "rule", "rule"], options={"target": 150})
        link = base + answer["seats"][0]["link"]
        with (
            ws_connect(seat_socket_url(link), max_queue=None),  # someone else on the seat
            caplog.at_level(logging.WARNING, logger="chibre.client"),
        ):
            result = asyncio.run(asyncio.wait_for(play_seat(link, make_player("rule")), 60))
    assert result.finished
    warned = [r.getMessage() for r in caplog.records if "open elsewhere" in r.getMessage()]
    assert warned == ["seat 0 is open elsewhere too: two players may answer for it"]
