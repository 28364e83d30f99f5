"""The verdict on a decision: ✓, ?!, ? or ??, by the points it lost — counting only what the
standard error makes clear.

The loss is the mean, over the deals the coach looked at, of the best option's value less the
value of the option taken (paired: both on the same deals), in card points before the
multiplier. The verdict reads the loss less two standard errors (``clear_loss``): a loss the
sampling noise could explain is no mistake, and two equal options never are.

====== =============== ==============================
mark   clear loss      meaning
====== =============== ==============================
✓      below 4         good: as good as the best, or too close to tell
?!     4 to 10         an inaccuracy (ungenau / imprécis)
?      10 to 20        a mistake (ein Fehler / une erreur)
??     20 and more     a blunder (ein grober Fehler / une gaffe)
====== =============== ==============================
"""

from __future__ import annotations

from enum import StrEnum

INACCURACY = 4.0
MISTAKE = 10.0
BLUNDER = 20.0
ERRORS = 2.0
"""Standard errors taken off the loss before it is graded."""


class Verdict(StrEnum):
    """The mark of a decision, as chess annotators write it."""

    GOOD = "✓"
    INACCURACY = "?!"
    MISTAKE = "?"
    BLUNDER = "??"

    @property
    def key(self) -> str:
        """Its name in the message catalogue (``coach.verdict.…``)."""
        return self.name.lower()


def clear_loss(loss: float, error: float) -> float:
    """The part of ``loss`` that ``error`` (its standard error) leaves beyond doubt."""
    return loss - ERRORS * error


def grade(loss: float, error: float) -> Verdict:
    """The verdict for a decision that lost ``loss`` points (standard error ``error``)."""
    clear = clear_loss(loss, error)
    if clear >= BLUNDER:
        return Verdict.BLUNDER
    if clear >= MISTAKE:
        return Verdict.MISTAKE
    if clear >= INACCURACY:
        return Verdict.INACCURACY
    return Verdict.GOOD
