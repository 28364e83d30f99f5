"""Declaring weis outside one's card on the page (``Declare``, RULES.md §5): a known deal is
written into the store, the server restores the table, and the player who has just played
declares its weis with the button the page offers — while another seat is to act."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect

from browser_support import new_page
from chibre.actions import Choose, Play
from chibre.cards import parse_card
from chibre.notation import format_action
from server_support import create_table, start_server, stop_server

# seat 1 holds ♦6-♦8 and ♠J-♠A (its best: 50); Obenabe, seat 0 leads ♦A, seat 1 follows ♦6
DEAL = "3:AKQ.9876..76/876..AKQJ.AK/JT9.AKQJT..8/..T9876.QJT9"
OPTIONS = {"auto_weis": False, "first_chooser": "right_of_dealer"}


def restored(tmp_path: Path, entries: list[tuple[int, str]]) -> tuple[Path, dict[str, Any]]:
    """A table of four humans whose record is ``entries`` (seat, entry), as the server will
    restore it at its next start."""
    db = tmp_path / "chibre.sqlite"
    process, base = start_server(db, "--deal-delay", "60", "--grace", "600")
    try:
        made = create_table(base, ["human"] * 4, options=OPTIONS)
    finally:
        stop_server(process)
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM game_entries WHERE table_id = ?", (made["table"],))
        c.executemany(
            "INSERT INTO game_entries (table_id, n, seat, entry) VALUES (?, ?, ?, ?)",
            [(made["table"], n, seat, entry) for n, (seat, entry) in enumerate(entries)],
        )
    return db, made


def test_a_player_declares_its_weis_after_its_card(browser: Browser, tmp_path: Path) -> None:
    db, made = restored(
        tmp_path,
        [
            (-1, DEAL),
            (0, format_action(Choose(4))),
            (0, format_action(Play(parse_card("♦A")))),
            (1, format_action(Play(parse_card("♦6")))),
        ],
    )
    tid = made["table"]
    process, base = start_server(db, "--deal-delay", "60", "--grace", "600")
    try:
        # with the Swiss deck the weis is said in its words: Schilten (♠) Under-Ober-König-Ass
        swiss = new_page(browser, locale="de-CH")
        swiss.add_init_script("localStorage.setItem('chibre.deck', 'swiss')")
        swiss.goto(base + made["seats"][1]["link"])
        offered = swiss.locator("#controls [data-kind='declare']")
        expect(offered).to_contain_text("Schilten U-O-K-A")
        assert swiss.errors == []  # type: ignore[attr-defined]
        swiss.context.close()
        page = new_page(browser)
        frames: list[dict[str, object]] = []
        page.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda f: frames.append(json.loads(f))),
        )
        page.goto(base + made["seats"][1]["link"])
        button = page.locator("#controls [data-kind='declare']")
        expect(button).to_have_count(1)
        expect(button).to_contain_text("♠ J-Q-K-A")  # its best weis, in a few signs
        assert page.locator("#table").get_attribute("data-to-act") == "2"  # not its turn
        button.click()
        expect(button).to_have_count(0)
        deadline = time.time() + 10
        while time.time() < deadline and not any(
            f.get("type") == "state" and f["view"]["announced"] == [0, 50, 0, 0]  # type: ignore[index]
            for f in frames
        ):
            page.wait_for_timeout(100)
        states = [f for f in frames if f.get("type") == "state"]
        assert states[-1]["view"]["announced"] == [0, 50, 0, 0]  # type: ignore[index]
        assert {"type": "WeisAnnounced", "seat": 1, "points": 50} in states[-1]["events"]  # type: ignore[operator]
        expect(page.locator(".chip-weis")).to_contain_text("50")
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
    finally:
        stop_server(process)
    with sqlite3.connect(db) as c:
        stored = c.execute(
            "SELECT seat, entry FROM game_entries WHERE table_id = ? ORDER BY n", (tid,)
        ).fetchall()
    assert stored[-1] == (1, "+1[D6-D7-D8,SJ-SQ-SK-SA]")


def test_the_partner_s_chibre_is_said_while_the_trump_is_chosen(
    browser: Browser, tmp_path: Path
) -> None:
    """Seat 0 chibres with the key 0 (as in the terminal); seat 2's page says so while it names
    the trump (not only afterwards)."""
    db, made = restored(tmp_path, [(-1, DEAL)])
    process, base = start_server(db, "--deal-delay", "60", "--grace", "600")
    try:
        first = new_page(browser, locale="de-CH")
        first.goto(base + made["seats"][0]["link"])
        expect(first.locator("#controls .btn-contract")).to_have_count(6)
        first.locator("body").focus()
        first.keyboard.press("0")
        expect(first.locator("#table")).to_have_attribute("data-to-act", "2")
        page = new_page(browser, locale="de-CH")
        page.goto(base + made["seats"][2]["link"])
        expect(page.locator("#controls .btn-contract")).to_have_count(6)
        expect(page.locator("#center-note")).to_have_text(
            "Dein Partner hat geschoben: sag Trumpf an"
        )
        assert first.errors == [] and page.errors == []  # type: ignore[attr-defined]
        first.context.close()
        page.context.close()
    finally:
        stop_server(process)
