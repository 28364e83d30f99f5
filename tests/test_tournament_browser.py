"""Tournaments in the browser: an 8-player evening played online by four people and four
computer players over two rounds (a closed page replaced and flagged, the server killed
between two hands), and a round with real cards entered on two phones."""

from __future__ import annotations

import json
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from websockets.sync.client import connect as ws_connect

from browser_support import artifacts, new_page, take_turn
from server_support import free_port, http_json, opened, start_server, stop_server, ws_url
from tafel_support import enter_hand, hand_rows
from test_tournament_server import named_by_level, recompute, wait_for

LOCALE = Path(__file__).resolve().parent.parent / "src" / "chibre" / "locale"
LANGS = ("en", "fr", "de")

ARGS = ("--grace", "3", "--bot-delay", "0", "--deal-delay", "0.2")


def organiser_state(base: str, page: Page) -> dict[str, Any]:
    tid = page.url.split("/tournament/")[1].split("?")[0]
    key = page.url.split("key=")[1]
    status, state = http_json(base, f"/api/tournaments/{tid}?key={key}")
    assert status == 200, state
    return state


def ranking_on(page: Page) -> dict[str, int]:
    """The standings as a page shows them: each name's points."""
    page.locator("#standings tr[data-entrant]").first.wait_for()
    rows = page.eval_on_selector_all(
        "#standings tr[data-entrant]",
        "rs => rs.map(r => [...r.children].map(c => c.textContent))",
    )
    return {row[1]: int(row[3]) for row in rows}


def double_click_once(page: Page, button: str, url: str, done: Callable[[], None]) -> None:
    """Double-click ``button`` with the POSTs to ``url`` held until the first is in, and wait
    until ``done`` returns (the page has taken the answer in): the page must have sent one."""
    held: list[Route] = []
    page.route(url, lambda route: held.append(route))
    page.dblclick(button)
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(20)
    held[0].fallback()
    done()
    assert len(held) == 1, [r.request.url for r in held]
    page.unroute(url)


def play_round(pages: dict[str, Page], links: dict[str, str]) -> None:
    """Each open page is sent from its player page to its seat, plays until its table is
    over, and goes back to the player page."""
    for page in pages.values():
        page.wait_for_url(re.compile(r"/t/"), timeout=30_000)
    play_round_from_table(pages, links)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    db = tmp_path / "chibre.sqlite"
    port = free_port()
    process, base = start_server(db, *ARGS, port=port)
    holder = {"process": process, "base": base, "db": db, "port": port}
    try:
        yield holder
    finally:
        stop_server(holder["process"])


def test_an_evening_of_eight_online(browser: Browser, served: dict[str, Any]) -> None:
    base = served["base"]
    organiser = new_page(browser)
    organiser.goto(base + "/tournament")
    form = organiser.locator("#create-form")
    form.locator("input[name=name]").fill("Mardi au Café")
    form.locator("input[name=target]").fill("300")
    form.locator("input[name=rounds]").fill("2")
    # the organiser's grace: long enough for a page to find its seat after a restart (the
    # server's is 3 s), short enough to replace the player who leaves
    form.locator("input[name=grace]").fill("8")
    form.locator("select[name=first_chooser]").select_option("right_of_dealer")
    # the rules and the computer's levels by their names, not the program's
    preset = form.locator("select[name=preset] option[value='geneve-500']")
    expect(preset).to_have_text("Geneva (to 500)")
    expect(form.locator("select[name=level] option[value=rule]")).to_have_text("rule-based")
    created_at = re.compile(r"/tournament/.+\?key=")
    double_click_once(
        organiser,
        "#create-form button[type=submit]",
        "**/api/tournaments",
        lambda: organiser.wait_for_url(created_at),
    )
    expect(organiser.locator("#title")).to_have_text("Mardi au Café")
    expect(organiser.locator("#terms")).to_have_text(
        "A game to 300 at every table · a player away for 8 s is replaced by the computer"
    )
    created = organiser_state(base, organiser)
    assert created["rules"]["first_chooser"] == "right_of_dealer" and created["grace"] == 8
    join = organiser.locator("#join-link").get_attribute("href")
    assert join and "code=" in join
    add = organiser.locator("#add-form")
    for n in range(4):
        add.locator("input[name=name]").fill(f"Robot {n + 1}")
        add.locator("select[name=kind]").select_option("rule")
        add.locator("button[type=submit]").click()
        expect(organiser.locator("#entries li")).to_have_count(n + 1)
    expect(add.locator("select[name=kind] option[value=rule]")).to_have_text(
        "Computer (rule-based)"
    )
    expect(organiser.locator("#entries li").first).to_contain_text("Computer (rule-based)")

    names = ["Anna", "Bastien", "Chloé", "Dario"]
    pages: dict[str, Page] = {}
    links: dict[str, str] = {}
    for name in names:
        page = new_page(browser)
        page.goto(base + join)
        page.locator("#join-form input[name=name]").fill(name)
        entries = "**/api/tournaments/*/entries*"
        joined = partial(page.wait_for_url, re.compile("player="))
        double_click_once(page, "#join-form button[type=submit]", entries, joined)
        expect(page.locator("#you-name")).to_have_text(name)
        pages[name], links[name] = page, page.url
    expect(organiser.locator("#entries li")).to_have_count(8)

    drawn = organiser.locator(".round[data-round='1'] .table-card")
    double_click_once(
        organiser,
        "#next-round",
        "**/api/tournaments/*/rounds*",
        lambda: expect(drawn).to_have_count(2),
    )
    expect(organiser.locator("#message")).to_be_hidden()  # no refusal of a second round
    organiser.screenshot(path=str(artifacts() / "tournament-organiser.png"), full_page=True)

    # Dario closes his page as soon as he is seated: a computer takes his seat, flagged
    pages["Dario"].wait_for_url(re.compile(r"/t/"), timeout=30_000)
    pages.pop("Dario").context.close()
    expect(organiser.locator(".round[data-round='1'] .tour-seat.flagged")).to_have_count(
        1, timeout=30_000
    )

    # the server is killed between two hands of a table, and started again
    end = time.monotonic() + 120
    killed = False
    seen: dict[str, dict[str, str]] = {}
    missed: list[str] = []
    state = organiser_state(base, organiser)
    while not killed:
        if time.monotonic() > end:
            log = served["db"].with_suffix(".log").read_text(errors="replace")
            tables = state["rounds"][0]["tables"]
            pytest.fail(
                f"no table played on after a hand: tables {tables}, pages {seen}, "
                f"turns missed {missed[-3:]}, the server's log ends {log[-3000:]!r}"
            )
        for name, page in pages.items():
            data = page.evaluate("() => ({...document.getElementById('table').dataset})")
            seen[name] = data
            if data.get("myTurn") == "true" and data.get("connected") == "true":
                try:
                    take_turn(page)
                except AssertionError as e:  # the state moved on meanwhile: look again
                    missed.append(f"{name}: {e}")
        state = organiser_state(base, organiser)
        # a hand played and the game not over (a table may end in one hand: a match and weis)
        if any(t["hands"] >= 1 and not t["done"] for t in state["rounds"][0]["tables"]):
            served["process"].send_signal(signal.SIGKILL)
            served["process"].wait()
            served["process"], _ = start_server(served["db"], *ARGS, port=served["port"])
            killed = True
        time.sleep(0.05)
    before = {t["table"]: t["hands"] for t in state["rounds"][0]["tables"]}
    after = organiser_state(base, organiser)
    assert all(t["hands"] >= before[t["table"]] for t in after["rounds"][0]["tables"])
    for page in pages.values():  # the tables reconnect and the round goes on
        if "/t/" in page.url:
            page.locator("#table[data-connected='true']").wait_for(timeout=30_000)
    play_round_from_table(pages, links)
    expect(organiser.locator("#next-round")).to_be_visible(timeout=60_000)

    organiser.locator("#next-round").click()
    expect(organiser.locator(".round[data-round='2'] .table-card")).to_have_count(2)
    play_round(pages, links)
    expect(organiser.locator("#standings-title")).to_have_text("Final ranking", timeout=60_000)

    # the standings on the organiser's page and on a player's page match the records
    state = organiser_state(base, organiser)
    from_records = recompute(served["db"], state["id"])
    by_name = {e["name"]: from_records[e["id"]] for e in state["entries"]}
    assert ranking_on(organiser) == by_name
    # a player's page asks every 1.5 s: it shows the final ranking once it has asked again
    expect(pages["Anna"].locator("#standings-title")).to_have_text("Final ranking")
    assert ranking_on(pages["Anna"]) == by_name
    first = state["rounds"][0]["tables"]
    assert "Dario" in [s["name"] for t in first for s in t["seats"] if s["flagged"]]
    for page in [organiser, *pages.values()]:
        assert page.errors == []  # type: ignore[attr-defined]
    organiser.screenshot(path=str(artifacts() / "tournament-final.png"), full_page=True)


