"""A game kept in a file as it is played (``chibre play --record FILE``).

The file is the game's record in the engine's notation, written whole after every move (to a
file beside it, then put in its place, so that a crash leaves either the record before the
move or the one after it): ``chibre replay`` and ``chibre review`` read it, and
``chibre play --record FILE`` goes on with the game it holds when that game is unfinished.
"""

from __future__ import annotations

import os
from pathlib import Path

from chibre.errors import ChibreError
from chibre.game import Game, GameRecord
from chibre.notation import format_record, parse_record


def unfinished(path: Path) -> Game | None:
    """The unfinished game kept in ``path``, or ``None`` when there is no such file; a file
    that is not a record, or holds a finished game, is refused (``ChibreError``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as e:
        raise ChibreError(f"{path}: not a game record (not UTF-8 text)") from e
    try:
        game, _ = parse_record(text).replay()
    except ChibreError as e:
        raise ChibreError(f"{path}: not a game record to go on with: {e}") from e
    if game.is_over:
        raise ChibreError(
            f"{path} holds a finished game (chibre replay {path} shows it): "
            "give another file to keep this game in"
        )
    return game


def keep(path: Path, record: GameRecord) -> None:
    """Write ``record`` to ``path`` whole, in place of what was there."""
    part = path.with_name(path.name + ".part")
    part.write_text(format_record(record), encoding="utf-8")
    os.replace(part, path)


def free_name(path: Path) -> Path:
    """``path``, or when it is taken the first of ``NAME-2.EXT``, ``NAME-3.EXT``… that is
    not."""
    n = 1
    found = path
    while found.exists():
        n += 1
        found = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return found
