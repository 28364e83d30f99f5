"""The table as players coming from the Swiss Jass apps expect it, in a real browser against a
real server: why a card cannot be played, the hand's summary until "continue", Bedanken with
a confirmation and an end dialog that says why, names, the rematch, a dropped friend."""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import websockets
from playwright.sync_api import Browser, Page, expect

from browser_support import (
    artifacts,
    new_page,
    record_frames,
    record_sent,
    table,
    take_turn,
    wait_banner,
    wait_my_turn_or,
)
from chibre.actions import Action, Choose, Deal, Play
from chibre.cards import parse_card, parse_cards
from chibre.game import Game
from chibre.rules import Rules
from deals import further_weis_game, late_stoeck_game
from server_support import create_table, http_json, running_server, ws_url

REASON_WORDS = {
    "fr": ("demandé", "sous-couper"),
    "de": ("angespielt", "untertrumpfen"),
    "en": ("was led", "undertrump"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("table")) as base_url:
        yield base_url


def locale(lang: str) -> str:
    return {"fr": "fr-CH", "de": "de-CH", "en": "en-GB"}[lang]


def until_a_card_is_refused(page: Page) -> str:
    """Play on until this seat holds a card it may not play; returns that card."""
    for _ in range(60):
        wait_my_turn_or(page, "t.dataset.status === 'finished'")
        dimmed = page.locator("#hand .card.dimmed")
        if dimmed.count():
            code = dimmed.first.get_attribute("data-card")
            assert code is not None
            return code
        take_turn(page)
    raise AssertionError("no card was ever refused")


@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_a_refused_card_says_why_in_each_language(browser: Browser, server: str, lang: str) -> None:
    made = create_table(server)
    page = new_page(browser, locale=locale(lang))
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    code = until_a_card_is_refused(page)
    cards = page.locator("#hand .card").count()
    page.locator(f'#hand .card[data-card="{code}"]').click()
    refusal = page.locator("#refusal")
    refusal.wait_for()
    said = refusal.inner_text()
    assert any(word in said for word in REASON_WORDS[lang]), said
    assert re.search("[♦♥♠♣]", said), said  # the French deck's signs
    assert page.locator("#hand .card").count() == cards  # nothing was played
    assert table(page)["myTurn"] == "true"
    # with the keyboard too: the card's number
    refusal.evaluate("e => { e.hidden = true; }")
    index = page.locator(f'#hand .card[data-card="{code}"]').get_attribute("data-index")
    page.locator("body").focus()
    page.keyboard.press(str(index))
    refusal.wait_for()
    assert any(word in refusal.inner_text() for word in REASON_WORDS[lang])
    assert not page.errors  # type: ignore[attr-defined]


def test_a_refused_card_is_said_in_the_swiss_deck_s_words(browser: Browser, server: str) -> None:
    """With the Swiss deck the reason names its suits and cards (Rosen, Under), not ♥ and J."""
    made = create_table(server)
    page = new_page(browser, locale="de-CH")
    page.add_init_script("localStorage.setItem('chibre.deck', 'swiss')")
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    code = until_a_card_is_refused(page)
    page.locator(f'#hand .card[data-card="{code}"]').click()
    refusal = page.locator("#refusal")
    refusal.wait_for()
    said = refusal.inner_text()
    assert any(word in said for word in REASON_WORDS["de"]), said  # a suit led, or undertrump
    assert not re.search("[♦♥♠♣]", said), said
    assert re.search(
        r"(Schellen|Rosen|Schilten|Eicheln) (Sechs|Sieben|Acht|Neun|Banner|Under|"
        r"Ober|König|Ass)",
        said,
    ), said
    assert not page.errors  # type: ignore[attr-defined]


def with_settings(page: Page, **chosen: object) -> None:
    """Keep these settings in the page's browser before it opens the table."""
    page.context.add_init_script(
        f"localStorage.setItem('chibre.settings', {json.dumps(json.dumps(chosen))})"
    )


def play_until(page: Page, condition: str, turns: int = 80) -> None:
    """Take this seat's turns until the JS ``condition`` on ``t`` (#table) holds."""
    for _ in range(turns):
        wait_my_turn_or(page, condition)
        if page.evaluate(
            f"() => {{ const t = document.getElementById('table'); return {condition}; }}"
        ):
            return
        take_turn(page)
    raise AssertionError(f"never: {condition}")


def test_the_hand_summary_stays_until_continue(browser: Browser, server: str) -> None:
    made = create_table(server)
    page = new_page(browser)
    with_settings(page, summary="click")
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    play_until(page, "Number(t.dataset.history) >= 1")
    summary = page.locator("#center .breakdown[data-hand='0']")
    summary.wait_for()
    assert page.locator("#continue").inner_text() == "Continue"
    rows = summary.locator(".total-row td").all_inner_texts()
    time.sleep(3)  # the computers play on; the page waits for the player
    assert summary.is_visible()
    assert table(page)["handNumber"] == "0"
    expect(page.locator("#continue")).to_be_focused()  # the keyboard goes on with Enter
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.getElementById('table').dataset.handNumber === '1'", polling=100
    )
    assert summary.count() == 0
    assert page.locator("#last-hand .total-row td").all_inner_texts() == rows
    assert not page.errors  # type: ignore[attr-defined]


def test_with_a_time_per_move_the_summary_gives_way_to_the_player_s_turn(
    browser: Browser, server: str
) -> None:
    """Held until "Continue", the hand's summary still lets the next hand through when the
    player's clock starts: the move is theirs, and the countdown is on their plate."""
    status, made = http_json(
        server, "/api/tables", {"seats": ["human", "rule", "rule", "rule"], "move_limit": 120}
    )
    assert status == 200, made
    page = new_page(browser)
    with_settings(page, summary="click")
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    play_until(page, "Number(t.dataset.history) >= 1")
    # nobody presses "Continue": the next hand comes to this player's move by itself
    wait_my_turn_or(page, "false")
    assert table(page)["handNumber"] == "1"
    expect(page.locator("#seat-bottom .chip-countdown")).to_be_visible()
    assert page.locator("#last-hand .breakdown").count() == 1
    assert not page.errors  # type: ignore[attr-defined]


def test_the_summary_goes_on_by_itself_after_the_delay_chosen(
    browser: Browser, server: str
) -> None:
    made = create_table(server)
    page = new_page(browser)
    with_settings(page, summary="1")
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    play_until(page, "Number(t.dataset.history) >= 1")
    started = time.monotonic()
    page.wait_for_function(
        "() => document.getElementById('table').dataset.handNumber === '1'", polling=100
    )
    assert time.monotonic() - started < 8
    assert not page.errors  # type: ignore[attr-defined]


def test_the_seats_plates_hold_their_names_on_a_phone(browser: Browser, server: str) -> None:
    """On a phone, large cards or not, each seat's name is whole and its level's chip stays on
    its plate (German: the longest words)."""
    made = create_table(server)
    for large in (False, True):
        page = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
        with_settings(page, large=large)
        page.goto(server + made["seats"][0]["link"])
        expect(page.locator(".plate .chip-bot")).to_have_count(3)
        cut, out = page.evaluate(
            """() => {
                const plates = [...document.querySelectorAll('.seat .plate')];
                const cut = plates.map((p) => p.querySelector('.name'))
                    .filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent);
                const out = plates.flatMap((p) => {
                    const box = p.getBoundingClientRect();
                    return [...p.querySelectorAll('.chip')].filter((c) => {
                        const r = c.getBoundingClientRect();
                        return r.left < box.left - 0.5 || r.right > box.right + 0.5;
                    }).map((c) => c.textContent);
                });
                return [cut, out];
            }"""
        )
        page.screenshot(path=artifacts() / f"plates-phone{'-large' if large else ''}.png")
        assert cut == [] and out == [], (large, cut, out)
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


SIDE_CHIPS = """() => [...document.querySelectorAll('.seat .chip')].flatMap((c) => {
    const r = c.getBoundingClientRect();
    const p = c.closest('.plate').getBoundingClientRect();
    const inside = r.left >= 0 && r.right <= innerWidth && r.left >= p.left - 0.5
        && r.right <= p.right + 0.5 && c.scrollWidth <= c.clientWidth;
    return inside ? [] : [`${c.closest('.seat').id}: ${c.textContent}`];
})"""


def test_the_side_seats_badges_stay_whole_on_a_phone(browser: Browser, server: str) -> None:
    """On a phone the side seats' badges (a friend's countdown, a computer's level) stay on the
    screen and on their plate, wrapped rather than cut, in every language."""
    status, made = http_json(
        server,
        "/api/tables",
        {"seats": ["human", "rule", "rule", "human"], "names": [None, None, None, "Ursula"],
         "move_limit": 120},
    )  # fmt: skip
    assert status == 200, made
    friend = new_page(browser)  # at the table, on the left: counted down on their move
    friend.goto(server + made["seats"][3]["link"])
    page = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    countdown = page.locator("#seat-left .chip-countdown")
    play_until(page, "document.querySelector('#seat-left .chip-countdown')")
    expect(countdown).to_contain_text("ordinateur dans")
    expect(page.locator("#seat-right .chip-bot")).to_have_text("à règles fixes")
    for lang in ("fr", "de", "en"):
        page.click("#settings-btn")
        page.select_option("#set-lang", lang)
        page.keyboard.press("Escape")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(countdown).to_have_count(1)
        page.screenshot(path=artifacts() / f"side-badges-phone-{lang}.png")
        assert page.evaluate(SIDE_CHIPS) == [], lang
    assert not page.errors  # type: ignore[attr-defined]


