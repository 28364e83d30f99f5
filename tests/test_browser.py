"""The table in a real browser (Chromium through Playwright) against a real server subprocess:
create a table in the lobby, play a whole hand by clicking, invite a friend, watch as a
spectator who never receives a hidden card, switch the deck and the language, the phone
layout, replay a finished game with the keyboard, reconnect after the server went away."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from random import Random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from browser_support import (
    artifacts,
    card_codes,
    hand_mark,
    new_page,
    public_cards,
    record_frames,
    record_sent,
    table,
    take_turn,
    wait_my_turn_or,
    wait_played,
)
from chibre.cards import card_code
from chibre.play import trick_winner
from server_support import create_table, running_server, start_server, stop_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("browser")) as base_url:
        yield base_url


def lobby_table(page: Page, server: str, seats: list[str]) -> dict[str, Any]:
    """Open a table from the lobby form with ``seats`` for seats 1..3; returns the invitation
    links shown (label -> URL) and the link to the table."""
    if not page.url.startswith(server):
        page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    for n, kind in enumerate(seats, start=1):
        page.select_option(f"#seat{n}", kind)
    page.fill("#name0", "Anna")
    page.click("#create")
    page.locator("#invites").wait_for()
    links = invitations(page)
    go = page.locator("#go-table").get_attribute("href")
    assert go is not None
    return {"links": links, "table": server + go}


def invitations(page: Page) -> dict[str, str]:
    """The invitation rows shown on the page: label -> URL."""
    return {
        li.locator(".invite-label").inner_text(): li.locator("input").input_value()
        for li in page.locator("#invite-list li").all()
    }


def copy_link(page: Page, label: str) -> str:
    """Click the copy button of the invitation ``label``; returns what the clipboard holds."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.evaluate("navigator.clipboard.writeText('')")
    row = page.locator("#invite-list li").filter(has_text=label)
    button = row.locator("button.copy")
    assert button.inner_text() == "Copy"
    button.click()
    row.locator("button", has_text="Copied").wait_for()  # once the clipboard holds it
    text: str = page.evaluate("navigator.clipboard.readText()")
    return text


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
    # the lobby refuses bad options with a clear message, and creates nothing
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    assert page.locator("#tafel-link").get_attribute("href") == "/tafel"  # the calculator
    assert "Jasstafel" in page.locator("#tafel-link").inner_text()
    page.locator(".all-options > summary").click()
    page.fill("#options-json", '{"target": -5}')
    page.click("#create")
    page.locator("#create-error").wait_for()
    assert "target" in page.locator("#create-error").inner_text()
    assert page.locator("#invites").is_hidden()
    page.fill("#options-json", "{}")

    made = lobby_table(page, server, ["rule", "rule", "rule"])
    page.screenshot(path=artifacts() / "lobby.png", full_page=True)
    assert list(made["links"]) == ["Spectator link"]  # no friend invited: only the watch link
    watch_url = made["links"]["Spectator link"]
    assert "?watch=" in watch_url

    spectator = new_page(browser)
    frames = record_frames(spectator)
    spectator.goto(watch_url)
    spectator.locator("#table[data-spectator='true']").wait_for()

    sent = record_sent(page)
    page.goto(made["table"])
    page.locator("#table[data-phase]:not([data-phase='connecting'])").wait_for()
    expect(page.locator("#hand .card")).to_have_count(9)
    played: list[str] = []
    tried: list[str] = []
    shot = False
    while True:
        wait_my_turn_or(page, "Number(t.dataset.history) >= 1")
        if int(table(page)["history"]) >= 1:
            break
        # a card that is not legal cannot be played: the server refuses it and says why
        dimmed = page.locator("#hand .card.dimmed")
        if dimmed.count():
            code = dimmed.first.get_attribute("data-card")
            assert code is not None
            dimmed.first.click()
            page.locator("#refusal").wait_for()
            tried.append(code)
            assert table(page)["myTurn"] == "true"
            assert page.locator(f"#hand .card[data-card='{code}']").count() == 1
        if not shot and len(played) >= 3 and page.locator("#trick .slot").count() >= 2:
            page.mouse.move(5, 5)
            page.screenshot(path=artifacts() / "table-french.png")
            shot = True
        code = take_turn(page)
        if code:
            played.append(code)
            tried.append(code)
    assert len(played) == 9  # the whole hand, card by card
    acts = [m["action"] for m in sent if m.get("type") == "act"]
    plays_sent = [a["card"] for a in acts if a.get("kind") == "play"]
    assert plays_sent == tried  # each card tried once, the refused ones not played
    # the next hand is dealt: the scored hand and the new cards come in two frames (the server
    # deals after its pause between hands), so the cards are waited for, not counted at once
    expect(page.locator("#hand .card")).to_have_count(9)

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
    # the Jasstafel of the game: the slate of the hand scores, each team's total written on it
    slate = page.locator("#tafel")
    slate.wait_for()
    page.wait_for_function("() => document.getElementById('tafel').naturalWidth > 0", polling=100)
    src = slate.get_attribute("src") or ""
    assert f"team0={hand[0]}" in src and f"team1={hand[1]}" in src
    svg = page.request.get(server + src).text()
    assert f">{totals[0]}<" in svg and f">{totals[1]}<" in svg
    page.screenshot(path=artifacts() / "table-scored.png", full_page=True)
    assert not page.errors  # type: ignore[attr-defined]

    # the spectator saw the game but never a hand: not in the page, not on the wire
    spectator.wait_for_function(
        "() => document.getElementById('table').dataset.history === '1'", polling=100
    )
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


