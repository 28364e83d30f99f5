"""Text notation for deals, actions and whole game records — and their JSON form.

**A deal**: the dealer's seat, a colon, then the four hands of seats 0..3 separated by ``/``.
A hand lists its ranks per suit in the order ♦ . ♥ . ♠ . ♣, high to low, with ``T`` for 10::

    3:K.AJ.AK8.Q96/A98.T86.T.JT/QJ7.9.J97.87/T6.KQ7.Q6.AK

**Actions**, separated by spaces, the seat being the one to act:

- ``>`` — chibre (pass the choice to the partner);
- ``=D`` ``=H`` ``=S`` ``=C`` ``=O`` ``=U`` — name the contract (trump ♦ ♥ ♠ ♣, Obenabe,
  Undenufe); ``=S2`` — ♠ double (``pique_double = choice``);
- a card code — ``HA``, ``S10`` (or ``ST``), ``C6`` — played; followed by ``*`` when the
  player declares stöck with it and by ``[D6-D7-D8,H9-D9-S9-C9]`` for the weis declared
  with it (first trick, when the table does not declare for the players);
- ``+1[D6-D7-D8]``, ``+2*``, ``+2[HQ-HK-HA]*`` — seat 1 declares weis, seat 2 its stöck,
  outside their card (``Declare``: after its card at the first trick, further weis before
  the lead to the second trick, stöck that take the team to the target, …);
- ``!2`` — seat 2 thanks (*bedanken*, ``claim = thank``).

**A game record**: ``rules`` and the full option set as JSON on the first line, then one line
per hand: ``hand``, the deal, and the hand's actions. ``#`` starts a comment::

    rules {"deck":"french", ...}
    hand 3:K.AJ.AK8.Q96/A98.T86.T.JT/QJ7.9.J97.87/T6.KQ7.Q6.AK =O DJ D10 DK D8 SA ...

Reading a record replays it, so an illegal action is reported with its position.
"""

from __future__ import annotations

import json
import re
from typing import Any

from chibre.actions import Action, Chibre, Choose, Deal, Declare, Play, Thank
from chibre.cards import SUIT_LETTERS, card_code, cards_of, parse_card
from chibre.errors import ChibreError, InvalidRules, NotationError
from chibre.game import Game, GameRecord, check_deal
from chibre.rules import CONTRACT_CODES, CONTRACT_NAMES, Contract, Rules

_RANK_CHARS = "6789TJQKA"  # natural order, index = rank


# --- deals -----------------------------------------------------------------------------------


