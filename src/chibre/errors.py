"""The errors of the engine, each with a message a player can read.

A refused action raises one of these and leaves the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping


class ChibreError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidRules(ChibreError, ValueError):
    """An unknown option, a value out of range, or options that contradict each other."""


class IllegalAction(ChibreError):
    """An action the rules do not allow now (wrong phase, a second chibre, a bad weis…).

    A refusal made by ``chibre.refusals.refused`` has a ``key`` of the message catalogue and
    its ``fields``, and ``said`` words it in any language of the catalogue; the message is its
    English."""

    key = ""
    fields: Mapping[str, object] = {}

    def said(self, lang: str) -> str:
        """The refusal in ``lang``: from the catalogue when it has a key, else as raised."""
        if not self.key:
            return str(self)
        from chibre.refusals import say  # it reads the catalogue and names cards: it imports us

        return say(self.key, self.fields, lang)


class IllegalCard(IllegalAction):
    """A card that may not be played now; the message says which rule forbids it."""


class NotYourTurn(IllegalAction):
    """A seat acted while another seat is to act."""


class GameOver(IllegalAction):
    """An action after the hand or the game has ended."""


class NotationError(ChibreError, ValueError):
    """Malformed notation; ``position`` is the 0-based character index of the problem in
    ``text``, said as a line and column where the text has several lines and not at all
    where no text is given (the fault is the whole text's)."""

    def __init__(self, message: str, text: str = "", position: int = 0) -> None:
        self.message = message
        self.text = text
        self.position = max(position, 0)
        super().__init__(message + _where(text, self.position))


def _where(text: str, position: int) -> str:
    if not text:
        return ""
    if "\n" not in text.rstrip("\n"):
        return f" (at position {position})"
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return f" (line {line}, column {column})"


def file_error(e: OSError) -> str:
    """A file that cannot be read or written, said without the errno: ``name: reason``."""
    return f"{e.filename}: {e.strerror}" if e.filename is not None and e.strerror else str(e)
