"""The calculator on a phone beside the cards (Chromium with touch, at 360×740 and 390×844):
nothing wider than the screen, every control big enough for a thumb, a whole game entered by
taps only, the Swiss deck's suits with their factors, and no raw option value on the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_support import new_page
from server_support import http_json, running_server
from tafel_support import enter_hand, hand_rows, press

PHONES = [pytest.param((360, 740), id="360x740"), pytest.param((390, 844), id="390x844")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tafel-phone")) as base:
        yield base


def phone(browser: Browser, size: tuple[int, int], locale: str = "de-CH") -> Page:
    page = new_page(browser, locale=locale, width=size[0], height=size[1], mobile=True)
    page.on("dialog", lambda d: d.accept())  # confirm() of a deletion
    return page


def new_sheet(server: str, preset: str = "romand", hands: int = 0) -> dict[str, Any]:
    """A sheet to 5000 made through the API, with ``hands`` hands of 98 : 59 written on it."""
    body = {"name": "Stübli", "preset": preset, "rules": {"target": 5000}}
    status, view = http_json(server, "/api/sheets", body)
    assert status == 201, view
    for i in range(hands):
        path = f"/api/sheets/{view['id']}/hands?key={view['key']}"
        hand = {"contract": "DHSCOU"[i % 6], "chooser": i % 2, "points": 98, "team": i % 2}
        status, body = http_json(server, path, hand)
        assert status == 201, body
    return view


def no_sideways_scroll(page: Page) -> None:
    width, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= client, f"the page is {width} px wide on a {client} px screen"


SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'button, a.btn, a.brand, select, input:not([type=file]), summary, .sheet-what a')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => `${name}: ${Math.round(r.width)}×${Math.round(r.height)}`)"""

HIT = """(e) => {
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  return r.left >= 0 && r.right <= document.documentElement.clientWidth
    && document.elementFromPoint(x, y)?.closest('button') === e;
}"""


