"""QR codes of this server's links (``GET /qr.svg``), drawn with segno, read back module by
module; and the calculator's sheet link shown as one."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest
import segno
from playwright.sync_api import Browser, expect

from browser_support import new_page
from chibre.server.qr import MAX_TEXT, NotOurLink, our_link
from server_support import http_json, running_server
from tafel_support import press

ORIGIN = "http://127.0.0.1:8000"


@pytest.mark.parametrize(
    ("text", "link"),
    [
        ("/tafel#abc.def", ORIGIN + "/tafel#abc.def"),
        ("/t/x?seat=1", ORIGIN + "/t/x?seat=1"),
        (ORIGIN + "/tafel#a.b", ORIGIN + "/tafel#a.b"),
    ],
)
def test_our_links_are_drawn_in_full(text: str, link: str) -> None:
    assert our_link(text, ORIGIN) == link


@pytest.mark.parametrize(
    "text",
    [
        "http://evil.example/tafel",
        "//evil.example/tafel",
        "https://127.0.0.1:8000/tafel",  # another scheme is another origin
        "http://127.0.0.1:8001/tafel",
        "javascript:alert(1)",
        "tafel#a.b",
        "/tafel x",
        "/tafel\n",
    ],
)
def test_other_text_is_not_drawn(text: str) -> None:
    with pytest.raises(NotOurLink):
        our_link(text, ORIGIN)


def modules(svg: str) -> list[list[bool]]:
    """The dark modules of segno's SVG path ("M4 4.5h7m3 0h2…"), row by row."""
    viewbox = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert viewbox is not None
    size = int(viewbox.group(1))
    grid = [[False] * size for _ in range(size)]
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg)
    assert path is not None
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path.group(1)):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            for col in range(int(x), int(x + float(a))):
                grid[int(y)][col] = True
            x += float(a)
    return grid


def expected(link: str) -> list[list[bool]]:
    code = segno.make(link, error="m", micro=False)
    quiet = [[False] * (len(code.matrix) + 8) for _ in range(4)]
    rows = [[False] * 4 + [bool(m) for m in row] + [False] * 4 for row in code.matrix]
    return quiet + rows + quiet


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("qr")) as base:
        yield base


def get_svg(server: str, text: str) -> tuple[int, str, str]:
    url = f"{server}/qr.svg?text={urllib.parse.quote(text, safe='')}"
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers["Content-Type"], r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers["Content-Type"], e.read().decode()


def test_the_route_draws_the_full_link(server: str) -> None:
    status, kind, svg = get_svg(server, "/tafel#abc.def")
    assert status == 200 and kind == "image/svg+xml"
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert modules(svg) == expected(server + "/tafel#abc.def")
    status, _, svg = get_svg(server, server + "/t/x?seat=tok")
    assert status == 200 and modules(svg) == expected(server + "/t/x?seat=tok")


@pytest.mark.parametrize(
    "text", ["", "http://evil.example/", "/" + "x" * MAX_TEXT, "/tafel x"], ids=repr
)
def test_the_route_refuses_other_text(server: str, text: str) -> None:
    status, body = http_json(server, "/qr.svg?text=" + urllib.parse.quote(text, safe=""))
    assert status == 400 and body["field"] == "text", body
    assert http_json(server, "/qr.svg")[0] == 400


def test_the_sheet_link_as_a_qr_code_on_the_page(browser: Browser, server: str) -> None:
    status, view = http_json(server, "/api/sheets", {"name": "QR"})
    assert status == 201
    page = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
    page.goto(f"{server}/tafel#{view['id']}.{view['key']}")
    expect(page.locator("#sheet-name")).to_have_text("QR")
    press(page.locator("#show-qr"))
    image = page.locator("#qr-img")
    expect(image).to_be_visible()
    page.wait_for_function("() => document.querySelector('#qr-img').naturalWidth > 0", polling=100)
    src = image.get_attribute("src") or ""
    text = urllib.parse.parse_qs(urllib.parse.urlsplit(src).query)["text"][0]
    assert text == f"{server}/tafel#{view['id']}.{view['key']}"
    status, _, svg = get_svg(server, text)
    assert modules(svg) == expected(text)
    press(page.locator("#show-qr"))
    expect(image).to_be_hidden()
    page.context.close()
    assert page.errors == []  # type: ignore[attr-defined]
