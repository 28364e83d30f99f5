"""The HSLU jass-kit game JSON ("V0.2") — read, write and check single hands.

The jass-kit (the HSLU "Deep Learning for Games" course kit) and the Swisslos logs it converts
describe one hand (a *round*) as JSON: cards as ``"DA"``, ``"H10"``, ``"C6"``; seats N 0, E 1,
S 2, W 3, play going N → W → S → E; ``trump`` 0–3 (♦ ♥ ♠ ♣), 4 Obenabe, 5 Undenufe;
``forehand`` 1 when the forehand chose, 0 after a push; ``tricks`` with ``first``, ``cards``,
``points`` and ``win``. The format has no weis, stöck, match bonus or multipliers: a hand is
157 points. Its seat numbers run the other way round from ours, so seat ``p`` there is seat
``-p mod 4`` here (teams stay the same: N+S = seats 0, 2).

Files read by ``check``: one state object, a ``{"game": state}`` log entry, a Swisslos
``{"rounds": [...]}`` object (also after a log prefix such as ``27.11.17 20:10:08,140 | INFO |
… |``), a JSON list of any of these, or JSON Lines of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from chibre.actions import Action, Chibre, Choose, Play
from chibre.cards import SUIT_SYMBOLS, card_code, cards_of, parse_card
from chibre.errors import ChibreError, NotationError
from chibre.hand import Hand, Phase, Trick
from chibre.observation import Observation
from chibre.play import legal_cards, points, trick_winner
from chibre.rules import CONTRACT_NAMES, Rules

SEAT_LETTERS = "NESW"  # by jass-kit seat number
RULES = Rules(weis=False, stoeck=False, first_chooser="right_of_dealer")
"""What the format can express: no weis, no stöck, no multipliers; the forehand (the chooser)
is always the player after the dealer."""


def seat_from_jasskit(p: int) -> int:
    """Our seat for jass-kit seat ``p`` (the map is its own inverse)."""
    return -p % 4


seat_to_jasskit = seat_from_jasskit


@dataclass
class CheckResult:
    label: str
    ok: bool
    message: str
    hand: Hand | None = None  # the hand replayed as far as it was legal

    def __str__(self) -> str:
        return f"{self.label}: {self.message}"


def _name(seat: int) -> str:
    return SEAT_LETTERS[seat_to_jasskit(seat)]


def _contract_text(trump: int) -> str:
    return f"trump {SUIT_SYMBOLS[trump]}" if trump < 4 else CONTRACT_NAMES[trump].capitalize()


def load_games(text: str) -> list[dict[str, Any]]:
    """Every hand (state dict) in a file's text; ``NotationError`` when it cannot be read
    (not JSON, nested too deeply, a number of too many digits)."""
    text = text.strip()
    if not text:
        raise NotationError("empty file")
    games: list[dict[str, Any]] = []
    try:
        for doc in _documents(text):
            _collect(doc, games)
    except NotationError:
        raise
    except RecursionError:
        raise NotationError("the JSON is nested too deeply to be read") from None
    except ValueError:  # json refuses an integer of more than 4300 digits
        raise NotationError("a number has too many digits to be read") from None
    if not games:
        raise NotationError("no jass-kit game found")
    return games


def _documents(text: str) -> list[Any]:
    """The JSON documents of a file: one, or one object a line (after any prefix)."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass
    docs = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        brace = line.find("{")
        if brace < 0:
            raise NotationError(f"line {n} holds no JSON object")
        try:
            docs.append(json.loads(line[brace:]))
        except json.JSONDecodeError as e:
            raise NotationError(f"line {n}: not JSON ({e.msg})", line, brace + e.pos) from None
    return docs


def _collect(doc: Any, out: list[dict[str, Any]]) -> None:
    if isinstance(doc, list):
        for item in doc:
            _collect(item, out)
    elif isinstance(doc, dict) and "rounds" in doc:
        _collect(doc["rounds"], out)
    elif isinstance(doc, dict) and "game" in doc:
        _collect(doc["game"], out)
    elif isinstance(doc, dict) and "games" in doc:
        _collect(doc["games"], out)
    elif isinstance(doc, dict):
        out.append(doc)
    else:
        raise NotationError(f"expected a jass-kit game object, found {type(doc).__name__}")


def check_hand(d: dict[str, Any], label: str = "hand") -> CheckResult:
    """Replay one jass-kit hand under our rules: its score, or the first illegal move."""
    try:
        return _check(d, label)
    except (KeyError, TypeError, ValueError, NotationError) as e:
        detail = f"missing key {e}" if isinstance(e, KeyError) else str(e)
        return CheckResult(label, False, f"malformed: {detail}")


