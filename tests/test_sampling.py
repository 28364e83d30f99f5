"""Deal sampling: every sampled deal agrees with the observation, and deals are uniform.

A sampled deal is checked the strongest way there is: the game is replayed from its record
with the current hand re-dealt (each seat's sampled cards plus the cards it played), every
recorded action must still be legal, and the seat's observation must come out identical —
same plays, same announced and shown weis, same stöck, same chooser.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from random import Random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chibre import CHANCE, Deal, Game, Play, Rules, Thank
from chibre.bots.sampling import infer, sample_deals, weakest_weis_worth, weis_worth
from chibre.cards import ALL_CARDS, cards_of
from chibre.rules import PRESETS
from chibre.weis import weis_of

RULES = [Rules.preset(name) for name in PRESETS] + [
    Rules(auto_weis=False, auto_stoeck=False, target=700),
    Rules(stoeck_in_weis=True, target=700),
    Rules(pique_double="choice", multipliers="pique_double", chibre_back=True, target=600),
    Rules(kreuzweis=False, big_sequences=False, low_carres_100=True, target=500),
]


def random_position(rules: Rules, seed: int, min_cards: int = 0) -> Game:
    """A game played by random legal actions (never thanking) up to a random moment of the
    play of some hand, at least ``min_cards`` cards into it."""
    rng = Random(seed)
    game = Game(rules)
    hands = rng.randrange(1, 4)
    stop = rng.randrange(min_cards, 36)
    while True:
        if game.current_player == CHANCE:
            game.deal(rng)
            hands -= 1
            continue
        hand = game.hand
        assert hand is not None
        played = sum(len(t.cards) for t in hand.tricks) + len(hand.trick)
        if hand.phase.value == "play" and (hands <= 0 and played >= stop):
            return game
        actions = [a for a in game.legal_actions() if not isinstance(a, Thank)]
        game.apply(rng.choice(actions))
        if game.is_over:  # start over with fewer hands
            return random_position(rules, seed + 1, min_cards)


def played_by(game: Game) -> list[int]:
    hand = game.hand
    assert hand is not None
    out = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards) for t in hand.tricks] + [(hand.leader, tuple(hand.trick))]
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            out[(leader + i) % 4] |= 1 << c
    return out


def redeal(game: Game, hands: tuple[int, int, int, int]) -> Game:
    """The same game with the current hand's cards replaced: ``hands`` are the cards each
    seat holds now; what each seat played is added back. Raises if an action turns illegal."""
    played = played_by(game)
    dealt = tuple(hands[s] | played[s] for s in range(4))
    entries = game.record.entries
    last = max(i for i, (_, a) in enumerate(entries) if isinstance(a, Deal))
    new = Game(game.rules)
    for i, (seat, action) in enumerate(entries):
        if i == last:
            assert isinstance(action, Deal)
            action = Deal(dealt, action.dealer)  # type: ignore[arg-type]
        elif i > last and isinstance(action, Play) and action.weis:
            action = _same_value_weis(new, seat, action)
        new.apply(action, None if isinstance(action, Deal) else seat)
    return new


def _same_value_weis(game: Game, seat: int, action: Play) -> Play:
    """A weis declared by hand names its cards, but only its value is public: where the new
    cards lack the declared ones, declare the weakest weis of the same value instead."""
    hand = game.hand
    assert hand is not None
    held = hand.dealt[seat]
    if all(held & m == m for m in action.weis):
        return action
    value = max(weis_of(m, game.rules).points for m in action.weis)
    w = weakest_weis_worth(held, value, game.rules, hand.contract)
    assert w is not None, "the sampled hand holds a weis of the announced value"
    return action._replace(weis=(w.cards,))


def assert_consistent(game: Game, seat: int, deal: tuple[int, int, int, int]) -> None:
    hand = game.hand
    assert hand is not None
    assert deal[seat] == hand.hands[seat], "the seat's own hand stays in its place"
    assert sum(h.bit_count() for h in deal) + sum(p.bit_count() for p in played_by(game)) == 36
    union = 0
    for s in range(4):
        assert deal[s].bit_count() == hand.hands[s].bit_count(), "each seat holds its count"
        assert not union & deal[s], "a card dealt twice"
        union |= deal[s]
    new = redeal(game, deal)
    assert new.observation(seat) == game.observation(seat)


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(range(len(RULES))),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    observer=st.integers(min_value=0, max_value=3),
)
@example(variant=6, seed=198234732, observer=0)  # stöck shown with a weis before their cards
def test_sampled_deals_agree_with_everything_public(variant: int, seed: int, observer: int) -> None:
    game = random_position(RULES[variant], seed)
    seat = game.current_player if observer == 0 else (observer + seed) % 4
    assert seat is not None and seat >= 0
    obs = game.observation(seat)
    for deal in sample_deals(obs, Random(seed), 6):
        assert_consistent(game, seat, deal)


def test_the_same_generator_gives_the_same_deals() -> None:
    game = random_position(Rules(), 5)
    obs = game.observation(1)
    assert sample_deals(obs, Random(3), 5) == sample_deals(obs, Random(3), 5)


def test_voids_are_read_from_play() -> None:
    """A seat that discards on a led suit is void in it; one that does not follow a trump
    lead may still hold the bourg, and nothing else in trump."""
    for seed in range(200):
        game = random_position(Rules(weis=False), seed, min_cards=12)
        hand = game.hand
        assert hand is not None
        inf = infer(game.observation(0))
        for t in hand.tricks:
            led = t.cards[0] // 9
            for i, c in enumerate(t.cards[1:], 1):
                s = (t.leader + i) % 4
                if s == 0 or c // 9 == led:
                    continue
                if hand.contract >= 4:
                    assert not inf.allowed[s] & (0x1FF << 9 * led)
                elif led == hand.contract:
                    trumps = inf.allowed[s] & (0x1FF << 9 * led)
                    assert trumps & ~(1 << (9 * led + 5)) == 0
                elif c // 9 != hand.contract:
                    assert not inf.allowed[s] & (0x1FF << 9 * led)
        for s in range(1, 4):  # the truth is always allowed
            assert hand.hands[s] & ~inf.allowed[s] == 0


def _all_consistent_deals(game: Game, seat: int) -> list[tuple[int, int, int, int]]:
    """Every consistent deal, by brute force: each assignment of the unseen cards that
    replays to the same observation."""
    hand = game.hand
    assert hand is not None
    played = 0
    for p in played_by(game):
        played |= p
    unseen = cards_of(ALL_CARDS & ~played & ~hand.hands[seat])
    others = [s for s in range(4) if s != seat]
    counts = [hand.hands[s].bit_count() for s in others]
    target = game.observation(seat)
    out = []
    for owners in itertools.product(range(3), repeat=len(unseen)):
        if [owners.count(i) for i in range(3)] != counts:
            continue
        deal = [0, 0, 0, 0]
        deal[seat] = hand.hands[seat]
        for c, i in zip(unseen, owners, strict=True):
            deal[others[i]] |= 1 << c
        d = (deal[0], deal[1], deal[2], deal[3])
        try:
            new = redeal(game, d)
        except Exception:
            continue
        if new.observation(seat) == target:
            out.append(d)
    return out


def _chi_square_critical(df: int, z: float = 3.09) -> float:
    """Upper 0.1% point of the chi-square distribution (Wilson–Hilferty)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def _constrained_endgame() -> tuple[Game, int]:
    """A seeded late position where play has revealed voids (so deals are not all alike)."""
    for seed in itertools.count():
        game = random_position(Rules(weis=False, stoeck=False), seed, min_cards=24)
        hand = game.hand
        assert hand is not None
        seat = hand.to_act
        played = sum(len(t.cards) for t in hand.tricks) + len(hand.trick)
        unseen = 36 - played - hand.hands[seat].bit_count()
        if not 6 <= unseen <= 8:
            continue
        inf = infer(game.observation(seat))
        if any(inf.allowed[s] & inf.unknown != inf.unknown for s in range(4) if s != seat):
            return game, seat
    raise AssertionError("unreachable")


