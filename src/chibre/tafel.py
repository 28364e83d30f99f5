"""The Jasstafel (l'ardoise, the slate) drawn as chalk — RULES.md §8 — as pure SVG functions.

Each team keeps half of the slate with a large **Z**: strokes on the top line count 100, on
the diagonal 50, on the bottom line 20; the fifth stroke of a line crosses the four before
it, and a fifty is drawn as a crossed pair of strokes (an X). What strokes cannot show is
written in digits at the bottom right.

How a scorer writes a number (``tally``): greedily, hundreds, then a fifty, then twenties,
then the rest in digits — 336 is three hundreds, no fifty, one twenty and "16"; 99 is one
fifty, two twenties and "9". A negative number (a correction) gets no stroke: it is written
in digits with its sign.

How the slate grows (``slate_tally``): every hand is chalked as its own tally, so strokes
only ever add up — 98 then 59 give two fifties, two twenties, and the digits 8 + 9. The
digits are one running number: when it reaches 20 the scorer wipes it and draws a twenty for
each 20 in it, keeping what is left (under 20). When it falls to -20 or below (corrections),
the scorer wipes strokes — twenties first, then fifties, then hundreds — until the number is
above -20, then turns any 20 or more back into twenties. So the digits stay within -19..19
unless the slate has no stroke left (then the whole negative number is written), and the
slate always reads the team's total: 100 × hundreds + 50 × fifties + 20 × twenties + digits.

The Striche (Sieg, Match, Kontermatsch, Bergpreis, Schneider) sit on a panel beside each Z,
one stroke per Strich, grouped by five like the points.

A line holds at most ``DRAWN_AT_MOST`` strokes (whole fives); what does not fit is written
"+N" beside it, so the drawing of any number stays small (``data-count`` keeps the count).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, NamedTuple

from chibre.scoresheet import STRICHE_KINDS

MAX_SLATE_POINTS = 100_000
"""The most points (or the fewest, a correction) one hand may write on a slate."""

if TYPE_CHECKING:
    from chibre.scoresheet import ScoreSheet

STRICHE_LABELS: dict[str, dict[str, str]] = {
    "de": {"sieg": "Sieg", "match": "Match", "kontermatsch": "Kontermatsch",
           "bergpreis": "Bergpreis", "schneider": "Schneider"},
    "fr": {"sieg": "Victoire", "match": "Match", "kontermatsch": "Contre-match",
           "bergpreis": "Bergpreis", "schneider": "Schneider"},
    "en": {"sieg": "Win", "match": "Match", "kontermatsch": "Counter-match",
           "bergpreis": "Bergpreis", "schneider": "Schneider"},
}  # fmt: skip

CHALK = "#f2efe4"
BOARD = "#263029"
FRAME = "#7a4e27"
HALF_W, HALF_H = 420, 250  # one team's Z
PANEL_W = 250  # the Striche beside it
MINUS = "\u2212"
DRAWN_AT_MOST = {"hundreds": 30, "fifties": 10, "twenties": 30, "striche": 10}
"""The most strokes drawn on one line (whole fives); beyond, the line ends in "+N" for the
strokes not drawn, so that the slate of any number stays a small drawing."""


class Tally(NamedTuple):
    """A number as chalk: strokes per line of the Z and the digits left over."""

    hundreds: int
    fifties: int
    twenties: int
    rest: int

    @property
    def value(self) -> int:
        return 100 * self.hundreds + 50 * self.fifties + 20 * self.twenties + self.rest

    @property
    def strokes(self) -> int:
        return self.hundreds + self.fifties + self.twenties


def tally(points: int) -> Tally:
    """How a scorer chalks one number: 100s, then 50s, then 20s, then digits; a negative
    number only in digits (``tally(336) == Tally(3, 0, 1, 16)``)."""
    if points < 0:
        return Tally(0, 0, 0, points)
    hundreds, r = divmod(points, 100)
    fifties, r = divmod(r, 50)
    twenties, rest = divmod(r, 20)
    return Tally(hundreds, fifties, twenties, rest)


def slate_tally(hand_scores: Sequence[int]) -> Tally:
    """The slate after chalking each hand's score in turn (see the module's description)."""
    h = f = t = 0
    rest = 0
    for points in hand_scores:
        one = tally(points)
        h, f, t = h + one.hundreds, f + one.fifties, t + one.twenties
        rest += one.rest
        # wipe strokes to pay for a large correction: twenties first, then fifties, then
        # hundreds, each until the digits are above -20 (counted, not one stroke at a time)
        if rest <= -20 and t:
            wiped = min(t, _ceil_div(-19 - rest, 20))
            t, rest = t - wiped, rest + 20 * wiped
        if rest <= -20 and f:
            wiped = min(f, _ceil_div(-19 - rest, 50))
            f, rest = f - wiped, rest + 50 * wiped
        if rest <= -20 and h:
            wiped = min(h, _ceil_div(-19 - rest, 100))
            h, rest = h - wiped, rest + 100 * wiped
        if rest >= 20:
            carry, rest = divmod(rest, 20)
            t += carry
    return Tally(h, f, t, rest)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def rest_text(rest: int) -> str:
    """The digits as chalked: a real minus sign for a negative rest."""
    return f"{MINUS}{-rest}" if rest < 0 else str(rest)


# --- drawing ---------------------------------------------------------------------------------

_DEFS = (
    "<defs>"
    '<filter id="chalk" x="-5%" y="-5%" width="110%" height="110%">'
    '<feTurbulence type="fractalNoise" baseFrequency="0.8" numOctaves="2" seed="3" result="n"/>'
    '<feDisplacementMap in="SourceGraphic" in2="n" scale="2.2" xChannelSelector="R" '
    'yChannelSelector="G" result="d"/>'
    '<feComposite in="d" in2="n" operator="arithmetic" k1="0" k2="1" k3="-0.18" k4="0.04"/>'
    "</filter>"
    '<filter id="smear" x="-20%" y="-50%" width="140%" height="200%">'
    '<feGaussianBlur stdDeviation="16"/></filter>'
    '<radialGradient id="board" cx="45%" cy="40%" r="80%">'
    '<stop offset="0" stop-color="#2f3b33"/><stop offset="1" stop-color="#1b221d"/>'
    "</radialGradient>"
    "</defs>"
)
# The chalk's look as presentation attributes, not a <style> element: the calculator's page
# shows the slate inline, under a Content-Security-Policy that allows no inline styles. The
# drawing's group gives every text its colour and hand (both inherited).
_CHALK = f'fill="none" stroke="{CHALK}" stroke-width="3.2" opacity=".93"'
_CHALK_Z = f'fill="none" stroke="{CHALK}" stroke-width="4.2" opacity=".85"'
_TEXT = 'opacity=".93"'
_HAND = (
    f'fill="{CHALK}" stroke-linecap="round" font-family="\'Segoe Print\',\'Chalkboard SE\','
    "'Comic Sans MS','Bradley Hand',cursive,sans-serif\""
)


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _marks(kind: str, count: int, length: float, x0: float, y0: float, angle: float) -> str:
    """One line's strokes in a frame where the line runs along x from 0 to ``length``:
    ticks (or Xs for the fifties), every fifth a stroke across the four before it; at most
    ``DRAWN_AT_MOST[kind]`` of them, then "+N" for the rest."""
    tick, gap = (18.0, 26.0) if kind == "fifties" else (11.0, 22.0)  # spacing, after a five
    count = max(count, 0)
    drawn = min(count, DRAWN_AT_MOST[kind])
    size = 14 if kind == "striche" else 18  # of the "+N" for the strokes not drawn
    # (under the hundreds it keeps clear of the diagonal)
    if drawn < count:
        length -= size * (len(str(count - drawn)) + 1) * 0.6 + (90 if kind == "hundreds" else 10)
    full, left = divmod(drawn, 5)
    needed = full * (4 * tick + gap) + left * tick + tick
    if needed > length:
        scale = length / needed
        tick, gap = tick * scale, gap * scale
    half = {"fifties": 8.0, "striche": 9.0}.get(kind, 13.0)
    parts: list[str] = []
    x = tick
    for i in range(drawn):
        if i % 5 == 4:  # the fifth crosses the four before it
            start = x - 4 * tick - tick * 0.5
            end = x - tick + tick * 0.5
            parts.append(
                f'<path class="chalk cross" {_CHALK} d="M{_f(start)},{_f(half + 4)} '
                f'L{_f(end)},{_f(-half - 4)}"/>'
            )
            x += gap
            continue
        if kind == "fifties":
            w = min(5.0, tick * 0.36)
            d = (
                f"M{_f(x - w)},{_f(-half)} L{_f(x + w)},{_f(half)} "
                f"M{_f(x - w)},{_f(half)} L{_f(x + w)},{_f(-half)}"
            )
        else:  # a hand-drawn tilt, the same on every drawing
            lean = ((i * 7 + 3) % 5 - 2) * 0.45
            d = f"M{_f(x - lean)},{_f(-half)} L{_f(x + lean)},{_f(half)}"
        parts.append(f'<path class="chalk mark" {_CHALK} d="{d}"/>')
        x += tick
    if drawn < count:  # beside the Striche; inside the Z, clear of the totals and digits
        text_y = {"striche": size / 3, "twenties": -half - 4}.get(kind, half + size)
        parts.append(
            f'<text class="txt more" {_TEXT} x="{_f(x - tick * 0.5)}" y="{_f(text_y)}" '
            f'font-size="{size}">'
            f"+{count - drawn}</text>"
        )
    return (
        f'<g class="line {kind}" data-count="{count}" '
        f'transform="translate({_f(x0)},{_f(y0)}) rotate({_f(angle)})">' + "".join(parts) + "</g>"
    )


def _z(t: Tally, x0: float, y0: float, label: str, total: int | None) -> list[str]:
    """One team's Z, its strokes, the digits and the label, at (x0, y0)."""
    left, right = x0 + 40, x0 + HALF_W - 40
    top, bottom = y0 + 62, y0 + HALF_H - 58
    out = [
        f'<path class="chalk z" {_CHALK_Z} d="M{_f(left)},{_f(top)} L{_f(right)},{_f(top)} '
        f'L{_f(left)},{_f(bottom)} L{_f(right)},{_f(bottom)}"/>'
    ]
    dx, dy = left - right, bottom - top
    diag = math.hypot(dx, dy)
    angle = math.degrees(math.atan2(-dy, -dx))  # from the bottom-left end up to the right
    inset = 84.0  # keep the fifties clear of the corners
    ux, uy = -dx / diag, -dy / diag
    out.append(_marks("hundreds", t.hundreds, right - left - 8, left, top, 0))
    out.append(
        _marks(
            "fifties",
            t.fifties,
            diag - 2 * inset,
            left + ux * inset,
            bottom + uy * inset,
            angle,
        )
    )
    out.append(_marks("twenties", t.twenties, right - left - 34, left + 26, bottom, 0))
    out.append(
        f'<text class="txt rest" {_TEXT} x="{_f(right)}" y="{_f(bottom + 40)}" font-size="30" '
        f'text-anchor="end">{rest_text(t.rest)}</text>'
    )
    if label:
        out.append(
            f'<text class="txt label" {_TEXT} x="{_f(left - 16)}" y="{_f(y0 + 32)}" font-size="22">'
            f"{escape(label)}</text>"
        )
    if total is not None:
        out.append(
            f'<text class="txt total" {_TEXT} x="{_f(right + 16)}" y="{_f(y0 + 32)}" '
            f'font-size="18" text-anchor="end">{total}</text>'
        )
    return out


