"""The calculator's page in a real browser (Chromium, headless) against a real server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("tafel") / "chibre.sqlite3"
    port = free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "chibre.server.sheets", "--db", str(db), "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/api/sheets", timeout=2).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def page(server: str) -> Iterator[Page]:
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(
            locale="de-CH", viewport={"width": 900, "height": 1100}, device_scale_factor=1
        )
        page = context.new_page()
        page.set_default_timeout(8000)
        foreign: list[str] = []

        def only_ours(route: Route) -> None:  # nothing but our own server is asked anything
            if route.request.url.startswith(server):
                route.continue_()
            else:
                foreign.append(route.request.url)
                route.abort()

        page.route("**/*", only_ours)
        yield page
        browser.close()
        assert foreign == []


def artifacts() -> Path:
    out = Path(os.environ.get("CHIBRE_ARTIFACTS", ROOT / "tests" / "artifacts"))
    out.mkdir(parents=True, exist_ok=True)
    return out


def write_hand(page: Page, **fields: str) -> None:
    for name, value in fields.items():
        selector = "#" + name.replace("_", "-")
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    page.click("#submit")
    expect(page.locator("#submit")).to_be_enabled()  # the answer has come back


def test_three_hands_a_correction_and_the_slate(server: str, page: Page) -> None:
    page.goto(server + "/tafel")
    expect(page.locator("#home h2").first).to_have_text("Neue Tafel")  # the browser's language
    page.fill("#new-name", "Jeudi")
    page.fill("#new-team0", "Nous")
    page.fill("#new-team1", "Eux")
    page.select_option("#new-preset", "romand")
    page.select_option("#new-multipliers", "french")
    page.click("#new-form details summary")
    page.fill("#new-options", '{"striche": {"kontermatsch": 3}}')
    page.click("#create")
    expect(page.locator("#sheet-name")).to_have_text("Jeudi")

    # 1: ♠ ×2, Nous 98 + a weis of 50 + stöck → 336 : 118 (RULES.md §6)
    write_hand(page, contract="S", chooser="0", points="98", points_team="0", weis0="50",
               stoeck="0")  # fmt: skip
    expect(page.locator("#total0")).to_have_text("336")
    expect(page.locator("#total1")).to_have_text("118")
    # 2: ♥, chosen by Nous, Eux take all nine: a Kontermatsch, 257
    write_hand(page, contract="H", chooser="0", match="1")
    expect(page.locator("#total1")).to_have_text("375")
    # 3: ♣ ×2, Nous 40, Eux show ♥6 ♥7 ♥8 → Nous 80, Eux (117 + 20) × 2 = 274
    write_hand(page, contract="C", chooser="1", points="40", points_team="0", weis1="♥6 ♥7 ♥8")
    expect(page.locator("#total0")).to_have_text("416")
    expect(page.locator("#total1")).to_have_text("649")
    expect(page.locator("#hands tbody tr")).to_have_count(3)
    slate = page.locator("#slate svg")
    expect(slate.locator("text.total")).to_have_text(["416", "649"])
    konter = slate.locator("g.strich.kontermatsch")
    expect(konter.nth(1)).to_have_attribute("data-count", "3")  # as the table set it

    # bad input: the message is shown, nothing is written
    write_hand(page, contract="D", points="200", points_team="0")
    expect(page.locator("#error")).to_contain_text("157")
    expect(page.locator("#hands tbody tr")).to_have_count(3)
    page.fill("#points", "")

    # correct hand 1: Nous made 120, not 98 → (120 + 50 + 20) × 2 = 380, Eux 74
    page.locator("#hands tbody tr").first.locator("button.edit").click()
    expect(page.locator("#form-title")).to_have_text("Spiel 1 korrigieren")
    expect(page.locator("#points")).to_have_value("98")
    page.fill("#points", "120")
    page.click("#submit")
    expect(page.locator("#total0")).to_have_text("460")
    expect(page.locator("#total1")).to_have_text("605")
    expect(slate.locator("text.total")).to_have_text(["460", "605"])
    # the slate is redrawn, hand by hand: 380 (3 × 100, 50, 20, "10") and 80 (50, 20, "10"):
    # the digits 10 + 10 become one more twenty
    for kind, count in (("hundreds", "3"), ("fifties", "2"), ("twenties", "3")):
        expect(slate.locator(f"g.line.{kind}").first).to_have_attribute("data-count", count)
    expect(slate.locator("text.rest").first).to_have_text("0")
    expect(page.locator("#hands tbody tr")).to_have_count(3)

    # two more hands, so the slate shows a crossed five: ♦ 120 + a weis of 100; Obenabe ×3
    write_hand(page, contract="D", chooser="0", points="120", points_team="0", weis0="100")
    write_hand(page, contract="O", chooser="1", points="100", points_team="0")
    expect(page.locator("#total0")).to_have_text("980")
    expect(page.locator("#total1")).to_have_text("813")
    expect(slate.locator("g.line.hundreds").first).to_have_attribute("data-count", "8")
    expect(slate.locator("g.line.hundreds").first.locator("path.cross")).to_have_count(1)

    shot = artifacts() / "tafel.png"
    page.locator("#slate svg").screenshot(path=str(shot))
    docs = ROOT / "docs" / "screenshots"
    docs.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, docs / "tafel.png")
    assert shot.stat().st_size > 10_000

    # the sheet is listed and reopens as it was
    page.goto(server + "/tafel")
    page.locator("#sheet-list a", has_text="Jeudi").click()
    expect(page.locator("#total0")).to_have_text("980")
    expect(page.locator("#hands tbody tr")).to_have_count(5)
