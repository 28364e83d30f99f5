"""Cards drawn as SVG (les cartes / die Karten): a pure function of the card and the deck.

``card_svg(card, deck)`` returns a complete, self-contained SVG document for one card of the
French deck (♦ ♥ ♠ ♣; 6…10, valet, dame, roi, as; red and black) or of the Swiss-German deck
(Schellen, Rosen, Schilten, Eicheln; 6…9, Banner, Under, Ober, König, As), or for the back of
a card (``card=None``). Every suit symbol is drawn here as plain vector shapes; text uses the
system's own sans-serif fonts, so nothing is ever fetched. Which Swiss suit stands for which
French suit follows the table's suit correspondence (``chibre.cards.SUIT_MAPPINGS``; default
Swisslos: Rosen ♥, Eicheln ♦, Schilten ♠, Schellen ♣).

The drawing is 100 × 150 units with large corner indices (rank and suit) so that a card stays
readable at phone size, even when the hand overlaps and only the corner shows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from chibre.cards import (
    DECKS,
    FRENCH_SUIT_NAMES,
    SUIT_LETTERS,
    SUIT_MAPPINGS,
    card_code,
    card_name,
    parse_card,
    swiss_suit,
)
from chibre.errors import InvalidRules, NotationError

WIDTH, HEIGHT = 100, 150
FONT = "'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"

FRENCH_LABELS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SWISS_LABELS = ("6", "7", "8", "9", "10", "U", "O", "K", "A")
"""Corner indices by rank: the Swiss deck writes Under and Ober as U and O; the Banner
keeps its 10."""

RED, BLACK = "#c8102e", "#1b1b1b"
GOLD, GOLD_DARK = "#f0b41c", "#7a5600"
SKIN, SKIN_LINE = "#f4d6b8", "#8a6a50"

# --- suit symbols, each drawn in a box from -10 to 10 around (0, 0) -------------------------------


def _heart(color: str) -> str:
    return (
        f'<path fill="{color}" d="M0,9.5C-3,6.5-10,1.5-10,-3.8C-10,-7.8-7.2,-10-4.4,-10'
        "C-2.2,-10-0.7,-8.7 0,-6.9C0.7,-8.7 2.2,-10 4.4,-10C7.2,-10 10,-7.8 10,-3.8"
        'C10,1.5 3,6.5 0,9.5Z"/>'
    )


def _diamond(color: str) -> str:
    return (
        f'<path fill="{color}" d="M0,-10.5Q3.6,-4.6 7.6,0Q3.6,4.6 0,10.5'
        'Q-3.6,4.6-7.6,0Q-3.6,-4.6 0,-10.5Z"/>'
    )


def _spade(color: str) -> str:
    return (
        f'<path fill="{color}" d="M0,-10.5C-3,-6.8-10,-2.4-10,2.8C-10,6.4-7.4,8.2-4.9,8.2'
        "C-3.1,8.2-1.5,7.3-0.7,5.9C-0.9,7.9-1.9,9.3-3.8,10.3L3.8,10.3C1.9,9.3 0.9,7.9 0.7,5.9"
        'C1.5,7.3 3.1,8.2 4.9,8.2C7.4,8.2 10,6.4 10,2.8C10,-2.4 3,-6.8 0,-10.5Z"/>'
    )


def _club(color: str) -> str:
    return (
        f'<g fill="{color}"><circle cx="0" cy="-5.3" r="4.7"/><circle cx="-5.2" cy="1.6" r="4.7"/>'
        '<circle cx="5.2" cy="1.6" r="4.7"/><path d="M-1,0C-1,4.6-2.2,8-4.3,10.3L4.3,10.3'
        'C2.2,8 1,4.6 1,0Z"/></g>'
    )


def _rosen(_: str) -> str:
    """Rosen (roses): five red petals round a golden heart, green sepals between them."""
    sepals = "".join(
        f'<path transform="rotate({36 + 72 * k})" d="M0,-10.2L2.2,-5.5L-2.2,-5.5Z"/>'
        for k in range(5)
    )
    petals = "".join(
        f'<circle transform="rotate({72 * k})" cx="0" cy="-4.9" r="4.3"/>' for k in range(5)
    )
    return (
        f'<g fill="#2f7d32">{sepals}</g>'
        f'<g fill="#d8322c" stroke="#7a1212" stroke-width="0.7">{petals}</g>'
        '<circle r="3.3" fill="#f7c948" stroke="#7a1212" stroke-width="0.7"/>'
        '<circle r="1.1" fill="#b5651d"/>'
    )


def _schellen(_: str) -> str:
    """Schellen (bells): a golden sleigh bell with a red band, a slit and a ring."""
    return (
        '<circle cx="0" cy="-8.3" r="1.7" fill="none" stroke="#6b4a00" stroke-width="1.1"/>'
        f'<circle cx="0" cy="1" r="8.4" fill="{GOLD}" stroke="#6b4a00" stroke-width="0.9"/>'
        '<path fill="#c62828" d="M-8.1,-2.4Q0,-5.4 8.1,-2.4L8.4,0.9Q0,-2.1-8.4,0.9Z"/>'
        '<circle cx="0" cy="4.6" r="1.5" fill="#3a2a00"/>'
        '<path d="M0,5.8V9.3" stroke="#3a2a00" stroke-width="1.2"/>'
        '<ellipse cx="-3.6" cy="-4.6" rx="1.7" ry="1" fill="#fff" opacity="0.55"/>'
    )


def _schilten(_: str) -> str:
    """Schilten (shields): a golden heraldic shield with a red band and a black rim."""
    outline = "M-8,-9.5H8V-0.5C8,4.8 4.2,8.6 0,10.3C-4.2,8.6-8,4.8-8,-0.5Z"
    return (
        f'<path fill="{GOLD}" d="{outline}"/>'
        '<path fill="#c62828" d="M-8,-3.4H8V1.4H-7.9Z"/>'
        '<path fill="#1b1b1b" d="M-1.2,-9.5H1.2V10H-1.2Z" opacity="0.85"/>'
        f'<path fill="none" stroke="#1b1b1b" stroke-width="1.3" d="{outline}"/>'
    )


def _eicheln(_: str) -> str:
    """Eicheln (acorns): a tan nut under a brown scaled cup, with its stalk."""
    return (
        '<path d="M0.4,-5.5L1.4,-10" stroke="#4e3411" stroke-width="1.6" stroke-linecap="round"/>'
        '<ellipse cx="0" cy="3.6" rx="5.6" ry="6.6" fill="#d09a3c" stroke="#5d3a10" '
        'stroke-width="0.8"/>'
        '<ellipse cx="-2" cy="3" rx="1.3" ry="3" fill="#fff" opacity="0.4"/>'
        '<path fill="#6d4c1f" stroke="#3e2a0c" stroke-width="0.7" '
        'd="M-7,-0.6C-7,-6.6 7,-6.6 7,-0.6C3.4,1 -3.4,1 -7,-0.6Z"/>'
        '<path fill="none" stroke="#a37a3c" stroke-width="0.6" '
        'd="M-4.6,-3.6L-2.4,-0.3M-1.6,-4.8L0.9,-0.1M1.6,-4.8L3.9,-0.6M-4.8,-1.2L4.8,-4"/>'
    )


_FRENCH_SYMBOLS: tuple[Callable[[str], str], ...] = (_diamond, _heart, _spade, _club)
_SWISS_SYMBOLS: dict[str, Callable[[str], str]] = {
    "Rosen": _rosen,
    "Schellen": _schellen,
    "Schilten": _schilten,
    "Eicheln": _eicheln,
}
# The main colour of each Swiss suit (robes of the figures, the banner's edge).
_SWISS_COLORS = {
    "Rosen": "#c62828",
    "Schellen": "#b7791f",
    "Schilten": "#37474f",
    "Eicheln": "#2e7d32",
}


class _Face:
    """What to draw for one card: its suit symbol and colours, in one deck."""

    def __init__(self, card: int, deck: str, mapping: str) -> None:
        self.card = card
        self.suit, self.rank = divmod(card, 9)
        self.deck = deck
        if deck == "swiss":
            self.suit_key = swiss_suit(self.suit, mapping)
            self.draw = _SWISS_SYMBOLS[self.suit_key]
            self.color = _SWISS_COLORS[self.suit_key]
            self.ink = self.color  # four colours: the index tells the suit at a glance
            self.label = SWISS_LABELS[self.rank]
        else:
            self.suit_key = FRENCH_SUIT_NAMES["en"][self.suit]
            self.draw = _FRENCH_SYMBOLS[self.suit]
            self.color = RED if self.suit < 2 else BLACK
            self.ink = self.color
            self.label = FRENCH_LABELS[self.rank]

    def symbol(self, x: float, y: float, scale: float, flip: bool = False) -> str:
        turn = " rotate(180)" if flip else ""
        return (
            f'<g transform="translate({x:g},{y:g}) scale({scale:g}){turn}">'
            f"{self.draw(self.color)}</g>"
        )


# --- layouts ----------------------------------------------------------------------------------

_L, _C, _R = 31.0, 50.0, 69.0
# Pip positions (x, y) of the number cards 6..10 (French) and 6..9 (Swiss).
_ROWS4 = tuple((x, y) for y in (36.0, 62.0, 88.0, 114.0) for x in (_L, _R))
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: ((_L, 40), (_R, 40), (_L, 75), (_R, 75), (_L, 110), (_R, 110)),
    1: ((_L, 40), (_R, 40), (_C, 57.5), (_L, 75), (_R, 75), (_L, 110), (_R, 110)),
    2: ((_L, 40), (_R, 40), (_C, 57.5), (_L, 75), (_R, 75), (_C, 92.5), (_L, 110), (_R, 110)),
    3: (*_ROWS4, (_C, 75)),
    4: (*_ROWS4, (_C, 49), (_C, 101)),
}


def _corner(face: _Face) -> str:
    """The two corner indices: rank above a small suit symbol, the second turned round."""
    narrow = ' textLength="21" lengthAdjust="spacingAndGlyphs"' if len(face.label) > 1 else ""
    # the 6 and the 9 are underlined so that a card turned round is not misread
    mark = (
        f'<rect x="6.5" y="27.3" width="12" height="1.8" rx="0.9" fill="{face.ink}"/>'
        if face.rank in (0, 3)
        else ""
    )
    index = (
        f'<text class="index" x="12.5" y="25" text-anchor="middle" font-family="{escape(FONT)}" '
        f'font-size="25" font-weight="700" fill="{face.ink}"{narrow}>{face.label}</text>'
        + mark
        + face.symbol(12.5, 39.5, 0.7)
    )
    return f'<g>{index}</g><g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{index}</g>'


def _pips(face: _Face) -> str:
    return "".join(
        face.symbol(x, y, 0.92, flip=y > 75 and face.deck == "french") for x, y in _PIPS[face.rank]
    )


def _ace(face: _Face) -> str:
    ring = (
        f'<circle cx="50" cy="75" r="31" fill="none" stroke="{face.color}" stroke-width="1.2" '
        'opacity="0.35"/>'
    )
    return ring + face.symbol(50, 75, 2.3)


def _banner(face: _Face) -> str:
    """The Swiss Banner (the 10): a flag on its pole bearing the suit."""
    return (
        '<path d="M31,30V128" stroke="#5d4037" stroke-width="3" stroke-linecap="round"/>'
        '<circle cx="31" cy="29" r="3" fill="#e0a800" stroke="#6b4a00" stroke-width="0.8"/>'
        f'<path d="M32.5,36Q52,28 72,36V88Q52,80 32.5,88Z" fill="#fffaf0" stroke="{face.color}" '
        'stroke-width="2.2"/>'
        f'<path d="M32.5,44Q52,36 72,44M32.5,80Q52,72 72,80" fill="none" stroke="{face.color}" '
        'stroke-width="1" opacity="0.6"/>' + face.symbol(52, 61, 1.3)
    )


# Headwear of the figures: crown (König / roi), diadem (Ober / dame), cap (Under / valet).
_HATS = {
    7: (
        f'<path d="M21,20.5V10.5L26.3,15.2L32,7.2L37.7,15.2L43,10.5V20.5Z" fill="{GOLD}" '
        f'stroke="{GOLD_DARK}" stroke-width="0.9"/><circle cx="32" cy="7" r="1.5" fill="#c62828"/>'
    ),
    6: (
        f'<path d="M22.5,20.5Q32,6.5 41.5,20.5Z" fill="{GOLD}" stroke="{GOLD_DARK}" '
        'stroke-width="0.9"/><circle cx="32" cy="14.3" r="1.7" fill="#1e5bb8"/>'
    ),
    5: "",  # the cap takes the suit colour: drawn in _figure
}


def _figure(face: _Face) -> str:
    """A face card's figure, a bust 64 wide and 54 high with its head near the top."""
    c = face.color
    robe = (
        f'<path d="M5,54C7,42 16,36.5 32,36.5C48,36.5 57,42 59,54Z" fill="{c}"/>'
        f'<path d="M25,36.8L32,47L39,36.8Z" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="0.6"/>'
    )
    hair = ""
    if face.rank == 6:  # dame / Ober: long hair
        hair = '<path d="M21.5,29C20,38 24,41 25.5,37L26,24ZM42.5,29C44,38 40,41 38.5,37L38,24Z" '
        hair += 'fill="#6d4c1f"/>'
    head = (
        f'<circle cx="32" cy="27.5" r="9.2" fill="{SKIN}" stroke="{SKIN_LINE}" stroke-width="0.8"/>'
        '<circle cx="28.8" cy="26.5" r="1" fill="#333"/><circle cx="35.2" cy="26.5" r="1" '
        'fill="#333"/><path d="M29.5,31.6Q32,33.4 34.5,31.6" fill="none" stroke="#8a3b2b" '
        'stroke-width="0.9"/>'
    )
    beard = ""
    if face.rank == 7:  # roi / König: a beard
        beard = '<path d="M23.5,30Q32,45 40.5,30Q37,35.5 32,35.5Q27,35.5 23.5,30Z" fill="#8d6e63"/>'
    hat = _HATS[face.rank]
    if face.rank == 5:
        hat = (
            f'<path d="M21.5,22Q22,12 32,12Q42,12 42.5,22Z" fill="{c}" stroke="#222" '
            'stroke-width="0.6"/><path d="M40,15Q49,3 55,7Q48,9.5 42.5,18Z" fill="#f5f5f5" '
            'stroke="#777" stroke-width="0.6"/>'
        )
    return robe + hair + head + beard + hat


