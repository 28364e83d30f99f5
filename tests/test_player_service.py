"""The jass-kit HTTP protocol both ways, between real processes: `chibre player-service` called
by jass-kit's own ``AgentByNetwork``, and jass-kit's own player service (its Flask app) seated
in our arena as ``jasskit-http:URL/NAME``."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest
from jass.agents.agent_by_network import AgentByNetwork
from jass.agents.agent_random_schieber import AgentRandomSchieber
from jass.arena.arena import Arena
from playwright.sync_api import Browser

from browser_support import artifacts, new_page
from chibre.actions import Play
from chibre.bots import make_player
from chibre.cards import cards_of, parse_card
from chibre.deal import deal_cards
from chibre.game import CHANCE, Game
from chibre.jasskit import RULES, observation_from_json, observation_to_json
from chibre.notation import record_from_dict
from chibre.play import legal_cards
from chibre.remote import JasskitHttpPlayer
from server_support import create_table, free_port, http_json, running_server, server_env

HERE = Path(__file__).resolve().parent
PRINTED = re.compile(r"player rule at (http://127\.0\.0\.1:\d+)/rule")


def wait_for(url: str, process: subprocess.Popen[str], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def ours() -> Iterator[str]:
    """`chibre player-service` serving rule and strong; yields its base URL."""
    command = [
        sys.executable, "-m", "chibre.cli", "player-service", "--port", "0",
        "--player", "rule", "--player", "strong", "--time-per-move", "0.05",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, env=server_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = PRINTED.search(line)
        assert found, line
        base = found.group(1)
        wait_for(base + "/rule", process)
        yield base
    finally:
        stop(process)


@pytest.fixture(scope="module")
def theirs() -> Iterator[str]:
    """jass-kit's own player service app (tests/jasskit_service.py); yields its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(HERE / "jasskit_service.py"), str(port)],
        env=server_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/random", process)
        yield base
    finally:
        stop(process)


