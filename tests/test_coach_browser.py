"""The coach in a real browser against a real server: a finished game reviewed from the end
dialog, its progress shown, then the verdicts beside the moves of the replay."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from browser_support import artifacts, new_page, take_turn, wait_my_turn_or
from server_support import create_table, http_json, running_server
from test_table_browser import play_until

VERDICTS = {"✓", "?!", "?", "??"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("coach")) as base_url:
        yield base_url


def test_a_finished_game_is_reviewed_and_the_verdicts_appear_on_the_replay(
    browser: Browser, server: str
) -> None:
    # no weis: a weis of 100 could end the game at the first trick, before any choice
    made = create_table(server, options={"target": 100, "weis": False})
    link = made["seats"][0]["link"]
    page = new_page(browser)
    page.goto(server + link)
    page.locator("#hand .card").first.wait_for()
    table, _, token = link.removeprefix("/t/").partition("?seat=")
    status, early = http_json(server, f"/api/tables/{table}/review?token={token}", {})
    assert status == 403 and early["error"]  # not before the game is over
    play_until(page, "t.dataset.status === 'finished'")
    page.locator("#over-dialog[open]").wait_for()
    page.click("#over-review")
    page.locator("#replay").wait_for()
    page.wait_for_function(
        "() => /Reviewing… \\d+\\/(\\d+|…)/.test(document.getElementById('rp-review').textContent)",
        polling=100,
    )
    page.wait_for_function(
        "() => document.getElementById('replay').dataset.reviewed === '1'",
        timeout=120_000,
        polling=100,
    )
    assert page.locator("#rp-review").inner_text() == "Review done"
    seen = []
    for _ in range(80):
        lines = page.locator("#rp-coach .coach-line")
        if lines.count():
            verdict = lines.first.get_attribute("data-verdict")
            seen.append(verdict)
            if page.locator("#rp-trick .slot[data-verdict]").count():
                marked = page.locator("#rp-trick .slot[data-verdict]").first
                assert marked.get_attribute("data-verdict") == verdict
                assert page.locator("#rp-graph svg circle").count() >= 1
                break
        page.click("#rp-next")
    assert seen and set(seen) <= VERDICTS
    page.screenshot(path=str(artifacts() / "coach-replay.png"))
    status, done = http_json(server, f"/api/tables/{table}/review?token={token}")
    assert status == 200 and done["status"] == "done"
    assessments = done["review"]["assessments"]
    assert assessments and {a["seat"] for a in assessments} == {0}
    assert all(a["verdict"] in VERDICTS and a["text"] for a in assessments)
    assert not page.errors  # type: ignore[attr-defined]


def test_a_past_game_opened_from_the_lobby_is_reviewed_and_its_review_kept(
    browser: Browser, server: str
) -> None:
    """The lobby's "Replay" opens a past game straight in the replay, without the end dialog:
    the replay's bar offers the review; opened again, the review made is shown at once, and
    its lines follow the page's language and deck."""
    made = create_table(server, options={"target": 250, "weis": False})
    link = made["seats"][0]["link"]
    table, _, token = link.removeprefix("/t/").partition("?seat=")
    player = new_page(browser)
    player.goto(server + link)
    player.locator("#hand .card").first.wait_for()
    play_until(player, "t.dataset.status === 'finished'")
    player.close()
    page = new_page(browser)
    page.goto(server + link + "&replay=1")  # as "Replay" in the lobby's list opens it
    page.locator("#replay:not([hidden])").wait_for()
    button = page.locator("#rp-review-btn")
    expect(button).to_be_visible()
    assert button.inner_text() == "Review this game"
    button.click()
    expect(button).to_be_hidden()
    page.wait_for_function(
        "() => document.getElementById('replay').dataset.reviewed === '1'",
        timeout=120_000,
        polling=100,
    )
    assert page.locator("#rp-review").inner_text() == "Review done"
    # the review in figures, and its biggest mistakes, each a way to its move
    status, body = http_json(server, f"/api/tables/{table}/review?token={token}")
    (summary,) = body["review"]["summaries"]
    said = page.locator("#rp-summary p").first.inner_text()
    assert said.startswith(f"You: {summary['decisions']} decisions, "), said
    shown = int(100 * summary["accuracy"] + 0.5)  # as the page rounds (a half up)
    assert f"accuracy {shown}%" in said
    mistakes = page.locator("#rp-summary .rp-mistakes button")
    expect(mistakes).to_have_count(len(summary["biggest"]))
    if summary["biggest"]:
        worst = next(
            a for a in body["review"]["assessments"] if a["entry"] == summary["biggest"][0]
        )
        mistakes.first.click()
        expect(page.locator("#rp-coach .coach-line").first).to_have_text(worst["text"])
    page.screenshot(path=str(artifacts() / "coach-summary.png"))
    page.close()
    again = new_page(browser)
    again.goto(server + link + "&replay=1")
    again.wait_for_function(  # shown without asking
        "() => document.getElementById('replay').dataset.reviewed === '1'", polling=100
    )
    expect(again.locator("#rp-review-btn")).to_be_hidden()
    assert again.locator("#rp-review").inner_text() == "Review done"
    for _ in range(80):  # to a move with a verdict
        if again.locator("#rp-coach .coach-line").count():
            break
        again.click("#rp-next")
    line = again.locator("#rp-coach .coach-line").first
    english = line.inner_text()
    said: dict[str, set[str]] = {}
    for lang, deck in (("de", "french"), ("de", "swiss")):
        status, body = http_json(
            server, f"/api/tables/{table}/review?token={token}&lang={lang}&deck={deck}"
        )
        assert status == 200, body
        said[deck] = {a["text"] for a in body["review"]["assessments"]}
    assert said["swiss"] != said["french"]  # the cards are named in the deck asked for
    again.select_option("#lang-select", "de")
    expect(again.locator("#rp-review")).to_have_text("Analyse fertig")
    again.wait_for_function(
        "texts => texts.includes(document.querySelector('#rp-coach .coach-line').textContent)",
        arg=sorted(said["french"]),
        polling=100,
    )
    assert line.inner_text() != english
    again.click("button[data-deck='swiss']")
    again.wait_for_function(
        "texts => texts.includes(document.querySelector('#rp-coach .coach-line').textContent)",
        arg=sorted(said["swiss"]),
        polling=100,
    )
    assert not again.errors  # type: ignore[attr-defined]


