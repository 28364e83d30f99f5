"""The Jasstafel: how a number is chalked (RULES.md §8), the SVG's strokes, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chibre.rules import Rules
from chibre.scoresheet import STRICHE_KINDS, ScoreSheet
from chibre.tafel import (
    DRAWN_AT_MOST,
    MINUS,
    Tally,
    jasstafel_svg,
    rest_text,
    slate_svg,
    slate_tally,
    tafel_svg,
    tally,
)

SVG = "{http://www.w3.org/2000/svg}"
SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (0, Tally(0, 0, 0, 0)),
        (19, Tally(0, 0, 0, 19)),
        (20, Tally(0, 0, 1, 0)),
        (59, Tally(0, 1, 0, 9)),
        (98, Tally(0, 1, 2, 8)),
        (99, Tally(0, 1, 2, 9)),
        (100, Tally(1, 0, 0, 0)),
        (118, Tally(1, 0, 0, 18)),
        (336, Tally(3, 0, 1, 16)),  # RULES.md §8's example
        (499, Tally(4, 1, 2, 9)),
        (500, Tally(5, 0, 0, 0)),
        (654, Tally(6, 1, 0, 4)),
        (-18, Tally(0, 0, 0, -18)),
        (-336, Tally(0, 0, 0, -336)),
    ],
)
def test_a_number_is_chalked_greedily(points, expected):
    assert tally(points) == expected
    assert tally(points).value == points


@given(st.lists(st.integers(-400, 1300), max_size=12))
@settings(max_examples=200)
def test_the_slate_always_reads_the_total(scores):
    t = slate_tally(scores)
    assert t.value == sum(scores)
    assert min(t.hundreds, t.fifties, t.twenties) >= 0
    if t.strokes:
        assert -20 < t.rest < 20
    else:
        assert t.rest < 20


@given(st.lists(st.integers(0, 1300), max_size=12))
@settings(max_examples=100)
def test_strokes_are_never_wiped_without_a_correction(scores):
    t = slate_tally(scores)
    parts = [tally(s) for s in scores]
    assert t.hundreds == sum(p.hundreds for p in parts)
    assert t.fifties == sum(p.fifties for p in parts)
    assert 0 <= t.rest < 20


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([98, 59], Tally(0, 2, 2, 17)),
        ([98, 59, 336], Tally(3, 2, 4, 13)),  # the digits 8 + 9 + 16 = 33: one more twenty
        ([336, -18], Tally(3, 0, 1, -2)),  # a correction written in digits
        ([336, -40], Tally(3, 0, 0, -4)),  # 16 − 40 = −24: a twenty is wiped
        ([100, -150], Tally(0, 0, 0, -50)),  # nothing left to wipe: the digits carry it
        ([59, -30], Tally(0, 0, 1, 9)),  # 9 − 30: the fifty is wiped, 29 → a twenty and 9
        ([], Tally(0, 0, 0, 0)),
    ],
)
def test_the_slate_adds_hand_by_hand(scores, expected):
    assert slate_tally(scores) == expected


def wiped_stroke_by_stroke(scores: list[int]) -> Tally:
    """The scorer's way, one stroke at a time: the reference for ``slate_tally``."""
    h = f = t = rest = 0
    for points in scores:
        one = tally(points)
        h, f, t, rest = h + one.hundreds, f + one.fifties, t + one.twenties, rest + one.rest
        while rest <= -20 and h + f + t:
            if t:
                t, rest = t - 1, rest + 20
            elif f:
                f, rest = f - 1, rest + 50
            else:
                h, rest = h - 1, rest + 100
        if rest >= 20:
            carry, rest = divmod(rest, 20)
            t += carry
    return Tally(h, f, t, rest)


@given(st.lists(st.integers(-3000, 3000), max_size=16))
@settings(max_examples=200)
def test_large_corrections_wipe_as_the_scorer_does(scores):
    assert slate_tally(scores) == wiped_stroke_by_stroke(scores)


def test_huge_numbers_are_counted_not_stroked_one_by_one():
    t = slate_tally([10**12, -(10**12) + 7])
    assert t == wiped_stroke_by_stroke([10**4, -(10**4) + 7]) == Tally(0, 0, 0, 7)
    assert slate_tally([10**12, 59, -(10**12)]).value == 59