def play_round_from_table(pages: dict[str, Page], links: dict[str, str]) -> None:
    """The rest of a round whose pages are already at their tables."""
    done: set[str] = set()
    end = time.monotonic() + 240
    while len(done) < len(pages):
        assert time.monotonic() < end, f"the round did not end; done: {done}"
        for name, page in pages.items():
            if name in done:
                continue
            data = page.evaluate("() => ({...document.getElementById('table').dataset})")
            if data.get("status") == "finished":
                done.add(name)
                page.goto(links[name])
                continue
            if data.get("myTurn") == "true" and data.get("connected") == "true":
                with suppress(AssertionError):  # the state moved on meanwhile: look again
                    take_turn(page)
        time.sleep(0.05)


def test_a_round_with_real_cards_on_two_phones(browser: Browser, served: dict[str, Any]) -> None:
    base = served["base"]
    status, t = http_json(
        base,
        "/api/tournaments",
        {"name": "Cartes", "options": {"target": 300}, "rounds": 1, "real_tables": 2},
    )
    assert status == 201, t
    for n in range(8):
        status, _ = http_json(
            base, f"/api/tournaments/{t['id']}/entries?code={t['code']}", {"name": f"P{n + 1}"}
        )
        assert status == 201
    organiser = new_page(browser)
    organiser.goto(base + t["organiser"])
    organiser.locator("#next-round").click()
    cards = organiser.locator(".round[data-round='1'] .table-card")
    expect(cards).to_have_count(2)
    sheets = [
        cards.nth(i).locator("a", has_text="Score sheet").get_attribute("href") for i in (0, 1)
    ]
    assert all(s and s.startswith("/tafel#") for s in sheets)
    expect(cards.first.locator(".short-link")).to_have_text(sheets[0] or "")

    # a scorer at each table enters the hands on a phone
    for link, points in zip(sheets, (120, 60), strict=True):
        phone = new_page(browser, width=390, height=844, mobile=True)
        phone.on("dialog", lambda d: d.accept())
        phone.goto(base + str(link))
        phone.locator("#total0").wait_for()
        for hands in range(1, 6):
            enter_hand(phone, "H", chooser=0, team=0, points=points)
            expect(hand_rows(phone)).to_have_count(hands)
            time.sleep(1.1)  # the tournament sees each hand
            if organiser_state(base, organiser)["rounds"][0]["tables"][sheets.index(link)]["done"]:
                break
        assert phone.errors == []  # type: ignore[attr-defined]
        phone.context.close()
    state = organiser_state(base, organiser)
    tables = state["rounds"][0]["tables"]
    assert [tb["done"] for tb in tables] == [True, True]
    # one correction, by the organiser, with its reason
    form = organiser.locator("#correct-form")
    form.locator("input[name=round]").fill("1")
    form.locator("input[name=table]").fill("1")
    form.locator("input[name=hand]").fill("1")
    form.locator("input[name=points]").fill("130")
    form.locator("input[name=reason]").fill("a trick counted twice")
    form.locator("button[type=submit]").click()
    expect(organiser.locator("#audit li[data-who='organiser']")).to_have_count(1)
    expect(organiser.locator("#audit li[data-who='organiser']")).to_contain_text(
        "a trick counted twice"
    )
    state = organiser_state(base, organiser)
    # the ranking on a phone, in German (the longest words): what does not fit scrolls within
    # its panel, never the page nor over the page's green
    phone = new_page(browser, locale="de-CH", width=390, height=844, mobile=True)
    phone.goto(base + t["organiser"])
    expect(phone.locator("#standings tr")).to_have_count(len(state["entries"]) + 1)
    fits = """() => {
        const panel = document.getElementById('standings-box').getBoundingClientRect();
        const shown = document.getElementById('standings').parentElement.getBoundingClientRect();
        return [document.documentElement.scrollWidth - innerWidth, shown.right - panel.right];
    }"""
    page_over, table_over = phone.evaluate(fits)
    phone.locator("#standings-box").screenshot(path=artifacts() / "tournament-standings-phone.png")
    assert page_over <= 0 and table_over <= 0, (page_over, table_over)
    assert phone.errors == []  # type: ignore[attr-defined]
    phone.context.close()
    by_name = {
        e["name"]: n
        for e in state["entries"]
        for i, n in recompute(served["db"], state["id"]).items()
        if i == e["id"]
    }
    assert ranking_on(organiser) == by_name
    scorer = [a for a in state["audit"] if a["who"] == "scorer"]
    assert sorted({a["table"] for a in scorer}) == [1, 2]
    assert [a["hands"] for a in scorer if a["table"] == 1] == [
        [n] for n in range(1, len([a for a in scorer if a["table"] == 1]) + 1)
    ]
    correction = next(a for a in state["audit"] if a["who"] == "organiser")
    assert correction["before"]["points"] == 120 and correction["after"]["points"] == 130
    assert organiser.errors == []  # type: ignore[attr-defined]
    organiser.screenshot(path=str(artifacts() / "tournament-real-cards.png"), full_page=True)


