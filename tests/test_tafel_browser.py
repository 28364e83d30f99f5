"""The calculator's page in a real browser (Chromium, headless) against a real server."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from browser_support import artifacts, new_page
from server_support import running_server
from tafel_support import enter_hand, hand_rows, press


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tafel")) as base:
        yield base


def open_page(browser: Browser, server: str) -> tuple[Page, list[str]]:
    """A page in a fresh context (its own localStorage) that may ask nothing but our server;
    returns it and the list of the other addresses it tried."""
    page = new_page(browser, locale="de-CH", width=900, height=1100)
    foreign: list[str] = []

    def only_ours(route: Route) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    page.route("**/*", only_ours)
    page.on("dialog", lambda d: d.accept())  # confirm() of a deletion, alert() of an error
    return page, foreign


@pytest.fixture(scope="module")
def page(browser: Browser, server: str) -> Iterator[Page]:
    page, foreign = open_page(browser, server)
    yield page
    page.context.close()
    assert foreign == []
    assert page.errors == []  # type: ignore[attr-defined]


def wait_refused(page: Page) -> None:
    """Wait until the page has been refused the sheet of its address (it clears the address):
    the list it shows before the answer comes says nothing yet."""
    page.wait_for_function("() => location.hash === ''", polling=100)


def wait_held(page: Page, held: list[Route], seconds: float = 10) -> None:
    """Wait until a request the page makes has been held back (``held`` fills as it comes)."""
    for _ in range(int(seconds * 20)):
        if held:
            return
        page.wait_for_timeout(50)


def test_three_hands_a_correction_and_the_slate(server: str, page: Page) -> None:
    page.goto(server + "/tafel")
    # in the browser's language
    expect(page.locator("#home h2")).to_have_text(["Tafeln", "Neue Tafel"])
    page.fill("#new-name", "Jeudi")
    page.fill("#new-team0", "Nous")
    page.fill("#new-team1", "Eux")
    expect(page.locator("#new-preset option[value=romand]")).to_have_text("Romand (auf 1000)")
    page.select_option("#new-preset", "romand")
    page.select_option("#new-multipliers", "french")
    page.click("#new-form details summary")
    page.fill("#new-options", '{"striche": {"kontermatsch": 3}}')
    page.click("#create")
    expect(page.locator("#sheet-name")).to_have_text("Jeudi")

    # 1: ♠ ×2, Nous 98 + a weis of 50 + stöck → 336 : 118 (RULES.md §6)
    enter_hand(page, "S", chooser=0, team=0, points=98, weis0="50", stoeck=0)
    expect(page.locator("#total0")).to_have_text("336")
    expect(page.locator("#total1")).to_have_text("118")
    # 2: ♥, chosen by Nous, Eux take all nine: a Kontermatsch, 257
    enter_hand(page, "H", chooser=0, team=1, match=True)
    expect(page.locator("#total1")).to_have_text("375")
    # 3: ♣ ×2, Nous 40, Eux show ♥6 ♥7 ♥8 → Nous 80, Eux (117 + 20) × 2 = 274
    enter_hand(page, "C", chooser=1, team=0, points=40, weis1="♥6 ♥7 ♥8")
    expect(page.locator("#total0")).to_have_text("416")
    expect(page.locator("#total1")).to_have_text("649")
    expect(hand_rows(page)).to_have_count(3)
    slate = page.locator("#slate svg")
    expect(slate.locator("text.total")).to_have_text(["416", "649"])
    konter = slate.locator("g.strich.kontermatsch")
    expect(konter.nth(1)).to_have_attribute("data-count", "3")  # as the table set it

    # bad input: the message is shown beside the points as they are typed, and on writing,
    # the focus on them; nothing is written
    too_many = (
        "Stichpunkte sind eine ganze Zahl von 0 bis 157, nicht 200 (einen Match mit «Match» "
        "eintragen)"
    )
    enter_hand(page, "D", team=0, points=200, submit=False)
    expect(page.locator(".point-teams + #field-error")).to_have_text(too_many)
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator("#points1")).to_have_text("–")  # not 157 − 200
    press(page.locator("#pad [data-key=back]"))
    expect(page.locator("#field-error")).to_be_hidden()
    expect(page.locator("#points1")).to_have_text("137")
    press(page.locator("#pad [data-key='0']"))
    press(page.locator("#submit"))
    expect(page.locator(".point-teams + #field-error")).to_have_text(too_many)
    expect(page.locator(".point-team[data-team='0']")).to_be_focused()
    expect(page.locator(".point-team[data-team='0']")).to_have_attribute("aria-invalid", "true")
    expect(hand_rows(page)).to_have_count(3)
    # a weis this table does not know: the server says so beside it, nothing is written
    enter_hand(page, "D", team=0, points=100, weis0="♥6 ♥8 ♥9")
    expect(page.locator("#weis0 + #field-error")).to_contain_text("„♥6 ♥8 ♥9“: ")
    expect(page.locator("#weis0")).to_be_focused()
    expect(hand_rows(page)).to_have_count(3)
    page.fill("#weis0", "")
    # weis for both teams, a weis of no value: said in the page's language, nothing written
    enter_hand(page, "D", team=0, points=100, weis0="20", weis1="50")
    expect(page.locator("#weis0 + #field-error")).to_have_text(
        "nur ein Team schreibt Weis – das mit dem besten Weis: trag nur dessen Weis ein"
    )
    page.fill("#weis0", "")
    page.fill("#weis1", "30")
    press(page.locator("#submit"))
    expect(page.locator("#weis1 + #field-error")).to_have_text(
        "kein Weis ist an diesem Tisch 30 wert: ein Weis ist 20, 50, 100, 150, 200, 250, 300"
    )
    expect(page.locator("#weis1")).to_be_focused()
    expect(hand_rows(page)).to_have_count(3)
    page.fill("#weis1", "")

    # correct hand 1: Nous made 120, not 98 → (120 + 50 + 20) × 2 = 380, Eux 74
    press(hand_rows(page).first.locator("button.edit"))
    expect(page.locator("#form-title")).to_have_text("Spiel 1 korrigieren")
    expect(page.locator("#points0")).to_have_text("98")
    expect(page.locator("#points1")).to_have_text("59")
    expect(page.locator("#contracts [aria-checked=true]")).to_have_attribute("data-contract", "S")
    enter_hand(page, points=120)
    expect(page.locator("#total0")).to_have_text("460")
    expect(page.locator("#total1")).to_have_text("605")
    expect(slate.locator("text.total")).to_have_text(["460", "605"])
    # the slate is redrawn, hand by hand: 380 (3 × 100, 50, 20, "10") and 80 (50, 20, "10"):
    # the digits 10 + 10 become one more twenty
    for kind, count in (("hundreds", "3"), ("fifties", "2"), ("twenties", "3")):
        expect(slate.locator(f"g.line.{kind}").first).to_have_attribute("data-count", count)
    expect(slate.locator("text.rest").first).to_have_text("0")
    expect(hand_rows(page)).to_have_count(3)

    # two more hands, so the slate shows a crossed five: ♦ 120 + a weis of 100; Obenabe ×3
    enter_hand(page, "D", chooser=0, team=0, points=120, weis0="100")
    enter_hand(page, "O", chooser=1, team=0, points=100)
    expect(page.locator("#total0")).to_have_text("980")
    expect(page.locator("#total1")).to_have_text("813")
    expect(slate.locator("g.line.hundreds").first).to_have_attribute("data-count", "8")
    expect(slate.locator("g.line.hundreds").first.locator("path.cross")).to_have_count(1)

    shot = artifacts() / "tafel.png"
    page.locator("#slate svg").screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000

    # the sheet is listed (by this browser) and reopens as it was
    link = page.locator("#share").get_attribute("href")
    assert link is not None and link.startswith("/tafel#")
    page.goto(server + "/tafel")
    page.locator("#sheet-list a", has_text="Jeudi").click()
    expect(page.locator("#total0")).to_have_text("980")
    expect(hand_rows(page)).to_have_count(5)


def test_a_hand_written_with_the_keyboard_alone(browser: Browser, server: str) -> None:
    """Begun and filled from the keyboard: the focus goes to the contracts (one Tab stop, the
    arrows choose within them, as radio buttons) and comes back there for the next hand."""
    page, _ = open_page(browser, server)
    page.goto(server + "/tafel")
    page.locator("#new-name").fill("Clavier")
    page.locator("#create").focus()
    page.keyboard.press("Enter")
    first = page.locator("#contracts [data-contract=D]")
    expect(first).to_be_focused()
    assert page.locator("#contracts [tabindex='0']").count() == 1
    page.keyboard.press("ArrowRight")
    hearts = page.locator("#contracts [data-contract=H]")
    expect(hearts).to_be_focused()
    expect(hearts).to_have_attribute("aria-checked", "true")
    page.keyboard.press("ArrowLeft")
    expect(first).to_have_attribute("aria-checked", "true")
    page.keyboard.press("Space")  # chosen again: still here
    expect(first).to_be_focused()
    page.keyboard.type("98")  # the pad's digits, typed
    expect(page.locator("#points0")).to_have_text("98")
    page.locator("#submit").focus()
    page.keyboard.press("Enter")
    expect(hand_rows(page)).to_have_count(1)
    expect(page.locator("#contracts [tabindex='0']")).to_be_focused()  # the next hand
    page.context.close()


def test_a_sheet_is_opened_by_its_link_only(browser: Browser, server: str) -> None:
    mine, foreign = open_page(browser, server)
    mine.goto(server + "/tafel")
    expect(mine.locator("#sheet-list li.muted")).to_have_text("Noch keine Tafel.")
    mine.fill("#new-name", "Samstag")
    mine.click("#create")
    expect(mine.locator("#sheet-name")).to_have_text("Samstag")
    enter_hand(mine, "H", team=0, points=100)
    expect(mine.locator("#total0")).to_have_text("100")
    link = mine.locator("#share").get_attribute("href")
    assert link is not None
    sheet_id, _, key = link.removeprefix("/tafel#").partition(".")
    assert sheet_id and len(key) >= 16

    # another browser sees no sheet of anybody else's, and a guessed link opens nothing
    other, other_foreign = open_page(browser, server)
    told: list[str] = []
    other.on("dialog", lambda d: told.append(d.message))
    other.goto(server + "/tafel")
    expect(other.locator("#sheet-list li.muted")).to_have_text("Noch keine Tafel.")
    other.goto(f"{server}/tafel#{sheet_id}.{key[:-1]}")
    wait_refused(other)
    assert told == ["Dieser Link öffnet diese Tafel nicht: den Schreiber um den Link bitten."]
    expect(other.locator("#home")).to_be_visible()
    expect(other.locator("#sheet-list li.muted")).to_have_text("Noch keine Tafel.")
    # with the link it opens, can be written on, and is now in that browser's list
    other.goto(server + link)
    expect(other.locator("#total0")).to_have_text("100")
    enter_hand(other, "D", team=1, points=57)
    expect(other.locator("#total0")).to_have_text("200")
    other.goto(server + "/tafel")
    expect(other.locator("#sheet-list a", has_text="Samstag")).to_have_count(1)
    # removing it from the list there leaves the sheet for its scorer
    other.locator("#sheet-list li", has_text="Samstag").locator("button.forget").click()
    expect(other.locator("#sheet-list li.muted")).to_have_text("Noch keine Tafel.")
    mine.goto(server + "/tafel")
    expect(mine.locator("#sheet-list li", has_text="Samstag")).to_contain_text("200 : 114")
    # deleting it deletes it for everybody: the link opens nothing any more
    mine.locator("#sheet-list li", has_text="Samstag").locator("button.delete").click()
    expect(mine.locator("#sheet-list li.muted")).to_have_text("Noch keine Tafel.")
    other.goto(server + link)
    wait_refused(other)
    assert told[-1] == "Diese Tafel gibt es nicht (mehr)."  # in the page's language
    expect(other.locator("#home")).to_be_visible()
    expect(other.locator("#sheet-list li.muted")).to_have_text("Noch keine Tafel.")
    for p in (mine, other):
        p.context.close()
    assert foreign == other_foreign == []
    assert mine.errors == other.errors == []  # type: ignore[attr-defined]


def test_a_sheet_begun_before_the_rules_arrive_waits_for_them(
    browser: Browser, server: str
) -> None:
    """A sheet begun ("Tafel beginnen") as the page opens, before the server's presets have
    come, is begun once they arrive — not refused as if the page were offline — and only once,
    however often the button was pressed meanwhile."""
    page, foreign = open_page(browser, server)
    told: list[str] = []
    page.on("dialog", lambda d: told.append(d.message))
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # the presets' answer is held back

    page.route("**/api/presets*", hold)
    page.goto(server + "/tafel")
    wait_held(page, held)  # the page asks for the presets once its words are in
    assert len(held) == 1
    page.fill("#new-name", "Montag")
    page.dblclick("#create")
    expect(page.locator("#create")).to_have_attribute("aria-busy", "true")  # waiting, no alert
    expect(page.locator("#create")).to_be_disabled()
    assert told == []
    expect(page.locator("#home")).to_be_visible()
    held[0].continue_()
    expect(page.locator("#sheet-name")).to_have_text("Montag")
    assert told == []
    page.unroute("**/api/presets*")
    page.goto(server + "/tafel")
    expect(page.locator("#sheet-list a", has_text="Montag")).to_have_count(1)
    expect(page.locator("#create")).to_be_enabled()
    expect(page.locator("#create")).not_to_have_attribute("aria-busy", "true")
    page.context.close()
    assert foreign == []
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_form_is_not_sent_before_the_page_is_ready(browser: Browser, server: str) -> None:
    """Until the page's script has its words (and so its hands on the form), "Tafel beginnen"
    waits, disabled: the browser must not send the form itself and open the page again, empty."""
    page, foreign = open_page(browser, server)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # the words' answer is held back

    page.route("**/api/messages*", hold)
    # counts the form's submit events, kept in the tab's storage across a page the form opens:
    # Enter in a field submits the form (the event is dispatched while the key is handled,
    # before ``press`` returns) unless its button is disabled
    page.add_init_script(
        "document.addEventListener('submit', () => {"
        "  sessionStorage.submits = Number(sessionStorage.submits || 0) + 1; }, true);"
    )
    page.goto(server + "/tafel", wait_until="domcontentloaded")
    expect(page.locator("#create")).to_be_disabled()
    page.fill("#new-name", "Dienstag")
    page.press("#new-name", "Enter")
    assert page.evaluate("Number(sessionStorage.submits || 0)") == 0
    assert page.url == server + "/tafel"
    assert page.input_value("#new-name") == "Dienstag"
    wait_held(page, held)
    held[0].continue_()
    page.click("#create")
    expect(page.locator("#sheet-name")).to_have_text("Dienstag")
    page.context.close()
    assert foreign == []
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_late_answer_for_a_link_left_does_not_close_the_next_sheet(
    browser: Browser, server: str
) -> None:
    """Going from one ``/tafel#…`` link to another before the first one's answer came: the
    answer that comes late (here: the refusal of a wrong key) changes nothing on the page."""
    page, foreign = open_page(browser, server)
    page.goto(server + "/tafel")
    page.fill("#new-name", "Sonntag")
    page.click("#create")
    expect(page.locator("#sheet-name")).to_have_text("Sonntag")
    enter_hand(page, "H", team=0, points=100)
    link = page.locator("#share").get_attribute("href")
    assert link is not None
    sheet_id, _, key = link.removeprefix("/tafel#").partition(".")
    wrong = key[:-1]
    held: list[Route] = []

    def hold_wrong(route: Route) -> None:
        if parse_qs(urlsplit(route.request.url).query).get("key") == [wrong]:
            held.append(route)  # answered only once the right link has opened its sheet
        else:
            route.fallback()

    page.route("**/api/sheets/**", hold_wrong)
    # counts the writes of the list of my sheets: a refused link forgets itself there (one
    # write) in the same step as it decides whether to close the sheet shown
    page.add_init_script(
        "window.listWrites = 0; const setItem = Storage.prototype.setItem;"
        "Storage.prototype.setItem = function (name, value) {"
        "  if (name === 'tafel-sheets') window.listWrites += 1;"
        "  return setItem.call(this, name, value); };"
    )
    page.goto(server + "/tafel")
    expect(page.locator("#sheet-list a", has_text="Sonntag")).to_have_count(1)
    page.goto(f"{server}/tafel#{sheet_id}.{wrong}")
    wait_held(page, held)  # the hash change is taken in, the wrong key's request is held
    assert len(held) == 1
    page.goto(server + link)
    expect(page.locator("#total0")).to_have_text("100")
    writes = page.evaluate("window.listWrites")
    held[0].fallback()  # the refusal (403) comes now, after the sheet was shown
    page.wait_for_function(
        f"() => window.listWrites > {writes}", polling=100
    )  # ... and has been taken in
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("#total0")).to_have_text("100")
    assert page.url == server + link
    page.context.close()
    assert foreign == []
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_sheet_asks_the_schneider_it_cannot_tell(browser: Browser, server: str) -> None:
    # RULES.md §8: target 1119, A 495 : B 744, B wins in Undenufe ×4 while A makes 57 — A may
    # or may not have reached half the target (560) by then: the page asks, the scorer says.
    page, foreign = open_page(browser, server)
    page.goto(server + "/tafel")
    page.fill("#new-name", "Schneider?")
    page.click("#new-form details summary")
    page.fill("#new-options", '{"target": 1119, "multipliers": "current"}')
    page.click("#create")
    expect(page.locator("#sheet-name")).to_have_text("Schneider?")
    enter_hand(page, "U", team=0, points=60)
    enter_hand(page, "S", team=0, points=100)
    enter_hand(page, "D", team=0, points=55, weis1="100, 20, 20")
    expect(page.locator("#total0")).to_have_text("495")
    expect(page.locator("#total1")).to_have_text("744")
    enter_hand(page, "U", team=0, points=57)
    expect(page.locator("#error")).to_have_text(
        "Dieses Spiel beendet die Partie: unten angeben, ob die Verlierer noch unter der Hälfte "
        "waren (Schneider)."
    )
    expect(page.locator("#moments")).to_have_attribute("open", "")
    expect(page.locator("#schneider option")).to_have_text(["—", "ja", "nein"])
    expect(hand_rows(page)).to_have_count(3)  # nothing written
    page.select_option("#schneider", "yes")
    enter_hand(page)
    expect(hand_rows(page)).to_have_count(4)
    expect(page.locator("#winner")).to_be_visible()
    schneider = page.locator("#slate svg g.strich.schneider")
    expect(schneider.nth(1)).to_have_attribute("data-count", "2")
    page.context.close()
    assert foreign == []
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_refused_hand_is_said_at_its_field_with_the_focus_there(
    browser: Browser, server: str
) -> None:
    """The server's refusal of a moment said wrongly is an error beside that field, not the
    sheet's question; the page's own refusal of the stöck beside them. Mended, the hand is
    written and the error is gone."""
    page, foreign = open_page(browser, server)
    page.goto(server + "/tafel")
    page.fill("#new-name", "Feld")
    page.click("#create")
    expect(page.locator("#sheet-name")).to_have_text("Feld")
    # a Schneider said for a hand that does not end the game: the server refuses it there
    page.click("#moments summary")
    page.select_option("#schneider", "yes")
    enter_hand(page, "H", team=0, points=100)
    expect(page.locator("label:has(#schneider) + #field-error")).to_have_text(
        "Spiel 1 beendet die Partie nicht: Schneider wird nur beim Spiel gesagt, das sie beendet"
    )
    expect(page.locator("#schneider")).to_be_focused()
    expect(page.locator("#schneider")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#error")).to_be_hidden()  # no question is asked
    expect(hand_rows(page)).to_have_count(0)
    # no stöck in Obenabe: the page says so itself, beside the stöck
    page.select_option("#schneider", "")
    enter_hand(page, "O", stoeck=1)
    expect(page.locator("#stoeck + #field-error")).to_have_text(
        "im Obenabe und Undenufe gibt es keine Stöck"
    )
    expect(page.locator("#stoeck [data-team='1']")).to_be_focused()
    expect(page.locator("label:has(#schneider) + #field-error")).to_have_count(0)
    expect(page.locator("#schneider")).not_to_have_attribute("aria-invalid", "true")
    press(page.locator("#stoeck [data-team='1']"))  # stöck off again
    press(page.locator("#submit"))
    expect(hand_rows(page)).to_have_count(1)
    expect(page.locator("#field-error")).to_be_hidden()
    expect(page.locator("[aria-invalid]")).to_have_count(0)
    page.context.close()
    assert foreign == []
    assert page.errors == []  # type: ignore[attr-defined]
