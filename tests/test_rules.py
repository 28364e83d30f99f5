"""Table options, presets, validation and multipliers — RULES.md §2, §5–§8, §11."""

import dataclasses
import json

import pytest

from chibre.cards import parse_card
from chibre.errors import InvalidRules
from chibre.rules import PRESETS, Rules, Striche

D, H, S, C, OBE, UNDE = range(6)

DEFAULTS = {
    "deck": "french",
    "suit_mapping": "swisslos",
    "target": 1000,
    "multipliers": "none",
    "pique_double": "off",
    "first_chooser": "card",
    "first_chooser_card": parse_card("♦7"),
    "chibre_back": False,
    "weis": True,
    "stoeck": True,
    "big_sequences": True,
    "low_carres_100": False,
    "kreuzweis": True,
    "undenufe_low_weis": True,
    "stoeck_in_weis": False,
    "auto_weis": True,
    "auto_stoeck": True,
    "end_mode": "immediate",
    "claim": "auto",
    "end_order": "stoeck,weis,tricks",
}


@pytest.mark.parametrize(("option", "value"), sorted(DEFAULTS.items()))
def test_default(option, value):
    assert getattr(Rules(), option) == value
    assert getattr(Rules.make(), option) == value
    assert getattr(Rules.preset("romand"), option) == value


def test_default_striche():
    s = Rules().striche
    assert (s.sieg, s.match, s.kontermatsch, s.bergpreis, s.schneider) == (2, 1, 2, 1, 2)


def test_romand_is_the_default():
    assert Rules.preset("romand") == Rules()


def test_every_option_is_covered_here():
    names = {f.name for f in dataclasses.fields(Rules)}
    assert names == set(DEFAULTS) | {"striche"}


# --- presets -------------------------------------------------------------------------------------


def test_presets_exist():
    assert {"romand", "jasvel", "schieber-2500", "pique-double", "geneve-500"} <= set(PRESETS)


def test_preset_jasvel():
    r = Rules.preset("jasvel")
    assert r.multipliers == "current"
    assert r.end_mode == "end_of_hand"
    assert r.end_order == "weis,stoeck,tricks"
    assert r.target in (1000, 2500)
    assert r.deck in ("french", "swiss")


@pytest.mark.parametrize(
    ("preset", "low_weis"),
    [("romand", True), ("jasvel", False), ("schieber-2500", True), ("geneve-500", True)],
)
def test_undenufe_low_weis_by_preset(preset, low_weis):
    # RULES.md §11: the jasvel preset keeps the natural weis order in Undenufe (seed 004);
    # the default stays the reversed order (seed 001).
    assert Rules.preset(preset).undenufe_low_weis is low_weis
    assert Rules.preset("jasvel", undenufe_low_weis=True).undenufe_low_weis is True


def test_preset_schieber_2500():
    r = Rules.preset("schieber-2500")
    assert r.deck == "swiss"
    assert r.target == 2500
    assert r.multipliers == "published"
    assert r.low_carres_100 is True
    # 7 of Schellen (♣ under the default Swisslos mapping) chooses first.
    assert r.first_chooser_card == parse_card("Schellen 7")
    assert r.first_chooser_card == parse_card("♣7")
    assert r.first_chooser == "card"
    # every other option at its default
    assert r.end_mode == "immediate" and r.weis and r.big_sequences


def test_preset_pique_double():
    r = Rules.preset("pique-double")
    assert r.deck == "french"
    assert r.target == 1500
    assert r.pique_double == "always"
    assert r.multipliers == "pique_double"
    c = Rules.preset("pique-double", pique_double="choice")
    assert c.pique_double == "choice" and c.target == 1500


def test_preset_geneve_500():
    r = Rules.preset("geneve-500")
    assert r.deck == "french"
    assert r.target == 500
    assert r.multipliers == "none"
    assert Rules.preset("geneve-500", weis=False).weis is False


def test_preset_with_changes():
    r = Rules.preset("schieber-2500", target=3000, multipliers=(1, 1, 2, 2, 3, 4))
    assert r.target == 3000
    assert r.grid == (1, 1, 2, 2, 3, 4)
    assert r.low_carres_100 is True
    assert Rules.preset("schieber-2500").target == 2500  # presets are not changed


def test_unknown_preset():
    with pytest.raises(InvalidRules, match="nosuch"):
        Rules.preset("nosuch")


# --- validation ----------------------------------------------------------------------------------


def test_unknown_option_is_named():
    with pytest.raises(InvalidRules, match="targte"):
        Rules.make(targte=1000)
    with pytest.raises(InvalidRules, match="kreuzwies"):
        Rules().replace(kreuzwies=False)
    with pytest.raises(InvalidRules, match="targte"):
        Rules.preset("romand", targte=1000)