def test_every_tournament_string_exists_in_french_german_and_english() -> None:
    from test_browser import STATIC

    texts = {lang: json.loads((LOCALE / f"{lang}.json").read_text()) for lang in LANGS}
    keys = {lang: set(texts[lang]) for lang in LANGS}
    assert keys["en"] == keys["fr"] == keys["de"]
    for lang in LANGS:  # the confirmation's two buttons read apart
        assert texts[lang]["cancel"].lower() not in texts[lang]["tour_call_time"].lower()
    used: set[str] = set()
    for name in ("tournament.html", "tournament.js"):
        page = (STATIC / name).read_text()
        used |= set(re.findall(r'data-i18n(?:-placeholder|-aria)?="(tour_\w+)"', page))
        used |= set(re.findall(r'\bt\(\s*"(tour_\w+)"', page))
        assert not re.search(r"https?://", page), name
    used |= {"tour_by_organiser", "tour_by_scorer", "tour_final", "tour_standings"}
    assert used <= keys["en"], f"missing strings: {used - keys['en']}"
    assert len(used) > 50


def test_a_passe_table_shows_its_commitment_and_leads_back(
    browser: Browser, served: dict[str, Any]
) -> None:
    """Four players at a Passe of two hands: the table page shows the commitment to the deals
    before the first card, the seed once the Passe is over, and the way back to the player's
    tournament page, from the side panel and from the finished-game dialog."""
    base = served["base"]
    t = http_json(
        base, "/api/tournaments", {"name": "Passe", "rounds": 1, "hands": 2, "grace": 600}
    )[1]
    for name in ("Anna", "Bastien", "Chloé", "Dario"):
        assert (
            http_json(base, f"/api/tournaments/{t['id']}/entries?code={t['code']}", {"name": name})[
                0
            ]
            == 201
        )
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    table = state["rounds"][0]["tables"][0]
    own = {p["name"]: p["link"] for p in state["players"]}
    first = new_page(browser)
    first.goto(base + table["seats"][0]["link"])
    commitment = table["deals"]["commitment"]
    expect(first.locator("#deals-box .deals-commitment")).to_contain_text(commitment)
    table_id = table["watch"].split("/t/")[1].split("?")[0]
    with opened(served["db"]) as c:  # the cards are dealt, none is played
        assert c.execute(
            "SELECT COUNT(*) FROM game_entries WHERE table_id = ? AND seat >= 0", (table_id,)
        ).fetchone() == (0,)
    expect(first.locator("#deals-box .deals-seed")).to_have_count(0)
    back = first.locator("#deals-box a.tour-back")
    expect(back).to_have_attribute("href", own[table["seats"][0]["name"]])
    expect(back).to_contain_text("Passe, round 1, table 1")
    first.screenshot(path=str(artifacts() / "tournament-table-commitment.png"), full_page=True)

    pages = [first]
    for seat in table["seats"][1:]:
        page = new_page(browser)
        page.goto(base + seat["link"])
        pages.append(page)
    end = time.monotonic() + 240
    while first.evaluate("() => document.getElementById('table').dataset.status") != "finished":
        assert time.monotonic() < end, "the Passe did not end"
        for page in pages:
            data = page.evaluate("() => ({...document.getElementById('table').dataset})")
            if data.get("myTurn") == "true" and data.get("connected") == "true":
                with suppress(AssertionError):  # the state moved on meanwhile
                    take_turn(page)
        time.sleep(0.05)
    dialog = first.locator("#over-dialog")
    expect(dialog).to_be_visible()
    expect(first.locator("#over-text")).to_contain_text("The Passe of 2 hands is over")
    expect(first.locator("#over-hand")).to_contain_text("Hand 2")
    expect(first.locator("#over-dialog")).not_to_contain_text("where the game was decided")
    expect(first.locator("#over-striche table")).to_have_count(0)  # its points count, no Striche
    sheet = first.request.get(base + (first.locator("#over-sheet").get_attribute("href") or ""))
    assert "· Passe of 2 hands</p>" in sheet.text() and "of 10000" not in sheet.text()
    assert "The Passe of 2 hands is over — " in sheet.text() and "Striche" not in sheet.text()
    expect(first.locator("#over-rematch")).to_be_hidden()  # no friendly game outside it
    done = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    played = done["rounds"][0]["tables"][0]
    assert played["done"] and played["hands"] == 2 and played["deals"]["seed"]
    expect(first.locator("#deals-box .deals-seed")).to_contain_text(played["deals"]["seed"])
    first.screenshot(path=str(artifacts() / "tournament-table-seed.png"), full_page=True)
    link = first.locator("#over-tournament")
    expect(link).to_have_attribute("href", own[table["seats"][0]["name"]])
    link.click()
    first.wait_for_url(re.compile(r"/tournament/.+\?player="))
    expect(first.locator("#you-name")).to_have_text(table["seats"][0]["name"])
    expect(first.locator("#terms")).to_contain_text("A Passe of 2 hands at every table")
    for page in pages:
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_duplicate_table_s_replay_is_shared_once_the_round_is_over(
    browser: Browser, served: dict[str, Any]
) -> None:
    """A duplicate round: the other table plays the same deals. A player whose game is over
    is told the replay is shared once the round is over; when the other table is done too,
    "Share the replay" comes by itself."""
    base = served["base"]
    body = {"name": "D", "rounds": 1, "hands": 1, "duplicate": True, "grace": 5}
    t = http_json(base, "/api/tournaments", {**body, "options": {"claim": "thank"}})[1]
    entered(base, t, *(f"P{n + 1}" for n in range(8)))
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    first, second = state["rounds"][0]["tables"]
    page = new_page(browser)
    with ExitStack() as waiting:  # the second table's players are there and never move
        for seat in second["seats"]:
            waiting.enter_context(ws_connect(ws_url(base, seat["link"])))
        page.goto(base + first["seats"][0]["link"])
        page.click("#controls [data-kind='thank']")
        page.click("#thank-yes")
        later = page.locator("#over-dialog[open] #over-share")
        expect(later).to_have_text("The replay can be shared once the round is over.")
        expect(later.locator("button")).to_have_count(0)
    # the second table's players gone, computers finish it after the grace period
    page.locator("#over-share .share-button").click(timeout=30_000)
    expect(page.locator("#over-share [role=status]")).to_have_text(
        re.compile("Link copied|Copy this link")
    )
    state = http_json(base, f"/api/tournaments/{t['id']}?code={t['code']}")[1]
    watch = state["rounds"][0]["tables"][0]["watch"]  # shown to all now the round is over
    link = page.locator("#over-share .share-url").input_value()
    assert link == f"{base}{watch}&replay=1"
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_late_answer_to_an_older_poll_is_not_drawn_over_a_newer_state(
    browser: Browser, served: dict[str, Any]
) -> None:
    """The page asks for the state every 1.5 s and again after each change: an answer to a
    poll that was asked before the change and comes after it must not undo the change."""
    base = served["base"]
    t = http_json(base, "/api/tournaments", {"name": "Polls", "rounds": 1, "grace": 600})[1]
    assert (
        http_json(base, f"/api/tournaments/{t['id']}/entries?key={t['key']}", {"name": "Anna"})[0]
        == 201
    )
    stale = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    page = new_page(browser)
    held: list[Any] = []
    hold = {"polls": False}

    def poll(route: Any) -> None:
        if route.request.method == "GET" and hold["polls"]:
            held.append(route)
        else:
            route.continue_()

    page.route(lambda url: f"/api/tournaments/{t['id']}?" in url, poll)
    page.goto(f"{base}/tournament/{t['id']}?key={t['key']}")
    entries = page.locator("#entries li")
    expect(entries).to_have_count(1)
    hold["polls"] = True
    deadline = time.monotonic() + 10
    while not held:  # a poll asked before the change, its answer held back
        assert time.monotonic() < deadline, "the page stopped asking"
        page.wait_for_timeout(100)
    hold["polls"] = False
    add = page.locator("#add-form")
    add.locator("input[name=name]").fill("Beat")
    add.locator("select[name=kind]").select_option("rule")
    add.locator("button[type=submit]").click()
    expect(entries).to_have_count(2)  # drawn from the answer asked after the change
    hold["polls"] = True  # the polls after it wait, so that none draws the newer state again
    with page.expect_response(lambda r: r.request is held[0].request) as answer:
        held[0].fulfill(status=200, content_type="application/json", body=json.dumps(stale))
    answer.value.finished()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    expect(entries).to_have_count(2)
    expect(page.locator("#entries")).to_contain_text("Beat")
    page.unroute_all(behavior="ignoreErrors")
    assert not page.errors  # type: ignore[attr-defined]


