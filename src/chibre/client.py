"""A client of the table protocol (docs/table-protocol.md): any of our players, or a program's
own, plays a seat of any chibre server.

    player = make_player("strong")
    result = asyncio.run(play_seat("http://host:8000/t/k3J9xQ2w?seat=TOKEN", player))

The seat's VIEW is read back into the same ``Observation`` a player is given at our own tables
(``observation_from_view``); when the seat is to act, the player's ``act`` runs in a worker
thread (a search player may think for seconds without stalling the connection) and its action is
sent. A dropped connection is opened again with the same token (the seat is kept for the
server's grace period), with a growing pause between tries; a refused token ends it. An action
that is not legal, a player that fails, or an action the server refuses is logged and replaced
by the first legal action (never a thanks), so the seat never stalls; an answer the table moved
past while the player thought (its time limit) is not sent.
A foreign player's incidents (``chibre.remote.Incident``: its fallback decided) are told to the
table (``{"type": "incident"}``), which keeps them in the game's record.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from chibre.actions import Action, Thank
from chibre.bots.player import Player
from chibre.cards import parse_card
from chibre.errors import ChibreError
from chibre.hand import Trick
from chibre.observation import Observation
from chibre.player_time import add_time_arguments, check_seconds
from chibre.rules import Rules
from chibre.server.protocol import action_from_json, action_to_json
from chibre.weis import weis_of

log = logging.getLogger("chibre.client")

CLOSE_BAD_TOKEN = 4403
RETRY_PAUSES = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Seconds between reconnection tries (the last repeats)."""


class SeatRefused(ChibreError):
    """The server does not open this seat (a bad token, a damaged table)."""


def seat_socket_url(link: str) -> str:
    """The WebSocket URL of a seat link: ``http://host/t/ID?seat=TOKEN`` (the invitation a
    server hands out), or a ``ws://host/ws/ID?token=TOKEN`` URL as it is."""
    parts = urlsplit(link)
    if parts.scheme in ("ws", "wss"):
        if not parse_qs(parts.query).get("token", [""])[0]:
            raise ChibreError(f"{link!r} opens no seat (a seat's socket is /ws/ID?token=TOKEN)")
        return link
    if parts.scheme not in ("http", "https"):
        raise ChibreError(f"{link!r} is not a seat link (http://HOST/t/ID?seat=TOKEN)")
    token = parse_qs(parts.query).get("seat", [""])[0]
    path = parts.path.rstrip("/")
    if not token or "/t/" not in path:
        raise ChibreError(f"{link!r} is not a seat link (http://HOST/t/ID?seat=TOKEN)")
    table = path.rsplit("/t/", 1)[1]
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws/{table}?token={token}"


def _cards(codes: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in codes)


def _mask(codes: list[str]) -> int:
    m = 0
    for c in _cards(codes):
        m |= 1 << c
    return m


def observation_from_view(view: dict[str, Any], rules: Rules | None = None) -> Observation:
    """The ``Observation`` of a VIEW (``Observation.to_dict()`` plus ``legal``): exactly what
    a player at our own tables is given for that seat."""
    r = rules if rules is not None else Rules.from_dict(view["rules"])
    seat = view["seat"]
    return Observation(
        seat=-1 if seat is None else seat,
        rules=r,
        hand_number=view["hand_number"],
        dealer=view["dealer"],
        chooser=view["chooser"],
        phase=view["phase"],
        to_act=view["to_act"],
        hand=_mask(view["hand"]),
        chibres=view["chibres"],
        contract=view["contract"],
        contract_seat=view["contract_seat"],
        factor=view["factor"],
        tricks=tuple(
            Trick(t["leader"], _cards(t["cards"]), t["winner"], t["points"]) for t in view["tricks"]
        ),
        trick=_cards(view["trick"]),
        trick_leader=view["trick_leader"],
        announced=tuple(view["announced"]),
        own_weis=tuple(weis_of(_mask(w), r) for w in view["own_weis"]),
        shown_weis=tuple((w["seat"], weis_of(_mask(w["cards"]), r)) for w in view["shown_weis"]),
        weis_team=view["weis_team"],
        stoeck_seat=view["stoeck_seat"],
        hand_points=tuple(view["hand_points"]),
        totals=tuple(view["totals"]),
        winner=view["winner"],
        striche=tuple(view["striche"]),
        legal_actions=tuple(action_from_json(a) for a in view.get("legal", [])),
    )


@dataclass
class SeatResult:
    """How a seat's game went: the last VIEW and table, the decisions made, the connections
    opened and the server's refusals (each ``(code, message)``)."""

    view: dict[str, Any] = field(default_factory=dict)
    table: dict[str, Any] = field(default_factory=dict)
    decisions: int = 0
    connections: int = 0
    refusals: list[tuple[str, str]] = field(default_factory=list)
    reported: int = 0  # the player's incidents told to the table
    shared: bool = False  # the seat is open elsewhere too

    @property
    def finished(self) -> bool:
        return self.view.get("phase") == "over"


