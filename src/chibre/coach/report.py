"""A review written for people: one line per decision, then the summary — as text for the
terminal, as a standalone HTML page, in French, German or English (the message catalogue,
``coach.`` keys)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from chibre.actions import Action, Chibre, Choose, Play, Thank
from chibre.cards import card_name, card_symbol, cards_of, suit_name
from chibre.coach.reasons import Reason
from chibre.coach.review import Assessment, Review
from chibre.coach.verdict import Verdict
from chibre.i18n import colon, text


def contract_text(contract: int, lang: str, double: bool = False, deck: str = "french") -> str:
    """A contract in words: ``trump ♥``, ``Obenabe``; ``double`` for the pique double."""
    if contract < 4:
        name = text(lang, "coach.contract.trump", suit=suit_name(contract, lang, deck))
    else:
        name = text(lang, "coach.contract." + ("obenabe" if contract == 4 else "undenufe"))
    return text(lang, "coach.double", contract=name) if double else name


def card_text(card: int, lang: str, deck: str = "french") -> str:
    """A card as the review writes it: ``♥10``, ``♥V`` in French, in the French deck; its name
    in the Swiss one (``Rosen Banner``), whose cards have no such signs."""
    return card_name(card, lang, deck) if deck == "swiss" else card_symbol(card, lang)


def number_text(x: float, lang: str) -> str:
    """A number of points to a tenth, with the decimal comma in French: ``13,7``."""
    said = f"{x:.1f}"
    return said.replace(".", ",") if lang == "fr" else said


def action_text(action: Action, lang: str, deck: str = "french") -> str:
    """An option in words: a card as ``♥10`` (by name in the Swiss deck), a contract, chibre."""
    if isinstance(action, Play):
        return card_text(action.card, lang, deck)
    if isinstance(action, Choose):
        return contract_text(action.contract, lang, action.double, deck)
    if isinstance(action, Chibre):
        return text(lang, "coach.chibre")
    if isinstance(action, Thank):
        return text(lang, "coach.kind.thank")
    return type(action).__name__


def _with_article(name: str) -> str:
    """A French card's name as a sentence says it: ``l’as de pique``, ``la dame de cœur``."""
    rank = name.split()[0]
    if rank in ("as", "under", "ober"):
        return "l’" + name
    return ("la " if rank == "dame" else "le ") + name


def cards_text(cards: Iterable[int], lang: str, deck: str = "french") -> str:
    """Cards in a line: the Swiss deck's names are words, so a comma between them."""
    between = ", " if deck == "swiss" else " "
    return between.join(card_text(c, lang, deck) for c in cards)


def percent(share: float) -> int:
    """A share as a whole percentage, a half rounded up (as the pages round it)."""
    return int(100 * share + 0.5)


def reason_text(reason: Reason, lang: str, deck: str = "french") -> str:
    """The reason's line in ``lang``."""
    fields: dict[str, str] = {}
    for name, value in reason.fields.items():
        if name in ("card", "other"):
            said = card_name(int(value), lang, deck)
            fields[name] = _with_article(said) if lang == "fr" else said
        elif name == "cards":
            fields[name] = cards_text(cards_of(int(value)), lang, deck)
        elif name == "suit":
            fields[name] = suit_name(int(value), lang, deck)
        elif name == "contract":
            fields[name] = contract_text(int(value), lang, deck=deck)
        else:
            fields[name] = f"{value:g}" if isinstance(value, float) else str(value)
    return text(lang, "coach.reason." + reason.key, **fields)


def assessment_head(a: Assessment, lang: str, deck: str = "french") -> str:
    """What was done, its verdict and the points lost: ``♥J ?! lost 4.3 ± 1.5`` (a missed
    declaration's points are in its reason)."""
    if a.kind in ("weis", "stoeck", "thank"):
        return f"{text(lang, 'coach.kind.' + a.kind)} {a.verdict.value}"
    head = f"{action_text(a.taken, lang, deck)} {a.verdict.value}"
    if a.verdict is Verdict.GOOD:
        return head
    loss, error = number_text(a.loss, lang), number_text(a.error, lang)
    return f"{head} {text(lang, 'coach.lost', loss=loss, error=error)}"