def entered(base: str, t: dict[str, Any], *names: str, kind: str = "human") -> None:
    """``names`` entered by the organiser."""
    for name in names:
        body = {"name": name, "kind": kind}
        status, _ = http_json(base, f"/api/tournaments/{t['id']}/entries?key={t['key']}", body)
        assert status == 201


def test_withdrawing_or_removing_an_entrant_is_confirmed_first(
    browser: Browser, served: dict[str, Any]
) -> None:
    """ "Retirer" and "Supprimer" ask first, in the page's language: the organiser's tap on the
    wrong line changes nothing until confirmed."""
    base = served["base"]
    t = http_json(base, "/api/tournaments", {"name": "Genève", "rounds": 2})[1]
    entered(base, t, "Aline", "Beat")
    page = new_page(browser, locale="fr-CH")
    page.goto(base + t["organiser"])
    aline = page.locator("#entries li", has_text="Aline")
    dialog = page.locator("#confirm-dialog")
    expect(aline.get_by_role("button", name="Retirer Aline", exact=True)).to_be_visible()
    aline.get_by_role("button", name="Retirer").click()
    expect(dialog).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text("Retirer Aline")
    expect(dialog.get_by_role("button", name="Annuler")).to_be_focused()  # Enter changes nothing
    page.screenshot(path=str(artifacts() / "tournament-confirm.png"))
    dialog.get_by_role("button", name="Annuler").click()
    expect(dialog).to_be_hidden()
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    assert [e["status"] for e in state["entries"]] == ["present", "present"]
    aline.get_by_role("button", name="Retirer").click()
    dialog.get_by_role("button", name="Retirer").click()
    expect(aline).to_contain_text("retiré")
    expect(aline.get_by_role("button", name="Aline revient", exact=True)).to_be_visible()
    page.locator("#entries li", has_text="Beat").get_by_role("button", name="Supprimer").click()
    expect(page.locator("#confirm-text")).to_contain_text("Supprimer l'inscription de Beat")
    dialog.get_by_role("button", name="Supprimer").click()
    expect(page.locator("#entries li")).to_have_count(1)
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    assert [(e["name"], e["status"]) for e in state["entries"]] == [("Aline", "withdrawn")]
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_keyboard_stays_on_the_entries_and_the_rounds_as_they_change(
    browser: Browser, served: dict[str, Any]
) -> None:
    """The page is drawn anew with every state: the organiser's button keeps the focus; once
    its entry is removed the focus goes to the next one, and once a round is drawn to it."""
    base = served["base"]
    t = http_json(base, "/api/tournaments", {"name": "Genève", "rounds": 2})[1]
    entered(base, t, "Aline", "Beat", "Chloé", "Dario", "Elsa")
    page = new_page(browser)
    page.goto(base + t["organiser"])
    remove = page.locator("#entries li", has_text="Beat").get_by_role("button", name="Remove")
    remove.focus()
    page.wait_for_timeout(2000)  # a poll or more, each drawing the entries anew
    expect(remove).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.wait_for_timeout(2000)
    page.keyboard.press("Escape")  # changed one's mind: back where one was
    expect(remove).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#confirm-yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#entries li")).to_have_count(4)
    chloe = page.locator("#entries li", has_text="Chloé")
    expect(chloe.get_by_role("button", name="Withdraw")).to_be_focused()
    page.locator("#next-round").focus()
    page.keyboard.press("Enter")
    heading = page.locator(".round[data-round='1'] h3")
    expect(heading).to_be_focused()
    page.wait_for_timeout(2000)
    expect(heading).to_be_focused()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_standings_say_what_breaks_ties_and_mark_who_withdrew(
    browser: Browser, served: dict[str, Any]
) -> None:
    base = served["base"]
    t = http_json(base, "/api/tournaments", {"name": "Mêlée", "rounds": 2})[1]
    entered(base, t, "Aline", "Beat")
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    beat = next(e["id"] for e in state["entries"] if e["name"] == "Beat")
    path = f"/api/tournaments/{t['id']}/entries/{beat}/withdraw?key={t['key']}"
    assert http_json(base, path, {})[0] == 200
    page = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    page.goto(base + t["join"])
    rows = page.locator("#standings tr[data-entrant]")
    expect(rows.filter(has_text="Beat").locator("td").nth(1)).to_have_text("Beat (retiré)")
    expect(rows.filter(has_text="Aline").locator("td").nth(1)).to_have_text("Aline")
    ties = page.locator("#ties")
    expect(ties).to_contain_text("la différence de points (points faits moins points encaissés)")
    expect(ties).not_to_contain_text("Buchholz")
    page.locator("#standings-box").screenshot(path=artifacts() / "tournament-ties-phone.png")
    assert page.errors == []  # type: ignore[attr-defined]

    swiss = http_json(base, "/api/tournaments", {"name": "Suisse", "format": "swiss"})[1]
    page = new_page(browser)
    page.goto(base + swiss["organiser"])
    expect(page.locator("#ties")).to_have_text(
        "Ties are broken by the Buchholz (the sum of the scores of the opponents met), then "
        "the points difference (points made minus points conceded); entrants equal on all of "
        "it share a rank."
    )
    assert page.errors == []  # type: ignore[attr-defined]


