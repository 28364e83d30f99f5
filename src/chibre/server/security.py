"""Same-origin by default: what every request to ``chibre serve`` passes through before it
reaches a route, and the security headers on every answer (README.md, "Hosting").

``SiteGuard`` is plain ASGI middleware (HTTP and WebSocket alike, under Starlette or any other
ASGI framework); ``SitePolicy`` says what it lets through:

- **Host** (against DNS rebinding): a request whose ``Host`` header names another host than
  the ones the server is reached by is answered 400 — by default the local names
  (127.0.0.1, localhost, [::1]) and the address it listens on; on a wildcard address
  (0.0.0.0, ::) also any IP address and the machine's own name, for friends on the network.
  ``--allowed-host NAME`` adds names; ``--allowed-host '*'`` lets any ``Host`` through (for a
  reverse proxy that checks it itself, or that rewrites it).
- **Origin** (against cross-site requests and WebSocket hijacking): a WebSocket handshake or a
  POST, PUT, PATCH or DELETE whose ``Origin`` header is present must come from this site —
  the origin of the ``Host`` asked for, of a name given with ``--allowed-host``, or one of
  ``--allowed-origin`` — else 403. A request without ``Origin`` (curl, bots, other
  non-browser clients) is let through: a browser always sends it on these requests.
- **JSON only**: a POST, PUT or PATCH with a body must say ``Content-Type: application/json``
  (``; charset=utf-8`` allowed), else 415 — the forms of other sites can send no such body.

A refused HTTP request is answered ``{"error": message}``; a refused WebSocket handshake is
answered with the same HTTP status and body where the server can (the ASGI extension
``websocket.http.response``), else closed before it is accepted (code 1008, which uvicorn
answers as 403). Every HTTP answer carries ``SECURITY_HEADERS`` (``CSP`` among them), and
``Cache-Control: no-store`` unless it sets its own or is a file under ``/static/``: the pages
and answers that carry seat tokens and sheet keys are kept in no cache.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("chibre.server")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "object-src 'none'"
)
"""The Content-Security-Policy of every answer: nothing but this server's own files (no
inline script or style), never in a frame. ``connect-src 'self'`` covers the page's own
WebSocket (ws: and wss: of the same host and port)."""

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),  # a seat token in the address leaks through no link
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
)
NO_STORE = "no-store"
STATIC_PREFIX = "/static/"
"""Files under here may be cached (they carry no token); every other answer is ``no-store``
unless it sets its own ``Cache-Control`` (the cards do)."""

ANY_HOST = "*"
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARD_ADDRESSES = ("0.0.0.0", "::", "")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
CLOSE_POLICY = 1008
SHOWN_AT_MOST = 80  # characters of a refused header quoted back in the error message


class InvalidSiteName(ValueError):
    """An ``--allowed-host`` or ``--allowed-origin`` that names no host or origin."""


class HostName(NamedTuple):
    """A host as written in a ``Host`` header: the name (lower case, an IPv6 address without
    its brackets) and the port, ``None`` where none is written."""

    name: str
    port: int | None

    def __str__(self) -> str:
        shown = f"[{self.name}]" if ":" in self.name else self.name
        return shown if self.port is None else f"{shown}:{self.port}"

    @property
    def is_address(self) -> bool:
        try:
            ipaddress.ip_address(self.name)
        except ValueError:
            return False
        return True


def parse_host(text: str) -> HostName | None:
    """``name``, ``name:port``, ``[v6]``, ``[v6]:port`` (a bare IPv6 address too) as a
    ``HostName``; ``None`` for anything else."""
    text = text.strip().lower()
    if not text or any(c.isspace() or c in "/?#@\\" for c in text):
        return None
    port: str | None = None
    if text.startswith("["):
        name, sep, rest = text[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    elif text.count(":") > 1:  # a bare IPv6 address
        name = text
    else:
        name, sep, after = text.partition(":")
        port = after if sep else None
    name = name.rstrip(".")
    if not name:
        return None
    if ":" in name:
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    if port is None:
        return HostName(name, None)
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        return None
    return HostName(name, int(port))


DEFAULT_PORTS = {"http": 80, "https": 443}


class Origin(NamedTuple):
    """A web origin: ``scheme://host[:port]`` with the port made explicit."""

    scheme: str
    host: HostName

    def __str__(self) -> str:
        port = self.host.port
        shown = HostName(self.host.name, None if port == DEFAULT_PORTS[self.scheme] else port)
        return f"{self.scheme}://{shown}"