def test_a_review_is_refused_to_a_link_that_does_not_open_the_table(server: str) -> None:
    made = create_table(server, options={"target": 100})
    table = made["table"]
    status, answer = http_json(server, f"/api/tables/{table}/review?token=nope", {})
    assert status == 403 and answer["error"]
    status, answer = http_json(server, "/api/tables/nosuch/review?token=nope")
    assert status == 404 and answer["error"]


def hints_table(server: str, hints: bool = True) -> dict:
    status, made = http_json(
        server,
        "/api/tables",
        {"preset": "romand", "seats": ["human", "rule", "rule", "rule"], "hints": hints},
    )
    assert status == 200, made
    return made


def test_a_hint_at_a_table_with_hints_on_shows_a_legal_card(browser: Browser, server: str) -> None:
    made = hints_table(server)
    page = new_page(browser)
    page.goto(server + made["seats"][0]["link"])
    watcher = new_page(browser)
    watcher.goto(server + made["watch"])
    watcher.locator("#hint-row").wait_for()  # every seat, and the spectators, see it is on
    assert not watcher.locator("#hint-btn").is_visible()
    page.locator("#hand .card").first.wait_for()
    for _ in range(12):
        wait_my_turn_or(page, "false")
        if page.locator("#controls .btn-contract").count():
            take_turn(page)  # a contract to name first: the hint test is about a card
            continue
        page.locator("#hand .card.legal").first.wait_for()
        page.click("#hint-btn")
        page.wait_for_function(
            "() => document.getElementById('hint-text').dataset.best", polling=100
        )
        best = page.locator("#hint-text").get_attribute("data-best")
        legal = page.locator("#hand .card.legal").evaluate_all("bs => bs.map(b => b.dataset.card)")
        assert best in legal, (best, legal)
        assert page.locator("#hand .card.hinted").get_attribute("data-card") == best
        assert page.locator("#hint-text").inner_text().startswith("Hint: ")
        page.screenshot(path=str(artifacts() / "coach-hint.png"))
        break
    else:
        raise AssertionError("never a card to play")
    assert not page.errors  # type: ignore[attr-defined]


def test_hints_are_refused_where_they_are_off_and_out_of_turn(server: str) -> None:
    off = hints_table(server, hints=False)
    table, _, token = off["seats"][0]["link"].removeprefix("/t/").partition("?seat=")
    status, answer = http_json(server, f"/api/tables/{table}/hint?token={token}")
    assert status == 403 and answer["error"] == "Hints are off at this table"
    on = hints_table(server)
    table, _, _ = on["seats"][0]["link"].removeprefix("/t/").partition("?seat=")
    watch = on["watch"].partition("?watch=")[2]
    status, answer = http_json(server, f"/api/tables/{table}/hint?token={watch}")
    assert status == 403 and answer["error"]