def assessment_line(a: Assessment, lang: str, deck: str = "french") -> str:
    """``♥J ?! lost 4.3 ± 1.5 — best ♥8: ducking: …`` (the open cards after ``|``)."""
    line = assessment_head(a, lang, deck) + " — "
    best = action_text(a.best, lang, deck)
    if best != action_text(a.taken, lang, deck) and a.kind not in ("weis", "stoeck", "thank"):
        line += f"{text(lang, 'coach.best')} {best}{colon(lang)} "
    line += reason_text(a.reason, lang, deck)
    if a.hindsight is not None:
        cards = cards_text(a.hindsight, lang, deck)
        line += " | " + text(lang, "coach.hindsight", cards=cards)
    return line


def text_report(review: Review, lang: str = "en", deck: str = "french") -> str:
    """The whole review as text."""
    lines = [text(lang, "coach.title")]
    hand = -1
    for a in review.assessments:
        if a.hand_index != hand:
            hand = a.hand_index
            lines.append("")
            lines.append(text(lang, "coach.hand", number=hand + 1))
        seat = text(lang, "coach.seat", seat=a.seat)
        lines.append(f"  {seat}: {assessment_line(a, lang, deck)}")
    lines.append("")
    for s in review.summaries:
        seat = text(lang, "coach.seat", seat=s.seat)
        lines.append(
            text(
                lang,
                "coach.summary",
                seat=seat,
                n=s.decisions,
                lost=number_text(s.lost_per_hand, lang),
                accuracy=percent(s.accuracy),
            )
        )
        lines.append("  " + text(lang, "coach.biggest") + colon(lang))
        if not s.biggest:
            lines.append("    " + text(lang, "coach.no_mistake"))
        for a in s.biggest:
            hand_name = text(lang, "coach.hand", number=a.hand_index + 1)
            lines.append(f"    {hand_name}{colon(lang)} {assessment_line(a, lang, deck)}")
    return "\n".join(lines) + "\n"


def html_report(review: Review, lang: str = "en", deck: str = "french") -> str:
    """The whole review as a standalone HTML page (no script, no outside file)."""
    rows = []
    for a in review.assessments:
        css = a.verdict.key
        rows.append(
            f'<tr class="{css}"><td>{a.hand_index + 1}</td><td>{a.seat}</td>'
            f"<td>{escape(action_text(a.taken, lang, deck))}</td><td>{escape(a.verdict.value)}</td>"
            f"<td>{number_text(a.loss, lang)} ± {number_text(a.error, lang)}</td>"
            f"<td>{escape(action_text(a.best, lang, deck) if a.best != a.taken else '')}</td>"
            f"<td>{escape(reason_text(a.reason, lang, deck))}</td>"
            f"<td>{escape(cards_text(a.hindsight or (), lang, deck))}</td></tr>"
        )
    summary = "".join(
        "<li>"
        + escape(
            text(
                lang,
                "coach.summary",
                seat=text(lang, "coach.seat", seat=s.seat),
                n=s.decisions,
                lost=number_text(s.lost_per_hand, lang),
                accuracy=percent(s.accuracy),
            )
        )
        + "</li>"
        for s in review.summaries
    )
    title = escape(text(lang, "coach.title"))
    columns = ("hand", "seat", "played", "verdict", "loss", "best", "reason", "hindsight")
    head = "".join(f"<th>{escape(text(lang, f'coach.column.{c}'))}</th>" for c in columns)
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>"
        "<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}"
        ".wide{overflow-x:auto}"
        ".inaccuracy{background:#fff4c2}.mistake{background:#ffd9a8}.blunder{background:#ffb3b3}"
        f"</style></head><body><h1>{title}</h1><ul>{summary}</ul>"
        f'<div class="wide"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        "</body></html>\n"
    )
