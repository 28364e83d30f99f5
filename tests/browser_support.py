"""Shared helpers for the browser tests: Debian's Chromium through Playwright, and ways to
drive the table page the way a player does.

    with chromium() as browser:
        page = new_page(browser)
        page.goto(base_url + "/")

Screenshots go to ``artifacts()``: the directory named by ``CHIBRE_ARTIFACTS``, by default
``tests/artifacts/``.

Every page reports what the server's Content-Security-Policy blocked (``securitypolicyviolation``
events and the browser's console messages about the policy) to ``CSP_VIOLATIONS``; the autouse
fixture of ``conftest.py`` fails a test after which the list is not empty.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    WebSocket,
    sync_playwright,
)

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WATCH_CSP = """
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile || e.documentURI}:${e.lineNumber}`;
  window.__chibreCspViolation(
    `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} in ${where} ${e.sample}`,
  );
});
"""
KEEP_BANNERS = """
window.__banners = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("banner");
  if (!box) return;
  new MutationObserver(() => {
    if (box.textContent) window.__banners.push(box.textContent);
  }).observe(box, {childList: true, characterData: true, subtree: true, attributes: true});
});
"""
CSP_VIOLATIONS: list[str] = []
"""What the pages reported as blocked by the Content-Security-Policy, with each page's URL."""
OPEN_CONTEXTS: list[BrowserContext] = []
"""The contexts ``new_page`` opened; the autouse fixture of ``conftest.py`` closes them after
each test, so that no test's pages (their WebSockets, the connections their browser keeps
alive) are still open against a server the next test uses."""
CARD_CODE = re.compile(r"^[DHSC](?:[6-9]|10|[JQKA])$")
TIMEOUT_MS = 15_000


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium, closed afterwards."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def close_contexts() -> None:
    """Close every context ``new_page`` opened and not yet closed."""
    while OPEN_CONTEXTS:
        OPEN_CONTEXTS.pop().close()


def artifacts() -> Path:
    """Where screenshots are written (created if need be)."""
    default = Path(__file__).resolve().parent / "artifacts"
    path = Path(os.environ.get("CHIBRE_ARTIFACTS") or default)
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_page(
    browser: Browser,
    locale: str = "en-US",
    width: int = 1280,
    height: int = 800,
    instant: bool = True,
    mobile: bool = False,
) -> Page:
    """A page in a fresh context (its own storage). ``instant``: the table shows each state
    at once instead of holding a finished trick on the felt for a moment."""
    context = browser.new_context(
        locale=locale,
        viewport={"width": width, "height": height},
        is_mobile=mobile,
        has_touch=mobile,
        device_scale_factor=2 if mobile else 1,
        reduced_motion="reduce" if instant else "no-preference",
    )
    OPEN_CONTEXTS.append(context)
    context.set_default_timeout(TIMEOUT_MS)
    watch_csp(context)
    context.add_init_script(KEEP_BANNERS)
    if instant:
        context.add_init_script("localStorage.setItem('chibre.pace', '0')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def watch_csp(context: BrowserContext) -> None:
    """Report to ``CSP_VIOLATIONS`` whatever the policy blocks on the pages of ``context``."""

    def reported(source: dict[str, Any], text: str) -> None:
        CSP_VIOLATIONS.append(f"{source['page'].url}: {text}")

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            CSP_VIOLATIONS.append(f"{message.page.url if message.page else '?'}: {message.text}")

    context.expose_binding("__chibreCspViolation", reported)
    context.add_init_script(WATCH_CSP)
    context.on("console", console)


def take_csp_violations() -> list[str]:
    """The violations reported so far, and the list emptied."""
    found = list(CSP_VIOLATIONS)
    CSP_VIOLATIONS.clear()
    return found


def record_frames(page: Page) -> list[dict[str, Any]]:
    """Every WebSocket frame the page receives from now on, decoded."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            frames.append(json.loads(text))

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return frames


def record_sent(page: Page) -> list[dict[str, Any]]:
    """Every WebSocket message the page sends from now on, decoded."""
    sent: list[dict[str, Any]] = []

    def on_socket(ws: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            sent.append(json.loads(payload.decode() if isinstance(payload, bytes) else payload))

        ws.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return sent


def card_codes(value: Any, skip: frozenset[str] = frozenset({"rules"})) -> set[str]:
    """Every string in a JSON value that is a card code, except under the keys ``skip``."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_CODE.match(value):
            found.add(value)
    elif isinstance(value, list):
        for item in value:
            found |= card_codes(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found |= card_codes(item, skip)
    return found


def public_cards(frame: dict[str, Any]) -> set[str]:
    """The cards a state frame may show anyone: played cards and weis shown to the table."""
    view = frame.get("view", {})
    allowed = set(view.get("trick", []))
    for trick in view.get("tricks", []):
        allowed |= set(trick["cards"])
    for weis in view.get("shown_weis", []):
        allowed |= set(weis["cards"])
    for event in frame.get("events", []):
        if event.get("type") == "CardPlayed":
            allowed.add(event["card"])
        for weis in event.get("shown", []):
            allowed |= set(weis["cards"])
    return allowed


def table(page: Page) -> dict[str, str]:
    """The table's state as the page exposes it on ``#table`` (data-* attributes)."""
    data: dict[str, str] = page.eval_on_selector("#table", "e => ({...e.dataset})")
    return data


def wait_banner(page: Page, text: str, timeout: float = TIMEOUT_MS) -> None:
    """Wait until the table's banner has said ``text`` (a part of what it said): every text
    it showed is kept, though it hides itself after a few seconds and the next notice
    replaces it."""
    page.wait_for_function(
        "said => window.__banners.some((b) => b.includes(said))",
        arg=text,
        polling=100,
        timeout=timeout,
    )


def wait_my_turn_or(page: Page, condition: str) -> None:
    """Wait until it is this page's turn to act, or the JS ``condition`` on ``t`` (the
    #table element) holds."""
    page.wait_for_function(
        f"""() => {{
            const t = document.getElementById('table');
            return t.dataset.myTurn === 'true' || ({condition});
        }}""",
        polling=100,
    )


def take_turn(page: Page, keyboard: bool = False) -> str | None:
    """Do what the turn asks: name the first contract offered, or play the first legal card.
    Returns the card played (its code), or None for a contract. Waits until the page has
    taken the answer in."""
    contracts = page.locator("#controls .btn-contract")
    if contracts.count():
        if keyboard:
            page.keyboard.press("1")
        else:
            contracts.first.click()
        page.locator("#controls .btn-contract").first.wait_for(state="detached")
        return None
    card = page.locator("#hand .card.legal").first
    card.wait_for()
    code = card.get_attribute("data-card")
    assert code is not None
    before = hand_mark(page)
    if keyboard:
        index = card.get_attribute("data-index")
        page.keyboard.press(str(index))
    else:
        card.click()
    wait_played(page, before, code)
    return code


def hand_mark(page: Page) -> list[Any]:
    """What changes when this page's player plays a card: the hand's size and number."""
    mark: list[Any] = page.evaluate(
        """() => [document.querySelectorAll('#hand .card').length,
                 document.getElementById('table').dataset.handNumber]"""
    )
    return mark


def wait_played(page: Page, before: list[Any], code: str) -> None:
    """Wait until the card left the hand (the same card may come back in the next deal)."""
    try:
        page.wait_for_function(
            """([n, h]) => document.querySelectorAll('#hand .card').length !== n
                || document.getElementById('table').dataset.handNumber !== h""",
            arg=before,
            polling=100,
        )
    except Exception as e:
        banner = page.locator("#banner").text_content()
        raise AssertionError(f"{code} was not played; banner {banner!r}, {table(page)}") from e
