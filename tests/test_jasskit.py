"""The HSLU jass-kit game JSON (V0.2): writing our hands, reading and checking its files.

The files under ``tests/data/jasskit_*`` were written by the real jass-kit (a finished state,
a game log in JSON Lines, a Swisslos log line, mid-hand states and snapshots)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from random import Random
from typing import Any

import pytest

from chibre.actions import Chibre, Choose, Play
from chibre.bots.sampling import sample_deals
from chibre.bots.strong import StrongPlayer
from chibre.cards import card_code, cards_of, parse_card
from chibre.deal import deal_cards
from chibre.errors import NotationError
from chibre.hand import Hand, Trick
from chibre.jasskit import (
    RULES,
    check_hand,
    hand_to_jasskit,
    load_games,
    observation_from_json,
    seat_from_jasskit,
    seat_to_jasskit,
)
from chibre.notation import parse_deal
from chibre.observation import Observation

DATA = Path(__file__).parent / "data"
NEXT_JK = [3, 0, 1, 2]  # jass-kit's next player: N → W → S → E
SCORE = re.compile(r"N\+S (\d+), E\+W (\d+)")

DEAL = "0:JT.AK.T6.QJ6/Q9.T.98.AT98/8.Q96.AKJ7.K/AK76.J87.Q.7"
SEGREGATED = "3:AKQJT9876.../.AKQJT9876../..AKQJT9876./...AKQJT9876"
"""Dealer 3; seat 0 holds every ♦, seat 1 every ♥, seat 2 every ♠, seat 3 every ♣."""


def new_hand(seed: int, dealer: int) -> Hand:
    deal = deal_cards(Random(seed), dealer)
    return Hand(RULES, dealer, (dealer + 1) % 4, deal.hands)


def play_random(hand: Hand, rng: Random, cards: int = 36) -> None:
    for _ in range(cards):
        if hand.is_over:
            return
        hand.apply(Play(rng.choice(cards_of(hand.legal_cards()))))


def team_points_from_file(state: dict[str, Any]) -> tuple[int, int]:
    """The per-team points the file itself states, from each trick's ``win`` and ``points``."""
    pts = [0, 0]
    for t in state["tricks"]:
        if "win" in t:
            pts[t["win"] % 2] += t["points"]  # N 0 and S 2 are a team, E 1 and W 3 the other
    return pts[0], pts[1]


def checked_points(message: str) -> tuple[int, int]:
    m = SCORE.search(message)
    assert m, message
    return int(m.group(1)), int(m.group(2))


# --- seats -----------------------------------------------------------------------------------


def test_seat_mapping() -> None:
    assert [seat_to_jasskit(s) for s in range(4)] == [0, 3, 2, 1]
    assert [seat_from_jasskit(p) for p in range(4)] == [0, 3, 2, 1]
    for s in range(4):
        assert seat_to_jasskit(s) == -s % 4
        assert seat_from_jasskit(seat_to_jasskit(s)) == s
        # our next seat is jass-kit's next player
        assert seat_to_jasskit((s + 1) % 4) == NEXT_JK[seat_to_jasskit(s)]
        # teams are kept: N+S = our seats 0, 2
        assert seat_to_jasskit(s) % 2 == s % 2


# --- writing ---------------------------------------------------------------------------------


def test_before_the_contract() -> None:
    hand = new_hand(1, dealer=1)
    state = hand_to_jasskit(hand)
    assert state["version"] == "V0.2"
    assert state["jassTyp"] == "SCHIEBER"
    assert state["trump"] == -1
    assert state["forehand"] == -1
    assert state["dealer"] == 3  # our seat 1 is jass-kit's W (3)
    assert state["currentPlayer"] == seat_to_jasskit(2)
    assert state["tricks"] == []
    assert "playerView" not in state
    for p in range(4):
        held = state["player"][p]["hand"]
        assert len(held) == 9
        assert sum(1 << parse_card(c) for c in held) == hand.dealt[seat_from_jasskit(p)]