def hand_from_jasskit(d: dict[str, Any]) -> Hand:
    """Read one jass-kit hand (a full state) into a ``Hand``, replayed under our rules;
    ``NotationError`` says what is malformed or which move is illegal."""
    checked = check_hand(d)
    if not checked.ok or checked.hand is None:
        raise NotationError(checked.message)
    return checked.hand


def _check(d: dict[str, Any], label: str) -> CheckResult:
    if "playerView" in d:
        return CheckResult(label, False, "an observation shows one hand only: give the full state")
    if "version" in d and d["version"] != "V0.2":
        return CheckResult(label, False, f"version = {d['version']!r}: only 'V0.2' is read")
    trump, dealer_jk = int(d["trump"]), int(d["dealer"])
    if not -1 <= trump <= 5 or not 0 <= dealer_jk <= 3:
        raise ValueError(f"trump {trump} / dealer {dealer_jk} out of range")
    forehand = d.get("forehand", 0 if d.get("tss") == 1 else 1)
    tricks = d.get("tricks", [])
    dealer = seat_from_jasskit(dealer_jk)
    chooser = (dealer + 1) % 4
    dealt = [0, 0, 0, 0]
    for p, player in enumerate(d["player"]):
        for code in player.get("hand", []):
            dealt[seat_from_jasskit(p)] |= 1 << parse_card(code)
    for t in tricks:
        if t.get("cards"):
            leader = seat_from_jasskit(int(t["first"]))
            for i, code in enumerate(t["cards"]):
                dealt[(leader + i) % 4] |= 1 << parse_card(code)
    for seat in range(4):
        if dealt[seat].bit_count() != 9:
            n = dealt[seat].bit_count()
            raise ValueError(f"{_name(seat)} has {n} cards known, not 9: a state lists every hand")
    if dealt[0] | dealt[1] | dealt[2] | dealt[3] != (1 << 36) - 1:
        raise ValueError("a card appears twice")
    hand = Hand(RULES, dealer, chooser, dealt)

    def result(ok: bool, message: str) -> CheckResult:
        return CheckResult(label, ok, message, hand)

    if trump < 0:
        return result(True, "legal so far: no contract named yet")
    if forehand == 0:
        hand.apply(Chibre())
    hand.apply(Choose(trump))
    contract = _contract_text(trump) + (" (pushed)" if forehand == 0 else "")
    for n, t in enumerate(tricks):
        cards = t.get("cards", [])
        if not cards:
            continue
        leader = seat_from_jasskit(int(t["first"]))
        if leader != hand.to_act:
            why = "the forehand" if n == 0 else f"{_name(hand.to_act)} won trick {n}"
            return result(False, f"trick {n + 1} is led by {_name(leader)}, but {why} leads it")
        for i, code in enumerate(cards):
            seat = (leader + i) % 4
            c = parse_card(code)
            try:
                hand.apply(Play(c), seat)
            except ChibreError as e:
                return result(
                    False, f"trick {n + 1}, card {i + 1}: {_name(seat)} plays {code}: {e}"
                )
        if len(cards) == 4 and ("win" in t or "points" in t):
            ours = hand.tricks[n]
            win, pts = t.get("win"), t.get("points")
            if (win is not None and seat_from_jasskit(int(win)) != ours.winner) or (
                pts is not None and int(pts) != ours.points
            ):
                said = SEAT_LETTERS[int(win)] if win is not None else "?"
                return result(
                    False,
                    f"trick {n + 1}: the file says {said} wins {pts} points; "
                    f"the rules say {_name(ours.winner)} wins {ours.points}",
                )
    if hand.phase is not Phase.OVER:
        played = 4 * len(hand.tricks) + len(hand.trick)
        return result(True, f"{contract}: legal so far, {played} cards played")
    score = hand.score()
    ns, ew = score.tricks
    match = ""
    if score.match[0] or score.match[1]:
        match = f" — match for {'N+S' if score.match[0] else 'E+W'} (+100 under our rules)"
    return result(True, f"{contract}, dealer {SEAT_LETTERS[dealer_jk]}: N+S {ns}, E+W {ew}{match}")


