"""A player's games and figures without an account: the browser sends the seat tokens it holds
(``POST /api/history``), the server reads those tables from the store and answers each game's
result and the player's figures over them. Nothing new is stored and nothing but the tokens
identifies the player.

``seat_games`` and ``figures`` are pure: replayed games in, JSON-ready dicts out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chibre.game import Game
from chibre.hand import team_of
from chibre.server.store import SeatInfo, StoredTable


@dataclass(frozen=True)
class SeatGame:
    """One game of the player: the table as stored, the replayed game, the player's seat."""

    stored: StoredTable
    game: Game
    seat: int


def _name(info: SeatInfo) -> str:
    return info.name or ("" if info.kind == "human" else info.kind)


def game_entry(g: SeatGame, link: str, share: dict[str, Any]) -> dict[str, Any]:
    """What the lobby lists of one game: when, with whom, the result, the link back, and
    what the player may share of it (``Table.replay_share``)."""
    team = team_of(g.seat)
    seats = g.stored.seats
    return {
        "table": g.stored.id,
        "created": g.stored.created,
        "link": link,
        "seat": g.seat,
        "partner": _name(seats[(g.seat + 2) % 4]),
        "partner_kind": seats[(g.seat + 2) % 4].kind,
        "opponents": [_name(seats[(g.seat + 1) % 4]), _name(seats[(g.seat + 3) % 4])],
        "opponent_kinds": [seats[(g.seat + 1) % 4].kind, seats[(g.seat + 3) % 4].kind],
        "finished": g.game.is_over,
        "won": g.game.is_over and g.game.winner == team,
        "points": [g.game.totals[team], g.game.totals[1 - team]],
        "striche": [g.game.striche[team], g.game.striche[1 - team]],
        "hands": len(g.game.hands),
        **share,
    }


def figures(games: list[SeatGame]) -> dict[str, Any]:
    """The player's figures over their finished games: games and hands won, average points
    per hand (their team's, after the multiplier), matches, weis, points as chooser — over
    the hands played to their end — and the contracts chosen, the hand the game ended in
    (the target reached, a thanks) included."""
    out: dict[str, Any] = {
        "games": 0, "games_won": 0, "hands": 0, "hands_won": 0, "points": 0, "matches": 0,
        "weis": 0, "weis_hands": 0, "contracts": [0] * 6, "chosen": 0, "chooser_points": 0,
    }  # fmt: skip
    for g in games:
        if not g.game.is_over:
            continue
        team = team_of(g.seat)
        out["games"] += 1
        out["games_won"] += g.game.winner == team
        for hand in g.game.hands:
            chose = hand.contract_seat == g.seat and hand.contract >= 0
            if chose:
                out["contracts"][hand.contract] += 1
            if not hand.is_over:
                continue
            score = hand.score()
            mine, theirs = score.total(team), score.total(1 - team)
            out["hands"] += 1
            out["hands_won"] += mine > theirs
            out["points"] += mine
            out["matches"] += score.match[team] > 0
            if score.weis[team]:
                out["weis"] += score.weis[team] * score.factor
                out["weis_hands"] += 1
            if chose:
                out["chosen"] += 1
                out["chooser_points"] += mine
    hands, chosen = out["hands"], out["chosen"]
    out["average"] = round(out["points"] / hands, 1) if hands else 0
    out["chooser_average"] = round(out["chooser_points"] / chosen, 1) if chosen else 0
    return out
