"""What every computer player must do: only legal moves under every table option, and
honesty — the same decision whatever the cards it cannot see.

Each name of ``chibre.bots.PLAYERS`` is listed here, and each must build.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from importlib.util import find_spec
from random import Random

import pytest

from chibre.actions import Action, Deal, Play
from chibre.arena import build_player
from chibre.bots import PLAYERS
from chibre.bots.player import Clairvoyant, Player
from chibre.bots.random_player import RandomPlayer
from chibre.cards import ALL_CARDS, SUIT_MASKS, cards_of
from chibre.errors import ChibreError
from chibre.game import CHANCE, Game
from chibre.observation import Observation
from chibre.play import BOURG
from chibre.rules import PRESETS, Rules
from chibre.weis import STOECK_CARDS, best_weis

NAMES = (
    "random",
    "rule",
    "beginner",
    "easy",
    "medium",
    "strong",
    "expert",
    "strong-unread",
    "cheat",
    "jasskit-random",
)
FAST = ("random", "rule", "beginner")  # thousands of decisions; the others fewer
BUDGET = 0.01  # seconds per move for players that take a budget

RULE_SETS: tuple[Rules, ...] = (
    *(Rules.preset(name) for name in PRESETS),
    Rules.make(weis=False, stoeck=False),
    Rules.make(claim="thank", target=500),
    Rules.make(auto_weis=False, auto_stoeck=False, stoeck_in_weis=True, target=700),
    Rules.make(pique_double="choice", chibre_back=True),
    Rules.make(end_mode="end_of_hand", end_order="stoeck,tricks,weis", target=700),
    Rules.make(
        big_sequences=False,
        kreuzweis=False,
        low_carres_100=True,
        undenufe_low_weis=False,
        multipliers="ascending",
        first_chooser="right_of_dealer",
        end_order="weis,stoeck,tricks",
        target=1500,
    ),
)


def test_every_registered_player_is_listed_and_exists() -> None:
    assert set(PLAYERS) == set(NAMES)
    for name in NAMES:
        assert find_spec(PLAYERS[name][0]) is not None, f"player {name!r} has no module"


def _legal(action: Action, game: Game, legal: tuple[Action, ...]) -> bool:
    if action in legal:
        return True
    # Where players declare their own weis, any valid set is accepted with a legal card.
    return (
        isinstance(action, Play)
        and not game.rules.auto_weis
        and any(isinstance(a, Play) and a.card == action.card for a in legal)
    )


def _play(game: Game, players: list[Player], rng: Random, decisions: int) -> int:
    """Play on (dealing from ``rng``) until ``decisions`` are made or the game ends."""
    made = 0
    while made < decisions and not game.is_over:
        seat = game.current_player
        if seat == CHANCE:
            game.deal(rng)
            continue
        assert seat is not None
        hand = game.hand
        assert hand is not None
        obs = game.observation(seat)
        player = players[seat]
        if isinstance(player, Clairvoyant):
            player.see((hand.hands[0], hand.hands[1], hand.hands[2], hand.hands[3]))
        action = player.act(obs)
        assert _legal(action, game, obs.legal_actions), (player.name, action, obs)
        game.apply(action, seat)  # raises if the engine refuses it
        made += 1
    return made


@pytest.mark.parametrize("name", NAMES)
def test_players_only_make_legal_moves_under_every_rule_set(name: str) -> None:
    """Fast players play thousands of decisions; slow ones a few per rule set, from
    positions that random play reaches (contract choices, first tricks, late tricks)."""
    fast = name in FAST
    per_rule_set = 500 if fast else 3
    total = 0
    for i, rules in enumerate(RULE_SETS):
        rng = Random(f"legal:{name}:{i}")
        players = [build_player(name, 100 * i + seat, BUDGET) for seat in range(4)]
        made = 0
        while made < per_rule_set:
            game = Game(rules)
            if not fast:
                randoms: list[Player] = [RandomPlayer(seat) for seat in range(4)]
                _play(game, randoms, rng, rng.randrange(40))
            made += _play(game, players, rng, per_rule_set - made)
        total += made
    assert total == per_rule_set * len(RULE_SETS)


def test_fast_players_finish_whole_games_under_every_rule_set() -> None:
    for i, rules in enumerate(RULE_SETS):
        game = Game(rules)
        players: list[Player] = [
            build_player(name, i) for name in ("rule", "random", "rule", "random")
        ]
        _play(game, players, Random(f"whole:{i}"), 10**6)
        assert game.is_over
        assert max(game.totals) >= rules.target or rules.claim == "thank"


# --- honesty ---------------------------------------------------------------------------------


def _voids(game: Game) -> list[int]:
    """Cards each seat has shown it cannot hold, from the play of the current hand."""
    hand = game.hand
    assert hand is not None
    k = hand.contract
    out = [0, 0, 0, 0]
    history = [(t.leader, t.cards) for t in hand.tricks]
    if hand.trick:
        history.append((hand.leader, tuple(hand.trick)))
    for leader, cards in history:
        led = cards[0] // 9
        for i, c in enumerate(cards[1:], 1):
            p = (leader + i) % 4
            if c // 9 == led:
                continue
            if k < 4 and led == k:
                out[p] |= SUIT_MASKS[k] & ~BOURG[k]  # the bourg is never forced out
            elif k >= 4 or c // 9 != k:
                out[p] |= SUIT_MASKS[led]
    return out


def redeal(game: Game, seat: int, rng: Random) -> Game | None:
    """The same public game on a different deal of the cards ``seat`` cannot know: the
    cards played stay, the seat's own hand stays, shown weis stay with their seats, declared
    stöck stay, and nobody gets a card of a suit it has shown void in. ``None`` when the
    draw does not give the seat the very same observation."""
    hand = game.hand
    assert hand is not None
    entries = game.record.entries
    start = max(i for i, (_, a) in enumerate(entries) if isinstance(a, Deal))
    deal = entries[start][1]
    assert isinstance(deal, Deal)
    obs = game.observation(seat)
    fixed = [0, 0, 0, 0]
    history = [(t.leader, t.cards) for t in hand.tricks]
    if hand.trick:
        history.append((hand.leader, tuple(hand.trick)))
    for leader, cards in history:
        for i, c in enumerate(cards):
            fixed[(leader + i) % 4] |= 1 << c
    for p, w in obs.shown_weis:
        fixed[p] |= w.cards
    if obs.stoeck_seat >= 0:
        fixed[obs.stoeck_seat] |= STOECK_CARDS[hand.contract]
    if len(game.hands) == 1 and game.rules.first_chooser == "card":
        fixed[hand.chooser] |= 1 << game.rules.first_chooser_card
    fixed[seat] = hand.dealt[seat]
    voids = _voids(game) if hand.contract >= 0 else [0, 0, 0, 0]
    free = ALL_CARDS & ~(fixed[0] | fixed[1] | fixed[2] | fixed[3])
    others = [p for p in range(4) if p != seat]
    hands = list(fixed)
    room = {p: 9 - fixed[p].bit_count() for p in others}
    cards = list(cards_of(free))
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for p in others if not voids[p] >> c & 1))
    for c in cards:
        seats = [p for p in others if room[p] > 0 and not voids[p] >> c & 1]
        if not seats:
            return None
        p = rng.choices(seats, weights=[room[q] for q in seats])[0]
        hands[p] |= 1 << c
        room[p] -= 1
    new = Game(game.rules)
    try:
        for s, a in entries[:start]:
            new.apply(a, None if isinstance(a, Deal) else s)
        new.apply(Deal((hands[0], hands[1], hands[2], hands[3]), deal.dealer))
        contract = -1
        for s, a in entries[start + 1 :]:
            if isinstance(a, Play) and a.weis and s != seat:
                # Another seat's declared weis: whatever it holds in the new deal.
                a = a._replace(
                    weis=tuple(w.cards for w in best_weis(hands[s], new.rules, contract))
                )
            new.apply(a, s)
            if new.hand is not None:
                contract = new.hand.contract
    except ChibreError:
        return None
    return new if new.observation(seat) == obs else None


def _positions(count: int) -> list[tuple[Game, int]]:
    """Mid-hand positions (and some contract choices) reached by random play."""
    positions: list[tuple[Game, int]] = []
    trial = 0
    while len(positions) < count:
        rng = Random(f"position:{trial}")
        rules = RULE_SETS[trial % len(RULE_SETS)]
        trial += 1
        game = Game(rules)
        players: list[Player] = [RandomPlayer(trial) for _ in range(4)]
        steps = rng.randrange(1, 90)
        _play(game, players, rng, steps)
        seat = game.current_player
        if game.is_over or seat is None or seat == CHANCE:
            continue
        positions.append((game, seat))
    return positions


def _clairvoyant(name: str) -> bool:
    """Whether the player is shown every hand (its class has ``see``) — the cheat."""
    module, cls, _ = PLAYERS[name]
    try:
        return hasattr(getattr(import_module(module), cls), "see")
    except ImportError:
        return False  # its tests fail, each naming what is missing


HONEST = tuple(name for name in NAMES if not _clairvoyant(name))


class Peeker:
    """A dishonest player for the test of the test: it reads the next seat's cards."""

    name = "peeker"

    def __init__(self, game: Game) -> None:
        self.game = game

    def act(self, observation: Observation) -> Action:
        hand = self.game.hand
        assert hand is not None
        legal = observation.legal_actions
        return legal[hand.hands[(observation.seat + 1) % 4] % len(legal)]


