"""Score sheets kept in SQLite and served over HTTP by a real ``chibre serve`` on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import sqlite3
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from chibre.rules import Rules
from chibre.scoresheet import InvalidEntry, ScoreSheet
from chibre.server.sheets import (
    MAX_BODY,
    NoSuchSheet,
    SheetKey,
    SheetStore,
    WrongKey,
    hand_number,
    parse_scores,
    parse_striche,
)
from server_support import running_server

# --- the store -------------------------------------------------------------------------------


def test_store_keeps_lists_changes_and_deletes(tmp_path):
    db = tmp_path / "chibre.sqlite3"
    store = SheetStore(db)
    sheet = ScoreSheet(Rules.preset("schieber-2500"), name="Freitag", teams=("Wir", "Ihr"))
    sheet.add({"contract": "O", "points": 100})
    first = store.create(sheet)
    second = store.create(ScoreSheet(name="other"))
    assert store.load(*first).to_dict() == sheet.to_dict()
    listed = {s["id"]: s for s in store.summaries([first, second])}
    assert listed[first.id]["totals"] == [300, 171]
    assert listed[first.id]["teams"] == ["Wir", "Ihr"]
    assert listed[first.id]["hands"] == 1 and listed[second.id]["hands"] == 0
    store.change(*first, lambda s: s.delete(1))
    assert store.load(*first).totals == (0, 0)
    assert store.summaries([second, first])[0]["id"] == first.id  # the latest change first
    store.delete(*second)
    with pytest.raises(NoSuchSheet):
        store.load(*second)
    with pytest.raises(NoSuchSheet):
        store.delete(*second)
    # a new store on the same file sees everything (nothing is kept in memory only)
    assert SheetStore(db).load(*first).name == "Freitag"


def test_the_store_makes_its_folder_on_a_first_start(tmp_path):
    db = tmp_path / "new" / "data" / "chibre.sqlite"
    store = SheetStore(db)
    assert db.parent.is_dir() and not db.exists()  # the file is opened when first used
    store.create(ScoreSheet())
    assert db.is_file()


def test_a_sheet_opens_only_with_its_key(tmp_path):
    store = SheetStore(tmp_path / "s.sqlite3")
    mine, theirs = store.create(ScoreSheet(name="mine")), store.create(ScoreSheet(name="theirs"))
    assert mine.id != theirs.id and mine.key != theirs.key and len(mine.key) >= 16
    assert mine.link == f"/tafel#{mine.id}.{mine.key}"
    for key in (theirs.key, "", None, mine.key[:-1], mine.key + "x", "é"):
        with pytest.raises(WrongKey, match="does not open"):
            store.load(mine.id, key)
        with pytest.raises(WrongKey):
            store.change(mine.id, key, lambda s: s.add({"contract": "H", "points": 1}))
        with pytest.raises(WrongKey):
            store.delete(mine.id, key)
    assert store.load(*mine).hands == ()  # nothing was changed or deleted
    # only the sheets whose key is given are listed
    assert [s["name"] for s in store.summaries([mine])] == ["mine"]
    assert store.summaries([SheetKey(theirs.id, mine.key), SheetKey("nope", "x")]) == []
    assert store.summaries([]) == []


def test_a_file_from_before_keys_gets_the_column_and_its_sheets_stay_closed(tmp_path):
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE score_sheets (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
        "created REAL NOT NULL, updated REAL NOT NULL, sheet TEXT NOT NULL)"
    )
    con.execute("INSERT INTO score_sheets VALUES ('old', '', 0, 0, ?)", (ScoreSheet().to_json(),))
    con.commit()
    con.close()
    store = SheetStore(db)
    with pytest.raises(WrongKey):
        store.load("old", "")
    assert store.load(*store.create(ScoreSheet(name="new"))).name == "new"


def test_a_refused_change_stores_nothing(tmp_path):
    store = SheetStore(tmp_path / "s.sqlite3")
    opened = store.create(ScoreSheet())
    store.change(*opened, lambda s: s.add({"contract": "H", "points": 90}))
    before = store.load(*opened).to_json()
    with pytest.raises(InvalidEntry, match="from 0 to 157"):
        store.change(*opened, lambda s: s.add({"contract": "H", "points": 190}))

    def half_done(s: ScoreSheet) -> None:
        s.add({"contract": "H", "points": 1})
        raise InvalidEntry("stop")

    with pytest.raises(InvalidEntry):
        store.change(*opened, half_done)
    assert store.load(*opened).to_json() == before


def test_same_file_as_the_tables_in_wal_mode(tmp_path):
    from chibre.server.store import Store

    db = tmp_path / "chibre.sqlite3"
    tables = Store(db)
    store = SheetStore(db)
    store.create(ScoreSheet())
    con = sqlite3.connect(db)
    try:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"score_sheets", "game_tables", "game_entries"} <= names
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()
        tables.close()


# --- what a URL may ask for ------------------------------------------------------------------


def test_slate_numbers_are_bounded():
    assert parse_scores("98, 59,-20", "team0") == [98, 59, -20]
    assert parse_scores("", "team0") == []
    assert parse_scores("0000000000020,-0007", "team0") == [20, -7]
    assert parse_scores(",".join(["100000"] * 500), "t") == [100_000] * 500
    for text, message in [
        ("100001", "at most 100000 points"),
        ("-100001", "at most 100000 points"),
        ("100000000", "at most 100000 points"),
        ("9" * 5000, "at most 100000 points"),
        (",".join(["1"] * 501), "at most 500 hands"),
        ("²", "whole numbers"),
        ("١٢", "whole numbers"),  # digits, but not the ones a URL of scores is written in
        ("1_000", "whole numbers"),
        ("1e3", "whole numbers"),
    ]:
        with pytest.raises(InvalidEntry, match=message):
            parse_scores(text, "t")
    assert parse_striche("sieg:2,match:99,schneider:00001", "s") == {
        "sieg": 2, "match": 99, "schneider": 1}  # fmt: skip
    for text, message in [
        ("sieg:100", "at most 99 Striche"),
        ("sieg:3000000", "at most 99 Striche"),
        ("sieg:" + "9" * 5000, "at most 99 Striche"),
        ("sieg:²", "kind:count"),
        ("sieg:-1", "kind:count"),
        ("sieg:", "kind:count"),
        ("win:3", "kind:count"),
    ]:
        with pytest.raises(InvalidEntry, match=message):
            parse_striche(text, "s")
    assert hand_number("12") == 12
    for text in ("²", "١", "", "-1", "1.0", "9" * 5000):
        with pytest.raises(InvalidEntry, match="no hand"):
            hand_number(text)


# --- over HTTP -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("sheets")) as base:
        yield base


def call(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            raw = r.read().decode()
            kind = r.headers.get("Content-Type", "")
            return r.status, json.loads(raw) if "json" in kind else raw
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode())


def test_a_sheet_over_http(server):
    status, view = call(server, "POST", "/api/sheets",
                        {"name": "Jeudi", "teams": ["Nous", "Eux"], "preset": "romand",
                         "rules": {"multipliers": "french"}})  # fmt: skip
    assert status == 201
    sid, key = view["id"], view["key"]
    assert view["link"] == f"/tafel#{sid}.{key}"
    assert view["rules"]["multipliers"] == "french" and view["teams"] == ["Nous", "Eux"]
    at = f"/api/sheets/{sid}"
    hand = {"contract": "S", "points": 98, "weis": [[50], []], "stoeck": 0}
    status, view = call(server, "POST", f"{at}/hands?key={key}", hand)
    assert status == 201 and view["totals"] == [336, 118]
    assert view["hands"][0]["blocks"]["weis"] == [100, 0]
    assert "<svg" in view["svg"]
    status, view = call(server, "POST", f"{at}/hands?key={key}", {"contract": "H", "match": 1})
    assert view["totals"] == [336, 375]
    # bad input: 400 with the message, nothing stored
    for bad, message in [
        ({"contract": "H", "points": 158}, "points: at most 157, not 158"),
        ({"contract": "H", "points": 10, "team": 2}, "team: "),
        ({"contract": "H", "points": 10, "weis": [["x" * 200], []]}, "weis[0][0]: at most 120"),
        ({"contract": "H", "points": 10, "comment": "x"}, "comment: unknown field"),
        ({"contract": "O", "points": 10, "stoeck": 1}, "no stöck in Obenabe"),
        ({"contract": "H", "points": 10, "weis": [[20], [20]]}, "only one team scores weis"),
        ({"contract": "Z", "points": 10}, "unknown contract"),
    ]:
        status, answer = call(server, "POST", f"{at}/hands?key={key}", bad)
        assert status == 400 and message in answer["error"]
    status, answer = call(server, "PUT", f"{at}/hands/9?key={key}", {"contract": "H", "points": 1})
    assert status == 400 and "no hand 9" in answer["error"]
    # hand numbers in other digits than 0-9 are no hand numbers (not a server error)
    for n in ("%C2%B2", "%D9%A1", "-1", "1.0"):
        status, answer = call(server, "DELETE", f"{at}/hands/{n}?key={key}")
        assert status == 400 and "no hand" in answer["error"], (n, answer)
    assert call(server, "GET", f"{at}?key={key}")[1]["totals"] == [336, 375]
    # correct hand 1 and strike hand 2
    status, view = call(server, "PUT", f"{at}/hands/1?key={key}", {"contract": "S", "points": 100})
    assert status == 200 and view["totals"] == [200, 371]
    status, view = call(server, "DELETE", f"{at}/hands/2?key={key}")
    assert view["totals"] == [200, 114] and len(view["hands"]) == 1
    status, view = call(server, "PATCH", f"{at}?key={key}", {"name": "Vendredi"})
    assert view["name"] == "Vendredi"
    # export (without the key), import as a new sheet with a key of its own, list, delete
    status, exported = call(server, "GET", f"{at}/export?key={key}")
    assert status == 200 and exported["format"] == "chibre-scoresheet"
    assert key not in json.dumps(exported)
    status, imported = call(server, "POST", "/api/sheets/import", exported)
    assert status == 201 and imported["id"] != sid and imported["totals"] == [200, 114]
    assert imported["key"] != key
    mine = f"{sid}.{key},{imported['id']}.{imported['key']}"
    listed = call(server, "GET", f"/api/sheets?mine={mine}")[1]["sheets"]
    assert {s["id"] for s in listed} == {sid, imported["id"]}
    assert call(server, "DELETE", f"/api/sheets/{imported['id']}?key={key}")[0] == 403
    assert call(server, "DELETE", f"/api/sheets/{imported['id']}?key={imported['key']}")[0] == 200
    assert call(server, "GET", f"/api/sheets/{imported['id']}?key={imported['key']}")[0] == 404
    listed = call(server, "GET", f"/api/sheets?mine={mine}")[1]["sheets"]
    assert [s["id"] for s in listed] == [sid]
    status, answer = call(server, "POST", "/api/sheets/import", {"format": "nope"})
    assert status == 400 and "not a score sheet" in answer["error"]
    status, svg = call(server, "GET", f"{at}/tafel.svg?key={key}&lang=fr")
    assert status == 200 and "Contre-match" in svg


def test_the_rules_refusals_are_said_in_the_page_s_language(server):
    made = {"name": "Jass", "teams": ["Nous", "Eux"], "rules": {"target": 200}}
    status, view = call(server, "POST", "/api/sheets", made)
    assert status == 201
    sheet = f"/api/sheets/{view['id']}?key={view['key']}"
    at = f"/api/sheets/{view['id']}/hands?key={view['key']}"
    early = {"contract": "H", "points": 100, "schneider": True}
    for lang, said in [
        ("de", "Spiel 1 beendet die Partie nicht: Schneider wird nur beim Spiel gesagt"),
        ("fr", "la donne 1 ne termine pas la partie\u00a0: le Schneider ne se dit que"),
        ("en", "hand 1 does not end the game: the Schneider is said only"),
    ]:
        status, answer = call(server, "POST", f"{at}&lang={lang}", early)
        assert status == 400 and answer["error"].startswith(said), answer
    status, view = call(server, "POST", at, {"contract": "S", "match": 0})
    assert status == 201 and view["totals"][0] >= 200
    status, answer = call(server, "POST", f"{at}&lang=fr", {"contract": "H", "points": 1})
    assert status == 400 and answer["error"] == (
        "la partie est finie\u00a0: l’équipe Nous a gagné à la donne 1"
    ), answer
    assert len(call(server, "GET", sheet)[1]["hands"]) == 1  # nothing written


QUESTIONS = [
    # both past half of 300 with the tricks of hand 2 (160 : 154)
    (
        {"target": 300},
        [{"contract": "D", "points": 80}, {"contract": "D", "points": 80}],
        "berg_first",
        1,
        {
            "en": "both teams reach half the target (150) in hand 2: say which team got there "
            "first",
            "de": "im Spiel 2 erreichen beide Teams den halben Zielwert (150): gib an, welches "
            "Team ihn zuerst erreicht hat",
            "fr": "les deux équipes atteignent la moitié du but (150) à la donne 2\u00a0: dites "
            "laquelle y est arrivée la première",
        },
    ),
    # 240 : 274, then A needs 60 and B 26: both go out with the tricks of hand 3
    (
        {"target": 300},
        [
            {"contract": "D", "points": 140, "weis": [[100], []]},
            {"contract": "D", "points": 0, "weis": [[], [100]]},
            {"contract": "D", "points": 100},
        ],
        "first_out",
        1,
        {
            "en": "both teams reach the target (300) in hand 3: say which team got there first",
            "de": "im Spiel 3 erreichen beide Teams das Ziel (300): gib an, welches Team es "
            "zuerst erreicht hat",
            "fr": "les deux équipes atteignent le but (300) à la donne 3\u00a0: dites laquelle y "
            "est arrivée la première",
        },
    ),
    # RULES.md §8: 495 : 744, B goes out in hand 4 while A makes 228 of it (half: 560)
    (
        {"target": 1119, "multipliers": "current"},
        [
            {"contract": "U", "points": 60, "team": 0},
            {"contract": "S", "points": 100, "team": 0},
            {"contract": "D", "points": 55, "team": 0, "weis": [[], [100, 20, 20]]},
            {"contract": "U", "points": 57, "team": 0},
        ],
        "schneider",
        True,
        {
            "en": "hand 4 ends the game, and the sheet cannot tell whether the losers had "
            "reached half the target (560) at that moment (they had between 495 and 723): say "
            "whether it is Schneider",
            "de": "Spiel 4 beendet die Partie, und das Jassblatt kann nicht sagen, ob die "
            "Verlierer in dem Moment den halben Zielwert (560) erreicht hatten (sie hatten "
            "zwischen 495 und 723): gib an, ob es Schneider ist",
            "fr": "la donne 4 termine la partie, et la feuille ne peut pas dire si les perdants "
            "avaient atteint la moitié du but (560) à ce moment (ils avaient entre 495 et "
            "723)\u00a0: dites si c’est Schneider",
        },
    ),
]


@pytest.mark.parametrize(("rules", "hands", "field", "answer", "said"), QUESTIONS)
def test_the_sheet_asks_what_it_cannot_tell_naming_the_field(
    server, rules, hands, field, answer, said
):
    """A moment the blocks do not tell is asked in the reader's language, with the hand's
    field that says it; the hand sent again with that field is written."""
    status, view = call(server, "POST", "/api/sheets", {"name": "Frage", "rules": rules})
    assert status == 201
    at = f"/api/sheets/{view['id']}/hands?key={view['key']}"
    *before, last = hands
    for hand in before:
        assert call(server, "POST", at, hand)[0] == 201
    for lang, question in said.items():
        status, refused = call(server, "POST", f"{at}&lang={lang}", last)
        assert (status, refused) == (400, {"error": question, "field": field}), lang
    status, view = call(server, "POST", f"{at}&lang=fr", {**last, field: answer})
    assert status == 201 and len(view["hands"]) == len(hands), view
    assert view["hands"][-1][field] == answer


NB = "\u00a0"
# every refusal of a hand that the Jasstafel page can meet through its own controls:
# (rules, hands written before, the hand, the field named, said unasked (English) / de / fr)
REFUSALS = [
    (
        {},
        [],
        {"contract": "H", "points": 10, "double": True},
        "double",
        (
            "only ♠ can be played double, and only with pique double by choice",
            "nur ♠ kann doppelt gespielt werden, und nur wo Pik doppelt gewählt wird",
            "seul le ♠ peut se jouer double, et seulement là où le pique double se choisit",
        ),
    ),
    (
        {},
        [],
        {"contract": "H"},
        "points",
        (
            "enter the trick points of one team, or the team that made match",
            "gib die Stichpunkte eines Teams an oder das Team, das den Match gemacht hat",
            "donnez les points des plis d’une équipe, ou l’équipe qui a fait match",
        ),
    ),
    (
        {"stoeck": False},
        [],
        {"contract": "H", "points": 10, "stoeck": 0},
        "stoeck",
        (
            "stöck are off at this table",
            "an diesem Tisch zählen keine Stöck",
            "les stöck ne comptent pas à cette table",
        ),
    ),
    (
        {},
        [],
        {"contract": "O", "points": 10, "stoeck": 1},
        "stoeck",
        (
            "there are no stöck in Obenabe or Undenufe",
            "im Obenabe und Undenufe gibt es keine Stöck",
            "il n’y a pas de stöck en Obenabe ni en Undenufe",
        ),
    ),
    (
        {"big_sequences": False},
        [],
        {"contract": "H", "points": 10, "weis": [[], [20, 250]]},
        "weis[1]",
        (
            "no weis is worth 250 at this table: a weis is 20, 50, 100, 150, 200",
            "kein Weis ist an diesem Tisch 250 wert: ein Weis ist 20, 50, 100, 150, 200",
            f"aucune annonce ne vaut 250 à cette table{NB}: une annonce vaut 20, 50, 100, 150, 200",
        ),
    ),
    (
        {"weis": False},
        [],
        {"contract": "H", "points": 10, "weis": [[], [20]]},
        "weis",
        (
            "weis are off at this table",
            "an diesem Tisch wird nicht gewiesen",
            "on n’annonce pas à cette table",
        ),
    ),
    (
        {},
        [],
        {"contract": "H", "points": 10, "weis": [[20], [20]]},
        "weis",
        (
            "only one team scores weis — the team with the best weis: enter that team's weis only",
            "nur ein Team schreibt Weis – das mit dem besten Weis: trag nur dessen Weis ein",
            f"une seule équipe marque ses annonces — celle qui a la meilleure{NB}: n’écrivez que "
            "les siennes",
        ),
    ),
    (
        {},
        [],
        {"contract": "H", "points": 10, "weis": [[], ["H6 H7"]]},
        "weis[1]",
        (
            "“H6 H7”: a weis is three or more cards in sequence of one suit, or four of a kind",
            "„H6 H7“: ein Weis sind drei oder mehr Karten in Folge einer Farbe, oder vier Gleiche",
            f"«{NB}H6 H7{NB}»{NB}: une annonce, c’est trois cartes ou plus qui se suivent dans une "
            "couleur, ou quatre cartes de même valeur",
        ),
    ),
    (
        {},
        [],
        {"contract": "H", "points": 10, "weis": [["HJ DJ SJ CJ", "HJ DJ SJ CJ"], []]},
        "weis[0]",
        (
            "the carré DJ HJ SJ CJ is entered twice",
            "die vier Gleichen DJ HJ SJ CJ sind zweimal eingetragen",
            "le carré DJ HJ SJ CJ est écrit deux fois",
        ),
    ),
    (
        {},
        [],
        {"contract": "H", "points": 10, "weis": [[], ["H6 H7 H8", "H7 H8 H9"]]},
        "weis[1]",
        (
            "the sequences H6 H7 H8 and H7 H8 H9 share cards",
            "die Folgen H6 H7 H8 und H7 H8 H9 teilen Karten",
            "les suites H6 H7 H8 et H7 H8 H9 ont des cartes en commun",
        ),
    ),
    (
        {"kreuzweis": False},
        [],
        {"contract": "H", "points": 10, "weis": [["H9 D9 S9 C9", "H7 H8 H9"], []]},
        "weis[0]",
        (
            "D9 H9 S9 C9 and H7 H8 H9 share cards: kreuzweis is off at this table",
            "D9 H9 S9 C9 und H7 H8 H9 teilen Karten: an diesem Tisch gibt es keinen Kreuzweis",
            f"D9 H9 S9 C9 et H7 H8 H9 ont des cartes en commun{NB}: pas de kreuzweis à cette table",
        ),
    ),
    (
        {},
        [],
        {"contract": "H", "points": 10, "first_out": 0},
        "first_out",
        (
            "nobody reaches the target (1000) in hand 1",
            "im Spiel 1 erreicht niemand das Ziel (1000)",
            "personne n’atteint le but (1000) à la donne 1",
        ),
    ),
    (
        {"target": 300},
        [{"contract": "D", "points": 157}],
        {"contract": "D", "points": 10, "berg_first": 1},
        "berg_first",
        (
            "hand 2: the Bergpreis was already won by team A",
            "Spiel 2: den Bergpreis hat schon Team A gewonnen",
            f"donne 2{NB}: le Bergpreis a déjà été gagné par l’équipe A",
        ),
    ),
    (
        {"target": 300},
        [{"contract": "D", "points": 100}, {"contract": "D", "points": 0}],
        {"contract": "D", "points": 157, "team": 1, "first_out": 0},
        "first_out",
        (
            "in hand 3 team B reaches the target (300) first, by the counting order",
            "im Spiel 3 erreicht Team B das Ziel (300) zuerst, nach der Zählreihenfolge",
            "à la donne 3, l’équipe B atteint le but (300) la première, selon l’ordre de comptage",
        ),
    ),
    (
        {"target": 200},
        [],
        {"contract": "H", "points": 100, "schneider": True},
        "schneider",
        (
            "hand 1 does not end the game: the Schneider is said only for the hand that ends it",
            "Spiel 1 beendet die Partie nicht: Schneider wird nur beim Spiel gesagt, das sie "
            "beendet",
            f"la donne 1 ne termine pas la partie{NB}: le Schneider ne se dit que pour la donne "
            "qui la termine",
        ),
    ),
]


@pytest.mark.parametrize(("rules", "before", "hand", "field", "said"), REFUSALS)
def test_a_refused_hand_is_said_in_the_page_s_language_at_its_field(
    server, rules, before, hand, field, said
):
    """Each refusal a scorer can meet on the page: ``{error, field}`` in the ``lang`` asked
    for, in English (as ever) when none is; nothing is written."""
    status, view = call(server, "POST", "/api/sheets", {"name": "Feld", "rules": rules})
    assert status == 201
    sheet = f"/api/sheets/{view['id']}?key={view['key']}"
    at = f"/api/sheets/{view['id']}/hands?key={view['key']}"
    for earlier in before:
        assert call(server, "POST", at, earlier)[0] == 201, earlier
    for lang, message in zip(("", "&lang=de", "&lang=fr"), said, strict=True):
        status, refused = call(server, "POST", at + lang, hand)
        assert (status, refused) == (400, {"error": message, "field": field}), lang
    assert len(call(server, "GET", sheet)[1]["hands"]) == len(before)  # nothing written


def test_the_sheet_s_other_refusals_are_said_in_the_page_s_language(server):
    """A hand the sheet does not have, and a file that is no sheet (the page's import)."""
    status, view = call(server, "POST", "/api/sheets", {"name": "Feld"})
    assert status == 201
    at = f"/api/sheets/{view['id']}/hands/4?key={view['key']}"
    for lang, said in (
        ("", "there is no hand 4 on this sheet"),
        ("&lang=de", "auf diesem Jassblatt gibt es kein Spiel 4"),
        ("&lang=fr", "il n’y a pas de donne 4 sur cette feuille"),
    ):
        status, refused = call(server, "PUT", at + lang, {"contract": "H", "points": 1})
        assert (status, refused) == (400, {"error": said}), lang
    hands = f"/api/sheets/{view['id']}/hands?key={view['key']}"
    for lang, said in (  # a field the models refuse, at its path
        ("", "points: at most 157, not 158"),
        ("&lang=de", "points: höchstens 157, nicht 158"),
        ("&lang=fr", f"points{NB}: au plus 157, pas 158"),
    ):
        status, refused = call(server, "POST", hands + lang, {"contract": "H", "points": 158})
        assert (status, refused) == (400, {"error": said, "field": "points"}), lang
    assert call(server, "GET", f"/api/sheets/{view['id']}?key={view['key']}")[1]["hands"] == []
    for lang, said in (
        ("", "not a score sheet (expected format 'chibre-scoresheet')"),
        ("?lang=de", "kein Jassblatt (erwartet ist das Format 'chibre-scoresheet')"),
        ("?lang=fr", f"pas une feuille de points (format attendu{NB}: 'chibre-scoresheet')"),
    ):
        status, refused = call(server, "POST", "/api/sheets/import" + lang, {"format": "nope"})
        assert (status, refused) == (400, {"error": said, "field": "format"}), lang


def test_without_its_key_a_sheet_is_neither_listed_nor_opened(server):
    status, view = call(server, "POST", "/api/sheets", {"name": "secret"})
    sid, key = view["id"], view["key"]
    assert call(server, "POST", f"/api/sheets/{sid}/hands?key={key}",
                {"contract": "D", "points": 100})[0] == 201  # fmt: skip
    assert call(server, "GET", "/api/sheets") == (200, {"sheets": []})  # no global listing
    assert call(server, "GET", f"/api/sheets?mine={sid}.wrong")[1]["sheets"] == []
    other = call(server, "POST", "/api/sheets", {"name": "other"})[1]
    for where, method, body in [
        ("", "GET", None),
        ("", "PATCH", {"name": "mine now"}),
        ("", "DELETE", None),
        ("/export", "GET", None),
        ("/tafel.svg", "GET", None),
        ("/hands", "POST", {"contract": "D", "points": 1}),
        ("/hands/1", "PUT", {"contract": "D", "points": 1}),
        ("/hands/1", "DELETE", None),
    ]:
        for query in ("", "?key=", f"?key={other['key']}", f"?key={key[:-2]}"):
            status, answer = call(server, method, f"/api/sheets/{sid}{where}{query}", body)
            assert status == 403 and "does not open" in answer["error"], (where, query)
    status, view = call(server, "GET", f"/api/sheets/{sid}?key={key}")
    assert view["name"] == "secret" and view["totals"] == [100, 57]
    assert call(server, "GET", "/api/sheets/nope?key=x")[0] == 404
    assert call(server, "GET", "/api/sheets?mine=no-dot")[0] == 400


def test_bad_sheets_are_refused(server):
    for bad, message in [
        ({"preset": "nowhere"}, "preset: 'nowhere' is not allowed"),
        ({"rules": {"target": -5}}, "rules.target: at least 1"),
        ({"name": "x" * 300_000}, "too large"),
        ({"name": "x" * 81}, "name: at most 80 characters"),
        ({"colour": "red"}, "unknown field"),
        ([1, 2], "JSON object"),
    ]:
        status, answer = call(server, "POST", "/api/sheets", bad)
        assert status == (413 if message == "too large" else 400)
        assert message in answer["error"], answer
    req = urllib.request.Request(
        server + "/api/sheets",
        data=b"{oops",
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=5)
    assert err.value.code == 400 and "not valid JSON" in err.value.read().decode()


def test_a_large_body_is_refused_before_it_is_all_read(server):
    """The server answers 413 as soon as the body passes the limit: the client sends twice
    the limit (chunked, so no Content-Length tells it in advance) and then nothing more, and
    still gets its answer — a server that waited for the end of the body would not answer."""
    url = urlsplit(server)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        conn.putrequest("POST", "/api/sheets/import")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        chunk = b" " * 16384
        for _ in range(2 * MAX_BODY // len(chunk)):
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        answer = conn.getresponse()  # the body is not finished: no last chunk was sent
        assert answer.status == 413
        assert "too large" in json.loads(answer.read())["error"]
    finally:
        conn.close()


def test_any_slate_as_svg_and_the_page(server):
    query = "team0=98,59,336&team1=59&striche0=sieg:2&label0=Nous"
    status, svg = call(server, "GET", "/api/tafel.svg?" + query)
    assert status == 200
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    counts = [g.get("data-count") for g in root.iter(f"{ns}g") if g.get("class") == "line hundreds"]
    assert counts == ["3", "0"]
    assert 'class="strich sieg" data-count="2"' in svg
    for query, message in [
        ("team0=a,b", "whole numbers"),
        ("striche1=win:3", "kind:count"),
        ("team0=100000000", "at most 100000 points"),
        ("team0=" + ",".join(["20"] * 501), "at most 500 hands"),
        ("striche0=sieg:3000000", "at most 99 Striche"),
        ("striche0=sieg:%C2%B2", "kind:count"),  # "²" is a digit to Python, not a count
        ("team1=%C2%B2", "whole numbers"),
    ]:
        status, answer = call(server, "GET", "/api/tafel.svg?" + query)
        assert status == 400 and message in answer["error"], (query, answer)
    # the largest slate the URL allows is still a small drawing
    most = ",".join(["100000"] * 500)
    query = f"team0={most}&team1={most}&striche0=sieg:99&striche1=match:99"
    status, svg = call(server, "GET", "/api/tafel.svg?" + query)
    assert status == 200 and len(svg) < 50_000
    assert 'class="line hundreds" data-count="500000"' in svg
    for path, marker in [("/tafel", "tafel.js"), ("/static/tafel.js", "tafel-sync.js"),
                         ("/static/tafel-sync.js", "fetch"), ("/static/tafel.css", "@media print"),
                         ("/static/tafel.webmanifest", '"start_url": "/tafel"')]:  # fmt: skip
        with urllib.request.urlopen(server + path, timeout=5) as r:
            assert r.status == 200 and marker in r.read().decode()
    # the page takes its presets from the server's /api/presets
    presets = call(server, "GET", "/api/presets")[1]
    assert presets["presets"]["schieber-2500"]["target"] == 2500
    assert call(server, "GET", "/api/sheets/presets")[0] == 404  # no route of its own
