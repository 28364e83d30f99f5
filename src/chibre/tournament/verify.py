"""``chibre verify RECORD``: check that a game's deals are those its table committed to.

The record is a JSON game record with a ``deals`` field (``chibre.tournament.fairdeal``): the
scheme, the commitment published before the first card and the seed revealed after the game.
The command recomputes every deal from the seed and checks the commitment; ``--commitment``
also checks it against the one noted at the table. Exit status 0: every deal is right; 1: some
deal, the seed or the commitment is not; 2: the file cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chibre.errors import ChibreError, file_error
from chibre.notation import read_json, record_from_dict
from chibre.tournament.fairdeal import verify


def add_parser(sub: Any) -> None:
    """Add `verify` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="check a record's deals against the commitment made before the first card",
        description="Recompute every deal of a JSON game record from its revealed seed and "
        "check the commitment published before the first card.",
    )
    p.add_argument("record", metavar="RECORD", help="a JSON game record with its deals field")
    p.add_argument("--commitment", help="the commitment shown at the table (sha256:…)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        with open(args.record, encoding="utf-8") as f:
            document = read_json(f.read())
        record = record_from_dict(document)
    except OSError as e:
        print(f"chibre verify: {file_error(e)}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as e:
        said = f"not a text file (byte {e.start} is not UTF-8)"
        print(f"chibre verify: {args.record}: {said}", file=sys.stderr)
        return 2
    except ChibreError as e:
        print(f"chibre verify: {args.record}: {e}", file=sys.stderr)
        return 2
    problems = verify(record, document.get("deals"), args.commitment)
    hands = len(record.hands())
    if problems:
        for problem in problems:
            print(f"{args.record}: {problem}")
        return 1
    commitment = document["deals"]["commitment"]
    print(f"{args.record}: all {hands} deals are those committed to by {commitment}")
    return 0


__all__ = ["add_parser", "run"]
