"""`chibre play`: play chibre in the terminal against three computer players.

The human sits at seat 0 (bottom); the partner (seat 2) sits opposite, the opponents to the
right (seat 1, who plays next) and to the left (seat 3). The same ``Game`` as the web table,
with any preset and option; plain line input (``input()``), so it works over ssh, in any
terminal and under a test driver. Cards, contracts and commands are chosen by key; ``?``
lists the keys.

The rendering functions (``card_text``, ``render_table``, ``render_hand``,
``render_hand_score`` …) are pure: an observation (and the names) in, text out.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any, TextIO

from chibre import i18n, record_file
from chibre.actions import Action, Chibre, Choose, Declare, Play, Thank
from chibre.bots import TABLE_PLAYERS, Player, make_player
from chibre.bots.levels import describe
from chibre.bots.solver import warm_up
from chibre.cards import (
    DECKS,
    RANK_LETTERS,
    SUIT_SYMBOLS,
    SWISS_SUIT_NAMES,
    card_name,
    cards_of,
    parse_card,
    swiss_suit,
)
from chibre.coach.advice import advise
from chibre.coach.report import action_text, reason_text
from chibre.coach.value import Budget
from chibre.errors import ChibreError, NotationError
from chibre.events import (
    Chibred,
    ContractNamed,
    Event,
    GameWon,
    HandScored,
    HandStarted,
    StoeckDeclared,
    Thanked,
    TrickTaken,
    WeisAdded,
    WeisAnnounced,
    WeisScored,
)
from chibre.game import CHANCE, Game
from chibre.hand import HandScore
from chibre.observation import Observation
from chibre.options import add_rules_arguments, rules_from
from chibre.play import illegal_reason as rule_broken
from chibre.rules import Rules
from chibre.scoresheet import InvalidEntry, parse_contract
from chibre.weis import CARRE, Weis, weis_of

LANGS = ("fr", "de", "en")
HUMAN = 0
COMMANDS = ("?", "q", "l", "s", "t", "h")
TERM = "term."
"""The prefix of the terminal's keys in the message catalogue (``chibre.i18n``)."""

# --- words -----------------------------------------------------------------------------------

_SWISS_COLOURS = {"Rosen": "31", "Schellen": "33", "Eicheln": "32", "Schilten": "34"}


def language_from_env(env: dict[str, str] | None = None) -> str:
    """The language from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``fr_CH.UTF-8`` → fr)."""
    e = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = e.get(var, "")
        if value:
            code = value[:2].lower()
            return code if code in LANGS else "en"
    return "en"


# --- colour ----------------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Style:
    """ANSI colours, or none at all (``--no-color``, ``NO_COLOR``, output not a terminal)."""

    colour: bool = True

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def bold(self, text: str) -> str:
        return self.paint(text, "1")

    def dim(self, text: str) -> str:
        return self.paint(text, "2")


def wants_colour(no_color: bool, stream: TextIO, env: dict[str, str] | None = None) -> bool:
    e = os.environ if env is None else env
    return not no_color and "NO_COLOR" not in e and stream.isatty()


def visible_len(text: str) -> int:
    return len(_ANSI.sub("", text))


