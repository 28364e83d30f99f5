"""Accessibility, checked by axe-core in a real browser: no serious or critical violation on
the lobby, the table, the replay and the Jasstafel calculator, in both decks, nor on the
coach's advice page and the tournament organiser's page.

axe-core comes from the npm registry: the README's test command installs it into
``tests/axe/`` when it is missing (nothing is fetched from a CDN); the tests inject it into
each page. The table's own announcements (labels, roles, live regions) are checked too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from browser_support import TIMEOUT_MS, take_turn, watch_csp
from server_support import create_table, http_json, running_server, ws_url

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}
OUTLINE = frozenset({"page-has-heading-one", "empty-table-header"})
"""Rules of a lesser impact, checked too: the page's heading, a table's header cells."""


@pytest.fixture(scope="module")
def axe_source() -> str:
    assert AXE.is_file(), (
        f"axe-core is not installed at {AXE}: run the README's test command, which installs "
        "it from the npm registry (npm install --prefix tests/axe axe-core@4)"
    )
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("a11y")) as base_url:
        yield base_url


def deck_page(browser: Browser, deck: str) -> Page:
    """A page whose browser has chosen ``deck``; the policy still watched, but axe (injected
    by the test, not the site) may run."""
    context = browser.new_context(
        locale="en-GB", viewport={"width": 1280, "height": 800}, bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    watch_csp(context)
    context.add_init_script(
        f"localStorage.setItem('chibre.deck', {json.dumps(deck)});"
        "localStorage.setItem('chibre.pace', '0');"
    )
    return context.new_page()


def violations(
    page: Page, axe_source: str, also: frozenset[str] = frozenset()
) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page as it is now (WCAG 2 A and AA), and
    those of the rules ``also`` whatever their impact."""
    page.evaluate(axe_source)
    found: list[dict[str, Any]] = page.evaluate(
        """() => axe.run(document, {runOnly: {type: 'tag',
                values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
            .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))"""
    )
    return [v for v in found if v["impact"] in BLOCKING or v["id"] in also]


def finished_table(server: str) -> dict[str, Any]:
    made = create_table(server, options={"claim": "thank"})
    with connect(ws_url(server, made["seats"][0]["link"])) as ws:
        json.loads(ws.recv())
        ws.send(json.dumps({"type": "act", "action": {"kind": "thank"}}))
        while json.loads(ws.recv()).get("table", {}).get("status") != "finished":
            pass
    return made


DECKS = ["french", "swiss"]


@pytest.mark.parametrize("deck", DECKS)
def test_the_lobby(browser: Browser, server: str, axe_source: str, deck: str) -> None:
    page = deck_page(browser, deck)
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    page.select_option("#seat2", "human")
    page.click("#create")
    page.locator("#invites li").first.wait_for()
    assert violations(page, axe_source) == []
    page.context.close()


@pytest.mark.parametrize("deck", DECKS)
def test_the_table(browser: Browser, server: str, axe_source: str, deck: str) -> None:
    made = create_table(server, seats=["human", "rule", "human", "rule"])
    page = deck_page(browser, deck)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    assert page.locator("#table").get_attribute("data-deck") == deck
    assert violations(page, axe_source, also=OUTLINE) == []
    # announced: the turn and the trick in live regions, every card a named button
    assert page.locator("#trick[aria-live='polite']").count() == 1
    assert page.locator("#center-note[aria-live]").count() == 1
    assert page.locator("#refusal[role='alert']").count() == 1
    for label in page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.ariaLabel)"):
        assert label and label[0].isdigit(), label
    # a friend's table: the invited seat's name bar, the settings dialog
    friend = deck_page(browser, deck)
    friend.goto(server + made["seats"][2]["link"])
    friend.locator("#name-form").wait_for()
    assert violations(friend, axe_source) == []
    friend.click("#settings-btn")
    assert violations(friend, axe_source) == []
    page.context.close()
    friend.context.close()