def test_card_strings_and_jasskit_order() -> None:
    """Codes "DA", "H10", "C6"; a hand listed by suit D H S C, then A K Q J 10 9 8 7 6."""
    deal = parse_deal(DEAL)
    state = hand_to_jasskit(Hand(RULES, deal.dealer, 1, deal.hands))
    assert state["player"][0]["hand"] == ["DJ", "D10", "HA", "HK", "S10", "S6", "CQ", "CJ", "C6"]
    assert state["player"][1]["hand"] == ["DA", "DK", "D7", "D6", "HJ", "H8", "H7", "SQ", "C7"]
    assert state["player"][2]["hand"] == ["D8", "HQ", "H9", "H6", "SA", "SK", "SJ", "S7", "CK"]
    assert state["player"][3]["hand"] == ["DQ", "D9", "H10", "S9", "S8", "CA", "C10", "C9", "C8"]


@pytest.mark.parametrize("seed", range(4))
def test_every_hand_in_jasskit_order(seed: int) -> None:
    state = hand_to_jasskit(new_hand(seed, seed % 4))
    order = [card_code(s * 9 + r) for s in range(4) for r in range(8, -1, -1)]
    for p in range(4):
        codes = state["player"][p]["hand"]
        assert codes == sorted(codes, key=order.index)
        assert all(re.fullmatch(r"[DHSC](10|[6-9JQKA])", c) for c in codes)


@pytest.mark.parametrize("contract", range(6))
def test_trump_numbers_and_forehand_1(contract: int) -> None:
    hand = new_hand(7, dealer=2)
    hand.apply(Choose(contract))
    state = hand_to_jasskit(hand)
    assert state["trump"] == contract  # ♦ 0, ♥ 1, ♠ 2, ♣ 3, Obenabe 4, Undenufe 5
    assert state["forehand"] == 1
    assert state["dealer"] == seat_to_jasskit(2)
    assert state["currentPlayer"] == seat_to_jasskit(3)
    # the current trick appears, still empty, led by the forehand
    assert len(state["tricks"]) == 1
    assert state["tricks"][0]["first"] == seat_to_jasskit(3)
    assert state["tricks"][0].get("cards", []) == []
    assert "points" not in state["tricks"][0] and "win" not in state["tricks"][0]


def test_push_gives_forehand_0() -> None:
    hand = new_hand(7, dealer=2)
    hand.apply(Chibre())
    state = hand_to_jasskit(hand)
    assert state["forehand"] == 0
    assert state["trump"] == -1
    assert state["currentPlayer"] == seat_to_jasskit(1)  # the forehand's partner chooses
    hand.apply(Choose(5))
    state = hand_to_jasskit(hand)
    assert (state["forehand"], state["trump"]) == (0, 5)
    assert state["currentPlayer"] == seat_to_jasskit(3)  # the forehand still leads


def test_incomplete_trick_and_next_player() -> None:
    hand = new_hand(5, dealer=0)
    start = hand_to_jasskit(hand)
    hand.apply(Choose(1))
    play_random(hand, Random(5), cards=4 * 3 + 2)
    state = hand_to_jasskit(hand)
    assert len(state["tricks"]) == 4
    done, current = state["tricks"][:3], state["tricks"][3]
    assert set(current) == {"cards", "first"}
    assert current["first"] == seat_to_jasskit(hand.leader)
    assert current["cards"] == [card_code(c) for c in hand.trick]
    assert len(current["cards"]) == 2
    assert state["currentPlayer"] == NEXT_JK[NEXT_JK[current["first"]]]
    for t, ours in zip(done, hand.tricks, strict=True):
        assert t["points"] == ours.points
        assert t["win"] == seat_to_jasskit(ours.winner)
        assert len(t["cards"]) == 4
    # each card was in the hand of the jass-kit player that the next-player rule names
    for t in state["tricks"]:
        p = t["first"]
        for code in t["cards"]:
            assert code in start["player"][p]["hand"]
            p = NEXT_JK[p]
    # the winner of a trick leads the next
    for a, b in zip(state["tricks"], state["tricks"][1:], strict=False):
        assert b["first"] == a["win"]
    # what was played is no longer in anyone's hand
    played = {code for t in state["tricks"] for code in t["cards"]}
    for p in range(4):
        assert state["player"][p]["hand"] == [
            c for c in start["player"][p]["hand"] if c not in played
        ]