def _compare(
    decide: Callable[[Game, int, Observation], Action], count: int, rng: Random
) -> tuple[int, int, int]:
    """Over ``count`` positions: how many were compared on a re-deal, how many of those
    re-deals moved hidden cards, and how many decisions changed."""
    compared = changed = differ = 0
    for game, seat in _positions(count):
        obs = game.observation(seat)
        for _ in range(40):
            other = redeal(game, seat, rng)
            if other is not None:
                break
        else:
            continue
        hand, other_hand = game.hand, other.hand
        assert hand is not None and other_hand is not None
        changed += hand.dealt != other_hand.dealt
        seed = rng.randrange(1000)
        first = decide(game, seed, obs)
        again = decide(other, seed, other.observation(seat))
        differ += first != again or type(first) is not type(again)
        compared += 1
    return compared, changed, differ


@pytest.mark.parametrize("name", HONEST)
def test_decisions_do_not_depend_on_cards_the_seat_cannot_see(name: str) -> None:
    count = 120 if name in FAST else 6
    compared, changed, differ = _compare(
        lambda game, seed, obs: build_player(name, seed).act(obs), count, Random(name)
    )
    assert differ == 0
    assert compared >= count * 3 // 4
    assert changed >= compared * 3 // 4  # most positions really had hidden cards moved


def test_the_honesty_check_catches_a_player_that_peeks() -> None:
    compared, _, differ = _compare(lambda game, seed, obs: Peeker(game).act(obs), 40, Random(1))
    assert compared >= 30
    assert differ >= compared // 4


def test_redeal_keeps_the_public_game_and_moves_hidden_cards() -> None:
    game = Game(Rules.make(weis=False))
    rng = Random(3)
    _play(game, [RandomPlayer(s) for s in range(4)], rng, 14)
    seat = game.current_player
    assert seat is not None and seat >= 0
    other = None
    while other is None:
        other = redeal(game, seat, rng)
    hand, moved = game.hand, other.hand
    assert hand is not None and moved is not None
    assert moved.dealt[seat] == hand.dealt[seat]
    assert moved.tricks == hand.tricks and moved.trick == hand.trick
    assert moved.dealt != hand.dealt
    assert other.observation(seat) == game.observation(seat)
    assert other.observation((seat + 1) % 4) != game.observation((seat + 1) % 4)
