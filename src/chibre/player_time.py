"""A computer player's time on the command line: ``--time-per-move``, the thinking budget of
our players, and ``--foreign-limit``, how long a foreign player (``jasskit-http:``) may take
before ``rule`` decides instead. ``chibre arena``, ``chibre bot``, ``chibre player-service``
and ``chibre tournament`` read them here, with the same messages."""

from __future__ import annotations

import argparse

from chibre.errors import ChibreError
from chibre.remote import DEFAULT_TIME_LIMIT

TIME_PER_MOVE_HELP = "seconds per decision: the thinking budget of our players that take one"
FOREIGN_LIMIT_HELP = (
    "seconds a foreign player (jasskit-http:) has for a decision before rule plays instead "
    f"(default {DEFAULT_TIME_LIMIT:g})"
)


def add_time_arguments(
    parser: argparse.ArgumentParser, time_per_move_help: str | None = TIME_PER_MOVE_HELP
) -> None:
    """``--time-per-move T`` (left out when its help is ``None``) and ``--foreign-limit T``."""
    if time_per_move_help is not None:
        parser.add_argument("--time-per-move", type=float, metavar="T", help=time_per_move_help)
    parser.add_argument("--foreign-limit", type=float, metavar="T", help=FOREIGN_LIMIT_HELP)


def check_seconds(time_per_move: float | None = None, foreign_limit: float | None = None) -> None:
    """``ChibreError`` naming the option when a time given is not a positive number."""
    for option, value in (("--time-per-move", time_per_move), ("--foreign-limit", foreign_limit)):
        if value is not None and not value > 0:
            raise ChibreError(f"{option} must be a positive number of seconds, not {value:g}")
