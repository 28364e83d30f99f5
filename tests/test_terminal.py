"""`chibre play` in a real terminal (pexpect) and its pure rendering functions."""

from __future__ import annotations

import io
import os
import re
import signal
import sys
from pathlib import Path
from random import Random

import pexpect
import pytest

from chibre import CHANCE, Game, Rules, cli, i18n
from chibre.actions import Chibre, Choose, Declare, Play
from chibre.bots import PLAYERS, RandomPlayer, make_player
from chibre.bots.rule import RulePlayer
from chibre.cards import SUIT_MAPPINGS, card_code, parse_card, parse_cards
from chibre.notation import format_record, parse_record
from chibre.play import legal_cards, why_illegal
from chibre.terminal import (
    Console,
    Quit,
    Style,
    TerminalTable,
    View,
    _key_range,
    _level_player,
    card_text,
    contract_menu,
    display_order,
    illegal_reason,
    language_from_env,
    read_contract,
    render_hand,
    render_hand_score,
    visible_len,
)

SRC = Path(__file__).resolve().parents[1] / "src"
CONTRACT_PROMPT = r"Your contract \[([^\]]*)\] \(\? help\): "
CARD_PROMPT = r"Your card \[([^\]]*)\] \(\? help\): "
GAME_ROW = r"Game\s+(\d+)\s+(\d+)\s+target (\d+)"
TEAM = {"You": 0, "Partner": 0, "Right": 1, "Left": 1}


def spawn(*args: str, no_color: bool = True, env: dict[str, str] | None = None) -> pexpect.spawn:
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), environ.get("PYTHONPATH")]))
    environ["PYTHONIOENCODING"] = "utf-8"
    environ.pop("NO_COLOR", None)
    environ.update(env or {})
    argv = ["-m", "chibre.cli", "play", "--lang", "en", "--delay", "0", *args]
    if no_color:
        argv.append("--no-color")
    return pexpect.spawn(
        sys.executable,
        argv,
        env=environ,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 220),
        preexec_fn=hear_ctrl_c,
    )


