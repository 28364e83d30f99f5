"""`chibre play`: play chibre in the terminal against three computer players."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """Add `play` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "play", help="play chibre in the terminal against three computer players"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("chibre play: not available yet")
    return 2
