"""The game sheet of a finished game (``chibre.server.gamesheet``): who named each contract,
and when the choice was passed (geschoben)."""

from __future__ import annotations

import re
from random import Random

from chibre.actions import Chibre
from chibre.game import CHANCE, Game
from chibre.rules import Rules
from chibre.server.gamesheet import game_sheet


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