def _panel(
    striche: Mapping[str, int], x0: float, y0: float, lang: str, kinds: Sequence[str]
) -> list[str]:
    """The Striche beside a Z: one row per kind, one stroke per Strich."""
    labels = STRICHE_LABELS.get(lang, STRICHE_LABELS["de"])
    out = [f'<g class="striche" transform="translate({_f(x0)},{_f(y0)})">']
    out.append(f'<path class="chalk" {_CHALK} d="M0,30 L0,{HALF_H - 24}"/>')
    row = (HALF_H - 60) / max(len(kinds), 1)
    for i, kind in enumerate(kinds):
        y = 48 + i * row
        n = int(striche.get(kind, 0))
        out.append(
            f'<text class="txt" {_TEXT} x="12" y="{_f(y + 5)}" font-size="14">{labels[kind]}</text>'
        )
        out.append(
            f'<g class="strich {kind}" data-count="{n}">'
            + _marks("striche", n, PANEL_W - 140, 118, y, 0)
            + "</g>"
        )
    out.append("</g>")
    return out


def _svg(width: float, height: float, body: list[str], title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="jasstafel" viewBox="0 0 {_f(width)} '
        f'{_f(height)}" width="{_f(width)}" height="{_f(height)}" role="img">'
        f"<title>{escape(title)}</title>{_DEFS}"
        f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" rx="14" fill="{FRAME}"/>'
        f'<rect x="10" y="10" width="{_f(width - 20)}" height="{_f(height - 20)}" rx="6" '
        'fill="url(#board)"/>'
        f'<g class="smudge" fill="none" stroke="{CHALK}" stroke-linecap="round" opacity=".06" '
        'filter="url(#smear)">'
        f'<path d="M{_f(width * 0.12)},{_f(height * 0.3)} q{_f(width * 0.3)},-30 '
        f'{_f(width * 0.62)},10" stroke-width="46"/>'
        f'<path d="M{_f(width * 0.2)},{_f(height * 0.78)} q{_f(width * 0.25)},24 '
        f'{_f(width * 0.55)},-6" stroke-width="38"/></g>'
        f'<g filter="url(#chalk)" {_HAND}>' + "".join(body) + "</g></svg>"
    )


