"""How often one client address may do something: a sliding window of one minute.

``Quota(per_minute)`` answers ``allow(address)`` with ``None`` (allowed, and counted) or the
seconds until the next one would be; ``enforce`` answers a request past it with 429.
Addresses whose window is empty are forgotten, so a flood from many addresses costs no more
memory than the requests of the last minute.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from fastapi import HTTPException, Request

WINDOW = 60.0


class Quota:
    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.recent: dict[str, deque[float]] = {}
        self._swept = clock()

    def allow(self, address: str) -> float | None:
        """``None`` if ``address`` may go ahead (it is counted); else the seconds to wait."""
        now = self.clock()
        if now - self._swept > WINDOW:
            self._sweep(now)
        times = self.recent.setdefault(address, deque())
        while times and now - times[0] >= WINDOW:
            times.popleft()
        if len(times) >= self.per_minute:
            return WINDOW - (now - times[0])
        times.append(now)
        return None

    def _sweep(self, now: float) -> None:
        self._swept = now
        for address in [a for a, t in self.recent.items() if not t or now - t[-1] >= WINDOW]:
            del self.recent[address]


def enforce(quota: Quota, request: Request, what: str) -> None:
    """Count ``request`` against ``quota`` by its client's address: past it, 429 saying how
    many ``what`` a minute and when to try again."""
    wait = quota.allow(request.client.host if request.client else "?")
    if wait is not None:
        raise HTTPException(
            429,
            f"at most {quota.per_minute} {what} a minute: try again in {wait:.0f} s",
            headers={"Retry-After": str(max(1, round(wait)))},
        )


def per_minute(name: str, what: str) -> Callable[[Request], None]:
    """A route's dependency counting its requests against the quota ``app.state.<name>``
    (told before the body is read into its model)."""

    def check(request: Request) -> None:
        enforce(getattr(request.app.state, name), request, what)

    return check