BAD_VALUES = [
    ("deck", "german"),
    ("suit_mapping", "random"),
    ("target", 0),
    ("target", -1000),
    ("target", "1000"),
    ("target", True),
    ("target", 1000.5),
    ("multipliers", "double"),
    ("multipliers", (1, 2, 3)),
    ("multipliers", (0, 1, 1, 1, 1, 1)),
    ("multipliers", (1, 1, 1, 1, 1, 1.5)),
    ("pique_double", "sometimes"),
    ("first_chooser", "oldest"),
    ("first_chooser_card", 36),
    ("first_chooser_card", -1),
    ("first_chooser_card", "X9"),
    ("chibre_back", "yes"),
    ("weis", 1),
    ("stoeck", None),
    ("big_sequences", "on"),
    ("low_carres_100", 0),
    ("kreuzweis", "true"),
    ("undenufe_low_weis", 1),
    ("auto_weis", "no"),
    ("auto_stoeck", 0),
    ("end_mode", "later"),
    ("claim", "shout"),
    ("end_order", "tricks,weis,stoeck"),
    ("end_order", "weis"),
]


@pytest.mark.parametrize(("option", "value"), BAD_VALUES)
def test_bad_value_names_the_option(option, value):
    with pytest.raises(InvalidRules) as e:
        Rules.make(**{option: value})
    assert option in str(e.value)


def test_bad_striche():
    with pytest.raises(InvalidRules, match="schneider"):
        Rules.make(striche={"schneider": -1})
    with pytest.raises(InvalidRules, match="sieg"):
        Rules.make(striche={"sieg": "2"})
    with pytest.raises(InvalidRules, match="bergprize"):
        Rules.make(striche={"bergprize": 1})


def test_invalid_rules_is_a_value_error():
    with pytest.raises(ValueError):
        Rules.make(target=-1)


CONTRADICTIONS = [
    ({"claim": "thank", "end_mode": "end_of_hand"}, "claim"),
    ({"pique_double": "choice", "multipliers": "current"}, "pique_double"),
    ({"multipliers": "pique_double"}, "pique_double"),
    ({"stoeck_in_weis": True, "weis": False}, "stoeck_in_weis"),
    ({"stoeck_in_weis": True, "stoeck": False}, "stoeck_in_weis"),
]


@pytest.mark.parametrize("mode", ["always", "choice"])
def test_pique_double_brings_its_grid_and_target(mode):
    rules = Rules.make(pique_double=mode)
    assert rules.multipliers == "pique_double"
    assert rules.target == 1500
    assert Rules.make(pique_double=mode, target=2000).target == 2000


@pytest.mark.parametrize(("options", "named"), CONTRADICTIONS)
def test_contradictions(options, named):
    with pytest.raises(InvalidRules) as e:
        Rules.make(**options)
    assert named in str(e.value)


def test_valid_combinations():
    assert Rules.make(claim="thank").claim == "thank"
    no_weis = Rules.make(weis=False)
    assert not no_weis.weis and no_weis.stoeck  # stöck stay
    assert not Rules.make(weis=False, stoeck=False).stoeck
    assert Rules.make(stoeck_in_weis=True).stoeck_in_weis
    choice = Rules.make(pique_double="choice", multipliers="pique_double", target=1500)
    assert (choice.factor(S), choice.factor(S, True)) == (1, 2)


def test_frozen_and_replace():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 500  # type: ignore[misc]
    r2 = r.replace(target=500)
    assert r.target == 1000 and r2.target == 500
    assert r2.replace(target=1000) == r
    with pytest.raises(InvalidRules):
        r.replace(target=0)


def test_first_chooser_card_from_text():
    assert Rules.make(first_chooser_card="♥7").first_chooser_card == parse_card("♥7")
    assert Rules.make(first_chooser_card="C7").first_chooser_card == parse_card("♣7")


def test_striche_from_mapping():
    r = Rules.make(striche={"bergpreis": 0, "schneider": 1})
    assert r.striche == Striche(sieg=2, match=1, kontermatsch=2, bergpreis=0, schneider=1)


# --- JSON ----------------------------------------------------------------------------------------

ROUND_TRIP = [
    Rules(),
    *(Rules.preset(name) for name in sorted(PRESETS)),
    Rules.preset("pique-double", pique_double="choice"),
    Rules.make(
        deck="swiss",
        suit_mapping="parlett",
        target=2000,
        multipliers=(1, 2, 3, 4, 5, 7),
        first_chooser="right_of_dealer",
        first_chooser_card="♥7",
        chibre_back=True,
        weis=False,
        stoeck=True,
        big_sequences=False,
        low_carres_100=True,
        kreuzweis=False,
        undenufe_low_weis=False,
        auto_weis=False,
        auto_stoeck=False,
        claim="thank",
        end_order="stoeck,tricks,weis",
        striche={"sieg": 3, "match": 0, "kontermatsch": 1},
    ),
]


