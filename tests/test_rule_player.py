"""The `rule` player's heuristics, each shown on a position written in notation."""

from __future__ import annotations

import dataclasses
from random import Random

from chibre.actions import Chibre, Choose, Deal, Play
from chibre.arena import duplicate
from chibre.bots import make_player
from chibre.bots.random_player import RandomPlayer
from chibre.bots.rule import CHIBRE_THRESHOLD, Knowledge, RulePlayer, choose_card, contract_values
from chibre.cards import ALL_CARDS, cards_of, mask, parse_card, parse_cards
from chibre.game import CHANCE, Game
from chibre.notation import format_deal, parse_hand, parse_record
from chibre.play import CARD_POINTS
from chibre.rules import Contract, Rules

# Seat 0 chooses first (the dealer is seat 3), so positions read from the first card on.
RULES = Rules.make(first_chooser="right_of_dealer", weis=False, stoeck=False)

# Hearts deal: seat 0 holds ♥K J 9 7 and ♦A; the other trumps are ♥A ♥Q (seat 1),
# ♥10 (seat 2), ♥8 ♥6 (seat 3).
HEARTS = "3:A7.KJ97.6.86/KQ6.AQ.AK.KQ/T98.T.QJT.JT/J.86.987.A97"

# Cutting deal (♥ trump by seat 0): seat 3 has no diamonds, only low trumps ♥7 ♥6 and
# small spades and clubs.
CUT = "3:T6.AKQJ.AK.A/K7.T98.QJT.K/AQJ98..9.QJT/.76.876.9876"

# Obenabe deal: seat 0 holds ♦A ♦6, ♠K 7 6 and small hearts and clubs; seat 3 holds ♠A but
# no diamonds.
OBENABE = "3:A6.76.K76.76/KQJ.AKQ.QJT./T987.JT..AKQ/.98.A98.JT98"


def fill(hand: str) -> str:
    """A deal (dealer 3) giving seat 0 ``hand`` and the other cards in turn to seats 1..3."""
    mine = parse_hand(hand)
    rest = cards_of(ALL_CARDS & ~mine)
    hands = (mine, mask(rest[0::3]), mask(rest[1::3]), mask(rest[2::3]))
    return format_deal(Deal(hands, 3))


def position(deal: str, actions: str = "", rules: Rules = RULES) -> Game:
    """The game after ``actions`` (notation) on ``deal``."""
    record = parse_record(f"rules {rules.to_json()}\nhand {deal} {actions}\n")
    game, _ = record.replay()
    return game


def decide(game: Game, seed: int = 0) -> Play | Choose | Chibre:
    seat = game.current_player
    assert seat is not None and seat >= 0
    action = RulePlayer(seed).act(game.observation(seat))
    assert isinstance(action, Play | Choose | Chibre)
    return action


def played(game: Game, seed: int = 0) -> int:
    action = decide(game, seed)
    assert isinstance(action, Play), action
    return action.card


def test_registry_builds_the_rule_player() -> None:
    player = make_player("rule", 3)
    assert isinstance(player, RulePlayer)
    assert player.name == "rule"


# --- the contract ----------------------------------------------------------------------------


def test_chooses_the_obvious_trump_with_bourg_nell_and_ace() -> None:
    # Seat 0: ♥J ♥9 ♥A ♥7 beside ♦K ♦6, ♠8 ♠7, ♣6.
    hand = parse_hand("K6.AJ97.87.6")
    assert hand == parse_cards("♦K ♦6 ♥A ♥J ♥9 ♥7 ♠8 ♠7 ♣6")
    values = contract_values(hand)
    assert max(range(6), key=values.__getitem__) == Contract.HEARTS
    game = position(fill("K6.AJ97.87.6"))
    assert decide(game) == Choose(Contract.HEARTS)


def test_chibres_a_weak_hand_and_the_partner_must_choose() -> None:
    weak = "98.T8.98.JT9"
    assert max(contract_values(parse_hand(weak))) < CHIBRE_THRESHOLD
    game = position(fill(weak))
    assert decide(game) == Chibre()
    game = position(fill(weak), ">")
    assert game.current_player == 2
    action = decide(game)
    assert isinstance(action, Choose)  # no second chibre: the partner names a contract


def test_chooses_obenabe_with_four_aces() -> None:
    # Four aces, a king and a queen beside them, nothing long: Obenabe, not a trump.
    hand = "AK7.AQ.A6.A9"
    values = contract_values(parse_hand(hand))
    assert max(range(6), key=values.__getitem__) == Contract.OBENABE
    game = position(fill(hand))
    assert decide(game) == Choose(Contract.OBENABE)


def test_chooses_undenufe_with_sixes_and_sevens() -> None:
    hand = parse_hand("876.76.76.76")
    values = contract_values(hand)
    assert max(range(6), key=values.__getitem__) == Contract.UNDENUFE


