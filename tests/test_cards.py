"""Cards, names and notation — RULES.md §1."""

import pytest

from chibre.cards import (
    ALL_CARDS,
    card,
    card_code,
    card_name,
    card_symbol,
    cards_of,
    format_cards,
    mask,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from chibre.errors import NotationError

ALL = range(36)
SYMBOLS = "♦♥♠♣"
LETTERS = "DHSC"
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")

# RULES.md §1, written out here independently of the engine's table: Swiss suit → French suit.
MAPPINGS = {
    "swisslos": {"Rosen": "♥", "Eicheln": "♦", "Schilten": "♠", "Schellen": "♣"},
    "books": {"Schellen": "♥", "Schilten": "♦", "Eicheln": "♠", "Rosen": "♣"},
    "printed": {"Schellen": "♦", "Schilten": "♠", "Eicheln": "♣", "Rosen": "♥"},
    "parlett": {"Eicheln": "♣", "Rosen": "♠", "Schilten": "♥", "Schellen": "♦"},
}


# --- the deck ------------------------------------------------------------------------------------


def test_card_numbering():
    assert card(0, 0) == 0
    assert card(3, 8) == 35
    assert card(1, 6) == 15  # ♥Q
    for c in ALL:
        assert card(suit_of(c), rank_of(c)) == c
    assert ALL_CARDS == (1 << 36) - 1
    assert len(cards_of(ALL_CARDS)) == 36


def test_mask_and_cards_of_round_trip():
    cs = (0, 5, 17, 35)
    assert cards_of(mask(cs)) == cs
    assert mask([]) == 0
    assert cards_of(0) == ()


# --- codes and symbols ---------------------------------------------------------------------------


@pytest.mark.parametrize("c", ALL)
def test_code_and_symbol_round_trip(c):
    s, r = divmod(c, 9)
    assert card_code(c) == LETTERS[s] + RANKS[r]
    assert card_symbol(c) == SYMBOLS[s] + RANKS[r]
    assert parse_card(card_code(c)) == c
    assert parse_card(card_code(c).lower()) == c
    assert parse_card(card_symbol(c)) == c
    assert parse_card(RANKS[r] + SYMBOLS[s]) == c  # "10♥" as well as "♥10"


def test_parse_examples():
    assert parse_card("♠A") == card(2, 8)
    assert parse_card("H10") == card(1, 4)
    assert parse_card("ht") == card(1, 4)
    assert parse_card("DA") == card(0, 8)
    assert parse_card("CJ") == card(3, 5)
    assert parse_cards("H10 HJ SA") == mask([card(1, 4), card(1, 5), card(2, 8)])
    assert parse_cards("H10, HJ,SA") == parse_cards("H10 HJ SA")


def test_format_cards_round_trip():
    for m in (0, ALL_CARDS, parse_cards("♦6 ♥10 ♠J ♣A"), mask(range(0, 36, 5))):
        assert parse_cards(format_cards(m)) == m
    assert format_cards(parse_cards("♣A ♦6")) == "D6 CA"


# --- names ---------------------------------------------------------------------------------------


def test_names_examples():
    queen_hearts = card(1, 6)
    assert card_name(queen_hearts, "fr") == "dame de cœur"
    assert parse_card("dame de cœur") == queen_hearts
    assert parse_card("Dame de Coeur") == queen_hearts
    assert card_name(card(2, 8), "en") == "ace of spades"
    assert parse_card("ace of spades") == card(2, 8)
    # Swisslos (default): Schellen = ♣, Rosen = ♥.
    assert card_name(card(3, 6), "de", "swiss") == "Schellen Ober"
    assert parse_card("Schellen Ober") == card(3, 6)
    assert card_name(card(1, 8), "de", "swiss") == "Rosen Ass"
    assert parse_card("Rosen As") == parse_card("Rosen Ass") == card(1, 8)
    # the rank letters a French or German player writes beside a suit sign
    assert parse_card("♥V") == parse_card("♥B") == parse_card("♥U") == card(1, 5)
    assert parse_card("♦D") == parse_card("♦O") == card(0, 6)
    assert parse_card("♠R") == card(2, 7)
    assert parse_cards("♥V ♥9 ♥A ♥R ♥10 ♥8 ♠A ♣A ♦A").bit_count() == 9


def test_french_deck_names_per_language():
    assert card_name(card(0, 0), "fr") == "six de carreau"
    assert card_name(card(3, 7), "fr") == "roi de trèfle"
    assert card_name(card(2, 5), "fr") == "valet de pique"
    assert card_name(card(0, 8), "en") == "ace of diamonds"
    assert card_name(card(3, 5), "en") == "jack of clubs"
    de = card_name(card(1, 7), "de")
    assert "Herz" in de and "König" in de


def test_swiss_deck_names_per_language():
    # 10 is the Banner, J the Under, Q the Ober.
    assert card_name(card(1, 4), "de", "swiss") == "Rosen Banner"
    assert card_name(card(0, 5), "de", "swiss") == "Eicheln Under"
    assert card_name(card(2, 7), "de", "swiss") == "Schilten König"
    en = card_name(card(3, 8), "en", "swiss")
    assert "ace" in en and "bells" in en
    en = card_name(card(0, 6), "en", "swiss")
    assert "ober" in en and "acorns" in en
    assert "shields" in card_name(card(2, 0), "en", "swiss")
    assert "roses" in card_name(card(1, 0), "en", "swiss")


@pytest.mark.parametrize("mapping", sorted(MAPPINGS))
def test_suit_mappings(mapping):
    for swiss, symbol in MAPPINGS[mapping].items():
        c = card(SYMBOLS.index(symbol), 8)
        assert card_name(c, "de", "swiss", mapping) == f"{swiss} Ass"
        assert parse_card(f"{swiss} As", mapping) == c
        assert parse_card(f"{swiss} Ober", mapping) == card(SYMBOLS.index(symbol), 6)
        # French names and codes never depend on the mapping.
        assert card_name(c, "fr", "french", mapping) == card_name(c, "fr")
        assert parse_card(card_code(c), mapping) == c


@pytest.mark.parametrize("mapping", sorted(MAPPINGS))
def test_every_name_parses_back(mapping):
    for lang in ("fr", "de", "en"):
        for deck in ("french", "swiss"):
            names = set()
            for c in ALL:
                name = card_name(c, lang, deck, mapping)
                names.add(name)
                assert parse_card(name, mapping) == c, (name, lang, deck)
            assert len(names) == 36


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "X9", "♥Z", "S11", "as", "coeur", "dame de xyz", "Z"])
def test_junk_raises_notation_error(text):
    with pytest.raises(NotationError):
        parse_card(text)


def test_notation_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_card("junk")


def test_notation_error_position_in_card_name():
    with pytest.raises(NotationError) as e:
        parse_card("dame de xyz")
    assert e.value.position == 8
    assert "position 8" in str(e.value)


def test_notation_error_position_in_text_with_folded_letters():
    # The position indexes the text as given, even after a letter that folds to two (œ → oe).
    text = "roi de cœur zz"
    with pytest.raises(NotationError) as e:
        parse_card(text)
    assert text[e.value.position :].startswith("zz")


def test_notation_error_position_in_card_list():
    # The position indexes the whole text given to parse_cards, not the bad token alone.
    text = "H10 XX SA"
    with pytest.raises(NotationError) as e:
        parse_cards(text)
    assert e.value.position == 4
    assert text[e.value.position :].startswith("XX")


def test_duplicate_card_in_list():
    text = "SA HA SA"
    with pytest.raises(NotationError) as e:
        parse_cards(text)
    assert text[e.value.position :].startswith("SA")
