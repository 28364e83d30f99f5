"""The cards drawn as SVG: every card of both decks, and the back."""

import xml.etree.ElementTree as ET

import pytest

from chibre.cards import card_code
from chibre.cardsvg import card_svg, card_svg_for_code
from chibre.errors import InvalidRules, NotationError

SVG = "{http://www.w3.org/2000/svg}"
FRENCH_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SWISS_RANKS = ("6", "7", "8", "9", "10", "U", "O", "K", "A")  # Under, Ober
FRENCH_SUITS = ("diamonds", "hearts", "spades", "clubs")
# RULES.md §1, default correspondence (Swisslos): Eicheln ♦, Rosen ♥, Schilten ♠, Schellen ♣.
SWISS_SUITS = ("Eicheln", "Rosen", "Schilten", "Schellen")
ALL = [(deck, c) for deck in ("french", "swiss") for c in range(36)]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 100 150"
    return root


def indices(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "index"]


@pytest.mark.parametrize(("deck", "card"), ALL)
def test_every_card_renders_with_its_rank_and_suit(deck: str, card: int) -> None:
    root = parse(card_svg(card, deck))
    suit, rank = divmod(card, 9)
    label = (SWISS_RANKS if deck == "swiss" else FRENCH_RANKS)[rank]
    assert indices(root) == [label, label]  # both corners
    assert root.get("data-card") == card_code(card)
    assert root.get("data-suit") == (SWISS_SUITS if deck == "swiss" else FRENCH_SUITS)[suit]
    assert root.get("data-rank") == label
    # drawn from shapes, never from a font glyph or an outside image
    text = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert not set(text) & set("♦♥♠♣")
    assert not list(root.iter(f"{SVG}image"))
    assert "http" not in card_svg(card, deck).replace("http://www.w3.org/2000/svg", "")


def test_titles_name_the_card_in_the_page_language() -> None:
    def title(svg: str) -> str:
        node = parse(svg).find(f"{SVG}title")
        assert node is not None
        return node.text or ""

    assert title(card_svg(10, "french")) == "seven of hearts"
    assert title(card_svg(10, "french", lang="fr")) == "sept de cœur"
    assert title(card_svg(10, "swiss", lang="de")) == "Rosen Sieben"
    assert title(card_svg(33, "swiss", lang="de")) == "Schellen Ober"  # ♣Q under Swisslos
    assert title(card_svg(None, "swiss", lang="de")) == "Kartenrückseite"


def test_red_and_black_in_the_french_deck() -> None:
    def index_colour(card: int) -> str | None:
        root = parse(card_svg(card, "french"))
        return next(t.get("fill") for t in root.iter(f"{SVG}text") if t.get("class") == "index")

    reds = {index_colour(c) for c in range(18)}  # ♦ and ♥
    blacks = {index_colour(c) for c in range(18, 36)}  # ♠ and ♣
    assert len(reds) == 1 and len(blacks) == 1 and reds != blacks


def test_the_back_renders_and_differs_from_every_face() -> None:
    for deck in ("french", "swiss"):
        back = card_svg(None, deck)
        root = parse(back)
        assert root.get("data-card") == "back"
        assert indices(root) == []
        assert back not in {card_svg(c, deck) for c in range(36)}
    assert card_svg_for_code("back", "swiss") == card_svg(None, "swiss")


def test_distinct_cards_differ() -> None:
    drawings = {card_svg(c, deck) for deck, c in ALL}
    assert len(drawings) == 72
    # the same card in the two decks is drawn differently, and so are suits within a deck
    assert card_svg(0, "french") != card_svg(0, "swiss")


def test_the_suit_correspondence_changes_the_drawing_not_the_card() -> None:
    books = parse(card_svg(10, "swiss", mapping="books"))  # ♥ is Schellen in the books
    assert books.get("data-suit") == "Schellen"
    assert books.get("data-card") == "H7"


def test_codes_as_the_card_route_reads_them() -> None:
    assert card_svg_for_code("H10", "french") == card_svg(13, "french")
    assert card_svg_for_code("SA", "swiss") == card_svg(26, "swiss")
    for bad in ("", "H1", "X10", "HT", "h10", "H10 ", "ace of spades", "H10.svg"):
        with pytest.raises(NotationError):
            card_svg_for_code(bad, "french")


def test_refuses_what_is_not_a_card_or_a_deck() -> None:
    with pytest.raises(InvalidRules, match="deck"):
        card_svg(0, "tarot")
    with pytest.raises(InvalidRules, match="language"):
        card_svg(0, "french", lang="it")
    for bad in (-1, 36, True):
        with pytest.raises(ValueError, match="no card"):
            card_svg(bad, "french")