def hand_to_jasskit(hand: Hand, view: int | None = None) -> dict[str, Any]:
    """A hand as jass-kit V0.2 JSON: the full state, or ``view``'s observation."""
    contract = hand.contract
    tricks: list[dict[str, Any]] = [
        {
            "cards": [card_code(c) for c in t.cards],
            "points": t.points,
            "win": seat_to_jasskit(t.winner),
            "first": seat_to_jasskit(t.leader),
        }
        for t in hand.tricks
    ]
    if contract >= 0 and not hand.is_over:
        current: dict[str, Any] = {"first": seat_to_jasskit(hand.leader)}
        if hand.trick:
            current = {"cards": [card_code(c) for c in hand.trick], **current}
        tricks.append(current)
    players: list[dict[str, list[str]]] = [{"hand": []} for _ in range(4)]
    for seat in range(4):
        if view is None or seat == view:
            players[seat_to_jasskit(seat)]["hand"] = [
                card_code(c) for c in sorted(cards_of(hand.hands[seat]), key=_jk_index)
            ]
    out: dict[str, Any] = {
        "version": "V0.2",
        "trump": contract,
        # the format has the seat after the dealer lead: name the seat before the chooser
        # (the same seat, except in a first hand chosen by the holder of a card)
        "dealer": seat_to_jasskit((hand.chooser - 1) % 4),
        "currentPlayer": seat_to_jasskit(hand.to_act) if hand.to_act >= 0 else -1,
    }
    if view is not None:
        out["playerView"] = seat_to_jasskit(view)
    out["forehand"] = -1 if contract < 0 and not hand.chibred else (0 if hand.chibred else 1)
    out["tricks"] = tricks
    out["player"] = players
    out["jassTyp"] = "SCHIEBER"
    return out


