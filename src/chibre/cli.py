"""The ``chibre`` command.

chibre                      deal and play one hand between four random players, shown
chibre demo [--seed N]      the same, reproducible
chibre rules [PRESET] [--set OPTION=VALUE …]   the full option set as JSON
chibre deal [--seed N] [--dealer D]            a deal in the engine's notation
chibre replay FILE          replay a game record (notation or JSON), print the scores
chibre check FILE…          check jass-kit (V0.2) hands against the rules
chibre serve                the table in the browser (see ``chibre serve --help``)
chibre store check|backup   check or back up the server's SQLite file
chibre play                 a game in the terminal against three computer players
chibre arena A B            duplicate deals between two computer players
chibre tafel                the Jasstafel and the calculator
chibre bot URL --player P   play a seat of a chibre server with a computer player
chibre player-service       serve our players on the HSLU jass-kit's HTTP routes
chibre jass-challenge URL   play one of our players on a Jass Challenge server
chibre tournament           a tournament of computer players
chibre verify RECORD        check a record's deals against their commitment
chibre review RECORD        the coach's review of every decision of a game
chibre advise --hand "…"    the coach's advice for a hand held at a real table
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from importlib import metadata
from pathlib import Path
from random import Random

from chibre import arena, client, jass_challenge, player_service, tafel_cli, terminal
from chibre.actions import Thank
from chibre.cards import SUIT_SYMBOLS, card_symbol, cards_of
from chibre.coach import cli as coach_cli
from chibre.deal import deal_cards
from chibre.errors import ChibreError, NotationError, file_error
from chibre.events import (
    CardPlayed,
    Chibred,
    ContractNamed,
    Event,
    GameWon,
    HandScored,
    StoeckDeclared,
    TrickTaken,
    WeisAdded,
    WeisAnnounced,
    WeisScored,
)
from chibre.game import CHANCE, Game, GameRecord
from chibre.jasskit import check_hand, load_games
from chibre.notation import format_deal, format_record, parse_record, record_from_json
from chibre.options import add_rules_arguments, rules_from
from chibre.rules import CONTRACT_NAMES
from chibre.server import cli as serve_cli
from chibre.server import store_cli
from chibre.tournament import bots as tournament_cli
from chibre.tournament import verify as verify_cli


def _describe(event: Event) -> str | None:
    match event:
        case Chibred(seat):
            return f"seat {seat}: chibre"
        case ContractNamed(seat, contract, factor):
            x = f" ×{factor}" if factor != 1 else ""
            name = f"trump {SUIT_SYMBOLS[contract]}" if contract < 4 else CONTRACT_NAMES[contract]
            return f"seat {seat} names {name}{x}"
        case WeisAnnounced(seat, points):
            return f"seat {seat} announces {points}"
        case StoeckDeclared(seat, points):
            return f"seat {seat}: stöck ({points})"
        case WeisScored(team, points, shown):
            ws = ", ".join(f"seat {s} {w.describe()}" for s, w in shown)
            return f"team {team} scores its weis, {points}: {ws}"
        case WeisAdded(seat, points, shown):
            ws = ", ".join(w.describe() for _, w in shown)
            return f"seat {seat} declares more weis" + (f", {points}: {ws}" if points else "")
        case TrickTaken(number, winner, points):
            return f"  trick {number + 1} to seat {winner} ({points})"
        case HandScored(points, match_team):
            m = f", match for team {match_team}" if match_team >= 0 else ""
            return f"hand: team 0 {points[0]}, team 1 {points[1]}{m}"
        case GameWon(team, totals, striche):
            return f"team {team} wins {totals[0]}:{totals[1]}, Striche {striche[0]}:{striche[1]}"
    return None


def cmd_demo(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    rng = Random(seed)
    rules = rules_from(args.preset, args.set)
    game = Game(rules)
    game.deal(rng)
    print(f"chibre — one hand, rules {args.preset}, seed {seed}")
    hand = game.hand
    assert hand is not None
    for seat in range(4):
        cards = " ".join(card_symbol(c) for c in cards_of(hand.dealt[seat]))
        print(f"  seat {seat}: {cards}")
    print(f"  deal: {format_deal(game.record.entries[0][1])}")  # type: ignore[arg-type]
    trick: list[str] = []
    while not game.is_over and game.current_player != CHANCE:
        actions = [a for a in game.legal_actions() if not isinstance(a, Thank)]
        for event in game.apply(rng.choice(actions)):
            if isinstance(event, CardPlayed):
                trick.append(card_symbol(event.card))
                continue
            if isinstance(event, TrickTaken):
                print("  " + " ".join(trick), end="")
                trick = []
            text = _describe(event)
            if text:
                print(text)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(json.dumps(rules_from(args.preset, args.set).to_dict(), ensure_ascii=False, indent=2))
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    rng = Random(args.seed) if args.seed is not None else secrets.SystemRandom()
    print(format_deal(deal_cards(rng, args.dealer)))
    return 0


def read_text(name: str) -> str:
    """A file's text; ``NotationError`` naming the file when it is not UTF-8 (a binary
    file)."""
    data = Path(name).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotationError(
            f"{name}: not a text file (byte {e.start} is 0x{data[e.start]:02x}, not UTF-8)"
        ) from None


def read_record(name: str) -> GameRecord:
    """The game record in file ``name`` (JSON or notation); its faults name the file."""
    text = read_text(name)
    json_like = text.lstrip()[:1] in ("{", "[")
    try:
        return record_from_json(text) if json_like else parse_record(text)
    except NotationError as e:
        raise NotationError(f"{name}: {e.message}", e.text, e.position) from None
    except ChibreError as e:  # the record's rules
        raise NotationError(f"{name}: {e}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    game, events = record.replay()
    # with the record after them, the scores are its comments: the output reads back as a record
    said = "# " if args.notation else ""
    last = max((i for i, e in enumerate(events) if isinstance(e, HandScored)), default=-1)
    for i, event in enumerate(events):
        if isinstance(event, GameWon) and (cut := _hand_cut_short(game)):
            print(said + cut)
        if i == last and game.is_over and game.hand is not None and game.hand.is_over:
            written = game.written_score()  # the hand as written: a match after the end is not
            match = next((t for t in (0, 1) if written.match[t]), -1)
            event = HandScored(written.totals, match)
        if isinstance(event, HandScored | GameWon):
            print(f"{said}{_describe(event)}")
    print(f"{said}totals: team 0 {game.totals[0]}, team 1 {game.totals[1]}")
    if not game.is_over:
        print(f"{said}the game is not over: the record ends before either team won")
    if args.notation:
        print(format_record(record), end="")
    return 0


def _hand_cut_short(game: Game) -> str | None:
    """The hand the game ended in before its last trick (the target reached, a thanks): its
    points as the table wrote them; ``None`` when the game ended with a hand."""
    hand = game.hand
    if hand is None or hand.is_over:
        return None
    points = [0, 0]
    for credit in game.written_credits():
        points[credit.team] += credit.points
    trick = len(hand.tricks) + (1 if hand.trick else 0)
    at = f"in trick {trick}" if trick else "before the first card"
    return f"hand, ended {at}: team 0 {points[0]}, team 1 {points[1]}"


def cmd_check(args: argparse.Namespace) -> int:
    status = 0
    for name in args.files:
        try:
            games = load_games(read_text(name))
        except OSError as e:
            print(f"{name}: cannot read: {e.strerror or e}", file=sys.stderr)
            status = 2
            continue
        except ChibreError as e:
            print(f"{name}: cannot read: {e}", file=sys.stderr)
            status = 2
            continue
        for i, g in enumerate(games):
            label = name if len(games) == 1 else f"{name}#{i + 1}"
            result = check_hand(g, label)
            print(result)
            if not result.ok and status == 0:
                status = 1
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chibre", description="The chibre (Schieber Jass) table.")
    parser.add_argument("--version", action="version", version=f"chibre {_version()}")
    sub = parser.add_subparsers(dest="command")

    def subcommand(name: str, said: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=said, description=said[0].upper() + said[1:] + ".")

    demo = subcommand("demo", "play one hand between four random players")
    add_rules_arguments(demo)
    demo.add_argument("--seed", type=int, help="the deal's seed (random when left out)")
    demo.set_defaults(func=cmd_demo)
    rules = subcommand("rules", "print the full option set of a preset")
    add_rules_arguments(rules)
    rules.set_defaults(func=cmd_rules)
    deal = subcommand("deal", "print a random deal in notation")
    deal.add_argument("--seed", type=int, help="the deal's seed (random when left out)")
    deal.add_argument("--dealer", type=int, default=0, choices=range(4), help="the dealer (0)")
    deal.set_defaults(func=cmd_deal)
    replay = subcommand("replay", "replay a game record (notation or JSON) and print its scores")
    replay.add_argument("file", help="the record")
    replay.add_argument(
        "--notation",
        action="store_true",
        help="print the record in notation after the scores (then comments: it reads back)",
    )
    replay.set_defaults(func=cmd_replay)
    check = subcommand("check", "check jass-kit V0.2 game files")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(func=cmd_check)
    for command in (serve_cli, store_cli, terminal, arena, tafel_cli):
        command.add_parser(sub)
    for command in (client, player_service, jass_challenge):
        command.add_parser(sub)
    tournament_cli.add_parser(sub)
    verify_cli.add_parser(sub)
    coach_cli.add_parser(sub)
    return parser


def _version() -> str:
    try:
        return metadata.version("chibre")
    except metadata.PackageNotFoundError:  # run from the source tree, not installed
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    words = sys.argv[1:] if argv is None else argv
    commands = {"demo", "rules", "deal", "replay", "check", "serve", "store", "play", "arena"}
    commands |= {"tafel"}
    commands |= {"bot", "player-service", "jass-challenge"}
    commands |= {"tournament", "verify"}
    commands |= {"review", "advise"}
    commands |= {"-h", "--help", "--version"}
    if not words or words[0] not in commands:
        words = ["demo", *words]  # `chibre`, `chibre --seed 5`, `chibre jasvel`: the demo
    args = parser.parse_args(words)
    try:
        code: int = args.func(args)
    except BrokenPipeError:  # `chibre demo | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ChibreError as e:
        print(f"chibre: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"chibre: {file_error(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C, even while a command is still starting
        print(file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
