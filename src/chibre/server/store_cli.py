"""`chibre store`: look after the server's SQLite file.

    chibre store check PATH         SQLite's integrity check and the schema's tables:
                                    exit 0 sound, 1 damaged, 2 unreadable (or no such file)
    chibre store backup PATH DEST   a copy made with SQLite's online backup, safe while
                                    ``chibre serve`` writes to PATH; DEST must not exist

Neither changes PATH. ``chibre serve`` checks the file itself at start and saves what it can of
a damaged one (``chibre.server.recovery``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from chibre.server import migrations
from chibre.server.recovery import Health, StoreRefused, backup, examine

SOUND, DAMAGED, UNREADABLE = 0, 1, 2


def add_parser(sub: Any) -> None:
    """Add `store` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "store",
        help="check or back up the server's SQLite file",
        description="Check or back up the SQLite file of `chibre serve`.",
    )
    actions = p.add_subparsers(dest="store_command", required=True)
    check = actions.add_parser(
        "check", help="check the file (exit 0 sound, 1 damaged, 2 unreadable)"
    )
    check.add_argument("path", type=Path, metavar="PATH")
    check.set_defaults(func=cmd_check)
    copy = actions.add_parser("backup", help="copy the file safely, even while it is served")
    copy.add_argument("path", type=Path, metavar="PATH")
    copy.add_argument("dest", type=Path, metavar="DEST")
    copy.set_defaults(func=cmd_backup)


def _many(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _contents(health: Health) -> str:
    counts = health.counts
    parts = [f"schema version {health.version}"]
    if "game_tables" in counts:
        parts.append(_many(counts["game_tables"], "table"))
    if "score_sheets" in counts:
        parts.append(_many(counts["score_sheets"], "score sheet"))
    if counts.get("damaged_tables"):
        parts.append(_many(counts["damaged_tables"], "table") + " recorded as damaged")
    return ", ".join(parts)


def cmd_check(args: argparse.Namespace) -> int:
    health = examine(args.path, thorough=True)
    if health.shut_in:
        print(
            f"{args.path}: cannot be read where it is: its folder cannot be written, and SQLite "
            "writes a small file beside the store even to read it"
        )
        return UNREADABLE
    if not health.readable:
        print(f"{args.path}: unreadable: {health.describe()}")
        return UNREADABLE
    if health.too_new:
        print(
            f"{args.path}: written by a newer chibre (schema version {health.version}; this one "
            f"knows up to {migrations.SCHEMA_VERSION})"
        )
        return UNREADABLE
    if health.problems:
        n = len(health.problems)
        print(f"{args.path}: damaged ({n} problem{'s' if n > 1 else ''} found):")
        for problem in health.problems:
            print(f"  {problem}")
        print("`chibre serve` will save what it can of it when it starts.")
        return DAMAGED
    print(f"{args.path}: sound ({_contents(health)})")
    return SOUND


def cmd_backup(args: argparse.Namespace) -> int:
    try:
        health = backup(args.path, args.dest)
    except StoreRefused as e:
        print(f"chibre store backup: {e}", file=sys.stderr)
        return UNREADABLE
    if not health.ok:
        print(f"{args.dest}: the copy is damaged: {health.describe()}", file=sys.stderr)
        return DAMAGED
    print(f"{args.path} backed up to {args.dest} ({_contents(health)})")
    return SOUND
