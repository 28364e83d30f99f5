"""The message catalogue: every string shown to a person, in French, German and English.

One JSON file per language (``chibre/locale/fr.json``, ``de.json``, ``en.json``) maps a key to
its text, with ``{name}`` placeholders. Python reads it here (the engine's reasons for a
refused card, the server's error replies, the terminal); the server hands the same files to
the pages (``GET /api/messages``), whose ``i18n.js`` keeps its ``t()`` and ``applyI18n()``.

Keys are grouped by a prefix: none for the pages, ``illegal.`` for why a card may not be
played, ``error.`` for the server's refusals, ``term.`` for the terminal only (never sent to
a page). A key ``name_one`` beside ``name`` is its singular, which ``text()`` here and the
pages' ``t()`` take for a count ``{n}`` the language says in the singular ("1 hand", "{n}
hands"): 1, and in French 0 and 1.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGS = ("fr", "de", "en")
DEFAULT = "en"
LOCALE = Path(__file__).resolve().parent / "locale"
TERMINAL = "term."


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every key and its text in ``lang`` (English for a language there is no file of)."""
    if lang not in LANGS:
        lang = DEFAULT
    texts: dict[str, str] = json.loads((LOCALE / f"{lang}.json").read_text(encoding="utf-8"))
    return texts


def text(lang: str, key: str, /, **fields: Any) -> str:
    """The text of ``key`` in ``lang`` with its placeholders filled (``key_one`` for a count
    ``n`` in the singular, where the catalogue has it); ``KeyError`` for a key the catalogue
    does not have (a bug, not a missing translation: every language has every key)."""
    texts = catalogue(lang)
    if "n" in fields and f"{key}_one" in texts and singular(lang, fields["n"]):
        key = f"{key}_one"
    template = texts[key]
    return template.format(**fields) if fields else template


def singular(lang: str, n: object) -> bool:
    """Whether ``lang`` says the count ``n`` in the singular, as the pages' ``Intl.PluralRules``
    do for whole numbers: 1, and in French 0 and 1."""
    try:
        count = abs(float(str(n)))
    except ValueError:
        return False
    return count < 2 if lang == "fr" else count == 1


def colon(lang: str) -> str:
    """A colon as the language writes it (French: with a no-break space before, so that a line
    never starts with it)."""
    return "\u00a0:" if lang == "fr" else ":"


@cache
def page_catalogue() -> str:
    """The keys the pages use, in every language, as one JSON object ``{lang: {key: text}}``."""
    pages = {
        lang: {k: v for k, v in catalogue(lang).items() if not k.startswith(TERMINAL)}
        for lang in LANGS
    }
    return json.dumps(pages, ensure_ascii=False, separators=(",", ":"))


def best_language(accept: str | None) -> str:
    """The language of an ``Accept-Language`` header (or a plain ``fr``), among ``LANGS``;
    English when none of them is asked for."""
    best, best_q = DEFAULT, -1.0
    for part in (accept or "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        code = tag.strip()[:2].lower()
        if code in LANGS and q > best_q:
            best, best_q = code, q
    return best
