"""How often one client address may do something: a sliding window of one minute.

``Quota(per_minute)`` answers ``allow(address)`` with ``None`` (allowed, and counted) or the
seconds until the next one would be. Addresses whose window is empty are forgotten, so a
flood from many addresses costs no more memory than the requests of the last minute.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

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
