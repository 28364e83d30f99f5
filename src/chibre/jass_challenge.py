"""The Jass Challenge protocol (webplatformz/challenge: bots over WebSockets, round-robin
tournaments): its cards, modes and rules in our terms, and a client that plays one of our
players on a Jass Challenge server (docs/protocols.md).

    chibre jass-challenge ws://host:3000 --player strong --name chibre [--session NAME]

Every frame is ``{"type": T, "data": D}``. Cards are ``{"number": 6..14, "color": "HEARTS"}``
(11 J, 12 Q, 13 K, 14 A); modes ``{"mode": "TRUMPF", "trumpfColor": C}``, ``OBEABE``,
``UNDEUFE``, ``SCHIEBE`` (a push). Seats agree with ours (play goes seat + 1; "Team 1" holds
seats 0 and 2, our team 0). The rules the protocol implies (``JC_RULES``): no weis, no stöck,
×1 ♦ ♥, ×2 ♠ ♣, ×3 Obenabe and Undenufe, match 100 × the factor, to 2500 counted at the end of
a hand.

The client keeps the seat's view from what the server tells it — its cards, the contract, the
tricks and the teams' points — and builds our ``Observation`` from it for each request, so a
player sees exactly what the seat may know. A card the server rejects is replaced by another
legal card; a push the server rejects by a contract.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from chibre.actions import Action, Chibre, Choose, Play
from chibre.bots.player import Player
from chibre.cards import cards_of
from chibre.errors import ChibreError
from chibre.hand import Trick
from chibre.observation import Observation
from chibre.play import legal_cards, points, trick_winner
from chibre.player_time import add_time_arguments, check_seconds
from chibre.rules import Rules

log = logging.getLogger("chibre.jass_challenge")

TIME_PER_MOVE = 0.25
"""Seconds a decision of our players takes here unless told: the protocol answers within
0.5 s (a tournament's limit), the network's share included."""

JC_OPTIONS: dict[str, Any] = {
    "weis": False,
    "stoeck": False,
    "multipliers": "published",  # ♦ ♥ 1, ♠ ♣ 2, Obenabe and Undenufe 3
    "target": 2500,
    "end_mode": "end_of_hand",
    "first_chooser": "first_seat",  # in hand n seat n mod 4 chooses
}
JC_RULES = Rules.make(**JC_OPTIONS)
"""The rules of a Jass Challenge game in our terms."""

COLORS = ("DIAMONDS", "HEARTS", "SPADES", "CLUBS")
"""By our suit number (♦ ♥ ♠ ♣)."""
TEAM_NAMES = ("Team 1", "Team 2")
SCHIEBE = {"mode": "SCHIEBE"}


class BadFrame(ChibreError):
    """A frame that is not what the protocol allows at this point."""


def card_to_jc(card: int) -> dict[str, Any]:
    """``{"number": 6..14, "color": …}`` for our card (suit × 9 + rank, rank 0 = 6)."""
    return {"number": card % 9 + 6, "color": COLORS[card // 9]}


def card_from_jc(d: Any) -> int:
    """Our card for a Jass Challenge card; ``BadFrame`` for anything else."""
    if not isinstance(d, dict) or d.get("color") not in COLORS:
        raise BadFrame(f"a card is {{'number': 6..14, 'color': HEARTS…}}, not {d!r:.60}")
    number = d.get("number")
    if type(number) is not int or not 6 <= number <= 14:
        raise BadFrame(f"a card's number is 6..14, not {number!r:.20}")
    return COLORS.index(d["color"]) * 9 + number - 6


def mode_to_jc(action: Chibre | Choose) -> dict[str, Any]:
    """The mode of a contract action (``Chibre()`` is ``SCHIEBE``)."""
    if isinstance(action, Chibre):
        return dict(SCHIEBE)
    k = int(action.contract)
    if k < 4:
        return {"mode": "TRUMPF", "trumpfColor": COLORS[k]}
    return {"mode": "OBEABE" if k == 4 else "UNDEUFE"}


def mode_from_jc(d: Any) -> Chibre | Choose:
    """Our contract action for a mode; ``BadFrame`` for anything else."""
    mode = d.get("mode") if isinstance(d, dict) else None
    if mode == "SCHIEBE":
        return Chibre()
    if mode == "OBEABE":
        return Choose(4)
    if mode == "UNDEUFE":
        return Choose(5)
    if mode == "TRUMPF" and d.get("trumpfColor") in COLORS:
        return Choose(COLORS.index(d["trumpfColor"]))
    raise BadFrame(f"a mode is TRUMPF (with a trumpfColor), OBEABE, UNDEUFE or SCHIEBE: {d!r:.60}")


def frame(kind: str, data: Any = None) -> str:
    """One frame as JSON text."""
    return json.dumps({"type": kind, "data": data} if data is not None else {"type": kind})


# --- the client ------------------------------------------------------------------------------


@dataclass
class SeatView:
    """What one seat has been told of the game: the base of its ``Observation``."""

    seat: int = -1
    hand_number: int = -1
    hand: int = 0
    pushed: bool = False
    contract: int = -1
    contract_seat: int = -1
    chooser: int = -1
    tricks: list[Trick] = field(default_factory=list)
    trick: list[int] = field(default_factory=list)
    totals: tuple[int, int] = (0, 0)
    round_points: tuple[int, int] = (0, 0)

    def deal(self, cards: list[int]) -> None:
        self.hand_number += 1
        self.hand = sum(1 << c for c in cards)
        self.pushed = False
        self.contract = self.contract_seat = self.chooser = -1
        self.tricks, self.trick = [], []
        self.round_points = (0, 0)

    def played(self, cards: list[int]) -> None:
        """Cards seen played: ours among them are no longer in the hand."""
        for c in cards:
            self.hand &= ~(1 << c)

    def settle(self) -> None:
        """Who named the contract, once the chooser is known (asked, or seen to lead)."""
        if self.contract >= 0 and self.chooser >= 0:
            self.contract_seat = (self.chooser + 2) % 4 if self.pushed else self.chooser

    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else self.chooser

    def observation(self, phase: str) -> Observation:
        """The seat's observation when it is asked for a contract or a card."""
        seat = self.seat
        if phase == "contract":
            chooser = (seat + 2) % 4 if self.pushed else seat
            legal: tuple[Action, ...] = tuple(Choose(k) for k in range(6))
            if not self.pushed:
                legal += (Chibre(),)
        else:
            chooser = self.chooser
            allowed = legal_cards(self.hand, self.trick, self.contract)
            legal = tuple(Play(c) for c in cards_of(allowed))
        factor = JC_RULES.factor(self.contract) if self.contract >= 0 else 1
        return Observation(
            seat=seat, rules=JC_RULES, hand_number=self.hand_number, dealer=(chooser - 1) % 4,
            chooser=chooser, phase=phase, to_act=seat, hand=self.hand,
            chibres=int(self.pushed), contract=self.contract, contract_seat=self.contract_seat,
            factor=factor, tricks=tuple(self.tricks), trick=tuple(self.trick),
            trick_leader=self.leader() if phase == "play" else chooser, announced=(0, 0, 0, 0),
            own_weis=(), shown_weis=(), weis_team=-1, stoeck_seat=-1,
            hand_points=self.round_points, totals=self.totals, winner=-1, striche=(0, 0),
            legal_actions=legal,
        )  # fmt: skip


@dataclass
class ChallengeResult:
    """How the client's games went: the seat, the winning team's frame, the decisions, the
    server's rejections and complaints."""

    seat: int = -1
    winner: dict[str, Any] | None = None
    decisions: int = 0
    rejected: int = 0
    bad_messages: list[Any] = field(default_factory=list)
    errors: list[Any] = field(default_factory=list)
    games: int = 0
    ranking: Any = None  # a tournament's last ranking table

    @property
    def won(self) -> bool:
        return self.winner is not None and self.winner.get("name") == TEAM_NAMES[self.seat & 1]


class ChallengeClient:
    """One of our players in a seat of a Jass Challenge server: answers its frames."""

    def __init__(
        self,
        player: Player,
        name: str,
        session: str | None = None,
        session_type: str = "SINGLE_GAME",
        team: int | None = None,
        games: int | None = None,
    ) -> None:
        self.player = player
        self.name = name
        self.session = session
        self.session_type = session_type
        self.team = team
        self.games = games
        """Leave after this many games (a tournament's server keeps the socket open)."""
        self.view = SeatView()
        self.result = ChallengeResult()
        self._rejected: set[int] = set()
        self._id: Any = None
        self._chosen: int | None = None  # the server's complaints when we chose a session
        self._candidates: list[int] = []
        self._hands = 0  # hands dealt in this game

    def session_choice(self, open_sessions: list[Any]) -> dict[str, Any]:
        if self.session is None:
            choice: dict[str, Any] = {"sessionChoice": "AUTOJOIN"}
        elif self.session in open_sessions:
            choice = {"sessionChoice": "JOIN_EXISTING", "sessionName": self.session}
        else:
            choice = {"sessionChoice": "CREATE_NEW", "sessionName": self.session}
            choice["sessionType"] = self.session_type
        if self.team is not None:
            choice["chosenTeamIndex"] = self.team
        return choice

    async def answer(self, kind: str, data: Any) -> list[str]:
        """The frames to send for one received frame (most need none)."""
        v = self.view
        if kind == "REQUEST_PLAYER_NAME":
            return [frame("CHOOSE_PLAYER_NAME", self.name)]
        if kind == "REQUEST_SESSION_CHOICE":
            bad = self.result.bad_messages
            if self._chosen is not None and len(bad) > self._chosen:  # our choice was refused
                raise ChibreError(f"the server refused the session: {bad[-1]}")
            self._chosen = len(bad)
            return [frame("CHOOSE_SESSION", self.session_choice(data or []))]
        if kind == "BROADCAST_SESSION_JOINED":
            self._chosen = None
        if kind == "BROADCAST_SESSION_JOINED" and self._id is None:
            self._id = data["player"].get("id")  # the first one after the choice is our own
            v.seat = self.result.seat = int(data["player"]["seatId"])
        elif kind == "BROADCAST_TEAMS":  # each game of a tournament seats the bots anew
            self._teams_seen(data)
        elif kind == "DEAL_CARDS":
            v.deal([card_from_jc(c) for c in data])
            self._rejected = set()
            self._hands += 1
        elif kind == "REQUEST_TRUMPF":
            if v.seat < 0:  # in hand h seat h mod 4 chooses, its partner after a push
                self._infer_seat(self._hands - 1 + (2 if data else 0))
            v.pushed = bool(data)
            v.chooser = (v.seat + 2) % 4 if v.pushed else v.seat
            return [frame("CHOOSE_TRUMPF", mode_to_jc(await self._contract()))]
        elif kind == "REJECT_TRUMPF":
            self.result.rejected += 1
            v.pushed = True  # the next REQUEST_TRUMPF says so too
        elif kind == "BROADCAST_TRUMPF":
            self._trumpf(mode_from_jc(data))
        elif kind == "REQUEST_CARD":
            v.trick = [card_from_jc(c) for c in data]
            if v.seat < 0 and not v.tricks:  # seat h mod 4 leads hand h's first trick
                self._infer_seat(self._hands - 1 + len(v.trick))
            if not v.tricks:
                v.chooser = (v.seat - len(v.trick)) % 4  # who led the first trick
            v.settle()
            return [frame("CHOOSE_CARD", card_to_jc(await self._card()))]
        elif kind == "REJECT_CARD":
            self.result.rejected += 1
            self._rejected.add(card_from_jc(data))
        elif kind == "PLAYED_CARDS":
            v.trick = [card_from_jc(c) for c in data]
            v.played(v.trick)
            self._rejected = set()  # a rejection holds for its request only
        elif kind == "BROADCAST_STICH":
            self._stich(data)
        elif kind == "BROADCAST_GAME_FINISHED":
            self._teams(data)
        elif kind == "BROADCAST_WINNER_TEAM":
            self.result.winner = data
            self.result.games += 1
        elif kind == "BAD_MESSAGE":
            self.result.bad_messages.append(data)
            log.warning("the server says our message was bad: %s", data)
        elif kind == "BROADCAST_TOURNAMENT_RANKING_TABLE":
            self.result.ranking = data
        elif kind == "ERROR":
            self.result.errors.append(data)
            log.warning("the server reports: %s", data)
        return []

    def _teams_seen(self, teams: list[dict[str, Any]]) -> None:
        """Our seat in a new game: by our id; in a tournament, where one bot holds both seats of
        a team under one name and is told no id, one of those seats — which, its first request
        says (``_infer_seat``)."""
        players = [p for team in teams for p in team["players"]]
        mine = [int(p["seatId"]) for p in players if self._id is not None and p["id"] == self._id]
        if not mine:
            mine = [int(p["seatId"]) for p in players if p.get("name") == self.name]
        self._candidates = mine
        self._hands = 0
        self.view.seat = self.result.seat = mine[0] if len(mine) == 1 else -1

    def _infer_seat(self, seat: int) -> None:
        if seat % 4 in self._candidates:
            self.view.seat = self.result.seat = seat % 4

    def _trumpf(self, action: Chibre | Choose) -> None:
        v = self.view
        if isinstance(action, Chibre):
            v.pushed = True
            return
        v.contract = int(action.contract)
        v.settle()

    def _stich(self, data: dict[str, Any]) -> None:
        v = self.view
        cards = [card_from_jc(c) for c in data["playedCards"]]
        v.played(cards)
        winner = int(data["seatId"])
        leader = (winner - trick_winner(cards, v.contract)) % 4
        if not v.tricks:
            v.chooser = leader
        v.settle()
        extra = 5 if len(v.tricks) == 8 else 0
        v.tricks.append(Trick(leader, tuple(cards), winner, points(cards, v.contract) + extra))
        v.trick = []
        self._teams(data.get("teams", []))

    def _teams(self, teams: list[dict[str, Any]]) -> None:
        v = self.view
        if len(teams) == 2:
            v.totals = (int(teams[0].get("points", 0)), int(teams[1].get("points", 0)))
            r = [int(t.get("currentRoundPoints", 0)) for t in teams]
            v.round_points = (r[0], r[1])

    async def _contract(self) -> Chibre | Choose:
        o = self.view.observation("contract")
        action = await asyncio.to_thread(_act, self.player, o)
        self.result.decisions += 1
        if isinstance(action, Chibre | Choose) and action in o.legal_actions:
            return action
        return Choose(0)

    async def _card(self) -> int:
        o = self.view.observation("play")
        plays = [a.card for a in o.legal_actions if isinstance(a, Play)]
        fresh = [c for c in plays if c not in self._rejected] or plays
        action = await asyncio.to_thread(_act, self.player, o)
        self.result.decisions += 1
        if isinstance(action, Play) and action.card in fresh:
            return action.card
        return fresh[0]


def _act(player: Player, observation: Observation) -> Action | None:
    """The player's action, or ``None`` when it fails (said in the log; the caller's fallback
    answers)."""
    try:
        return player.act(observation)
    except Exception as e:
        log.warning("the player failed (%s: %s): a legal answer instead", type(e).__name__, e)
        return None


async def play_challenge(url: str, client: ChallengeClient) -> ChallengeResult:
    """Connect to a Jass Challenge server and play until it closes the socket. Every request is
    answered once, in order, even one the server went past while the player thought (its
    fallback answered at the time limit): the server knows that answer for a late one and
    drops it, where an answer left out would be read as the answer to the next request."""
    import websockets
    from websockets.exceptions import ConnectionClosed

    from chibre.client import Inbox

    async with websockets.connect(url, max_size=2**20, open_timeout=10) as ws:
        inbox = Inbox(ws)
        try:
            while client.games is None or client.result.games < client.games:
                message = json.loads(await inbox.next())
                for out in await client.answer(message.get("type", ""), message.get("data")):
                    try:
                        await ws.send(out)
                    except ConnectionClosed:  # the game ended while it thought: the frames
                        break  # that came before the close are still read, its end among them
        except ConnectionClosed:
            pass
        finally:
            inbox.close()
    return client.result


# --- the command -----------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    """Add `jass-challenge` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "jass-challenge",
        help="play one of our players on a Jass Challenge server",
        description="Connect to a Jass Challenge server (ws://HOST:PORT) and play a seat with "
        "one of our players until the server closes the game or tournament.",
    )
    p.add_argument("url", metavar="URL", help="the server's WebSocket address")
    p.add_argument("--player", default="rule", help="a player name or spec (default rule)")
    p.add_argument("--seed", type=int, default=0, help="the player's seed (default 0)")
    p.add_argument("--name", default="chibre", help="the bot's name at the server (chibre)")
    p.add_argument("--session", help="join (or create) this session; default: any (AUTOJOIN)")
    p.add_argument("--tournament", action="store_true", help="a new session is a tournament")
    p.add_argument("--team", type=int, choices=(0, 1), help="the team to join (0 or 1)")
    p.add_argument("--games", type=int, help="leave after this many games (default: when closed)")
    add_time_arguments(
        p,
        f"seconds per decision: the thinking budget of our players that take one (default "
        f"{TIME_PER_MOVE:g}, within the protocol's 0.5 s)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from websockets.exceptions import InvalidHandshake, InvalidURI

    if not args.url.startswith(("ws://", "wss://")):
        raise ChibreError(f"the server's address is ws://HOST:PORT (or wss://…), not {args.url!r}")
    check_seconds(args.time_per_move, args.foreign_limit)
    player = _player(args, args.seed)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        results = _play(args, player)
    except (InvalidHandshake, InvalidURI) as e:
        raise ChibreError(f"{args.url}: {e}") from None
    except OSError as e:  # refused, reset, timed out
        raise ChibreError(f"{args.url}: {e.strerror or e or type(e).__name__}") from None
    for result in results:
        if result.winner is None:
            print(f"the server closed the game before its end: {result.errors or 'no reason'}")
            return 1
        last = "won" if result.won else "lost"
        print(
            f"seat {result.seat}: {result.games} game(s), the last {last}"
            f" — {result.winner['name']} {result.winner.get('points')} points; "
            f"{result.decisions} decisions, {result.rejected} rejected"
        )
    if results[0].ranking is not None:
        for line in results[0].ranking.get("ranking", []):
            print(f"{line.get('rank')}. {line.get('playerName')} {line.get('rating')}")
    return 0


def _player(args: argparse.Namespace, seed: int) -> Player:
    from chibre.arena import build_player

    time = TIME_PER_MOVE if args.time_per_move is None else args.time_per_move
    try:
        return build_player(args.player, seed, time, args.foreign_limit)
    except ValueError as e:
        raise ChibreError(str(e)) from None


def _play(args: argparse.Namespace, player: Player) -> list[ChallengeResult]:
    """The command's games: one client, or a tournament's bot as two clients under one name
    (both seats of a team)."""
    if not args.tournament:
        client = ChallengeClient(
            player, args.name, args.session, "SINGLE_GAME", args.team, args.games
        )
        return [asyncio.run(play_challenge(args.url, client))]
    partner = _player(args, args.seed + 1)
    clients = [
        ChallengeClient(p, args.name, args.session, "TOURNAMENT", args.team, args.games)
        for p in (player, partner)
    ]

    async def both() -> list[ChallengeResult]:
        return list(await asyncio.gather(*(play_challenge(args.url, c) for c in clients)))

    return asyncio.run(both())
