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

from chibre.errors import ChibreError


class TournamentError(ChibreError, ValueError):
    """A tournament step that cannot be done as asked (the message says why; ``field``: the
    option refused, when one is)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


COMPUTER = ""
"""The occupant of a seat that a computer player fills (never a registered player's id)."""

__all__ = ["COMPUTER", "TournamentError"]