def test_the_lobby_buttons_wait_for_the_rules(browser: Browser, server: str) -> None:
    """Before the presets and players have come the lobby's buttons cannot be pressed (a press
    would start nothing, or send the form away); once they are in, a table begins."""
    page = new_page(browser)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # the presets' answer is held back

    page.route("**/api/presets*", hold)
    page.goto(server + "/")
    deadline = time.monotonic() + 15
    while not held:  # the page has asked for the presets (its script may ask after the load)
        assert time.monotonic() < deadline, "the lobby never asked for the presets"
        page.wait_for_timeout(50)
    expect(page.locator("#create")).to_be_disabled()
    expect(page.locator("#play-now")).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#play-now")).to_be_enabled()
    expect(page.locator("#create")).to_be_enabled()
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/t/[^/?]+\?seat="))
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_friend_joins_and_both_see_the_plays(browser: Browser, server: str) -> None:
    host = new_page(browser)
    made = lobby_table(host, server, ["human", "rule", "rule"])
    invite = made["links"]["Invitation — Opponent on your right"]
    assert "?seat=" in invite and "Spectator link" in made["links"]
    assert copy_link(host, "Invitation — Opponent on your right") == invite
    host.goto(made["table"])
    # the table shows seat 0 the same invitations, each to copy
    host.locator("#invite-box").wait_for()
    assert invitations(host) == made["links"]
    assert copy_link(host, "Spectator link") == made["links"]["Spectator link"]
    # and shows its QR code, for a friend at the same real table to scan
    row = host.locator("#invite-list li").filter(has_text="Spectator link")
    row.locator("button.qr").click()
    qr = row.locator("img.invite-qr")
    expect(qr).to_be_visible()
    assert qr.get_attribute("alt") == "QR code of the link: Spectator link"
    host.wait_for_function(
        "() => document.querySelector('img.invite-qr').naturalWidth > 0", polling=100
    )
    svg = host.request.get(server + (qr.get_attribute("src") or "")).text()
    assert "<svg" in svg and made["links"]["Spectator link"].replace("&", "&amp;") in svg
    row.locator("button.qr").click()
    expect(qr).to_be_hidden()
    guest = new_page(browser, locale="de-CH")
    guest.goto(invite)
    guest.locator("#table[data-phase]:not([data-phase='connecting'])").wait_for()
    expect(guest.locator("#hand .card")).to_have_count(9)
    # each sees the other connected, by name on the host's side
    host.locator("#seat-right .dot.on").wait_for()
    guest.locator("#seat-left .dot.on").wait_for()
    assert "Anna" in guest.locator("#seat-left .name").inner_text()
    assert guest.locator("html").get_attribute("lang") == "de"

    plays = {"host": 0, "guest": 0}
    pages = {"host": host, "guest": guest}
    deadline = time.monotonic() + 60
    while min(plays.values()) < 2:
        assert time.monotonic() < deadline, f"the game stalled after {plays} plays: {table(host)}"
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
                polling=100,
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

    assert decks() == {"french"}, decks()
    page.click("button[data-deck='swiss']")
    assert decks() == {"swiss"}, decks()
    assert page.locator("button[data-deck='swiss']").get_attribute("aria-pressed") == "true"
    page.reload()  # remembered
    page.locator("#hand .card").first.wait_for()
    assert decks() == {"swiss"}, decks()
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
    assert any(w in label for w in ("grelots", "roses", "écus", "glands")), label

    # on a phone, the full hand: nothing wider than the screen, every card's corner shows
    page.set_viewport_size({"width": 390, "height": 844})
    assert_fits_the_screen(page, cards=9)
    page.set_viewport_size({"width": 1280, "height": 800})

    # a moment of play in the Swiss deck for the README: cards on the felt, some in hand
    for _ in range(12):
        wait_my_turn_or(page, "false")
        left = page.locator("#hand .card").count()
        on_felt = page.locator("#trick .slot").count()
        if left <= 8 and (on_felt >= 2 or (on_felt and left <= 5)):
            break
        take_turn(page)
    page.select_option(".lang-select", "de")
    page.mouse.move(5, 5)  # no card raised under the pointer
    page.screenshot(path=artifacts() / "table-swiss.png")

    # the same moment on a phone, whose language is chosen in the settings
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".lang-select")).to_be_hidden()
    page.click("#settings-btn")
    page.select_option("#set-lang", "fr")
    page.locator("#settings-dialog button").click()
    expect(page.locator("#settings-dialog")).not_to_be_visible()
    assert_fits_the_screen(page, cards=page.locator("#hand .card").count())
    page.screenshot(path=artifacts() / "table-phone.png")
    assert not page.errors  # type: ignore[attr-defined]


