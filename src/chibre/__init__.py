"""chibre — the open-source chibre (Schieber Jass) table.

The engine: cards as ints 0..35 and hands as 36-bit ints (``chibre.cards``), the table's
options (``Rules``), the play rules (``chibre.play``), weis and stöck (``chibre.weis``), the
``Hand`` and ``Game`` state machines with their ``Observation``, and the notation.
"""

from chibre.actions import Action, Chibre, Choose, Deal, Play, Thank
from chibre.cards import (
    Rank,
    Suit,
    card,
    card_code,
    card_name,
    card_symbol,
    cards_of,
    format_cards,
    mask,
    parse_card,
    parse_cards,
)
from chibre.deal import deal_cards, secure_deal
from chibre.errors import (
    ChibreError,
    GameOver,
    IllegalAction,
    IllegalCard,
    InvalidRules,
    NotationError,
    NotYourTurn,
)
from chibre.game import CHANCE, Game, GameRecord
from chibre.hand import Hand, HandScore, Phase, Trick
from chibre.rules import PRESETS, Contract, Rules, Striche
from chibre.weis import Weis, best_weis

__all__ = [
    "CHANCE",
    "PRESETS",
    "Action",
    "Chibre",
    "ChibreError",
    "Choose",
    "Contract",
    "Deal",
    "Game",
    "GameOver",
    "GameRecord",
    "Hand",
    "HandScore",
    "IllegalAction",
    "IllegalCard",
    "InvalidRules",
    "NotYourTurn",
    "NotationError",
    "Phase",
    "Play",
    "Rank",
    "Rules",
    "Striche",
    "Suit",
    "Thank",
    "Trick",
    "Weis",
    "best_weis",
    "card",
    "card_code",
    "card_name",
    "card_symbol",
    "cards_of",
    "deal_cards",
    "format_cards",
    "mask",
    "parse_card",
    "parse_cards",
    "secure_deal",
]
