"""Tournaments (les tournois): the formats, the standings, fair deals, and bot tournaments.

- ``chibre.tournament.matching`` — the one search every draw uses: a perfect matching that
  avoids what was already played, relaxed only as far as it must be.
- ``chibre.tournament.evening`` — the evening with drawn partners (individual entry, the Geneva
  *tournoi à la mêlée*): partners and tables drawn every round, byes with a computer partner.
- ``chibre.tournament.teams`` — fixed teams of two: round-robin or Swiss pairings.
- ``chibre.tournament.passe`` — a Passe: a game of a fixed number of hands, every one counted.
- ``chibre.tournament.duplicate`` — duplicate (fair) rounds: the same deals at every table,
  turned at every other table, and each team compared with those that held the same cards.
- ``chibre.tournament.standings`` — who stands where: points or Striche, and the tie-breaks.
- ``chibre.tournament.fairdeal`` — deals committed before the first card, verifiable after.
- ``chibre.tournament.bots`` — ``chibre tournament``: the formats with computer players only.

Everything here is pure (no I/O, no clock): randomness comes in as a seeded generator.
"""

from __future__ import annotations

from chibre.errors import ChibreError
from chibre.i18n import text


class TournamentError(ChibreError, ValueError):
    """A tournament step that cannot be done as asked (the message says why; ``field``: the
    option refused, when one is). One made by ``said_as`` is a key of the message catalogue
    (``tour_refused.<key>``) with its fields, said in any of its languages (``said``)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.key = ""
        self.fields: dict[str, str] = {}

    @classmethod
    def said_as(cls, key: str, field: str | None = None, **fields: str) -> TournamentError:
        """The refusal ``tour_refused.<key>``, its message in English."""
        refused = cls(text("en", f"tour_refused.{key}", **fields), field)
        refused.key, refused.fields = key, fields
        return refused

    def said(self, lang: str) -> str:
        """The refusal in ``lang`` where the catalogue has it, else as raised."""
        return text(lang, f"tour_refused.{self.key}", **self.fields) if self.key else str(self)


COMPUTER = ""
"""The occupant of a seat that a computer player fills (never a registered player's id)."""

__all__ = ["COMPUTER", "TournamentError"]