def test_observation_fills_only_the_viewers_hand() -> None:
    hand = new_hand(6, dealer=3)
    hand.apply(Choose(0))
    play_random(hand, Random(6), cards=6)
    full = hand_to_jasskit(hand)
    for view in range(4):
        obs = hand_to_jasskit(hand, view=view)
        jk = seat_to_jasskit(view)
        assert obs["playerView"] == jk
        for p in range(4):
            expected = full["player"][p]["hand"] if p == jk else []
            assert obs["player"][p]["hand"] == expected
        assert obs["tricks"] == full["tricks"]
        assert obs["currentPlayer"] == full["currentPlayer"]
        assert (obs["trump"], obs["dealer"], obs["forehand"]) == (0, full["dealer"], 1)
        # an observation cannot be checked: it hides three hands
        assert check_hand(obs).ok is False


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda o: o["player"][o["playerView"]]["hand"].append(o["tricks"][0]["cards"][0]),
         "already played"),
        (lambda o: o["tricks"][1]["cards"].__setitem__(0, o["tricks"][0]["cards"][1]),
         "is played twice"),
        (lambda o: o["tricks"][0].update(points=99), "trick 1: points = 99, its cards make"),
        (lambda o: o["tricks"][0].update(win=(o["tricks"][0]["win"] + 1) % 4),
         "trick 1: win = "),
        (lambda o: o.update(currentPlayer=(o["currentPlayer"] + 1) % 4), "is to act"),
    ],
)  # fmt: skip
def test_an_observation_that_contradicts_itself_is_refused(change: Any, said: str) -> None:
    hand = new_hand(6, dealer=3)
    hand.apply(Choose(0))
    play_random(hand, Random(6), cards=9)
    view = hand.to_act
    obs = hand_to_jasskit(hand, view=view)
    assert observation_from_json(obs).seat == view  # as told, it is read
    change(obs)
    with pytest.raises(NotationError, match=re.escape(said)):
        observation_from_json(obs)


def test_finished_hand() -> None:
    hand = new_hand(9, dealer=1)
    hand.apply(Choose(3))
    play_random(hand, Random(9))
    state = hand_to_jasskit(hand)
    assert state["currentPlayer"] == -1
    assert len(state["tricks"]) == 9
    assert all(len(t["cards"]) == 4 for t in state["tricks"])
    assert sum(t["points"] for t in state["tricks"]) == 157
    assert all(p["hand"] == [] for p in state["player"])
    assert json.loads(json.dumps(state)) == state  # plain JSON


# --- round trips through check_hand ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_written_hand_checks_ok_with_the_same_points(seed: int) -> None:
    rng = Random(seed)
    hand = new_hand(seed, dealer=seed % 4)
    if rng.random() < 0.5:
        hand.apply(Chibre())
    hand.apply(Choose(rng.randrange(6)))
    while not hand.is_over:
        partial = check_hand(hand_to_jasskit(hand))
        assert partial.ok, partial
        assert "legal so far" in partial.message
        play_random(hand, rng, cards=1)
    state = json.loads(json.dumps(hand_to_jasskit(hand)))
    result = check_hand(state, "mine")
    assert result.ok, result
    assert str(result).startswith("mine: ")
    assert checked_points(result.message) == hand.score().tricks
    assert checked_points(result.message) == team_points_from_file(state)
    assert ("(pushed)" in result.message) == bool(hand.chibred)


def test_match_is_named() -> None:
    deal = parse_deal(SEGREGATED)
    hand = Hand(RULES, deal.dealer, 0, deal.hands)
    hand.apply(Chibre())
    hand.apply(Choose(1))  # seat 1 holds every trump: it takes every trick
    play_random(hand, Random(0))
    result = check_hand(hand_to_jasskit(hand))
    assert result.ok, result
    assert checked_points(result.message) == (0, 157)
    assert "match for E+W" in result.message


# --- the real jass-kit's files ---------------------------------------------------------------


