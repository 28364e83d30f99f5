"""The game sheet: a finished game as a page a player can read and print — every hand with its
contract, its nine tricks card by card (who led, who took it, for how much), its score block
by block and the running totals, then the result and the Striche by kind.

``game_sheet`` is pure: a game (replayed from its record), the seats' names, a language and a
deck in, HTML out. Its words come from the message catalogue; ``static/sheet.css`` holds its
screen and print styles (no inline style or script: the site's Content-Security-Policy).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from html import escape

from chibre import i18n
from chibre.cards import card_name, suit_name
from chibre.game import Game
from chibre.hand import BLOCKS, Hand
from chibre.server.views import game_scores
from chibre.tournament.passe import Passe

STRICHE = ("sieg", "match", "kontermatsch", "bergpreis", "schneider")


def contract_text(hand: Hand, lang: str, deck: str, mapping: str) -> str:
    """ "Trump ♥ hearts ×2", "Obenabe"."""
    c = hand.contract
    if c < 0:
        return "–"
    if c < 4:
        text = i18n.text(lang, "trump", name=suit_name(c, lang, deck, mapping))
    else:
        text = i18n.text(lang, "obenabe" if c == 4 else "undenufe")
    return text + (f" ×{hand.factor}" if hand.factor > 1 else "")


def game_sheet(
    game: Game,
    names: list[str],
    lang: str,
    deck: str = "french",
    mapping: str = "swisslos",
    created: float | None = None,
) -> str:
    """The game sheet of ``game`` as an HTML page; ``names``: the four seats' names."""

    def say(key: str, **fields: object) -> str:
        return escape(i18n.text(lang, key, **fields))

    def card(c: int) -> str:
        return escape(card_name(c, lang, deck, mapping))

    teams = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    out = [
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{say('sheet_title')}</title>",
        '<link rel="icon" href="/cards/french/HJ.svg" type="image/svg+xml">',
        '<link rel="stylesheet" href="/static/sheet.css"><script type="module" '
        'src="/static/sheet.js"></script></head><body>',
        f"<header><h1>{say('sheet_title')}</h1>",
        f'<button type="button" id="print" class="no-print">{say("sheet_print")}</button>',
    ]
    if created is not None:
        date = time.strftime("%Y-%m-%d %H:%M", time.localtime(created))
        out.append(f"<p>{say('sheet_played', date=date)}</p>")
    to, fields = played_to(game)
    out.append(f"<p>{escape(teams[0])} — {escape(teams[1])} · {say(to, **fields)}</p>")
    out.append("</header><main>")
    for number, (hand, score) in enumerate(zip(game.hands, game_scores(game), strict=True)):
        blocks, running = score["teams"], score["totals"]
        chooser = names[hand.contract_seat] if hand.contract_seat >= 0 else "–"
        out.append(
            f'<section class="hand"><h2>{say("hand_n", n=number + 1)} · '
            f"{escape(contract_text(hand, lang, deck, mapping))} · "
            f"{say('sheet_chooser', name=chooser)}"
            f"{say('term.after_chibre') if hand.chibred else ''}</h2>"
        )
        out.append('<div class="wide"><table class="tricks"><thead><tr><th>#</th>')
        out += [f"<th>{escape(n)}</th>" for n in names]
        out.append(f"<th>{say('sheet_takes')}</th><th>{say('sheet_points')}</th></tr></thead>")
        out.append("<tbody>")
        for k, trick in enumerate(hand.tricks):
            by_seat = {(trick.leader + i) % 4: c for i, c in enumerate(trick.cards)}
            cells = []
            for seat in range(4):
                classes = [c for c, on in (("lead", seat == trick.leader),
                                           ("won", seat == trick.winner)) if on]  # fmt: skip
                cls = f' class="{" ".join(classes)}"' if classes else ""
                cells.append(f"<td{cls}>{card(by_seat[seat]) if seat in by_seat else ''}</td>")
            out.append(
                f"<tr><td>{k + 1}</td>{''.join(cells)}<td>{escape(names[trick.winner])}</td>"
                f"<td>{trick.points}</td></tr>"
            )
        out.append("</tbody></table></div>")
        out.append(
            f'<table class="score"><thead><tr><td></td><th>{escape(teams[0])}</th>'
            f"<th>{escape(teams[1])}</th></tr></thead><tbody>"
        )
        for block in BLOCKS:
            if block == "tricks" or blocks[0][block] or blocks[1][block]:
                out.append(
                    f"<tr><th>{say(block)}</th><td>{blocks[0][block]}</td>"
                    f"<td>{blocks[1][block]}</td></tr>"
                )
        out.append(
            f'<tr class="total"><th>{say("total")}</th><td>{blocks[0]["total"]}</td>'
            f"<td>{blocks[1]['total']}</td>"
            f'</tr><tr class="running"><th>{say("sheet_running")}</th><td>{running[0]}</td>'
            f"<td>{running[1]}</td></tr></tbody></table></section>"
        )
    if game.is_over:
        out.append(f'<section class="result"><h2>{say("sheet_result")}</h2>')
        if game.winner >= 0:
            out.append(f"<p>{say('team_wins', team=teams[game.winner])} — ")
        else:  # a Passe has no winner: its points count
            out.append(f"<p>{say('tour_passe_over', n=passe_hands(game))} — ")
        out.append(f"{game.totals[0]}\u00a0:\u00a0{game.totals[1]}</p>")
        if has_striche(game):
            out.append(striche_table(game, teams, say))
        out.append("</section>")
    out.append("</main></body></html>")
    return "".join(out)


def passe_hands(game: Game) -> int:
    """The number of hands of a Passe; 0 for a game to the target."""
    return game.length if isinstance(game, Passe) else 0


def played_to(game: Game) -> tuple[str, dict[str, object]]:
    """What the game is played to, as a catalogue key and its fields: a Passe's number of
    hands ("Passe of 12 hands"), else the target ("of 1000")."""
    hands = passe_hands(game)
    if hands:
        return "tour_passe_hands", {"n": hands}
    return "of_target", {"n": game.rules.target}


def has_striche(game: Game) -> bool:
    """Whether the game has Striche to show: none in a Passe (it counts points), none where
    the table's rules write none."""
    return not passe_hands(game) and game.winner >= 0 and any(game.striche)


def striche_table(game: Game, teams: list[str], say: Callable[..., str]) -> str:
    """The Striche of both teams by kind (a row for each kind written) and their total."""
    out = [
        f'<table class="score"><thead><tr><th>{say("striche")}</th>'
        f"<th>{escape(teams[0])}</th><th>{escape(teams[1])}</th></tr></thead><tbody>"
    ]
    for kind in STRICHE:
        counts = [game.striche_kinds[t].get(kind, 0) for t in (0, 1)]
        if any(counts):
            out.append(
                f"<tr><th>{say('strich_' + kind)}</th><td>{counts[0]}</td><td>{counts[1]}</td></tr>"
            )
    out.append(
        f'<tr class="total"><th>{say("total")}</th><td>{game.striche[0]}</td>'
        f"<td>{game.striche[1]}</td></tr></tbody></table>"
    )
    return "".join(out)