MID_WORD = """() => [...document.querySelectorAll('.seat .name, .seat .chip')].flatMap((e) => {
    const node = e.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) return [];
    const text = node.data, range = document.createRange(), tops = [];
    for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        tops.push(range.getBoundingClientRect().top);
    }
    const cuts = [];
    for (let i = 1; i < text.length; i++) {
        const between = /[\\s-]/.test(text[i - 1]) || /\\s/.test(text[i]);
        const broken = tops[i] > tops[i - 1] + 1;
        if (broken && !between) cuts.push(`${text.slice(0, i)}/${text.slice(i)}`);
    }
    const untitled = e.matches('.name, .chip-bot') && e.title !== text;
    return untitled ? [...cuts, `no title: ${text}`] : cuts;
})"""


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_phone_breaks_the_seats_names_between_words(
    browser: Browser, server: str, lang: str
) -> None:
    """On a phone a name or a computer's level too long for a side seat's plate wraps between
    its words only; a word too long for the plate is cut, and its title says it whole (a
    player's long names; a spectator's computers, known by their level)."""
    made = create_table(server, names=[None, "Bartholomäus", None, "Jean-Christophe Rochat"])
    watched = create_table(server, seats=["rule", "rule", "expert", "beginner"])
    for who, link in (("player", made["seats"][0]["link"]), ("spectator", watched["watch"])):
        for large in (False, True):
            page = new_page(browser, locale=locale(lang), width=390, height=844, mobile=True)
            with_settings(page, large=large)
            page.goto(server + link)
            page.locator("#seat-right .name").wait_for()
            size = "large" if large else "normal"
            page.screenshot(path=artifacts() / f"names-phone-{lang}-{who}-{size}.png")
            assert page.evaluate(MID_WORD) == [], (who, size)
            assert not page.errors  # type: ignore[attr-defined]
            page.context.close()


FRENCH_CONTRACTS = [
    "Atout carreau",
    "Atout cœur",
    "Atout pique",
    "Atout trèfle",
    "Obenabe",
    "Undenufe",
]
COVERED = """() => {
    const over = (a, b) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const tally = [...document.querySelectorAll('.tally')].map((e) => e.getBoundingClientRect());
    return [...document.querySelectorAll('.seat .plate, .backs, #hand .card, #trick .slot')]
        .filter((e) => tally.some((r) => over(r, e.getBoundingClientRect())))
        .map((e) => e.className);
}"""


def test_a_phone_keeps_the_contract_and_the_totals_in_view(browser: Browser, server: str) -> None:
    """On a phone the side panel lies below the felt: the contract with its multiplier and both
    teams' totals stay on the screen, in the felt's corners, clear of the plates and cards."""
    made = create_table(server, options={"multipliers": "current"})
    page = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    page.add_init_script("localStorage.setItem('chibre.deck', 'french')")
    frames = record_frames(page)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    # this player's move in the play of the second hand: the table waits for it, nothing changes
    play_until(
        page, "t.dataset.myTurn === 'true' && t.dataset.phase === 'play' && t.dataset.history >= 1"
    )
    view = [f for f in frames if f["type"] == "state"][-1]["view"]
    contract, score = page.locator("#tally-contract"), page.locator("#tally-score")
    said = [*FRENCH_CONTRACTS[view["contract"]].split(), f"×{view['factor']}"]
    arrows = ("▼", "▲")  # Obenabe's and Undenufe's icon, where a suit has a card's image
    assert [w for w in contract.inner_text().split() if w not in arrows] == said
    assert [score.locator(f"[data-team='{t}']").inner_text().split() for t in (0, 1)] == [
        ["Nous", str(view["totals"][0])],
        ["Eux", str(view["totals"][1])],
    ]
    assert page.evaluate("scrollY") == 0
    for box in (contract.bounding_box(), score.bounding_box()):
        assert box is not None and box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844, box
    assert page.evaluate(COVERED) == []
    page.screenshot(path=artifacts() / "tally-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})  # beside the side panel: not twice
    expect(contract).to_be_hidden()
    expect(score).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]


def test_a_spectator_s_phone_names_both_teams_whole_beside_their_totals(
    browser: Browser, server: str
) -> None:
    """A spectator's teams are named by their players ("Place 1 & jasseur à règles fixes (3)"): on a
    phone the totals on the felt say those names whole, none cut short, and cover no plate and
    no card."""
    made = create_table(server, seats=["human", "random", "rule", "rule"])
    player = new_page(browser)
    player.goto(server + made["seats"][0]["link"])
    player.locator("#hand .card").first.wait_for()
    play_until(
        player,
        "t.dataset.myTurn === 'true' && t.dataset.phase === 'play' && t.dataset.history >= 1",
    )
    page = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    page.goto(server + made["watch"])
    page.locator("#table[data-spectator='true']").wait_for()
    expect(page.locator("#tally-contract")).to_be_visible()
    teams = page.locator("#tally-score .team")
    expect(teams).to_have_text(
        ["Place 1 & jasseur à règles fixes (3)", "jasseur au hasard & jasseur à règles fixes (4)"]
    )
    cut = "e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight"
    assert [team.evaluate(cut) for team in teams.all()] == [False, False]
    for box in (page.locator(f"#tally-{t}").bounding_box() for t in ("contract", "score")):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate(COVERED) == []
    page.screenshot(path=artifacts() / "tally-spectator-phone.png")
    assert not page.errors and not player.errors  # type: ignore[attr-defined]


def test_a_spectator_knows_an_unnamed_computer_by_its_level(browser: Browser, server: str) -> None:
    """As the lobby's placeholder says: a computer seat without a name is its level (numbered
    when two share it) for a spectator; a player still sees where it sits."""
    made = create_table(
        server, seats=["human", "random", "rule", "rule"], names=["Anna", None, None, None]
    )
    watcher = new_page(browser)
    watcher.goto(server + made["watch"])
    watcher.locator("#table[data-spectator='true']").wait_for()
    names = [watcher.locator(f"#seat-{p} .name") for p in ("bottom", "right", "top", "left")]
    for name, said in zip(
        names,
        ["Anna", "random player", "rule-based player (3)", "rule-based player (4)"],
        strict=True,
    ):
        expect(name).to_have_text(said)
    expect(watcher.locator("#score .team")).to_have_text(
        ["Anna & rule-based player (3)", "random player & rule-based player (4)"]
    )
    assert watcher.locator(".chip-bot").count() == 0  # the level is said once
    player = new_page(browser)
    player.goto(server + made["seats"][0]["link"])
    player.locator("#hand .card").first.wait_for()
    expect(player.locator(".seat .name")).to_have_text(["Partner", "Left", "Right", "Anna (You)"])
    expect(player.locator(".seat .chip-bot")).to_have_text(["rule-based", "rule-based", "random"])
    assert not watcher.errors and not player.errors  # type: ignore[attr-defined]


def test_the_phone_s_top_bar_is_one_row_and_the_settings_hold_deck_and_language(
    browser: Browser, server: str
) -> None:
    """A phone's top bar keeps the felt and the hand in view: the deck and the language are
    chosen in the settings, and take effect there at once. It keeps one row on a tablet and
    at a friends' table (with its reactions) too, in German, whose words are the longest."""
    friends = create_table(server, seats=["human", "rule", "human", "rule"])
    for width in (390, 560, 768):
        tablet = new_page(browser, locale="de-CH", width=width, height=844, mobile=True)
        tablet.goto(server + friends["seats"][0]["link"])
        tablet.locator("#react-btn").wait_for()
        assert tablet.locator(".topbar").bounding_box()["height"] < 70, width  # type: ignore[index]
        expect(tablet.locator(".brand")).to_have_accessible_name("Schieber")
        tablet.context.close()
    made = create_table(server)
    page = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    assert page.locator(".topbar").bounding_box()["height"] < 70  # type: ignore[index]
    hand = page.locator("#hand").bounding_box()
    assert hand is not None and hand["y"] + hand["height"] <= 844  # the hand without scrolling
    page.click("#settings-btn")
    page.select_option("#set-deck", "swiss")
    expect(page.locator("#hand .card img").first).to_have_attribute("src", re.compile("/swiss/"))
    page.select_option("#set-lang", "fr")
    expect(page.locator("#settings-title")).to_have_text("Réglages")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator("#set-deck option").all_text_contents()[1] == "Suisses"
    assert page.evaluate("localStorage.getItem('chibre.deck')") == "swiss"
    assert not page.errors  # type: ignore[attr-defined]


def test_a_wrong_link_says_so_on_the_felt_and_keeps_nothing(browser: Browser, server: str) -> None:
    made = create_table(server, ["human", "rule", "human", "rule"])
    page = new_page(browser, locale="fr-CH")
    bad = made["seats"][0]["link"].replace("seat=", "seat=x")
    for link in ("/t/ZZZZZZZZ?seat=abc", bad, f"/t/{made['table']}"):
        page.goto(server + link)
        note = page.locator("#center-note")
        expect(note).to_contain_text("Cette table n’existe pas ou le lien n’est pas valable.")
        expect(note.locator("a[href='/']")).to_have_text("Votre propre table")
        expect(page.locator("#side")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('chibre.tables')") is None
    page.screenshot(path=artifacts() / "table-wrong-link.png")
    # a friend's invitation opened in the host's browser (to try it) leaves the host's seat
    host, friend = (made["seats"][s]["link"] for s in (0, 2))
    for link in (host, friend):
        page.goto(server + link)
        page.locator("#table[data-connected='true']").wait_for()
    held = json.loads(page.evaluate("localStorage.getItem('chibre.tables')"))
    assert [x["link"] for x in held] == [host]
    page.context.close()


async def play_a_hand(url: str) -> None:
    """A seat's client that plays its first legal action until a hand is scored."""
    async with websockets.connect(url) as ws:
        acted = -1
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view.get("last_hand"):
                return
            if view["legal"] and frame["seq"] > acted:
                acted = frame["seq"]
                await ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))