def finished_evening(base: str) -> dict[str, Any]:
    """A two-round evening of one hand a round, over: Aline, who never opens her seat (the
    computer plays it after a second), and three computer entrants."""
    body = {"name": "Genève", "rounds": 2, "hands": 1, "grace": 1, "auto": True}
    t: dict[str, Any] = http_json(base, "/api/tournaments", body)[1]
    entered(base, t, "Aline")
    entered(base, t, "Robot 1", "Robot 2", "Robot 3", kind="rule")
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    end = time.monotonic() + 120
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    while not state["finished"]:  # asked again until the second round is over
        assert time.monotonic() < end, f"the evening did not end: {state['rounds']}"
        time.sleep(0.2)
        state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    t["state"] = state
    return t


def test_the_printout_has_a_readable_title_and_the_standings_first(
    browser: Browser, served: dict[str, Any]
) -> None:
    """On paper the title is dark, the standings come before the draws, and the organiser may
    print only the standings or only the draw of the current round."""
    base = served["base"]
    t = finished_evening(base)
    page = new_page(browser, locale="fr-CH")
    page.goto(base + t["organiser"])
    expect(page.locator(".round")).to_have_count(2)
    expect(page.locator("#terms")).to_contain_text("Une Passe de 1 donne à chaque table")
    page.evaluate(  # what each print would print, and no print dialog
        """() => {
            window.printed = [];
            window.print = () => printed.push(document.body.dataset.print || "all");
        }"""
    )
    top = "(e) => e.getBoundingClientRect().top"

    page.locator("#print").click()
    page.emulate_media(media="print")
    assert page.locator("#title").evaluate("(e) => getComputedStyle(e).color") == "rgb(0, 0, 0)"
    assert page.locator("#standings-box").evaluate(top) < page.locator("#rounds").evaluate(top)
    page.screenshot(path=str(artifacts() / "tournament-print.png"), full_page=True)

    page.emulate_media(media="screen")
    page.evaluate("() => dispatchEvent(new Event('afterprint'))")
    page.get_by_role("button", name="Imprimer le classement").click()
    page.emulate_media(media="print")
    expect(page.locator("#standings-box")).to_be_visible()
    expect(page.locator("#rounds")).to_be_hidden()

    page.emulate_media(media="screen")
    page.evaluate("() => dispatchEvent(new Event('afterprint'))")
    expect(page.locator("#rounds")).to_be_visible()
    page.get_by_role("button", name="Imprimer le tirage du tour").click()
    page.emulate_media(media="print")
    expect(page.locator("#standings-box")).to_be_hidden()
    expect(page.locator(".round[data-round='2']")).to_be_visible()
    expect(page.locator(".round[data-round='1']")).to_be_hidden()
    assert page.evaluate("() => printed") == ["all", "standings", "round"]
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_organiser_has_every_player_s_own_link_to_hand_over(
    browser: Browser, served: dict[str, Any]
) -> None:
    """A player the organiser enters (or one who lost their page) gets their own link from the
    organiser's page: copied, or shown as a QR code to scan — which stays open while the page
    asks for the state again and while players are added."""
    base = served["base"]
    t = http_json(base, "/api/tournaments", {"name": "Genève", "rounds": 2})[1]
    entered(base, t, "Aline")
    entered(base, t, "Robot", kind="rule")  # a computer entrant has no page
    own = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]["players"]
    assert [p["name"] for p in own] == ["Aline"]
    page = new_page(browser, locale="fr-CH")
    page.goto(base + t["organiser"])
    box = page.locator("#players-box")
    expect(box.locator("h3")).to_have_text("Liens des joueurs")
    rows = box.locator("li")
    expect(rows).to_have_count(1)
    aline = rows.filter(has_text="Aline")
    expect(aline.locator("input")).to_have_value(base + own[0]["link"])
    aline.get_by_role("button", name="Copier").click()
    expect(aline.get_by_role("button", name="Copié")).to_be_visible()
    aline.get_by_role("button", name="QR").click()
    code = aline.locator("img.invite-qr")
    expect(code).to_be_visible()
    assert quote(base + own[0]["link"], safe="") in (code.get_attribute("src") or "")
    for _ in range(2):  # the page asks again: the code stays
        with page.expect_response(lambda r: f"/api/tournaments/{t['id']}?" in r.url):
            pass
    expect(code).to_be_visible()
    entered(base, t, "Beat")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_contain_text("Beat")
    expect(code).to_be_visible()
    box.screenshot(path=artifacts() / "tournament-players-links.png")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_player_who_closed_the_page_gets_back_to_it_from_the_join_link(
    browser: Browser, served: dict[str, Any]
) -> None:
    """Once entered, the page says the player's own link is theirs and shows it; the phone
    keeps it, and the join link opened again there leads back to it (entering again with the
    same name is refused). A link whose entry was removed is forgotten."""
    base = served["base"]
    t = http_json(base, "/api/tournaments", {"name": "Genève", "rounds": 2})[1]
    phone = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    phone.goto(base + t["join"])
    phone.locator("#join-form input[name=name]").fill("Aline")
    phone.locator("#join-form button[type=submit]").click()
    phone.wait_for_url(re.compile("player="))
    own = phone.url
    expect(phone.locator("#you-own")).to_contain_text("Ce lien est le vôtre")
    expect(phone.locator("#you-own input")).to_have_value(own)
    phone.screenshot(path=str(artifacts() / "tournament-entered-phone.png"))
    assert phone.errors == []  # type: ignore[attr-defined]

    again = phone.context.new_page()  # the tab closed, the join link scanned again
    errors: list[str] = []
    again.on("pageerror", lambda e: errors.append(str(e)))
    phone.close()
    again.goto(base + t["join"])
    known = again.locator("#known")
    expect(known).to_contain_text("Vous êtes déjà dans le tournoi sous le nom Aline")
    again.screenshot(path=str(artifacts() / "tournament-known-phone.png"))
    known.get_by_role("link", name="Ouvrir votre page").click()
    again.wait_for_url(own)
    expect(again.locator("#you-name")).to_have_text("Aline")

    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    path = f"/api/tournaments/{t['id']}/entries/{state['entries'][0]['id']}?key={t['key']}"
    assert http_json(base, path, method="DELETE")[0] == 200
    again.goto(base + t["join"])
    expect(known).to_be_hidden()
    expect(again.locator("#join-form")).to_be_visible()
    assert errors == []


