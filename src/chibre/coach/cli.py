"""``chibre review`` and ``chibre advise``: the coach on the command line.

    chibre review RECORD [--seat N | --team T] [--samples N] [--seed S] [--lang fr|de|en]
                         [--html FILE] [--json]
    chibre advise --hand "…" [--dealer D] [--trump T] [--played "…"] [--lang …]

A record is any the table or the arena writes: JSON (``chibre-record``) or the engine's
notation. For ``advise`` the player is seat 0; the dealer is counted from it (3, the
default, makes it the chooser); the trump is a suit (``♥``, ``H``, ``hearts``, ``cœur``…),
``obenabe`` or ``undenufe``; the cards played are in order from the first lead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from chibre.cards import parse_cards
from chibre.coach.advice import InvalidAdvice, advise, observation_for, played_cards
from chibre.coach.report import action_text, html_report, reason_text, text_report
from chibre.coach.review import review_record
from chibre.coach.value import Budget
from chibre.errors import NotationError
from chibre.i18n import LANGS, text
from chibre.rules import CONTRACT_CODES, CONTRACT_NAMES

_CONTRACT_WORDS = {
    **{c.lower(): i for i, c in enumerate(CONTRACT_CODES)},
    **{n: i for i, n in enumerate(CONTRACT_NAMES)},
    "♦": 0, "♥": 1, "♠": 2, "♣": 3,
    "carreau": 0, "cœur": 1, "coeur": 1, "pique": 2, "trèfle": 3, "trefle": 3,
    "schellen": 3, "rosen": 1, "schilten": 2, "eicheln": 0,
    "ecken": 0, "herz": 1, "pik": 2, "kreuz": 3,
}  # fmt: skip


def read_contract(word: str) -> int:
    """A contract from a word: a suit in any of the languages, ``obenabe``, ``undenufe``."""
    key = word.strip().lower()
    if key in _CONTRACT_WORDS:
        return _CONTRACT_WORDS[key]
    raise NotationError(
        f"unknown trump {word!r}: a suit (♦ ♥ ♠ ♣, D H S C, hearts, cœur…), obenabe or undenufe"
    )


def _samples(word: str) -> int:
    n = int(word)
    if not 1 <= n <= 1000:
        raise argparse.ArgumentTypeError(f"{n} deals: give 1 to 1000")
    return n


def _seats(args: argparse.Namespace) -> list[int]:
    if args.seat is not None:
        return [args.seat]
    if args.team is not None:
        return [args.team, args.team + 2]
    return [0, 1, 2, 3]


def cmd_review(args: argparse.Namespace) -> int:
    from chibre.cli import read_record

    record = read_record(args.record)
    budget = Budget(samples=args.samples, contract_samples=args.samples, seed=args.seed)
    tell = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tell:
            print(f"\r{text(args.lang, 'coach.progress', done=done, total=total)}", end="",
                  file=sys.stderr)  # fmt: skip

    review = review_record(record, _seats(args), budget, progress)
    if tell:
        print(file=sys.stderr)
    deck = record.rules.deck
    if args.json:
        print(json.dumps(review.to_dict(), ensure_ascii=False))
    else:
        print(text_report(review, args.lang, deck), end="")
    if args.html:
        Path(args.html).write_text(html_report(review, args.lang, deck), encoding="utf-8")
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    hand = parse_cards(args.hand)
    contract = None if args.trump is None else read_contract(args.trump)
    played = played_cards(args.played)
    lang = args.lang
    try:
        o = observation_for(hand, args.dealer, contract, played, seed=args.seed,
                            chibred=args.chibred)  # fmt: skip
    except InvalidAdvice as e:
        print(f"chibre: {e.said(lang)}", file=sys.stderr)
        return 2
    advice = advise(o, Budget(samples=args.samples, contract_samples=args.samples,
                              seed=args.seed))  # fmt: skip
    if args.json:
        out: dict[str, Any] = {
            "kind": advice.kind,
            "best": action_text(advice.best, "en"),
            "reason": reason_text(advice.reason, lang),
            "options": [[action_text(a, "en"), round(v, 1)] for a, v in advice.options],
        }
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(text(lang, "coach.advice_for", choice=action_text(advice.best, lang)))
    print("  " + reason_text(advice.reason, lang))
    for a, v in advice.options:
        print(f"  {action_text(a, lang):>14} {v:7.1f}")
    return 0


def add_parser(sub: Any) -> None:
    review = sub.add_parser(
        "review",
        help="the coach's review of a game record",
        description="The coach's review of a game record: every decision of the seats asked, "
        "its verdict, the points it lost and the better choice.",
    )
    review.add_argument("record", metavar="RECORD", help="a game record (JSON or notation)")
    who = review.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, choices=range(4), help="review this seat only")
    who.add_argument("--team", type=int, choices=range(2), help="review this team's seats")
    review.add_argument("--samples", type=_samples, default=Budget.samples, help="deals a decision")
    review.add_argument("--seed", type=int, default=0)
    review.add_argument("--lang", choices=LANGS, default="en")
    review.add_argument("--html", metavar="FILE", help="also write the review as HTML")
    review.add_argument("--json", action="store_true", help="print the review as JSON")
    review.set_defaults(func=cmd_review)
    adv = sub.add_parser(
        "advise",
        help="the coach's advice for a hand held at a real table",
        description="The coach's advice for a hand held at a real table: the contract to name, "
        "or the card to play given the cards played so far.",
    )
    adv.add_argument(
        "--hand", required=True, help='your nine cards, e.g. "HJ H9 HA HK H10 H8 SA CA DA"'
    )
    adv.add_argument(
        "--dealer",
        type=int,
        choices=range(4),
        default=3,
        help="the dealer, counted from you (seat 0); 3 makes you the chooser",
    )
    adv.add_argument("--trump", help="the contract named (leave out to be advised on it)")
    adv.add_argument(
        "--chibred", action="store_true", help="the chooser chibred: its partner named the trump"
    )
    adv.add_argument("--played", default="", help="the cards played so far, in order")
    adv.add_argument("--samples", type=_samples, default=Budget.samples)
    adv.add_argument("--seed", type=int, default=0)
    adv.add_argument("--lang", choices=LANGS, default="en")
    adv.add_argument("--json", action="store_true", help="print the advice as JSON")
    adv.set_defaults(func=cmd_advise)  # fmt: skip