def test_seat_1_sees_its_own_team_first_in_every_table(browser: Browser, server: str) -> None:
    made = create_table(server, ["rule", "human", "rule", "rule"])
    link = made["seats"][1]["link"]
    with ThreadPoolExecutor(1) as thread:  # the browser's driver holds this thread's loop
        thread.submit(asyncio.run, play_a_hand(ws_url(server, link))).result()
    page = new_page(browser)
    page.goto(server + link)
    heads = page.locator("#last-hand .breakdown thead th")
    expect(heads).to_have_count(2)  # the empty corner is no header
    assert heads.all_inner_texts() == ["Us", "Them"]
    totals = page.locator("#last-hand .breakdown .total-row td").all_inner_texts()
    assert totals == [page.locator(f"#score [data-team='{t}'] .total").inner_text() for t in (1, 0)]
    assert not page.errors  # type: ignore[attr-defined]


def test_a_seat_open_twice_is_told_to_its_player(browser: Browser, server: str) -> None:
    made = create_table(server, ["human", "rule", "human", "rule"])
    link = server + made["seats"][0]["link"]
    first, second = new_page(browser), new_page(browser)
    first.goto(link)
    first.locator("#hand .card").first.wait_for()
    second.goto(link)
    said = "Your seat is open in another window or on another device too"
    for page in (first, second):
        wait_banner(page, said)
    assert not first.errors and not second.errors  # type: ignore[attr-defined]


SMALL_CONTROLS = """() => [...document.querySelectorAll('button, a.btn, select, summary')]
  .filter((e) => e.offsetParent !== null && !e.closest('#hand, .react-menu'))
  .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => `${name}: ${Math.round(r.width)}×${Math.round(r.height)}`)"""


def test_every_control_of_the_phone_table_is_a_finger_wide(browser: Browser, server: str) -> None:
    made = create_table(server, names=["Ueli", None, None, None])
    page = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    small = page.evaluate(SMALL_CONTROLS)
    assert small == [], "\n".join(small)
    assert not page.errors  # type: ignore[attr-defined]


def test_a_spectator_s_summary_goes_on_by_itself(browser: Browser, server: str) -> None:
    """The players do not wait for a spectator: the summary it is shown goes on by itself
    even when it keeps summaries until "continue", so it does not fall behind the game."""
    made = create_table(server, seats=["rule"] * 4)
    page = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
    with_settings(page, summary="click")
    page.goto(server + made["watch"])
    page.locator("#table[data-spectator='true']").wait_for()
    page.locator("#center .breakdown[data-hand='0']").wait_for(timeout=60_000)
    expect(page.locator("#continue")).to_be_visible()
    # on a phone the summary (teams named "Platz 1 & Platz 3") lies whole on the felt, on top
    placed = page.evaluate(
        """() => {
            const box = document.querySelector('#center .breakdown').getBoundingClientRect();
            const felt = document.querySelector('.felt').getBoundingClientRect();
            const go = document.getElementById('continue').getBoundingClientRect();
            const top = document.elementFromPoint(go.left + go.width / 2, go.top + go.height / 2);
            return {
                inside: box.left >= 0 && box.right <= innerWidth && box.top >= felt.top,
                onTop: top !== null && top.id === 'continue',
            };
        }"""
    )
    page.screenshot(path=artifacts() / "spectator-summary-phone.png")
    assert placed == {"inside": True, "onTop": True}, placed
    page.wait_for_function(
        "() => document.getElementById('table').dataset.handNumber === '1'",
        timeout=30_000,
        polling=100,
    )
    assert not page.errors  # type: ignore[attr-defined]


def test_thanks_is_confirmed_and_the_end_says_why(browser: Browser, server: str) -> None:
    made = create_table(server, options={"claim": "thank"})
    page = new_page(browser, locale="de-CH")
    sent = record_sent(page)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    page.click("#controls [data-kind='thank']")
    page.locator("#thank-dialog[open]").wait_for()
    assert "0 von 1000" in page.locator("#thank-text").inner_text()
    assert page.locator("#thank-warning").is_visible()  # 0 is not enough
    expect(page.locator("#thank-no")).to_be_focused()  # Enter does not lose the game
    page.click("#thank-no")  # changed one's mind: nothing is sent
    expect(page.locator("#thank-dialog[open]")).to_have_count(0)
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    page.locator("#over-dialog[open]").wait_for()
    # every frame sent before the server's answer is recorded by now: the thanks went once
    acts = [m["action"] for m in sent if m.get("type") == "act"]
    assert acts == [{"kind": "thank"}], acts
    assert "Die Gegner gewinnen" in page.locator("#over-text").inner_text()
    reason = page.locator("#over-reason").inner_text()
    assert "Bedankt: Du, mit nur 0 von 1000" in reason and "zu früh" in reason, reason
    # the Striche by kind: the opponents' win (Sieg) and their Schneider
    rows = {
        r.get_attribute("data-kind"): r.locator("td").all_inner_texts()
        for r in page.locator("#over-striche tr[data-kind]").all()
    }
    assert rows["sieg"][1] != "0" and rows["sieg"][0] == "0", rows
    total = page.locator("#over-striche .total-row td").all_inner_texts()
    assert int(total[1]) == sum(int(v[1]) for v in rows.values())
    assert page.locator("#over-hand .breakdown").count() == 1  # the deciding hand
    assert page.locator("#last-hand-box[data-deciding='true']").count() == 1
    assert not page.errors  # type: ignore[attr-defined]


def test_a_game_decided_mid_hand_shows_that_hand_and_its_trick(
    browser: Browser, server: str
) -> None:
    made = create_table(server, options={"target": 100, "end_mode": "immediate"})
    page = new_page(browser)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    play_until(page, "t.dataset.status === 'finished'")
    page.locator("#over-dialog[open]").wait_for()
    reason = page.locator("#over-reason").inner_text()
    said = r"Target 100 reached by (your team|the opponents) — \w+, trick (\d) of hand (\d+)\."
    found = re.search(said, reason)
    assert found, reason
    hand = int(found.group(3))
    shown = page.locator("#over-text .over-score").inner_text()
    written = [int(x) for x in page.locator("#over-hand .total-row td").all_inner_texts()]
    mine = [int(x) for x in page.locator("#score .score-row .total").all_inner_texts()]
    assert shown == f"{mine[0]}\u00a0:\u00a0{mine[1]}"  # kept on one line
    assert max(mine) >= 100 and sum(written) <= sum(mine)  # the hand as far as it was written
    if hand == 1:  # nothing before it: the whole score was written in it
        assert sorted(written) == sorted(mine)
    title = page.locator("#last-hand-title").text_content()
    assert title == f"Hand {hand}, where the game was decided"
    assert page.locator("#last-hand .breakdown-head strong").count() == 0  # said once
    assert not page.errors  # type: ignore[attr-defined]


def test_bubbles_speak_beside_their_seat_and_the_tafel_enlarges(
    browser: Browser, server: str
) -> None:
    made = create_table(server)
    page = new_page(browser)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    where = """() => {
        const b = document.querySelector('#seat-left .bubble, #seat-right .bubble');
        if (!b) return null;
        const seat = b.closest('.seat');
        const plate = seat.querySelector('.plate').getBoundingClientRect();
        const r = b.getBoundingClientRect();
        return {side: seat.id, b: [r.left, r.top, r.right, r.bottom],
                p: [plate.left, plate.top, plate.right, plate.bottom]};
    }"""
    boxes = None
    for _ in range(60):
        boxes = page.evaluate(where)
        if boxes:
            break
        wait_my_turn_or(page, "document.querySelector('#seat-left .bubble, #seat-right .bubble')")
        boxes = page.evaluate(where)
        if boxes:
            break
        take_turn(page)
    assert boxes is not None, "no side seat ever spoke"
    bl, bt, br, bb = boxes["b"]
    pl, pt, pr, pb = boxes["p"]
    assert bt < pb + 80 and bb > pt - 80, boxes  # at the height of the seat, not in a corner
    if boxes["side"] == "seat-left":
        assert bl >= pl, boxes
    else:
        assert br <= pr, boxes
    play_until(page, "Number(t.dataset.history) >= 1")
    page.click("#tafel-enlarge")
    big = page.locator("#tafel-dialog[open] #tafel-big")
    big.wait_for()
    page.wait_for_function(
        "() => document.getElementById('tafel-big').naturalWidth > 0", polling=100
    )
    small = page.locator("#tafel").bounding_box()
    large = big.bounding_box()
    assert small and large and large["width"] > 1.8 * small["width"], (small, large)
    assert not page.errors  # type: ignore[attr-defined]