def _court(face: _Face) -> str:
    """Valet, dame, roi / Under, Ober, König: framed figures."""
    frame = (
        f'<rect x="20" y="21" width="60" height="108" rx="4" fill="#fbf4e4" stroke="{face.color}" '
        'stroke-width="1.4"/>'
    )
    if face.deck == "french":  # the double-headed French court card
        top = f'<g transform="translate(21,21.5) scale(0.9)">{_figure(face)}</g>'
        art = (
            top
            + f'<g transform="rotate(180 50 75)">{top}</g>'
            + f'<path d="M20,75H80" stroke="{face.color}" stroke-width="0.8"/>'
            + face.symbol(71, 40, 0.55)
            + face.symbol(29, 110, 0.55, flip=True)
        )
        return frame + art
    # Swiss: one standing figure; the Ober holds the suit high, the Under low, the König both.
    figure = f'<g transform="translate(18,44) scale(1.0)">{_figure(face)}</g>'
    body = (
        f'<path d="M25,98H75V126Q50,130 25,126Z" fill="{face.color}" opacity="0.9"/>'
        f'<path d="M48,98V126M52,98V126" stroke="{GOLD}" stroke-width="1.2"/>'
    )
    if face.rank == 6:
        marks = face.symbol(50, 33, 0.95)
    elif face.rank == 5:
        marks = (
            f'<circle cx="50" cy="114" r="10.5" fill="#fbf4e4" stroke="{face.color}" '
            'stroke-width="1"/>' + face.symbol(50, 114, 0.8)
        )
    else:
        marks = face.symbol(30, 33, 0.8) + face.symbol(70, 33, 0.8)
    return frame + body + figure + marks


