"""The message catalogue (chibre.i18n): every key in French, German and English with the same
placeholders, every key a page uses present, and — in a real browser, in each language — no
page that shows a key, a raw option value, or a string left in another language."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from browser_support import new_page, take_turn, wait_my_turn_or
from chibre import i18n
from chibre.play import why_illegal
from chibre.rules import MAX_TARGET, Rules
from chibre.scoresheet import InvalidEntry, ScoreSheet
from server_support import create_table, http_json, running_server, ws_url

STATIC = Path(__file__).resolve().parents[1] / "src" / "chibre" / "server" / "static"
PAGE_FILES = ["index.html", "table.html", "lobby.js", "table.js", "replay.js", "cards.js"]
PAGE_FILES += ["i18n.js", "links.js"]
RAW_VALUES = {
    "none", "current", "published", "ascending", "immediate", "end_of_hand", "auto", "thank",
    "always", "choice", "off", "french", "swiss", "human", "rule", "random", "easy", "medium",
    "strong", "stoeck,weis,tricks", "weis,stoeck,tricks", "stoeck,tricks,weis", "romand",
    "jasvel", "schieber-2500", "pique-double", "geneve-500", "undefined", "null", "NaN",
}  # fmt: skip
"""Values of options and levels, which a page must never show as they are."""


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)", text))


def test_every_key_exists_in_every_language_with_the_same_placeholders() -> None:
    english = i18n.catalogue("en")
    assert len(english) > 200
    for lang in i18n.LANGS:
        texts = i18n.catalogue(lang)
        assert set(texts) == set(english), f"{lang}: {set(texts) ^ set(english)}"
        for key, text in texts.items():
            assert text.strip(), f"{lang} {key} is empty"
            assert placeholders(text) == placeholders(english[key]), f"{lang} {key}"


def test_a_count_of_one_is_said_in_the_singular() -> None:
    """A key ``name_one`` is the singular of ``name``, a count ``{n}``: taken for 1 (in French
    for 0 and 1 too), on the server's side as on the pages'."""
    english = i18n.catalogue("en")
    for key in (k for k in english if k.endswith("_one")):
        assert "n" in placeholders(english[key.removesuffix("_one")]), key
    assert i18n.text("en", "tour_score_points", n=1) == "1 point"
    assert i18n.text("en", "tour_score_points", n=0) == "0 points"
    assert i18n.text("fr", "tour_score_points", n=0) == "0 point"
    assert i18n.text("fr", "tour_score_points", n=2) == "2 points"
    assert i18n.text("de", "tour_terms_passe", n="1") == "An jedem Tisch eine Passe von 1 Spiel"
    assert i18n.text("de", "tour_passe_hands", n=12) == "Passe von 12 Spielen"
    assert i18n.text("en", "seat_n", n=1) == "Seat 1"  # no singular of its own
    sheet = ScoreSheet(Rules(target=MAX_TARGET), (), "Passe", passe=1)
    sheet.add({"contract": "hearts", "chooser": 0, "points": 100, "team": 0})
    with pytest.raises(InvalidEntry) as refused:
        sheet.add({"contract": "hearts", "chooser": 1, "points": 80, "team": 0})
    assert refused.value.said("fr").startswith("la Passe de 1 donne est complète")
    assert str(refused.value).startswith("the Passe of 1 hand is complete")


def test_the_terminal_names_the_teams_as_the_table_does() -> None:
    for lang in i18n.LANGS:
        texts = i18n.catalogue(lang)
        assert texts["term.teams"].split("|") == [texts["we"].lower(), texts["they"].lower()]


def test_every_key_a_page_uses_is_in_the_catalogue() -> None:
    used: set[str] = set()
    for name in PAGE_FILES:
        text = re.sub(r"^\s*//.*$", "", (STATIC / name).read_text(), flags=re.M)
        used |= set(re.findall(r'data-i18n(?:-aria|-title|-alt|-placeholder)?="([\w.-]+)"', text))
        used |= set(re.findall(r'\bt\(\s*"([\w.-]+)"', text))
    assert len(used) > 100
    missing = used - set(i18n.catalogue("en"))
    assert not missing, f"keys used by the pages but not in the catalogue: {missing}"


def test_every_refusal_of_the_engine_is_in_the_catalogue() -> None:
    """The engine's refusals (``chibre.refusals.refused``) are said from the catalogue: every
    key a call may raise is there (its first argument's strings, read from the source)."""
    used: set[str] = set()
    for source in Path(i18n.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "refused":
                used |= {
                    c.value
                    for c in ast.walk(node.args[0])
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                }
    assert len(used) > 20
    missing = {f"error.{key}" for key in used} - set(i18n.catalogue("en"))
    assert not missing, f"refusals the engine raises but the catalogue lacks: {missing}"


def test_the_pages_get_the_catalogue_but_not_the_terminal_s_keys(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        status, pages = http_json(server, "/api/messages")
    assert status == 200 and set(pages) == set(i18n.LANGS)
    assert pages["de"]["app_title"] == "Schieber"  # what Swiss Germans call it
    assert not any(k.startswith("term.") for k in pages["en"])
    assert pages["fr"]["illegal.follow"] == i18n.catalogue("fr")["illegal.follow"]


def test_the_server_refuses_in_the_page_s_language(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    with running_server(tmp_path) as server:
        made = create_table(server)
        said = {}
        for lang, path in (("de", "/api/tables/nope"), ("fr", f"/api/tables/{made['table']}")):
            asked = urllib.request.Request(server + path, headers={"Accept-Language": lang})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(asked, timeout=10)
            said[lang] = json.loads(refused.value.read())["error"]
    assert said["de"] == "diesen Tisch gibt es nicht"
    assert said["fr"].startswith("ce lien n’ouvre pas cette table")


def test_a_refused_card_is_explained_in_each_language() -> None:
    from chibre.cards import parse_card, parse_cards
    from chibre.play import illegal_reason
    from chibre.server.protocol import illegal_to_json

    hand, trick = parse_cards("♣A ♥6 ♠6"), [parse_card("♣6")]
    said = {lang: why_illegal(hand, trick, 1, parse_card("♠6"), lang) for lang in i18n.LANGS}
    assert said["fr"] == "couleur demandée\u00a0: ♣ — vous devez fournir ou couper, vous avez ♣A"
    assert said["de"] is not None and said["de"].startswith("♣ ist angespielt")
    assert said["en"] is not None and "follow suit or play a trump" in said["en"]
    # and as data, for a page that words it with its own deck
    reason = illegal_reason(hand, trick, 1, parse_card("♠6"))
    assert reason is not None
    assert illegal_to_json(*reason) == {"key": "illegal.follow_or_trump", "suit": 3, "held": ["CA"]}
    reason = illegal_reason(hand, trick, 1, parse_card("♦6"))
    assert reason is not None
    assert illegal_to_json(*reason) == {"key": "illegal.held", "card": "D6"}
    assert i18n.best_language("de-CH,de;q=0.9,en;q=0.5") == "de"
    assert i18n.best_language("it-CH, fr;q=0.3, en;q=0.2") == "fr"
    assert i18n.best_language(None) == "en"


# --- in the browser -------------------------------------------------------------------------

SHOWN = """() => {
  const out = [];
  const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('[hidden], template, script, style, textarea, pre')) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      const v = e.getAttribute(a);
      if (v) out.push(v.trim());
    }
    if (e.tagName === 'OPTION') { out.push(e.textContent.trim()); continue; }
    if (!visible(e)) continue;
    for (const n of e.childNodes) {
      if (n.nodeType === 3 && n.textContent.trim()) out.push(n.textContent.trim());
    }
  }
  out.push(document.title);
  return out;
}"""


def shown_texts(page: Page) -> list[str]:
    texts: list[str] = page.evaluate(SHOWN)
    return texts


def untranslated(texts: list[str], lang: str) -> list[str]:
    """The texts that are a catalogue key, a raw option value, or a string of another
    language that this language words differently."""
    mine = set(i18n.catalogue(lang).values())
    keys = set(i18n.catalogue("en"))
    others = set()
    for other in i18n.LANGS:
        if other != lang:
            others |= {v for v in i18n.catalogue(other).values() if len(v) > 3 and "{" not in v}
    bad = []
    for text in texts:
        shown_raw = text in keys or "{" in text or "Player " in text
        if text not in mine and (shown_raw or text in RAW_VALUES or text in others):
            bad.append(text)
    return bad


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("messages")) as base_url:
        yield base_url


def finished_table(server: str) -> dict[str, Any]:
    """A table whose game is over: seat 0 thanks at once (a lost claim)."""
    made = create_table(server, options={"claim": "thank"})
    with connect(ws_url(server, made["seats"][0]["link"])) as ws:
        json.loads(ws.recv())
        ws.send(json.dumps({"type": "act", "action": {"kind": "thank"}}))
        while json.loads(ws.recv()).get("table", {}).get("status") != "finished":
            pass
    return made


def open_in(browser: Browser, url: str, lang: str, wait: str) -> Page:
    page = new_page(browser, locale={"fr": "fr-CH", "de": "de-CH", "en": "en-GB"}[lang])
    page.goto(url)
    page.locator(wait).first.wait_for(state="attached")
    assert page.locator("html").get_attribute("lang") == lang
    return page


@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_no_page_shows_an_untranslated_string(browser: Browser, server: str, lang: str) -> None:
    # the lobby, its form and its invitations
    page = open_in(browser, server + "/", lang, "#preset option")
    page.select_option("#seat2", "human")
    page.click("#create")
    page.locator("#invites li").first.wait_for()
    bad = untranslated(shown_texts(page), lang)
    assert not bad, f"lobby ({lang}): {bad}"
    page.context.close()
    # the table, as a seat and as a spectator, in both decks
    made = create_table(server, seats=["human", "rule", "human", "rule"])
    for link in (made["seats"][0]["link"], made["watch"]):
        page = open_in(browser, server + link, lang, "#table[data-to-act]")
        for deck in ("french", "swiss"):
            page.click(f"button[data-deck='{deck}']")
            bad = untranslated(shown_texts(page), lang)
            assert not bad, f"table {deck} ({lang}): {bad}"
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
    # a finished game: the end dialog, then the replay
    done = finished_table(server)
    page = open_in(browser, server + done["seats"][0]["link"], lang, "#over-dialog[open]")
    bad = untranslated(shown_texts(page), lang)
    assert not bad, f"end of the game ({lang}): {bad}"
    page.click("#over-replay")
    page.locator("#replay:not([hidden])").wait_for()
    bad = untranslated(shown_texts(page), lang)
    assert not bad, f"replay ({lang}): {bad}"
    page.context.close()


NO_SPACE_COLON = re.compile(r"[^\s\d]:(?:\s|$)| [:;!?»]|« ")
"""A colon after a word with none of the space French puts before it ("Vous: six"), or with a
space a line may break at ("Vous :" wrapping to a line that starts with the colon): French
puts a no-break space before : ; ! ? » and after «."""


def colons_unspaced(page: Page) -> list[str]:
    return [text for text in shown_texts(page) if NO_SPACE_COLON.search(text)]


def test_french_puts_a_space_before_its_colons(browser: Browser, server: str) -> None:
    """What a page shows in French, its cards' names for a screen reader too, has a space
    before each colon: the table (this hand's points, the cards in hand and on the table), the
    replay (what was played last) and a tournament's player page (its heading)."""
    made = create_table(server, options={"claim": "thank"})
    page = open_in(browser, server + made["seats"][0]["link"], "fr", "#hand .card")
    for _ in range(10):  # until a card lies on the table
        wait_my_turn_or(page, "false")
        if page.locator("#trick .slot img").count():
            break
        take_turn(page)
    expect(page.locator("#hand-info .hand-line")).to_contain_text("Cette donne :")
    assert colons_unspaced(page) == []
    wait_my_turn_or(page, "false")
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    page.locator("#over-dialog[open]").wait_for()
    page.click("#over-replay")
    page.click("#rp-start")
    page.click("#rp-next")
    expect(page.locator("#rp-note")).to_contain_text(" : ")
    assert colons_unspaced(page) == []
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
    status, made = http_json(server, "/api/tournaments", {"name": "Genève", "rounds": 2})
    assert status == 201, made
    page = open_in(browser, server + made["join"], "fr", "#join-form:not([hidden])")
    page.locator("#join-form input[name=name]").fill("Aline")
    page.locator("#join-form button[type=submit]").click()
    expect(page.locator("#you-name")).to_have_text("Aline")
    expect(page.locator("#you-name").locator("..")).to_have_text("Vous : Aline")
    assert colons_unspaced(page) == []
    page.context.close()


def test_reactions_are_a_fixed_set_in_every_language() -> None:
    from chibre.server.protocol import REACTIONS, ProtocolError, React, read_message

    assert {"hello", "well_played", "thanks", "sorry"} <= set(REACTIONS)
    assert isinstance(read_message('{"type": "react", "reaction": "thanks"}'), React)
    with pytest.raises(ProtocolError) as refused:  # no free text: nothing to moderate
        read_message('{"type": "react", "reaction": "you are bad"}')
    assert refused.value.code == "malformed" and "not a reaction" in str(refused.value)
    for lang in i18n.LANGS:
        assert all(i18n.text(lang, f"react.{r}") for r in REACTIONS)
