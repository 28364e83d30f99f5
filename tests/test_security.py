"""Same-origin by default (chibre.server.security) against a real ``chibre serve``: another
site's pages can open no WebSocket and change nothing, a rebound host name is refused, bodies
are JSON only, and every answer carries the security headers."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import websockets
from playwright.sync_api import Browser
from websockets.exceptions import InvalidStatus

from browser_support import new_page
from chibre.server.security import (
    CSP,
    SECURITY_HEADERS,
    HostName,
    InvalidSiteName,
    Origin,
    RefusedHostLog,
    SiteGuard,
    SitePolicy,
    allowed_host,
    allowed_origin,
    parse_host,
    parse_origin,
)
from server_support import create_table, http_json, running_server, server_env, ws_url

FOREIGN = "http://evil.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp("security")
    with running_server(tmp) as base:
        yield base, tmp / "chibre.sqlite"


def request(
    base: str,
    path: str,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """An HTTP request with exactly these headers: (status, headers by lower-case name, body)."""
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def json_request(base: str, path: str, method: str, data: Any, **headers: str) -> tuple[int, Any]:
    head = {"Content-Type": "application/json", **headers}
    status, _, raw = request(base, path, method, json.dumps(data).encode(), head)
    return status, json.loads(raw)


def port_of(base: str) -> int:
    port = urlsplit(base).port
    assert port is not None
    return port


def tables_stored(db: Path) -> int:
    with sqlite3.connect(db) as c:
        count: int = c.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0]
        return count


def new_sheet(base: str) -> tuple[str, str]:
    status, view = http_json(base, "/api/sheets", {"name": "Montag", "preset": "romand"})
    assert status == 201
    return view["id"], view["key"]


def handshake(
    url: str, origin: str | None = None, connect_to: int | None = None
) -> tuple[str, Any]:
    """Open a WebSocket: ("open", first frame) or ("refused", (status, body)). With
    ``connect_to``, the connection goes to that port of 127.0.0.1 whatever host ``url``
    names (its ``Host`` header)."""

    async def go() -> tuple[str, Any]:
        extra: dict[str, Any] = {"host": "127.0.0.1", "port": connect_to} if connect_to else {}
        headers = {"Origin": origin} if origin else {}
        try:
            async with websockets.connect(url, additional_headers=headers, **extra) as ws:
                return "open", json.loads(await asyncio.wait_for(ws.recv(), 10))
        except InvalidStatus as e:
            return "refused", (e.response.status_code, json.loads(e.response.body or b"{}"))

    return asyncio.run(go())


# --- what a Host and an Origin are --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("127.0.0.1:8000", HostName("127.0.0.1", 8000)),
        ("LocalHost", HostName("localhost", None)),
        ("[::1]:8000", HostName("::1", 8000)),
        ("[::1]", HostName("::1", None)),
        ("::1", HostName("::1", None)),
        ("chibre.example.org.:443", HostName("chibre.example.org", 443)),
    ],
)
def test_a_host_header_is_read_as_name_and_port(text: str, host: HostName) -> None:
    assert parse_host(text) == host


@pytest.mark.parametrize(
    "text", ["", "a b", "evil.example/x", "user@evil.example", "x:0", "x:99999", "x:8o", "[1::"]
)
def test_what_names_no_host_is_refused(text: str) -> None:
    assert parse_host(text) is None
    with pytest.raises(InvalidSiteName, match="not a host name"):
        allowed_host(text)


def test_an_origin_has_its_port_made_explicit() -> None:
    assert parse_origin("https://Chibre.Example.org") == Origin(
        "https", HostName("chibre.example.org", 443)
    )
    assert str(parse_origin("http://127.0.0.1:80")) == "http://127.0.0.1"
    for bad in ("null", "ftp://x", "https://x/path", "https://", "x.example", "https://a@b"):
        assert parse_origin(bad) is None
        with pytest.raises(InvalidSiteName, match="not an origin"):
            allowed_origin(bad)


def test_the_policy_by_the_address_listened_on() -> None:
    local = SitePolicy.for_server("127.0.0.1")
    assert local.answers_to(HostName("localhost", 8000))
    assert not local.answers_to(HostName("192.168.1.5", 8000))
    assert not local.answers_to(HostName("evil.example", 8000))
    lan = SitePolicy.for_server("0.0.0.0")  # friends reach it by the machine's address
    assert lan.answers_to(HostName("192.168.1.5", 8000))
    assert not lan.answers_to(HostName("evil.example", 8000))
    one = SitePolicy.for_server("192.168.1.5", hosts=["chibre.example:8443"])
    assert one.answers_to(HostName("192.168.1.5", None))
    assert one.answers_to(HostName("chibre.example", 8443))
    assert not one.answers_to(HostName("chibre.example", 8000))
    assert SitePolicy.for_server(hosts=["*"]).answers_to(HostName("evil.example", None))
    with pytest.raises(InvalidSiteName):
        SitePolicy.for_server(origins=["https://chibre.example/table"])


# --- against a real server ----------------------------------------------------------------


def test_a_websocket_from_another_site_is_refused(server: tuple[str, Path]) -> None:
    base, _ = server
    table = create_table(base, seats=["human", "rule", "rule", "rule"])
    url = ws_url(base, table["seats"][0]["link"])
    kind, (status, body) = handshake(url, origin=FOREIGN)
    assert (kind, status) == ("refused", 403)
    assert "'http://evil.example'" in body["error"] and "--allowed-origin" in body["error"]
    kind, (status, _) = handshake(url, origin="null")  # a sandboxed frame, a file
    assert (kind, status) == ("refused", 403)
    # the same seat from the table's own page, and from a client that sends no Origin
    for origin in (base, None):
        kind, frame = handshake(url, origin=origin)
        assert kind == "open" and frame["type"] == "state"


def test_a_websocket_by_another_host_name_is_refused(server: tuple[str, Path]) -> None:
    base, _ = server
    port = port_of(base)
    table = create_table(base, seats=["human", "rule", "rule", "rule"])
    path = ws_url(base, table["seats"][0]["link"]).removeprefix(f"ws://127.0.0.1:{port}")
    rebound = f"ws://evil.example:{port}{path}"  # a name of the attacker's, resolved to us
    kind, (status, body) = handshake(rebound, origin=f"http://evil.example:{port}", connect_to=port)
    assert (kind, status) == ("refused", 400)
    assert "'evil.example:" in body["error"] and "--allowed-host evil.example" in body["error"]
    kind, frame = handshake(f"ws://localhost:{port}{path}", connect_to=port)
    assert kind == "open" and frame["type"] == "state"


def test_another_sites_pages_change_nothing(server: tuple[str, Path]) -> None:
    base, db = server
    body = {"seats": ["human", "rule", "rule", "rule"]}
    before = tables_stored(db)
    for origin in (FOREIGN, "null", base.replace("127.0.0.1", "localhost")):
        status, answer = json_request(base, "/api/tables", "POST", body, Origin=origin)
        assert status == 403 and "refused" in answer["error"]
    assert tables_stored(db) == before
    sheet, key = new_sheet(base)
    path = f"/api/sheets/{sheet}?key={key}"
    for method, where, data in (
        ("PATCH", path, {"name": "Gestohlen"}),
        ("POST", f"/api/sheets/{sheet}/hands?key={key}", {"contract": "H", "points": 100}),
        ("POST", "/api/sheets", {"name": "Fremd"}),
    ):
        status, answer = json_request(base, where, method, data, Origin=FOREIGN)
        assert status == 403, (method, where)
    status, _, _ = request(base, path, "DELETE", headers={"Origin": FOREIGN})
    assert status == 403
    status, view = http_json(base, path)
    assert status == 200 and view["name"] == "Montag" and view["hands"] == []
    # the server's own pages may; so may a client without Origin
    status, _ = json_request(base, "/api/tables", "POST", body, Origin=base)
    assert status == 200
    status, _ = json_request(base, "/api/tables", "POST", body)
    assert status == 200
    assert tables_stored(db) == before + 2
    # a GET is no change: another site may link to the pages
    status, _, _ = request(base, "/api/presets", headers={"Origin": FOREIGN})
    assert status == 200


def test_another_host_name_is_refused(server: tuple[str, Path]) -> None:
    base, db = server
    port = port_of(base)
    before = tables_stored(db)
    for path in ("/", "/api/presets", "/tafel"):
        status, headers, raw = request(base, path, headers={"Host": f"evil.example:{port}"})
        assert status == 400, path
        assert headers["content-type"] == "application/json"
        error = json.loads(raw)["error"]
        assert f"'evil.example:{port}'" in error and "--allowed-host evil.example" in error
    status, answer = json_request(
        base, "/api/tables", "POST", {"seats": ["human"] * 4}, Host=f"evil.example:{port}"
    )
    assert status == 400 and "evil.example" in answer["error"]
    assert tables_stored(db) == before
    status, _, raw = request(base, "/", headers={"Host": "a b"})
    assert status == 400 and "names no host" in json.loads(raw)["error"]
    for name in (f"localhost:{port}", f"[::1]:{port}", "127.0.0.1"):
        status, _, _ = request(base, "/api/presets", headers={"Host": name})
        assert status == 200, name


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/tables"),
        ("POST", "/api/sheets"),
        ("POST", "/api/sheets/import"),
        ("PATCH", "/api/sheets/{id}?key={key}"),
        ("POST", "/api/sheets/{id}/hands?key={key}"),
        ("PUT", "/api/sheets/{id}/hands/1?key={key}"),
    ],
)
def test_a_body_that_is_not_said_to_be_json_is_refused(
    server: tuple[str, Path], method: str, path: str
) -> None:
    base, db = server
    sheet, key = new_sheet(base)
    where = path.format(id=sheet, key=key)
    body = json.dumps({"name": "Neu", "seats": ["human", "rule", "rule", "rule"]}).encode()
    before = tables_stored(db)
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 "application/json; charset=latin-1", None):  # fmt: skip
        headers = {"Content-Type": kind} if kind else {}
        status, answer_headers, raw = request(base, where, method, body, headers)
        assert status == 415, (kind, where)
        assert answer_headers["content-type"] == "application/json"
        assert "application/json" in json.loads(raw)["error"]
    assert tables_stored(db) == before
    status, view = http_json(base, f"/api/sheets/{sheet}?key={key}")
    assert view["name"] == "Montag" and view["hands"] == []


def test_json_with_its_charset_and_a_bodyless_delete_pass(server: tuple[str, Path]) -> None:
    base, _ = server
    sheet, key = new_sheet(base)
    path = f"/api/sheets/{sheet}?key={key}"
    status, _, raw = request(
        base, path, "PATCH", b'{"name": "Dienstag"}',
        {"Content-Type": "Application/JSON; charset=UTF-8"},
    )  # fmt: skip
    assert status == 200 and json.loads(raw)["name"] == "Dienstag"
    status, _, _ = request(base, path, "DELETE")
    assert status == 200
    assert http_json(base, path)[0] == 404


def test_every_answer_carries_the_security_headers(server: tuple[str, Path]) -> None:
    base, _ = server
    table = create_table(base, seats=["human", "rule", "rule", "rule"])
    link = table["seats"][0]["link"]
    sheet, key = new_sheet(base)
    token = link.partition("=")[2]
    answers = {
        "/": None,
        link: None,
        "/tafel": None,
        "/api/presets": None,
        f"/api/tables/{table['table']}?token={token}": None,
        f"/api/sheets/{sheet}?key={key}": None,
        "/cards/french/HA.svg": "public, max-age=86400",  # no token: cached a day
        "/cards/french/XX.svg": None,
        "/no/such/page": None,
        "/static/style.css": "",  # no token, may be cached
    }
    for path, cache in answers.items():
        status, headers, _ = request(base, path)
        assert status == (404 if "XX" in path or "such" in path else 200), path
        for name, value in SECURITY_HEADERS:
            assert headers.get(name) == value, (path, name)
        assert headers.get("cache-control", "") == (cache if cache is not None else "no-store")
    assert "frame-ancestors 'none'" in CSP and "'unsafe-inline'" not in CSP
    # a refusal carries them too
    status, headers, _ = request(base, "/", headers={"Host": "evil.example"})
    assert status == 400 and headers["x-frame-options"] == "DENY"


def test_allowed_hosts_and_origins_behind_a_proxy(tmp_path: Path) -> None:
    args = ("--allowed-host", "chibre.example", "--allowed-origin", "http://other.example:3000")
    with running_server(tmp_path, *args) as base:
        port = port_of(base)
        table = create_table(base)
        body = {"seats": ["human", "rule", "rule", "rule"]}
        # the proxy passes Host on, or rewrites it to the server's own address
        for host in ("chibre.example", f"127.0.0.1:{port}"):
            for origin in ("https://chibre.example", "http://other.example:3000"):
                status, _ = json_request(
                    base, "/api/tables", "POST", body, Host=host, Origin=origin
                )
                assert status == 200, (host, origin)
        for origin in ("http://other.example", "https://chibre.example.evil.example", FOREIGN):
            status, _ = json_request(base, "/api/tables", "POST", body, Origin=origin)
            assert status == 403, origin
        status, _, _ = request(base, "/api/presets", headers={"Host": "evil.example"})
        assert status == 400
        path = urlsplit(ws_url(base, table["seats"][0]["link"]))
        url = f"ws://chibre.example:{port}{path.path}?{path.query}"
        kind, frame = handshake(url, origin="https://chibre.example", connect_to=port)
        assert kind == "open" and frame["type"] == "state"


def test_any_host_behind_a_proxy_that_checks_it(tmp_path: Path) -> None:
    with running_server(tmp_path, "--allowed-host", "*") as base:
        status, _, _ = request(base, "/api/presets", headers={"Host": "chibre.example"})
        assert status == 200
        body = {"seats": ["human", "rule", "rule", "rule"]}
        status, _ = json_request(
            base, "/api/tables", "POST", body, Host="chibre.example", Origin=FOREIGN
        )
        assert status == 403  # the origin must still be the host asked for


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--allowed-host", "evil.example/path"], "not a host name"),
        (["--allowed-origin", "evil.example"], "not an origin"),
        (["--allowed-origin", "*"], "not an origin"),
    ],
)
def test_serve_refuses_a_bad_allowed_name(tmp_path: Path, args: list[str], words: str) -> None:
    command = [sys.executable, "-m", "chibre.cli", "serve", "--no-browser", "--port", "0",
               "--db", str(tmp_path / "x.sqlite"), *args]  # fmt: skip
    done = subprocess.run(command, env=server_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert words in done.stderr
    assert not (tmp_path / "x.sqlite").exists()


def test_a_refused_handshake_is_closed_where_the_server_has_no_http_answer() -> None:
    """An ASGI server without the ``websocket.http.response`` extension: the handshake is
    closed before it is accepted (code 1008), and the application never sees it."""
    reached: list[str] = []

    async def table_app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])

    guard = SiteGuard(table_app, SitePolicy.for_server())
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    def scope(**headers: str) -> dict[str, Any]:
        return {
            "type": "websocket",
            "path": "/ws/abc",
            "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
            "extensions": {},
        }

    asyncio.run(guard(scope(host="127.0.0.1:8000", origin=FOREIGN), receive, send))
    asyncio.run(guard(scope(host="evil.example:8000"), receive, send))
    assert sent == [{"type": "websocket.close", "code": 1008, "reason": ""}] * 2
    assert reached == []
    asyncio.run(guard(scope(host="127.0.0.1:8000", origin="http://127.0.0.1:8000"), receive, send))
    assert reached == ["/ws/abc"]


def test_refused_hosts_are_logged_a_line_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    """A flood of requests by a wrong ``Host`` writes one line, then one a minute that counts
    the refusals since; each request is still refused."""
    now = [1000.0]
    guard = SiteGuard(
        table_app_never_reached, SitePolicy.for_server(), RefusedHostLog(60, lambda: now[0])
    )
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/evil\nline",
        "headers": [(b"host", b"evil.example:8000")],
    }

    async def flood() -> None:
        for _ in range(100):
            await guard(scope, receive, send)
            now[0] += 0.5
        now[0] += 60
        await guard(scope, receive, send)

    with caplog.at_level("WARNING", logger="chibre.server"):
        asyncio.run(flood())
    statuses = [m["status"] for m in sent if m["type"] == "http.response.start"]
    assert statuses == [400] * 101
    lines = [r.getMessage() for r in caplog.records if r.name == "chibre.server"]
    assert len(lines) == 2, lines
    assert "evil.example" in lines[0] and "more refused" not in lines[0]
    assert "'/evil\\nline'" in lines[0]  # the path as a quoted string: one line in the log
    assert "(99 more refused since the last line)" in lines[1]


async def table_app_never_reached(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("a refused request reached the table")


@contextmanager
def another_site() -> Iterator[str]:
    """Another web site on this machine (a page of its own on another port of 127.0.0.1: in
    the same address space, so that the browser's own local-network checks do not stop it
    first); yields its origin."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!doctype html><title>another site</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}"
    finally:
        site.shutdown()
        site.server_close()
        thread.join(timeout=10)