def test_a_finished_game_s_replay_asks_for_its_review_without_an_error(
    browser: Browser, server: str
) -> None:
    """The replay asks whether the game was reviewed: "not yet" is an answer, not a failed
    request in the console, and "Review this game" is offered."""
    made = create_table(server, options={"claim": "thank"})
    page = new_page(browser)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    page.locator("#over-dialog[open]").wait_for()
    with page.expect_response(lambda r: "/review?" in r.url) as asked:
        page.click("#over-replay")
    assert asked.value.status == 200
    assert asked.value.json() == {"status": "none"}
    expect(page.locator("#rp-review-btn")).to_be_visible()
    assert console == [] and failed == [], (console, failed)
    assert not page.errors  # type: ignore[attr-defined]


def opens_the_replay_as_a_spectator(browser: Browser, url: str) -> None:
    """A shared link, opened in a browser of its own: the replay, watched, no seat."""
    page = new_page(browser, locale="de-CH")
    page.goto(url)
    page.locator("#replay:not([hidden])").wait_for()
    expect(page.locator("#table")).to_have_attribute("data-spectator", "true")
    assert page.locator("#rp-hand option").count() >= 1
    assert not page.errors  # type: ignore[attr-defined]


COPIED = "Link copied: anyone who opens it sees the replay."


def test_the_end_dialog_shares_the_replay_as_a_spectator_s_link(
    browser: Browser, server: str
) -> None:
    """ "Share the replay" copies the spectators' link with replay=1 (never the seat's own)
    and says so; opened elsewhere, it shows the replay to a spectator."""
    made = create_table(server, options={"claim": "thank"})
    share = f"{server}/t/{made['table']}?watch={made['watch'].split('watch=')[1]}&replay=1"
    page = new_page(browser)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    expect(page.locator("#over-share")).to_be_hidden()  # nothing to share while it plays
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    page.locator("#over-dialog[open]").wait_for()
    page.click("#over-share .share-button")
    expect(page.locator("#over-share [role=status]")).to_have_text(COPIED)
    assert page.evaluate("navigator.clipboard.readText()") == share
    expect(page.locator("#over-share .share-url")).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]
    opens_the_replay_as_a_spectator(browser, share)


def test_without_a_clipboard_the_replay_s_link_is_shown_to_select(
    browser: Browser, server: str
) -> None:
    """Where the page may not write to the clipboard, "Share the replay" shows the link,
    selected — in the replay as the seat opens it, and in the lobby's list of its games."""
    made = create_table(server, options={"claim": "thank"})
    share = f"{server}/t/{made['table']}?watch={made['watch'].split('watch=')[1]}&replay=1"
    page = new_page(browser)
    page.context.add_init_script(
        "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined})"
    )
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    page.locator("#over-dialog[open]").wait_for()
    page.goto(server + made["seats"][0]["link"] + "&replay=1")
    page.locator("#replay:not([hidden])").wait_for()
    page.click("#rp-share .share-button")
    shown = page.locator("#rp-share .share-url")
    expect(shown).to_be_focused()
    expect(shown).to_have_value(share)
    selected = "e => e.value.slice(e.selectionStart, e.selectionEnd)"
    assert shown.evaluate(selected) == share
    expect(page.locator("#rp-share [role=status]")).to_have_text(
        "Copy this link to share the replay:"
    )
    page.goto(server + "/")
    game = page.locator(f"#recent li[data-table='{made['table']}']")
    game.locator(".share-button").click()
    expect(game.locator(".share-url")).to_have_value(share)
    expect(game.locator("a")).to_have_attribute("href", made["seats"][0]["link"] + "&replay=1")
    assert not page.errors  # type: ignore[attr-defined]
    opens_the_replay_as_a_spectator(browser, share)


def thanked_too_early(page: Page, server: str) -> None:
    """A new game on ``page``, thanked at once: the end dialog is open."""
    made = create_table(server, options={"claim": "thank"})
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    page.locator("#over-dialog[open]").wait_for()


SHOWN_IN_DIALOG = """e => {
    const d = e.closest('dialog').getBoundingClientRect(), b = e.getBoundingClientRect();
    return b.height > 0 && b.top >= d.top - 0.5 && b.bottom <= d.bottom + 0.5
        && b.bottom <= innerHeight + 0.5;
}"""
"""Whether the element lies whole within what its dialog shows (and on the screen), to half a
pixel (the layout's fractions)."""


def share_twice(page: Page, text: str) -> None:
    """Press "Share the replay" of the end dialog twice: each press says ``text`` in its
    status, the second too (emptied first, then written again, so that a screen reader reads
    it again); once said, it lies within what the dialog shows."""
    said = page.locator("#over-share [role=status]")
    said.evaluate(
        """e => { window.__said = [];
            new MutationObserver(() => window.__said.push(e.textContent))
                .observe(e, {childList: true, characterData: true, subtree: true}); }"""
    )
    page.locator("#over-share .share-button").click()
    expect(said).to_have_text(text)
    page.wait_for_function(SHOWN_IN_DIALOG, arg=said.element_handle(), polling=100)
    page.locator("#over-share .share-button").click()
    page.wait_for_function(
        "said => window.__said.filter((s) => s === said).length === 2", arg=text, polling=100
    )
    assert page.evaluate("window.__said") == [text, "", text]


def test_on_a_small_phone_the_replay_s_link_is_said_copied_in_view_at_every_press(
    browser: Browser, server: str
) -> None:
    """On a small phone the end dialog scrolls: "Link copied" is scrolled into view below
    "Share the replay", and said again at a second press."""
    page = new_page(browser, width=375, height=667, mobile=True)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    thanked_too_early(page, server)
    assert page.locator("#over-dialog").evaluate("d => d.scrollHeight > d.clientHeight")
    share_twice(page, COPIED)
    assert not page.errors  # type: ignore[attr-defined]


def test_on_a_small_phone_the_replay_s_link_to_select_is_shown_in_the_dialog(
    browser: Browser, server: str
) -> None:
    """Without a clipboard, on a small phone in French, the link to select and what it is
    for are shown within the end dialog (scrolled to), the link selected, at every press."""
    page = new_page(browser, locale="fr-CH", width=375, height=667, mobile=True)
    page.context.add_init_script(
        "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined})"
    )
    thanked_too_early(page, server)
    assert page.locator("#over-dialog").evaluate("d => d.scrollHeight > d.clientHeight")
    share_twice(page, "Copiez ce lien pour partager la partie\u00a0:")
    shown = page.locator("#over-share .share-url")
    expect(shown).to_be_focused()
    page.wait_for_function(SHOWN_IN_DIALOG, arg=shown.element_handle(), polling=100)
    page.screenshot(path=str(artifacts() / "over-share-phone.png"))
    assert not page.errors  # type: ignore[attr-defined]


def invite_friend(browser: Browser, server: str, **options: object) -> tuple[Page, Page, str]:
    """A table of the host (seat 0) with a friend opposite (seat 2) and two computers; both
    pages at the table. Returns (host, friend, the friend's invitation)."""
    made = create_table(
        server, seats=["human", "rule", "human", "rule"], names=["Anna", "Köbi", None, None],
        options=dict(options),
    )  # fmt: skip
    host = new_page(browser)
    host.goto(server + made["seats"][0]["link"])
    host.locator("#hand .card").first.wait_for()
    friend = new_page(browser, locale="de-CH")
    invite = server + made["seats"][2]["link"]
    friend.goto(invite)
    friend.locator("#hand .card").first.wait_for()
    return host, friend, invite


def test_a_friend_names_their_seat_and_everyone_sees_it(browser: Browser, server: str) -> None:
    host, friend, _ = invite_friend(browser, server)
    assert host.locator("#seat-right .name").inner_text() == "Köbi"  # named by the host
    assert host.locator("#name-form").is_hidden()  # the host named themselves in the lobby
    bar = friend.locator("#name-form")
    bar.wait_for()
    # a name too long is refused by the server, in the friend's language, and nothing changes
    friend.evaluate("document.getElementById('name-input').removeAttribute('maxlength')")
    friend.fill("#name-input", "B" * 41)
    friend.click("#name-save")
    error = friend.locator("#name-error")
    error.wait_for()
    assert "höchstens 40 Zeichen" in error.inner_text()
    assert error.inner_text()[0].isupper()  # said as a sentence
    assert host.locator("#seat-top .name").inner_text() == "Partner"
    friend.fill("#name-input", "  Beat  ")
    friend.click("#name-save")
    host.locator("#seat-top .name", has_text="Beat").wait_for()
    assert host.locator("#seat-top .name").inner_text() == "Beat"
    # the friend's own page hears of it by its own socket, perhaps a moment later
    friend.locator("#seat-bottom .name", has_text="Beat (Du)").wait_for()
    assert friend.locator("#seat-top .name").inner_text() == "Anna"
    # kept with the seat: a spectator who comes later, and the friend on reopening
    summary = host.evaluate(
        "fetch(location.pathname.replace('/t/', '/api/tables/') + '?token=' +"
        " new URLSearchParams(location.search).get('seat')).then(r => r.json())"
    )
    assert [s["name"] for s in summary["seats"]] == ["Anna", "Köbi", "Beat", "rule"]
    friend.reload()
    friend.locator("#hand .card").first.wait_for()
    assert friend.locator("#name-form").is_hidden()
    # and editable
    friend.click("#change-name")
    friend.fill("#name-input", "Beat M.")
    friend.click("#name-save")
    host.locator("#seat-top .name", has_text="Beat M.").wait_for()
    assert not host.errors and not friend.errors  # type: ignore[attr-defined]