def test_rest_text():
    assert rest_text(16) == "16"
    assert rest_text(0) == "0"
    assert rest_text(-4) == f"{MINUS}4"


# --- the SVG ---------------------------------------------------------------------------------


def lines(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {
        g.get("class", "").split()[1]: g
        for g in root.iter(f"{SVG}g")
        if g.get("class", "").startswith("line ")
    }


def strokes(g: ET.Element) -> tuple[int, int]:
    """(marks, crossings) drawn on one line."""
    paths = [p.get("class", "").split() for p in g.iter(f"{SVG}path")]
    return sum("mark" in c for c in paths), sum("cross" in c for c in paths)


def texts(svg: str, cls: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text") if cls in t.get("class", "").split()]


@pytest.mark.parametrize("total", [0, 19, 20, 99, 100, 336, 499, 500, 1299, -7])
def test_slate_svg_strokes_per_line(total):
    svg = slate_svg([total])
    t = tally(total)
    got = lines(svg)
    for kind, count in (("hundreds", t.hundreds), ("fifties", t.fifties),
                        ("twenties", t.twenties)):  # fmt: skip
        marks, crosses = strokes(got[kind])
        # every fifth stroke crosses the four before it: 4 marks and 1 crossing per five
        assert crosses == count // 5
        assert marks == count - count // 5
        assert got[kind].get("data-count") == str(count)
    assert texts(svg, "rest") == [rest_text(t.rest)]
    assert texts(svg, "total") == [str(total)]


def test_a_long_line_is_drawn_up_to_its_most_strokes_then_written():
    scores = [100_000_000, 50, *[40] * 16]  # a million hundreds, a fifty, 32 twenties
    svg = slate_svg(scores, {"sieg": 3_000_000, "match": 10})
    assert len(svg) < 20_000  # not a stroke per hundred
    got = lines(svg)
    assert [got[k].get("data-count") for k in ("hundreds", "fifties", "twenties")] == [
        "1000000", "1", "32"]  # fmt: skip
    assert strokes(got["hundreds"]) == (24, 6)  # six crossed fives
    assert strokes(got["fifties"]) == (1, 0)
    assert strokes(got["twenties"]) == (24, 6)
    assert texts(svg, "more") == ["+999970", "+2", "+2999990"]  # hundreds, twenties, Sieg
    root = ET.fromstring(svg)
    panel = {
        g.get("class"): g for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("strich ")
    }
    assert panel["strich sieg"].get("data-count") == "3000000"
    assert strokes(next(panel["strich sieg"].iter(f"{SVG}g"))) == (8, 2)
    assert strokes(next(panel["strich match"].iter(f"{SVG}g"))) == (8, 2)  # exactly ten
    assert DRAWN_AT_MOST == {"hundreds": 30, "fifties": 10, "twenties": 30, "striche": 10}


def test_the_fifties_are_crossed_pairs():
    svg = slate_svg([50] * 6)
    g = lines(svg)["fifties"]
    marks = [p for p in g.iter(f"{SVG}path") if "mark" in p.get("class", "")]
    assert len(marks) == 5  # four Xs, the fifth a crossing, then a sixth X
    assert all(p.get("d", "").count("M") == 2 for p in marks)  # two strokes each


def test_negative_remainder_on_the_slate():
    svg = slate_svg([336, -40], label="Nous")
    assert texts(svg, "rest") == [f"{MINUS}4"]
    assert texts(svg, "label") == ["Nous"]
    assert strokes(lines(svg)["twenties"]) == (0, 0)


def test_the_striche_panel():
    svg = slate_svg([100], {"sieg": 2, "match": 1, "kontermatsch": 7}, lang="fr")
    root = ET.fromstring(svg)
    counts = {
        g.get("class", "").split()[1]: g.get("data-count")
        for g in root.iter(f"{SVG}g")
        if g.get("class", "").startswith("strich ")
    }
    assert counts == {"sieg": "2", "match": "1", "kontermatsch": "7", "bergpreis": "0",
                      "schneider": "0"}  # fmt: skip
    assert "Contre-match" in texts(svg, "txt")
    assert strokes(lines(svg)["striche"]) == (0, 0)  # the last panel row: no Schneider
    assert "strich" not in slate_svg([100])  # no panel unless asked for


def test_the_whole_slate_of_a_sheet():
    sheet = ScoreSheet(Rules.make(multipliers="french"), teams=("Nous", "Eux & co"))
    sheet.add({"contract": "S", "points": 98, "weis": [[50], []], "stoeck": 0})  # 336 : 118
    sheet.add({"contract": "H", "chooser": 0, "match": 1})  # 0 : 257, a Kontermatsch
    svg = jasstafel_svg(sheet)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert texts(svg, "label") == ["Nous", "Eux & co"]
    assert texts(svg, "total") == ["336", "375"]
    assert texts(svg, "rest") == ["16", "5"]  # 118 + 257: 18 + 7 = 25 → a twenty and 5
    hundreds = [g for g in root.iter(f"{SVG}g") if g.get("class") == "line hundreds"]
    assert [g.get("data-count") for g in hundreds] == ["3", "3"]
    konter = [g for g in root.iter(f"{SVG}g") if g.get("class") == "strich kontermatsch"]
    assert [g.get("data-count") for g in konter] == ["0", "2"]
    assert len(tafel_svg(([1], [2]))) > 0
    assert set(STRICHE_KINDS) == {"sieg", "match", "kontermatsch", "bergpreis", "schneider"}


# --- the command -----------------------------------------------------------------------------


def chibre(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", "chibre.cli", *args],
        cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8", timeout=60,
    )  # fmt: skip


def test_cli_svg_to_a_file_and_to_stdout(tmp_path):
    r = chibre("tafel", "svg", "98", "59", "336", "-o", "slate.svg", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    svg = (tmp_path / "slate.svg").read_text(encoding="utf-8")
    assert {k: g.get("data-count") for k, g in lines(svg).items()} == {
        "hundreds": "3", "fifties": "2", "twenties": "4"}  # fmt: skip
    assert texts(svg, "rest") == ["13"]
    out = chibre("tafel", "svg", "20", "--label", "Eux", "--sieg", "2", cwd=tmp_path)
    assert out.returncode == 0
    assert texts(out.stdout, "label") == ["Eux"]
    assert 'class="strich sieg" data-count="2"' in out.stdout
    # no slate has a negative number of Striche or a hand of a billion points
    bad = chibre("tafel", "svg", "10", "--sieg", "-1", cwd=tmp_path)
    assert bad.returncode == 2 and "Striche of a kind are 0 to 99, not -1" in bad.stderr
    bad = chibre("tafel", "tally", "1000000000", cwd=tmp_path)
    assert bad.returncode == 2 and "a hand scores at most 100000 points" in bad.stderr


def test_cli_tally_and_sheet(tmp_path):
    r = chibre("tafel", "tally", "336", "-18", cwd=tmp_path)
    assert r.returncode == 0
    assert "hand 336: 3 × 100, 0 × 50, 1 × 20, written 16" in r.stdout
    assert f"hand -18: 0 × 100, 0 × 50, 0 × 20, written {MINUS}18" in r.stdout
    assert f"slate 318: 3 × 100, 0 × 50, 1 × 20, written {MINUS}2" in r.stdout
    sheet = ScoreSheet()
    sheet.add({"contract": "D", "points": 100})
    (tmp_path / "sheet.json").write_text(sheet.to_json(), encoding="utf-8")
    r = chibre("tafel", "sheet", "sheet.json", cwd=tmp_path)
    assert r.returncode == 0 and texts(r.stdout, "total") == ["100", "57"]
    (tmp_path / "bad.json").write_text('{"format": "x"}', encoding="utf-8")
    r = chibre("tafel", "sheet", "bad.json", cwd=tmp_path)
    assert r.returncode == 1 and "not a score sheet" in r.stderr
    (tmp_path / "latin1.json").write_bytes("Équipe".encode("latin-1"))
    r = chibre("tafel", "sheet", "latin1.json", cwd=tmp_path)
    assert r.returncode == 1 and "not UTF-8" in r.stderr and "Traceback" not in r.stderr
    assert chibre("tafel", cwd=tmp_path).returncode == 2
    r = chibre("tafel", "sheet", "missing.json", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == "chibre tafel: missing.json: No such file or directory\n"
