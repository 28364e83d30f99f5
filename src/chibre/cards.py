"""Cards, suits, ranks and hands — the 36-card Jass deck.

A card is an ``int`` 0..35: ``suit * 9 + rank``. Suits are numbered ♦ 0, ♥ 1, ♠ 2, ♣ 3 (the
French deck, as in the HSLU jass-kit); ranks are in natural order 6 7 8 9 10 J Q K A (0..8).
A hand (or any set of cards) is a 36-bit ``int`` with bit ``card`` set for each card held.

The Swiss-German deck is the same game drawn differently: which Swiss suit stands for which
French suit is a display option (``SUIT_MAPPINGS``, RULES.md §1); scores never depend on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from enum import IntEnum

from chibre.errors import NotationError


class Suit(IntEnum):
    """Couleur / Farbe. Numbered as the French deck: ♦ ♥ ♠ ♣."""

    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3


class Rank(IntEnum):
    """Valeur / Wert, in natural order 6 < 7 < … < A (sequences use this order)."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    JACK = 5  # valet, Under, Bauer
    QUEEN = 6  # dame, Ober
    KING = 7
    ACE = 8


N_CARDS = 36
ALL_CARDS = (1 << N_CARDS) - 1
SUIT_MASKS = tuple(0x1FF << (9 * s) for s in range(4))
RANK_MASKS = tuple(sum(1 << (9 * s + r) for s in range(4)) for r in range(9))


def card(suit: int, rank: int) -> int:
    """The card of that suit and rank."""
    return suit * 9 + rank


def suit_of(c: int) -> int:
    return c // 9


def rank_of(c: int) -> int:
    return c % 9