def assert_fits_the_screen(page: Page, cards: int) -> None:
    """Nothing on the page is wider than the screen, the hand holds ``cards`` cards (at least
    one) and each one's corner shows: no card covers more than two thirds of the one before."""
    layout = page.evaluate(
        """() => ({
            width: document.documentElement.clientWidth,
            scroll: document.documentElement.scrollWidth,
            cards: [...document.querySelectorAll('#hand .card')].map(c => {
                const r = c.getBoundingClientRect();
                return {x: r.x, width: r.width};
            }),
        })"""
    )
    width = layout["width"]
    assert layout["scroll"] <= width, layout
    assert cards >= 1 and len(layout["cards"]) == cards, layout
    for box in layout["cards"]:
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, layout
    lefts = sorted(b["x"] for b in layout["cards"])
    card_width = layout["cards"][0]["width"]
    assert all(b - a >= card_width / 3 for a, b in pairwise(lefts)), layout


def test_house_rules_thank_and_replay_with_the_keyboard(browser: Browser, server: str) -> None:
    """Players declare their own weis and stöck, pique double is chosen, a team must thank:
    play three cards with the keyboard, thank too early, then replay the game move by move."""
    options = {  # nobody reaches 1000 in three tricks: the early thanks loses the game
        "claim": "thank",
        "auto_weis": False,
        "auto_stoeck": False,
        "pique_double": "choice",
    }
    made = create_table(server, seats=["human", "rule", "rule", "rule"], options=options)
    page = new_page(browser)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    assert page.locator("#controls [data-kind='thank']").is_visible()
    mine = 0
    while mine < 3:
        wait_my_turn_or(page, "false")
        contracts = page.locator("#controls .btn-contract")
        if contracts.count():
            # ♠ twice: simple ×1 and double ×2, each with its factor
            assert page.locator("#controls [data-contract='2'][data-double='true']").count() == 1
            assert "×2" in page.locator("#controls [data-double='true']").inner_text()
            take_turn(page, keyboard=True)
            continue
        weis = page.locator("#announce-weis").count()
        stoeck = page.locator("#declare-stoeck").count()
        if weis:  # the player's own weis is offered, announced by default
            assert page.locator("#announce-weis").is_checked()
        if stoeck:
            assert page.locator("#declare-stoeck").is_checked()
        if mine == 0:  # arrows + Enter
            page.locator("body").focus()
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused
            card = page.locator(f'#hand button[data-card="{focused}"]')
            if "legal" in (card.get_attribute("class") or ""):
                before = hand_mark(page)
                page.keyboard.press("Enter")
                wait_played(page, before, focused)
                # the keyboard stays in the hand, on the card now in the played card's place
                page.wait_for_function(
                    "() => document.activeElement?.closest('#hand .card')", polling=100
                )
            else:
                take_turn(page, keyboard=True)
        else:  # number keys
            take_turn(page, keyboard=True)
        mine += 1
        if weis:
            page.locator("#seat-bottom .chip-weis").wait_for()
    page.click("#controls [data-kind='thank']")
    page.locator("#thank-dialog[open]").wait_for()  # a confirmation first, with a warning
    assert page.locator("#thank-warning").is_visible()
    page.click("#thank-yes")
    dialog = page.locator("#over-dialog")
    dialog.wait_for()
    assert dialog.locator("h2").text_content() == "Game over"
    assert "They win" in page.locator("#over-text").inner_text()
    page.locator("#table[data-status='finished']").wait_for()
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
    assert moves >= 13  # the contract, three tricks, and the thanks
    remaining = page.locator("#rp-felt .rp-cards img").count()
    played = page.locator("#rp-trick img").count()
    assert 0 < played <= 4 and remaining < 36
    page.keyboard.press("Home")
    assert replay.get_attribute("data-move") == "0"
    page.screenshot(path=artifacts() / "replay.png")
    page.click("#rp-back")
    page.locator("#felt").wait_for()
    assert not page.errors  # type: ignore[attr-defined]