@pytest.mark.parametrize("deck", DECKS)
def test_the_end_and_the_replay(browser: Browser, server: str, axe_source: str, deck: str) -> None:
    made = finished_table(server)
    page = deck_page(browser, deck)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#over-dialog[open] #over-share .share-button").wait_for()  # all of it
    assert violations(page, axe_source, also=OUTLINE) == []
    # closed with Escape, the end — its rematch, its review — is one button away
    page.keyboard.press("Escape")
    page.locator("#over-dialog:not([open])").wait_for(state="attached")
    expect(page.locator("#result-btn")).to_be_focused()
    # every step by the keyboard alone (a click would also wait for the page's next frames)
    page.keyboard.press("Enter")
    page.locator("#over-dialog[open] #over-rematch").wait_for()
    page.locator("#over-dialog").get_by_role("button", name="Close").press("Enter")
    page.locator("#over-dialog:not([open])").wait_for(state="attached")
    expect(page.locator("#result-btn")).to_be_focused()
    page.keyboard.press("Enter")
    page.locator("#over-dialog[open] #over-rematch").wait_for()
    page.locator("#over-replay").press("Enter")
    page.locator("#replay:not([hidden])").wait_for()
    assert page.locator("#rp-note[aria-live='polite']").count() == 1  # each step is said
    assert page.locator("#rp-coach[aria-live='polite']").count() == 1
    assert violations(page, axe_source) == []
    page.context.close()


SAID = """() => {
    window.said = [];
    const box = document.getElementById('announcer');
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) window.said.push(n.textContent);
    }).observe(box, {childList: true});
}"""