def _front(face: _Face) -> str:
    if face.rank == 8:
        art = _ace(face)
    elif face.rank >= 5:
        art = _court(face)
    elif face.rank == 4 and face.deck == "swiss":
        art = _banner(face)
    else:
        art = _pips(face)
    return art + _corner(face)


def _back() -> str:
    """The back: a red lattice round a white Swiss cross in a medallion."""
    lattice = "".join(
        f'<path d="M{x},8L{x + 134},142M{x},142L{x + 134},8"/>' for x in range(-126, 92, 9)
    )
    return (
        '<rect x="7" y="7" width="86" height="136" rx="4" fill="#9b1b30"/>'
        '<g stroke="#c2475a" stroke-width="1.1" fill="none">'
        f'<svg x="7" y="7" width="86" height="136" viewBox="7 7 86 136">{lattice}</svg></g>'
        '<rect x="7" y="7" width="86" height="136" rx="4" fill="none" stroke="#f3e3c3" '
        'stroke-width="1.6"/>'
        '<circle cx="50" cy="75" r="19" fill="#9b1b30" stroke="#f3e3c3" stroke-width="2.2"/>'
        '<path d="M46,62H54V71H63V79H54V88H46V79H37V71H46Z" fill="#fff"/>'
    )


def _document(body: str, title: str, attrs: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="200" '
        f'height="300" role="img"{attrs}><title>{escape(title)}</title>'
        f'<rect x="0.75" y="0.75" width="{WIDTH - 1.5}" height="{HEIGHT - 1.5}" rx="7" '
        f'fill="#fffdf8" stroke="#9e9e9e" stroke-width="1.5"/>{body}</svg>'
    )


