"""The server under fuzzing, over real HTTP and real WebSockets.

- Schemathesis generates requests from the server's own OpenAPI document, valid and invalid,
  for every operation: never a 500, every refusal ``{"error": …}``.
- Hypothesis sends random and mutated bodies and WebSocket frames — deep nesting, huge
  numbers, lone surrogates, binary and oversized frames —: only documented error replies,
  never a dropped socket, the game unchanged, and another table still answering.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import hypothesis.strategies as st
import pytest
import schemathesis
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from chibre.server.protocol import ERROR_CODES, MAX_FRAME
from server_support import create_table, http_json, start_server, stop_server, ws_url

FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("fuzz") / "chibre.sqlite"
    process, url = start_server(db, "--max-connections-per-address", "10000")
    try:
        yield url
    finally:
        stop_server(process)


def test_the_http_api_never_fails_with_a_server_error(base: str) -> None:
    """Every operation of the OpenAPI document, with valid and invalid input."""
    schema = schemathesis.openapi.from_url(base + "/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15  # the tables' and the sheets' routes
    negative = 0
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @FUZZ
            def call(case: Any) -> None:
                response = case.call(timeout=10)
                where = (case.method, case.formatted_path, response.text[:300])
                assert response.status_code < 500, where
                if response.status_code >= 400:
                    assert isinstance(response.json()["error"], str), where

            try:
                call()
            except Unsatisfiable:  # nothing to get wrong: an operation with no input
                assert mode is GenerationMode.NEGATIVE, operation.label
            else:
                negative += mode is GenerationMode.NEGATIVE
    assert negative >= 10  # invalid input was sent to most operations


def test_the_openapi_document_says_refusals_as_they_are_served(base: str) -> None:
    """A refused body is a 400 ``{"error", "field"}``, and the document says so (not 422)."""
    status, schema = http_json(base, "/api/openapi.json")
    assert status == 200
    responses = [
        (path, method, code)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        for code in operation["responses"]
    ]
    assert not [r for r in responses if r[2] == "422"]
    assert ("/api/tables", "post", "400") in responses
    refusal = schema["components"]["schemas"]["Refusal"]
    status, answer = http_json(base, "/api/tables", {"seats": "four"})
    assert status == 400 and set(answer) <= set(refusal["properties"]) and answer["field"]


def _nasty_json() -> st.SearchStrategy[str]:
    """Text that is JSON, nearly JSON, or JSON meant to hurt."""
    leaf = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=False),
        st.text(max_size=20),
    )
    values = st.recursive(leaf, lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner))
    return st.one_of(
        values.map(json.dumps),
        st.integers(1, 200_000).map(lambda n: "[" * n + "]" * n),
        st.integers(1, 50_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
        st.integers(300, 6000).map(lambda n: '{"target": 1' + "0" * n + "}"),
        st.just('{"name": "\\ud800"}'),
        st.just('{"type": "act", "action": {"kind": "play", "card": "\\udfff"}}'),
        st.text(max_size=200),
        values.map(json.dumps).map(lambda t: t[: len(t) // 2]),
    )


@given(body=_nasty_json(), route=st.sampled_from(["/api/tables", "/api/sheets"]))
@FUZZ
def test_nasty_bodies_get_a_clear_refusal(base: str, body: str, route: str) -> None:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        base + route,
        data=body.encode("utf-8", "surrogatepass"),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            status, answer = r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        status, answer = e.code, json.loads(e.read())
    assert status in (200, 201, 400, 413, 429), (status, answer)
    if status >= 400:
        assert isinstance(answer["error"], str) and answer["error"]


def _frames() -> st.SearchStrategy[str | bytes]:
    acts = st.fixed_dictionaries(
        {
            "type": st.sampled_from(["act", "ping", "chat", 7]),
            "action": st.one_of(
                st.none(),
                st.fixed_dictionaries(
                    {
                        "kind": st.sampled_from(["play", "choose", "chibre", "x"]),
                        "card": st.text(max_size=4),
                        "contract": st.integers(-3, 10**20),
                        "weis": st.lists(st.lists(st.text(max_size=3), max_size=12), max_size=12),
                    }
                ),
            ),
        }
    ).map(json.dumps)
    return st.one_of(
        acts,
        _nasty_json().map(lambda t: t[: 3 * MAX_FRAME]),
        st.binary(max_size=2 * MAX_FRAME),
    )


async def _ping(base: str, link: str) -> float:
    async with websockets.connect(ws_url(base, link)) as ws:
        await ws.recv()
        start = time.perf_counter()
        await ws.send('{"type":"ping"}')
        while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
            pass
        return time.perf_counter() - start


@pytest.fixture(scope="module")
def tables(base: str) -> dict[str, Any]:
    """A table whose seat 0 is fuzzed (all four seats human: nothing moves on its own) and an
    unrelated table to time."""
    return {
        "fuzzed": create_table(base, ["human"] * 4),
        "other": create_table(base, ["human", "rule", "rule", "rule"]),
    }


@given(frames=st.lists(_frames(), min_size=1, max_size=8))
@FUZZ
def test_random_frames_get_documented_errors_and_change_nothing(
    base: str, tables: dict[str, Any], frames: list[str | bytes]
) -> None:
    fuzzed = tables["fuzzed"]
    links = [s["link"] for s in fuzzed["seats"]]

    async def run() -> tuple[list[dict[str, Any]], int, int]:
        async with websockets.connect(ws_url(base, fuzzed["watch"])) as watcher:
            to_act = json.loads(await watcher.recv())["view"]["to_act"]
        waiting = links[(to_act + 1) % 4]  # a seat whose turn it is not: nothing it sends plays
        async with websockets.connect(ws_url(base, waiting), max_size=2**20) as ws:
            first = json.loads(await ws.recv())
            replies = []
            for frame in frames:
                await ws.send(frame)
                # a ping after each frame: its pong says the frame was answered (or ignored)
                await ws.send('{"type":"ping"}')
                while True:
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if reply["type"] == "pong":
                        break
                    replies.append(reply)
            async with websockets.connect(ws_url(base, fuzzed["watch"])) as watcher:
                after = json.loads(await watcher.recv())
            return replies, first["seq"], after["seq"]

    replies, before, after = asyncio.run(run())
    for reply in replies:
        assert reply["type"] in ("error", "state"), reply
        if reply["type"] == "error":
            assert reply["code"] in ERROR_CODES and reply["message"], reply
    assert after == before  # the game is as it was


def test_the_other_table_answers_as_fast_after_the_fuzzing(
    base: str, tables: dict[str, Any]
) -> None:
    link = tables["other"]["seats"][0]["link"]
    latencies = [asyncio.run(_ping(base, link)) for _ in range(5)]
    assert min(latencies) < 0.25, latencies
    status, _ = http_json(base, "/api/presets")
    assert status == 200


def test_an_oversized_frame_is_closed_with_a_code(base: str, tables: dict[str, Any]) -> None:
    link = tables["fuzzed"]["seats"][2]["link"]

    async def run() -> tuple[dict[str, Any], int | None]:
        async with websockets.connect(ws_url(base, link), max_size=2**20) as ws:
            await ws.recv()
            await ws.send("x" * (2 * MAX_FRAME))
            too_large = json.loads(await asyncio.wait_for(ws.recv(), 10))
            await ws.send("x" * (200 * 1024))  # past the socket's own limit
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            return too_large, closed.value.rcvd.code if closed.value.rcvd else None

    too_large, code = asyncio.run(run())
    assert too_large["type"] == "error" and too_large["code"] == "too_large"
    assert code == 1009  # message too big: a close code, not a dropped socket