def test_example_state_checks_ok() -> None:
    games = load_games((DATA / "jasskit_state.json").read_text())
    assert len(games) == 1
    result = check_hand(games[0])
    assert result.ok, result
    assert checked_points(result.message) == team_points_from_file(games[0])
    assert sum(team_points_from_file(games[0])) == 157
    assert "(pushed)" in result.message  # forehand 0


def test_example_log_json_lines() -> None:
    games = load_games((DATA / "jasskit_log.jsonl").read_text())
    assert len(games) == 2
    for g in games:
        assert g["version"] == "V0.2"
        result = check_hand(g)
        assert result.ok, result
        assert checked_points(result.message) == team_points_from_file(g)


def test_example_swisslos_line_with_log_prefix() -> None:
    text = (DATA / "jasskit_swisslos_log.txt").read_text()
    assert text.startswith("27.11.17 20:10:08,140 | INFO |")
    games = load_games(text)
    assert len(games) == 2
    for g in games:
        result = check_hand(g)
        assert result.ok, result
        assert checked_points(result.message) == team_points_from_file(g)


@pytest.mark.parametrize(("tss", "pushed"), [(1, True), (0, False)])
def test_swisslos_tss_instead_of_forehand(tss: int, pushed: bool) -> None:
    state = example_state()  # pushed: forehand 0
    expected = team_points_from_file(state)
    rnd = {k: v for k, v in state.items() if k != "forehand"}
    rnd["tss"] = tss
    line = "27.11.17 20:10:08,140 | INFO |  |  |  |  | " + json.dumps(
        {"rounds": [rnd], "players": [1, 2, 3, 4]}
    )
    games = load_games(line + "\n")
    assert games == [rnd]
    result = check_hand(games[0])
    assert result.ok, result
    assert checked_points(result.message) == expected
    assert ("(pushed)" in result.message) is pushed


def test_example_snapshots_check_ok() -> None:
    data = json.loads((DATA / "jasskit_state_snapshots.json").read_text())
    mid = check_hand(data["mid_game_state_14_cards"])
    assert mid.ok, mid
    assert "14 cards played" in mid.message
    for name, snap in data["snapshots_of_complete_game"].items():
        result = check_hand(snap, name)
        assert result.ok, result
    before = check_hand(data["snapshots_of_complete_game"]["before_trump"])
    assert "no contract" in before.message


# --- load_games ------------------------------------------------------------------------------


def _state(seed: int) -> dict[str, Any]:
    hand = new_hand(seed, dealer=seed % 4)
    hand.apply(Choose(seed % 6))
    play_random(hand, Random(seed))
    return hand_to_jasskit(hand)


def test_load_games_single_object_and_list() -> None:
    a, b = _state(1), _state(2)
    assert load_games(json.dumps(a)) == [a]
    assert load_games(json.dumps(a, indent=1)) == [a]
    assert load_games(json.dumps([a, b])) == [a, b]
    assert load_games(json.dumps({"games": [a, b]})) == [a, b]
    assert load_games(json.dumps([{"game": a}, {"rounds": [b]}])) == [a, b]


def test_load_games_json_lines_of_game_entries() -> None:
    states = [_state(s) for s in range(3)]
    text = "\n".join(json.dumps({"game": s, "date": "01.01.24 00:00:00"}) for s in states)
    assert load_games(text + "\n\n") == states
    assert load_games("\n" + json.dumps(states[0]) + "\n" + json.dumps(states[1])) == states[:2]


@pytest.mark.parametrize(
    "text", ["", "   \n", "hello", "hello {not json", '{"a": 1}\n{"b":', "42", '"text"', "[1, 2]"]
)
def test_load_games_refuses(text: str) -> None:
    with pytest.raises(NotationError):
        load_games(text)


# --- illegal files ---------------------------------------------------------------------------


def example_state() -> dict[str, Any]:
    state: dict[str, Any] = json.loads((DATA / "jasskit_state.json").read_text())
    return state