def hear_ctrl_c() -> None:
    """Ctrl-C as a shell's foreground job hears it: a suite run as a background job (a CI
    runner's, ``pytest &``) inherits SIGINT ignored, and would hand that on to the game."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def legal_keys(text: str) -> tuple[list[str], list[str], str]:
    """The keys of the playable and of the bracketed cards on the last hand line shown."""
    line = text[text.rindex("Your cards:") :].splitlines()[0]
    legal = re.findall(r"(\d) (?!\()\S+", line)
    illegal = re.findall(r"(\d) \(\S+\)", line)
    return legal, illegal, line


def finish(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


# --- a whole hand in a real terminal ---------------------------------------------------------


def test_one_whole_hand_by_keys_with_its_score() -> None:
    child = spawn("--seed", "3", "--set", "target=5000")
    seen = ""
    tried_illegal = tried_last = False
    while True:
        i = child.expect([CONTRACT_PROMPT, CARD_PROMPT, GAME_ROW])
        seen += child.before + child.after
        if i == 0:
            keys = child.match.group(1).split(",")
            assert "0" in keys or "Partner: chibre!" in seen or "You: chibre!" in seen
            child.sendline(keys[0])
            continue
        if i == 2:
            break
        legal, illegal, line = legal_keys(child.before)
        assert legal, line
        if illegal and not tried_illegal:
            # an illegal key: a clear reason, and nothing changes
            child.sendline(illegal[0])
            child.expect(r"You cannot play (\S+) \([^)]*\): ([^\r\n]+)")
            assert "you" in child.match.group(2)
            child.expect(CARD_PROMPT)
            child.sendline("s")  # the table again: the same hand, the same keys
            child.expect(CARD_PROMPT)
            assert legal_keys(child.before)[2] == line
            tried_illegal = True
        if "Trick 1 →" in seen and not tried_last:
            child.sendline("l")
            child.expect(r"Last trick \((\d)\) → (\w+): ")
            assert child.match.group(2) in TEAM
            child.expect(CARD_PROMPT)
            tried_last = True
        child.sendline("z")  # an unknown key
        child.expect("Unknown key 'z'")
        child.expect(CARD_PROMPT)
        child.sendline(legal[0])
    assert tried_illegal and tried_last
    # the trick lines add up to the hand's tricks row
    won = [0, 0]
    tricks = re.findall(r"Trick (\d) → (\w+) \(\+(\d+)\)", seen)
    assert [int(n) for n, _, _ in tricks] == list(range(1, 10))
    for _, name, pts in tricks:
        won[TEAM[name]] += int(pts)
    block = seen[seen.rindex("Hand 1 ") :]
    rows = {
        m.group(1): (int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r"^\s+(tricks|match|weis|stöck)\s+(\d+)\s+(\d+)", block, re.M)
    }
    assert rows["tricks"] == (won[0], won[1])
    assert sum(rows["tricks"]) == 157
    match_team = {TEAM[name] for _, name, _ in tricks}
    assert rows["match"] == (
        (100, 0) if match_team == {0} else (0, 100) if match_team == {1} else (0, 0)
    )
    assert 0 in rows["weis"]  # only one team scores weis
    total = re.search(r"total ×(\d+)\s+(\d+)\s+(\d+)", block)
    assert total is not None
    factor = int(total.group(1))
    for team in (0, 1):
        expected = sum(rows[k][team] for k in ("tricks", "match", "weis", "stöck")) * factor
        assert int(total.group(2 + team)) == expected
    game = re.search(GAME_ROW, block)
    assert game is not None
    assert (game.group(1), game.group(2)) == (total.group(2), total.group(3))
    assert game.group(3) == "5000"
    # q asks first; n goes on; q then y leaves
    child.expect([CONTRACT_PROMPT, CARD_PROMPT])
    child.sendline("q")
    child.expect(r"Quit the game\? \[y/n\] ")
    child.sendline("n")
    child.expect([CONTRACT_PROMPT, CARD_PROMPT])
    child.sendline("q")
    child.expect(r"Quit the game\? \[y/n\] ")
    child.sendline("y")
    child.expect("Goodbye.")
    finish(child)


def test_a_first_run_says_the_players_are_being_prepared(tmp_path: Path) -> None:
    # an empty numba cache, as after an install: the search compiles before the first deal
    child = spawn("--seed", "3", env={"NUMBA_CACHE_DIR": str(tmp_path)})
    child.expect(r"Preparing the computer players \(the first time after an install", timeout=30)
    child.expect([CONTRACT_PROMPT, CARD_PROMPT], timeout=180)
    child.sendline("q")
    child.expect(r"Quit the game\? \[y/n\] ")
    child.sendline("y")
    child.expect("Goodbye.")
    finish(child)
    assert any(tmp_path.rglob("solver_core._run-*.nbc"))  # the search was compiled


def test_the_game_ends_at_the_target_with_the_striche() -> None:
    child = spawn("--seed", "3", "--opponents", "random", "--set", "target=120")
    reached = r"Target 120 reached by (your team|the opponents) — (Tricks|Weis|Stöck|Match), "
    while True:
        i = child.expect([CONTRACT_PROMPT, CARD_PROMPT, reached + r"trick \d of hand \d+\."])
        if i == 0:
            child.sendline(child.match.group(1).split(",")[0])
        elif i == 1:
            child.sendline(legal_keys(child.before)[0][0])
        else:
            break
    by = child.match.group(1)
    child.expect(r"(You|They) win (\d+)\s:\s(\d+)!")
    winner = 0 if child.match.group(1) == "You" else 1
    assert by == ("your team", "the opponents")[winner]
    first, second = int(child.match.group(2)), int(child.match.group(3))
    assert first >= 120 and first > second  # the winners' points first
    child.expect(r"Striche: us (\d+) · them (\d+)")
    striche = int(child.match.group(1)), int(child.match.group(2))
    assert striche[winner] >= 2  # the win itself is worth 2
    child.expect(r"Play another game\? \[y/n\] ")
    child.sendline("n")
    child.expect("Goodbye.")
    finish(child)


def test_end_of_input_leaves_cleanly_and_colours_follow_the_terminal() -> None:
    coloured = spawn("--seed", "1", no_color=False)
    coloured.expect([CONTRACT_PROMPT, CARD_PROMPT])
    shown = coloured.before
    coloured.sendeof()
    coloured.expect("Goodbye.")
    finish(coloured)
    assert "\x1b[31m♥" in shown or "\x1b[31m♦" in shown  # red hearts and diamonds
    plain = spawn("--seed", "1", no_color=False, env={"NO_COLOR": "1"})
    plain.expect([CONTRACT_PROMPT, CARD_PROMPT])
    assert "\x1b[" not in plain.before
    plain.sendeof()
    plain.expect("Goodbye.")
    finish(plain)
    interrupted = spawn("--seed", "1")
    interrupted.expect([CONTRACT_PROMPT, CARD_PROMPT])
    interrupted.sendintr()  # Ctrl-C
    interrupted.expect("Goodbye.")
    interrupted.expect(pexpect.EOF)
    interrupted.close()
    assert interrupted.exitstatus == 130
    assert "Traceback" not in interrupted.before


def test_french_and_a_bad_option() -> None:
    child = spawn("--seed", "2", "--lang", "fr", "--deck", "swiss")
    child.expect(r"Votre (contrat|carte) \[")
    assert "Vos cartes" in child.before
    assert re.search(r"(Gre|Ros|Écu|Gla)(\d+|[UORA])", child.before)  # Swiss suits, in French
    child.sendline("q")
    child.expect(r"Quitter la partie\s\? \[o/n\] ")
    child.sendline("o")
    child.expect("Au revoir.")
    finish(child)
    bad = spawn("--set", "target=-3")
    bad.expect(pexpect.EOF)
    bad.close()
    assert bad.exitstatus == 2
    assert "target" in bad.before


# --- the table in-process: declarations and thanking -----------------------------------------


def test_weis_and_stoeck_prompts_and_thanking_in_a_whole_game() -> None:
    rules = Rules.preset("romand", auto_weis=False, auto_stoeck=False, claim="thank", target=400)
    out = io.StringIO()
    prompts: list[str] = []
    table: TerminalTable

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if "[y/n]" in prompt:
            return "y"
        obs = table.game.observation(0)
        if "contract" in prompt:
            return "chibre" if any(isinstance(a, Chibre) for a in obs.legal_actions) else "O"
        if obs.rules.claim == "thank" and obs.totals[0] >= obs.rules.target:
            return "t"
        card = next(a.card for a in obs.legal_actions if isinstance(a, Play))
        return card_code(card)  # a card by its code, not its key

    view = View("en")
    players = {s: make_player("random", s) for s in (1, 2, 3)}
    table = TerminalTable(rules, Console(view, read, out), players, Random(8))
    table.play_game()
    text = out.getvalue()
    game = table.game
    assert game.is_over
    assert any("Announce your weis" in p for p in prompts)
    declared = [a for s, a in game.record.entries if s == 0 and isinstance(a, Play) and a.weis]
    assert declared  # the human's answer reached the game
    assert re.search(r"thanks — (rightly|wrongly)|(You|They) win", text)
    assert "Striche: us" in text


@pytest.mark.parametrize(("lang", "deck"), [("fr", "french"), ("de", "swiss"), ("fr", "swiss")])
def test_a_card_typed_as_the_hand_shows_it_is_played(lang: str, deck: str) -> None:
    """♦D (the French dame), RosO, SchiA: what the hand line shows can be typed back."""
    out = io.StringIO()
    typed: list[str] = []
    table: TerminalTable
    shown = View(lang, deck)

    def read(prompt: str) -> str:
        obs = table.game.observation(0)
        if any(isinstance(a, Choose) for a in obs.legal_actions):
            return "1"
        legal = [a.card for a in obs.legal_actions if isinstance(a, Play)]
        typed.append(card_text(legal[-1], shown))
        assert len(typed) < 200, out.getvalue()[-300:]  # asked again and again: not understood
        return typed[-1]

    players = {s: make_player("rule", s) for s in (1, 2, 3)}
    rules = Rules.preset("romand", target=300)
    table = TerminalTable(rules, Console(View(lang, deck), read, out), players, Random(6))
    table.play_game()
    assert table.game.is_over
    assert len(typed) >= 9
    unknown = i18n.text(lang, "term.unknown", key="").split("'")[0]
    assert unknown not in out.getvalue()


def test_thanking_is_confirmed_with_what_the_team_has() -> None:
    """``t`` asks first, as the table in the browser does, and warns when the team has not
    reached the target; declined, the game goes on; the human's own thanks read "You thank"."""
    rules = Rules.preset("romand", claim="thank", target=300)
    out = io.StringIO()
    prompts: list[str] = []
    early = [True]  # the first ``t``: before the target, declined
    table: TerminalTable

    def read(prompt: str) -> str:
        prompts.append(prompt)
        obs = table.game.observation(0)
        if "[y/n]" in prompt:
            if early[0]:
                early[0] = False
                return "n"
            return "y"
        if "contract" in prompt:
            return "chibre" if any(isinstance(a, Chibre) for a in obs.legal_actions) else "O"
        if early[0] or obs.totals[0] >= obs.rules.target:
            return "t"
        return card_code(next(a.card for a in obs.legal_actions if isinstance(a, Play)))

    players = {s: make_player("rule", s) for s in (1, 2, 3)}
    table = TerminalTable(rules, Console(View("en"), read, out), players, Random(3))
    table.play_game()
    text = out.getvalue()
    assert table.game.is_over
    assert "Thank now and claim the win? Your team has 0 of 300." in text
    assert "That is not enough yet: thanking now loses the game." in text
    assert prompts.count("Thank? [y/n] ") >= 1
    assert "wrongly" not in text  # declined before the target: the game went on
    assert len(table.game.hands) >= 2


