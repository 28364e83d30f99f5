"""`chibre tafel`: the Jasstafel and the calculator.

``chibre tafel svg 98 59 336 -o slate.svg`` draws one team's slate for those hand scores
(on stdout without ``-o``); ``chibre tafel tally 336`` says how a scorer chalks a number;
``chibre tafel sheet FILE.json`` draws the slate of an exported score sheet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from chibre.errors import ChibreError, file_error
from chibre.rules import MAX_STRICHE
from chibre.scoresheet import STRICHE_KINDS
from chibre.tafel import MAX_SLATE_POINTS, jasstafel_svg, rest_text, slate_svg, slate_tally, tally


def add_parser(sub: Any) -> None:
    """Add `tafel` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "tafel",
        help="the Jasstafel and the calculator",
        description="Draw the Jasstafel (the slate) for hand scores or a score sheet.",
    )
    actions = p.add_subparsers(dest="tafel_command", metavar="{svg,tally,sheet}")
    svg = actions.add_parser("svg", help="one team's slate for these hand scores, as SVG")
    svg.add_argument("scores", nargs="*", type=_score, help="each hand's score, in order")
    svg.add_argument("-o", "--output", type=Path, help="write the SVG here (default: stdout)")
    svg.add_argument("--label", default="", help="the team's name on the slate")
    svg.add_argument("--lang", default="de", choices=("de", "fr", "en"))
    for kind in STRICHE_KINDS:
        svg.add_argument(
            f"--{kind}", type=_striche, default=None, metavar="N", help=f"{kind} Striche"
        )
    t = actions.add_parser("tally", help="how a scorer chalks these hand scores")
    t.add_argument("scores", nargs="+", type=_score)
    sh = actions.add_parser("sheet", help="the slate of an exported score sheet (JSON), as SVG")
    sh.add_argument("file", type=Path)
    sh.add_argument("-o", "--output", type=Path)
    sh.add_argument("--lang", default="de", choices=("de", "fr", "en"))
    p.set_defaults(func=run)


def _score(text: str) -> int:
    """A hand's score as the slate takes it (a correction may be negative)."""
    n = int(text)
    if abs(n) > MAX_SLATE_POINTS:
        raise argparse.ArgumentTypeError(
            f"a hand scores at most {MAX_SLATE_POINTS} points (or -{MAX_SLATE_POINTS}), not {n}"
        )
    return n


def _striche(text: str) -> int:
    """A number of Striche of one kind: 0 to ``MAX_STRICHE``."""
    n = int(text)
    if not 0 <= n <= MAX_STRICHE:
        raise argparse.ArgumentTypeError(f"Striche of a kind are 0 to {MAX_STRICHE}, not {n}")
    return n


def run(args: argparse.Namespace) -> int:
    command = getattr(args, "tafel_command", None)
    try:
        if command == "svg":
            counts = {k: getattr(args, k) for k in STRICHE_KINDS}
            given = {k: v for k, v in counts.items() if v is not None}
            text = slate_svg(args.scores, given or None, args.label, args.lang)
            return _write(text, args.output)
        if command == "tally":
            for points in args.scores:
                print(_describe(points, "hand"))
            if len(args.scores) > 1:
                s = slate_tally(args.scores)
                print(_describe(s.value, "slate", s))
            return 0
        if command == "sheet":
            from chibre.scoresheet import ScoreSheet

            sheet = ScoreSheet.from_json(args.file.read_text(encoding="utf-8"))
            return _write(jasstafel_svg(sheet, args.lang), args.output)
    except ChibreError as e:
        print(f"chibre tafel: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"chibre tafel: {file_error(e)}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(f"chibre tafel: {args.file} is not a score sheet (not UTF-8 text)", file=sys.stderr)
        return 1
    print("chibre tafel: say svg, tally or sheet (chibre tafel --help)", file=sys.stderr)
    return 2


def _describe(points: int, what: str, t: Any = None) -> str:
    t = t or tally(points)
    return (
        f"{what} {points}: {t.hundreds} × 100, {t.fifties} × 50, {t.twenties} × 20, "
        f"written {rest_text(t.rest)}"
    )


def _write(text: str, output: Path | None) -> int:
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        output.write_text(text + "\n", encoding="utf-8")
    return 0
