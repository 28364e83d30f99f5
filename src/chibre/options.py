"""The table's options as written on the command line: a preset, then ``--set OPTION=VALUE``.

Each value is read as JSON when it is JSON (``target=2500``, ``weis=false``,
``striche={"match": 2}``) and as a word otherwise (``deck=swiss``). ``chibre rules``,
``chibre play`` and ``chibre arena`` all read their options here, with the same messages.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from chibre.errors import InvalidRules
from chibre.rules import PRESETS, Rules


def add_set_argument(parser: argparse.ArgumentParser) -> None:
    """``--set OPTION=VALUE``, as many times as wanted."""
    parser.add_argument("--set", action="append", metavar="OPTION=VALUE", help="change an option")


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The optional ``PRESET`` (default ``romand``) and ``--set OPTION=VALUE``."""
    parser.add_argument("preset", nargs="?", default="romand", choices=sorted(PRESETS))
    add_set_argument(parser)


def read_settings(settings: Sequence[str] | None) -> dict[str, Any]:
    """The options that ``OPTION=VALUE`` items set, in order (a later one wins)."""
    options: dict[str, Any] = {}
    for item in settings or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InvalidRules(f"--set {item!r}: write OPTION=VALUE")
        try:
            options[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[name.strip()] = value
    return options


def rules_from(preset: str, settings: Sequence[str] | None = None, **options: Any) -> Rules:
    """The preset ``preset`` with each ``OPTION=VALUE`` of ``settings`` changed, then the
    keyword ``options`` (those the command takes as flags of their own, such as the deck).
    Raises ``InvalidRules`` with a message a player can read."""
    return Rules.preset(preset, **{**read_settings(settings), **options})


__all__ = ["add_rules_arguments", "add_set_argument", "read_settings", "rules_from"]
