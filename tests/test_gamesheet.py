"""The game sheet of a finished game (``chibre.server.gamesheet``): who named each contract,
and when the choice was passed (geschoben); what a Passe is played to, and its result."""

from __future__ import annotations

import re
from random import Random

from chibre.actions import Chibre
from chibre.game import CHANCE, Game
from chibre.rules import Rules
from chibre.server.gamesheet import game_sheet
from chibre.tournament.passe import Passe


def test_the_sheet_says_who_named_the_contract_and_that_it_was_passed() -> None:
    rng = Random(5)
    game = Game(Rules.make(target=300, weis=False))
    chibred: list[bool] = []  # for each hand, whether its choice was passed
    while not game.is_over:
        seat = game.current_player
        if seat == CHANCE:
            game.deal(rng)
            chibred.append(False)
            continue
        assert seat is not None
        legal = game.observation(seat).legal_actions
        if Chibre() in legal and len(chibred) % 2:  # every other hand is passed
            action = Chibre()
            chibred[-1] = True
        else:
            action = rng.choice([a for a in legal if a != Chibre()])
        game.apply(action, seat)
    names = ["Ueli", "Rechts", "Vreni", "Links"]
    page = game_sheet(game, names, "de")
    headings = re.findall(r'<section class="hand"><h2>(.*?)</h2>', page)
    assert len(headings) == len(game.hands) == len(chibred) >= 2
    for heading, hand, passed in zip(headings, game.hands, chibred, strict=True):
        assert f"angesagt von {names[hand.contract_seat]}" in heading
        assert heading.endswith(", geschoben") == passed, heading
    assert any(chibred) and not all(chibred)
    assert "<th></th>" not in page  # every header cell says what it heads


def played_out(game: Game, seed: int) -> Game:
    """``game`` played to its end by random legal moves."""
    rng = Random(seed)
    while not game.is_over:
        seat = game.current_player
        if seat == CHANCE:
            game.deal(rng)
            continue
        assert seat is not None
        game.apply(rng.choice(game.observation(seat).legal_actions), seat)
    return game


NAMES = ["Ueli", "Rechts", "Vreni", "Links"]


def test_a_passe_s_sheet_says_its_hands_and_no_winner_and_shows_no_striche() -> None:
    """A Passe is played to its number of hands, not to a target put out of reach; it has no
    winner and no Striche (its points count)."""
    game = played_out(Passe(Rules.make(weis=False), 2), seed=3)
    assert game.winner == -1
    page = game_sheet(game, NAMES, "de")
    header = re.search(r"<header>(.*?)</header>", page, re.S)
    assert header and "· Passe von 2 Spielen</p>" in header.group(1), header
    assert "von 10000" not in page
    result = re.search(r'<section class="result">(.*?)</section>', page, re.S)
    assert result, page
    a, b = game.totals
    assert f"<p>Die Passe von 2 Spielen ist fertig — {a}\u00a0:\u00a0{b}</p>" in result.group(1)
    assert "gewinnen" not in page and "Striche" not in page


def test_a_game_s_sheet_says_its_target_its_winner_and_its_striche() -> None:
    game = played_out(Game(Rules.make(target=300, weis=False)), seed=4)
    page = game_sheet(game, NAMES, "en")
    assert "· of 300</p>" in page
    result = re.search(r'<section class="result">(.*?)</section>', page, re.S)
    assert result, page
    teams = ["Ueli &amp; Vreni", "Rechts &amp; Links"]  # as HTML writes them
    assert f"<p>{teams[game.winner]} win — " in result.group(1)
    total = f'<tr class="total"><th>Total</th><td>{game.striche[0]}</td>'
    assert "<th>Striche</th>" in result.group(1) and total in result.group(1)
    assert sum(game.striche) >= 2  # the win at least