def test_failing_to_follow_suit_is_reported() -> None:
    """Trick 1 (trump ♥): S leads ♦J, E trumps with ♥A, N plays ♦6. Swap N's ♦6 with the ♣10
    N leads to trick 7: N holds the same cards but discards ♣10 on ♦ while holding ♦6."""
    state = example_state()
    t1, t7 = state["tricks"][0], state["tricks"][6]
    assert t1["cards"][2] == "D6" and t7["cards"][0] == "C10" and t7["first"] == 0
    t1["cards"][2], t7["cards"][0] = "C10", "D6"
    result = check_hand(state, "f.json")
    assert not result.ok
    assert result.message.startswith("trick 1, card 3: N plays C10:")
    assert "must follow suit" in result.message
    assert "♦6" in result.message
    assert str(result).startswith("f.json: trick 1")


def _swap_to_break_follow_suit(hand: Hand, tricks: list[dict[str, Any]]) -> tuple[int, int, str]:
    """In a finished hand, swap a card that followed a plain suit with a later card of a third
    suit played by the same seat; returns the trick, the place and the card now played."""
    trump = hand.contract
    for n, t in enumerate(tricks):
        led = parse_card(t["cards"][0]) // 9
        if led == trump:
            continue
        for i in range(1, 4):
            if parse_card(t["cards"][i]) // 9 != led:
                continue
            seat = (hand.tricks[n].leader + i) % 4
            for m in range(n + 1, 9):
                j = (seat - hand.tricks[m].leader) % 4
                other = tricks[m]["cards"][j]
                if parse_card(other) // 9 not in (led, trump):
                    tricks[n]["cards"][i], tricks[m]["cards"][j] = other, t["cards"][i]
                    return n, i, other
    raise AssertionError("no such pair in this deal")


@pytest.mark.parametrize("seed", range(6))
def test_one_swapped_card_makes_a_generated_hand_illegal(seed: int) -> None:
    rng = Random(seed)
    hand = new_hand(seed, dealer=0)
    hand.apply(Choose(rng.randrange(4)))
    play_random(hand, rng)
    state = hand_to_jasskit(hand)
    assert check_hand(state).ok
    n, i, card = _swap_to_break_follow_suit(hand, state["tricks"])
    result = check_hand(state)
    assert not result.ok
    assert result.message.startswith(f"trick {n + 1}, card {i + 1}: ")
    assert f"plays {card}:" in result.message
    assert "must follow suit" in result.message


def test_wrong_points_or_winner_is_reported() -> None:
    state = example_state()
    state["tricks"][0]["points"] = 14
    result = check_hand(state)
    assert not result.ok
    assert result.message.startswith("trick 1:")
    assert "14" in result.message and "13" in result.message

    state = example_state()
    assert state["tricks"][4]["win"] == 0
    state["tricks"][4]["win"] = 1
    result = check_hand(state)
    assert not result.ok
    assert result.message.startswith("trick 5:")

    state = example_state()
    state["tricks"][8]["points"] = 6  # without the last trick's 5
    result = check_hand(state)
    assert not result.ok
    assert result.message.startswith("trick 9:")


def test_wrong_leader_is_reported() -> None:
    state = example_state()
    state["tricks"][1]["first"] = 2  # E won trick 1 and leads trick 2
    result = check_hand(state)
    assert not result.ok
    assert result.message.startswith("trick 2")


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.pop("player"),
        lambda s: s.pop("trump"),
        lambda s: s.update(trump=7),
        lambda s: s.update(dealer=4),
        lambda s: s["tricks"][0]["cards"].__setitem__(0, "XX"),
        lambda s: s["tricks"][0]["cards"].__setitem__(0, "HA"),  # a card twice
        lambda s: s["tricks"][8]["cards"].pop(),  # a card missing
    ],
)
def test_malformed_states_are_not_ok(change: Any) -> None:
    state = example_state()
    change(state)
    result = check_hand(state)
    assert not result.ok
    assert result.message.startswith("malformed")


def test_another_version_is_named_not_read_as_missing_keys() -> None:
    result = check_hand({"version": "V0.1", "cards": []})
    assert not result.ok and result.message == "version = 'V0.1': only 'V0.2' is read"