@pytest.mark.parametrize("size", PHONES)
def test_twelve_hands_fit_and_every_row_can_be_tapped(
    browser: Browser, server: str, size: tuple[int, int]
) -> None:
    view = new_sheet(server, hands=12)
    page = phone(browser, size)
    page.goto(f"{server}/tafel#{view['id']}.{view['key']}")
    expect(hand_rows(page)).to_have_count(12)
    no_sideways_scroll(page)
    assert page.evaluate(SMALL_CONTROLS) == []
    # the entry form comes first, the slate and the hands below it
    form = page.locator("#hand-form").bounding_box()
    slate = page.locator("#slate").bounding_box()
    assert form is not None and slate is not None and form["y"] < slate["y"]

    for n in range(1, 13):  # every row's correction opens that hand
        correct = hand_rows(page).nth(n - 1).locator("button.edit")
        correct.scroll_into_view_if_needed()
        assert correct.evaluate(HIT), f"the correction of hand {n} is covered or cut off"
        press(correct)
        expect(page.locator("#form-title")).to_have_text(f"Spiel {n} korrigieren")
        press(page.locator("#cancel"))
        expect(page.locator("#form-title")).to_have_text("Nächstes Spiel")
    for left in range(12, 0, -1):  # and every row can be struck, the last first
        delete = hand_rows(page).nth(left - 1).locator("button.delete")
        delete.scroll_into_view_if_needed()
        assert delete.evaluate(HIT), f"the deletion of hand {left} is covered or cut off"
        press(delete)
        expect(hand_rows(page)).to_have_count(left - 1)
        # the rows are drawn again when the server has the deletion: wait for that
        expect(page.locator("#sync")).not_to_have_class(re.compile(r"\bpending\b"))
    _, stored = http_json(server, f"/api/sheets/{view['id']}?key={view['key']}")
    assert stored["hands"] == []

    page.goto(server + "/tafel")  # the list of sheets and the new-sheet form fit as well
    expect(page.locator("#sheet-list a", has_text="Stübli")).to_have_count(1)
    no_sideways_scroll(page)
    assert page.evaluate(SMALL_CONTROLS) == []
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", PHONES)
def test_a_whole_game_by_taps_only(browser: Browser, server: str, size: tuple[int, int]) -> None:
    page = phone(browser, size)
    page.goto(server + "/tafel")
    expect(page.locator("#new-preset")).to_have_value("romand")
    press(page.locator("#create"))  # teams A and B, to 1000
    expect(page.locator("#sheet")).to_be_visible()
    # 1: ♠, named by A, A made 98: the pad shows B's 59 at once; with a weis of 50
    #    tapped and the stöck of A → A 98 + 50 + 20 = 168, B 59
    press(page.locator("#contracts [data-contract=S]"))
    press(page.locator("#chooser [data-team='0']"))
    press(page.locator(".point-team[data-team='0']"))
    for digit in "98":
        press(page.locator(f"#pad [data-key='{digit}']"))
    expect(page.locator("#points1")).to_have_text("59")
    press(page.locator(".weis-team[data-team='0'] [data-weis='50']"))
    press(page.locator("#stoeck [data-team='0']"))
    press(page.locator("#contracts [data-contract=O]"))  # a slip: no stöck without a trump
    press(page.locator("#submit"))
    expect(page.locator("#stoeck + #field-error")).to_have_text(
        "im Obenabe und Undenufe gibt es keine Stöck"
    )
    expect(page.locator("#stoeck [data-team='0']")).to_be_focused()
    press(page.locator("#contracts [data-contract=S]"))
    press(page.locator("#submit"))
    expect(page.locator("#total0")).to_have_text("168")
    expect(page.locator("#total1")).to_have_text("59")
    # the next hand is named by the other team; nothing of the last hand is left on the form
    expect(page.locator("#chooser [aria-checked=true]")).to_have_attribute("data-team", "1")
    expect(page.locator("#points0")).to_have_text("–")
    expect(page.locator("#weis0")).to_have_value("")
    # then hands until the game is won: a match of B, then hands of 120 for A
    enter_hand(page, "H", team=1, match=True)
    expect(page.locator("#total1")).to_have_text(str(59 + 257))
    totals, written = [168, 59 + 257], 2
    while page.locator("#winner").is_hidden():
        assert written < 40, "the game does not end"
        enter_hand(page, "S", team=0, points=120)
        written += 1
        totals = [totals[0] + 120, totals[1] + 37]
        if totals[0] < 1000:
            expect(page.locator("#total0")).to_have_text(str(totals[0]))
    expect(page.locator("#winner")).to_contain_text("A gewinnt")
    expect(page.locator("#hand-form")).to_be_hidden()
    no_sideways_scroll(page)
    link = page.locator("#share").get_attribute("href")
    assert link is not None
    sheet_id, _, key = link.removeprefix("/tafel#").partition(".")
    _, stored = http_json(server, f"/api/sheets/{sheet_id}?key={key}")
    assert stored["winner"] == 0
    assert len(stored["hands"]) == hand_rows(page).count() == written
    assert stored["hands"][0]["weis"] == [[50], []] and stored["hands"][0]["stoeck"] == 0
    assert [h["chooser"] for h in stored["hands"][:2]] == [0, 1]
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("locale", "names"),
    [
        ("de-CH", ["Eicheln", "Rosen", "Schilten", "Schellen", "Obenabe", "Undenufe"]),
        ("fr-CH", ["Glands", "Roses", "Écus", "Grelots", "Obenabe", "Undenufe"]),
    ],
)
def test_the_swiss_deck_shows_its_suits_with_their_factors(
    browser: Browser, server: str, locale: str, names: list[str]
) -> None:
    view = new_sheet(server, preset="schieber-2500")  # Swiss deck, published grid
    page = phone(browser, (390, 844), locale)
    page.goto(f"{server}/tafel#{view['id']}.{view['key']}")
    buttons = page.locator("#contracts button")
    expect(buttons.locator(".contract-name")).to_have_text(names)
    expect(buttons.locator(".factor")).to_have_text(["×1", "×1", "×2", "×2", "×3", "×3"])
    for i in range(4):  # the Swiss suits' own pictures
        src = buttons.nth(i).locator("img").get_attribute("src") or ""
        assert src.startswith("/cards/swiss/")
    # the deck switch of the table changes the suits to the French ones, factors the same
    press(page.locator("button[data-deck=french]"))
    expect(buttons.nth(1).locator(".contract-name")).to_have_text(
        "Herz" if locale == "de-CH" else "Cœur"
    )
    expect(buttons.locator(".factor")).to_have_text(["×1", "×1", "×2", "×2", "×3", "×3"])
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


RAW = ["published", "immediate", "end_of_hand", "stoeck,weis,tricks", "none (1", "· match"]


@pytest.mark.parametrize(
    ("locale", "words", "foreign"),
    [
        ("de-CH", ["Schieber", "Spiel", "veröffentlicht"], ["Runde", "Chibre"]),
        ("fr-CH", ["Chibre", "donne", "publié"], ["Stöck, Weis, Stich", "Runde"]),
        ("en-GB", ["Chibre", "hand", "published (1 1 2 2 3 3)"], ["Runde", "Donne"]),
    ],
)
def test_no_raw_option_value_and_one_word_for_a_hand(
    browser: Browser, server: str, locale: str, words: list[str], foreign: list[str]
) -> None:
    view = new_sheet(server, preset="schieber-2500", hands=0)
    path = f"/api/sheets/{view['id']}/hands?key={view['key']}"
    assert http_json(server, path, {"contract": "O", "chooser": 0, "match": 0})[0] == 201
    page = phone(browser, (390, 844), locale)
    page.goto(f"{server}/tafel#{view['id']}.{view['key']}")
    expect(hand_rows(page)).to_have_count(1)
    press(hand_rows(page).first.locator("button.edit"))
    text = page.locator("body").inner_text()
    page.goto(server + "/tafel")
    expect(page.locator("#new-end-order option")).to_have_count(3)
    text += page.locator("body").inner_text()
    text += " ".join(page.locator("option").all_inner_texts()) + page.title()
    for raw in RAW if locale != "en-GB" else RAW[1:]:
        assert raw not in text, f"{raw!r} shown on the {locale} page"
    for word in words:
        assert word in text, f"{word!r} missing on the {locale} page"
    for word in foreign:
        assert word not in text, f"{word!r} on the {locale} page"
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]