def format_hand(m: int) -> str:
    """``"K.AJ.AK8.Q96"``: ranks high to low per suit, ♦ . ♥ . ♠ . ♣."""
    suits = []
    for s in range(4):
        ranks = [c % 9 for c in cards_of(m) if c // 9 == s]
        suits.append("".join(_RANK_CHARS[r] for r in reversed(ranks)))
    return ".".join(suits)


def parse_hand(text: str, offset: int = 0, source: str | None = None, taken: int = 0) -> int:
    """Read a hand written as :func:`format_hand` does; positions count from ``offset``;
    a card already in ``taken`` (dealt to another seat) is refused where it stands."""
    source = text if source is None else source
    parts = text.split(".")
    if len(parts) != 4:
        raise NotationError(
            f"a hand has four suits separated by '.', not {len(parts)}", source, offset
        )
    m, pos = 0, offset
    for s, part in enumerate(parts):
        for ch in part:
            r = _RANK_CHARS.find(ch.upper())
            if r < 0:
                raise NotationError(f"{ch!r} is not a rank (6789TJQKA)", source, pos)
            bit = 1 << (9 * s + r)
            if m & bit:
                raise NotationError(f"{ch} of suit {SUIT_LETTERS[s]} given twice", source, pos)
            if taken & bit:
                raise NotationError(f"{card_code(9 * s + r)} is dealt twice", source, pos)
            m |= bit
            pos += 1
        pos += 1
    return m


def format_deal(deal: Deal) -> str:
    return f"{deal.dealer}:" + "/".join(format_hand(h) for h in deal.hands)


def parse_deal(text: str, offset: int = 0, source: str | None = None) -> Deal:
    """Read a deal written as :func:`format_deal` does; checks 9 distinct cards a seat."""
    source = text if source is None else source
    head, sep, rest = text.partition(":")
    if not sep or head.strip() not in ("0", "1", "2", "3"):
        raise NotationError("a deal starts with the dealer's seat 0..3 and ':'", source, offset)
    parts = rest.split("/")
    pos = offset + len(head) + 1
    hands: list[int] = []
    for i, part in enumerate(parts[:4]):
        h = parse_hand(part, pos, source, taken=sum(hands))
        if h.bit_count() != 9:
            raise NotationError(f"seat {i} has {h.bit_count()} cards, not 9", source, pos)
        hands.append(h)
        pos += len(part) + 1
    if len(parts) != 4:
        where = pos if len(parts) > 4 else offset + len(text)
        raise NotationError(f"a deal has four hands, not {len(parts)}", source, where)
    deal = Deal((hands[0], hands[1], hands[2], hands[3]), int(head))
    check_deal(deal)
    return deal


# --- actions ---------------------------------------------------------------------------------

_CARD_RE = re.compile(r"([DHSC](?:10|[6-9TJQKA]))((?:\*|\[[^\]]*\])*)$", re.IGNORECASE)
_DECLARE_RE = re.compile(r"\+([0-3])((?:\*|\[[^\]]*\])+)$")


def _format_weis(weis: tuple[int, ...]) -> str:
    if not weis:
        return ""
    return "[" + ",".join("-".join(card_code(c) for c in cards_of(w)) for w in weis) + "]"


def _parse_weis(suffix: str, token: str, offset: int, source: str) -> tuple[int, ...]:
    weis: list[int] = []
    for group in re.findall(r"\[([^\]]*)\]", suffix):
        for w in group.split(","):
            m = 0
            for code in w.split("-"):
                try:
                    m |= 1 << parse_card(code)
                except NotationError as e:
                    raise NotationError(f"weis in {token!r}: {e}", source, offset) from e
            weis.append(m)
    return tuple(weis)


def format_action(action: Action, seat: int | None = None) -> str:
    if isinstance(action, Chibre):
        return ">"
    if isinstance(action, Choose):
        return "=" + CONTRACT_CODES[action.contract] + ("2" if action.double else "")
    if isinstance(action, Thank):
        return f"!{seat}"
    if isinstance(action, Play):
        return card_code(action.card) + _format_weis(action.weis) + ("*" if action.stoeck else "")
    if isinstance(action, Declare):
        if seat is None:
            raise TypeError("a declaration is written with the seat that makes it")
        return f"+{seat}" + _format_weis(action.weis) + ("*" if action.stoeck else "")
    raise TypeError(f"not an action: {action!r}")


def parse_action(
    token: str, offset: int = 0, source: str | None = None
) -> tuple[Action, int | None]:
    """Read one action token; returns the action and the seat it names (thanks and
    declarations)."""
    source = token if source is None else source
    if token == ">":
        return Chibre(), None
    if token.startswith("="):
        code = token[1:].upper()
        double = code.endswith("2")
        code = code.removesuffix("2")
        if code not in CONTRACT_CODES or (double and code != "S"):
            raise NotationError(
                f"unknown contract {token!r} (=D =H =S =C =O =U =S2)", source, offset
            )
        return Choose(Contract(CONTRACT_CODES.index(code)), double), None
    if token.startswith("!"):
        if token[1:] not in ("0", "1", "2", "3"):
            raise NotationError(f"{token!r}: thanks are written !seat, seat 0..3", source, offset)
        return Thank(), int(token[1:])
    if token.startswith("+"):
        declared = _DECLARE_RE.match(token)
        if not declared:
            raise NotationError(
                f"{token!r}: a declaration is +seat then [weis] and/or * (stöck)", source, offset
            )
        suffix = declared.group(2)
        weis = _parse_weis(suffix, token, offset, source)
        return Declare(weis, "*" in suffix), int(declared.group(1))
    match = _CARD_RE.match(token)
    if not match:
        raise NotationError(f"cannot read action {token!r}", source, offset)
    played = parse_card(match.group(1))
    suffix = match.group(2)
    return Play(played, _parse_weis(suffix, token, offset, source), "*" in suffix), None


# --- game records ----------------------------------------------------------------------------


def format_record(record: GameRecord) -> str:
    lines = [f"rules {record.rules.to_json()}"]
    for deal, actions in record.hands():
        tokens = [format_action(a, seat) for seat, a in actions]
        lines.append(" ".join(["hand", format_deal(deal), *tokens]))
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> GameRecord:
    """Read a game record and replay it: a malformed token or an illegal action raises
    ``NotationError`` with its position in ``text``."""
    rules: Rules | None = None
    game: Game | None = None
    pos = 0
    for line in text.splitlines(keepends=True):
        start = pos
        pos += len(line)
        body = line.split("#", 1)[0].rstrip()
        if not body.strip():
            continue
        indent = len(body) - len(body.lstrip())
        word, _, rest = body.strip().partition(" ")
        if word == "rules":
            if rules is not None:
                raise NotationError("the rules are given twice", text, start + indent)
            try:
                rules = Rules.from_json(rest)
            except InvalidRules as e:
                raise NotationError(f"rules: {e}", text, start + indent + 6) from e
            except (ValueError, TypeError, AttributeError, RecursionError):
                raise NotationError(
                    "rules: not a JSON object of options", text, start + indent + 6
                ) from None
            game = Game(rules)
        elif word == "hand":
            if game is None:
                raise NotationError("a record starts with its rules line", text, start + indent)
            _read_hand(game, body, start, text)
        else:
            shown = word if len(word) <= 24 else word[:24] + "…"
            raise NotationError(f"a line starts with 'rules' or 'hand', not {shown!r}", text, start)
    if game is None:
        raise NotationError("empty record: no rules line")
    return game.record


def _read_hand(game: Game, body: str, start: int, text: str) -> None:
    tokens = [(m.group(), start + m.start()) for m in re.finditer(r"\S+", body)][1:]
    if not tokens:
        raise NotationError("a hand line needs its deal", text, start)
    deal_text, deal_pos = tokens[0]
    deal = parse_deal(deal_text, deal_pos, text)
    try:
        game.apply(deal)
    except ChibreError as e:
        raise NotationError(str(e), text, deal_pos) from e
    for token, tpos in tokens[1:]:
        action, seat = parse_action(token, tpos, text)
        who = game.current_player if seat is None else seat
        try:
            game.apply(action, seat)
        except ChibreError as e:
            where = f"seat {who}'s move in hand {len(game.hands)}"
            raise NotationError(f"{token}, {where}, is refused: {e}", text, tpos) from e


# --- JSON ------------------------------------------------------------------------------------


def action_to_dict(seat: int, action: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": seat}
    if isinstance(action, Chibre):
        d["chibre"] = True
    elif isinstance(action, Choose):
        d["contract"] = CONTRACT_NAMES[action.contract]
        if action.double:
            d["double"] = True
    elif isinstance(action, Thank):
        d["thank"] = True
    elif isinstance(action, Play | Declare):
        if isinstance(action, Play):
            d["card"] = card_code(action.card)
        else:
            d["declare"] = True
        if action.weis:
            d["weis"] = [[card_code(c) for c in cards_of(w)] for w in action.weis]
        if action.stoeck:
            d["stoeck"] = True
    return d


def action_from_dict(d: dict[str, Any]) -> tuple[int | None, Action]:
    if not isinstance(d, dict):
        raise NotationError(f"an action is a JSON object, not {d!r}")
    seat = d.get("seat")
    if seat is not None and seat not in (0, 1, 2, 3):
        raise NotationError(f"seat must be 0..3, not {seat!r}")
    if d.get("chibre"):
        return seat, Chibre()
    if d.get("thank"):
        return seat, Thank()
    if "contract" in d:
        name = d["contract"]
        if name not in CONTRACT_NAMES:
            raise NotationError(f"unknown contract {name!r}; one of {', '.join(CONTRACT_NAMES)}")
        return seat, Choose(Contract(CONTRACT_NAMES.index(name)), bool(d.get("double", False)))
    if d.get("declare"):
        if seat is None:
            raise NotationError("a declaration names the seat that makes it")
        weis = tuple(_card_set(w) for w in d.get("weis", ()))
        return seat, Declare(weis, bool(d.get("stoeck")))
    if "card" in d:
        weis = tuple(_card_set(w) for w in d.get("weis", ()))
        return seat, Play(_card_set([d["card"]]).bit_length() - 1, weis, bool(d.get("stoeck")))
    raise NotationError(f"unknown action {d!r}")


def _four(cards: Any) -> bool:
    return isinstance(cards, list) and len(cards) == 4


def _card_set(codes: Any) -> int:
    """A list of card codes as a set; ``NotationError`` for anything else or a repeat."""
    if not isinstance(codes, list):
        raise NotationError(f"expected a list of card codes, not {codes!r}")
    m = 0
    for code in codes:
        if not isinstance(code, str):
            raise NotationError(f'a card is a code such as "H10", not {code!r}')
        bit = 1 << parse_card(code)
        if m & bit:
            raise NotationError(f"card {code!r} given twice")
        m |= bit
    return m


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    return {
        "format": "chibre-record",
        "version": 1,
        "rules": record.rules.to_dict(),
        "hands": [
            {
                "dealer": deal.dealer,
                "cards": [[card_code(c) for c in cards_of(h)] for h in deal.hands],
                "actions": [action_to_dict(seat, a) for seat, a in actions],
            }
            for deal, actions in record.hands()
        ],
    }


def record_from_dict(d: dict[str, Any]) -> GameRecord:
    """Read a JSON record and replay it (an illegal action raises with its hand and index)."""
    if not isinstance(d, dict) or d.get("format") != "chibre-record":
        raise NotationError('not a chibre record: expected {"format": "chibre-record", ...}')
    version = d.get("version", 1)
    if type(version) is not int or version != 1:
        raise NotationError(f"a record of version {version!r}: this chibre reads version 1")
    game = Game(Rules.from_dict(d.get("rules", {})))
    hands = d.get("hands", [])
    if not isinstance(hands, list):
        raise NotationError(f"hands must be a list, not {type(hands).__name__}")
    for h, hand in enumerate(hands, 1):  # numbered from 1, as every message says them
        if not isinstance(hand, dict) or not _four(hand.get("cards")):
            raise NotationError(f'hand {h}: expected {{"dealer": …, "cards": [four lists], …}}')
        try:
            cards = [_card_set(seat_cards) for seat_cards in hand["cards"]]
            deal = Deal((cards[0], cards[1], cards[2], cards[3]), hand["dealer"])
            try:
                game.apply(deal)
            except ChibreError as e:
                raise NotationError(f"hand {h}, deal: {e}") from e
            for i, entry in enumerate(hand.get("actions", []), 1):
                seat, action = action_from_dict(entry)
                try:
                    game.apply(action, seat)
                except NotationError:
                    raise
                except ChibreError as e:
                    raise NotationError(f"hand {h}, action {i}: {e}") from e
        except KeyError as e:
            raise NotationError(f"hand {h}: no {e}") from e
        except (IndexError, TypeError) as e:
            raise NotationError(f"hand {h}: malformed ({e})") from e
    return game.record


def record_to_json(record: GameRecord) -> str:
    return json.dumps(record_to_dict(record), ensure_ascii=False)


def read_json(text: str) -> Any:
    """JSON text read, or ``NotationError`` for anything that cannot be: not JSON, nested
    deeper than Python's recursion allows, a number of more digits than ``int`` reads."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise NotationError(f"not JSON: {e.msg[:1].lower()}{e.msg[1:]}", text, e.pos) from e
    except RecursionError:
        raise NotationError("the JSON is nested too deeply to be read") from None
    except ValueError:  # json refuses an integer of more than 4300 digits
        raise NotationError("a number has too many digits to be read") from None


def record_from_json(text: str) -> GameRecord:
    """Read a JSON record and replay it; ``NotationError`` for anything unreadable."""
    d = read_json(text)
    try:
        return record_from_dict(d)
    except RecursionError:
        raise NotationError("the record is nested too deeply to be read") from None
    except (ValueError, TypeError, AttributeError) as e:
        if isinstance(e, ChibreError):
            raise
        raise NotationError(f"not a chibre record: {e}") from None


__all__ = [
    "format_action",
    "format_deal",
    "format_hand",
    "format_record",
    "parse_action",
    "parse_deal",
    "parse_hand",
    "parse_record",
    "read_json",
    "record_from_dict",
    "record_from_json",
    "record_to_dict",
    "record_to_json",
]