@pytest.mark.parametrize(
    ("answer", "lang", "declared"),
    [("y", "en", True), ("n", "en", False), ("o", "fr", True), ("j", "de", True)],
)
def test_the_human_is_asked_once_for_a_declaration_outside_its_card(answer, lang, declared):
    # Obenabe, the human (seat 0) announced ♦Q-♦A with ♦A and took the first trick: before
    # the lead to the second it may still declare ♥6-♥9 (RULES.md §5) — asked once.
    from chibre.notation import parse_deal

    rules = Rules.make(auto_weis=False, first_chooser="right_of_dealer")
    out = io.StringIO()
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return answer

    table = TerminalTable(rules, Console(View(lang), read, out), {}, Random(1))
    game = table.game
    game.apply(parse_deal("3:AKQ.9876..76/876..AKQJ.AK/JT9.AKQJT..8/..T9876.QJT9"))
    game.apply(Choose(4), 0)
    game.apply(Play(parse_card("♦A"), (parse_cards("♦Q ♦K ♦A"),)), 0)
    for c in ("♦6", "♦9", "♣9"):
        game.apply(Play(parse_card(c)), game.current_player)
    further = Declare((parse_cards("♥6 ♥7 ♥8 ♥9"),))
    assert further in game.legal_actions(0)
    table.offer_declarations()
    table.offer_declarations()
    assert len(prompts) == 1 and "♥" in prompts[0]
    assert (game.record.entries[-1] == (0, further)) is declared
    assert game.totals == ([81, 0] if declared else [31, 0])
    if declared and lang == "en":
        assert "more weis (+50)" in out.getvalue()