def test_a_page_of_another_site_in_a_browser_can_neither_play_nor_create(
    tmp_path: Path, browser: Browser
) -> None:
    """Chromium on a page of another site: its WebSocket to a seat is refused and its
    form-like POST creates no table; a page of an origin allowed with --allowed-origin
    opens the socket (and still creates no table with a text/plain body)."""
    db = tmp_path / "chibre.sqlite"
    with (
        another_site() as evil,
        another_site() as friend,
        running_server(tmp_path, "--allowed-origin", friend) as base,
    ):
        table = create_table(base)
        socket = ws_url(base, table["seats"][0]["link"])
        page = new_page(browser)
        attempt = """async ([socket, base]) => {
            const opened = await new Promise((done) => {
                const ws = new WebSocket(socket);
                ws.onopen = () => { ws.close(); done(true); };
                ws.onerror = () => done(false);
            });
            const sent = await fetch(base + "/api/tables", {method: "POST", mode: "no-cors",
                headers: {"Content-Type": "text/plain"},
                body: JSON.stringify({seats: ["human", "rule", "rule", "rule"]})});
            return [opened, sent.type];
        }"""
        before = tables_stored(db)
        page.goto(evil + "/")
        assert page.evaluate(attempt, [socket, base]) == [False, "opaque"]
        assert tables_stored(db) == before
        page.goto(friend + "/")
        assert page.evaluate(attempt, [socket, base]) == [True, "opaque"]
        assert tables_stored(db) == before  # text/plain: 415 from any origin
        page.context.close()
