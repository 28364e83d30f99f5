"""The levels a table offers (les niveaux / die Stufen), weakest first, each with one line
that says how it plays — in French, German and English.

``beginner`` follows the learned policy with noise (``chibre.bots.beginner``); ``easy`` to
``expert`` are the determinized search of ``chibre.bots.strong`` with growing budgets, the
upper ones reading the table (deals weighed by how likely they make the others' actions).
"""

from __future__ import annotations

LEVEL_NAMES = ("beginner", "easy", "medium", "strong", "expert")

DESCRIPTIONS: dict[str, dict[str, str]] = {
    "random": {
        "fr": "Joue une carte permise au hasard.",
        "de": "Spielt eine zufällige erlaubte Karte.",
        "en": "Plays a legal card at random.",
    },
    "rule": {
        "fr": "Joue selon les règles d'un joueur de club : atout, bourg et nell, schmieren.",
        "de": "Spielt nach Faustregeln eines Vereinsspielers: Trumpf, Puur und Nell, Schmieren.",
        "en": "Plays a club player's rules of thumb: trumps, bourg and nell, schmieren.",
    },
    "beginner": {
        "fr": "Joue comme un débutant : des coups plausibles, souvent pas les meilleurs.",
        "de": "Spielt wie ein Anfänger: plausible Karten, oft nicht die besten.",
        "en": "Plays like a casual player: plausible cards, often not the best.",
    },
    "easy": {
        "fr": "Calcule un peu, sur quelques donnes possibles, et se trompe volontiers.",
        "de": "Rechnet ein wenig über wenige mögliche Verteilungen und irrt sich gern.",
        "en": "Thinks a little over a few possible deals, and often errs.",
    },
    "medium": {
        "fr": "Calcule sur des donnes possibles en un cinquième de seconde par coup.",
        "de": "Rechnet mögliche Verteilungen durch, eine Fünftelsekunde pro Zug.",
        "en": "Works through possible deals in a fifth of a second a move.",
    },
    "strong": {
        "fr": "Lit le jeu : pèse chaque donne selon ce que les autres ont joué.",
        "de": "Liest den Tisch: gewichtet jede Verteilung nach dem, was die anderen spielten.",
        "en": "Reads the table: weighs each deal by what the others have played.",
    },
    "expert": {
        "fr": "Lit le jeu et calcule le plus loin, jusqu'à deux secondes par coup.",
        "de": "Liest den Tisch und rechnet am weitesten, bis zu zwei Sekunden pro Zug.",
        "en": "Reads the table and looks furthest, up to two seconds a move.",
    },
}
"""One line per table player and language."""


def describe(name: str, language: str = "en") -> str:
    """The line that describes the player ``name`` in ``language`` (``fr``, ``de``, ``en``)."""
    return DESCRIPTIONS[name][language]
