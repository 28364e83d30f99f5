"""Players from elsewhere, named by a spec, for every place that seats a player by name
(``chibre.bots.make_player``, the arena, ``chibre bot``):

- ``module:Class`` — a program's own player class (``examples.my_bot:MyBot``), made with the
  seed when its constructor takes one;
- ``jasskit-http:URL/NAME`` — a bot served by an HSLU jass-kit player service
  (``http://host:5000/random``): each decision is one ``POST URL/NAME/action_trump`` or
  ``…/action_play_card`` with the seat's V0.2 observation (``chibre.jasskit``), within the
  per-move time limit (``time_limit``, 10 s by default as in the course's tournaments).

**The fallback.** A foreign bot never blocks a table: a reply that is late, not JSON, not a
contract or card, or not legal here (a card the rules forbid, a push after a push) is replaced
by the decision of our ``rule`` player for the same observation. Each such incident is logged
(logger ``chibre.remote``) and kept in the player's ``incidents`` (``Incident``), which the
arena reports.
"""

from __future__ import annotations

import inspect
import json
import logging
import os
import re
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from chibre.actions import Action, Chibre, Choose, Play, Thank
from chibre.bots.player import Player, may_thank
from chibre.cards import card_code, parse_card
from chibre.errors import ChibreError, NotationError
from chibre.jasskit import observation_to_json
from chibre.observation import Observation

log = logging.getLogger("chibre.remote")

JASSKIT_HTTP = "jasskit-http:"
DEFAULT_TIME_LIMIT = 10.0
"""Seconds a jass-kit service has for one decision (what the course's tournaments allow)."""
PUSH = 10
"""The jass-kit's trump value for a push (schieben); 6 is accepted too."""
_CLASS_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


@dataclass(frozen=True)
class Incident:
    """A decision a foreign bot did not make in time or legally: what went wrong (``kind``:
    ``late``, ``unreachable``, ``refused``, ``garbage``, ``illegal``), a sentence, and how long
    the bot took."""

    player: str
    kind: str
    detail: str
    seconds: float

    def __str__(self) -> str:
        return f"{self.player}: {self.kind} ({self.detail}) after {self.seconds:.2f} s"


def is_spec(name: str) -> bool:
    """Whether ``name`` is a spec of this module rather than one of our players' names."""
    return name.startswith(JASSKIT_HTTP) or bool(_CLASS_SPEC.match(name))


def make_remote(spec: str, seed: int = 0, time_limit: float | None = None) -> Player:
    """The player a spec names; ``ChibreError`` saying what is wrong with it."""
    if spec.startswith(JASSKIT_HTTP):
        return JasskitHttpPlayer(spec.removeprefix(JASSKIT_HTTP), seed, time_limit)
    if not _CLASS_SPEC.match(spec):
        raise ChibreError(f"{spec!r} is neither module:Class nor {JASSKIT_HTTP}URL/NAME")
    module, _, cls = spec.partition(":")
    if os.getcwd() not in sys.path:  # a program's own module, beside where it is started
        sys.path.append(os.getcwd())
    try:
        factory = getattr(import_module(module), cls)
    except (ImportError, AttributeError) as e:
        raise ChibreError(f"cannot load the player {spec!r}: {e}") from e
    try:
        takes_seed = bool(inspect.signature(factory).parameters)
    except (TypeError, ValueError):
        takes_seed = False
    player = factory(seed) if takes_seed else factory()
    if not callable(getattr(player, "act", None)):
        raise ChibreError(f"{spec!r} has no act(observation) method: it is not a player")
    if not hasattr(player, "name"):
        player.name = cls
    result: Player = player
    return result


