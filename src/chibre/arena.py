"""`chibre arena`: play duplicate deals between two computer players."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """Add `arena` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "arena", help="play duplicate deals between two computer players"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("chibre arena: not available yet")
    return 2