def rank_label(rank: int, deck: str = "french") -> str:
    """The corner index of ``rank`` (0..8) in ``deck``: ``"10"``, ``"J"`` or ``"U"``…"""
    return (SWISS_LABELS if deck == "swiss" else FRENCH_LABELS)[rank]


def card_svg(
    card: int | None, deck: str = "french", *, lang: str = "en", mapping: str = "swisslos"
) -> str:
    """The SVG document of ``card`` (0..35) in ``deck`` (``"french"`` or ``"swiss"``), or of
    the back when ``card`` is ``None``. ``lang`` (fr, de, en) names the card in its ``<title>``;
    ``mapping`` is the Swiss/French suit correspondence. Raises ``InvalidRules`` for an unknown
    deck, language or mapping, ``ValueError`` for a card out of range."""
    if deck not in DECKS:
        raise InvalidRules(f"deck = {deck!r}: allowed values are {', '.join(DECKS)}")
    if lang not in FRENCH_SUIT_NAMES:
        raise InvalidRules(f"language {lang!r}: allowed values are fr, de, en")
    if mapping not in SUIT_MAPPINGS:
        allowed = ", ".join(SUIT_MAPPINGS)
        raise InvalidRules(f"suit_mapping = {mapping!r}: allowed values are {allowed}")
    if card is not None and (type(card) is not int or not 0 <= card < 36):
        raise ValueError(f"no card {card!r}: a card is a number from 0 to 35")
    return _card_svg(card, deck, lang, mapping)