def test_a_player_s_phone_names_the_partner_and_the_opponents(
    browser: Browser, served: dict[str, Any]
) -> None:
    """At a table with real cards the player has to find the others: their phone names them."""
    base = served["base"]
    body = {"name": "Genève", "rounds": 2, "real_tables": 1}
    t = http_json(base, "/api/tournaments", body)[1]
    entered(base, t, "Aline", "Bastien", "Chloé", "Dario")
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    seats = [s["name"] for s in state["rounds"][0]["tables"][0]["seats"]]
    me = seats.index("Aline")
    own = next(p["link"] for p in state["players"] if p["name"] == "Aline")
    phone = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    phone.goto(base + own)
    where = phone.locator("#you-table")
    expect(where).to_contain_text(f"Tour 1 : table 1, place {me + 1}")
    expect(where).to_contain_text(
        f"partenaire : {seats[(me + 2) % 4]} · "
        f"adversaires : {seats[(me + 1) % 4]} et {seats[(me + 3) % 4]}"
    )
    expect(where.get_by_role("link", name="Feuille de match")).to_be_visible()
    phone.screenshot(path=str(artifacts() / "tournament-company-phone.png"))
    assert phone.errors == []  # type: ignore[attr-defined]


def test_after_the_last_round_a_player_s_phone_says_so_with_their_rank(
    browser: Browser, served: dict[str, Any]
) -> None:
    """Once the evening is over the phone stops waiting for a round: it says so and gives the
    player's final rank; the standings and the last round come before the older rounds."""
    base = served["base"]
    t = finished_evening(base)
    mine = next(s for s in t["state"]["standings"] if s["name"] == "Aline")
    own = next(p["link"] for p in t["state"]["players"] if p["name"] == "Aline")
    phone = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    phone.goto(base + own)
    where = phone.locator("#you-table")
    expect(where).to_have_text(
        f"Le tournoi est terminé. Votre rang final : {mine['rank']} sur 4, {mine['score']} points."
    )
    expect(phone.locator(".round")).to_have_count(2)
    assert phone.locator(".round").evaluate_all("rs => rs.map(r => r.dataset.round)") == ["2", "1"]
    top = "(e) => e.getBoundingClientRect().top"
    assert phone.locator("#standings-box").evaluate(top) < phone.locator("#rounds").evaluate(top)
    phone.screenshot(path=str(artifacts() / "tournament-over-phone.png"), full_page=True)
    assert phone.errors == []  # type: ignore[attr-defined]