async def play_seat(
    link: str,
    player: Player,
    *,
    retries: int = 20,
    on_state: Callable[[dict[str, Any]], None] | None = None,
) -> SeatResult:
    """Play the seat of ``link`` with ``player`` until the game is over; reconnects up to
    ``retries`` times in a row after a dropped connection. ``SeatRefused`` when the server does
    not open the seat."""
    url = seat_socket_url(link)
    result = SeatResult()
    rules: Rules | None = None
    failures = 0
    while True:
        try:
            async with websockets.connect(url, max_size=2**20, open_timeout=10) as ws:
                result.connections += 1
                failures = 0
                rules = await _play_connection(ws, player, result, rules, on_state)
                return result
        except SeatRefused:
            raise
        except InvalidStatus as e:
            if e.response.status_code < 500:
                raise SeatRefused(f"the server refused the connection: {e}") from e
            reason: Exception = e
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as e:
            reason = e
        if result.finished:
            return result
        failures += 1
        if failures > retries:
            raise ChibreError(f"the connection to {url} was lost: {reason}")
        pause = RETRY_PAUSES[min(failures, len(RETRY_PAUSES)) - 1]
        log.warning("connection lost (%s); trying again in %.1f s", reason, pause)
        await asyncio.sleep(pause)


async def _play_connection(
    ws: Any,
    player: Player,
    result: SeatResult,
    rules: Rules | None,
    on_state: Callable[[dict[str, Any]], None] | None,
) -> Rules | None:
    """Answer the states of one connection until the game is over (returns) or it drops
    (``ConnectionClosed``). The player answers the latest state only: an answer the table
    moved past while the player thought (its move made for it at the time limit) is not
    sent."""
    inbox = Inbox(ws)
    try:
        return await _answer(ws, inbox, player, result, rules, on_state)
    finally:
        inbox.close()


async def _answer(
    ws: Any,
    inbox: Inbox,
    player: Player,
    result: SeatResult,
    rules: Rules | None,
    on_state: Callable[[dict[str, Any]], None] | None,
) -> Rules | None:
    acted_at = -1  # the seq of the state last answered: one action per moment
    backlog: list[str] = []
    while True:
        frame = json.loads(backlog.pop(0) if backlog else await inbox.next())
        kind = frame.get("type")
        if kind == "error":
            code, message = frame.get("code", ""), frame.get("message", "")
            if code in ("bad_token", "damaged"):
                raise SeatRefused(message)
            result.refusals.append((code, message))
            log.warning("the server refused an action: %s (%s)", message, code)
            view = result.view
            if code == "illegal" and view.get("to_act") == view.get("seat") and view["legal"]:
                legal = [action_from_json(a) for a in view["legal"]]
                await _act(ws, first_legal(legal), result, acted_at)  # never stall
            continue
        if kind != "state":
            continue
        view = frame["view"]
        result.view = view
        result.table = frame.get("table", {})
        _warn_if_shared(result)
        if on_state is not None:
            on_state(frame)
        if view["phase"] == "over":
            return rules
        seat = view["seat"]
        if view["to_act"] != seat or not view["legal"] or frame["seq"] == acted_at:
            continue
        if rules is None:
            rules = Rules.from_dict(view["rules"])
        observation = observation_from_view(view, rules)
        acted_at = frame["seq"]
        action = await asyncio.to_thread(_decide, player, observation)
        backlog += inbox.waiting()
        if any(_moved_on(text, acted_at) for text in backlog):
            log.warning("the table moved on while the player thought: its answer is dropped")
            continue
        await _report(ws, player, result)
        await _act(ws, action, result, acted_at)


def _warn_if_shared(result: SeatResult) -> None:
    """Say once when the seat is open elsewhere too (another bot on it: the two would answer
    each other's moments)."""
    seats = result.table.get("seats") or []
    seat = result.view.get("seat")
    shared = (
        isinstance(seat, int) and 0 <= seat < len(seats) and seats[seat].get("connections", 1) > 1
    )
    if shared and not result.shared:
        log.warning("seat %d is open elsewhere too: two players may answer for it", seat)
    result.shared = shared


def _decide(player: Player, observation: Observation) -> Action:
    """The player's action; one that is not among the legal ones, or a player that fails, is
    replaced by the first legal action (said in the log), so that the seat never stalls."""
    try:
        action = player.act(observation)
    except Exception as e:
        failed = f"{type(e).__name__}: {e}"
        log.warning("the player failed (%s): the first legal action instead", failed)
        return first_legal(observation.legal_actions)
    if action not in observation.legal_actions:
        log.warning("the player chose %r, not a legal action: the first legal one instead", action)
        return first_legal(observation.legal_actions)
    return action


