"""The server's guard at the door: how many connections it holds, how many from one address,
and how long a connection may take to say what it wants.

uvicorn has no timeout for a request's headers or body and no cap on connections that have
not yet sent a request, so one client could hold thousands of half-sent or silent connections
until the server runs out of file descriptors. ``guarded_protocol`` wraps uvicorn's HTTP
protocol class with:

- a cap on open connections, in all and per client address (WebSockets included, until they
  close). An address at its cap first gives up its longest-idle connection (one between
  requests, as a browser keeps several open per page); only when none of its connections is
  idle is one more answered ``503`` and closed at once. A café's players behind one address
  thus share its cap by what they are doing, not by what their browsers keep open;
- ``request_timeout``: a request must arrive whole — headers and body — within this many
  seconds of its first byte, else it is answered ``408`` and closed;
- ``idle_timeout``: a connection that sends nothing (before its first request, or between two)
  is closed after this many seconds.

One sweep a second looks at every HTTP connection. A WebSocket, once upgraded, is left to its
own keep-alive pings (uvicorn's ``ws_ping_interval`` / ``ws_ping_timeout``) and counted until
it closes.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

SWEEP = 1.0
"""Seconds between two looks at every connection."""


@dataclass(frozen=True)
class Door:
    """The guard's limits (``chibre serve --max-connections --max-connections-per-address
    --request-timeout --idle-timeout``)."""

    max_connections: int = 2000
    max_per_address: int = 256
    request_timeout: float = 10.0
    idle_timeout: float = 15.0


def _refusal(status: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class Watch:
    """The open connections of one server, by address, and the sweep over them."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.open: set[Any] = set()  # every connection counted in
        self.swept: set[Any] = set()  # those the sweep looks at (not the WebSockets)
        self.per_address: dict[str, set[Any]] = {}
        self._sweeping: asyncio.TimerHandle | None = None

    def admit(self, conn: Any, address: str) -> str | None:
        """Count a new connection in; or the reason it is refused."""
        if len(self.open) >= self.door.max_connections:
            return "the server holds as many connections as it may: try again in a moment"
        mine = self.per_address.setdefault(address, set())
        if len(mine) >= self.door.max_per_address and not self._give_up_idle(mine, address):
            return f"too many connections from {address}: close some and try again"
        self.open.add(conn)
        self.swept.add(conn)
        mine.add(conn)
        if self._sweeping is None:
            self._sweeping = asyncio.get_running_loop().call_later(SWEEP, self.sweep)
        return None

    def _give_up_idle(self, mine: set[Any], address: str) -> bool:
        """Close the longest-idle HTTP connection among ``mine``; False if none is idle."""
        idle = [c for c in mine if c in self.swept and c.idle_since() is not None]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.idle_since())
        oldest.transport.close()
        self.forget(oldest, address)
        return True

    def sweep_no_more(self, conn: Any) -> None:
        self.swept.discard(conn)

    def forget(self, conn: Any, address: str) -> None:
        self.swept.discard(conn)
        if conn in self.open:
            self.open.discard(conn)
            mine = self.per_address.get(address, set())
            mine.discard(conn)
            if not mine:
                self.per_address.pop(address, None)

    def sweep(self) -> None:
        now = asyncio.get_running_loop().time()
        for conn in list(self.swept):
            conn.look(now)
        self._sweeping = (
            asyncio.get_running_loop().call_later(SWEEP, self.sweep) if self.swept else None
        )


def guarded_protocol(base: type[Any], door: Door) -> type[Any]:
    """uvicorn's HTTP protocol class ``base`` with the guard's limits (one ``Watch`` for every
    connection of the server)."""
    watch = Watch(door)

    class Guarded(base):  # type: ignore[misc]
        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = transport.get_extra_info("peername")
            self._address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            refused = watch.admit(self, self._address)
            if refused is not None:
                transport.write(_refusal("503 Service Unavailable", refused))
                transport.close()
                return
            self._waiting_since = asyncio.get_running_loop().time()  # idle: nothing asked yet
            self._asking_since: float | None = None  # the first byte of a request
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            watch.forget(self, self._address)
            if getattr(self, "transport", None) is not None:
                super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._asking_since is None:
                self._asking_since = asyncio.get_running_loop().time()
            super().data_received(data)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            """The connection becomes a WebSocket: it stays counted until it is lost, and
            leaves the sweep (its own pings keep it honest)."""
            super().handle_websocket_upgrade(*args)
            socket = self.transport.get_protocol()
            if socket is self:
                return  # the upgrade was refused
            watch.sweep_no_more(self)
            lost = socket.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                watch.forget(self, self._address)
                lost(exc)

            socket.connection_lost = connection_lost

        def on_response_complete(self) -> None:
            self._asking_since = None
            self._waiting_since = asyncio.get_running_loop().time()
            super().on_response_complete()

        def idle_since(self) -> float | None:
            """When this connection last finished a request (or opened), if it has none
            under way now; else None."""
            cycle = self.cycle
            if self._asking_since is not None or not (cycle is None or cycle.response_complete):
                return None
            return float(self._waiting_since)

        def look(self, now: float) -> None:
            """The sweep's look at this connection: close it if it overstays."""
            transport = self.transport
            if transport is None or transport.is_closing():
                watch.forget(self, self._address)
                return
            cycle = self.cycle
            reading = cycle is not None and not cycle.response_complete and cycle.more_body
            answering = cycle is not None and not cycle.response_complete and not reading
            if answering:
                return  # the app has the whole request; its answer may take its time
            if self._asking_since is not None:
                if now - self._asking_since > door.request_timeout:
                    if cycle is None or cycle.response_complete or not cycle.response_started:
                        message = f"the request did not arrive within {door.request_timeout:g} s"
                        transport.write(_refusal("408 Request Timeout", message))
                    transport.close()
            elif now - self._waiting_since > door.idle_timeout:
                transport.close()

    Guarded.__name__ = f"Guarded{base.__name__}"
    Guarded.watch = watch
    return Guarded
