"""The table in a real browser (Chromium through Playwright) against a real server subprocess:
create a table in the lobby, play a whole hand by clicking, invite a friend, watch as a
spectator who never receives a hidden card, switch the deck and the language, replay a
finished game with the keyboard, and the phone layout."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    artifacts,
    card_codes,
    chromium,
    new_page,
    public_cards,
    record_frames,
    table,
    take_turn,
    wait_my_turn_or,
)
from playwright.sync_api import Browser, Page
from server_support import create_table, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("browser")) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def lobby_table(page: Page, server: str, seats: list[str]) -> dict[str, Any]:
    """Open a table from the lobby form with ``seats`` for seats 1..3; returns the invitation
    links shown (label -> URL) and the link to the table."""
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    for n, kind in enumerate(seats, start=1):
        page.select_option(f"#seat{n}", kind)
    page.fill("#name0", "Anna")
    page.click("#create")
    page.locator("#invites").wait_for()
    links = {
        li.locator(".invite-label").inner_text(): li.locator("input").input_value()
        for li in page.locator("#invite-list li").all()
    }
    go = page.locator("#go-table").get_attribute("href")
    assert go is not None
    return {"links": links, "table": server + go}


def history_rows(page: Page) -> list[list[int]]:
    """The hand scores in the history table (team columns as shown: own team first)."""
    rows = page.locator("#history tr").all()[1:]
    out = []
    for row in rows:
        cells = row.locator("td").all()[1:]
        out.append([int(c.inner_text().split()[0]) for c in cells])
    return out


def test_play_a_hand_while_a_spectator_watches(browser: Browser, server: str) -> None:
    page = new_page(browser)
    made = lobby_table(page, server, ["rule", "rule", "rule"])
    assert list(made["links"]) == ["Spectator link"]  # no friend invited: only the watch link
    watch_url = made["links"]["Spectator link"]
    assert "?watch=" in watch_url

    spectator = new_page(browser)
    frames = record_frames(spectator)
    spectator.goto(watch_url)
    spectator.locator("#table[data-spectator='true']").wait_for()

    page.goto(made["table"])
    page.locator("#table[data-phase]:not([data-phase='connecting'])").wait_for()
    assert page.locator("#hand .card").count() == 9
    played: list[str] = []
    shot = False
    while True:
        wait_my_turn_or(page, "Number(t.dataset.history) >= 1")
        if int(table(page)["history"]) >= 1:
            break
        # a card that is not legal cannot be played: clicking it changes nothing
        dimmed = page.locator("#hand .card.dimmed")
        if dimmed.count():
            before = page.locator("#hand .card").count()
            dimmed.first.click()
            page.wait_for_timeout(50)
            assert page.locator("#hand .card").count() == before
        if not shot and len(played) >= 3 and page.locator("#trick .slot").count() >= 2:
            page.screenshot(path=artifacts() / "table-french.png")
            shot = True
        code = take_turn(page)
        if code:
            played.append(code)
    assert len(played) == 9  # the whole hand, card by card
    assert page.locator("#hand .card").count() == 9  # the next hand is dealt

    # the hand is scored: the breakdown, the history and the totals agree
    breakdown = page.locator("#last-hand .breakdown")
    breakdown.wait_for()
    totals = [int(x) for x in breakdown.locator(".total-row td").all_inner_texts()]
    tricks = [int(x) for x in breakdown.locator("[data-block='tricks'] td").all_inner_texts()]
    assert sum(tricks) in (157, 257)  # romand: no multiplier
    (hand,) = history_rows(page)
    assert sorted(hand) == sorted(totals)
    shown = [int(page.locator(f"#score [data-team='{t}'] .total").inner_text()) for t in (0, 1)]
    assert shown == totals  # team 0 is the player's
    assert not page.errors  # type: ignore[attr-defined]

    # the spectator saw the game but never a hand: not in the page, not on the wire
    spectator.wait_for_function("document.getElementById('table').dataset.history === '1'")
    assert spectator.locator("#hand .card").count() == 0
    assert spectator.locator("#controls button").count() == 0
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) > 20
    seen_played = 0
    for frame in states:
        view = frame["view"]
        assert frame["you"] == {"seat": None, "spectator": True}
        assert view["hand"] == [] and view["own_weis"] == [] and view["legal"] == []
        leaked = card_codes(frame) - public_cards(frame)
        assert not leaked, f"the spectator received unplayed cards {leaked}"
        seen_played += sum(e["type"] == "CardPlayed" for e in frame["events"])
    assert seen_played >= 30  # the frames carried the hand's plays


def test_a_friend_joins_and_both_see_the_plays(browser: Browser, server: str) -> None:
    host = new_page(browser)
    made = lobby_table(host, server, ["human", "rule", "rule"])
    invite = made["links"]["Link for seat 2"]
    assert "?seat=" in invite and "Spectator link" in made["links"]
    host.goto(made["table"])
    guest = new_page(browser, locale="de-CH")
    guest.goto(invite)
    guest.locator("#table[data-phase]:not([data-phase='connecting'])").wait_for()
    assert guest.locator("#hand .card").count() == 9
    # each sees the other connected, by name on the host's side
    host.locator("#seat-right .dot.on").wait_for()
    guest.locator("#seat-left .dot.on").wait_for()
    assert "Anna" in guest.locator("#seat-left .name").inner_text()
    assert guest.locator("html").get_attribute("lang") == "de"

    plays = {"host": 0, "guest": 0}
    pages = {"host": host, "guest": guest}
    while min(plays.values()) < 3:
        for who, page in pages.items():
            state = table(page)
            if state.get("myTurn") != "true":
                continue
            code = take_turn(page)
            if code is None:
                continue
            plays[who] += 1
            other = pages["guest" if who == "host" else "host"]
            # the other player sees the card: on the felt, or among the tricks of the hand
            other.wait_for_function(
                """code => document.querySelector(`#trick [data-card="${code}"]`)
                    || document.querySelector(`#tricks-list [data-card="${code}"]`)""",
                arg=code,
            )
        host.wait_for_timeout(20)
    assert not host.errors and not guest.errors  # type: ignore[attr-defined]


def test_switch_the_deck_and_the_language(browser: Browser, server: str) -> None:
    made = create_table(server, seats=["human", "rule", "rule", "rule"])
    page = new_page(browser)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()

    def decks() -> set[str]:
        sources = page.eval_on_selector_all("#felt img", "imgs => imgs.map(i => i.src)")
        return {s.split("/cards/")[1].split("/")[0] for s in sources}

    assert decks() == {"french"}
    page.click("button[data-deck='swiss']")
    assert decks() == {"swiss"}
    assert page.locator("button[data-deck='swiss']").get_attribute("aria-pressed") == "true"
    page.reload()  # remembered
    page.locator("#hand .card").first.wait_for()
    assert decks() == {"swiss"}
    # the Swiss cards really are drawn: the server sends their pictures
    src = page.locator("#hand .card img").first.get_attribute("src")
    with urllib.request.urlopen(server + str(src)) as r:
        assert b'data-deck="swiss"' in r.read()

    page.select_option(".lang-select", "de")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("[data-i18n='score']").inner_text().lower() == "stand"
    assert page.locator("button[data-deck='swiss']").inner_text() == "Deutschschweizer"
    page.select_option(".lang-select", "fr")
    assert page.locator("[data-i18n='last_trick']").first.inner_text() == "Dernier pli"
    # the card names follow the language and the deck
    label = page.locator("#hand .card").first.get_attribute("aria-label") or ""
    assert any(w in label for w in ("grelots", "roses", "écus", "glands"))

    # a moment of play in the Swiss deck for the README
    for _ in range(12):
        wait_my_turn_or(page, "false")
        if len(page.locator("#hand .card").all()) <= 7 and page.locator("#trick .slot").count():
            break
        take_turn(page)
    page.select_option(".lang-select", "de")
    page.screenshot(path=artifacts() / "table-swiss.png")
    assert not page.errors  # type: ignore[attr-defined]


def test_replay_a_finished_game_with_the_keyboard(browser: Browser, server: str) -> None:
    made = create_table(
        server, seats=["human", "rule", "rule", "rule"], options={"target": 40}
    )
    page = new_page(browser)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    # play with the keyboard only: number keys, and arrows + Enter
    arrows = False
    while True:
        wait_my_turn_or(page, "t.dataset.status === 'finished'")
        if table(page)["status"] == "finished":
            break
        if not arrows and page.locator("#hand .card.legal").count():
            page.locator("body").focus()
            page.keyboard.press("ArrowRight")  # focuses a card
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused
            legal = page.locator(f'#hand [data-card="{focused}"].legal').count()
            if legal:
                page.keyboard.press("Enter")
                page.locator(f'#hand [data-card="{focused}"]').wait_for(state="detached")
                arrows = True
                continue
        take_turn(page, keyboard=True)
    dialog = page.locator("#over-dialog")
    dialog.wait_for()
    assert "Game over" in dialog.inner_text()
    download = page.locator("#over-download").get_attribute("href")
    assert download is not None
    with urllib.request.urlopen(server + download) as r:
        assert r.read().decode().startswith("rules ")

    page.click("#over-replay")
    replay = page.locator("#replay")
    replay.wait_for()
    assert replay.get_attribute("data-move") == "0"
    assert page.locator("#rp-felt .rp-cards img").count() == 36  # the deal, face up
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert replay.get_attribute("data-move") == "2"
    page.keyboard.press("End")
    moves = int(replay.get_attribute("data-move") or 0)
    assert moves >= 5
    remaining = page.locator("#rp-felt .rp-cards img").count()
    played = page.locator("#rp-trick img").count()
    assert 0 < played <= 4 and remaining < 36
    page.keyboard.press("Home")
    assert replay.get_attribute("data-move") == "0"
    page.screenshot(path=artifacts() / "replay.png")
    page.click("#rp-back")
    page.locator("#felt").wait_for()
    assert not page.errors  # type: ignore[attr-defined]


def test_the_table_fits_a_phone(browser: Browser, server: str) -> None:
    made = create_table(server, seats=["human", "rule", "rule", "rule"])
    page = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = [c.bounding_box() for c in page.locator("#hand .card").all()]
    assert len(boxes) == 9
    for box in boxes:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    # the corner of each card shows at least a third of a card's width
    lefts = sorted(b["x"] for b in boxes if b)
    assert min(b - a for a, b in zip(lefts, lefts[1:], strict=False)) >= boxes[0]["width"] / 3
    page.screenshot(path=artifacts() / "table-phone.png")
    assert Path(artifacts() / "table-phone.png").stat().st_size > 0
    assert not page.errors  # type: ignore[attr-defined]


def test_the_lobby_refuses_bad_options_with_a_clear_message(browser: Browser, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    page.locator(".all-options summary").click()
    page.fill("#options-json", '{"target": -5}')
    page.click("#create")
    error = page.locator("#create-error")
    error.wait_for()
    assert "target" in error.inner_text()
    assert page.locator("#invites").is_hidden()
    page.screenshot(path=artifacts() / "lobby.png", full_page=True)
