"""Invariants over random deals, contracts and legal random play (hypothesis).

- trick points sum to 157 per hand (257 with a match), every card is played once;
- the hand's legal cards equal those of the plain rule function ``play.legal_cards``;
- a legal action always exists while the game goes on;
- replaying the record gives the same events;
- an observation never holds another seat's unplayed card, except cards a shown weis made
  public;
- a refused action leaves the state as it was.
"""

from __future__ import annotations

import re
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chibre import CHANCE, Game, GameRecord, IllegalAction, Play, Rules, Thank, cards_of
from chibre.cards import ALL_CARDS, parse_card
from chibre.hand import Hand
from chibre.play import legal_cards

VARIANTS = [
    Rules(),
    Rules.preset("jasvel"),
    Rules.preset("schieber-2500"),
    Rules.preset("pique-double"),
    Rules.preset("geneve-500", weis=False),
    Rules(auto_weis=False, auto_stoeck=False, target=500),
    Rules(kreuzweis=False, big_sequences=False, low_carres_100=True, target=500),
    Rules(stoeck_in_weis=True, auto_stoeck=False, auto_weis=False, target=700),
    Rules(stoeck_in_weis=True, target=700),
    Rules(claim="thank", target=500),
    Rules(pique_double="choice", multipliers="pique_double", chibre_back=True, target=600),
    Rules(end_order="stoeck,tricks,weis", first_chooser="right_of_dealer", target=500),
    Rules(multipliers="ascending", end_mode="end_of_hand", target=800),
]

CODE = re.compile(r"^[DHSC](10|[6-9JQKA])$")


def snapshot(hand: Hand) -> tuple:
    return (
        tuple(hand.hands), tuple(hand.trick), tuple(hand.tricks), tuple(hand.credits),
        hand.to_act, hand.phase, hand.contract, tuple(hand.announced), hand.stoeck_declared,
    )  # fmt: skip


def cards_in(value, out: set[int]) -> None:
    """Every card code anywhere in a JSON-ready value."""
    if isinstance(value, str) and CODE.match(value):
        out.add(parse_card(value))
    elif isinstance(value, dict):
        for v in value.values():
            cards_in(v, out)
    elif isinstance(value, list):
        for v in value:
            cards_in(v, out)


def check_observations(game: Game) -> None:
    hand = game.hand
    assert hand is not None
    played = 0
    for t in hand.tricks:
        for c in t.cards:
            played |= 1 << c
    for c in hand.trick:
        played |= 1 << c
    for seat in range(4):
        obs = game.observation(seat)
        assert obs.hand == hand.hands[seat]
        shown = 0  # what the rules make public: the weis of the team that won the weis
        if hand.weis_team >= 0:
            for s in (hand.weis_team, hand.weis_team + 2):
                for w in hand.declared[s]:
                    shown |= w.cards
        own = hand.dealt[seat]
        may_know = own | played | shown
        data = obs.to_dict()
        del data["rules"]  # options name a card (first_chooser_card), not a hand
        seen: set[int] = set()
        cards_in(data, seen)
        for c in seen:
            assert may_know >> c & 1, f"seat {seat} sees {c} it may not know"
        for s, _ in obs.shown_weis:
            assert s & 1 == hand.weis_team


def play_random_game(rules: Rules, seed: int, max_hands: int) -> tuple[Game, list]:
    rng = Random(seed)
    game = Game(rules)
    events: list = []
    hands_started = 0
    while not game.is_over:
        if game.current_player == CHANCE:
            if hands_started == max_hands:
                break
            events += game.deal(rng)
            hands_started += 1
            continue
        actions = game.legal_actions()
        assert actions, "a legal action always exists"
        hand = game.hand
        assert hand is not None
        if hand.phase.value == "play":
            # the hand's running trick state agrees with the plain rule function
            assert hand.legal_cards() == legal_cards(
                hand.hands[hand.to_act], hand.trick, hand.contract
            )
        if hand.phase.value == "play" and rng.random() < 0.2:
            illegal = ALL_CARDS & ~hand.legal_cards()
            if illegal:
                before = snapshot(hand)
                bad = rng.choice(cards_of(illegal))
                try:
                    game.apply(Play(bad))
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("an illegal card was accepted")
                assert snapshot(hand) == before
                wrong_seat = (hand.to_act + 1) % 4
                try:
                    game.apply(Play(cards_of(hand.legal_cards())[0]), wrong_seat)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("a card out of turn was accepted")
                assert snapshot(hand) == before
        action = rng.choice(actions)
        seat = game.current_player
        if isinstance(action, Thank):
            if rng.random() < 0.9:  # thank rarely, so that games also run on
                action = actions[0]
            else:
                seat = rng.randrange(4)
        events += game.apply(action, seat)
        if rng.random() < 0.3:
            check_observations(game)
    return game, events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(range(len(VARIANTS))),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_games_keep_every_invariant(variant: int, seed: int) -> None:
    rules = VARIANTS[variant]
    game, events = play_random_game(rules, seed, max_hands=3)
    for hand in game.hands:
        if not hand.is_over:
            continue
        seen = 0
        for t in hand.tricks:
            assert len(t.cards) == 4
            for c in t.cards:
                assert not seen >> c & 1, "a card played twice"
                seen |= 1 << c
        assert seen == ALL_CARDS, "every card is played"
        score = hand.score()
        card_points = sum(score.tricks) + sum(score.match)
        match = len({t.winner & 1 for t in hand.tricks}) == 1
        assert card_points == (257 if match else 157)
        assert sum(t.points for t in hand.tricks) == 157
    replayed, replay_events = game.record.replay()
    assert replay_events == events
    assert replayed.totals == game.totals
    assert replayed.winner == game.winner


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_totals_are_the_sum_of_the_credits(seed: int) -> None:
    game, _ = play_random_game(Rules(target=1000), seed, max_hands=8)
    total = [0, 0]
    for hand in game.hands[:-1]:
        for credit in hand.credits:
            total[credit.team] += credit.points
    for credit in game.written_credits():
        total[credit.team] += credit.points
    assert total == game.totals


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_drawing_of_the_cards_never_changes_a_score(seed: int) -> None:
    rules = Rules(multipliers="current", target=1500)
    game, events = play_random_game(rules, seed, max_hands=3)
    for deck in ("french", "swiss"):
        for mapping in ("swisslos", "books", "printed", "parlett"):
            drawn = GameRecord(rules.replace(deck=deck, suit_mapping=mapping), game.record.entries)
            replayed, replay_events = drawn.replay()
            assert replay_events == events
            assert replayed.totals == game.totals