def test_plays_pique_double_with_a_very_strong_spade_hand() -> None:
    rules = RULES.replace(pique_double="choice")
    game = position(fill("A.A.AKQJT9.A"), rules=rules)
    assert decide(game) == Choose(Contract.SPADES, True)


# --- the play --------------------------------------------------------------------------------


def test_pulls_trumps_with_the_top_trumps() -> None:
    game = position(HEARTS, "=H")
    assert played(game) == parse_card("HJ")  # the bourg first
    # The bourg took ♥Q and ♥10; ♥A and ♥8 are still out: the nell is now the top trump.
    game = position(HEARTS, "=H HJ HQ H10 H6")
    assert game.current_player == 0
    assert played(game) == parse_card("H9")


def test_stops_pulling_when_the_opponents_have_no_trump_left_and_plays_the_bock() -> None:
    game = position(HEARTS, "=H HJ HQ H10 H6 H9 HA D8 H8")
    assert game.current_player == 0
    # Every trump still out is in seat 0's hand: no more pulling. ♦A is the Bock.
    assert played(game) == parse_card("DA")


def test_plays_the_bock_once_the_ace_is_gone() -> None:
    game = position(OBENABE, "=O")
    assert played(game) == parse_card("DA")
    game = position(OBENABE, "=O DA DK D7 SA")
    assert game.current_player == 0
    # ♠A is gone: seat 0's ♠K is the highest spade still out — the Bock.
    assert played(game) == parse_card("SK")


def test_ducks_under_a_card_it_cannot_beat() -> None:
    game = position(OBENABE, "=O DA")
    assert game.current_player == 1
    # ♦A cannot be beaten: keep ♦K and ♦Q, play the jack.
    assert played(game) == parse_card("DJ")


def test_does_not_cut_an_empty_trick_with_a_trump() -> None:
    game = position(CUT, "=H D6 D7 D8")
    assert game.current_player == 3
    card = played(game)
    assert card // 9 != Contract.HEARTS
    assert CARD_POINTS[Contract.HEARTS][card] == 0


def test_cuts_a_rich_trick_with_its_lowest_trump() -> None:
    game = position(CUT, "=H D10 D7 DA")
    assert game.current_player == 3
    assert played(game) == parse_card("H6")


def test_schmiert_a_ten_on_the_partners_sure_trick() -> None:
    # Obenabe: seat 0 leads ♦A, which nothing can beat; seat 2 must follow diamonds from
    # ♦10 9 8 7 and loads the ten (10 points) into its partner's trick.
    game = position(OBENABE, "=O DA DK")
    assert game.current_player == 2
    assert played(game) == parse_card("D10")


def test_the_same_observation_gets_the_same_decision_whatever_the_seed() -> None:
    game = position(HEARTS, "=H HJ HQ")
    obs = game.observation(2)
    first = RulePlayer(5).act(obs)
    assert all(RulePlayer(5).act(obs) == first for _ in range(3))
    assert RulePlayer(9).act(obs) == first  # no randomness in this position


def test_beats_random_clearly_in_duplicate() -> None:
    result = duplicate("rule", "random", deals=40, seed=9, jobs=1)
    assert result.mean - result.half_width > 40  # about +75 points per hand over many deals


def test_near_the_target_it_plays_for_the_trick_that_ends_the_game() -> None:
    """When the next trick can take a team to the target (the table stops at that moment),
    the rule player plays the card most likely to take it — for the win, or to stop them."""
    rng = Random(5)
    checked = changed = 0
    for seed in range(60):
        game = Game(Rules(target=1000))
        game.deal(Random(seed))
        stop = rng.randrange(4, 34)
        while game.current_player != CHANCE and not game.is_over:
            seat = game.current_player
            assert seat is not None
            obs = game.observation(seat)
            legal = tuple(sorted({a.card for a in obs.legal_actions if isinstance(a, Play)}))
            played = sum(len(t.cards) for t in obs.tricks) + len(obs.trick)
            if played >= stop and len(legal) > 1:
                team = seat & 1
                for needs in (team, 1 - team):  # we are one point short, or they are
                    totals = [0, 0]
                    totals[needs] = 999
                    near = dataclasses.replace(obs, totals=(totals[0], totals[1]))
                    know = Knowledge(near)
                    best = max(know.win_chance(c) for c in legal)
                    card = choose_card(near, legal)
                    assert know.win_chance(card) == best, (seed, needs, card)
                    changed += card != choose_card(obs, legal)
                    checked += 1
                break
            game.apply(RandomPlayer(seed).act(obs), seat)
    assert checked >= 60
    assert changed > 0  # the situation really changed some decisions
