"""`chibre tafel`: the Jasstafel and the calculator."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """Add `tafel` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser("tafel", help="the Jasstafel and the calculator")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("chibre tafel: not available yet")
    return 2
