"""The engine's refusals in the players' words: each is a key of the message catalogue
(``error.<key>``) with its fields — a card (``card``), a set of cards (``cards``, ``a``, ``b``),
a rank (``rank``) —, raised with its English as the message and said in any language of the
catalogue at a table (``IllegalAction.said``)."""

from __future__ import annotations

from collections.abc import Mapping

from chibre.cards import RANK_CODES, RANK_LETTERS, card_symbol, cards_of
from chibre.errors import IllegalAction
from chibre.i18n import text

CARD_SETS = ("cards", "a", "b")


def refused(key: str, **fields: int) -> IllegalAction:
    """The refusal ``error.<key>`` with its fields, its message in English."""
    refusal = IllegalAction(say(key, fields, "en"))
    refusal.key, refusal.fields = key, fields
    return refusal


def say(key: str, fields: Mapping[str, object], lang: str) -> str:
    """The refusal ``error.<key>`` in ``lang``, its cards written with the language's letters."""
    words = {}
    for name, value in fields.items():
        assert isinstance(value, int), (name, value)
        if name == "card":
            words[name] = card_symbol(value, lang)
        elif name in CARD_SETS:
            words[name] = " ".join(card_symbol(c, lang) for c in cards_of(value))
        elif name == "rank":
            words[name] = RANK_LETTERS.get((lang, "french"), RANK_CODES)[value]
        else:
            words[name] = str(value)
    return text(lang, f"error.{key}", **words)