def test_an_online_table_s_call_time_and_watch_are_apart(
    browser: Browser, served: dict[str, Any]
) -> None:
    """On a phone the organiser's "Call time" and "Watch" of a table played online are a
    finger apart: a tap meant for one does not land on the other."""
    base = served["base"]
    t = http_json(base, "/api/tournaments", {"name": "Genève", "rounds": 2, "grace": 600})[1]
    entered(base, t, "Aline", "Beat", "Chloé", "Dario")
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    page = new_page(browser, width=390, height=844, mobile=True)
    page.goto(base + t["organiser"])
    card = page.locator(".round.current .table-card[data-table='1']")
    button = card.get_by_role("button", name="Call time").bounding_box()
    watch = card.get_by_role("link", name="Watch").bounding_box()
    assert button and watch and watch["x"] >= button["x"] + button["width"] + 8, (button, watch)


def test_the_organiser_calls_time_on_a_table_that_would_not_finish(
    browser: Browser, served: dict[str, Any]
) -> None:
    """At 23:30 a real-card table is still playing: the organiser calls time (asked first);
    it counts at its score with no winner, and the next round can be drawn."""
    base = served["base"]
    body = {"name": "Genève", "rounds": 2, "real_tables": 1, "options": {"target": 5000}}
    t = http_json(base, "/api/tournaments", body)[1]
    entered(base, t, "Aline", "Beat", "Chloé", "Dario")
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    page = new_page(browser, locale="fr-CH")
    page.goto(base + t["organiser"])
    card = page.locator(".round.current .table-card[data-table='1']")
    expect(card).to_contain_text("en jeu")
    expect(card.get_by_text("0 donne", exact=True)).to_be_visible()  # French: 0 is singular
    expect(page.locator("#next-round")).to_be_hidden()
    card.get_by_role("button", name="Arrêter la table").click()
    dialog = page.locator("#confirm-dialog")
    expect(page.locator("#confirm-text")).to_contain_text("La table 1 comptera au score")
    expect(dialog.get_by_role("button", name="Annuler")).to_be_focused()
    dialog.get_by_role("button", name="Annuler").click()
    expect(dialog).to_be_hidden()
    assert not http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]["round_over"]
    card.get_by_role("button", name="Arrêter la table").click()
    dialog.get_by_role("button", name="Arrêter la table").click()
    expect(card).to_contain_text("arrêtée (temps écoulé)")
    expect(card.get_by_role("button", name="Arrêter la table")).to_have_count(0)
    expect(page.locator("#next-round")).to_be_visible()
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    assert state["round_over"] and state["rounds"][0]["tables"][0]["closed"]
    assert page.errors == []  # type: ignore[attr-defined]


def scores_on(page: Page) -> dict[str, int]:
    """The standings as a page shows them: each name's score."""
    rows = page.eval_on_selector_all(
        "#standings tr[data-entrant]",
        "rs => rs.map(r => [...r.children].map(c => c.textContent))",
    )
    return {row[1]: int(row[2]) for row in rows}