def test_deals_are_uniform_over_the_consistent_deals() -> None:
    game, seat = _constrained_endgame()
    every = _all_consistent_deals(game, seat)
    assert len(every) >= 5
    draws = 40 * len(every)
    counts = Counter(sample_deals(game.observation(seat), Random(11), draws))
    assert set(counts) <= set(every), "only consistent deals are drawn"
    expected = draws / len(every)
    chi2 = sum((counts.get(d, 0) - expected) ** 2 / expected for d in every)
    assert chi2 < _chi_square_critical(len(every) - 1), (chi2, len(every))


def test_weis_announced_but_not_shown_is_in_the_sampled_hand() -> None:
    """Seat 1 announced 100 (a five-card run) and lost to seat 0's 150: every sampled hand of
    seat 1 holds a run worth 100, and seat 0's shown run stays with seat 0."""
    from chibre import Choose, Play, parse_cards
    from chibre.weis import best_weis

    hands = (
        parse_cards("♦6 ♦7 ♦8 ♦9 ♦10 ♦J ♠6 ♣6 ♥6"),
        parse_cards("♥8 ♥9 ♥10 ♥J ♥Q ♠7 ♣7 ♦Q ♦K"),
        parse_cards("♥7 ♥K ♥A ♠8 ♠9 ♠10 ♣8 ♣9 ♦A"),
        parse_cards("♠J ♠Q ♠K ♠A ♣10 ♣J ♣Q ♣K ♣A"),
    )
    rules = Rules(first_chooser="right_of_dealer")
    game = Game(rules)
    game.apply(Deal(hands, 3))  # seat 0 chooses and leads
    game.apply(Choose(4))
    for c in ("♠6", "♠7", "♠8", "♠J"):
        game.apply(Play(parse_cards(c).bit_length() - 1))
    obs = game.observation(2)
    assert obs.announced[1] == 100 and obs.weis_team == 0
    for deal in sample_deals(obs, Random(1), 40):
        assert_consistent(game, 2, deal)
        dealt1 = deal[1] | parse_cards("♠7")
        assert max(w.points for w in best_weis(dealt1, rules, 4)) == 100
        assert deal[0] & parse_cards("♦6 ♦7 ♦8 ♦9 ♦10 ♦J") == parse_cards("♦6 ♦7 ♦8 ♦9 ♦10 ♦J")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_samples_at_the_contract(preset: str) -> None:
    game = Game(Rules.preset(preset))
    game.deal(Random(4))
    seat = game.current_player
    assert seat is not None and seat >= 0
    for deal in sample_deals(game.observation(seat), Random(0), 5):
        assert_consistent(game, seat, deal)