def pad(text: str, width: int, align: str = "<") -> str:
    """Pad ``text`` to ``width`` visible characters (colour codes take no room)."""
    room = max(width - visible_len(text), 0)
    if align == ">":
        return " " * room + text
    if align == "^":
        return " " * (room // 2) + text + " " * (room - room // 2)
    return text + " " * room


# --- the view --------------------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """How the table is drawn: language, deck, suit mapping, colours and the seats' names."""

    lang: str = "en"
    deck: str = "french"
    mapping: str = "swisslos"
    style: Style = Style(False)

    def t(self, key: str, /, **fields: Any) -> str:
        return i18n.text(self.lang, TERM + key, **fields)

    def seat(self, seat: int) -> str:
        return self.t("seats").split("|")[seat]

    def team(self, team: int) -> str:
        """The team from the human's side: 0 is us (seats 0 and 2)."""
        return self.t("teams").split("|")[team]

    def suit(self, suit: int) -> str:
        if self.deck == "swiss":
            name = swiss_suit(suit, self.mapping)
            return self.style.paint(
                i18n.text(self.lang, f"{TERM}suit.{name}"), _SWISS_COLOURS[name]
            )
        symbol = SUIT_SYMBOLS[suit]
        return self.style.paint(symbol, "31") if suit in (0, 1) else symbol

    def suit_word(self, suit: int) -> str:
        """A suit inside a sentence: its sign in the French deck, its whole name in the Swiss
        one (the hand's short names are for the hand)."""
        if self.deck == "swiss":
            name = swiss_suit(suit, self.mapping)
            return self.style.paint(SWISS_SUIT_NAMES[self.lang][name], _SWISS_COLOURS[name])
        return self.suit(suit)

    def colon(self) -> str:
        """A colon as the language writes it (French: with a space before)."""
        return i18n.colon(self.lang)

    def card(self, c: int) -> str:
        return card_text(c, self)

    def cards(self, cs: Sequence[int]) -> str:
        return " ".join(self.card(c) for c in cs)

    def contract(self, contract: int, factor: int = 1, double: bool | None = None) -> str:
        if contract < 4 and self.deck == "swiss":
            name = SWISS_SUIT_NAMES[self.lang][swiss_suit(contract, self.mapping)]
            text = self.t(
                "trump",
                suit=self.style.paint(name, _SWISS_COLOURS[swiss_suit(contract, self.mapping)]),
            )
        elif contract < 4:
            text = self.t("trump", suit=self.suit(contract))
        else:
            text = ("Obenabe", "Undenufe")[contract - 4]
        if double is not None:
            text += " " + self.t("double" if double else "simple")
        if factor != 1:
            text += self.t("factor", factor=factor)
        return text

    def weis(self, w: Weis) -> str:
        if w.kind == CARRE:
            return f"4×{RANK_LETTERS[self.lang, self.deck][w.top]} ({w.points})"
        low, top = w.suit * 9 + w.low, w.suit * 9 + w.top
        return f"{self.card(low)}–{self.card(top)} ({w.points})"


def swiss_short(lang: str, name: str) -> str:
    """The short name of a Swiss suit (there are no standard symbols for them), such that no
    two suits of a language can be mistaken for each other."""
    return i18n.text(lang, f"{TERM}suit.{name}")


def card_text(c: int, view: View) -> str:
    """A card as drawn in the terminal: ``♥10``, ``♠A`` (red ♦ ♥), or ``RosO`` (Swiss deck)."""
    rank = RANK_LETTERS[view.lang, view.deck][c % 9]
    suit = c // 9
    if view.deck == "swiss":
        name = swiss_suit(suit, view.mapping)
        return view.style.paint(
            i18n.text(view.lang, f"{TERM}suit.{name}") + rank, _SWISS_COLOURS[name]
        )
    text = SUIT_SYMBOLS[suit] + rank
    return view.style.paint(text, "31") if suit in (0, 1) else text


def illegal_reason(
    view: View, hand: int, trick: Sequence[int], contract: int, c: int
) -> str | None:
    """Why ``c`` may not be played now, in the view's language and cards; ``None`` when it
    may."""
    reason = rule_broken(hand, trick, contract, c)
    if reason is None:
        return None
    key, fields = reason
    words = {
        name: view.suit_word(value)
        if name == "suit"
        else ", ".join(view.card(x) for x in display_order(value, contract))
        if name == "held"
        else view.card(value)
        for name, value in fields.items()
    }
    return i18n.text(view.lang, key, **words)


def display_order(hand: int, contract: int) -> list[int]:
    """The cards of a hand as shown: suits alternating red and black (♥ ♠ ♦ ♣), trump first,
    high to low (low to high in Undenufe)."""
    suits = [1, 2, 0, 3]
    if 0 <= contract < 4:
        suits.remove(contract)
        suits.insert(0, contract)
    low_first = contract == 5
    return sorted(
        cards_of(hand),
        key=lambda c: (suits.index(c // 9), c % 9 if low_first else -(c % 9)),
    )


def render_hand(obs: Observation, view: View) -> tuple[str, dict[str, int]]:
    """The seat's hand with a key per card; cards it may not play now in (brackets), dimmed.
    Returns the text and the keys (key → card)."""
    legal = {a.card for a in obs.legal_actions if isinstance(a, Play)}
    keys: dict[str, int] = {}
    parts = []
    for i, c in enumerate(display_order(obs.hand, obs.contract), 1):
        keys[str(i)] = c
        if not legal or c in legal:
            parts.append(f"{view.style.bold(str(i))} {view.card(c)}")
        else:
            parts.append(view.style.dim(f"{i} ({card_text(c, _plain(view))})"))
    return f"{view.t('your_cards')}{view.colon()}  " + "   ".join(parts), keys


def _plain(view: View) -> View:
    return View(view.lang, view.deck, view.mapping, Style(False))


def render_status(obs: Observation, view: View) -> str:
    """The contract and its factor, announced and shown weis, stöck, the score."""
    lines = []
    if obs.contract >= 0:
        chibred = view.t("after_chibre") if obs.chibres else ""
        lines.append(
            view.t(
                "contract",
                contract=view.contract(obs.contract, obs.factor),
                name=view.seat(obs.contract_seat),
                chibred=chibred,
            )
        )
    elif obs.phase == "contract":
        lines.append(view.t("no_contract", name=view.seat(obs.to_act)))
    announced = [f"{view.seat(s)} {p}" for s, p in enumerate(obs.announced) if p]
    if obs.shown_weis:
        shown = ", ".join(f"{view.seat(s)} {view.weis(w)}" for s, w in obs.shown_weis)
        lines.append(view.t("shown", team=view.team(obs.weis_team), list=shown))
    elif announced:
        lines.append(view.t("announced", list=", ".join(announced)))
    if obs.stoeck_seat >= 0:
        lines.append(view.t("stoeck_held", name=view.seat(obs.stoeck_seat)))
    lines.append(score_line(obs, view))
    return "\n".join(lines)


def score_line(obs: Observation, view: View) -> str:
    a, b = obs.totals
    ha, hb = obs.hand_points
    line = view.t(
        "score", us=view.team(0), them=view.team(1), a=a, b=b, ha=ha, hb=hb,
        target=obs.rules.target,
    )  # fmt: skip
    if any(obs.striche):
        sa, sb = obs.striche
        line += " · " + view.t("striche", us=view.team(0), them=view.team(1), a=sa, b=sb)
    return line


def render_table(obs: Observation, view: View, trick: Sequence[int] | None = None) -> str:
    """The four seats around the trick: partner on top, left and right, the human below;
    ``▸`` marks the seat to play. ``trick`` (from ``obs.trick_leader``) defaults to the
    trick being played."""
    cards = list(obs.trick if trick is None else trick)
    shown: dict[int, str] = {}
    for i, c in enumerate(cards):
        shown[(obs.trick_leader + i) % 4] = view.card(c)

    def name(seat: int) -> str:
        marker = "▸ " if obs.to_act == seat and obs.phase in ("play", "contract") else ""
        return view.style.bold(marker + view.seat(seat))

    def slot(seat: int) -> str:
        return shown.get(seat, view.style.dim("·"))

    width = 44
    rows = [
        pad(name(2), width, "^"),
        pad(slot(2), width, "^"),
        pad(name(3), 12, ">") + "  " + pad(slot(3), 6, ">") + " " * 4 + pad(slot(1), 6) + "  "
        + name(1),
        pad(slot(0), width, "^"),
        pad(name(0), width, "^"),
    ]  # fmt: skip
    return "\n".join("  " + r.rstrip() for r in rows)


def render_hand_score(
    number: int, score: HandScore, totals: Sequence[int], target: int, view: View
) -> str:
    """The hand's breakdown per team — tricks, match, weis, stöck, the total × factor — and
    the game totals."""
    rows = view.t("rows").split("|")
    head = view.style.bold(view.t("hand_score", n=number + 1))
    w = 16
    lines = [pad(head, w) + pad(view.team(0), 7, ">") + pad(view.team(1), 7, ">")]
    blocks = (score.tricks, score.match, score.weis, score.stoeck)
    for label, (a, b) in zip(rows[:4], blocks, strict=True):
        lines.append(pad("  " + label, w) + pad(str(a), 7, ">") + pad(str(b), 7, ">"))
    total = f"  {rows[4]} ×{score.factor}"
    ta, tb = score.totals
    lines.append(pad(total, w) + pad(str(ta), 7, ">") + pad(str(tb), 7, ">"))
    ga, gb = totals
    lines.append(
        pad(view.t("game_row"), w)
        + pad(view.style.bold(str(ga)), 7, ">")
        + pad(view.style.bold(str(gb)), 7, ">")
        + "   "
        + view.t("target", target=target)
    )
    return "\n".join(lines)


# --- reading the human's keys ----------------------------------------------------------------


class Quit(Exception):
    """The player asked to leave the table (``q``, confirmed, or the end of the input)."""


def contract_menu(obs: Observation, view: View) -> list[tuple[str, Action, str]]:
    """The contract choices as (key, action, label): 1–6 the contracts, 7 the pique double,
    0 chibre."""
    menu: list[tuple[str, Action, str]] = []
    choice = obs.rules.pique_double == "choice"
    for a in obs.legal_actions:
        if isinstance(a, Choose):
            factor = obs.rules.factor(a.contract, a.double)
            double = a.double if choice and a.contract == 2 else None
            key = "7" if a.double else str(a.contract + 1)
            menu.append((key, a, view.contract(a.contract, factor, double)))
        elif isinstance(a, Chibre):
            menu.append(("0", a, view.t("chibre_key")))
    return menu


CHIBRE_WORDS = ("chibre", "chibrer", "schieben", "schiebe", "push")
"""Words that chibre, besides the key 0."""
TRUMP_WORDS = ("atout", "trumpf", "trump")
DOUBLE_WORDS = ("double", "doppelt", "x2", "×2")
"""After a contract's name: its double (pique double, where the table offers the choice)."""


def read_contract(
    text: str, menu: Sequence[tuple[str, Action, str]], rules: Rules | None = None
) -> Action | None:
    """The contract action a key or a word names (``3``, ``H``, ``obenabe``, ``Rosen``,
    ``chibre``): the words are the calculator's (``scoresheet.parse_contract``), the suit
    names read through ``rules``' suit mapping. None when the word names nothing offered."""
    word = " ".join(text.lower().split())
    for key, action, _ in menu:
        if word == key:
            return action
    first, _, rest = word.partition(" ")
    if first in TRUMP_WORDS and rest:  # "atout pique", "Trumpf Rosen"
        word = rest
    if word in CHIBRE_WORDS:
        return next((a for _, a, _ in menu if isinstance(a, Chibre)), None)
    named, _, last = word.rpartition(" ")
    double = last in DOUBLE_WORDS  # "pique double", "Schilten doppelt"
    try:
        k = parse_contract(named if double else word, rules)
    except InvalidEntry:
        return None
    offered = [a for _, a, _ in menu if isinstance(a, Choose) and a.contract == k]
    alone = offered[0] if len(offered) == 1 else None  # no choice of simple or double
    return next((a for a in offered if a.double == double), alone)


class Console:
    """The human's side of the table: reads keys, writes lines."""

    def __init__(
        self,
        view: View,
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
    ) -> None:
        self.view = view
        self._read = read
        self.out = out or sys.stdout

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        try:
            return self._read(prompt).strip()
        except EOFError:
            self.say()
            raise Quit from None

    def yes(self, prompt: str) -> bool:
        while True:
            answer = self.ask(prompt).lower()
            if answer in self.view.t("yes").split("|"):
                return True
            if answer in ("n", "no", "non", "nein"):
                return False

    def confirm_quit(self) -> None:
        if self.yes(self.view.t("quit_prompt")):
            raise Quit


# --- the table -------------------------------------------------------------------------------


FALLBACK_LEVELS = ("rule", "random")
"""Who plays for a level that does not load yet, in order (as at the table in the browser)."""


def _level_player(
    level: str, seed: int, seat: int, view: View, say: Callable[[str], None]
) -> Player:
    """The computer player of ``level``; where it does not load, the first of
    ``FALLBACK_LEVELS`` that does, with a note naming it."""
    for name in (level, *FALLBACK_LEVELS):
        try:
            player = make_player(name, seed)
        except (ImportError, AttributeError):
            continue
        if name != level:
            say(view.t("fallback", level=level, seat=view.seat(seat), instead=name))
        return player
    raise ChibreError(f"no computer player loads for {view.seat(seat)}")


class TerminalTable:
    """One human (seat 0) and three computer players at one ``Game`` after another."""

    def __init__(
        self,
        rules: Rules,
        console: Console,
        players: dict[int, Player],
        rng: Random,
        delay: float = 0.0,
        hints: bool = False,
        record: Path | None = None,
    ) -> None:
        self.rules = rules
        self.record = record
        self.hints = hints
        self.console = console
        self.view = console.view
        self.players = players
        self.rng = rng
        self.delay = delay
        self.game = Game(rules)
        self._offered: set[tuple[int, Declare]] = set()  # (hand, declaration) asked about

    # --- the loop -----------------------------------------------------------------------

    def play_game(self, game: Game | None = None) -> None:
        """Play one game — a new one, or ``game`` from where it stands — to its end (or until
        the human quits: ``Quit``)."""
        game = self.game = game or Game(self.rules)
        self._offered = set()
        while not game.is_over:
            seat = game.current_player
            if seat == CHANCE:
                self.narrate(game.deal(self.rng))
                self.keep()
                continue
            self.offer_declarations()
            if game.is_over:
                break
            assert seat is not None
            obs = game.observation(seat)
            action = self.human_turn(obs) if seat == HUMAN else self.computer_turn(obs)
            self.apply(action, seat)

    def computer_turn(self, obs: Observation) -> Action:
        """The computer player's action; a move the rules refuse is replaced by a random
        legal one, with a note, so that the human's game goes on."""
        action = self.players[obs.seat].act(obs)
        if self.delay:
            time.sleep(self.delay)
        if action in obs.legal_actions:
            return action
        legal = [a for a in obs.legal_actions if not isinstance(a, Thank)]
        self.console.say(
            self.view.t("bot_illegal", name=self.view.seat(obs.seat), action=repr(action))
        )
        return self.rng.choice(legal)

    def apply(self, action: Action, seat: int) -> None:
        self.narrate(self.game.apply(action, seat))
        self.keep()

    def keep(self) -> None:
        """Write the game to the record file, when there is one, as it stands now."""
        if self.record is not None:
            record_file.keep(self.record, self.game.record)

    def offer_declarations(self) -> None:
        """Ask the human about each declaration it may make outside its card now (weis after
        its card at the first trick, more weis before the lead to the second, stöck): once
        each per hand, whoever is to act."""
        game = self.game
        while not game.is_over:
            key = next(
                (
                    (len(game.hands), a)
                    for a in game.legal_actions(HUMAN)
                    if isinstance(a, Declare) and (len(game.hands), a) not in self._offered
                ),
                None,
            )
            if key is None:
                return
            self._offered.add(key)
            action = key[1]
            if action.weis:
                shown = ", ".join(self._weis_of(game.observation(HUMAN), action.weis))
                question = self.view.t("declare_weis_prompt", weis=shown)
            else:
                question = self.view.t("declare_stoeck_prompt")
            if self.console.yes(question):
                self.apply(action, HUMAN)

    # --- the human ----------------------------------------------------------------------

    def show_table(self, obs: Observation) -> None:
        say = self.console.say
        say()
        say(render_status(obs, self.view))
        say(render_table(obs, self.view))

    def human_turn(self, obs: Observation) -> Action:
        if obs.phase == "contract":
            return self._ask_contract(obs)
        return self._ask_card(obs)

    def _command(self, word: str, obs: Observation, show: Callable[[], None]) -> Action | None:
        """Handle a command key; returns ``Thank()`` when the human thanks."""
        view, say = self.view, self.console.say
        if word == "?":
            say(view.t("help", examples=view.t(f"help_cards_{view.deck}")))
        elif word == "q":
            self.console.confirm_quit()
        elif word == "l":
            say(self.last_trick(obs))
        elif word == "s":
            show()
        elif word == "t":
            if obs.rules.claim != "thank":
                say(view.t("not_now", what="t"))
                return None
            # as at the table in the browser: said only once confirmed, with what the team has
            points, target = obs.totals[0], obs.rules.target
            say(i18n.text(view.lang, "thank_confirm", points=points, target=target))
            if points < target:
                say(i18n.text(view.lang, "thank_too_early"))
            if self.console.yes(view.t("thank_prompt")):
                return Thank()
        elif word == "h":
            say(self._hint(obs))
        return None

    def _hint(self, obs: Observation) -> str:
        """The coach's best card or contract and its reason, from the human's observation."""
        if not self.hints:
            return self.view.t("hints_off")
        advice = advise(obs, Budget(samples=16, contract_samples=12))
        lang = self.view.lang
        return i18n.text(
            lang,
            "coach.hint_text",
            card=action_text(advice.best, lang, self.view.deck),
            reason=reason_text(advice.reason, lang, self.view.deck),
        )

    def _thank_hint(self, obs: Observation) -> None:
        if obs.rules.claim == "thank" and obs.totals[0] >= obs.rules.target:
            self.console.say(self.view.t("thank_hint"))

    def _ask_contract(self, obs: Observation) -> Action:
        view, say = self.view, self.console.say
        menu = contract_menu(obs, view)

        def show() -> None:
            self.show_table(obs)
            say(f"{view.t('your_cards')}{view.colon()}  {view.cards(display_order(obs.hand, -1))}")
            say("   ".join(f"{view.style.bold(k)} {label}" for k, _, label in menu))
            self._thank_hint(obs)

        show()
        keys = ",".join(k for k, _, _ in menu)
        while True:
            word = self.console.ask(view.t("prompt_contract", keys=keys))
            if not word:
                continue
            if word.lower() in COMMANDS:
                thank = self._command(word.lower(), obs, show)
                if thank is not None:
                    return thank
                continue
            action = read_contract(word, menu, obs.rules)
            if action is not None:
                return action
            if word == "0" or word.lower() in CHIBRE_WORDS:  # chibre is not offered now
                say(view.t("no_chibre"))
                continue
            say(view.t("unknown", key=word))

    def _ask_card(self, obs: Observation) -> Action:
        view, say = self.view, self.console.say
        text, keys = render_hand(obs, view)

        def show() -> None:
            self.show_table(obs)
            say(text)
            self._thank_hint(obs)

        show()
        legal = [a for a in obs.legal_actions if isinstance(a, Play)]
        legal_keys = [k for k, c in keys.items() if any(a.card == c for a in legal)]
        plain = View(view.lang, view.deck, view.mapping, Style(False))
        shown = {card_text(c, plain).casefold(): c for c in keys.values()}
        while True:
            word = self.console.ask(view.t("prompt_card", keys=_key_range(legal_keys)))
            if not word:  # an empty line: asked again
                continue
            if word.lower() in COMMANDS:
                thank = self._command(word.lower(), obs, show)
                if thank is not None:
                    return thank
                continue
            card = keys.get(word)
            if card is None:  # a card typed as the hand shows it: ♦D, RosO, SchiA
                card = shown.get(word.casefold())
            if card is None:
                try:
                    card = parse_card(word, obs.rules.suit_mapping) if word else None
                except NotationError:
                    card = None
            if card is None:
                say(view.t("unknown", key=word))
                continue
            why = illegal_reason(view, obs.hand, obs.trick, obs.contract, card)
            if why is not None:
                name = card_name(card, view.lang, view.deck, view.mapping)
                say(view.t("illegal", card=f"{view.card(card)} ({name})", why=why))
                continue
            return self._declarations(obs, card, legal)

    def _declarations(self, obs: Observation, card: int, legal: list[Play]) -> Play:
        """The weis and the stöck the human declares with ``card``, where the table lets the
        player declare (``auto_weis`` / ``auto_stoeck`` off)."""
        options = [a for a in legal if a.card == card]
        weis: tuple[int, ...] = ()
        with_weis = [a for a in options if a.weis]
        hand = len(self.game.hands)
        if with_weis:
            shown = ", ".join(self._weis_of(obs, with_weis[0].weis))
            if self.console.yes(self.view.t("weis_prompt", weis=shown)):
                weis = with_weis[0].weis
            else:  # kept quiet with the card: not asked again right after it
                self._offered.add((hand, Declare(with_weis[0].weis)))
        stoeck = False
        if any(a.stoeck and a.weis == weis for a in options):
            stoeck = self.console.yes(self.view.t("stoeck_prompt"))
            if not stoeck:
                self._offered.add((hand, Declare((), True)))
        return Play(card, weis, stoeck)

    def _weis_of(self, obs: Observation, sets: Sequence[int]) -> list[str]:
        return [self.view.weis(weis_of(m, obs.rules)) for m in sets]

    def last_trick(self, obs: Observation) -> str:
        view = self.view
        if not obs.tricks:
            return view.t("no_last")
        t = obs.tricks[-1]
        cards = ", ".join(
            f"{view.seat((t.leader + i) % 4)} {view.card(c)}" for i, c in enumerate(t.cards)
        )
        return view.t("last", n=len(obs.tricks), name=view.seat(t.winner), cards=cards)

    # --- what happened ------------------------------------------------------------------

    def narrate(self, events: list[Event]) -> None:
        view, say = self.view, self.console.say
        game = self.game
        for e in events:
            match e:
                case HandStarted(number, dealer, chooser):
                    say()
                    say(view.style.bold(
                        "── " + view.t("hand", n=number + 1, dealer=view.seat(dealer),
                                       chooser=view.seat(chooser)) + " ──"
                    ))  # fmt: skip
                case Chibred(seat):
                    say(view.t("chibre", name=view.seat(seat)))
                case ContractNamed(seat, contract, factor):
                    double = None
                    if self.rules.pique_double == "choice" and contract == 2:
                        double = game.hand is not None and game.hand.double
                    text = view.contract(contract, factor, double)
                    say(view.t("named", name=view.seat(seat), contract=view.style.bold(text)))
                case WeisAnnounced(seat, points):
                    say(view.t("announce", name=view.seat(seat), points=points))
                case StoeckDeclared(seat, points):
                    say(view.t("stoeck", name=view.seat(seat), points=points))
                case WeisAdded(seat, points, _):
                    key = "weis_added_n" if points else "weis_added"
                    say(view.t(key, name=view.seat(seat), points=points))
                case WeisScored(team, points, shown):
                    ws = ", ".join(f"{view.seat(s)} {view.weis(w)}" for s, w in shown)
                    key = "weis_scored_them" if team else "weis_scored_us"  # 0: the human's
                    say(view.t(key, points=points, shown=ws))
                case TrickTaken(number, winner, points):
                    self._show_trick(number, winner, points)
                case HandScored():
                    say()
                    say(render_hand_score(
                        len(game.hands) - 1, game.written_score(), game.totals, self.rules.target,
                        view,
                    ))  # fmt: skip
                case Thanked(seat, correct):
                    key = "thanked_ok" if correct else "thanked_wrong"
                    if seat == HUMAN:
                        say(view.t(key + "_you"))
                    else:
                        say(view.t(key, name=view.seat(seat)))
                case GameWon(team, totals, striche):
                    self._show_end(team, totals, striche)

    def _show_trick(self, number: int, winner: int, points: int) -> None:
        game, view, say = self.game, self.view, self.console.say
        obs = game.observation(HUMAN)
        trick = obs.tricks[number]
        shown = dataclasses.replace(obs, trick_leader=trick.leader, to_act=-1)
        say()
        say(render_table(shown, view, trick.cards))
        say(view.style.bold(view.t("trick", n=number + 1, name=view.seat(winner), points=points)))

    def _show_end(self, team: int, totals: tuple[int, int], striche: tuple[int, int]) -> None:
        view, say = self.view, self.console.say
        hand = self.game.hand
        if hand is not None and not hand.is_over:
            say(view.t("over_mid_hand", n=len(self.game.hands)))
        reason = self._end_reason()
        if reason:
            say(reason)
        a, b = totals
        say()
        if team == 0:
            say(view.style.paint(view.t("you_won", a=a, b=b), "1;32"))
        else:  # the winners' points first
            say(view.style.paint(view.t("won", a=b, b=a), "1;31"))
        sa, sb = striche
        say(view.t("striche", us=view.team(0), them=view.team(1), a=sa, b=sb))

    def _end_reason(self) -> str:
        """Why the game ended where it did, as the table's end dialog says it: the target,
        the team, and the points (tricks, weis, stöck, match) of which trick of which hand
        took it there; nothing after a thanks, which was said as it was made."""
        game, lang = self.game, self.view.lang
        hand = game.hand
        if hand is None or game.winner < 0 or isinstance(game.record.entries[-1][1], Thank):
            return ""
        team = i18n.text(lang, "by_us" if game.winner == 0 else "by_them")
        target, n = game.rules.target, len(game.hands)
        if hand.is_over and game.rules.end_mode == "end_of_hand":
            return i18n.text(lang, "reason_hand", target=target, team=team, n=n)
        written = game.written_credits()
        block = i18n.text(lang, written[-1].block if written else "tricks")
        trick = max(1, len(hand.tricks))
        return i18n.text(
            lang, "reason_trick", target=target, team=team, block=block, trick=trick, n=n
        )


def _key_range(keys: Sequence[str]) -> str:
    """``1-3,5`` style list of keys."""
    nums = sorted(int(k) for k in keys)
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return ",".join(parts)


# --- the command -----------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    """Add `play` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play chibre in the terminal against three computer players",
        description="Play chibre in the terminal: you (bottom) and a computer partner against "
        "two computer opponents. Keys: 1-9 cards, l last trick, s the table again, t thanks, "
        "h hint (with --hints), ? help, q quit.",
        epilog="levels: " + " ".join(f"{n}: {describe(n)}" for n in TABLE_PLAYERS),
    )
    add_rules_arguments(p)
    p.add_argument("--partner", default="rule", choices=TABLE_PLAYERS, help="partner's level")
    p.add_argument("--opponents", default="rule", choices=TABLE_PLAYERS, help="opponents' level")
    p.add_argument("--seed", type=int, help="reproducible deals and players")
    p.add_argument("--lang", choices=LANGS, help="fr, de or en (default: from LANG)")
    p.add_argument("--deck", choices=DECKS, help="the cards to draw (default: the preset's)")
    p.add_argument("--no-color", action="store_true", help="no colours (also NO_COLOR)")
    p.add_argument("--hints", action="store_true", help="h asks the coach for a hint")
    p.add_argument(
        "--record",
        metavar="FILE",
        help="keep the game in FILE as it is played (for chibre replay and chibre review); "
        "an unfinished game in FILE goes on where it stopped",
    )
    p.add_argument(
        "--delay",
        type=float,
        default=0.4,
        help="seconds a computer player takes per move in a terminal (default 0.4)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    deck = {} if args.deck is None else {"deck": args.deck}
    record = None if args.record is None else Path(args.record)
    resumed = None if record is None else record_file.unfinished(record)
    if resumed is None:
        rules = rules_from(args.preset, args.set, **deck)
    else:  # the game goes on under its own rules, drawn in the deck asked for
        rules = dataclasses.replace(resumed.rules, **deck)
    lang = args.lang or language_from_env()
    view = View(
        lang, rules.deck, rules.suit_mapping, Style(wants_colour(args.no_color, sys.stdout))
    )
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # line editing for input(), where there is one
            import readline  # noqa: F401
    console = Console(view)
    seed = args.seed
    rng: Random = Random(seed) if seed is not None else secrets.SystemRandom()
    base = seed if seed is not None else secrets.randbelow(2**31)
    shown_seed = f", seed {seed}" if seed is not None else ""
    preset = args.preset if resumed is None else view.t("own_rules")
    console.say(view.style.bold(view.t("title", preset=preset, target=rules.target,
                                       seed=shown_seed)))  # fmt: skip
    if record is not None and resumed is not None:
        us, them = resumed.totals
        console.say(view.t("resumed", file=record, hand=len(resumed.hands), us=us, them=them))
    table: TerminalTable | None = None
    try:
        # the first run after an install compiles the search (some 20 seconds): say so
        notice = threading.Timer(2.0, console.say, [view.t("preparing")])
        notice.start()
        try:
            warm_up()
        finally:
            notice.cancel()
        levels = {1: args.opponents, 2: args.partner, 3: args.opponents}
        players = {
            s: _level_player(level, base * 4 + s, s, view, console.say)
            for s, level in levels.items()
        }
        delay = max(args.delay, 0.0) if sys.stdout.isatty() else 0.0  # a pause only to watch
        table = TerminalTable(rules, console, players, rng, delay, args.hints, record)
        while True:
            table.play_game(resumed)
            resumed = None
            _say_kept(table)
            if not console.yes(view.t("another")):
                break
            if table.record is not None:
                table.record = record_file.free_name(table.record)
    except Quit:
        _say_kept(table)
    except KeyboardInterrupt:  # Ctrl-C: leave as quietly as with q
        console.say()
        _say_kept(table)
        console.say(view.t("bye"))
        return 130
    console.say(view.t("bye"))
    return 0


def _say_kept(table: TerminalTable | None) -> None:
    """Where the game is kept, once it has begun."""
    if table is not None and table.record is not None and table.record.exists():
        table.console.say(table.view.t("kept", file=table.record))
