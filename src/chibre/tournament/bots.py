"""``chibre tournament``: a tournament of computer players only, from the command line.

Every format of ``chibre.tournament.plan`` is played the way the server plays it: each round
drawn, each table's game played from deals committed to by a seed (``fairdeal``), the outcome
of each game added to the standings. Everything follows from ``--seed``: the draws, the deal
seeds (the SHA-256 of ``SEED:deals:ROUND:TABLE``, or of ``SEED:deals:ROUND`` for a duplicate
round, whose tables all play the same deals) and the players' seeds, so the same command prints
the same standings. With ``--out DIR`` every game's record is written as JSON
(``round-R-table-T.json``, with its revealed deal seed, checkable by ``chibre verify``) beside
``standings.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from chibre.arena import IllegalMove, build_player
from chibre.bots import PLAYERS
from chibre.bots.player import Player
from chibre.errors import ChibreError
from chibre.game import CHANCE, Game
from chibre.notation import format_action, format_record, record_to_dict
from chibre.options import add_set_argument, rules_from
from chibre.player_time import add_time_arguments, check_seconds
from chibre.remote import Incident, is_spec
from chibre.rules import PRESETS, Rules
from chibre.tournament import COMPUTER, TournamentError
from chibre.tournament.duplicate import TablePlay, check_rules, compare, is_turned
from chibre.tournament.fairdeal import DealSource
from chibre.tournament.passe import new_game
from chibre.tournament.plan import FORMATS, Options, TableDraw, draw_next, outcome_of
from chibre.tournament.standings import Outcome, Standing, standings


@dataclass
class Played:
    """A table's game once played: the draw, the game, and its deals' source."""

    round: int
    table: TableDraw
    game: Game
    deals: DealSource
    incidents: list[dict[str, Any]] = field(default_factory=list)  # a foreign player's

    def record(self, names: Mapping[str, str]) -> dict[str, Any]:
        """The game's JSON record with the revealed deal seed, where it was played, and the
        incidents of its foreign players (docs/protocols.md, "Incidents")."""
        out = record_to_dict(self.game.record)
        out["deals"] = self.deals.to_dict(reveal=True)
        if self.incidents:
            out["incidents"] = self.incidents
        out["tournament"] = {
            "round": self.round,
            "table": self.table.number,
            "seats": [
                names.get(p, "computer") if p != COMPUTER else "computer" for p in self.table.seats
            ],
        }
        return out


@dataclass
class Result:
    """A whole tournament of computer players."""

    options: Options
    entrants: list[str]
    played: list[Played] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    duplicate: dict[str, float] = field(default_factory=dict)

    def standings(self) -> list[Standing]:
        return standings(
            self.entrants,
            self.outcomes,
            self.options.scoring,
            self.options.tie_breaks,
            self.duplicate if self.options.duplicate else None,
        )


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def play_table(
    table: TableDraw,
    levels: Mapping[str, str],
    computer: str,
    rules: Rules,
    options: Options,
    deals: DealSource,
    seed: str,
    foreign_limit: float | None = None,
    incidents: list[dict[str, Any]] | None = None,
) -> Game:
    """Play one table's game: seat occupants by their level (or a foreign player's spec,
    given ``foreign_limit`` a move), ``computer`` in computer seats; the foreign players'
    incidents are added to ``incidents``."""
    kinds = [computer if p == COMPUTER else levels[p] for p in table.seats]
    players: list[Player] = [
        build_player(kind, int(_digest(f"{seed}:{s}")[:8], 16), None, foreign_limit)
        for s, kind in enumerate(kinds)
    ]
    game = new_game(rules, options.hands)
    while not game.is_over:
        seat = game.current_player
        if seat == CHANCE:
            game.apply(deals.next_deal(game))
            continue
        assert seat is not None
        had = len(getattr(players[seat], "incidents", ()))
        action = players[seat].act(game.observation(seat))
        for i in getattr(players[seat], "incidents", ())[had:]:
            if incidents is not None:
                at = len(game.record.entries)
                incidents.append({"seat": seat, **_incident(i), "at": at})
        try:
            game.apply(action, seat)
        except ChibreError as e:
            raise IllegalMove(
                f"player {kinds[seat]!r} at seat {seat} of table {table.number} chose "
                f"{format_action(action, seat)} ({e}) in this position:\n"
                f"{format_record(game.record)}"
            ) from e
    return game


def _incident(i: Incident) -> dict[str, Any]:
    return {"kind": i.kind, "detail": i.detail[:200], "seconds": round(i.seconds, 3)}


def run_tournament(
    levels: Sequence[str],
    options: Options,
    rules: Rules,
    seed: int = 0,
    computer: str = "rule",
    foreign_limit: float | None = None,
) -> Result:
    """Play a tournament of the computer players ``levels`` (one per player; teams are
    consecutive pairs; a foreign player's spec of ``chibre.remote`` has ``foreign_limit``
    seconds a move)."""
    for level in {*levels, computer}:
        if level not in PLAYERS and not is_spec(level):
            raise TournamentError(f"no player {level!r}: choose one of {', '.join(PLAYERS)}")
    players = [f"{level}-{n}" for n, level in enumerate(levels, 1)]
    level_of = dict(zip(players, levels, strict=True))
    if options.format == "evening":
        entrants = players
        members: dict[str, tuple[str, str]] = {}
    else:
        if len(players) % 2:
            raise TournamentError("teams are pairs of players: give an even number of players")
        entrants = [f"team-{n + 1}" for n in range(len(players) // 2)]
        members = {t: (players[2 * n], players[2 * n + 1]) for n, t in enumerate(entrants)}
    result = Result(options, entrants)
    rng = Random(f"{seed}:draw")
    rounds: list[list[TableDraw]] = []
    for number in range(1, options.rounds + 1):
        tables = draw_next(options, entrants, entrants, members, rounds, result.outcomes, rng)
        rounds.append(tables)
        plays = []
        for table in tables:
            where = f"{number}" if options.duplicate else f"{number}:{table.number}"
            deals = DealSource(
                _digest(f"{seed}:deals:{where}"), options.duplicate and is_turned(table.number)
            )
            noted: list[dict[str, Any]] = []
            where = f"{seed}:{number}:{table.number}"
            game = play_table(
                table, level_of, computer, rules, options, deals, where, foreign_limit, noted
            )
            result.played.append(Played(number, table, game, deals, noted))
            result.outcomes.append(outcome_of(game, table, number, options))
            plays.append(
                TablePlay(table.number, table.sides, [h.score().totals for h in game.hands])
            )
        if options.duplicate:
            for entrant, points in compare(plays).items():
                result.duplicate[entrant] = result.duplicate.get(entrant, 0.0) + points
    return result


def format_standings(lines: Sequence[Standing], options: Options) -> str:
    """The standings as a text table."""
    score = "duplicate" if options.duplicate else options.scoring
    head = f"{'rank':>4}  {'entrant':<14} {score:>10} {'points':>7} {'diff':>6} {'won':>4}"
    if options.format == "swiss":
        head += f" {'buchholz':>9}"
    rows = [head]
    for s in lines:
        row = (
            f"{s.rank:>4}  {s.entrant:<14} {s.score:>10g} {s.points:>7} {s.difference:>+6} "
            f"{s.won:>4}"
        )
        if options.format == "swiss":
            row += f" {s.buchholz:>9g}"
        rows.append(row)
    return "\n".join(rows)


def add_parser(sub: Any) -> None:
    """Add `tournament` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "tournament",
        help="play a tournament of computer players",
        description="Play a tournament of computer players: an evening with drawn partners, "
        "fixed teams (round-robin or Swiss), games to the target or a Passe of a fixed number "
        "of hands, optionally duplicate. The same --seed gives the same tournament.",
    )
    p.add_argument("--format", choices=FORMATS, default="evening")
    p.add_argument(
        "--players",
        default="8",
        metavar="N|LEVEL,…",
        help="how many players of --level (default 8), or a level for each player",
    )
    p.add_argument("--level", default="rule", help="the players' level when --players is a number")
    p.add_argument("--computer", default="rule", help="the level of computer seats (byes)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--hands", type=int, default=0, help="a Passe of N hands (default: games)")
    p.add_argument("--scoring", choices=("points", "striche"), default="points")
    p.add_argument("--duplicate", action="store_true", help="duplicate rounds (with --hands)")
    p.add_argument("--rules", choices=sorted(PRESETS), default="geneve-500")
    add_set_argument(p)
    p.add_argument("--seed", type=int, default=0)
    add_time_arguments(p, time_per_move_help=None)
    p.add_argument("--out", metavar="DIR", help="write every game's record and the standings")
    p.set_defaults(func=run)