def test_a_seat_that_undertrumped_holds_nothing_but_trumps() -> None:
    """No undertrumping unless the hand is all trumps: after an undertrump every sampled
    hand of that seat is all trumps (found in seeded random hands)."""
    from chibre import Choose
    from chibre.play import TRUMP_STRENGTH, highest_trump

    found = 0
    rng = Random(8)
    while found < 3:
        game = Game(Rules(weis=False, first_chooser="right_of_dealer"))
        game.deal(rng)
        hand = game.hand
        assert hand is not None
        game.apply(Choose(rng.randrange(4)))
        while not hand.is_over:
            seat, trick, k = hand.to_act, tuple(hand.trick), hand.contract
            c = rng.choice(cards_of(hand.legal_cards()))
            high = highest_trump(trick, k) if k < 4 and trick else -1
            game.apply(Play(c))
            under = (
                high >= 0
                and trick[0] // 9 != k
                and c // 9 == k
                and TRUMP_STRENGTH[c % 9] < TRUMP_STRENGTH[high % 9]
            )
            if under and hand.hands[seat] and not hand.is_over:
                observer = hand.to_act if hand.to_act != seat else (seat + 1) % 4
                trumps = 0x1FF << (9 * k)
                for deal in sample_deals(game.observation(observer), Random(found), 10):
                    assert deal[seat] & ~trumps == 0
                    assert_consistent(game, observer, deal)
                found += 1
                break


def deal_hands(rng: Random) -> tuple[int, int, int, int]:
    cards = list(range(36))
    rng.shuffle(cards)
    h = [sum(1 << c for c in cards[9 * i : 9 * i + 9]) for i in range(4)]
    return (h[0], h[1], h[2], h[3])


