"""What each connection is shown: the VIEW of docs/table-protocol.md, built from the seat's
``Observation`` (``chibre.observation`` — the one place hidden cards are kept hidden).

A VIEW is ``Observation.to_dict()`` plus ``legal``, ``credits``, ``weis_reason``,
``last_hand`` and ``history``. It is split in two: the *public* part, the same for every seat
at a given moment (serialised once per change and shared), and the *private* part of one seat
— ``seat``, ``hand``, ``own_weis`` and ``legal`` — which for a spectator holds no card at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chibre import i18n
from chibre.actions import Deal, Thank
from chibre.cards import card_code, cards_of
from chibre.game import Game
from chibre.hand import BLOCKS, Credit, Hand, team_of
from chibre.observation import Observation, observe
from chibre.server.protocol import action_to_json

if TYPE_CHECKING:
    from chibre.server.store import SeatInfo

_CODE = tuple(card_code(c) for c in range(36))


def _codes(cards: tuple[int, ...]) -> list[str]:
    return [_CODE[c] for c in cards]


def public_view(obs: Observation) -> dict[str, Any]:
    """The keys of ``obs.to_dict()`` that every seat sees alike, without ``rules``
    (they never change during a game and are serialised once per table)."""
    return {
        "hand_number": obs.hand_number,
        "dealer": obs.dealer,
        "chooser": obs.chooser,
        "phase": obs.phase,
        "to_act": obs.to_act,
        "chibres": obs.chibres,
        "contract": obs.contract,
        "contract_seat": obs.contract_seat,
        "factor": obs.factor,
        "tricks": [
            {"leader": t.leader, "cards": _codes(t.cards), "winner": t.winner, "points": t.points}
            for t in obs.tricks
        ],
        "trick": _codes(obs.trick),
        "trick_leader": obs.trick_leader,
        "announced": list(obs.announced),
        "shown_weis": [
            {"seat": s, "cards": _codes(cards_of(w.cards)), "points": w.points}
            for s, w in obs.shown_weis
        ],
        "weis_team": obs.weis_team,
        "stoeck_seat": obs.stoeck_seat,
        "hand_points": list(obs.hand_points),
        "totals": list(obs.totals),
        "winner": obs.winner,
        "striche": list(obs.striche),
    }


def private_view(obs: Observation | None) -> dict[str, Any]:
    """The seat's own part of the VIEW; ``None`` gives a spectator's (no card)."""
    if obs is None:
        return {"seat": None, "hand": [], "own_weis": [], "legal": []}
    return {
        "seat": obs.seat,
        "hand": _codes(cards_of(obs.hand)),
        "own_weis": [_codes(cards_of(w.cards)) for w in obs.own_weis],
        "legal": [action_to_json(a) for a in obs.legal_actions],
    }


def level_name(lang: str, kind: str) -> str:
    """A computer seat named by its level ("medium", "mittel", "Zufallsjasser"): the server's
    one naming of it, the same as the pages' ``levelName`` (``i18n.js``). A word that reads as
    a player's name ("mit Zufallsjasser"), where the level menus say the level itself
    (``level_random``: "Computer: Zufall")."""
    return i18n.text(lang, f"seat_name_{kind}")


def seat_name(seats: Sequence[SeatInfo], seat: int, viewer: int | None, lang: str) -> str:
    """A seat's name as the table says it: its own name; else where it sits from the
    viewer's; for a spectator a computer by its level (numbered when two share it), a person
    by the seat's number — as the table's page names it (``seatName`` in ``table.js``)."""
    info = seats[seat]
    if info.name and info.name != info.kind:
        return info.name
    if viewer is not None:
        return i18n.text(lang, ("you", "right", "partner", "left")[(seat - viewer) % 4])
    if info.kind == "human":
        return i18n.text(lang, "seat_n", n=seat + 1)
    level = level_name(lang, info.kind)
    twins = sum(s.kind == info.kind and s.name in ("", s.kind) for s in seats)
    return f"{level} ({seat + 1})" if twins > 1 else level


def hand_points(hand: Hand, credits: list[Any] | None = None) -> list[int]:
    """The points written for each team in a hand (after the multiplier)."""
    points = [0, 0]
    for credit in hand.credits if credits is None else credits:
        points[credit.team] += credit.points
    return points


def written_blocks(credits: Sequence[Credit]) -> list[dict[str, int]]:
    """Each team's points of a hand as written, block by block (after the multiplier), and
    their ``total``: the one count of the deciding hand and of every hand of the replay."""
    teams: list[dict[str, int]] = [dict.fromkeys(BLOCKS, 0) for _ in (0, 1)]
    for credit in credits:
        teams[credit.team][credit.block] += credit.points
    for team in teams:
        team["total"] = sum(team[b] for b in BLOCKS)
    return teams


def history(game: Game, done: list[list[int]] | None = None) -> list[list[int]]:
    """The points written per hand: every complete hand, and the one the game ended in.

    ``done``, when given, holds the points of the first complete hands already counted; it
    is extended in place (a complete hand never changes), so each hand is counted once.
    """
    done = [] if done is None else done
    hands = game.hands
    last = len(hands) - 1
    while len(done) < last or (len(done) == last and hands[last].is_over and not game.is_over):
        done.append(hand_points(hands[len(done)]))
    if game.is_over and len(done) == last:
        return [*done, hand_points(hands[last], game.written_credits())]
    return list(done)


def last_hand(game: Game) -> dict[str, Any] | None:
    """The breakdown of the latest complete hand, per team and block (after the
    multiplier), or ``None`` before there is one."""
    for number in range(len(game.hands) - 1, -1, -1):
        hand = game.hands[number]
        if not hand.is_over:
            continue
        score = hand.score()
        f = score.factor
        match_team = next((t for t in (0, 1) if score.match[t]), -1)
        teams = [
            {
                "stoeck": score.stoeck[t] * f,
                "weis": score.weis[t] * f,
                "tricks": score.tricks[t] * f,
                "match": score.match[t] * f,
                "factor": f,
                "total": score.total(t),
            }
            for t in (0, 1)
        ]
        return {
            "number": number,
            "contract": hand.contract,
            "contract_seat": hand.contract_seat,
            "factor": f,
            "match_team": match_team,
            "teams": teams,
        }
    return None


def deciding_hand(game: Game) -> dict[str, Any] | None:
    """Once the game is over: the hand it was decided in, as far as it was written (in
    ``immediate`` mode it may end in the middle), block by block, and why it ended —
    ``target`` (a team reached it; ``block`` the points that took it there, ``trick`` the
    trick being played then) or ``thanked`` (``seat`` thanked, ``correct`` or not)."""
    hand = game.hand
    if not game.is_over or hand is None:
        return None
    written = game.written_credits()
    out: dict[str, Any] = {
        "number": len(game.hands) - 1,
        "contract": hand.contract,
        "contract_seat": hand.contract_seat,
        "factor": hand.factor if hand.contract >= 0 else 1,
        "teams": written_blocks(written),
        "complete": hand.is_over,
        "trick": len(hand.tricks) - 1,
        "tricks": len(hand.tricks),
        "decided_at": list(game.decided_at),
        "target": game.rules.target,
    }
    last = game.record.entries[-1][1] if game.record.entries else None
    if isinstance(last, Thank):
        out["reason"] = "thanked"
        out["seat"] = game.record.entries[-1][0]
        out["correct"] = game.decided_at[team_of(out["seat"])] >= game.rules.target
    else:
        out["reason"] = "target"
        out["block"] = written[-1].block if written else "tricks"
    return out


class ShownAt:
    """When the table showed a hand's weis and stöck, as the number of the hand's actions
    after which its VIEW first held them (``shown_weis``, ``stoeck_seat``)."""

    def __init__(self) -> None:
        self.weis: dict[tuple[int, int], int] = {}  # (seat, its n-th weis) -> move
        self.stoeck = -1

    def watch(self, hand: Hand, move: int) -> None:
        """Note what the table shows of ``hand`` after its ``move``-th action."""
        team = hand.weis_team
        if team >= 0:
            for seat in (team, team + 2):
                for n in range(len(hand.declared[seat])):
                    self.weis.setdefault((seat, n), move)
        if hand.stoeck_declared and self.stoeck < 0:
            self.stoeck = move


def shown_at(game: Game) -> list[ShownAt]:
    """For each hand of ``game``, when the table showed its weis and stöck: its record played
    again, the hand looked at after every action as the live table's VIEW was. A weis is shown
    once the first trick is complete, or, declared later (``auto_weis`` off: further weis
    until the lead to the second trick, RULES.md §5), when it is declared; the stöck when
    they are declared."""
    again = Game(game.rules)
    out: list[ShownAt] = []
    move = 0
    for seat, action in game.record.entries:
        if isinstance(action, Deal):
            again.apply(action)
            out.append(ShownAt())
            move = 0
            continue
        again.apply(action, seat)
        move += 1
        hand = again.hand
        if hand is not None:
            out[-1].watch(hand, move)
    return out


def game_scores(game: Game) -> list[dict[str, Any]]:
    """Each hand of a game as the table wrote it, for its replay: the factor, each team's
    blocks (after the multiplier) and total, the running totals after it; the weis written —
    every weis of the team whose best weis won, each with its cards, its points before the
    multiplier and the ``move`` (the number of the hand's actions) after which the table
    showed it — and why that team's won (``Hand.weis_reason``); who showed the stöck and
    after which move (``stoeck_move``), who made match, and whether the game was decided in
    it (``immediate``: what came after that moment is not written)."""
    out: list[dict[str, Any]] = []
    running = [0, 0]
    last = len(game.hands) - 1
    moments = shown_at(game)
    for number, hand in enumerate(game.hands):
        shown = moments[number]
        teams = written_blocks(game.written_credits() if number == last else hand.credits)
        for t in (0, 1):
            running[t] += teams[t]["total"]
        weis_team = hand.weis_team if any(teams[t]["weis"] for t in (0, 1)) else -1
        stoeck = hand.stoeck_seat if any(teams[t]["stoeck"] for t in (0, 1)) else -1
        out.append(
            {
                "factor": hand.factor if hand.contract >= 0 else 1,
                "teams": teams,
                "totals": list(running),
                "weis": [
                    {
                        "seat": s,
                        "cards": _codes(cards_of(w.cards)),
                        "points": w.points,
                        "move": shown.weis[s, n],
                    }
                    for s in range(4)
                    if weis_team >= 0 and team_of(s) == weis_team
                    for n, w in enumerate(hand.declared[s])
                ],
                "weis_reason": hand.weis_reason if weis_team >= 0 else None,
                "stoeck": stoeck,
                "stoeck_move": shown.stoeck if stoeck >= 0 else -1,
                "match": next((t for t in (0, 1) if teams[t]["match"]), -1),
                "decided": game.is_over and number == last,
            }
        )
    return out


class ViewCache:
    """The serialised public part of a table's VIEW, rebuilt only when the game changed.

    ``fragment(seat)`` gives the inside of the VIEW object (without braces) for one seat:
    the rules and the public part shared by everyone, then that seat's private part.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._rules = '"rules":' + json.dumps(game.rules.to_dict(), ensure_ascii=False)
        self._seq = -1
        self._public = ""
        self._obs: Observation | None = None  # the observation the public part came from
        self._spectator = _inner(private_view(None))
        self._history: list[list[int]] = []
        self._past: tuple[tuple[int, bool, bool], str] | None = None
        self._private: dict[int, tuple[tuple[object, ...], str]] = {}

    def _refresh(self, seq: int) -> None:
        if seq != self._seq:
            game = self.game
            to_act = game.current_player
            # the seat to act: its observation serves its private part too
            obs = observe(game, to_act if to_act is not None and to_act >= 0 else 0)
            public = public_view(obs)
            public["credits"] = [
                {"team": c.team, "block": c.block, "points": c.points}
                for c in game.written_credits()
            ]
            # why the weis_team's best weis won: public, it names no card of the other team
            public["weis_reason"] = game.hand.weis_reason if game.hand is not None else None
            self._public = self._rules + "," + _inner(public) + "," + self._past_part()
            self._obs = obs
            self._seq = seq

    def _past_part(self) -> str:
        """``history``, ``striche_kinds`` and ``last_hand``, which change only when a hand or
        the game ends."""
        game = self.game
        hand = game.hand
        key = (len(game.hands), hand is not None and hand.is_over, game.is_over)
        if self._past is None or self._past[0] != key:
            past: dict[str, Any] = {
                "history": history(game, self._history),
                "striche_kinds": list(game.striche_kinds),
            }
            previous = last_hand(game)
            if previous is not None:
                past["last_hand"] = previous
            deciding = deciding_hand(game)
            if deciding is not None:
                past["deciding"] = deciding
            self._past = (key, _inner(past))
        return self._past[1]

    def fragment(self, seq: int, seat: int | None) -> str:
        """The VIEW of ``seat`` at record length ``seq``, as JSON without its braces."""
        self._refresh(seq)
        if seat is None:
            return self._public + "," + self._spectator
        return self._public + "," + self._private_part(seq, seat)

    def _private_part(self, seq: int, seat: int) -> str:
        """A seat's private part changes only when its cards, its declared weis, its turn or
        the declarations open to it outside its turn do: it is rebuilt then, and reused
        otherwise."""
        obs = self._obs
        assert obs is not None  # set by _refresh
        hand = self.game.hand
        key = (
            obs.hand_number,
            hand.hands[seat] if hand is not None else 0,
            hand.declared[seat] if hand is not None else (),
            seq if obs.to_act == seat else -1,
            obs.winner,
            tuple(hand.declarations(seat)) if hand is not None and not self.game.is_over else (),
        )
        cached = self._private.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        part = _inner(private_view(obs if obs.seat == seat else observe(self.game, seat)))
        self._private[seat] = (key, part)
        return part


def _inner(d: dict[str, Any]) -> str:
    """A dict as JSON without the outer braces, to splice into a larger object."""
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))[1:-1]
