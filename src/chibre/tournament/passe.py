"""A Passe (eine Passe): a game of a fixed number of hands, every hand counted, that no target
ends — as the Swiss Passe tournaments count (12 hands of 157, 257 with a match).

``Passe`` is a ``chibre.game.Game`` whose target is out of reach and which is over once its
last hand is played: the table, the server and the bots' tournaments all play it as any other
game. A Passe has no winner (``winner`` stays -1 unless a wrong thank ended it): the points
are what counts.
"""

from __future__ import annotations

from chibre.game import Game
from chibre.rules import MAX_TARGET, Rules
from chibre.tournament import TournamentError

MAX_HANDS = 100


def game_rules(rules: Rules, hands: int = 0) -> Rules:
    """The rules a game is played under: a Passe of ``hands`` hands (``hands`` > 0) has its
    target put out of reach; a game to the target keeps ``rules``."""
    return rules.replace(target=MAX_TARGET) if hands else rules


class Passe(Game):
    """A game of ``length`` hands under ``rules`` (their target put out of reach)."""

    def __init__(self, rules: Rules, length: int) -> None:
        if not 1 <= length <= MAX_HANDS:
            raise TournamentError(f"a Passe has 1 to {MAX_HANDS} hands, not {length}")
        super().__init__(game_rules(rules, length))
        self.length = length

    @property
    def is_over(self) -> bool:
        if self.winner >= 0:
            return True
        hand = self.hand
        return len(self.hands) >= self.length and hand is not None and hand.is_over


def new_game(rules: Rules, hands: int = 0) -> Game:
    """A game to the target (``hands`` 0) or a Passe of ``hands`` hands."""
    return Passe(rules, hands) if hands else Game(rules)


__all__ = ["MAX_HANDS", "Passe", "game_rules", "new_game"]