def test_a_rematch_keeps_the_seats_and_both_friends_play_it(browser: Browser, server: str) -> None:
    host, friend, invite = invite_friend(browser, server, claim="thank")
    friend.fill("#name-input", "Beat")
    friend.click("#name-save")
    host.locator("#seat-top .name", has_text="Beat").wait_for()
    first = host.url
    host.click("#controls [data-kind='thank']")
    host.click("#thank-yes")
    for page in (host, friend):
        page.locator("#over-dialog[open]").wait_for()
    friend.click("#over-rematch")
    friend.wait_for_url(lambda url: url != invite)  # who asked goes at once
    # and sees the host, who has not followed yet, counted down to the computer
    friend.locator("#seat-top .chip-countdown").wait_for()
    # the others see the end until they choose to go: the dialog offers the new game
    expect(host.locator("#over-rematch")).to_have_text("To the new game")
    wait_banner(host, "A new game at this table is ready")
    assert host.url == first
    host.click("#over-rematch")
    for page in (host, friend):
        page.wait_for_url(lambda url: url != first and url != invite)
        page.locator("#table[data-status='playing'] #hand .card").first.wait_for()
    assert host.url.split("?")[1] == first.split("?")[1]  # the same seat, the same link
    assert friend.url.split("?")[1] == invite.split("?")[1]
    assert host.locator("#seat-top .name").inner_text() == "Beat"  # names stay too
    assert table(host)["history"] == "0"  # a new game, a new record
    # the first game's record is still there under its own table
    old = first.split("/t/")[1].split("?")[0]
    token = first.split("seat=")[1]
    status = host.evaluate(
        f"fetch('/api/tables/{old}/record?format=json&token={token}').then(r => r.status)"
    )
    assert status == 200
    # and both friends play the second game
    played = {"host": 0, "friend": 0}
    deadline = time.monotonic() + 60
    while min(played.values()) < 2:
        assert time.monotonic() < deadline, played
        for who, page in (("host", host), ("friend", friend)):
            if table(page).get("myTurn") == "true" and take_turn(page):
                played[who] += 1
        host.wait_for_timeout(20)
    assert not host.errors and not friend.errors  # type: ignore[attr-defined]


def test_players_behind_one_address_share_its_cap_by_what_they_do(
    browser: Browser, tmp_path: Path
) -> None:
    """Each page keeps a WebSocket and several idle HTTP connections: six players of one café
    (one address) sit at their tables under a cap of 14 that their pages' connections pass."""
    with running_server(tmp_path, "--max-connections-per-address", "14") as base_url:
        pages = []
        for _ in range(6):
            made = create_table(base_url)
            page = new_page(browser)
            page.goto(base_url + made["seats"][0]["link"])
            page.locator("#hand .card").first.wait_for()
            pages.append(page)
        for page in pages:  # each page still asks and is answered, its WebSocket still open
            status = page.evaluate("fetch('/api/presets').then(r => r.status)")
            assert status == 200
        for page in pages:  # the answers came after any push-out would have reached a page
            assert page.locator("#table[data-connected='true']").count() == 1
            assert not page.errors  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def short_grace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("grace"), "--grace", "4") as base_url:
        yield base_url


def test_a_dropped_friend_is_counted_down_taken_over_and_welcomed_back(
    browser: Browser, short_grace: str
) -> None:
    host, friend, invite = invite_friend(browser, short_grace)
    wait_banner(host, "Partner has come to the table")  # not "back"
    friend.fill("#name-input", "Beat")
    friend.click("#name-save")
    host.locator("#seat-top .name", has_text="Beat").wait_for()
    friend.context.close()
    countdown = host.locator("#seat-top .chip-countdown")
    countdown.wait_for()
    # read at once, in the page: the countdown lasts the four seconds of grace only
    said, notice, a, b = host.evaluate(
        """() => {
            const chip = document.querySelector('#seat-top .chip-countdown');
            const banner = document.getElementById('banner');
            const box = (e) => { const r = e.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height}; };
            return [chip.textContent, banner.textContent, box(banner), box(chip)];
        }"""
    )
    assert re.fullmatch(r"computer in [1-4] s", said), said
    assert "Beat lost the connection" in notice
    assert (  # the notice hides no countdown
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or (a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
    ), (a, b)
    seconds = [int(said.split()[2])]
    wait_banner(host, "The computer plays for Beat", timeout=10_000)
    assert host.locator("#seat-top .chip-bot").inner_text() == "the computer plays for now"
    assert countdown.count() == 0
    assert seconds[0] <= 4
    back = new_page(browser, locale="de-CH")
    back.goto(invite)
    back.locator("#hand .card").first.wait_for()
    wait_banner(host, "Beat is back")
    host.locator("#seat-top .dot.on").wait_for()
    assert not host.errors  # type: ignore[attr-defined]


def first_card_width(page: Page) -> float:
    """The width of the hand's first card as laid out, read in one step in the page (the hand
    is drawn anew with each message from the table, so a card found may be gone the moment
    after)."""
    width = page.wait_for_function(
        """() => { const c = document.querySelector('#hand .card');
                   const w = c ? c.getBoundingClientRect().width : 0;
                   return w > 0 ? w : null; }""",
        polling=100,
    )
    return float(width.json_value())


def test_settings_sort_two_taps_large_cards_and_sound(browser: Browser, server: str) -> None:
    made = create_table(server)
    page = new_page(browser, width=390, height=844, mobile=True)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    wait_my_turn_or(page, "false")
    take_turn(page)  # the contract, when it is ours to name
    page.locator("#table[data-phase='play']").wait_for()
    assert "alerts" not in table(page)  # no sound by default
    width = first_card_width(page)
    page.click("#settings-btn")
    # each box on the line of its words (the long "two taps" too), on a phone
    apart = page.eval_on_selector_all(
        "#settings-dialog label.check",
        """labels => labels.map((l) => l.querySelector('span').getBoundingClientRect().top
            - l.querySelector('input').getBoundingClientRect().top)""",
    )
    assert apart and all(abs(gap) < 12 for gap in apart), apart
    page.check("#set-large")
    page.check("#set-twoTap")
    page.check("#set-sound")
    page.select_option("#set-sort", "suit")
    page.click("#settings-dialog button.btn-primary")
    page.wait_for_function("() => document.body.classList.contains('large-cards')", polling=100)
    larger = first_card_width(page)
    assert larger > 1.15 * width, (width, larger)
    boxes = page.eval_on_selector_all(
        "#hand .card",
        "cs => cs.map(c => [c.getBoundingClientRect().left, c.getBoundingClientRect().right])",
    )
    assert all(left >= 0 and right <= 391 for left, right in boxes), boxes  # all nine fit
    suits = [
        c[0] for c in page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    ]
    order = "SHCD"  # spades, hearts, clubs, diamonds, whatever the trump
    assert suits == sorted(suits, key=order.index), suits
    page.reload()  # kept in this browser
    page.locator("#hand .card").first.wait_for()
    assert page.evaluate("document.body.classList.contains('large-cards')")
    wait_my_turn_or(page, "false")
    assert int(table(page).get("alerts", "0")) >= 1  # "your turn" was signalled
    card = page.locator("#hand .card.legal").first
    code = card.get_attribute("data-card")
    cards = page.locator("#hand .card").count()
    corner = {"x": 6, "y": 20}  # the cards overlap: tap the corner that shows
    card.click(position=corner)  # the first tap raises it
    page.locator(f'#hand .card.chosen[data-card="{code}"]').wait_for()
    assert page.locator("#hand .card").count() == cards
    page.locator(f'#hand .card[data-card="{code}"]').click(position=corner)  # the second plays
    page.wait_for_function(
        'code => !document.querySelector(`#hand .card[data-card="${code}"]`)', arg=code, polling=100
    )
    assert not page.errors  # type: ignore[attr-defined]


def test_quick_reactions_reach_the_table_and_can_be_muted(browser: Browser, server: str) -> None:
    host, friend, _ = invite_friend(browser, server)
    friend.fill("#name-input", "Beat")
    friend.click("#name-save")
    friend.click("#react-btn")
    friend.click("#react-menu [data-reaction='well_played']")
    host.locator("#seat-top .bubble", has_text="Well played!").wait_for()
    friend.locator("#seat-bottom .bubble", has_text="Gut gespielt!").wait_for()
    # the host mutes the others' reactions
    host.click("#settings-btn")
    host.check("#set-mute")
    host.click("#settings-dialog button.btn-primary")
    host.locator("#seat-top .bubble").wait_for(state="detached")  # the first bubble is gone
    friend.click("#react-btn")
    friend.click("#react-menu [data-reaction='thanks']")
    friend.locator("#seat-bottom .bubble", has_text="Merci!").wait_for()
    # the host's own reaction comes back after the friend's on the host's socket: by the time
    # it shows, the friend's has arrived too, and must not show
    host.click("#react-btn")
    host.click("#react-menu [data-reaction='hello']")
    host.locator("#seat-bottom .bubble", has_text="Hello!").wait_for()
    assert host.locator("#seat-top .bubble").count() == 0
    assert not host.errors and not friend.errors  # type: ignore[attr-defined]


def test_on_a_phone_your_own_bubble_leaves_the_middle_of_the_felt_clear(
    browser: Browser, server: str
) -> None:
    """On a phone the middle of the felt says whose turn it is ("Your turn"): the player's own
    bubble (a reaction, a chibre, a weis) covers their own plate, not that line."""
    host, _, _ = invite_friend(browser, server)
    host.set_viewport_size({"width": 390, "height": 844})
    note = host.locator("#center-note")
    expect(note).not_to_have_text("")
    host.click("#react-btn")
    host.click("#react-menu [data-reaction='well_played']")
    bubble = host.locator("#seat-bottom .bubble", has_text="Well played!")
    bubble.wait_for()
    # measured in one step once the bubble's pop is over (it lasts less than three seconds)
    b, n, plate = host.wait_for_function(
        """() => {
            const bubble = document.querySelector('#seat-bottom .bubble');
            if (!bubble || bubble.getAnimations().length) return null;
            const box = (e) => { const r = e.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height}; };
            return [bubble, document.getElementById('center-note'),
                    document.querySelector('#seat-bottom .plate')].map(box);
        }""",
        polling=100,
    ).json_value()
    host.screenshot(path=artifacts() / "own-bubble-phone.png")
    assert n["height"] > 0
    apart = b["y"] >= n["y"] + n["height"] or b["y"] + b["height"] <= n["y"]
    assert apart, (b, n)
    assert b["x"] >= 0 and b["x"] + b["width"] <= 390, b  # on the screen
    assert abs((b["y"] + b["height"] / 2) - (plate["y"] + plate["height"] / 2)) < 4  # on the plate


def test_the_game_sheet_shows_every_trick_and_prints(browser: Browser, server: str) -> None:
    made = create_table(
        server, seats=["human", "rule", "rule", "rule"],
        options={"target": 300, "end_mode": "end_of_hand"},
    )  # fmt: skip
    page = new_page(browser, locale="de-CH")
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    play_until(page, "t.dataset.status === 'finished'", turns=200)
    page.locator("#over-dialog[open]").wait_for()
    href = page.locator("#over-sheet").get_attribute("href")
    assert href and "/sheet?" in href
    page.goto(server + href)
    assert page.locator("h1").inner_text() == "Spielblatt"
    # the seats as the table says them, each its own (three computer seats of one level)
    columns = page.locator("section.hand").first.locator(".tricks thead th")
    expect(columns).to_have_text(["#", "Du", "Rechts", "Partner", "Links", "Sticht", "Punkte"])
    hands = page.locator("section.hand").count()
    history = page.locator("section.hand .tricks tbody tr").count()
    assert hands >= 1 and history == 9 * hands  # every trick of every hand (end of hand)
    assert page.locator("section.hand .tricks td.won").count() == history
    running = page.locator("section.hand .running").last.locator("td").all_inner_texts()
    result = page.locator("section.result p").inner_text()
    assert f"{running[0]}\u00a0:\u00a0{running[1]}" in result  # one line
    assert page.locator("section.result .total td").count() == 2
    assert page.locator("#print").is_visible()
    page.emulate_media(media="print")
    assert page.locator("#print").is_hidden()
    icon = page.locator("link[rel=icon]").get_attribute("href")  # none: the browser asks for
    assert icon and page.request.get(server + icon).ok  # /favicon.ico, which is not there
    assert not page.errors  # type: ignore[attr-defined]
    # the replay on a phone: every card of the four hands on the screen
    phone = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
    phone.goto(server + made["seats"][0]["link"] + "&replay=1")
    expect(phone.locator("#rp-left .rp-cards img")).to_have_count(9)
    outside = phone.evaluate(
        """() => [...document.querySelectorAll('.rp-cards img')]
            .map((img) => img.getBoundingClientRect())
            .filter((r) => r.left < 0 || r.right > innerWidth).length"""
    )
    phone.screenshot(path=artifacts() / "replay-phone.png")
    assert outside == 0
    # the sheet on a phone, with the Swiss deck's long names: the page keeps to the screen
    phone.goto(server + href.replace("deck=french", "") + "&deck=swiss")
    expect(phone.locator("section.hand .tricks td.won").first).to_contain_text(" ")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=artifacts() / "sheet-phone.png")
    assert not phone.errors  # type: ignore[attr-defined]
    # a spectator's sheet names the computers by their level, as the spectator's table does
    watch = made["watch"].split("watch=")[1]
    spectator = page.request.get(f"{server}/api/tables/{made['table']}/sheet?watch={watch}&lang=en")
    head = re.findall(r"<th>([^<]*)</th>", spectator.text().split("</thead>")[0])
    computers = ["rule-based player (2)", "rule-based player (3)", "rule-based player (4)"]
    assert head[1:5] == ["Seat 1", *computers], head


