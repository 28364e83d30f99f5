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