@pytest.mark.parametrize("rules", ROUND_TRIP)
def test_json_round_trip(rules):
    text = rules.to_json()
    back = Rules.from_json(text)
    assert back == rules
    assert back.grid == rules.grid
    d = json.loads(text)
    # The record stores the full option set, not just a preset name.
    assert set(DEFAULTS) <= set(d)
    assert d["target"] == rules.target


def test_from_json_errors():
    with pytest.raises(InvalidRules):
        Rules.from_json("{not json")
    with pytest.raises(InvalidRules):
        Rules.from_json("[1, 2]")
    with pytest.raises(InvalidRules, match="targte"):
        Rules.from_json('{"targte": 1000}')
    with pytest.raises(InvalidRules, match="end_mode"):
        Rules.from_json('{"end_mode": "never"}')


# --- multipliers (RULES.md §6) -----------------------------------------------------------------
# Swiss grids by Swiss suit, read through the default Swisslos mapping
# (Eicheln ♦, Rosen ♥, Schilten ♠, Schellen ♣).
SWISS_GRIDS = {
    # Eicheln, Rosen, Schellen, Schilten, Obenabe, Undenufe
    "none": (1, 1, 1, 1, 1, 1),
    "current": (1, 1, 2, 2, 3, 4),
    "published": (1, 1, 2, 2, 3, 3),
    "ascending": (1, 2, 3, 4, 5, 6),
}
FRENCH_GRIDS = {
    # ♦ ♥ ♠ ♣ Obenabe Undenufe
    "french": (1, 1, 2, 2, 3, 3),
}


@pytest.mark.parametrize("grid", sorted(SWISS_GRIDS))
@pytest.mark.parametrize("mapping", ["swisslos", "books", "printed", "parlett"])
def test_swiss_grids(grid, mapping):
    eicheln, rosen, schellen, schilten, obe, unde = SWISS_GRIDS[grid]
    rules = Rules.make(multipliers=grid, suit_mapping=mapping)
    # factors belong to the suits: switching the drawing never changes a score
    expected = {D: eicheln, H: rosen, S: schilten, C: schellen, OBE: obe, UNDE: unde}
    for contract, factor in expected.items():
        assert rules.factor(contract) == factor, (grid, contract)
        assert rules.factor(contract, False) == factor


def test_french_grid():
    rules = Rules.make(multipliers="french")
    assert tuple(rules.factor(k) for k in range(6)) == FRENCH_GRIDS["french"]


def test_published_and_french_agree_under_swisslos():
    pub, fr = Rules.make(multipliers="published"), Rules.make(multipliers="french")
    assert all(pub.factor(k) == fr.factor(k) for k in range(6))


def test_custom_grid():
    rules = Rules.make(multipliers=(1, 2, 3, 4, 5, 6))
    assert [rules.factor(k) for k in range(6)] == [1, 2, 3, 4, 5, 6]
    assert Rules.make(multipliers=[2, 2, 2, 2, 2, 2]).factor(OBE) == 2  # a list is accepted


def test_pique_double_always():
    rules = Rules.preset("pique-double")
    assert [rules.factor(k) for k in range(6)] == [1, 1, 2, 1, 1, 1]
    assert rules.factor(S, True) == 2
    assert rules.factor(S, False) == 2  # always: every spades hand counts double


def test_pique_double_choice():
    rules = Rules.preset("pique-double", pique_double="choice")
    assert rules.factor(S, True) == 2
    assert rules.factor(S, False) == 1
    for k in (D, H, C, OBE, UNDE):
        assert rules.factor(k) == 1


def test_first_chooser_card_is_read_through_the_suit_mapping():
    from chibre.cards import card_name

    for mapping in ("swisslos", "books", "printed", "parlett"):
        rules = Rules.make(deck="swiss", suit_mapping=mapping, first_chooser_card="Schellen 7")
        assert card_name(rules.first_chooser_card, "de", "swiss", mapping) == "Schellen Sieben"
        preset = Rules.preset("schieber-2500", suit_mapping=mapping)
        assert card_name(preset.first_chooser_card, "de", "swiss", mapping) == "Schellen Sieben"
        assert Rules.from_json(preset.to_json()) == preset


def test_first_chooser_card_must_be_a_card():
    with pytest.raises(InvalidRules, match="first_chooser_card"):
        Rules.make(first_chooser_card=True)
    with pytest.raises(InvalidRules, match="first_chooser_card"):
        Rules.make(first_chooser_card="Schellen Zwölf")


def test_pique_double_asked_of_a_preset_brings_its_grid_and_target():
    r = Rules.preset("schieber-2500", pique_double="always")
    assert (r.multipliers, r.target, r.deck) == ("pique_double", 1500, "swiss")
    r = Rules.preset("jasvel", pique_double="choice", target=2000)
    assert (r.multipliers, r.target) == ("pique_double", 2000)
    with pytest.raises(InvalidRules, match="replaces the multiplier grid"):
        Rules.preset("jasvel", pique_double="always", multipliers="current")
