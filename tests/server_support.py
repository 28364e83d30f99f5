"""Shared helpers for the server tests: a real ``chibre serve`` subprocess on a free port
(the server binds port 0 and prints the port it got).

    with running_server(tmp_path) as base_url:          # "http://127.0.0.1:PORT"
        ...

The server stores everything in ``tmp_path / "chibre.sqlite"`` (or the ``db`` given), deals
and lets computer seats act without delay, and is stopped when the block ends.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
ADDRESS = re.compile(rb"the table is at (http://127\.0\.0\.1:\d+)/")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (for a test that restarts a
    server on the same address)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_command(port: int, db: Path, *extra_args: str) -> list[str]:
    """The command line of a test server (delays 0 unless ``extra_args`` say otherwise)."""
    return [
        sys.executable, "-m", "chibre.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", str(db), "--no-browser", "--bot-delay", "0", "--deal-delay", "0",
        "--tables-per-minute", "100000", *extra_args,
    ]  # fmt: skip


def server_env() -> dict[str, str]:
    """The environment of a test server: ``src`` first on PYTHONPATH."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH", "")]))
    env["PYTHONUNBUFFERED"] = "1"
    return env


def wait_until_up(
    base_url: str, process: subprocess.Popen[bytes], timeout: float = 60, log: Path | None = None
) -> None:
    """Poll ``GET /api/players`` until the server answers; raise if it exits or never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = log.read_text(errors="replace") if log and log.exists() else ""
            raise RuntimeError(f"the server exited with {process.returncode}:\n{out}")
        try:
            with urllib.request.urlopen(base_url + "/api/players", timeout=1) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"the server at {base_url} did not answer within {timeout} s")


def printed_address(
    process: subprocess.Popen[bytes], log: Path, offset: int, timeout: float = 60
) -> str | None:
    """The base URL the server printed in ``log`` after ``offset``; ``None`` if it exited
    without printing one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with log.open("rb") as f:
            f.seek(offset)
            found = ADDRESS.search(f.read())
        if found:
            return found.group(1).decode()
        if process.poll() is not None:
            return None
        time.sleep(0.05)
    raise RuntimeError(f"the server printed no address within {timeout} s")


@cache
def search_compiled() -> None:
    """Compile the search into numba's cache once, before the first server starts: on a fresh
    clone the first compile takes longer than a page waits for a hint or an advice."""
    from chibre.bots.solver import warm_up

    warm_up()


def start_server(
    db: Path, *extra_args: str, port: int | None = None, attempts: int = 5
) -> tuple[subprocess.Popen[bytes], str]:
    """Start a server subprocess on ``db`` and wait until it answers: (process, base_url).
    Without ``port`` the server takes a free one (``--port 0``); with one, a port still held
    by a server that is stopping is tried again. What the server prints goes to ``db`` with
    the suffix ``.log``."""
    search_compiled()
    log = db.with_suffix(".log")
    for attempt in range(attempts):
        offset = log.stat().st_size if log.exists() else 0
        with log.open("ab") as out:
            process = subprocess.Popen(
                server_command(port or 0, db, *extra_args),
                env=server_env(),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            base_url = printed_address(process, log, offset)
            if base_url is None:  # it could not listen (the port is taken): again
                if attempt == attempts - 1:
                    wait_until_up("", process, log=log)  # raises, with the server's output
                time.sleep(0.5)
                continue
            wait_until_up(base_url, process, log=log)
        except BaseException:
            stop_server(process)
            raise
        return process, base_url
    raise RuntimeError(f"the server could not listen on port {port}")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop a server subprocess (terminate, then kill) and close its pipe."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def running_server(tmp_path: Path, *extra_args: str, db: Path | None = None) -> Iterator[str]:
    """A real ``chibre serve`` on a free port of 127.0.0.1 with a temporary SQLite file;
    yields the base URL ("http://127.0.0.1:PORT") and stops the server afterwards."""
    process, base_url = start_server(db or tmp_path / "chibre.sqlite", *extra_args)
    try:
        yield base_url
    finally:
        stop_server(process)


def http_json(
    base_url: str, path: str, body: Any = None, method: str | None = None, lang: str = ""
) -> tuple[int, Any]:
    """A JSON request to the server (``lang``: the page's language): (status, decoded body).
    Errors are returned, not raised. Waits up to 30 s: a first question to the coach starts
    its pool of workers, which takes seconds on a loaded machine."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if lang:
        headers["Accept-Language"] = lang
    request = urllib.request.Request(
        base_url + path,
        data=data,
        method=method or ("GET" if body is None else "POST"),
        headers=headers,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, raw.decode(errors="replace")


def create_table(
    base_url: str,
    seats: list[str] | None = None,
    preset: str = "romand",
    options: dict[str, Any] | None = None,
    names: list[str | None] | None = None,
) -> dict[str, Any]:
    """``POST /api/tables``; returns the answer (raises unless 200)."""
    body = {
        "preset": preset,
        "options": options or {},
        "seats": seats or ["human", "rule", "rule", "rule"],
        "names": names or [None, None, None, None],
    }
    status, answer = http_json(base_url, "/api/tables", body)
    if status != 200:
        raise AssertionError(f"creating a table failed: {status} {answer}")
    assert isinstance(answer, dict)
    return answer


def ws_url(base_url: str, link: str) -> str:
    """The WebSocket URL of an invite or watch link ("/t/ID?seat=TOKEN" or "?watch=TOKEN")."""
    path, _, query = link.partition("?")
    table = path.rsplit("/", 1)[-1]
    key, _, token = query.partition("=")
    param = "token" if key == "seat" else "watch"
    return base_url.replace("http://", "ws://", 1) + f"/ws/{table}?{param}={token}"


@contextmanager
def opened(db: Path) -> Iterator[sqlite3.Connection]:
    """A connection of the test's own, in autocommit, closed (its log written back) after."""
    c = sqlite3.connect(db, isolation_level=None)
    try:
        yield c
    finally:
        c.close()