ON_ONE_LINE = """(e, part) => {
    const text = e.firstChild, at = text.data.indexOf(part);
    if (at < 0) throw new Error(`${part} is not in ${text.data}`);
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + part.length);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size === 1;
}"""
"""Whether the text ``part`` of the element's (first) text is written on one line."""


def test_the_lobby_lists_this_browser_s_games_and_figures(browser: Browser, server: str) -> None:
    from chibre.notation import record_from_json
    from chibre.server.history import SeatGame, figures
    from chibre.server.store import SeatInfo, StoredTable

    lost = create_table(server, options={"claim": "thank"})
    played = create_table(server, options={"target": 300, "end_mode": "end_of_hand"})
    page = new_page(browser)
    page.goto(server + lost["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    page.click("#controls [data-kind='thank']")
    page.click("#thank-yes")
    page.locator("#over-dialog[open]").wait_for()
    page.goto(server + played["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    play_until(page, "t.dataset.status === 'finished'", turns=200)
    # the figures the server keeps for this seat, counted here from the game's own record
    token = played["seats"][0]["link"].split("seat=")[1]
    url = f"{server}/api/tables/{played['table']}/record?format=json&token={token}"
    with urllib.request.urlopen(url) as r:
        game, _ = record_from_json(r.read().decode()).replay()
    infos = tuple(SeatInfo("human" if s == 0 else "rule", "") for s in range(4))
    stored = StoredTable(played["table"], game.rules, infos, "")
    expected = figures([SeatGame(stored, game, 0)])
    assert expected["hands"] >= 1

    page.goto(server + "/")
    box = page.locator("#recent-box")
    box.wait_for()
    rows = page.locator("#recent li")
    assert rows.count() == 2
    newest = rows.first
    assert newest.get_attribute("data-table") == played["table"]
    assert ("won" if game.winner == 0 else "lost") in newest.inner_text()
    assert f"{game.totals[0]}\u00a0:\u00a0{game.totals[1]}" in newest.inner_text()  # one line
    assert "with rule-based player" in newest.inner_text()  # the partner, a computer
    # by its level's name, which reads as a player's (the level menu says "rule-based")
    assert "against rule-based player and rule-based player" in newest.inner_text()
    assert "lost\u00a00\u00a0:\u00a00" in rows.nth(1).inner_text()
    # a past game opens at its replay, the player's own (their seat's reviews, "You")
    assert newest.locator("a").get_attribute("href") == played["seats"][0]["link"] + "&replay=1"
    newest.locator("a").click()
    page.locator("#replay:not([hidden])").wait_for()
    raw_key = re.compile(r"(?:term|coach|tour|error|sheet)\.[a-z_]+|\brp_[a-z_]+")
    page.keyboard.press("PageUp")
    while True:  # every hand's end, as the table wrote it, in words
        page.keyboard.press("End")
        said = page.locator("#replay").inner_text()
        assert not raw_key.search(said), said
        if page.locator("#rp-hand").input_value() == str(len(game.hands) - 1):
            break
        page.keyboard.press("PageDown")
    running = page.locator("#rp-score tr.rp-running td").all_inner_texts()
    assert running == [str(game.totals[0]), str(game.totals[1])], running
    assert "decided in this hand" in page.locator("#rp-score").inner_text()
    page.goto(server + "/")
    page.locator("#recent li").first.wait_for()

    def figure(key: str) -> str:
        return page.locator(f"#figures [data-figure='{key}']").inner_text()

    won_games = int(game.winner == 0)
    assert figure("fig_games") == f"{won_games} of 2"
    assert figure("fig_hands") == f"{expected['hands_won']} of {expected['hands']}"
    assert float(figure("fig_average")) == expected["average"]
    assert figure("fig_matches") == str(expected["matches"])
    assert float(figure("fig_chooser")) == expected["chooser_average"]
    # the contracts named, by suit: in the deck the player draws with
    assert "♦" in figure("fig_contracts")
    page.evaluate("localStorage.setItem('chibre.deck', 'swiss')")
    page.reload()
    page.locator("#recent li").first.wait_for()
    named = figure("fig_contracts")
    assert "acorns" in named and "bells" in named and "♦" not in named, named
    # on a phone, in French: the figures keep to the screen, their numbers written as French
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#lang-select", "fr")
    expect(page.locator("#figures dt").first).to_have_text("Parties gagnées")
    assert figure("fig_average") == f"{expected['average']:g}".replace(".", ",")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for dd in page.locator("#figures dd").all():
        box = dd.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, (dd.inner_text(), box)
    # nothing broken across two lines: a game's result and score ("perdue 128 : 326"), a
    # contract and its count ("♠ 0")
    score = f"{game.totals[0]}\u00a0:\u00a0{game.totals[1]}"
    assert newest.locator(".game-line").evaluate(ON_ONE_LINE, score)
    for item in figure("fig_contracts").split(" · "):
        assert page.locator("#figures [data-figure='fig_contracts']").evaluate(ON_ONE_LINE, item)
    # a token this browser does not hold opens nothing: the server leaves it out
    status = page.evaluate(
        """table => fetch('/api/history', {
            method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seats: [{table, token: 'not-a-token'}]}),
        }).then(r => r.json()).then(j => j.games.length)""",
        played["table"],
    )
    assert status == 0
    assert not page.errors  # type: ignore[attr-defined]


def test_a_time_per_move_chosen_in_the_lobby_counts_down_at_the_table(
    browser: Browser, server: str
) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    limit = page.get_by_label("Time per move")
    assert limit.input_value() == "0"  # no limit unless asked for
    assert "no limit" in limit.locator("option:checked").inner_text()
    limit.select_option(label="30 s, then the computer plays")
    page.click("#create")
    page.locator("#invites").wait_for()
    link = page.locator("#go-table").get_attribute("href")
    assert link is not None
    table_id, token = link.split("/t/")[1].split("?seat=")
    with urllib.request.urlopen(f"{server}/api/tables/{table_id}?token={token}") as r:
        assert json.loads(r.read())["move_limit"] == 30
    page.goto(server + link)
    wait_my_turn_or(page, "false")
    # the player's own plate says when the computer will move for them
    countdown = page.locator("#seat-bottom .chip-countdown")
    countdown.wait_for()
    assert countdown.get_attribute("role") == "timer"
    first = countdown.inner_text()
    seconds = int(first.removeprefix("computer in ").removesuffix(" s"))
    assert 0 < seconds <= 30, first
    assert page.locator(".chip-countdown").count() == 1  # only the seat to act has one
    control = page.locator("#controls .btn-contract, #hand .card.legal").first
    control.focus()  # as a keyboard leaves it, on a contract or a card
    expect(countdown).not_to_have_text(first)  # it counts down
    expect(control).to_be_focused()  # in place: the focus stays where the player left it
    later = int(countdown.inner_text().removeprefix("computer in ").removesuffix(" s"))
    assert later < seconds
    take_turn(page)
    assert not page.errors  # type: ignore[attr-defined]


def test_fair_deals_asked_for_in_the_lobby_show_their_commitment(
    browser: Browser, server: str
) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    box = page.get_by_label("Fair deals (the seed committed to before the first card")
    assert not box.is_checked()  # an ordinary table unless asked for
    box.check()
    page.click("#create")
    page.locator("#invites").wait_for()
    link = page.locator("#go-table").get_attribute("href")
    assert link is not None
    table_id = link.split("/t/")[1].split("?")[0]
    token = link.split("seat=")[1]
    with urllib.request.urlopen(f"{server}/api/tables/{table_id}?token={token}") as r:
        deals = json.loads(r.read())["deals"]
    assert deals["commitment"].startswith("sha256:") and "seed" not in deals
    page.goto(server + link)
    page.locator("#hand .card").first.wait_for()
    commitment = page.locator("#deals-box .deals-commitment")
    commitment.wait_for()
    assert deals["commitment"] in commitment.inner_text()
    assert page.locator("#deals-box .deals-seed").count() == 0  # revealed only at the end
    # its record comes with its deals, which `chibre verify` checks
    expect(page.locator("#download")).to_have_attribute("href", re.compile("format=json"))
    expect(page.locator("#download")).to_have_attribute("download", f"chibre-{table_id}.json")
    # left unchecked, the lobby's table commits to nothing and shows no commitment
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    page.click("#create")
    page.locator("#invites").wait_for()
    plain = page.locator("#go-table").get_attribute("href")
    assert plain is not None and plain != link
    page.goto(server + plain)
    page.locator("#hand .card").first.wait_for()
    page.locator("#deals-box[data-answered='true']").wait_for(state="attached")
    assert page.locator("#deals-box").is_hidden()
    expect(page.locator("#download")).to_have_attribute("href", re.compile("format=text"))
    assert not page.errors  # type: ignore[attr-defined]


def test_the_lobby_keeps_the_options_it_shows_to_what_the_rules_allow(
    browser: Browser, server: str
) -> None:
    """Pique double comes with its grid and its 1500 and goes with them, a thanks with the
    immediate end; a target out of range is refused in the page's language, nothing made;
    the table made plays the rules the form showed."""
    page = new_page(browser)
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    # the pique double preset without pique double: the rules' own grid and target
    page.select_option("#preset", "pique-double")
    assert (page.input_value("#multipliers"), page.input_value("#target")) == (
        "pique_double",
        "1500",
    )
    page.select_option("#pique_double", "off")
    assert (page.input_value("#multipliers"), page.input_value("#target")) == ("none", "1000")
    made = table_rules(page, server, "multipliers", "target", "pique_double")
    assert made == ("none", 1000, "off")
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    page.select_option("#preset", "jasvel")
    assert page.input_value("#target") == "2500"
    page.select_option("#pique_double", "always")
    assert page.input_value("#multipliers") == "pique_double"
    assert page.input_value("#target") == "1500"
    page.select_option("#pique_double", "off")
    assert page.input_value("#multipliers") == "current"
    assert page.input_value("#target") == "2500"
    page.select_option("#multipliers", "pique_double")
    assert page.input_value("#pique_double") == "always"
    assert page.input_value("#end_mode") == "end_of_hand"
    page.select_option("#claim", "thank")
    assert page.input_value("#end_mode") == "immediate"
    page.select_option("#end_mode", "end_of_hand")
    assert page.input_value("#claim") == "auto"
    page.select_option("#lang-select", "de")
    page.fill("#target", "0")
    page.click("#create")
    error = page.locator("#create-error")
    expect(error).to_have_text("Fehler: das Ziel ist eine ganze Punktzahl von 1 bis 10'000")
    assert page.locator("#invites").is_hidden()
    page.fill("#target", "1500")
    made = table_rules(page, server, "pique_double", "multipliers", "target", "end_mode", "claim")
    assert made == ("always", "pique_double", 1500, "end_of_hand", "auto")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_lobby_says_a_refused_option_in_the_page_s_language(
    browser: Browser, server: str
) -> None:
    """In the German lobby an option the server refuses is said in German at its path (and
    by the form's name of it); a JSON box that does not parse says so in German, where it
    stops, and sends nothing. No table is made."""
    page = new_page(browser, locale=locale("de"))
    posted: list[str] = []  # the tables asked for
    page.on("request", lambda r: posted.append(r.url) if r.url.endswith("/api/tables") else None)
    page.goto(server + "/")
    page.locator("#preset option").first.wait_for(state="attached")
    page.locator(".all-options > summary").click()
    error = page.locator("#create-error")
    for options, said in (
        ('{"foo": 1}', "Fehler: options.foo: unbekanntes Feld"),
        ('{"target": 100000}', "Fehler: options.target (Ziel): höchstens 10000, nicht 100000"),
    ):
        page.fill("#options-json", options)
        with page.expect_response(lambda r: r.url.endswith("/api/tables")) as answer:
            page.click("#create")
        assert answer.value.status == 400
        expect(error).to_have_text(said)
    assert len(posted) == 2
    for broken, said in (
        ('{"target": 1000 "weis": true}', "kein gültiges JSON (Zeile 1, Spalte 17)"),
        ('{\n  "target": 1000\n  "weis": true\n}', "kein gültiges JSON (Zeile 3, Spalte 3)"),
        ('{"target": 1000', "kein gültiges JSON (Zeile 1, Spalte 16)"),  # at its end
        ("[1000]", 'ein Objekt mit Optionen angeben, etwa {"target": 1000}'),
    ):
        page.fill("#options-json", broken)
        page.click("#create")
        expect(error).to_have_text(f"Fehler: Alle Optionen (JSON): {said}")
    assert len(posted) == 2  # the broken box sent nothing
    assert page.locator("#invites").is_hidden()
    assert not page.errors  # type: ignore[attr-defined]


def table_rules(page: Page, server: str, *names: str) -> tuple[object, ...]:
    """Create the lobby's table as the form stands; its rules ``names`` as the server made
    them."""
    page.click("#create")
    page.locator("#invites").wait_for()
    link = page.locator("#go-table").get_attribute("href")
    assert link is not None
    table_id, token = link.split("/t/")[1].split("?seat=")
    with urllib.request.urlopen(f"{server}/api/tables/{table_id}?token={token}") as r:
        rules = json.loads(r.read())["rules"]
    return tuple(rules[n] for n in names)


def test_the_hand_s_weis_line_says_which_team_writes_them(browser: Browser, server: str) -> None:
    """Once the weis are compared, the hand's line names the team that writes them — the team
    whose weis cards are shown on its plates (RULES.md §5)."""
    made = create_table(server)
    page = new_page(browser)
    page.goto(server + made["seats"][0]["link"])
    page.locator("#hand .card").first.wait_for()
    line_js = "document.querySelector('#hand-info .weis-line')?.textContent"
    written = f"/ · (ours|theirs) \\d+( \\([a-z ]+\\))?$/.test({line_js})"
    play_until(page, written, turns=400)
    wait_my_turn_or(page, "false")  # the hand waits for seat 0: read as it stays, for both
    full = page.locator("#hand-info .weis-line").first.inner_text()
    line = re.sub(r" \([a-z ]+\)$", "", full)  # why it won, when both teams announced
    team, points = line.rsplit(" · ", 1)[1].split()
    # what the team writes: every weis of its own, at least its best announced one
    announced = dict(item.rsplit(" ", 1) for item in line.split(": ", 1)[1].split(" · ")[:-1])
    both = {who in ("You", "Partner") for who in announced} == {True, False}
    assert (line != full) == both, full  # why it won: only when both teams announced
    best = max(
        int(n) for who, n in announced.items() if (who in ("You", "Partner")) == (team == "ours")
    )
    assert int(points) >= best and int(points) % 10 == 0, line
    ours, theirs = ("#seat-bottom", "#seat-top"), ("#seat-left", "#seat-right")
    writers, others = (ours, theirs) if team == "ours" else (theirs, ours)
    assert any(page.locator(f"{p} .shown-weis").count() for p in writers)
    assert not any(page.locator(f"{p} .shown-weis").count() for p in others)
    # a spectator, who sits in no team, reads the team by its names
    watcher = new_page(browser)
    watcher.goto(server + made["watch"])
    said = watcher.locator("#hand-info .weis-line", has_text="written by")
    expect(said).to_have_count(1)
    seats = (0, 2) if team == "ours" else (1, 3)
    names = [
        watcher.locator(f"#seat-{p} .name").first.inner_text()
        for p in ("bottom", "right", "top", "left")
    ]
    team_names = f"{names[seats[0]]} & {names[seats[1]]}"
    assert said.inner_text().endswith(f"written by {team_names} {points}{full[len(line) :]}")
    assert not page.errors  # type: ignore[attr-defined]


def stored_table(db: Path, table_id: str, rules: Rules, deal: Deal, *actions: Action) -> None:
    """A table of four absent friends, its hand at the point these actions leave it, written
    where a server started on ``db`` takes it up: ``/t/ID?seat=tok-ID-SEAT``, ``?watch=tok-ID``."""
    from chibre.server.store import SeatInfo, Store, StoredTable

    game = Game(rules)
    game.apply(deal)
    for action in actions:
        game.apply(action, game.current_player)
    seats = tuple(SeatInfo("human", name, f"tok-{table_id}-{s}") for s, name in enumerate("ABCD"))
    store = Store(db)
    store.create(
        StoredTable(table_id, rules, seats, f"tok-{table_id}", entries=game.record.entries)
    )
    store.close()


def stored_finished(db: Path, table_id: str, game: Game) -> None:
    """A finished game of four absent friends, stored where a server started on ``db`` finds
    it: ``/t/ID?seat=tok-ID-SEAT``."""
    from chibre.server.store import SeatInfo, Store, StoredTable

    assert game.is_over
    seats = tuple(SeatInfo("human", name, f"tok-{table_id}-{s}") for s, name in enumerate("ABCD"))
    store = Store(db)
    store.create(
        StoredTable(
            table_id, game.rules, seats, f"tok-{table_id}", entries=game.record.entries,
            finished=True,
        )
    )  # fmt: skip
    store.close()


def test_the_replay_shows_each_weis_and_the_stoeck_from_the_move_the_table_did(
    browser: Browser, tmp_path: Path
) -> None:
    """Stepped through with the keyboard, the replay shows a weis added after the first trick
    from the move it was declared (not with the first trick's), and the stöck from the move
    they were declared (not only at the hand's end)."""
    db = tmp_path / "chibre.sqlite"
    stored_finished(db, "further", further_weis_game())
    stored_finished(db, "stoeck", late_stoeck_game())
    cases = {  # move -> (weis shown, stöck shown)
        "further": lambda m: (0 if m < 5 else 1 if m == 5 else 2, 0),
        "stoeck": lambda m: (0 if m < 5 else 2, 0 if m < 20 else 1),
    }
    with running_server(tmp_path, db=db) as base:
        page = new_page(browser)
        for table_id, shown in cases.items():
            page.goto(f"{base}/t/{table_id}?seat=tok-{table_id}-0")
            page.locator("#over-dialog[open]").wait_for()
            page.click("#over-replay")
            replay = page.locator("#replay")
            expect(replay).to_have_attribute("data-move", "0")
            page.keyboard.press("End")
            last = int(replay.get_attribute("data-move") or 0)
            assert last > 20
            page.keyboard.press("Home")
            for move in range(last + 1):
                expect(replay).to_have_attribute("data-move", str(move))
                weis, stoeck = shown(move)
                expect(page.locator("#rp-score .rp-weis-item")).to_have_count(weis)
                expect(page.locator("#rp-score .rp-stoeck")).to_have_count(stoeck)
                if stoeck:
                    expect(page.locator("#rp-score .rp-stoeck")).to_have_text("Stöck: A (You)")
                page.keyboard.press("ArrowRight")
            if table_id == "further":
                points = page.locator("#rp-score .rp-weis-item").all_inner_texts()
                assert [p.split()[-1] for p in points] == ["20", "50"]
            page.screenshot(path=artifacts() / f"replay-{table_id}.png")
        assert not page.errors  # type: ignore[attr-defined]


DECIDED_ALONE = {
    "en": "The game was decided in this hand",
    "de": "In diesem Spiel fiel die Entscheidung",
    "fr": "La partie s’est décidée dans cette donne",
}


def test_the_replay_s_line_that_the_game_was_decided_starts_with_a_capital(
    browser: Browser, tmp_path: Path
) -> None:
    """At the end of the deciding hand (no match to name before it), the replay's line that
    the game was decided there starts the line, capitalised, in each language."""
    db = tmp_path / "chibre.sqlite"
    stored_finished(db, "decided", late_stoeck_game())  # decided in hand 1, at its 21st move
    with running_server(tmp_path, db=db) as base:
        for lang, said in DECIDED_ALONE.items():
            page = new_page(browser, locale=locale(lang))
            page.goto(f"{base}/t/decided?seat=tok-decided-0&replay=1")
            page.locator("#replay:not([hidden])").wait_for()
            page.keyboard.press("End")
            expect(page.locator("#rp-score .rp-said")).to_have_text(said)
            assert not page.errors  # type: ignore[attr-defined]


def dealt(dealer: int, *hands: str) -> Deal:
    """A deal of these four hands (written as cards), dealt by ``dealer``."""
    return Deal(tuple(parse_cards(h) for h in hands), dealer)


def test_the_weis_line_says_why_the_weis_won(browser: Browser, tmp_path: Path) -> None:
    """Both teams announced 20: the line says why the writing team's won — the seat order in
    hearts, the lower card in Undenufe (6-7-8 beats Q-K-A, RULES.md §5) —, to its team, to
    the other and to a spectator alike, in the page's language."""
    db = tmp_path / "chibre.sqlite"
    rules = Rules.preset("romand")
    # seat 0 ♦7-8-9 (and ♦7: it chooses, hearts, and leads), seat 1 ♣7-8-9: only the seat
    # order parts them; the first trick is played
    tie = dealt(
        3,
        "♦7 ♦8 ♦9 ♥6 ♥10 ♥A ♠9 ♠K ♣6",
        "♣7 ♣8 ♣9 ♥7 ♥J ♠6 ♠10 ♠A ♦6",
        "♥8 ♥Q ♠7 ♠J ♦10 ♦Q ♦A ♣J ♣K",
        "♥9 ♥K ♠8 ♠Q ♦J ♦K ♣10 ♣Q ♣A",
    )
    trick = [Play(parse_card(c)) for c in ("♦7", "♦6", "♦10", "♦J")]
    stored_table(db, "tie", rules, tie, Choose(1), *trick)
    # seat 0 ♣6-7-8, seat 1 ♥Q-K-A and ♦7: seat 1 chooses Undenufe and leads
    low = dealt(
        0,
        "♣6 ♣7 ♣8 ♦6 ♦8 ♦10 ♠6 ♠8 ♠10",
        "♥Q ♥K ♥A ♦7 ♦9 ♦J ♠7 ♠9 ♠J",
        "♥6 ♥8 ♥10 ♦Q ♦A ♠Q ♠A ♣10 ♣Q",
        "♥7 ♥9 ♥J ♦K ♠K ♣9 ♣J ♣K ♣A",
    )
    trick = [Play(parse_card(c)) for c in ("♦7", "♦Q", "♦K", "♦8")]
    stored_table(db, "low", rules, low, Choose(5), *trick)
    with running_server(tmp_path, db=db) as base:
        line = "#hand-info .weis-line"
        page = new_page(browser)
        page.goto(f"{base}/t/tie?seat=tok-tie-0")
        expect(page.locator(line).first).to_have_text(
            re.compile(r"^Weis: .* · ours 20 \(announced first\)$")
        )
        page.screenshot(path=artifacts() / "weis-why.png")
        other = new_page(browser, locale="de-CH")
        other.goto(f"{base}/t/tie?seat=tok-tie-1")
        expect(other.locator(line).first).to_have_text(
            re.compile(r" · für euch 20 \(zuerst gewiesen\)$")
        )
        watcher = new_page(browser, locale="fr-CH")
        watcher.goto(f"{base}/t/tie?watch=tok-tie")
        expect(watcher.locator(line).first).to_have_text(
            re.compile(r"marquées par A & C 20 \(annoncé en premier\)$")
        )
        # Undenufe: the lower top card wins, said so
        page.goto(f"{base}/t/low?seat=tok-low-0")
        expect(page.locator(line).first).to_have_text(re.compile(r" · ours 20 \(lower card\)$"))
        other.goto(f"{base}/t/low?seat=tok-low-1")
        expect(other.locator(line).first).to_have_text(
            re.compile(r" · für euch 20 \(tiefere Karte\)$")
        )
        for p in (page, other, watcher):
            assert not p.errors  # type: ignore[attr-defined]