def test_a_screen_reader_hears_the_others_and_who_played_each_card(
    browser: Browser, server: str
) -> None:
    """What the bubbles show (a contract named, a chibre, a weis, a reaction) is said in a
    live region of its own, with the seat's name; each card of the trick says who played it."""
    made = create_table(server, seats=["human", "rule", "human", "rule"])
    host = deck_page(browser, "french")
    host.goto(server + made["seats"][0]["link"])
    host.locator("#hand .card").first.wait_for()
    friend = deck_page(browser, "french")
    friend.goto(server + made["seats"][2]["link"])
    friend.locator("#hand .card").first.wait_for()
    assert host.locator("#announcer[aria-live='polite']").count() == 1
    host.evaluate(SAID)  # the region keeps its last three lines: every line said is kept here
    friend.click("#react-btn")
    friend.click("#react-menu [data-reaction='well_played']")
    host.wait_for_function("() => window.said.includes('Partner: Well played!')", polling=100)
    friend.context.close()
    # the trick: a table of computers, this seat leading when it must
    alone = create_table(server)
    page = deck_page(browser, "french")
    page.goto(server + alone["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    for _ in range(4):  # a card on the table: another's, or this seat's after its contract
        page.wait_for_function(
            """() => document.querySelector('#trick img')
                || document.getElementById('table').dataset.myTurn === 'true'""",
            polling=100,
        )
        if page.locator("#trick img").count():
            break
        take_turn(page)
    alt = page.locator("#trick img").first.get_attribute("alt") or ""
    who, _, card = alt.partition(": ")
    assert who in ("You", "Right", "Partner", "Left") and card, alt
    page.context.close()
    # the thanks name their seat themselves: said once
    thanked = create_table(server, options={"claim": "thank"})
    page = deck_page(browser, "french")
    page.goto(server + thanked["seats"][0]["link"])
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    said = page.locator("#announcer p", has_text="thank")
    said.wait_for(state="attached")
    assert said.text_content() == "You thank"
    page.context.close()
    host.context.close()


WRITTEN = """() => {
    window.written = [];
    for (const id of ['trick', 'center-note']) {
        const box = document.getElementById(id);
        const said = () => box.textContent + [...box.querySelectorAll('img')].map(i => i.alt);
        new MutationObserver(() => window.written.push([id, said()]))
            .observe(box, {childList: true, subtree: true, characterData: true});
    }
}"""


def test_the_live_regions_say_only_what_changed(browser: Browser, server: str) -> None:
    """The page is drawn again with every state and every bubble: the middle of the felt is
    written only when what it says changes, and the buttons' bar is no live region."""
    made = create_table(server, seats=["human", "rule", "human", "rule"])
    host = deck_page(browser, "french")
    host.goto(server + made["seats"][0]["link"])
    host.locator("#hand .card").first.wait_for()
    assert host.locator("#controls").get_attribute("aria-live") is None
    friend = deck_page(browser, "french")
    friend.goto(server + made["seats"][2]["link"])
    friend.locator("#hand .card").first.wait_for()
    host.evaluate(WRITTEN)
    # the partner's reaction: the host's page drawn again as its bubble comes and as it goes
    friend.click("#react-btn")
    friend.click("#react-menu [data-reaction='well_played']")
    host.locator("#announcer p", has_text="Partner: Well played!").wait_for(state="attached")
    host.locator("#seat-top .bubble").wait_for(state="detached")
    written = host.evaluate("window.written")
    last: dict[str, str] = {}
    for region, said in written:  # each region's words, each time it was written
        assert said != last.get(region), written
        last[region] = said
    friend.context.close()
    host.context.close()


def test_the_reactions_menu_is_a_menu_to_the_keyboard(
    browser: Browser, server: str, axe_source: str
) -> None:
    """The arrows go from one reaction to the next (round), Home and End to the ends, Escape
    closes the menu; the focus comes back to its button, a reaction chosen or not."""
    made = create_table(server, seats=["human", "rule", "human", "rule"])
    page = deck_page(browser, "french")
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    button, items = page.locator("#react-btn"), page.locator("#react-menu [role=menuitem]")
    button.focus()
    page.keyboard.press("Enter")
    expect(items.first).to_be_focused()
    assert violations(page, axe_source, also=frozenset({"region"})) == []
    page.keyboard.press("ArrowDown")
    expect(items.nth(1)).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(items.last).to_be_focused()
    page.keyboard.press("Home")
    expect(items.first).to_be_focused()
    page.keyboard.press("End")
    expect(items.last).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#react-menu")).to_be_hidden()
    expect(button).to_be_focused()
    assert button.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.locator("#announcer p", has_text="You:").wait_for(state="attached")
    expect(page.locator("#react-menu")).to_be_hidden()
    expect(button).to_be_focused()
    page.context.close()


@pytest.mark.parametrize("deck", DECKS)
def test_the_tafel(browser: Browser, server: str, axe_source: str, deck: str) -> None:
    page = deck_page(browser, deck)
    page.goto(server + "/tafel")
    page.locator("body").wait_for()
    page.wait_for_load_state("networkidle")
    assert violations(page, axe_source, also=OUTLINE) == []
    page.context.close()


def test_the_advice_page(browser: Browser, server: str, axe_source: str) -> None:
    page = deck_page(browser, "french")
    page.goto(server + "/advise")
    page.fill("#hand", "S6 S7 S8 C6 C7 C8 D6 D7 H6")
    page.select_option("#trump", "1")
    page.check("#chibred")
    page.click("#ask")
    page.locator("#advice:not([hidden])").wait_for()
    assert page.locator("#advice-options tr").count() == 9  # seat 0 leads after the chibre
    assert violations(page, axe_source) == []
    page.context.close()


def organiser_page(browser: Browser, server: str) -> Page:
    """The organiser's page of a tournament whose first round is drawn, at a table played
    with real cards (its corrections form shown)."""
    body = {"name": "Genève", "rounds": 2, "real_tables": 1}
    made = http_json(server, "/api/tournaments", body)[1]
    for name in ("Aline", "Beat", "Chloé", "Dario"):
        entry = {"name": name, "kind": "human"}
        assert (
            http_json(server, f"/api/tournaments/{made['id']}/entries?key={made['key']}", entry)[0]
            == 201
        )
    assert (
        http_json(server, f"/api/tournaments/{made['id']}/rounds?key={made['key']}", {})[0] == 201
    )
    page = deck_page(browser, "french")
    page.goto(server + made["organiser"])
    page.locator("#correct-form:not([hidden])").wait_for()
    page.locator("#add-form select[name=kind] option[value=rule]").wait_for(state="attached")
    return page


def test_the_tournament_organiser_page(browser: Browser, server: str, axe_source: str) -> None:
    """Every field of the organiser's forms has a name of its own, not only a placeholder that
    goes once something is typed."""
    page = organiser_page(browser, server)
    assert violations(page, axe_source) == []
    add = page.locator("#add-form")
    assert add.get_by_label("Player's name", exact=True).get_attribute("name") == "name"
    assert add.get_by_label("Player or computer", exact=True).get_attribute("name") == "kind"
    correct = page.locator("#correct-form")
    for label, name in [
        ("Round", "round"),
        ("Table", "table"),
        ("Hand", "hand"),
        ("Points", "points"),
        ("Whose points", "team"),
        ("Reason", "reason"),
    ]:
        assert correct.get_by_label(label, exact=True).get_attribute("name") == name
    page.context.close()