def test_the_advice_page_from_the_calculator_names_the_card(browser: Browser, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/tafel")
    page.click("#advise-link")
    page.wait_for_url("**/advise")
    # the seats named from the player's, as at the table; an example hand in the page's words
    expect(page.locator("#dealer option")).to_have_text(
        ["Left (you choose the trump)", "You", "Right", "Partner"]
    )  # once the page has its words
    expect(page.locator("#hand")).to_have_attribute("placeholder", "♥J ♥9 ♥A ♠A ♣K ♦7 …")
    page.fill("#hand", "HJ H9 HA HK H10 H8 SA CA DA")
    page.click("#ask")
    page.locator("#advice:not([hidden])").wait_for()
    assert page.locator("#advice-best").text_content() == "The coach advises: trump hearts"
    assert "makes match" in page.locator("#advice-reason").inner_text()
    page.select_option("#trump", "1")
    page.fill("#played", "HJ H6 H7 HQ")
    page.click("#ask")
    page.wait_for_function(  # a card now: every one takes all the tricks left, so any is best
        "() => /^[DHSC](?:[6-9]|10|[JQKA])$/.test(document.getElementById('advice').dataset.best)",
        polling=100,
    )
    best = page.locator("#advice").get_attribute("data-best") or ""
    said = "trump pull" if best.startswith("H") else "highest card left of its suit"
    assert said in page.locator("#advice-reason").inner_text()
    assert page.locator("#advice-options tr").count() == 8
    page.fill("#played", "HJ H6")
    page.click("#ask")
    page.locator("#advice-error:not([hidden])").wait_for()
    assert "your partner plays, not you" in page.locator("#advice-error").inner_text()
    page.select_option("#trump", "")
    page.fill("#played", "")
    page.check("#chibred")
    page.click("#ask")
    page.wait_for_function(
        "() => document.getElementById('advice-error').textContent.includes('partner named')",
        polling=100,
    )
    assert page.evaluate("document.activeElement.id") == "trump"  # the field at fault
    page.screenshot(path=str(artifacts() / "coach-advice.png"))
    # without a connection: said, and no earlier answer left standing as if it were this one
    page.uncheck("#chibred")
    page.click("#ask")
    page.locator("#advice:not([hidden])").wait_for()
    page.context.set_offline(True)
    page.click("#ask")
    page.wait_for_function(
        "() => document.getElementById('advice-error').textContent.includes('No connection')",
        polling=100,
    )
    assert page.locator("#advice").is_hidden()
    page.context.set_offline(False)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_advice_route_refuses_bad_input_with_its_field(server: str) -> None:
    status, answer = http_json(server, "/api/advice", {"hand": "HJ H9 XX"})
    assert status == 400 and answer["field"] == "hand"
    assert answer["error"] == "cannot read the card “XX”"
    status, answer = http_json(server, "/api/advice", {"hand": "HJ H9 HJ"})
    assert status == 400 and answer["error"] == "the card “HJ” is given twice"
    for lang, said in (("fr", "impossible de lire la carte «\u00a0Q7\u00a0»"), ("de", "„Q7“")):
        request = urllib.request.Request(
            server + "/api/advice",
            data=json.dumps({"hand": "HJ H9", "played": "H6 Q7"}).encode(),
            headers={"Content-Type": "application/json", "Accept-Language": lang},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        answer = json.loads(refused.value.read())
        assert answer["field"] == "played" and said in answer["error"]
    status, answer = http_json(server, "/api/advice", {"hand": "HJ H9", "dealer": 3})
    assert status == 400 and "9 cards" in answer["error"] and answer["field"] == "hand"
    nine = "HJ H9 HA HK H10 H8 SA CA DA"
    status, answer = http_json(server, "/api/advice", {"hand": nine, "played": "S6"})
    assert status == 400 and answer["field"] == "trump"  # cards played, no trump named
    status, answer = http_json(server, "/api/advice", {"hand": "HJ", "dealer": 7})
    assert status == 400 and answer["field"] == "dealer"
    request = urllib.request.Request(  # you dealt: the seat on your right names the trump
        server + "/api/advice",
        data=json.dumps({"hand": nine, "dealer": 0}).encode(),
        headers={"Content-Type": "application/json", "Accept-Language": "fr"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    answer = json.loads(refused.value.read())
    assert answer == {
        "error": "le joueur à votre droite choisit l’atout\u00a0: dites lequel", "field": "dealer"
    }, answer  # fmt: skip