# --- pure functions --------------------------------------------------------------------------


def test_cards_are_red_for_hearts_and_diamonds_only() -> None:
    colour = View("en", style=Style(True))
    assert card_text(parse_card("H10"), colour) == "\x1b[31m♥10\x1b[0m"
    assert card_text(parse_card("D6"), colour).startswith("\x1b[31m")
    assert card_text(parse_card("SA"), colour) == "♠A"
    assert card_text(parse_card("HQ"), View("fr")) == "♥D"
    assert card_text(parse_card("HQ"), View("de", deck="swiss")) == "RosO"
    assert visible_len(card_text(parse_card("H10"), colour)) == 3


def test_hand_shows_keys_and_brackets_the_cards_that_may_not_be_played() -> None:
    game = Game(Rules())
    game.deal(Random(3))
    while game.current_player != 0 or game.hand is None or game.hand.phase != "play":
        seat = game.current_player
        assert seat is not None and seat != CHANCE
        game.apply(make_player("random", seat).act(game.observation(seat)), seat)
    obs = game.observation(0)
    text, keys = render_hand(obs, View("en"))
    assert len(keys) == bin(obs.hand).count("1")
    legal = legal_cards(obs.hand, obs.trick, obs.contract)
    for key, card in keys.items():
        shown = card_text(card, View("en"))
        if legal >> card & 1:
            assert f"{key} {shown}" in text
        else:
            assert f"{key} ({shown})" in text