@lru_cache(maxsize=512)
def _card_svg(card: int | None, deck: str, lang: str, mapping: str) -> str:
    if card is None:
        title = {"fr": "dos de carte", "de": "Kartenrückseite", "en": "back of a card"}[lang]
        return _document(_back(), title, ' data-card="back"')
    face = _Face(card, deck, mapping)
    attrs = (
        f" data-card={quoteattr(card_code(card))} data-deck={quoteattr(deck)}"
        f" data-suit={quoteattr(face.suit_key)} data-rank={quoteattr(face.label)}"
    )
    return _document(_front(face), card_name(card, lang, deck, mapping), attrs)


def card_svg_for_code(code: str, deck: str = "french", **options: str) -> str:
    """The SVG of a card given by its code (``"H10"``, ``"SA"``) or ``"back"`` — what the
    route ``/cards/{deck}/{code}.svg`` serves. Raises ``NotationError`` for anything that is
    not exactly a card code, ``InvalidRules`` for an unknown deck."""
    if code == "back":
        return card_svg(None, deck, **options)
    if not (2 <= len(code) <= 3 and code[0] in SUIT_LETTERS):
        raise NotationError(f"{code!r} is not a card code such as H10 or SA", code, 0)
    card = parse_card(code)
    if card_code(card) != code:
        raise NotationError(f"{code!r} is not a card code such as H10 or SA", code, 0)
    return card_svg(card, deck, **options)


__all__ = ["FRENCH_LABELS", "SWISS_LABELS", "card_svg", "card_svg_for_code", "rank_label"]
