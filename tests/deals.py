"""Deals shared by the tests of one hand and of the game, each checked by hand against RULES.md."""

from chibre.actions import Choose, Declare, Play
from chibre.cards import cards_of, parse_card, parse_cards
from chibre.game import Game
from chibre.notation import parse_deal
from chibre.rules import Rules

# The worked example of RULES.md §6. Seat 0 (A, team 0) chooses ♠ and leads. Weis: seat 0
# ♦6-♦9 (50), seat 1 ♥6-♥8 (20), nobody else. Stöck ♠Q ♠K with seat 2 (team 0).
EXAMPLE = (
    parse_cards("♦6 ♦7 ♦8 ♦9 ♠J ♠9 ♠A ♣A ♥A"),
    parse_cards("♥6 ♥7 ♥8 ♦10 ♦Q ♣10 ♣Q ♠6 ♠7"),
    parse_cards("♥9 ♥J ♥K ♣6 ♣8 ♣J ♠Q ♠K ♦K"),
    parse_cards("♥10 ♥Q ♣7 ♣9 ♣K ♠8 ♠10 ♦J ♦A"),
)

# Seat 0 takes all nine tricks with ♠ trump, leading these cards in this order; the others
# play their lowest legal card. Weis: seat 0 ♠6-♠9 (50), seat 1 ♥6-♥8 (20). Stöck: seat 2.
MATCH = (
    parse_cards("♠6 ♠7 ♠8 ♠9 ♠J ♠A ♦A ♥A ♦K"),
    parse_cards("♥6 ♥7 ♥8 ♠10 ♦6 ♦8 ♣6 ♣8 ♣K"),
    parse_cards("♠Q ♠K ♦7 ♦J ♥9 ♥J ♣7 ♣9 ♣J"),
    parse_cards("♦9 ♦10 ♦Q ♥10 ♥Q ♥K ♣Q ♣10 ♣A"),
)

MATCH_LEADS = "♠J ♠A ♠9 ♠8 ♠7 ♠6 ♦A ♥A ♦K"

# EXAMPLE with the stöck in seat 3's hand (team 1): seat 2 ↔ seat 3 swap ♠Q ♠K / ♠8 ♠10.
STOECK_3 = (
    EXAMPLE[0],
    EXAMPLE[1],
    parse_cards("♥9 ♥J ♥K ♣6 ♣8 ♣J ♠8 ♠10 ♦K"),
    parse_cards("♥10 ♥Q ♣7 ♣9 ♣K ♠Q ♠K ♦J ♦A"),
)

# ♠ trump, seat 0 chooses and takes all nine tricks leading MATCHED_LEADS; stöck ♠K ♠Q with
# seat 0. Weis: seat 0 ♠9-♠A (150), seat 1 ♥6-♥Q (200), seat 2 ♦7-♦10 (50), seat 3 ♣8-♣K
# (150) and ♦J-♦K (20). Team 1 holds the best weis (200) and scores 200 + 150 + 20 = 370
# although team 0 makes match: 257 + 20 stöck = 277.
MATCHED_WITH_WEIS = (
    parse_cards("♠J ♠9 ♠A ♠K ♠Q ♠10 ♦A ♥A ♣A"),
    parse_cards("♥6 ♥7 ♥8 ♥9 ♥10 ♥J ♥Q ♦6 ♣6"),
    parse_cards("♠6 ♠7 ♠8 ♦7 ♦8 ♦9 ♦10 ♥K ♣7"),
    parse_cards("♦J ♦Q ♦K ♣8 ♣9 ♣10 ♣J ♣Q ♣K"),
)
MATCHED_LEADS = "♠J ♠9 ♠A ♠K ♠Q ♠10 ♦A ♥A ♣A"

# ♠ trump, seat 0 chooses: seat 0 holds ♠K ♠Q and no weis, seat 1 ♥6-♥8 (20), nobody else
# anything. The stöck never enter the weis comparison: team 1's 20 is the best weis.
STOECK_AGAINST_WEIS = (
    parse_cards("♠K ♠Q ♦6 ♦8 ♦10 ♥A ♣6 ♣8 ♣10"),
    parse_cards("♥6 ♥7 ♥8 ♦7 ♦9 ♣7 ♣9 ♠6 ♠8"),
    parse_cards("♦J ♦K ♥9 ♥J ♥K ♣J ♣K ♠7 ♠9"),
    parse_cards("♦Q ♦A ♥10 ♥Q ♣Q ♣A ♠10 ♠J ♠A"),
)


def _play_out(game: Game) -> Game:
    """The first legal card of the seat to act, until a team reaches the target."""
    while not game.is_over:
        hand = game.hand
        assert hand is not None
        game.apply(Play(cards_of(hand.legal_cards())[0]))
    return game


def further_weis_game() -> Game:
    """Obenabe, ``auto_weis`` off, target 150: seat 0 announces ♦Q-♦A (20) with its ♦A, takes
    the first trick (♦A ♦6 ♦9 ♣9; moves 1-5 with the contract) and adds ♥6-♥9 (50) before the
    lead to the second (move 6, RULES.md §5); then the first legal card until the game ends."""
    game = Game(Rules.make(auto_weis=False, first_chooser="right_of_dealer", target=150))
    game.apply(parse_deal("3:AKQ.9876..76/876..AKQJ.AK/JT9.AKQJT..8/..T9876.QJT9"))
    game.apply(Choose(4), 0)
    game.apply(Play(parse_card("♦A"), (parse_cards("♦Q ♦K ♦A"),)), 0)
    for card in ("♦6", "♦9", "♣9"):
        game.apply(Play(parse_card(card)))
    game.apply(Declare((parse_cards("♥6 ♥7 ♥8 ♥9"),)), 0)
    return _play_out(game)


def late_stoeck_game() -> Game:
    """♥ trump, target 100: seat 0 holds ♥K ♥Q, seat 1 a 50 and seat 3 a 20 (team 1 writes
    70 with the first trick, move 5); the first legal card each time: seat 0 plays its
    second stöck card at move 20, the next card (move 21) takes team 0 to 100."""
    game = Game(Rules.make(first_chooser="right_of_dealer", target=100))
    game.apply(parse_deal("3:QT.KQ9.T86.6/AKJ9876.7.9./.AJT8.AK7.K9/.6.QJ.AQJT87"))
    game.apply(Choose(1), 0)
    return _play_out(game)
