"""The coach (l'entraîneur / der Trainer): every decision of a game reviewed from what the
player knew.

For each decision of a chosen seat — the contract, chibre, pique double, each card, the weis
and stöck declared — the coach values every legal option over deals consistent with that
seat's ``Observation`` (drawn and weighed as the strong players weigh them,
``chibre.bots.reading``), solved double-dummy (``chibre.bots.solver``), and says how much the
choice lost against the best option, with the standard error of that loss, a verdict
(``chibre.coach.verdict``) and a one-line reason in the game's words
(``chibre.coach.reasons``). ``chibre.coach.review`` walks a whole record;
``chibre.coach.advice`` reads a hand held at a real table; ``chibre.coach.report`` writes a
review as text or HTML.
"""

from chibre.coach.decisions import Decision, decisions
from chibre.coach.review import Assessment, Review, assess, review_record
from chibre.coach.value import Budget
from chibre.coach.verdict import Verdict, grade

__all__ = [
    "Assessment",
    "Budget",
    "Decision",
    "Review",
    "Verdict",
    "assess",
    "decisions",
    "grade",
    "review_record",
]
