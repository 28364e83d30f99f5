"""Fixtures shared by the browser tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from browser_support import chromium, close_contexts, take_csp_violations


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium (Debian's), one per test module."""
    with chromium() as b:
        yield b


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """After every test: no page reported anything blocked by the Content-Security-Policy."""
    yield
    found = take_csp_violations()
    assert found == [], "the Content-Security-Policy blocked:\n" + "\n".join(found)


@pytest.fixture(autouse=True)
def pages_closed() -> Iterator[None]:
    """After every test: the pages it opened are closed."""
    yield
    close_contexts()