def test_display_order_puts_trump_first_and_alternates_colours() -> None:
    hand = parse_cards("D6 DA H7 S9 SK CA C6 HJ")
    assert [card_code(c) for c in display_order(hand, -1)] == [
        "HJ", "H7", "SK", "S9", "DA", "D6", "CA", "C6",
    ]  # fmt: skip
    assert [card_code(c) for c in display_order(hand, 3)][:2] == ["CA", "C6"]
    assert [card_code(c) for c in display_order(hand, 5)][:2] == ["H7", "HJ"]


def test_contract_keys_with_pique_double() -> None:
    game = Game(Rules.preset("pique-double", pique_double="choice"))
    game.deal(Random(0))
    seat = game.current_player
    assert seat is not None
    menu = contract_menu(game.observation(seat), View("en"))
    keys = {k: a for k, a, _ in menu}
    assert keys["3"] == Choose(2) and keys["7"] == Choose(2, True)
    assert isinstance(keys["0"], Chibre)
    labels = dict((k, label) for k, _, label in menu)
    assert labels["7"] == "trump ♠ double ×2" and labels["3"] == "trump ♠ simple"
    assert read_contract("7", menu) == Choose(2, True)
    assert read_contract("obenabe", menu) == Choose(4)
    assert read_contract("H", menu) == Choose(1)
    assert isinstance(read_contract("chibre", menu), Chibre)
    assert read_contract("9", menu) is None
    # the calculator's words: symbols, French and German names
    assert read_contract("♣", menu) == Choose(3)
    assert read_contract("Coeur", menu) == Choose(1)
    assert read_contract("undenufe", menu) == Choose(5)
    assert read_contract("nothing", menu) is None
    # a trump named with the word for it
    assert read_contract("atout pique", menu) == Choose(2)
    assert read_contract("Trumpf Rosen", menu) == Choose(1)  # Swisslos: Rosen are ♥
    assert read_contract("atout", menu) is None
    # Swiss suit names through the table's suit mapping
    for mapping, names in SUIT_MAPPINGS.items():
        rules = Rules(suit_mapping=mapping)
        for name, suit in names.items():
            action = read_contract(name, menu, rules)
            assert isinstance(action, Choose) and action.contract == suit, (mapping, name)
    # the Swiss suits in French and English, as the menu shows them in those languages
    for word, german in (("roses", "Rosen"), ("écus", "Schilten"), ("glands", "Eicheln"),
                         ("atout grelots", "Schellen"), ("acorns", "Eicheln"),
                         ("trump shields", "Schilten"), ("bells", "Schellen")):  # fmt: skip
        assert read_contract(word, menu) == read_contract(german, menu), word
    # simple or double, by name
    assert read_contract("pique double", menu) == Choose(2, True)
    assert read_contract("atout pique  double", menu) == Choose(2, True)
    assert read_contract("Schilten doppelt", menu) == Choose(2, True)  # Swisslos: ♠
    assert read_contract("pique", menu) == Choose(2)
    assert read_contract("coeur double", menu) == Choose(1)  # no double offered: the one