class JasskitHttpPlayer:
    """A bot of an HSLU jass-kit player service at our table (rules the kit can carry: no
    weis, no stöck — the table declares them for it if it does so itself)."""

    def __init__(self, url: str, seed: int = 0, time_limit: float | None = None) -> None:
        if not url.startswith(("http://", "https://")) or url.rstrip("/").count("/") < 3:
            raise ChibreError(
                f"{JASSKIT_HTTP}{url}: give the service's address and the bot's name, "
                f"such as {JASSKIT_HTTP}http://127.0.0.1:5000/random"
            )
        self.url = url.rstrip("/")
        self.name = f"{JASSKIT_HTTP}{self.url}"
        self.seed = seed
        self.time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        self.incidents: list[Incident] = []
        self.decisions = 0
        self._fallback: Player | None = None

    def act(self, observation: Observation) -> Action:
        o = observation
        if may_thank(o):
            return Thank()
        self.decisions += 1
        route = "action_trump" if o.phase == "contract" else "action_play_card"
        body = observation_to_json(o)
        body["gameId"] = 0
        start = time.perf_counter()
        try:
            reply = self._post(route, body)
            action = self._read(reply, o)
        except _Failure as e:
            return self._fall_back(o, e.kind, str(e), time.perf_counter() - start)
        return action

    def _post(self, route: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            f"{self.url}/{route}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        deadline = time.monotonic() + self.time_limit
        try:
            with urllib.request.urlopen(request, timeout=self.time_limit) as r:
                data = _read_by(r, deadline, 65536)
        except urllib.error.HTTPError as e:
            raise _Failure("refused", f"{route} answered {e.code}") from None
        except TimeoutError:
            raise _Failure("late", f"no answer to {route} within {self.time_limit:g} s") from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            if isinstance(reason, TimeoutError):
                raise _Failure("late", f"no answer within {self.time_limit:g} s") from None
            raise _Failure("unreachable", f"{route}: {reason}") from None
        try:
            return json.loads(data)
        except ValueError:
            raise _Failure("garbage", f"{route} answered {data[:40]!r}, not JSON") from None

    def _read(self, reply: Any, o: Observation) -> Action:
        if o.phase == "contract":
            trump = reply.get("trump") if isinstance(reply, dict) else None
            if type(trump) is not int:
                raise _Failure("garbage", f'expected {{"trump": 0..5 or 10}}, got {reply!r:.60}')
            action: Action = Chibre() if trump in (PUSH, 6) else Choose(trump)
        else:
            card = reply.get("card") if isinstance(reply, dict) else None
            try:
                action = Play(parse_card(card)) if isinstance(card, str) else Thank()
            except NotationError:
                action = Thank()
            if isinstance(action, Thank):
                raise _Failure("garbage", f'expected {{"card": "H7"}}, got {reply!r:.60}')
        plain = sorted((a for a in o.legal_actions if _same(a, action)), key=_declares)
        if not plain:
            raise _Failure("illegal", f"{_describe(action)} is not legal now")
        return plain[0]

    def _fall_back(self, o: Observation, kind: str, detail: str, seconds: float) -> Action:
        incident = Incident(self.name, kind, detail, seconds)
        self.incidents.append(incident)
        log.warning("%s; rule plays instead", incident)
        if self._fallback is None:
            from chibre.bots import make_player

            self._fallback = make_player("rule", self.seed)
        return self._fallback.act(o)


def _read_by(response: Any, deadline: float, most: int) -> bytes:
    """A reply's body, at most ``most`` bytes, read by ``deadline`` (``time.monotonic``):
    ``TimeoutError`` past it — a reply sent a byte at a time is as late as none."""
    sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
    data = b""
    while len(data) < most:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        if sock is not None:
            sock.settimeout(left)
        chunk = response.read1(most - len(data))
        if not chunk:
            return data
        data += chunk
    return data


class _Failure(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        self.kind = kind
        super().__init__(detail)


def _same(legal: Action, action: Action) -> bool:
    """A legal action that is the bot's (a card with whatever the table declares with it)."""
    if isinstance(action, Play):
        return isinstance(legal, Play) and legal.card == action.card
    return legal == action


def _declares(action: Action) -> int:
    """How much a legal action declares with it (the bot's own card is the plainest)."""
    return len(action.weis) + action.stoeck if isinstance(action, Play) else 0


def _describe(action: Action) -> str:
    if isinstance(action, Play):
        return card_code(action.card)
    if isinstance(action, Chibre):
        return "a push"
    return f"contract {action.contract}" if isinstance(action, Choose) else repr(action)


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "JASSKIT_HTTP",
    "Incident",
    "JasskitHttpPlayer",
    "is_spec",
    "make_remote",
]