def parse_origin(text: str) -> Origin | None:
    """An ``Origin`` header (or ``--allowed-origin``): http or https, a host, nothing after
    it; ``None`` for anything else (``null`` included)."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    if "@" in parts.netloc:
        return None
    host = parse_host(parts.netloc)
    if host is None:
        return None
    return Origin(scheme, HostName(host.name, host.port or DEFAULT_PORTS[scheme]))


def allowed_host(text: str) -> str:
    """An ``--allowed-host`` as written (``*``, ``name`` or ``name:port``); raises
    ``InvalidSiteName``."""
    if text.strip() == ANY_HOST:
        return ANY_HOST
    if parse_host(text) is None:
        raise InvalidSiteName(
            f"{text!r} is not a host name: give a name such as chibre.example.org, "
            "optionally with :port, or '*' for any"
        )
    return text.strip()


def allowed_origin(text: str) -> str:
    """An ``--allowed-origin`` (``https://name[:port]``); raises ``InvalidSiteName``."""
    if parse_origin(text) is None:
        raise InvalidSiteName(
            f"{text!r} is not an origin: give scheme and host, such as https://chibre.example.org"
        )
    return text.strip()


@dataclass(frozen=True)
class SitePolicy:
    """The hosts and origins a server answers to (see the module's description)."""

    names: frozenset[HostName] = frozenset(HostName(n, None) for n in LOCAL_NAMES)
    """The hosts a ``Host`` header may name; a name without port stands for any port."""
    named: frozenset[HostName] = frozenset()
    """The hosts given with ``--allowed-host``: their origins are this site's too (behind a
    proxy that rewrites ``Host``)."""
    origins: frozenset[Origin] = frozenset()
    any_host: bool = False
    any_address: bool = False
    """Any IP address is a name of this server (it listens on a wildcard address)."""

    @classmethod
    def for_server(
        cls,
        bound_host: str = "127.0.0.1",
        hosts: Sequence[str] = (),
        origins: Sequence[str] = (),
    ) -> SitePolicy:
        """The policy of a server listening on ``bound_host``, with the ``--allowed-host``
        and ``--allowed-origin`` values given (checked: ``InvalidSiteName``)."""
        hosts = [allowed_host(h) for h in hosts]
        origins = [allowed_origin(o) for o in origins]
        wildcard = bound_host.strip() in WILDCARD_ADDRESSES
        local = [HostName(n, None) for n in LOCAL_NAMES]
        if wildcard:
            machine = socket.gethostname().lower().rstrip(".")
            if machine:
                local += [HostName(machine, None), HostName(machine + ".local", None)]
        else:
            bound = parse_host(bound_host)
            if bound is not None:
                local.append(HostName(bound.name, None))
        named = [h for h in (parse_host(h) for h in hosts if h != ANY_HOST) if h is not None]
        return cls(
            names=frozenset(local + named),
            named=frozenset(named),
            origins=frozenset(o for o in (parse_origin(o) for o in origins) if o is not None),
            any_host=ANY_HOST in hosts,
            any_address=wildcard,
        )

    def answers_to(self, host: HostName) -> bool:
        """A ``Host`` header that names this server."""
        if self.any_host or (self.any_address and host.is_address):
            return True
        return _matches(host, self.names)

    def same_site(self, origin: Origin, host: HostName | None) -> bool:
        """``origin`` is this site's: the origin of the host asked for, of a name given with
        ``--allowed-host``, or one given with ``--allowed-origin``."""
        if origin in self.origins:
            return True
        if host is not None and host.port is None:  # the scheme's own port
            host = HostName(host.name, DEFAULT_PORTS[origin.scheme])
        if host == origin.host:
            return True
        return _matches(origin.host, self.named)

    # --- the refusals: (status, message), or None -------------------------------------------

    def host_refusal(self, header: str | None) -> tuple[int, str] | None:
        if header is None:  # HTTP/1.0 without Host: no browser, nothing to rebind
            return None
        host = parse_host(header)
        if host is None:
            return 400, f"the Host header {_quoted(header)} names no host"
        if self.answers_to(host):
            return None
        return 400, (
            f"this server does not answer to the host {_quoted(header)}: start it with "
            f"--allowed-host {host.name} (behind a reverse proxy that checks the host, "
            "--allowed-host '*')"
        )

    def origin_refusal(self, header: str, host_header: str | None) -> tuple[int, str] | None:
        origin = parse_origin(header)
        host = parse_host(host_header) if host_header is not None else None
        if origin is not None and self.same_site(origin, host):
            return None
        return 403, (
            f"requests from the origin {_quoted(header)} are refused: only this site's own "
            "pages may change anything here (start the server with --allowed-origin "
            "URL to allow another)"
        )


def _matches(host: HostName, names: Iterable[HostName]) -> bool:
    return any(n.name == host.name and n.port in (None, host.port) for n in names)


def _quoted(text: str) -> str:
    return repr(text[:SHOWN_AT_MOST] + ("…" if len(text) > SHOWN_AT_MOST else ""))


def content_type_refusal(scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
    """415 for a POST, PUT or PATCH whose body is not said to be JSON."""
    if scope["method"] not in BODY_METHODS:
        return None
    length = headers.get("content-length")
    if "transfer-encoding" not in headers and (length is None or length.strip() == "0"):
        return None  # no body
    given = headers.get("content-type", "")
    media, *params = (p.strip().lower() for p in given.split(";"))
    charset_ok = all(p.replace('"', "") in ("charset=utf-8", "") for p in params)
    if media == "application/json" and charset_ok:
        return None
    said = f"it says {_quoted(given)}" if given else "it says no Content-Type"
    return 415, f"the body must be JSON sent as Content-Type: application/json ({said})"


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the first of each)."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


def _with_security(path: str, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with every security header it does not set itself."""
    present = {name.lower() for name, _ in headers}
    added = [(n.encode(), v.encode()) for n, v in SECURITY_HEADERS if n.encode() not in present]
    if b"cache-control" not in present and not path.startswith(STATIC_PREFIX):
        added.append((b"cache-control", NO_STORE.encode()))
    return [*headers, *added]


REFUSED_HOSTS_LOGGED_EVERY = 60.0
"""Seconds between two lines of the log about refused ``Host`` headers."""


class RefusedHostLog:
    """The log's lines about refused ``Host`` headers: the first at once, then at most one
    every ``every`` seconds, which counts the refusals left unsaid since the last — so that a
    flood of requests by a wrong name cannot fill the log, and a proxy set up wrong is still
    seen."""

    def __init__(
        self,
        every: float = REFUSED_HOSTS_LOGGED_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.every = every
        self.clock = clock
        self.said_at: float | None = None
        self.unsaid = 0

    def refused(self, kind: str, path: str, why: str) -> None:
        now = self.clock()
        if self.said_at is not None and now - self.said_at < self.every:
            self.unsaid += 1
            return
        since = f" ({self.unsaid} more refused since the last line)" if self.unsaid else ""
        log.warning("refused %s %r: %s%s", kind, path, why, since)
        self.said_at = now
        self.unsaid = 0


class SiteGuard:
    """ASGI middleware: refuses what ``policy`` does not allow, and adds the security
    headers to every HTTP answer (see the module's description)."""

    def __init__(
        self,
        app: ASGIApp,
        policy: SitePolicy | None = None,
        refused_hosts: RefusedHostLog | None = None,
    ) -> None:
        self.app = app
        self.policy = policy or SitePolicy()
        self.refused_hosts = refused_hosts or RefusedHostLog()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal = self.policy.host_refusal(headers.get("host"))
        if refusal is not None:
            self.refused_hosts.refused(scope["type"], scope.get("path", ""), refusal[1])
        origin = headers.get("origin")
        checks_origin = scope["type"] == "websocket" or scope["method"] in UNSAFE_METHODS
        if refusal is None and origin is not None and checks_origin:
            refusal = self.policy.origin_refusal(origin, headers.get("host"))
        if refusal is None and scope["type"] == "http":
            refusal = content_type_refusal(scope, headers)
        if refusal is not None:
            await self._refuse(scope, send, *refusal)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        path: str = scope.get("path", "")

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": _with_security(path, list(message["headers"]))}
            await send(message)

        await self.app(scope, receive, send_secured)

    async def _refuse(self, scope: Scope, send: Send, status: int, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        headers = _with_security(
            "",
            [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        )
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send(
                {"type": "websocket.http.response.start", "status": status, "headers": headers}
            )
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": CLOSE_POLICY, "reason": ""})
