"""`chibre serve`: serve the table in the browser."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """Add `serve` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser("serve", help="serve the table in the browser")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("chibre serve: not available yet")
    return 2
