"""The ``chibre`` command, run as a real subprocess: exit statuses, output, determinism."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from chibre import CHANCE, Game, Rules
from chibre.deal import deal_cards
from chibre.errors import InvalidRules, NotationError
from chibre.jasskit import load_games
from chibre.notation import (
    format_deal,
    format_record,
    parse_deal,
    record_from_json,
    record_to_json,
)
from chibre.options import read_settings, rules_from

SRC = Path(__file__).resolve().parents[1] / "src"
DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = ["jasskit_state.json", "jasskit_log.jsonl", "jasskit_swisslos_log.txt"]


def chibre(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", "chibre.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


@pytest.fixture
def examples(tmp_path: Path) -> list[Path]:
    out = []
    for name in EXAMPLES:
        shutil.copy(DATA / name, tmp_path / name)
        out.append(tmp_path / name)
    return out


@pytest.fixture
def illegal(tmp_path: Path) -> Path:
    """The example state with N's ♦6 (trick 1) and ♣10 (trick 7) swapped: N discards ♣10 on a
    ♦ lead while holding ♦6."""
    state = json.loads((DATA / "jasskit_state.json").read_text())
    t1, t7 = state["tricks"][0]["cards"], state["tricks"][6]["cards"]
    t1[2], t7[0] = t7[0], t1[2]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(state))
    return path


# --- check -----------------------------------------------------------------------------------


def test_the_version_and_every_command_s_help(tmp_path: Path) -> None:
    from importlib import metadata

    version = chibre("--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout == f"chibre {metadata.version('chibre')}\n"
    listed = chibre("--help", cwd=tmp_path).stdout
    commands = re.search(r"\{([a-z,-]+)\}", listed)
    assert commands is not None
    for name in commands[1].split(","):
        said = chibre(name, "--help", cwd=tmp_path)
        assert said.returncode == 0, (name, said.stderr)
        # a sentence under the usage: what the command does
        description = said.stdout.split("\n\n")[1]
        assert description[0].isupper() and not description.startswith("options"), (
            name,
            said.stdout,
        )


def test_check_all_legal_exits_0(tmp_path: Path, examples: list[Path]) -> None:
    run = chibre("check", *map(str, examples), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1 + 2 + 2  # one state, two log entries, two Swisslos rounds
    assert lines[0].startswith(f"{examples[0]}: trump ♥ (pushed), dealer W: N+S ")
    assert lines[1].startswith(f"{examples[1]}#1: ")
    assert lines[4].startswith(f"{examples[2]}#2: ")
    for line in lines:
        assert re.search(r"N\+S \d+, E\+W \d+$", line), line


def test_check_illegal_exits_1_and_names_the_move(tmp_path: Path, illegal: Path) -> None:
    run = chibre("check", str(illegal), cwd=tmp_path)
    assert run.returncode == 1
    assert run.stdout.startswith(f"{illegal}: trick 1, card 3: N plays C10: ")
    assert "must follow suit" in run.stdout


def test_check_legal_and_illegal_exits_1(
    tmp_path: Path, examples: list[Path], illegal: Path
) -> None:
    run = chibre("check", str(examples[0]), str(illegal), str(examples[1]), cwd=tmp_path)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert len(lines) == 4
    assert "N+S" in lines[0]
    assert "trick 1, card 3: N plays C10" in lines[1]
    assert all("N+S" in line for line in lines[2:])


@pytest.mark.parametrize(
    "content",
    [None, "this is not JSON\n", "", '{"version": "V0.2", "trump":', "42"],
    ids=["missing", "text", "empty", "truncated", "number"],
)
def test_check_unreadable_exits_2(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    run = chibre("check", str(path), cwd=tmp_path)
    assert run.returncode == 2
    assert str(path) in run.stderr
    assert "cannot read" in run.stderr
    assert run.stdout == ""


def test_check_mixed_files_unreadable_wins(
    tmp_path: Path, examples: list[Path], illegal: Path
) -> None:
    missing = tmp_path / "nope.json"
    for order in (
        [examples[0], illegal, missing],
        [missing, illegal, examples[0]],
        [examples[0], missing],
    ):
        run = chibre("check", *map(str, order), cwd=tmp_path)
        assert run.returncode == 2, order
        # every readable file is still checked and reported
        for path in order:
            if path is missing:
                assert f"{missing}: cannot read" in run.stderr
            else:
                assert f"{path}: " in run.stdout
        assert ("trick 1, card 3" in run.stdout) == (illegal in order)


def test_check_needs_a_file(tmp_path: Path) -> None:
    run = chibre("check", cwd=tmp_path)
    assert run.returncode == 2


# --- rules -----------------------------------------------------------------------------------


def test_rules_preset_with_a_change(tmp_path: Path) -> None:
    run = chibre("rules", "schieber-2500", "--set", "target=3000", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    options = json.loads(run.stdout)
    assert options["target"] == 3000
    assert options["multipliers"] == "published"
    assert options["low_carres_100"] is True
    assert options["deck"] == "swiss"
    assert options["first_chooser_card"] == "C7"
    expected = Rules.preset("schieber-2500", target=3000).to_dict()
    assert options == expected


def test_rules_default_and_several_changes(tmp_path: Path) -> None:
    run = chibre(
        "rules",
        "--set",
        "deck=swiss",
        "--set",
        "multipliers=[1,2,3,4,5,6]",
        "--set",
        "weis=false",
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert (
        json.loads(run.stdout)
        == Rules(deck="swiss", multipliers=(1, 2, 3, 4, 5, 6), weis=False).to_dict()
    )


@pytest.mark.parametrize(
    ("item", "named"),
    [("bogus=1", "bogus"), ("target=-5", "target"), ("end_mode=never", "end_mode"), ("x", "x")],
)
def test_rules_bad_option_exits_2(tmp_path: Path, item: str, named: str) -> None:
    run = chibre("rules", "--set", item, cwd=tmp_path)
    assert run.returncode == 2
    assert named in run.stderr
    assert run.stdout == ""


@pytest.mark.parametrize(
    "command",
    [["rules"], ["demo"], ["play", "--seed", "1"], ["arena", "rule", "random", "--deals", "1"]],
)
@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("target", "--set 'target': write OPTION=VALUE"),
        ("=5", "--set '=5': write OPTION=VALUE"),
        ("bogus=1", "unknown option 'bogus'"),
        ("target=-5", "target = -5: must be a whole number from 1 to 10000"),
    ],
)
def test_every_command_reads_set_alike(
    tmp_path: Path, command: list[str], item: str, message: str
) -> None:
    run = chibre(*command, "--set", item, cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.startswith(f"chibre: {message}"), run.stderr
    assert run.stdout == ""


def test_set_values_are_json_or_words() -> None:
    assert read_settings(None) == {}
    settings = ["target=3000", "weis=false", "deck=swiss", 'striche={"match": 2}', "target=900"]
    assert read_settings(settings) == {
        "target": 900,  # the later one wins
        "weis": False,
        "deck": "swiss",
        "striche": {"match": 2},
    }
    rules = rules_from("jasvel", settings, deck="french")
    assert rules == Rules.preset(
        "jasvel", target=900, weis=False, deck="french", striche={"match": 2}
    )
    assert rules.striche.match == 2 and rules.multipliers == "current"
    with pytest.raises(InvalidRules, match="unknown preset 'nowhere'"):
        rules_from("nowhere", [])


def test_rules_unknown_preset(tmp_path: Path) -> None:
    run = chibre("rules", "nowhere", cwd=tmp_path)
    assert run.returncode == 2


# --- deal ------------------------------------------------------------------------------------


def test_deal_is_deterministic(tmp_path: Path) -> None:
    one = chibre("deal", "--seed", "1", cwd=tmp_path)
    two = chibre("deal", "--seed", "1", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    text = one.stdout.strip()
    deal = parse_deal(text)
    assert deal.dealer == 0
    assert text == format_deal(deal_cards(Random(1), 0))
    other = chibre("deal", "--seed", "2", "--dealer", "3", cwd=tmp_path)
    assert other.stdout.strip() == format_deal(deal_cards(Random(2), 3))
    assert parse_deal(other.stdout.strip()).dealer == 3


# --- demo ------------------------------------------------------------------------------------

TRICK = re.compile(r"^  (\S+ \S+ \S+ \S+)  trick (\d) to seat (\d) \((\d+)\)$", re.MULTILINE)
HAND = re.compile(r"^hand: team 0 (\d+), team 1 (\d+)", re.MULTILINE)


def check_demo_output(out: str) -> None:
    tricks = TRICK.findall(out)
    assert [int(t[1]) for t in tricks] == list(range(1, 10))
    assert sum(int(t[3]) for t in tricks) == 157
    played = [card for t in tricks for card in t[0].split()]
    assert len(set(played)) == 36
    assert len(HAND.findall(out)) == 1
    deal_line = re.search(r"^  deal: (\S+)$", out, re.MULTILINE)
    assert deal_line
    parse_deal(deal_line.group(1))


def test_demo_seed_7(tmp_path: Path) -> None:
    run = chibre("demo", "--seed", "7", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "seed 7" in run.stdout.splitlines()[0]
    check_demo_output(run.stdout)
    again = chibre("demo", "--seed", "7", cwd=tmp_path)
    assert again.stdout == run.stdout


def test_demo_other_preset(tmp_path: Path) -> None:
    run = chibre("demo", "jasvel", "--seed", "3", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "rules jasvel" in run.stdout
    check_demo_output(run.stdout)


def test_no_arguments_runs_the_demo(tmp_path: Path) -> None:
    run = chibre(cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("chibre — one hand, rules romand, seed ")
    check_demo_output(run.stdout)


# --- replay ----------------------------------------------------------------------------------


def play_game(rules: Rules, seed: int) -> Game:
    rng = Random(seed)
    game = Game(rules)
    while not game.is_over:
        if game.current_player == CHANCE:
            game.deal(rng)
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("form", ["notation", "json"])
def test_replay_prints_the_totals(tmp_path: Path, form: str) -> None:
    game = play_game(Rules.preset("schieber-2500"), 5)
    path = tmp_path / "game.txt"
    path.write_text(
        format_record(game.record) if form == "notation" else record_to_json(game.record),
        encoding="utf-8",
    )
    run = chibre("replay", str(path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1] == f"totals: team 0 {game.totals[0]}, team 1 {game.totals[1]}"
    hand_lines = [line for line in lines if line.startswith("hand: ")]
    assert len(hand_lines) == sum(1 for h in game.hands if h.is_over)
    assert any(line.startswith(f"team {game.winner} wins ") for line in lines)


def test_replay_lists_the_hand_the_game_ended_in(tmp_path: Path) -> None:
    """A game decided in the middle of a hand: that hand is listed with the points the table
    wrote, and the hands add up to the totals."""
    seed = next(s for s in range(20) if not play_game(Rules.preset("romand"), s).hand.is_over)
    game = play_game(Rules.preset("romand"), seed)
    path = tmp_path / "game.txt"
    path.write_text(format_record(game.record), encoding="utf-8")
    run = chibre("replay", str(path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    cut = [line for line in lines if line.startswith("hand, ended ")]
    assert len(cut) == 1, run.stdout
    assert lines.index(cut[0]) == len(lines) - 3  # before the winner and the totals
    points = [0, 0]
    for line in lines:
        if found := re.match(r"hand(?:, ended [^:]*)?: team 0 (\d+), team 1 (\d+)", line):
            points[0] += int(found[1])
            points[1] += int(found[2])
    assert points == list(game.totals)


def test_replay_writes_the_last_hand_as_the_table_wrote_it(tmp_path: Path) -> None:
    """Decided at the last trick, before its match bonus: the hand is listed without the
    match the table never wrote (RULES.md §7), and the hands add up to the totals."""
    from chibre import Choose
    from deals import MATCH, MATCH_LEADS
    from test_game_end import play_out, start

    game = start(Rules(target=220, first_chooser="right_of_dealer"), MATCH, dealer=0)
    game.apply(Choose(2), 1)
    play_out(game, {0: "♥A " + MATCH_LEADS.replace(" ♥A", ""), 1: "♥6"})
    assert game.hand.is_over and game.hand.score().match == (100, 0)
    path = tmp_path / "game.txt"
    path.write_text(format_record(game.record), encoding="utf-8")
    run = chibre("replay", str(path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "hand: team 0 227, team 1 0\n" in run.stdout, run.stdout
    assert "match" not in run.stdout and "team 0 wins 227:0" in run.stdout


def test_replay_notation_prints_the_record_again(tmp_path: Path) -> None:
    game = play_game(Rules.preset("romand", auto_weis=False, auto_stoeck=False), 6)
    text = format_record(game.record)
    path = tmp_path / "game.chibre"
    path.write_text(record_to_json(game.record), encoding="utf-8")
    run = chibre("replay", "--notation", str(path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.endswith(text)
    # the scores before it are comments: what was printed reads back as the same game
    assert run.stdout.startswith("# ") and f"# totals: team 0 {game.totals[0]}," in run.stdout
    again = tmp_path / "again.txt"
    again.write_text(run.stdout, encoding="utf-8")
    rerun = chibre("replay", str(again), cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert (
        rerun.stdout.splitlines()[-1] == f"totals: team 0 {game.totals[0]}, team 1 {game.totals[1]}"
    )


def test_replay_says_when_the_record_ends_before_the_game(tmp_path: Path) -> None:
    game = play_game(Rules.preset("romand"), 8)
    first_hand = format_record(game.record).split("\nhand ")[0] + "\n"
    path = tmp_path / "cut.txt"
    path.write_text(first_hand, encoding="utf-8")
    run = chibre("replay", str(path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (
        run.stdout.splitlines()[-1]
        == "the game is not over: the record ends before either team won"
    )


def test_replay_errors_exit_2(tmp_path: Path) -> None:
    game = play_game(Rules.preset("romand"), 7)
    text = format_record(game.record)
    lines = text.splitlines(keepends=True)
    tokens = lines[1].split()
    tokens[-1] = "XX"
    path = tmp_path / "bad.txt"
    path.write_text(lines[0] + " ".join(tokens) + "\n", encoding="utf-8")
    for command in ("replay", "review"):
        run = chibre(command, str(path), cwd=tmp_path)
        assert run.returncode == 2
        # the file, the token and where it stands, said as a reader counts: line and column
        assert run.stderr.startswith(f"chibre: {path}: "), run.stderr
        assert "XX" in run.stderr
        column = len(" ".join(tokens[:-1])) + 2
        assert run.stderr.rstrip().endswith(f"(line 2, column {column})"), run.stderr
        missing = chibre(command, str(tmp_path / "none.txt"), cwd=tmp_path)
        assert missing.returncode == 2
        assert missing.stderr == f"chibre: {tmp_path / 'none.txt'}: No such file or directory\n"


def test_a_move_refused_in_a_record_names_its_seat_and_hand(tmp_path: Path) -> None:
    game = play_game(Rules.preset("romand"), 7)
    rules, hand, *_ = format_record(game.record).splitlines()
    tokens = hand.split()
    first, second = [i for i, t in enumerate(tokens) if i > 1 and t[:1] in "DHSC"][:2]
    tokens[first], tokens[second] = tokens[second], tokens[first]  # the next seat's card
    path = tmp_path / "swapped.txt"
    path.write_text(f"{rules}\n{' '.join(tokens)}\n", encoding="utf-8")
    run = chibre("replay", str(path), cwd=tmp_path)
    assert run.returncode == 2
    assert re.search(rf"{tokens[first]}, seat \d's move in hand 1, is refused: ", run.stderr)


def test_a_file_that_is_not_text_is_named(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0")
    for command in ("replay", "verify", "review"):
        run = chibre(command, str(path), cwd=tmp_path)
        assert run.returncode == 2 and str(path) in run.stderr and "not a text file" in run.stderr
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2, 3]", encoding="utf-8")
    run = chibre("replay", str(listed), cwd=tmp_path)
    assert run.returncode == 2 and "not a chibre record" in run.stderr, run.stderr


def test_the_demo_plays_a_hand_where_the_table_thanks(tmp_path: Path) -> None:
    run = chibre("demo", "--seed", "1", "--set", "claim=thank", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    check_demo_output(run.stdout)


def test_a_record_that_is_no_json_names_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n "format": "chibre-record",\n "rules": {}\n "hands": []}\n')
    run = chibre("replay", str(path), cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        f"chibre: {path}: not JSON: expecting ',' delimiter (line 4, column 2)\n"
    ), run.stderr
    path.write_text('{"format": "chibre-record", "hands": 5}')
    run = chibre("replay", str(path), cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr == f"chibre: {path}: hands must be a list, not int\n", run.stderr


UNREADABLE = {
    "deep array": b"[" * 100_000 + b"]" * 100_000,
    "deep record": b'{"format": "chibre-record", "rules": ' + b"[" * 99_999 + b"]" * 99_999 + b"}",
    "deep line": b"game " + b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"\n",
    "huge number": b'{"format": "chibre-record", "rules": {"target": ' + b"9" * 5000 + b"}}",
    "huge number in a rules line": b'rules {"target": ' + b"9" * 5000 + b"}\n",
    "bad UTF-8": b'{"format": "chibre-record", "name": "\xff\xfe"}',
    "binary": bytes(range(256)) * 64,
    "zero bytes": b"\0" * 4096,
}


@pytest.mark.parametrize("content", list(UNREADABLE.values()), ids=list(UNREADABLE))
@pytest.mark.parametrize("command", ["check", "replay", "verify"])
def test_unreadable_input_exits_2_with_one_line(
    tmp_path: Path, command: str, content: bytes
) -> None:
    path = tmp_path / "input.json"
    path.write_bytes(content)
    run = chibre(command, str(path), cwd=tmp_path)
    assert run.returncode == 2, run.stderr[-500:]
    assert "Traceback" not in run.stderr and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and len(run.stderr) < 300, run.stderr[:300]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"format": "chibre-record", "rules": {"target": ' + "9" * 5000 + "}}",
        '{"format": "chibre-record", "hands": ' + "[" * 900 + "]" * 900 + "}",
        '{"format": "chibre-record", "hands": 5}',
    ],
    ids=["deep", "huge number", "deep hands", "hands a number"],
)
def test_unreadable_json_raises_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        record_from_json(text)
    if "hands" not in text:
        with pytest.raises(NotationError):
            load_games(text)


def test_options_alone_run_the_demo(tmp_path: Path) -> None:
    seeded = chibre("--seed", "5", cwd=tmp_path)
    assert seeded.returncode == 0, seeded.stderr
    assert seeded.stdout == chibre("demo", "--seed", "5", cwd=tmp_path).stdout
    preset = chibre("jasvel", "--seed", "5", cwd=tmp_path)
    assert preset.returncode == 0 and "rules jasvel" in preset.stdout