def jasskit_bug_hand() -> Hand:
    """Trump ♥; seat 0 leads the first six tricks with ♦ and wins them, then leads ♣10 to
    trick 7: seat 1 trumps with the bourg ♥J, seat 2 (nothing but trumps left) follows with
    ♥10, and seat 3 holds {♥A, ♠6, ♠7}."""
    deal = parse_deal("3:AKQJT9.KQ..T/876.J98.AKQ./.T76.JT98.AK/.A.76.QJ9876")
    hand = Hand(RULES, deal.dealer, 0, deal.hands)
    hand.apply(Choose(1))
    plays = "DA D8 SJ CQ  DK D7 S10 CJ  DQ D6 S9 C9  DJ SA S8 C8  D10 SK CA C7  D9 SQ CK C6"
    for code in [*plays.split(), "C10", "HJ", "H10"]:
        hand.apply(Play(parse_card(code)))
    assert [t.winner for t in hand.tricks] == [0] * 6
    assert hand.hands[3] == sum(1 << parse_card(c) for c in ("HA", "S6", "S7"))
    return hand


def test_jasskit_undertrump_bug_case_is_illegal_here() -> None:
    """jass-kit compares with the trump of the larger index (♥10), not the highest (♥J), and
    allows ♥A; the rules forbid undertrumping the bourg while holding ♠."""
    hand = jasskit_bug_hand()
    assert hand.legal_cards() == (1 << parse_card("S6")) | (1 << parse_card("S7"))
    state = hand_to_jasskit(hand)
    e = seat_to_jasskit(3)
    assert e == 1
    assert state["tricks"][6] == {"cards": ["C10", "HJ", "H10"], "first": 0}
    assert state["player"][e]["hand"] == ["HA", "S7", "S6"]
    assert state["currentPlayer"] == e

    legal = copy.deepcopy(state)
    legal["player"][e]["hand"].remove("S7")
    legal["tricks"][6]["cards"].append("S7")
    ok = check_hand(legal)
    assert ok.ok, ok

    state["player"][e]["hand"].remove("HA")
    state["tricks"][6]["cards"].append("HA")
    result = check_hand(state, "bug.json")
    assert not result.ok
    assert result.message.startswith("trick 7, card 4: E plays HA:")
    assert "undertrump" in result.message
    assert "♥J" in result.message


def test_a_first_hand_chosen_by_the_seven_is_written_so_that_it_checks():
    # The format has the seat after the dealer lead the first trick; when the holder of the
    # 7♦ chooses instead, the writer names the seat before the chooser as the dealer.
    from chibre import Game

    for seed in range(200):
        game = Game()
        game.deal(Random(seed))
        if game.hand.chooser != (game.hand.dealer + 1) % 4:
            break
    rng = Random(0)
    while game.current_player not in (-1, None):
        game.apply(rng.choice(game.legal_actions()))
    hand = game.hands[0]
    assert hand.chooser != (hand.dealer + 1) % 4
    result = check_hand(hand_to_jasskit(hand))
    assert result.ok, result.message


def test_read_and_write_give_back_the_real_file():
    from chibre.jasskit import hand_from_jasskit

    original = json.loads((Path(__file__).parent / "data" / "jasskit_state.json").read_text())
    hand = hand_from_jasskit(original)
    assert hand.is_over
    assert hand_to_jasskit(hand) == original


def test_reading_an_illegal_hand_raises_with_the_move():
    from chibre.jasskit import hand_from_jasskit

    original = json.loads((Path(__file__).parent / "data" / "jasskit_state.json").read_text())
    broken = copy.deepcopy(original)
    broken["tricks"][0]["win"] = (broken["tricks"][0]["win"] + 1) % 4
    with pytest.raises(NotationError, match="trick 1"):
        hand_from_jasskit(broken)