def mask(cards: Iterable[int]) -> int:
    """The set of ``cards`` as a 36-bit int."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_LOW = tuple(tuple(i for i in range(12) if b >> i & 1) for b in range(4096))
_MID = tuple(tuple(i + 12 for i in t) for t in _LOW)
_HIGH = tuple(tuple(i + 24 for i in t) for t in _LOW)


def cards_of(m: int) -> tuple[int, ...]:
    """The cards of the set ``m``, lowest index first."""
    return _LOW[m & 0xFFF] + _MID[(m >> 12) & 0xFFF] + _HIGH[(m >> 24) & 0xFFF]


# --- names -----------------------------------------------------------------------------------

SUIT_SYMBOLS = ("♦", "♥", "♠", "♣")
SUIT_LETTERS = ("D", "H", "S", "C")
RANK_CODES = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
# The rank letters shown on the cards and in text, per language and deck.
RANK_LETTERS = {
    ("en", "french"): RANK_CODES,
    ("fr", "french"): ("6", "7", "8", "9", "10", "V", "D", "R", "A"),
    ("de", "french"): ("6", "7", "8", "9", "10", "B", "D", "K", "A"),
    ("en", "swiss"): ("6", "7", "8", "9", "10", "U", "O", "K", "A"),
    ("fr", "swiss"): ("6", "7", "8", "9", "10", "U", "O", "R", "A"),
    ("de", "swiss"): ("6", "7", "8", "9", "10", "U", "O", "K", "A"),
}

FRENCH_SUIT_NAMES = {
    "fr": ("carreau", "cœur", "pique", "trèfle"),
    "de": ("Karo", "Herz", "Pik", "Kreuz"),
    "en": ("diamonds", "hearts", "spades", "clubs"),
}
FRENCH_RANK_NAMES = {
    "fr": ("six", "sept", "huit", "neuf", "dix", "valet", "dame", "roi", "as"),
    "de": ("Sechs", "Sieben", "Acht", "Neun", "Zehn", "Bube", "Dame", "König", "Ass"),
    "en": ("six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"),
}

SWISS_SUITS = ("Schellen", "Rosen", "Schilten", "Eicheln")
"""The Swiss-German suits, by their German names (the keys of a suit mapping)."""
SWISS_SUIT_NAMES = {
    "fr": {"Schellen": "grelots", "Rosen": "roses", "Schilten": "écus", "Eicheln": "glands"},
    "de": {s: s for s in SWISS_SUITS},
    "en": {"Schellen": "bells", "Rosen": "roses", "Schilten": "shields", "Eicheln": "acorns"},
}
SWISS_RANK_NAMES = {
    "fr": ("six", "sept", "huit", "neuf", "banneret", "under", "ober", "roi", "as"),
    "de": ("Sechs", "Sieben", "Acht", "Neun", "Banner", "Under", "Ober", "König", "Ass"),
    "en": ("six", "seven", "eight", "nine", "banner", "under", "ober", "king", "ace"),
}

SUIT_MAPPINGS: dict[str, dict[str, int]] = {
    # Swisslos (default): the only one under which the `published` and `french` grids agree.
    "swisslos": {"Rosen": 1, "Eicheln": 0, "Schilten": 2, "Schellen": 3},
    # Books (seed 001).
    "books": {"Schellen": 1, "Schilten": 0, "Eicheln": 2, "Rosen": 3},
    # Some printed decks.
    "printed": {"Schellen": 0, "Schilten": 2, "Eicheln": 3, "Rosen": 1},
    # Parlett.
    "parlett": {"Eicheln": 3, "Rosen": 2, "Schilten": 1, "Schellen": 0},
}
"""Swiss suit → French suit number, for each correspondence of RULES.md §1."""

DECKS = ("french", "swiss")


def swiss_suit(suit: int, mapping: str = "swisslos") -> str:
    """The Swiss suit (German name) drawn for French suit ``suit`` under ``mapping``."""
    for name, s in SUIT_MAPPINGS[mapping].items():
        if s == suit:
            return name
    raise KeyError(suit)


def card_code(c: int) -> str:
    """Short ASCII code: suit letter then rank, as in the jass-kit: ``"DA"``, ``"H10"``."""
    return SUIT_LETTERS[c // 9] + RANK_CODES[c % 9]


def card_symbol(c: int, lang: str = "en") -> str:
    """Suit symbol then the rank's letter in ``lang``: ``"♥10"``, ``"♠A"``, ``"♦V"`` (fr)."""
    return SUIT_SYMBOLS[c // 9] + RANK_LETTERS.get((lang, "french"), RANK_CODES)[c % 9]


def suit_name(suit: int, lang: str = "en", deck: str = "french", mapping: str = "swisslos") -> str:
    if deck == "swiss":
        return SWISS_SUIT_NAMES[lang][swiss_suit(suit, mapping)]
    return FRENCH_SUIT_NAMES[lang][suit]


def card_name(c: int, lang: str = "en", deck: str = "french", mapping: str = "swisslos") -> str:
    """The card's full name: ``"dame de cœur"``, ``"Schellen Ober"``, ``"ace of spades"``."""
    s, r = divmod(c, 9)
    suit = suit_name(s, lang, deck, mapping)
    rank = (SWISS_RANK_NAMES if deck == "swiss" else FRENCH_RANK_NAMES)[lang][r]
    if lang == "fr":
        return f"{rank} {'d’' if suit[0] in 'aeéiou' else 'de '}{suit}"
    if lang == "de":
        return f"{suit} {rank}" if deck == "swiss" else f"{suit}-{rank}"
    return f"{rank} of {suit}"


def format_cards(m: int) -> str:
    """A set of cards as space-separated codes, by suit then rank."""
    return " ".join(card_code(c) for c in cards_of(m))


# --- parsing ---------------------------------------------------------------------------------


def _fold(text: str) -> str:
    """Lower case, no accents, œ → oe, ä → a: what we compare words by."""
    text = text.lower().replace("œ", "oe").replace("’", "'")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_FRENCH_SUIT_WORDS = {
    "carreau": 0, "carreaux": 0, "coeur": 1, "coeurs": 1, "pique": 2, "piques": 2,
    "trefle": 3, "trefles": 3, "karo": 0, "ecken": 0, "herz": 1, "pik": 2, "schaufel": 2,
    "kreuz": 3, "diamond": 0, "diamonds": 0, "heart": 1, "hearts": 1, "spade": 2,
    "spades": 2, "club": 3, "clubs": 3,
}  # fmt: skip
_SWISS_SUIT_WORDS = {
    "schellen": "Schellen", "schelle": "Schellen", "bells": "Schellen", "bell": "Schellen",
    "grelots": "Schellen", "rosen": "Rosen", "rose": "Rosen", "roses": "Rosen",
    "schilten": "Schilten", "schilte": "Schilten", "schild": "Schilten", "shields": "Schilten",
    "shield": "Schilten", "ecus": "Schilten", "eicheln": "Eicheln", "eichel": "Eicheln",
    "acorns": "Eicheln", "acorn": "Eicheln", "glands": "Eicheln",
}  # fmt: skip
_RANK_WORDS = {
    "6": 0, "six": 0, "sechs": 0, "7": 1, "sept": 1, "seven": 1, "sieben": 1,
    "8": 2, "huit": 2, "eight": 2, "acht": 2, "9": 3, "neuf": 3, "nine": 3, "neun": 3,
    "10": 4, "t": 4, "dix": 4, "ten": 4, "zehn": 4, "banner": 4, "banneret": 4,
    "j": 5, "valet": 5, "jack": 5, "bube": 5, "bauer": 5, "buur": 5, "under": 5, "unter": 5,
    "q": 6, "dame": 6, "queen": 6, "ober": 6, "k": 7, "roi": 7, "king": 7, "konig": 7,
    "koenig": 7, "a": 8, "as": 8, "ace": 8, "ass": 8,
}  # fmt: skip
_SYMBOLS = {"♦": 0, "♢": 0, "♥": 1, "♡": 1, "♠": 2, "♤": 2, "♣": 3, "♧": 3}
_SIGN_RANKS = {"v": 5, "b": 5, "u": 5, "d": 6, "o": 6, "r": 7}
"""The rank letters of other languages and the Swiss deck (valet, Bube, Under; dame, Ober;
roi), read beside a suit sign only (``♥V``, ``♦D``): alone, D is the diamonds' letter."""
_FILLERS = {"de", "d", "of", "von", "du"}


def swiss_suit_word(word: str) -> str | None:
    """The German name of the Swiss suit a word names in French, German or English
    (``roses``, ``écus``, ``Schellen``, ``acorns``), or ``None``."""
    return _SWISS_SUIT_WORDS.get(_fold(word.strip()))


def parse_card(text: str, mapping: str = "swisslos") -> int:
    """Read a card from friendly text.

    Accepts codes (``"SA"``, ``"H10"``, ``"ht"``), symbols (``"♠A"``, ``"10♥"``) and names
    in French, German and English for both decks (``"dame de cœur"``, ``"Schellen Ober"``,
    ``"ace of spades"``); Swiss suits are read through ``mapping``. Raises ``NotationError``.
    """
    raw = text.strip()
    lead = len(text) - len(text.lstrip())
    if not raw:
        raise NotationError("empty card", text, 0)
    for sym, s in _SYMBOLS.items():
        if sym in raw:
            rank_text = _fold(raw.replace(sym, "").strip())
            if rank_text in _RANK_WORDS:
                return card(s, _RANK_WORDS[rank_text])
            if rank_text in _SIGN_RANKS:
                return card(s, _SIGN_RANKS[rank_text])
            raise NotationError(f"unknown rank {rank_text!r} in card {text!r}", text, lead)
    words = [(m.start(), _fold(m.group())) for m in re.finditer(r"[^\s'’-]+", text)]
    if len(words) == 1:
        letter, rest = words[0][1][:1].upper(), words[0][1][1:]
        if letter in SUIT_LETTERS and rest in _RANK_WORDS and len(rest) <= 2:
            return card(SUIT_LETTERS.index(letter), _RANK_WORDS[rest])
    suit: int | None = None
    rank: int | None = None
    for position, w in words:
        if w in _FILLERS:
            continue
        if w in _FRENCH_SUIT_WORDS and suit is None:
            suit = _FRENCH_SUIT_WORDS[w]
        elif w in _SWISS_SUIT_WORDS and suit is None:
            suit = SUIT_MAPPINGS[mapping][_SWISS_SUIT_WORDS[w]]
        elif w in _RANK_WORDS and rank is None:
            rank = _RANK_WORDS[w]
        else:
            raise NotationError(f"cannot read {w!r} in card {text!r}", text, position)
    if suit is None or rank is None:
        missing = "suit" if suit is None else "rank"
        raise NotationError(f"card {text!r} has no {missing}", text, lead)
    return card(suit, rank)


CARD_WORDS = 4
"""The most words one card is written in (``dame de cœur``, ``Rosen 6``, ``ace of spades``)."""


def parse_cards(text: str, mapping: str = "swisslos") -> int:
    """A set of cards separated by spaces or commas, each a code, a symbol or its name in
    words (``HA ♥K``, ``Rosen 6 Rosen 7``, ``dame de cœur, roi de cœur``): the fewest words
    that read as a card make one."""
    words = list(re.finditer(r"[^\s,]+", text))
    m = 0
    i = 0
    while i < len(words):
        start = words[i].start()
        for n in range(1, min(CARD_WORDS, len(words) - i) + 1):
            token = " ".join(w.group() for w in words[i : i + n])
            try:
                c = parse_card(token, mapping)
                break
            except NotationError as e:
                if n == 1:
                    first = e
        else:
            raise NotationError(first.message, text, start) from first
        if m >> c & 1:
            raise NotationError(f"card {token!r} given twice", text, start)
        m |= 1 << c
        i += n
    return m