def _jk_index(c: int) -> int:
    """The jass-kit's card order: suit, then A K Q J 10 9 8 7 6."""
    return (c // 9) * 9 + 8 - c % 9


# --- observations (what the HSLU player service sends a bot) ---------------------------------


def observation_from_json(d: dict[str, Any], rules: Rules = RULES) -> Observation:
    """Our ``Observation`` of the seat a V0.2 observation (``playerView``) was made for:
    the viewer's own cards, the public tricks, the contract — nothing more. The legal actions
    are filled in when that seat is to act. ``NotationError`` says what is malformed."""
    try:
        return _observation(d, rules)
    except NotationError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        detail = f"missing key {e}" if isinstance(e, KeyError) else str(e)
        raise NotationError(f"not a V0.2 observation: {detail}") from None


def _seat_field(d: dict[str, Any], key: str, allow_none: bool = False) -> int:
    value = d[key]
    if type(value) is not int or not (-1 if allow_none else 0) <= value <= 3:
        raise NotationError(f"{key} = {value!r}: a seat is 0..3")
    return -1 if value < 0 else seat_from_jasskit(value)


def _observation(d: dict[str, Any], rules: Rules) -> Observation:
    if not isinstance(d, dict):
        raise NotationError("a V0.2 observation is a JSON object")
    if d.get("version") != "V0.2":
        raise NotationError(f"version = {d.get('version')!r}: only 'V0.2' is read")
    seat = _seat_field(d, "playerView")
    dealer = _seat_field(d, "dealer")
    to_act = _seat_field(d, "currentPlayer", allow_none=True)
    trump, forehand = d["trump"], d["forehand"]
    if type(trump) is not int or not -1 <= trump <= 5:
        raise NotationError(f"trump = {trump!r}: -1 (none yet) or 0..5")
    if forehand not in (-1, 0, 1):
        raise NotationError(f"forehand = {forehand!r}: -1, 0 or 1")
    chooser = (dealer + 1) % 4
    players = d["player"]
    if not isinstance(players, list) or len(players) != 4:
        raise NotationError("player: four entries, one per seat")
    own = players[seat_to_jasskit(seat)].get("hand", [])
    hand = 0
    for code in own:
        hand |= 1 << parse_card(code)
    tricks: list[Trick] = []
    trick: tuple[int, ...] = ()
    leader = chooser
    played = 0
    for t in d.get("tricks", []):
        cards = tuple(parse_card(code) for code in t.get("cards", []))
        for c in cards:
            if played >> c & 1:
                raise NotationError(f"{card_code(c)} is played twice")
            played |= 1 << c
        first = _seat_field(t, "first") if "first" in t else leader
        if len(cards) == 4:
            winner = trick_winner(cards, trump)
            tricks.append(Trick(first, cards, (first + winner) % 4, points(cards, trump)))
            leader = tricks[-1].winner
        else:
            trick, leader = cards, first
    if len(tricks) == 9:  # the last trick's five points
        last = tricks[-1]
        tricks[-1] = Trick(last.leader, last.cards, last.winner, last.points + 5)
    _check_told(d, hand, played, tricks)
    chibres = 1 if forehand == 0 else 0
    contract_seat = -1 if trump < 0 else (chooser if forehand == 1 else (chooser + 2) % 4)
    count = 4 * len(tricks) + len(trick)
    phase = "contract" if trump < 0 else ("play" if count < 36 else "deal")
    expected = {"contract": chooser if forehand < 0 else (chooser + 2) % 4,
                "play": (leader + len(trick)) % 4}.get(phase, to_act)  # fmt: skip
    if to_act >= 0 and to_act != expected:
        raise NotationError(
            f"currentPlayer = {d['currentPlayer']}: seat {seat_to_jasskit(expected)} is to act"
        )
    if phase in ("contract", "play"):  # the player's hand is what it has not played yet
        mine = sum(1 for t in tricks for i in range(4) if (t.leader + i) % 4 == seat)
        mine += sum(1 for i in range(len(trick)) if (leader + i) % 4 == seat)
        if hand.bit_count() != 9 - mine:
            raise NotationError(
                f"the player's hand holds {hand.bit_count()} cards: after {mine} played, 9 - "
                f"{mine} = {9 - mine}"
            )
    team_points = [0, 0]
    for done in tricks:
        team_points[done.winner & 1] += done.points
    legal: tuple[Action, ...] = ()
    if to_act == seat and phase == "contract":
        legal = tuple(Choose(k) for k in range(6)) + (() if chibres else (Chibre(),))
    elif to_act == seat and phase == "play":
        legal = tuple(Play(c) for c in cards_of(legal_cards(hand, trick, trump)))
    return Observation(
        seat=seat, rules=rules, hand_number=0, dealer=dealer, chooser=chooser, phase=phase,
        to_act=to_act, hand=hand, chibres=chibres, contract=trump, contract_seat=contract_seat,
        factor=1, tricks=tuple(tricks), trick=trick, trick_leader=leader,
        announced=(0, 0, 0, 0), own_weis=(), shown_weis=(), weis_team=-1, stoeck_seat=-1,
        hand_points=(team_points[0], team_points[1]), totals=(0, 0), winner=-1,
        striche=(0, 0), legal_actions=legal,
    )  # fmt: skip


def _check_told(d: dict[str, Any], hand: int, played: int, tricks: list[Trick]) -> None:
    """The observation agrees with itself: no card both held and played, each finished
    trick's ``points`` and ``win`` (where given) those its cards make."""
    if hand & played:
        held = " ".join(card_code(c) for c in cards_of(hand & played))
        raise NotationError(f"the player's hand holds {held}, already played")
    for n, (told, t) in enumerate(zip(d.get("tricks", []), tricks, strict=False), 1):
        if "points" in told and told["points"] != t.points:
            raise NotationError(
                f"trick {n}: points = {told['points']!r}, its cards make {t.points}"
            )
        winner = seat_to_jasskit(t.winner)
        if "win" in told and told["win"] != winner:
            raise NotationError(f"trick {n}: win = {told['win']!r}, its cards go to seat {winner}")


def observation_to_json(o: Observation) -> dict[str, Any]:
    """The V0.2 observation of our ``Observation`` (the current hand only): what a jass-kit
    bot is sent — its own cards and the public plays."""
    tricks: list[dict[str, Any]] = [
        {
            "cards": [card_code(c) for c in t.cards],
            "points": t.points,
            "win": seat_to_jasskit(t.winner),
            "first": seat_to_jasskit(t.leader),
        }
        for t in o.tricks
    ]
    if o.contract >= 0 and len(o.tricks) < 9:
        current: dict[str, Any] = {"first": seat_to_jasskit(o.trick_leader)}
        if o.trick:
            current = {"cards": [card_code(c) for c in o.trick], **current}
        tricks.append(current)
    players: list[dict[str, list[str]]] = [{"hand": []} for _ in range(4)]
    players[seat_to_jasskit(o.seat)]["hand"] = [
        card_code(c) for c in sorted(cards_of(o.hand), key=_jk_index)
    ]
    return {
        "version": "V0.2",
        "trump": o.contract,
        "dealer": seat_to_jasskit((o.chooser - 1) % 4),
        "currentPlayer": seat_to_jasskit(o.to_act) if o.to_act >= 0 else -1,
        "playerView": seat_to_jasskit(o.seat),
        "forehand": 1 if o.contract >= 0 and not o.chibres else (0 if o.chibres else -1),
        "tricks": tricks,
        "player": players,
        "jassTyp": "SCHIEBER",
    }
