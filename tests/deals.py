"""Deals shared by the tests of one hand and of the game, each checked by hand against RULES.md."""

from chibre.cards import parse_cards

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