def first_legal(legal: Sequence[Action]) -> Action:
    """The action a failed decision falls back to: the first legal one that is no thanks (a
    thanks claims the game, and loses it when wrong)."""
    return next((a for a in legal if not isinstance(a, Thank)), legal[0])


class Inbox:
    """A socket's frames as they arrive, read by a task of its own — also while the player
    thinks — so that what came meanwhile is looked at (``waiting``) before an answer is sent."""

    def __init__(self, ws: Any) -> None:
        self._frames: asyncio.Queue[str | None] = asyncio.Queue()
        self._end: ConnectionClosed | None = None
        self._task = asyncio.get_running_loop().create_task(self._read(ws))

    async def _read(self, ws: Any) -> None:
        try:
            async for text in ws:
                self._frames.put_nowait(text)
        except ConnectionClosed as e:
            self._end = e
        finally:
            self._frames.put_nowait(None)  # the end, after every frame

    async def next(self) -> str:
        """The next frame; ``ConnectionClosed`` once the socket closed and all were read."""
        text = await self._frames.get()
        if text is None:
            self._frames.put_nowait(None)
            raise self._end or ConnectionClosed(None, None)
        return text

    def waiting(self) -> list[str]:
        """The frames that arrived and were not read yet (read now)."""
        frames: list[str] = []
        while not self._frames.empty():
            text = self._frames.get_nowait()
            if text is None:
                self._frames.put_nowait(None)
                break
            frames.append(text)
        return frames

    def close(self) -> None:
        self._task.cancel()


def _moved_on(text: str, seq: int) -> bool:
    """Whether a frame is a state of the game past the moment ``seq``."""
    frame = json.loads(text)
    return frame.get("type") == "state" and bool(frame.get("seq", seq) != seq)


async def _report(ws: Any, player: Player, result: SeatResult) -> None:
    """The incidents of a foreign player (``chibre.remote``) since the last decision, told to
    the table before the fallback's action, so that its record keeps them."""
    incidents = getattr(player, "incidents", ())
    for incident in incidents[result.reported :]:
        report = {
            "type": "incident",
            "kind": incident.kind,
            "detail": incident.detail[:200],
            "seconds": round(incident.seconds, 3),
        }
        await ws.send(json.dumps(report))
    result.reported = len(incidents)


async def _act(ws: Any, action: Action, result: SeatResult, seq: int) -> None:
    """Send an action chosen on the state ``seq`` (refused ``moved_on`` past it)."""
    result.decisions += 1
    await ws.send(json.dumps({"type": "act", "action": action_to_json(action), "seq": seq}))


__all__ = [
    "SeatRefused",
    "SeatResult",
    "observation_from_view",
    "play_seat",
    "seat_socket_url",
]


# --- the command -----------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    """Add `bot` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "bot",
        help="play a seat of a chibre server with a computer player",
        description="Play the seat of an invitation link (http://HOST/t/ID?seat=TOKEN) with one "
        "of our players, a program's own (module:Class) or a jass-kit service "
        "(jasskit-http:URL/NAME), until the game is over.",
    )
    p.add_argument("link", metavar="URL", help="the seat's invitation link")
    p.add_argument("--player", default="rule", help="a player name or spec (default rule)")
    p.add_argument("--seed", type=int, default=0, help="the player's seed (default 0)")
    add_time_arguments(p)
    p.add_argument(
        "--quiet", action="store_true", help="print only the result (and errors, not warnings)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chibre.arena import build_player

    check_seconds(args.time_per_move, args.foreign_limit)
    player = build_player(args.player, args.seed, args.time_per_move, args.foreign_limit)
    logging.basicConfig(
        level=logging.ERROR if args.quiet else logging.WARNING, format="%(message)s"
    )

    def show(frame: dict[str, Any]) -> None:
        for event in frame.get("events", []):
            if event["type"] in ("HandScored", "GameWon") and not args.quiet:
                print(json.dumps(event), flush=True)

    result = asyncio.run(play_seat(args.link, player, on_state=show))
    v = result.view
    team = v["seat"] & 1
    print(
        f"game over: team {v['winner']} won {v['totals'][0]}:{v['totals'][1]} "
        f"({'we won' if v['winner'] == team else 'we lost'}); {result.decisions} decisions, "
        f"{result.connections} connection(s), {len(result.refusals)} refused"
    )
    rematch = result.table.get("next")
    if rematch and not result.decisions:  # the game was over before the bot came
        table = args.link.split("/t/")[1].split("?")[0] if "/t/" in args.link else ""
        where = args.link.replace(table, rematch, 1) if table else f"table {rematch}"
        print(f"that game was over already; its rematch: {where}")
    return 0