def post(url: str, body: Any, content_type: str = "application/json") -> tuple[int, Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def kit_observation(seed: int = 1) -> dict[str, Any]:
    """A V0.2 observation of the seat to play, after a contract and two cards."""
    game = Game(RULES.replace(first_chooser="right_of_dealer"))
    game.apply(deal_cards(Random(seed), 0))
    hand = game.hand
    assert hand is not None
    rule = make_player("rule")
    while hand.contract < 0 or len(hand.trick) < 2:
        seat = game.current_player
        assert seat is not None
        game.apply(rule.act(game.observation(seat)), seat)
    seat = game.current_player
    assert seat is not None
    return observation_to_json(game.observation(seat))


# --- chibre player-service, called by jass-kit's AgentByNetwork ----------------------------


def test_jasskit_arena_plays_our_rule_player_through_the_service(
    ours: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="jass.agents.agent_by_network")
    arena = Arena(nr_games_to_play=16, print_every_x_games=100)
    arena.set_players(
        AgentByNetwork(ours + "/rule"), AgentRandomSchieber(),
        AgentByNetwork(ours + "/rule"), AgentRandomSchieber(),
    )  # fmt: skip
    arena.play_all_games()
    assert arena.nr_games_played == 16
    # AgentByNetwork silently falls back to a random agent when the service fails: it never did
    assert [r.getMessage() for r in caplog.records] == []
    assert arena.points_team_0.sum() + arena.points_team_1.sum() == 16 * 157
    assert arena.points_team_0.sum() > arena.points_team_1.sum()  # rule beats random


def test_the_strong_player_answers_the_kit_within_its_budget(
    ours: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="jass.agents.agent_by_network")
    # the kit's random agents undertrump as its rules allow and ours do not: strong still reads
    # their hands (a failed answer is logged by AgentByNetwork, which then plays at random)
    arena = Arena(nr_games_to_play=8, print_every_x_games=100)
    strong = AgentByNetwork(ours + "/strong", timeout=10)
    arena.set_players(strong, AgentRandomSchieber(), strong, AgentRandomSchieber())
    arena.play_all_games()
    assert arena.nr_games_played == 8
    assert [r.getMessage() for r in caplog.records] == []


def test_the_service_reads_only_the_viewers_cards(ours: str) -> None:
    obs = kit_observation()
    status, answer = post(ours + "/rule/action_play_card", obs)
    assert status == 200
    ours_view = observation_from_json(obs)
    assert Play(parse_card(answer["card"])) in ours_view.legal_actions
    # the other hands filled in with cards changes nothing: they are never read
    leaked = json.loads(json.dumps(obs))
    others = {f"{s}{r}" for s in "DHSC" for r in ("6", "7")} - set(obs["player"][0]["hand"])
    for p in range(4):
        if p != obs["playerView"]:
            leaked["player"][p]["hand"] = sorted(others)[:2]
    assert post(ours + "/rule/action_play_card", leaked) == (200, answer)


def test_the_service_refuses_what_the_kit_refuses(ours: str) -> None:
    obs = kit_observation()
    status, answer = post(ours + "/nobody/action_play_card", obs)
    assert status == 400 and "player not found" in answer["error"]
    assert post(ours + "/rule/action_play_card", b"trump=1", "text/plain")[0] == 415
    status, answer = post(ours + "/rule/action_play_card", {**obs, "trump": 9})
    assert status == 400 and answer["field"] == "trump"
    status, answer = post(ours + "/rule/action_trump", obs)  # the contract is named already
    assert status == 400 and "does not ask its player for a contract" in answer["error"]
    status, answer = post(ours + "/rule/action_play_card", {**obs, "version": "V0.1"})
    assert status == 400 and "V0.2" in answer["error"]
    status, _ = post(ours + "/rule/game_info", obs)
    assert status == 200
    status, answer = post(ours + "/rule/game_info", b"notjson", "application/json")
    assert status == 400 and "not JSON" in answer["error"]
    # a hand that cannot be the player's after the tricks told: said, not a failure
    viewer = obs["playerView"]
    short = json.loads(json.dumps(obs))
    short["player"][viewer]["hand"] = short["player"][viewer]["hand"][:-1]
    status, answer = post(ours + "/rule/action_play_card", short)
    assert status == 400 and "cards" in answer["error"], answer
    with urllib.request.urlopen(ours + "/rule", timeout=5) as r:
        assert json.loads(r.read()) == "Player rule here"
    # its OpenAPI document says a refusal as it is served: 400, never FastAPI's 422
    with urllib.request.urlopen(ours + "/openapi.json", timeout=5) as r:
        document = json.loads(r.read())
    codes = {
        code
        for path in document["paths"].values()
        for op in path.values()
        for code in op["responses"]
    }
    assert "400" in codes and "422" not in codes


# --- jass-kit's own service at our tables --------------------------------------------------


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chibre.cli", "arena", *args, "--jobs", "1", "--seed", "3"],
        env=server_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_chibre_arena_seats_the_kits_own_service(theirs: str) -> None:
    # strong thinks 0.1 s a move; the kit bot has 1 s (ample for a random agent)
    done = arena(
        "strong", f"jasskit-http:{theirs}/random", "--deals", "1",
        "--time-per-move", "0.1", "--foreign-limit", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # 1 deal played twice: the kit's bot holds two seats for 9 cards each, and a contract or a
    # push when it chooses
    found = re.search(
        r"foreign decisions: (\d+), time limit 1 s a move; replaced by rule: 0 \(none\)",
        done.stdout,
    )
    assert found, done.stdout
    assert 36 <= int(found.group(1)) <= 40
    assert "strong vs jasskit-http:" in done.stdout


def test_a_late_bot_gets_the_fallback_and_it_is_reported(theirs: str) -> None:
    done = arena("rule", f"jasskit-http:{theirs}/slow", "--deals", "1", "--foreign-limit", "0.2")
    assert done.returncode == 0, done.stderr
    found = re.search(
        r"foreign decisions: (\d+), time limit 0\.2 s a move; "
        r"replaced by rule: (\d+) \((\d+) late\)",
        done.stdout,
    )
    assert found, done.stdout
    assert found.group(1) == found.group(2) == found.group(3)  # every decision was too late
    assert "rule plays instead" in done.stderr


def test_illegal_cards_and_failures_get_the_fallback(theirs: str) -> None:
    first = JasskitHttpPlayer(f"{theirs}/first", time_limit=5)
    broken = JasskitHttpPlayer(f"{theirs}/broken", time_limit=5)
    gone = JasskitHttpPlayer(f"http://127.0.0.1:{free_port()}/random", time_limit=5)

    for deal_seed in range(3):
        game = Game(RULES)
        game.apply(deal_cards(Random(deal_seed), 0))
        seats = [first, broken, gone, make_player("random", deal_seed)]
        while game.hand is not None and not game.hand.is_over:
            seat = game.current_player
            assert seat is not None
            game.apply(seats[seat].act(game.observation(seat)), seat)  # always legal
    kinds = {i.kind for i in first.incidents}
    assert kinds == {"illegal"}  # ♦ is always a contract; its first card is sometimes illegal
    assert first.decisions > len(first.incidents) > 0
    assert {i.kind for i in broken.incidents} == {"refused"}
    assert len(broken.incidents) == broken.decisions
    assert {i.kind for i in gone.incidents} == {"unreachable"}


def test_chibre_bot_seats_the_kits_service_at_a_table_of_our_server(
    theirs: str, tmp_path: Path
) -> None:
    with running_server(tmp_path) as base:
        answer = create_table(base, ["human", "rule", "rule", "rule"], options={"target": 300})
        link = base + answer["seats"][0]["link"]
        spec = f"jasskit-http:{theirs}/random"
        done = subprocess.run(
            [sys.executable, "-m", "chibre.cli", "bot", link, "--player", spec, "--quiet"],
            env=server_env(), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "game over: team" in done.stdout and "0 refused" in done.stdout
        # every decision was the kit bot's, but for a card our rules refuse (the kit's random
        # agent may undertrump where the kit's own rules let it)
        replaced = [line for line in done.stderr.splitlines() if "rule plays instead" in line]
        assert all(": illegal (" in line for line in replaced), replaced
        status, summary = http_json(
            base, f"/api/tables/{answer['table']}?token={link.split('seat=')[1]}"
        )
        assert status == 200 and summary["finished"]


def move_of(record: dict[str, Any], at: int) -> tuple[int, int]:
    """The hand and the replay's move that show the record's entry ``at`` (each hand's deal
    is an entry, then its actions)."""
    start = 0
    for h, hand in enumerate(record["hands"]):
        if at <= start + len(hand["actions"]):
            return h, at - start
        start += 1 + len(hand["actions"])
    raise AssertionError(f"no entry {at}")


def test_a_misbehaving_kit_bot_at_a_table_leaves_its_incidents_in_the_record(
    theirs: str, tmp_path: Path, browser: Browser
) -> None:
    db = tmp_path / "chibre.sqlite"
    with running_server(tmp_path, db=db) as base:
        answer = create_table(base, ["human", "human", "rule", "rule"], options={"target": 300})
        links = [base + answer["seats"][s]["link"] for s in (0, 1)]
        bots = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "chibre.cli",
                    "bot",
                    link,
                    "--quiet",
                    "--player",
                    f"jasskit-http:{theirs}/{name}",
                    "--foreign-limit",
                    "5",
                ],
                env=server_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for link, name in zip(links, ("first", "broken"), strict=True)
        ]
        for bot in bots:
            out, err = bot.communicate(timeout=180)
            assert bot.returncode == 0, err
            assert "game over: team" in out and "0 refused" in out  # the fallback was legal
            assert "rule plays instead" not in err, err  # --quiet: the result, no warnings
        token = links[0].split("seat=")[1]
        status, record = http_json(
            base, f"/api/tables/{answer['table']}/record?format=json&token={token}"
        )
        # the replay shows each incident at its move: the broken bot's first, at its seat
        page = new_page(browser)
        page.goto(links[1] + "&replay=1")
        replay = page.locator("#replay")
        replay.wait_for()
        refused = next(i for i in record["incidents"] if i["seat"] == 1)
        hand, move = move_of(record, refused["at"])
        page.select_option("#rp-hand", str(hand))
        page.locator("body").focus()
        for _ in range(move):
            page.keyboard.press("ArrowRight")
        assert replay.get_attribute("data-move") == str(move)
        shown = page.locator("#rp-note .rp-incident").all_inner_texts()
        assert any("a refused request" in t and "the fallback decided" in t for t in shown), shown
        page.screenshot(path=artifacts() / "replay-incident.png")
        page.keyboard.press("ArrowLeft")
        assert all(
            "a refused request" not in t for t in page.locator(".rp-incident").all_inner_texts()
        )
        assert not page.errors  # type: ignore[attr-defined]
        page.close()
    assert status == 200
    with sqlite3.connect(db) as c:
        (seats,) = c.execute("SELECT seats FROM game_tables").fetchone()
        entries = c.execute("SELECT COUNT(*) FROM game_entries").fetchone()[0]
    stored = json.loads(seats)
    first, broken = stored[0].get("incidents", []), stored[1].get("incidents", [])
    assert "incidents" not in stored[2] and "incidents" not in stored[3]  # our own players
    # the "first" bot plays its first card in the kit's order whether legal or not: each of
    # its decisions where that card was not legal is an incident, and only those (how many
    # there are depends on the deal)
    assert len(first) == kit_first_illegal(record, seat=0)
    assert {i["kind"] for i in first} <= {"illegal"}
    assert all("is not legal now" in i["detail"] for i in first)
    assert broken and {i["kind"] for i in broken} == {"refused"}
    assert all("answered 500" in i["detail"] for i in broken)
    for i in first + broken:
        assert 0 < i["at"] < entries and i["seconds"] >= 0
    # the broken bot failed every decision: one incident for each move of its seat
    moves = sum(len([a for a in h["actions"] if a["seat"] == 1]) for h in record["hands"])
    assert len(broken) == moves
    kinds = {(0, "illegal")} if first else set()
    assert {(d["seat"], d["kind"]) for d in record["incidents"]} == kinds | {(1, "refused")}
    assert len(record["incidents"]) == len(first) + len(broken)


def kit_first_illegal(record: dict[str, Any], seat: int) -> int:
    """How many of ``seat``'s card decisions in ``record`` the kit's "first" bot answers with
    a card the rules refuse: its first card in the kit's order (♦ ♥ ♠ ♣, each from the ace)."""
    game = Game(record_from_dict(record).rules)
    illegal = 0
    for who, entry in record_from_dict(record).entries:
        if who == seat and isinstance(entry, Play):
            hand = game.hand
            assert hand is not None
            held = hand.hands[seat]
            first = min(cards_of(held), key=lambda c: (c // 9, -(c % 9)))
            illegal += not legal_cards(held, tuple(hand.trick), hand.contract) >> first & 1
        game.apply(entry, None if who == CHANCE else who)
    return illegal


def test_chibre_tournament_seats_kit_bots_and_writes_their_incidents(
    theirs: str, tmp_path: Path
) -> None:
    players = f"jasskit-http:{theirs}/broken,rule,jasskit-http:{theirs}/random,rule"
    done = subprocess.run(
        [sys.executable, "-m", "chibre.cli", "tournament", "--format", "round-robin",
         "--players", players, "--rounds", "1", "--hands", "2", "--foreign-limit", "5",
         "--out", str(tmp_path)],
        env=server_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "foreign players' decisions replaced by rule:" in done.stdout
    records = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("round-*.json"))]
    assert records
    for record in records:
        seats = record["tournament"]["seats"]
        broken = [
            s for s, who in enumerate(seats) if who.startswith(f"jasskit-http:{theirs}/broken")
        ]
        moves = [a for h in record["hands"] for a in h["actions"] if a["seat"] in broken]
        incidents = record.get("incidents", [])
        # every decision of the broken bot is an incident of its seat; the random bot has none
        assert len(incidents) == len(moves) > 0
        assert {(i["seat"] in broken, i["kind"]) for i in incidents} == {(True, "refused")}
        entries = sum(1 + len(h["actions"]) for h in record["hands"])
        assert all(0 < i["at"] < entries and i["seconds"] >= 0 for i in incidents)
