"""Score sheets of the Jasstafel calculator, kept in the table's SQLite store."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute


def routes(db_path: Path) -> list[BaseRoute]:
    """The HTTP routes of the calculator."""
    return []