def kit_observation(tricks: list[dict[str, Any]], hand: list[str], **fields: Any) -> dict[str, Any]:
    """A V0.2 observation for the kit's seat 2 (ours 2), spades trump named by the forehand."""
    players: list[dict[str, Any]] = [{"hand": []} for _ in range(4)]
    players[2]["hand"] = hand
    return {
        "version": "V0.2", "trump": 2, "dealer": 2, "currentPlayer": 2, "playerView": 2,
        "forehand": 1, "tricks": tricks, "player": players, "jassTyp": "SCHIEBER", **fields,
    }  # fmt: skip


def assert_deals_agree(o: Observation, deals: list[tuple[int, int, int, int]]) -> None:
    played = [0, 0, 0, 0]
    for t in [*o.tricks, Trick(o.trick_leader, o.trick, -1, 0)]:
        for i, c in enumerate(t.cards):
            played[(t.leader + i) % 4] |= 1 << c
    for deal in deals:
        assert deal[o.seat] == o.hand
        assert sum(h.bit_count() for h in deal) == 36 - sum(p.bit_count() for p in played)
        for s in range(4):
            assert deal[s].bit_count() == 9 - played[s].bit_count()
            assert not deal[s] & (played[0] | played[1] | played[2] | played[3])
            assert not deal[s] & sum(deal[x] for x in range(4) if x != s)


@pytest.mark.parametrize("forehand", range(4))
def test_the_kits_forehand_need_not_hold_the_seven_of_diamonds(forehand: int) -> None:
    """The kit's forehand is always the player after the dealer, first hand or not: a forehand
    without the 7♦ is read, and sampled for, as such."""
    rng = Random(forehand)
    cards = [c for c in range(36) if card_code(c) != "D7"]
    rng.shuffle(cards)
    dealer = (forehand + 1) % 4  # the kit's next player is the seat before
    d = kit_observation([], [card_code(c) for c in sorted(cards[:9])], trump=-1, forehand=-1)
    d.update(dealer=dealer, currentPlayer=forehand, playerView=forehand)
    d["player"] = [{"hand": d["player"][2]["hand"] if p == forehand else []} for p in range(4)]
    o = observation_from_json(d)
    assert o.rules.first_chooser == "right_of_dealer"
    assert o.chooser == o.seat and o.phase == "contract"
    assert_deals_agree(o, sample_deals(o, Random(0), 20))
    assert o.legal_actions and StrongPlayer(seed=0, time_per_move=0.02).act(o) in o.legal_actions


# A hand the kit played: ♠ trump; in the second trick ♦ is led, seat 2 (the viewer) trumps with
# ♠6, seat 1 overtrumps with ♠Q and seat 0 plays ♠8 under it — the kit compares with the lower
# trump in the trick and allows it while seat 0 holds ♣ (our rules would not).
KIT_TRICKS = [
    {"cards": ["HJ", "HK", "SA", "H8"], "points": 17, "win": 3, "first": 1},
    {"cards": ["D10", "S6", "SQ", "S8"], "points": 13, "win": 1, "first": 3},
    {"cards": ["CJ", "CK", "CQ"], "first": 1},
]


VIEWERS_HAND = ["DK", "D6", "HA", "H9", "C9", "C8", "C7"]


@pytest.mark.parametrize(
    "tricks",
    [
        # only five ♠ left unseen for seat 0's seven cards: no deal has it all trumps
        [*KIT_TRICKS[:2], {"cards": ["CJ"], "first": 1}],
        # seat 0 then plays ♣K: the card itself shows what the undertrump did not
        KIT_TRICKS,
    ],
)
def test_a_seat_that_undertrumped_as_the_kit_allows_is_still_dealt_for(
    tricks: list[dict[str, Any]],
) -> None:
    d = kit_observation(tricks, VIEWERS_HAND)
    if len(tricks[-1]["cards"]) == 1:  # the viewer is not to act: seat 0 is, after ♣J by 3
        d["currentPlayer"] = 0
    o = observation_from_json(d)
    deals = sample_deals(o, Random(1), 40)
    assert_deals_agree(o, deals)
    spades = 0x1FF << 18
    assert all(deal[0] & ~spades for deal in deals)  # seat 0 holds more than trumps
    if o.to_act == o.seat:
        assert StrongPlayer(seed=0, time_per_move=0.02).act(o) in o.legal_actions
