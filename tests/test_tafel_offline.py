"""The calculator where the network drops (Chromium, a phone of 390×844 with touch): the
page reloads from its service worker, every hand is kept in the browser first and sent once
the server can be reached, exactly once, and two phones that both wrote while offline end
with every hand, in order, the conflict shown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from browser_support import TIMEOUT_MS, new_page
from server_support import http_json, running_server
from tafel_support import enter_hand, hand_rows, press

SAVED = "Auf dem Server gespeichert"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tafel-offline")) as base:
        yield base


def new_sheet(server: str, hands: int = 0) -> tuple[str, str]:
    status, view = http_json(server, "/api/sheets", {"name": "Stübli", "rules": {"target": 3000}})
    assert status == 201
    for _ in range(hands):
        hand = {"contract": "D", "points": 77, "team": 0}
        assert (
            http_json(server, f"/api/sheets/{view['id']}/hands?key={view['key']}", hand)[0] == 201
        )
    return view["id"], view["key"]


def stored(server: str, sheet: tuple[str, str]) -> list[dict[str, Any]]:
    status, view = http_json(server, f"/api/sheets/{sheet[0]}?key={sheet[1]}")
    assert status == 200
    hands: list[dict[str, Any]] = view["hands"]
    return hands


def phone(browser: Browser) -> Page:
    page = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
    page.on("dialog", lambda d: d.accept())
    return page


def open_sheet(page: Page, server: str, sheet: tuple[str, str]) -> None:
    page.goto(f"{server}/tafel#{sheet[0]}.{sheet[1]}")
    expect(page.locator("#sync")).to_have_text(SAVED)


def points(hands: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
    return [(h["contract"], h["points"]) for h in hands]


def test_offline_the_page_reloads_and_its_hands_reach_the_server_once(
    browser: Browser, server: str
) -> None:
    sheet = new_sheet(server)
    page = phone(browser)
    open_sheet(page, server, sheet)
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null", polling=100
    )  # kept by it
    page.context.set_offline(True)
    assert page.evaluate("fetch('/api/presets').then(() => 'up', () => 'down')") == "down"
    reloaded = page.reload()  # from the service worker; the sheet from IndexedDB
    assert reloaded is not None and reloaded.from_service_worker
    expect(page.locator("#sheet-name")).to_have_text("Stübli")
    expect(page.locator("#sync")).to_contain_text("Keine Verbindung")
    enter_hand(page, "H", team=0, points=100)
    enter_hand(page, "S", team=1, points=60, stoeck=1)
    enter_hand(page, "O", team=0, match=True)
    expect(hand_rows(page)).to_have_count(3)
    expect(page.locator("#hands li.pending .pending-mark")).to_have_text(
        ["noch nicht auf dem Server gespeichert"] * 3
    )
    expect(page.locator("#sync")).to_contain_text("Noch nicht auf dem Server gespeichert: 3")
    expect(hand_rows(page).nth(1).locator(".hand-points")).to_have_text("97 : 60")
    expect(hand_rows(page).nth(2).locator(".hand-points")).to_have_text("257 : 0")  # a match
    assert stored(server, sheet) == []  # nothing has reached the server yet

    page.context.set_offline(False)
    expect(page.locator("#sync")).to_have_text(SAVED, timeout=TIMEOUT_MS)
    expect(page.locator("#hands li.pending")).to_have_count(0)
    hands = stored(server, sheet)
    assert points(hands) == [("H", 100), ("S", 60), ("O", None)]
    assert hands[1]["team"] == 1 and hands[1]["stoeck"] == 1 and hands[2]["match"] == 0
    expect(page.locator("#total0")).to_have_text(str(hands[2]["totals"][0]))
    page.reload()
    expect(hand_rows(page)).to_have_count(3)
    assert len(stored(server, sheet)) == 3
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_hand_whose_answer_was_lost_is_sent_again_and_written_once(
    browser: Browser, server: str
) -> None:
    sheet = new_sheet(server)
    # the page's own requests, seen by the route (no service worker in between)
    context = browser.new_context(
        locale="de-CH", viewport={"width": 390, "height": 844}, service_workers="block"
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    open_sheet(page, server, sheet)
    lost: list[str] = []
    held: list[Route] = []  # sent again: held until the page has been read as not saved

    def lose_the_answer(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
        elif not lost:
            route.fetch()  # the server writes the hand, its answer never arrives
            lost.append(route.request.url)
            route.abort("connectionreset")
        else:
            held.append(route)

    page.route("**/api/sheets/*/hands*", lose_the_answer)
    enter_hand(page, "C", team=0, points=90)
    assert len(lost) == 1 and "write=" in lost[0]
    expect(page.locator("#sync")).to_contain_text("Noch nicht auf dem Server gespeichert: 1")
    assert len(stored(server, sheet)) == 1  # written, though the page does not know it
    page.unroute("**/api/sheets/*/hands*")
    for route in held:
        route.fallback()
    expect(page.locator("#sync")).to_have_text(SAVED, timeout=TIMEOUT_MS)  # sent again
    assert points(stored(server, sheet)) == [("C", 90)]
    expect(hand_rows(page)).to_have_count(1)
    context.close()


def test_two_phones_offline_end_with_every_hand_in_order_and_the_conflict_shown(
    browser: Browser, server: str
) -> None:
    sheet = new_sheet(server, hands=1)
    first, second = phone(browser), phone(browser)
    for page in (first, second):
        open_sheet(page, server, sheet)
        page.context.set_offline(True)
    enter_hand(first, "H", team=0, points=101)
    enter_hand(first, "S", team=0, points=102)
    enter_hand(second, "O", team=0, points=103)
    enter_hand(second, "U", team=0, points=104)
    # the second phone also corrects hand 1, which the first one strikes meanwhile
    press(hand_rows(second).first.locator("button.edit"))
    enter_hand(second, points=105)
    press(hand_rows(first).first.locator("button.delete"))
    expect(first.locator("#sync")).to_contain_text("gespeichert: 3")
    expect(second.locator("#sync")).to_contain_text("gespeichert: 3")

    first.context.set_offline(False)
    expect(first.locator("#sync")).to_have_text(SAVED, timeout=TIMEOUT_MS)
    assert points(stored(server, sheet)) == [("H", 101), ("S", 102)]
    second.context.set_offline(False)
    expect(second.locator("#sync")).to_have_text(SAVED, timeout=TIMEOUT_MS)
    hands = stored(server, sheet)
    assert points(hands) == [("H", 101), ("S", 102), ("O", 103), ("U", 104)]  # each once
    # the second phone says where its hands went and which correction it could not make
    moved = second.locator("#conflicts li.moved")
    expect(moved).to_have_count(1)
    expect(moved).to_contain_text("auf einem anderen Gerät geändert")
    expect(moved).to_contain_text("als Spiel 2 geschriebene Spiel ist Spiel 3")
    changed = second.locator("#conflicts li.changed")
    expect(changed).to_contain_text("Spiel 1 wurde inzwischen auf einem anderen Gerät geändert")
    expect(hand_rows(second)).to_have_count(4)
    # the correction is not lost: written as a new hand, or set aside, as the scorer says
    press(changed.locator("button.rewrite"))
    expect(second.locator("#points0")).to_have_text("105")
    press(second.locator("#submit"))
    expect(hand_rows(second)).to_have_count(5)
    press(moved.locator("button.settle"))
    expect(second.locator("#conflicts li")).to_have_count(0)
    expect(second.locator("#sync")).to_have_text(SAVED, timeout=TIMEOUT_MS)
    assert points(stored(server, sheet))[-1] == ("D", 105)
    # and the first phone follows the sheet by itself
    expect(hand_rows(first)).to_have_count(5, timeout=25_000)
    for page in (first, second):
        page.context.close()
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_calculator_is_installable(browser: Browser, server: str) -> None:
    page = phone(browser)
    page.goto(server + "/tafel")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == server + "/static/tafel.webmanifest"
    assert manifest.get("errors") == []
    assert '"start_url": "/tafel"' in manifest["data"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a test browser's context is a private window, where nothing is ever installed
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_sheet_begun_without_a_connection_reaches_the_server(
    browser: Browser, server: str
) -> None:
    page = phone(browser)
    page.goto(server + "/tafel")
    expect(page.locator("#new-preset")).to_have_value("romand")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)
    page.context.set_offline(True)
    page.reload()
    page.fill("#new-name", "Hütte")
    page.select_option("#new-preset", "schieber-2500")
    press(page.locator("#create"))
    expect(page.locator("#sheet-name")).to_have_text("Hütte")
    expect(page.locator("#contracts .contract-name").first).to_have_text("Eicheln")
    enter_hand(page, "S", team=0, points=88)  # Schilten ×2
    enter_hand(page, "O", team=1, points=70)
    expect(page.locator("#sync")).to_contain_text("gespeichert: 3")  # the sheet and two hands
    link = page.evaluate("location.hash.slice(1)")
    sheet = tuple(link.split("."))
    assert len(sheet) == 2
    assert http_json(server, f"/api/sheets/{sheet[0]}?key={sheet[1]}")[0] == 404  # not yet

    page.context.set_offline(False)
    expect(page.locator("#sync")).to_have_text(SAVED, timeout=TIMEOUT_MS)
    hands = stored(server, (sheet[0], sheet[1]))
    assert points(hands) == [("S", 88), ("O", 70)]
    assert [h["factor"] for h in hands] == [2, 3]
    expect(page.locator("#total0")).to_have_text(str(hands[1]["totals"][0]))
    expect(page.locator("#slate svg")).to_have_count(1)
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_hands_entered_after_one_the_sheet_refuses_wait_for_it(
    browser: Browser, server: str
) -> None:
    """Offline, hand 3 needs an answer (both teams reach the target) and hand 4 follows it:
    back online, hand 3 is refused and hand 4 is not sent — it waits, kept, to be written
    after hand 3 (never counted as the deciding hand in its place). The refusal kept is the
    sheet's question: hand 3 written again, the page asks it."""
    status, view = http_json(server, "/api/sheets", {"name": "Beiz", "rules": {"target": 300}})
    assert status == 201
    sheet = (view["id"], view["key"])
    for hand in (
        {"contract": "D", "points": 140, "team": 0, "weis": [[100], []]},  # 240 : 17
        {"contract": "D", "points": 0, "team": 0, "weis": [[], [100]]},  # 240 : 274
    ):
        assert http_json(server, f"/api/sheets/{sheet[0]}/hands?key={sheet[1]}", hand)[0] == 201
    page = phone(browser)
    open_sheet(page, server, sheet)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)
    page.context.set_offline(True)
    enter_hand(page, "D", team=0, points=100)  # 340 : 331 — who was out first?
    enter_hand(page, "H", team=0, points=10)
    expect(hand_rows(page)).to_have_count(4)
    page.context.set_offline(False)
    expect(page.locator("#conflicts li.refused")).to_have_count(1, timeout=TIMEOUT_MS)
    held = page.locator("#conflicts li.held")
    expect(held).to_have_count(1)
    expect(held).to_contain_text("Spiel 3")
    assert len(stored(server, sheet)) == 2  # hand 4 was not written in hand 3's place
    expect(held.locator("button.rewrite")).to_be_visible()
    refused = page.locator("#conflicts li.refused")
    expect(refused).to_contain_text("im Spiel 3 erreichen beide Teams das Ziel (300)")
    press(refused.locator("button.rewrite"))
    expect(page.locator("#error")).to_have_text(
        "Beide Teams erreichen in diesem Spiel das Ziel: unten angeben, welches zuerst."
    )
    expect(page.locator("#moments")).to_have_attribute("open", "")
    expect(page.locator("#first-out")).to_be_focused()
    page.select_option("#first-out", "1")
    enter_hand(page)
    expect(page.locator("#conflicts li.refused")).to_have_count(0)
    hands = stored(server, sheet)
    assert len(hands) == 3 and hands[2]["points"] == 100 and hands[2]["first_out"] == 1
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_offline_a_refused_hand_is_said_at_its_field(browser: Browser, server: str) -> None:
    """Offline, the page refuses what it can tell itself, in the page's language, beside the
    field and with the focus there, and keeps nothing; a hand it cannot tell (a weis's cards)
    is kept, and once the server refuses it, written again, its refusal is said at its field."""
    status, view = http_json(
        server, "/api/sheets", {"name": "Säli", "rules": {"target": 3000, "stoeck": False}}
    )
    assert status == 201
    sheet = (view["id"], view["key"])
    page = phone(browser)
    open_sheet(page, server, sheet)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)
    page.context.set_offline(True)
    enter_hand(page, "H", team=0, points=100, stoeck=0)
    expect(page.locator("#stoeck + #field-error")).to_have_text(
        "an diesem Tisch zählen keine Stöck"
    )
    expect(page.locator("#stoeck [data-team='0']")).to_be_focused()
    expect(hand_rows(page)).to_have_count(0)  # nothing kept
    press(page.locator("#stoeck [data-team='0']"))
    enter_hand(page, weis0="♥6 ♥7")  # two cards are no weis: only the server can tell
    expect(hand_rows(page)).to_have_count(1)
    expect(page.locator("#field-error")).to_be_hidden()
    page.context.set_offline(False)
    refused = page.locator("#conflicts li.refused")
    expect(refused).to_contain_text(
        "„♥6 ♥7“: ein Weis sind drei oder mehr Karten", timeout=TIMEOUT_MS
    )
    press(refused.locator("button.rewrite"))
    expect(page.locator("#weis0 + #field-error")).to_have_text(
        "„♥6 ♥7“: ein Weis sind drei oder mehr Karten in Folge einer Farbe, oder vier Gleiche"
    )
    expect(page.locator("#weis0")).to_be_focused()
    expect(page.locator("#weis0")).to_have_value("♥6 ♥7")  # the hand as it was written
    expect(page.locator("#error")).to_be_hidden()
    page.fill("#weis0", "♥6 ♥7 ♥8")
    enter_hand(page)
    expect(page.locator("#sync")).to_have_text(SAVED)
    hands = stored(server, sheet)
    assert len(hands) == 1 and hands[0]["weis"] == [[{"points": 20, "cards": "H6 H7 H8"}], []]
    expect(page.locator("#field-error")).to_be_hidden()
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_deletion_the_sheet_refuses_is_said_once_the_game_is_won(
    browser: Browser, server: str
) -> None:
    """The entry form is hidden once the game is won: a refused deletion is said beside the
    hands, and nothing changes."""
    status, view = http_json(server, "/api/sheets", {"name": "Fertig", "rules": {"target": 300}})
    assert status == 201
    sheet = (view["id"], view["key"])
    for hand in (
        {"contract": "D", "points": 140, "team": 0, "weis": [[100], []]},  # 240 : 17
        {"contract": "D", "points": 0, "team": 0, "weis": [[], [100]]},  # 240 : 274
        {"contract": "D", "points": 100, "team": 0, "first_out": 1},  # 340 : 331, B first
    ):
        answer = http_json(server, f"/api/sheets/{sheet[0]}/hands?key={sheet[1]}", hand)
        assert answer[0] == 201, answer
    page = phone(browser)
    open_sheet(page, server, sheet)
    expect(page.locator("#hand-form")).to_be_hidden()
    page.locator("#hands li.hand-row[data-number='2'] button.delete").click()
    error = page.locator("#list-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Spiel 3")  # the hands numbered as the sheet shows them
    assert len(stored(server, sheet)) == 3
    page.context.close()