def _levels(text: str, level: str) -> list[str]:
    if text.isdigit():
        return [level] * int(text)
    return [w.strip() for w in text.split(",") if w.strip()]


def run(args: argparse.Namespace) -> int:
    try:
        options = Options(args.format, args.rounds, args.hands, args.scoring, args.duplicate)
        rules = rules_from(args.rules, args.set)
        if options.duplicate:
            check_rules(rules)
        check_seconds(foreign_limit=args.foreign_limit)
        result = run_tournament(
            _levels(args.players, args.level),
            options,
            rules,
            args.seed,
            args.computer,
            args.foreign_limit,
        )
    except ChibreError as e:
        print(f"chibre tournament: {e}", file=sys.stderr)
        return 2
    names = {p: p for played in result.played for p in played.table.seats if p != COMPUTER}
    game = f"a Passe of {options.hands} hands" if options.hands else f"games to {rules.target}"
    print(
        f"{options.format}: {len(result.entrants)} entrants, {options.rounds} rounds, {game}, "
        f"rules {args.rules}, seed {args.seed}"
    )
    current = 0
    for played in result.played:
        if played.round != current:
            current = played.round
            print(f"round {current}")
        t, g = played.table, played.game
        seats = " ".join(p or "computer" for p in t.seats)
        print(
            f"  table {t.number}: {seats} — {g.totals[0]}:{g.totals[1]} in {len(g.hands)} "
            f"hands, deals {played.deals.commitment[:19]}…"
        )
    print(format_standings(result.standings(), options))
    noted = [i for played in result.played for i in played.incidents]
    if noted:
        kinds = sorted({i["kind"] for i in noted})
        print(f"foreign players' decisions replaced by rule: {len(noted)} ({', '.join(kinds)})")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for played in result.played:
            path = out / f"round-{played.round}-table-{played.table.number}.json"
            path.write_text(json.dumps(played.record(names), ensure_ascii=False, indent=1))
        lines = [s.to_dict() for s in result.standings()]
        document = {"options": options.to_dict(), "seed": args.seed, "standings": lines}
        (out / "standings.json").write_text(json.dumps(document, ensure_ascii=False, indent=1))
        print(f"{len(result.played)} records and standings.json written to {out}")
    return 0


__all__ = ["Played", "Result", "add_parser", "format_standings", "play_table", "run_tournament"]