def slate_svg(
    hand_scores: Sequence[int],
    striche: Mapping[str, int] | None = None,
    label: str = "",
    lang: str = "de",
    show_total: bool = True,
) -> str:
    """One team's half of the slate: the Z for these hand scores, and the Striche panel
    when ``striche`` (kind → number of Striche) is given."""
    t = slate_tally(hand_scores)
    total = sum(hand_scores) if show_total else None
    body = _z(t, 10, 10, label, total)
    width = HALF_W + 20
    if striche is not None:
        body += _panel(striche, HALF_W + 10, 10, lang, STRICHE_KINDS)
        width += PANEL_W
    return _svg(width, HALF_H + 20, body, f"{label or 'Jasstafel'}: {t.value}")


def tafel_svg(
    hand_scores: tuple[Sequence[int], Sequence[int]],
    striche: tuple[Mapping[str, int], Mapping[str, int]] | None = None,
    labels: tuple[str, str] = ("A", "B"),
    lang: str = "de",
) -> str:
    """The whole slate: team 0's Z above, team 1's below, each with its Striche panel."""
    body: list[str] = []
    for team in (0, 1):
        y0 = 10 + team * HALF_H
        body += _z(slate_tally(hand_scores[team]), 10, y0, labels[team], sum(hand_scores[team]))
        if striche is not None:
            body += _panel(striche[team], HALF_W + 10, y0, lang, STRICHE_KINDS)
    width = HALF_W + 20 + (PANEL_W if striche is not None else 0)
    mid = 10 + HALF_H
    body.append(f'<path class="chalk" {_CHALK} d="M24,{mid} L{_f(width - 24)},{mid}"/>')
    title = f"{labels[0]} {sum(hand_scores[0])} – {labels[1]} {sum(hand_scores[1])}"
    return _svg(width, 2 * HALF_H + 20, body, title)


def jasstafel_svg(sheet: ScoreSheet, lang: str = "de") -> str:
    """The slate of a score sheet: every hand chalked for both teams, and the Striche."""
    marks = sheet.marks
    striche = (
        {k: marks[k][0] for k in STRICHE_KINDS},
        {k: marks[k][1] for k in STRICHE_KINDS},
    )
    return tafel_svg(
        (sheet.hand_scores(0), sheet.hand_scores(1)),
        striche,
        (sheet.teams[0], sheet.teams[1]),
        lang,
    )