def test_a_level_that_does_not_load_is_played_by_rule_then_random(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    notes: list[str] = []
    view = View("en")
    monkeypatch.setitem(PLAYERS, "unwritten", ("chibre.bots.unwritten", "Nobody", {}))
    player = _level_player("unwritten", 1, 2, view, notes.append)
    assert isinstance(player, RulePlayer)
    assert notes == ["note: the unwritten player is not available yet; Partner: the rule player"]
    assert isinstance(_level_player("rule", 1, 2, view, notes.append), RulePlayer)
    assert len(notes) == 1  # a level that loads plays without a note
    monkeypatch.setitem(PLAYERS, "rule", ("chibre.bots.rule", "NoSuchPlayer", {}))
    player = _level_player("unwritten", 1, 3, view, notes.append)
    assert isinstance(player, RandomPlayer)
    assert notes[-1].endswith("Left: the random player")


def test_illegal_reasons_in_every_language_agree_with_the_rules() -> None:
    rng = Random(4)
    checked = 0
    for _ in range(30):
        game = Game(Rules())
        game.deal(rng)
        game.apply(Choose(rng.randrange(6)))
        for _ in range(rng.randrange(1, 30)):
            hand = game.hand
            assert hand is not None
            if hand.trick:
                for c in range(36):
                    english = why_illegal(hand.hands[hand.to_act], hand.trick, hand.contract, c)
                    for lang in ("fr", "de", "en"):
                        said = illegal_reason(
                            View(lang), hand.hands[hand.to_act], hand.trick, hand.contract, c
                        )
                        assert (said is None) == (english is None)
                    checked += 1
            legal = [a for a in game.legal_actions() if isinstance(a, Play)]
            game.apply(rng.choice(legal))
    assert checked > 500
    hand = parse_cards("HA S6 S7")
    said = illegal_reason(
        View("fr"), hand, [parse_card("C10"), parse_card("HJ")], 1, parse_card("HA")
    )
    assert said is not None and "sous-couper" in said
    # with the Swiss deck a suit in the sentence is named whole, not shortened as in the hand
    said = illegal_reason(View("de", deck="swiss"), hand, [parse_card("S10")], 4, parse_card("HA"))
    assert said is not None and said.startswith("Schilten ist angespielt"), said


def test_score_table_and_small_helpers() -> None:
    from chibre.hand import HandScore

    score = HandScore(2, (20, 0), (50, 0), (98, 59), (0, 0))
    text = render_hand_score(0, score, (336, 118), 1500, View("en"))
    assert re.search(r"total ×2\s+336\s+118", text)
    assert re.search(r"Game\s+336\s+118\s+target 1500", text)
    assert _key_range(["1", "2", "3", "5", "7", "8"]) == "1-3,5,7-8"
    assert language_from_env({"LANG": "fr_CH.UTF-8"}) == "fr"
    assert language_from_env({"LC_ALL": "de_CH.UTF-8", "LANG": "fr_CH"}) == "de"
    assert language_from_env({"LANG": "C.UTF-8"}) == "en"
    assert language_from_env({}) == "en"


@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_every_text_exists_in_every_language(lang: str) -> None:
    from chibre.i18n import catalogue

    texts, english = catalogue(lang), catalogue("en")
    assert {k for k in texts if k.startswith("term.")} == {
        k for k in english if k.startswith("term.")
    }
    for key, text in texts.items():
        assert set(re.findall(r"{(\w+)", text)) == set(re.findall(r"{(\w+)", english[key]))


class _Pusher:
    """A computer player that always chibres, even when it may not."""

    name = "pusher"

    def act(self, observation: object) -> Chibre:
        return Chibre()


def test_a_computer_move_the_rules_refuse_is_replaced_with_a_note() -> None:
    out = io.StringIO()
    answers = iter(["q", "y"])
    players = {s: _Pusher() for s in (1, 2, 3)}
    table = TerminalTable(
        Rules(), Console(View("en"), lambda _: next(answers), out), players, Random(1)
    )
    with pytest.raises(Quit):
        table.play_game()
    text = out.getvalue()
    assert "answered Chibre(), which the rules refuse; it plays another move" in text
    hand = table.game.hand
    assert hand is not None and hand.contract >= 0  # the game went on to the play


CONFUSABLE = set("iIl1|")


@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_swiss_suit_abbreviations_cannot_be_mistaken(lang: str) -> None:
    """Two suits' short names differ in a letter that is not one of i, l, 1 (\"Sil\" and
    \"Sll\" differ only there)."""
    from chibre.cards import SWISS_SUIT_NAMES
    from chibre.terminal import swiss_short

    shorts = [swiss_short(lang, name) for name in SWISS_SUIT_NAMES["de"]]
    assert len(set(shorts)) == 4
    for i, a in enumerate(shorts):
        for b in shorts[i + 1 :]:
            clear = [
                (x, y)
                for x, y in zip(a.ljust(len(b)), b.ljust(len(a)), strict=True)
                if x != y and not {x, y} <= CONFUSABLE | {" "}
            ]
            assert clear, f"{a!r} and {b!r} differ only in letters that look alike"


def _contract_after_a_chibre(seed: int) -> tuple[list[str], str, TerminalTable]:
    """The first hand of a game whose partner always chibres, up to the human's contract:
    ``0`` answered once when chibre is not offered, then ``1``."""
    out = io.StringIO()
    asked: list[str] = []
    table: TerminalTable

    def read(prompt: str) -> str:
        obs = table.game.observation(0)
        if "contract" not in prompt:
            raise Quit  # the contract is named: enough
        offered = any(isinstance(a, Chibre) for a in obs.legal_actions)
        asked.append("1" if offered or asked else "0")
        return asked[-1]

    players = {1: make_player("rule", 1), 2: _Pusher(), 3: make_player("rule", 3)}
    table = TerminalTable(Rules(), Console(View("en"), read, out), players, Random(seed))
    with pytest.raises(Quit):
        table.play_game()
    return asked, out.getvalue(), table


def test_chibre_asked_for_after_the_partner_chibred_is_explained() -> None:
    """The partner chibred: ``0`` is said to be no longer possible, not an unknown key, and
    the human then names the trump."""
    asked, text, table = next(
        found for seed in range(40) if (found := _contract_after_a_chibre(seed))[0][:1] == ["0"]
    )
    assert asked == ["0", "1"], asked
    assert "You cannot chibre now: your partner already did, you choose the trump." in text
    assert "Unknown key" not in text
    hand = table.game.hand
    assert hand is not None and hand.contract >= 0


def act_a_few(child: pexpect.spawn, moves: int) -> None:
    """Make ``moves`` of the human's moves: the first key each prompt offers."""
    for _ in range(moves):
        i = child.expect([CONTRACT_PROMPT, CARD_PROMPT])
        if i == 0:
            child.sendline(child.match.group(1).split(",")[0])
        else:
            child.sendline(legal_keys(child.before)[0][0])


def test_a_game_kept_in_a_file_goes_on_where_it_stopped(tmp_path: Path) -> None:
    kept = tmp_path / "game.txt"
    first = spawn("--seed", "4", "--record", str(kept))
    act_a_few(first, 3)
    first.expect([CONTRACT_PROMPT, CARD_PROMPT])
    first.sendline("q")
    first.expect(r"Quit the game\? \[y/n\] ")
    first.sendline("y")
    first.expect(f"The game is kept in {kept}")
    first.expect("Goodbye.")
    finish(first)
    before = parse_record(kept.read_text(encoding="utf-8"))
    played = sum(1 for _, a in before.entries if isinstance(a, Play))
    assert played >= 3 and not before.replay()[0].is_over
    assert not list(tmp_path.glob("*.part"))
    # the record reads as every other: `chibre replay` shows it
    assert cli.main(["replay", str(kept)]) == 0
    again = spawn("--seed", "5", "--record", str(kept))
    again.expect(r"Going on with the game kept in \S+: hand 1, \d+ to \d+\.")
    act_a_few(again, 2)
    again.expect([CONTRACT_PROMPT, CARD_PROMPT])
    again.sendeof()
    again.expect("Goodbye.")
    finish(again)
    after = parse_record(kept.read_text(encoding="utf-8"))
    assert after.rules == before.rules
    assert after.entries[: len(before.entries)] == before.entries
    assert sum(1 for _, a in after.entries if isinstance(a, Play)) >= played + 2


def test_a_finished_game_in_the_file_is_not_played_over(tmp_path: Path) -> None:
    game = Game(Rules.preset("romand", target=100))
    rng = Random(2)
    while not game.is_over:
        if game.current_player == CHANCE:
            game.deal(rng)
        else:
            game.apply(rng.choice(game.legal_actions()), game.current_player)
    kept = tmp_path / "over.txt"
    kept.write_text(format_record(game.record), encoding="utf-8")
    refused = spawn("--record", str(kept))
    refused.expect(pexpect.EOF)
    refused.close()
    assert refused.exitstatus == 2
    assert "holds a finished game" in refused.before and "Traceback" not in refused.before
    assert kept.read_text(encoding="utf-8") == format_record(game.record)  # left as it was


def test_ctrl_c_while_the_players_are_prepared_leaves_without_a_traceback() -> None:
    child = spawn("--seed", "1")
    child.expect("chibre — ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 or child.signalstatus == signal.SIGINT
    assert "Traceback" not in child.before


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("deck", ["french", "swiss"])
def test_the_help_s_card_examples_are_read(lang: str, deck: str) -> None:
    """The cards the help gives as examples, in the deck played, are cards the prompt reads."""
    examples = i18n.text(lang, f"term.help_cards_{deck}")
    assert "{examples}" not in i18n.text(lang, "term.help", examples=examples)
    words = re.findall(r"[«']\s?([^»']+?)\s?[»']", examples)
    assert len(words) == (1 if deck == "french" else 2), examples
    for word in words:
        parse_card(word)  # raises when it cannot