def test_the_organiser_corrects_a_schneider_on_the_page(
    browser: Browser, served: dict[str, Any]
) -> None:
    """A game counted in Striche, won in a hand the scorer wrote as no Schneider: the organiser
    says Schneider on the page (the hand's points kept as entered), a refusal said in the
    page's language, and the standings move by the Schneider's two Striche. Where the rules
    count no Schneider, the form offers none."""
    base = served["base"]
    body = {"name": "Schneider", "rounds": 1, "real_tables": 1, "scoring": "striche"}
    t = http_json(base, "/api/tournaments", {**body, "options": {"target": 300}})[1]
    entered(base, t, "Aline", "Beat", "Chloé", "Dario")
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    table = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]["rounds"][0]
    seats = table["tables"][0]["seats"]
    winners = {seats[0]["name"], seats[2]["name"]}
    sheet_id, key = table["tables"][0]["sheet"].removeprefix("/tafel#").split(".", 1)
    hand = {"contract": 0, "chooser": 0, "points": 100, "team": 0}
    for said in ({}, {}, {"schneider": False}):  # 300:171, the losers between 114 and 171
        status, answer = http_json(base, f"/api/sheets/{sheet_id}/hands?key={key}", hand | said)
        assert status == 201, answer
    page = new_page(browser, locale="de-CH")
    page.goto(base + t["organiser"])
    expect(page.locator(".table-card[data-table='1']")).to_contain_text("fertig")
    names = {"Aline", "Beat", "Chloé", "Dario"}
    before = {n: 3 if n in winners else 0 for n in names}  # Bergpreis 1, Sieg 2
    expect(page.locator("#standings tr[data-entrant]")).to_have_count(4)
    assert scores_on(page) == before
    form = page.locator("#correct-form")
    schneider = form.get_by_role("combobox", name="Schneider")
    expect(schneider.locator("option")).to_have_text(
        ["Schneider wie eingetragen", "Schneider", "kein Schneider"]
    )
    form.locator("input[name=round]").fill("1")
    form.locator("input[name=table]").fill("1")
    form.locator("input[name=hand]").fill("2")  # not the hand that ends the game
    schneider.select_option("true")
    form.get_by_role("button", name="Spiel korrigieren").click()
    expect(page.locator("#message")).to_contain_text("beendet die Partie nicht")
    expect(page.locator("#audit li[data-who='organiser']")).to_have_count(0)
    form.locator("input[name=hand]").fill("3")
    form.locator("input[name=reason]").fill("Schneider vergessen")
    form.get_by_role("button", name="Spiel korrigieren").click()
    expect(page.locator("#audit li[data-who='organiser']")).to_contain_text("Schneider vergessen")
    expect(page.locator("#message")).to_be_hidden()
    after = {n: 5 if n in winners else 0 for n in names}
    expect(page.locator(f"#standings tr:has-text('{min(winners)}') td").nth(2)).to_have_text("5")
    assert scores_on(page) == after
    form.screenshot(path=artifacts() / "tournament-correct-schneider.png")
    sheet = http_json(base, f"/api/sheets/{sheet_id}?key={key}")[1]["hands"][2]
    assert sheet["points"] == 100 and sheet["team"] == 0 and sheet["schneider"] is True
    assert page.errors == []  # type: ignore[attr-defined]

    # no Schneider counted at these tables: the form does not ask for one
    options = {"target": 300, "striche": {"schneider": 0}}
    t = http_json(base, "/api/tournaments", {**body, "options": options})[1]
    entered(base, t, "Aline", "Beat", "Chloé", "Dario")
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    page.goto(base + t["organiser"])
    expect(page.locator("#correct-form")).to_be_visible()
    expect(page.locator("#correct-form select[name=schneider]")).to_be_hidden()
    expect(page.locator("#correct-form select[name=team]")).to_be_visible()


def test_a_tournament_table_s_computers_are_named_by_their_level_on_the_pages(
    browser: Browser, served: dict[str, Any]
) -> None:
    """The computers that fill a tournament's tables are named by the level, numbered by seat
    where two share it — as at any table: on the tournament's page (German), the player's page,
    a spectator's table plates and team lines, and the replay (French). A computer entrant
    keeps its own name, and the entries still say its level ("Computer (mittel)")."""
    base = served["base"]
    # the grace keeps Anna's table playing while her page is read (her seat waits for her)
    body = {"format": "evening", "rounds": 1, "level": "medium", "hands": 2, "grace": 20}
    t = http_json(base, "/api/tournaments", body)[1]
    entered(base, t, "Anna", "Köbi")
    entered(base, t, "Bot1", "Beat", kind="medium")
    entered(base, t, "Robi", kind="rule")
    assert http_json(base, f"/api/tournaments/{t['id']}/rounds?key={t['key']}", {})[0] == 201
    state = http_json(base, f"/api/tournaments/{t['id']}?key={t['key']}")[1]
    tables = state["rounds"][0]["tables"]

    # Anna's page sends her to her seat, and names her table's company once she is back
    anna = next(table for table in tables if "Anna" in [s["name"] for s in table["seats"]])
    me = next(s["seat"] for s in anna["seats"] if s["name"] == "Anna")
    own = next(p["link"] for p in state["players"] if p["name"] == "Anna")
    phone = new_page(browser, locale="fr-CH", width=390, height=844, mobile=True)
    phone.goto(base + own)
    phone.wait_for_url(re.compile(r"/t/"))
    phone.goto(base + own)
    names = named_by_level(anna["seats"], "fr")
    expect(phone.locator("#you-table")).to_contain_text(
        f"partenaire : {names[(me + 2) % 4]} · "
        f"adversaires : {names[(me + 1) % 4]} et {names[(me + 3) % 4]}"
    )

    organiser = new_page(browser, locale="de-CH")
    organiser.goto(f"{base}/tournament/{t['id']}?key={t['key']}")
    for table in tables:
        card = organiser.locator(f".round[data-round='1'] [data-table='{table['table']}']")
        names = named_by_level(table["seats"], "de")
        expect(card.locator(".tour-seat")).to_have_text([names[s] for s in (0, 2, 1, 3)])
    expect(organiser.locator("#entries")).to_contain_text("Bot1 — Computer (mittel)")
    organiser.screenshot(path=str(artifacts() / "tournament-computers-by-level.png"))

    # a spectator of the table with two of them, at the table and in its replay
    two = next(table for table in tables if sum(s["filler"] for s in table["seats"]) > 1)
    names = named_by_level(two["seats"], "fr")
    assert sum("moyen (" in n for n in names) >= 2, names
    watcher = new_page(browser, locale="fr-CH")
    watcher.goto(base + two["watch"])
    watcher.locator("#table[data-spectator='true']").wait_for()
    plates = [watcher.locator(f"#seat-{p} .name") for p in ("bottom", "right", "top", "left")]
    for plate, name in zip(plates, names, strict=True):
        expect(plate).to_have_text(name)
    teams = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    expect(watcher.locator("#score .team")).to_have_text(teams)
    wait_for(base, t, "finished")
    watcher.goto(base + two["watch"] + "&replay=1")
    watcher.locator("#replay:not([hidden])").wait_for()
    for pos, name in zip(("bottom", "right", "top", "left"), names, strict=True):
        expect(watcher.locator(f"#rp-{pos} .name")).to_have_text(name)
    expect(watcher.locator("#replay")).not_to_contain_text("Computer")
    for page in (organiser, phone, watcher):
        assert page.errors == []  # type: ignore[attr-defined]
