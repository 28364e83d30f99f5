"""Entering hands on the calculator's page the way a scorer does: by tapping (or clicking,
on a page without touch) the contract, the team that named it, the points pad, the match
switch and the weis and stöck chips."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

WEIS_CHIPS = {"20", "50", "100", "150", "200"}


def press(target: Locator) -> None:
    """A tap where the page has touch, a click elsewhere."""
    if target.page.evaluate("navigator.maxTouchPoints > 0"):
        target.tap()
    else:
        target.click()


def enter_hand(
    page: Page,
    contract: str | None = None,
    *,
    chooser: int | None = None,
    team: int | None = None,
    points: int | None = None,
    match: bool = False,
    weis0: str = "",
    weis1: str = "",
    stoeck: int | None = None,
    double: bool = False,
    submit: bool = True,
) -> None:
    """Enter one hand: ``points`` are team ``team``'s trick points, typed on the pad; a weis
    of chip values ("100, 20") is tapped on its chips, any other (cards) is written."""
    if contract is not None:
        press(page.locator(f"#contracts [data-contract={contract}]"))
    if double:
        press(page.locator("#double"))
    if chooser is not None:
        press(page.locator(f"#chooser [data-team='{chooser}']"))
    if team is not None:
        press(page.locator(f".point-team[data-team='{team}']"))
    if match:
        press(page.locator("#match"))
    elif points is not None:
        press(page.locator("#pad [data-key=C]"))
        for digit in str(points):
            press(page.locator(f"#pad [data-key='{digit}']"))
    for i, weis in enumerate((weis0, weis1)):
        items = [w.strip() for w in weis.split(",") if w.strip()]
        if items and all(w in WEIS_CHIPS for w in items):
            for w in items:
                press(page.locator(f".weis-team[data-team='{i}'] [data-weis='{w}']"))
        elif items:
            page.fill(f"#weis{i}", weis)
    if stoeck is not None:
        press(page.locator(f"#stoeck [data-team='{stoeck}']"))
    if submit:
        press(page.locator("#submit"))
        expect(page.locator("#submit")).to_be_enabled()  # the answer has come back


def hand_rows(page: Page) -> Locator:
    return page.locator("#hands li.hand-row")