def test_a_call_stops_checking_once_no_deal_agrees() -> None:
    """When no deal can agree with the weis (here an announced value no hand can hold), the
    call falls back once and then draws the rest under the play constraints alone: the
    checks made stay within one rejection round per deal plus one fallback."""
    from dataclasses import replace

    from chibre import Choose, Play, parse_cards
    from chibre.bots import sampling
    from chibre.observation import Observation

    hands = (
        parse_cards("♦6 ♦7 ♦8 ♦9 ♦10 ♦J ♠6 ♣6 ♥6"),
        parse_cards("♥8 ♥9 ♥10 ♥J ♥Q ♠7 ♣7 ♦Q ♦K"),
        parse_cards("♥7 ♥K ♥A ♠8 ♠9 ♠10 ♣8 ♣9 ♦A"),
        parse_cards("♠J ♠Q ♠K ♠A ♣10 ♣J ♣Q ♣K ♣A"),
    )
    game = Game(Rules(first_chooser="right_of_dealer"))
    game.apply(Deal(hands, 3))
    game.apply(Choose(4))
    for c in ("♠6", "♠7", "♠8", "♠J"):
        game.apply(Play(parse_cards(c).bit_length() - 1))
    obs = game.observation(2)
    a = obs.announced
    impossible = replace(obs, announced=(a[0], 7, a[2], a[3]))
    calls = 0
    real = sampling._consistent

    def counted(o: Observation, inf: sampling.Inference, h: sampling.Deal4) -> bool:
        nonlocal calls
        calls += 1
        return real(o, inf, h)

    sampling._consistent = counted
    try:
        deals = sample_deals(impossible, Random(3), 12)
    finally:
        sampling._consistent = real
    n = sampling.REJECTION_TRIES
    # one rejection round, then one fallback (seat 3's weis planted, then long rejection)
    assert calls == n + 2 * 20 * n
    assert len(deals) == 12
    inf = infer(impossible)
    for deal in deals:
        assert deal[2] == obs.hand
        for s in range(4):
            assert deal[s] & inf.known[s] == inf.known[s]
            assert (deal[s] & ~inf.known[s]) & ~inf.allowed[s] == 0
            assert deal[s].bit_count() == inf.counts[s]


def test_a_weis_declared_by_hand_that_must_hold_the_stoeck_would_have_shown_them() -> None:
    """Weis declared by hand, stöck shown with the weis: seat 1 announced 20 and no stöck
    were shown, so no sampled hand of seat 1 has the stöck in every run worth 20 it holds."""
    from chibre import Choose, parse_cards
    from chibre.weis import STOECK_CARDS

    hands = (
        parse_cards("♦6 ♦7 ♦9 ♦J ♣6 ♣8 ♣10 ♠K ♠A"),
        parse_cards("♠6 ♠7 ♠8 ♥6 ♥8 ♦K ♦A ♣J ♣A"),
        parse_cards("♦8 ♦10 ♦Q ♣7 ♣9 ♣Q ♠9 ♠J ♥7"),
        parse_cards("♣K ♠10 ♠Q ♥9 ♥10 ♥J ♥Q ♥K ♥A"),
    )
    rules = Rules(first_chooser="right_of_dealer", auto_weis=False, stoeck_in_weis=True)
    game = Game(rules)
    game.apply(Deal(hands, 3))  # seat 0 chooses and leads
    game.apply(Choose(1))  # ♥ trump: the stöck are ♥Q ♥K
    card = lambda code: parse_cards(code).bit_length() - 1  # noqa: E731
    game.apply(Play(card("♦6")))
    game.apply(Play(card("♦K"), weis=(parse_cards("♠6 ♠7 ♠8"),)))
    obs = game.observation(2)
    assert obs.announced[1] == 20 and obs.stoeck_seat < 0
    sc = STOECK_CARDS[1]
    holding = 0
    for deal in sample_deals(obs, Random(5), 300):
        assert_consistent(game, 2, deal)
        dealt1 = deal[1] | parse_cards("♦K")
        if dealt1 & sc == sc:
            holding += 1
            assert any(w.cards & sc != sc for w in weis_worth(dealt1, 20, rules))
    assert holding > 0  # seat 1 may still hold them, beside a run without them