def test_the_page_reconnects_when_the_server_comes_back(browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db)
    port = int(base.rsplit(":", 1)[1])
    try:
        made = create_table(base, seats=["human", "rule", "rule", "rule"], preset="schieber-2500")
        page = new_page(browser)
        page.goto(base + made["seats"][0]["link"])
        page.locator("#table[data-connected='true']").wait_for()
        # no deck chosen yet in this browser: the table's own deck (Swiss for this preset)
        page.locator("#hand .card").first.wait_for()
        assert page.locator("#table").get_attribute("data-deck") == "swiss"
        assert "/cards/swiss/" in str(page.locator("#hand img").first.get_attribute("src"))

        def hand() -> list[str]:
            return sorted(
                page.eval_on_selector_all("#hand button", "bs => bs.map(b => b.dataset.card)")
            )

        cards = hand()
        assert len(cards) == 9
        stop_server(process)
        page.locator("#table[data-connected='false']").wait_for()
        assert page.locator("#banner").is_visible()
        process, _ = start_server(db, port=port)  # the same link, the same table
        page.locator("#table[data-connected='true']").wait_for()
        assert hand() == cards
        page.locator("#banner").wait_for(state="hidden")
        wait_my_turn_or(page, "false")
        take_turn(page)  # and the game goes on
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        stop_server(process)


def test_the_page_reads_tricks_and_hands_as_the_engine_does(browser: Browser, server: str) -> None:
    """The replay and the hand's order use the page's own card logic (cards.js): it must
    agree with the engine on who takes a trick, in every contract."""
    rng = Random(5)
    tricks = []
    for _ in range(400):
        cards = rng.sample(range(36), 4)
        contract = rng.randrange(6)
        tricks.append(([card_code(c) for c in cards], contract, trick_winner(cards, contract)))
    page = new_page(browser)
    page.goto(server + "/")
    winners = page.evaluate(
        """async tricks => {
            const cards = await import('/static/cards.js');
            return tricks.map(([codes, contract]) => cards.trickWinner(codes, 0, contract));
        }""",
        [[codes, contract] for codes, contract, _ in tricks],
    )
    assert winners == [expected for _, _, expected in tricks]
    # a sorted hand: the trump first, each suit together, the trump in its own order
    hand = ["H6", "DJ", "SA", "D9", "DA", "H10", "C7", "D6"]
    ordered = page.evaluate("async h => (await import('/static/cards.js')).sortHand(h, 0)", hand)
    assert ordered[:4] == ["DJ", "D9", "DA", "D6"]
    suits = [c[0] for c in ordered]
    runs = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(runs) == len(set(suits))  # each suit in one run
    assert sorted(ordered) == sorted(hand)


def test_the_pages_name_a_computer_by_its_level_as_the_server_does(
    browser: Browser, server: str
) -> None:
    """Every level the server offers, in every language: the pages' ``levelName`` says what
    the server's ``level_name`` says (the game sheet's names, the lobby's, the table's)."""
    from chibre.server.views import level_name

    with urllib.request.urlopen(server + "/api/players") as r:
        levels: list[str] = json.load(r)["players"]
    assert "medium" in levels
    page = new_page(browser)
    page.goto(server + "/")
    for lang in ("fr", "de", "en"):
        said = page.evaluate(
            """async ([lang, levels]) => {
                const i18n = await import('/static/i18n.js');
                i18n.setLang(lang);
                return levels.map((kind) => i18n.levelName(kind));
            }""",
            [lang, levels],
        )
        assert said == [level_name(lang, kind) for kind in levels], lang
    assert level_name("de", "medium") != level_name("en", "medium")  # each in its language


# --- the page's files, read as text ---------------------------------------------------------

STATIC = Path(__file__).resolve().parents[1] / "src" / "chibre" / "server" / "static"
PAGE_FILES = ["index.html", "table.html", "i18n.js", "cards.js", "lobby.js", "table.js"]
PAGE_FILES += ["links.js", "replay.js", "style.css"]


def test_the_page_loads_nothing_from_outside() -> None:
    for name in PAGE_FILES:
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://", text), name
        assert "@import" not in text and "@font-face" not in text, name
