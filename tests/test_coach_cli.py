"""``chibre review`` and ``chibre advise``, run as real subprocesses."""

from __future__ import annotations

import json
from pathlib import Path

from chibre.notation import format_record, record_to_json
from coach_positions import FORCED_MATCH, SCHMIEREN
from test_cli import chibre

HAND = "HJ H9 HA HK H10 H8 SA CA DA"


def test_review_of_a_record_in_notation_names_the_blunder_and_writes_html(
    tmp_path: Path,
) -> None:
    (tmp_path / "game.txt").write_text(format_record(FORCED_MATCH), encoding="utf-8")
    r = chibre("review", "game.txt", "--seat", "0", "--samples", "8", "--lang", "de",
               "--html", "review.html", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Spiel 1" in r.stdout and "??" in r.stdout
    assert "das Blatt macht Match" in r.stdout
    page = (tmp_path / "review.html").read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and 'lang="de"' in page


def test_review_of_a_json_record_for_a_team_is_reproducible(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text(record_to_json(SCHMIEREN), encoding="utf-8")
    runs = [
        chibre("review", "game.json", "--team", "0", "--samples", "8", "--json", cwd=tmp_path)
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    review = json.loads(runs[0].stdout)
    assert review["seats"] == [0, 2]
    seats = {a["seat"] for a in review["assessments"]}
    assert seats <= {0, 2} and 0 in seats
    last = review["assessments"][-1]
    assert last["best"] == "D10" and last["reason"]["key"] == "schmieren"


def test_review_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("rules {}\nhand 0:nonsense\n", encoding="utf-8")
    r = chibre("review", "bad.txt", cwd=tmp_path)
    assert r.returncode == 2 and "chibre:" in r.stderr and not r.stdout
    r = chibre("review", "bad.txt", "--seat", "0", "--team", "1", cwd=tmp_path)
    assert r.returncode == 2 and "not allowed with" in r.stderr
    r = chibre("review", "bad.txt", "--samples", "0", cwd=tmp_path)
    assert r.returncode == 2 and "1 to 1000" in r.stderr


def test_advise_names_the_contract_and_the_card(tmp_path: Path) -> None:
    r = chibre("advise", "--hand", HAND, "--samples", "8", "--lang", "fr", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "Le coach conseille\u00a0: atout cœur"
    r = chibre("advise", "--hand", HAND, "--trump", "hearts", "--played", "HJ H6 H7 HQ",
               "--samples", "8", "--json", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    advice = json.loads(r.stdout)
    assert advice["kind"] == "card"
    assert {a for a, _ in advice["options"]} == {"♥9", "♥A", "♥K", "♥10", "♥8", "♠A", "♣A", "♦A"}
    # every card takes all the tricks left: any is best, and the reason fits the card named
    top = max(v for _, v in advice["options"])
    assert dict(advice["options"])[advice["best"]] == top
    trump = advice["best"].startswith("♥")
    assert ("trump pull" if trump else "highest card left of its suit") in advice["reason"]


def test_advise_refuses_a_hand_or_a_play_that_cannot_be(tmp_path: Path) -> None:
    r = chibre("advise", "--hand", "HJ H9", cwd=tmp_path)
    assert r.returncode == 2 and "9 cards" in r.stderr
    r = chibre("advise", "--hand", HAND, "--trump", "H", "--played", "HJ H6", cwd=tmp_path)
    assert r.returncode == 2 and "after these cards your partner plays, not you" in r.stderr
    r = chibre("advise", "--hand", HAND, "--trump", "H", "--played", "HQ H6 H7 DK", cwd=tmp_path)
    assert r.returncode == 2 and "you played ♥Q: not in your hand" in r.stderr
    r = chibre(
        "advise", "--hand", HAND, "--trump", "H", "--played", "HQ H6 H7 DK", "--lang", "fr",
        cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 2 and "♥D" in r.stderr and "♥Q" not in r.stderr, r.stderr
    r = chibre("advise", "--hand", HAND, "--trump", "blue", cwd=tmp_path)
    assert r.returncode == 2 and "unknown trump" in r.stderr
    r = chibre("advise", "--hand", HAND, "--chibred", cwd=tmp_path)
    assert r.returncode == 2 and "you chibred: say which trump your partner named" in r.stderr


def test_advise_after_a_chibre_the_partner_having_named_the_trump(tmp_path: Path) -> None:
    r = chibre("advise", "--hand", "S6 S7 S8 C6 C7 C8 D6 D7 H6", "--trump", "hearts",
               "--chibred", "--samples", "8", "--json", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    advice = json.loads(r.stdout)
    assert advice["kind"] == "card" and len(advice["options"]) == 9  # seat 0 leads


def test_h_in_the_terminal_gives_the_coach_s_hint_when_hints_are_on() -> None:
    from test_terminal import CARD_PROMPT, CONTRACT_PROMPT, spawn

    child = spawn("--seed", "4", "--hints")
    child.expect([CONTRACT_PROMPT, CARD_PROMPT])
    child.sendline("h")
    child.expect(r"Hint: (\S[^\r\n]*) — ([^\r\n]+)")
    assert child.match.group(2).strip()
    child.sendline("q")
    child.sendline("y")
    child.close()
    child = spawn("--seed", "4")
    child.expect([CONTRACT_PROMPT, CARD_PROMPT])
    child.sendline("h")
    child.expect("Hints are off: start the game with --hints.")
    child.close()
