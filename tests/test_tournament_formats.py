"""The tournament formats: the evening's draw, fixed teams, duplicate rounds, standings."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chibre.arena import build_player
from chibre.errors import GameOver
from chibre.game import CHANCE
from chibre.rules import MAX_TARGET, Rules
from chibre.tournament import COMPUTER, TournamentError
from chibre.tournament.duplicate import TablePlay, compare, is_turned, side_of
from chibre.tournament.evening import Draw, Meetings, draw_round
from chibre.tournament.matching import least_matching, matchings
from chibre.tournament.passe import Passe
from chibre.tournament.standings import Outcome, Side, standings
from chibre.tournament.teams import round_robin, round_robin_rounds, swiss_round


def names(n: int, start: int = 0) -> list[str]:
    return [f"p{i}" for i in range(start, start + n)]


def all_matchings(items: list[str]) -> list[list[tuple[str, str]]]:
    """Every perfect matching, by brute force (the reference for small draws)."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for i, other in enumerate(rest):
        for m in all_matchings(rest[:i] + rest[i + 1 :]):
            out.append([(first, other), *m])
    return out


# --- the evening -----------------------------------------------------------------------------

# An evening: the players at the start, then for each round the players who withdraw and how
# many arrive late.
evenings = st.tuples(
    st.integers(4, 64),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=6),
    st.integers(0, 2**32),
)


def play_evening(start: int, changes: list[tuple[int, int]], seed: int):
    rng = Random(seed)
    present = names(start)
    arrived = start
    draws: list[Draw] = []
    rounds = []
    for withdraw, late in changes:
        if draws:  # entries change between rounds
            for _ in range(min(withdraw, len(present) - 4)):
                present.remove(rng.choice(present))
            present += names(late, arrived)
            arrived += late
        before = Meetings.of(draws)
        draw = draw_round(present, draws, rng)
        rounds.append((list(present), before, draw))
        draws.append(draw)
    return rounds


@settings(max_examples=60, deadline=None)
@given(evenings)
def test_every_present_player_plays_once_a_round(evening) -> None:
    for present, _, draw in play_evening(*evening):
        seated = [p for t in draw.tables for p in t.seats if p != COMPUTER]
        assert sorted(seated) == sorted(present)
        assert len(draw.tables) == -(-len(present) // 4)
        computers = sum(t.seats.count(COMPUTER) for t in draw.tables)
        assert computers == 4 * len(draw.tables) - len(present)
        for t in draw.tables:
            for team in t.teams:
                assert team != (COMPUTER, COMPUTER)  # a computer always partners a player
            if len(present) != 5:  # five players: one table must seat two computers
                assert t.seats.count(COMPUTER) <= 1


@settings(max_examples=60, deadline=None)
@given(evenings)
def test_no_partner_twice_while_avoidable(evening) -> None:
    for _, before, draw in play_evening(*evening):
        byes = set(draw.byes())
        pool = [p for p in draw.players if p not in byes]
        repeats = [
            (a, b)
            for t in draw.tables
            for a, b in t.teams
            if COMPUTER not in (a, b) and before.partnered(a, b)
        ]
        if not repeats:
            continue
        # a repeat only when no pairing of the same players avoids every repeat: by Dirac's
        # theorem there is one when each has not partnered at least half of the others …
        fresh = [sum(not before.partnered(p, q) for q in pool if q != p) for p in pool]
        assert min(fresh) < len(pool) / 2, (repeats, pool)
        # … and for a few players, by looking at every pairing
        if len(pool) <= 10:
            assert all(
                any(before.partnered(a, b) for a, b in m) for m in all_matchings(sorted(pool))
            )


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 64), st.integers(1, 8), st.integers(0, 2**32))
def test_byes_are_spread_fairly(n: int, rounds: int, seed: int) -> None:
    rng = Random(seed)
    draws: list[Draw] = []
    for _ in range(rounds):
        draws.append(draw_round(names(n), draws, rng))
        byes = Meetings.of(draws).byes
        counts = [byes[p] for p in names(n)]
        assert max(counts) - min(counts) <= 1
        assert sum(counts) == len(draws) * ((4 - n % 4) % 4)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([4, 8]), st.integers(1, 5), st.integers(0, 2**32))
def test_no_opponent_twice_while_avoidable(n: int, rounds: int, seed: int) -> None:
    rng = Random(seed)
    draws: list[Draw] = []
    for _ in range(rounds):
        before = Meetings.of(draws)
        draw = draw_round(names(n), draws, rng)
        draws.append(draw)
        partner_level = max(before.partnered(a, b) for t in draw.tables for a, b in t.teams)
        opposed = max(before.opposed(*t.teams) for t in draw.tables)
        if opposed == 0:
            continue
        for partners in all_matchings(names(n)):
            if max(before.partnered(a, b) for a, b in partners) > partner_level:
                continue
            for tables in all_matchings(partners):  # type: ignore[arg-type]
                assert max(before.opposed(x, y) for x, y in tables) >= opposed


def test_draw_refuses_bad_entries() -> None:
    with pytest.raises(TournamentError, match="at least 4"):
        draw_round(names(3), [], Random(0))
    with pytest.raises(TournamentError, match="twice: p1"):
        draw_round(["p0", "p1", "p1", "p2"], [], Random(0))


def test_a_refusal_the_organiser_may_meet_is_said_in_the_page_s_language() -> None:
    with pytest.raises(TournamentError) as few:
        draw_round(names(3), [], Random(0))
    assert few.value.said("de") == "eine Runde braucht mindestens 4 anwesende Spieler, nicht 3"
    assert few.value.said("fr") == "un tour demande au moins 4 joueurs présents, pas 3"
    with pytest.raises(TournamentError) as teams:
        round_robin(names(1), 1)
    assert teams.value.said("de") == "eine Runde braucht mindestens 2 Teams, nicht 1"
    assert str(teams.value) == "a round needs at least 2 teams, not 1"


def test_the_same_seed_draws_the_same_evening() -> None:
    def evening(seed: int) -> list[Draw]:
        rng, draws = Random(seed), []
        for _ in range(3):
            draws.append(draw_round(names(13), draws, rng))
        return draws

    assert evening(7) == evening(7)
    assert evening(7) != evening(8)


def test_least_matching_relaxes_only_as_far_as_it_must() -> None:
    items = ["a", "b", "c", "d"]
    forbid = {frozenset("ab"), frozenset("ac")}  # a must meet d, b then c
    pairs, level = least_matching(items, lambda x, y: int(frozenset((x, y)) in forbid), Random(1))
    assert level == 0 and {frozenset(p) for p in pairs} == {frozenset("ad"), frozenset("bc")}
    forbid |= {frozenset("ad")}
    _, level = least_matching(items, lambda x, y: int(frozenset((x, y)) in forbid), Random(1))
    assert level == 1
    assert list(matchings(["a", "b", "c"], lambda x, y: True, Random(0))) == []


# --- fixed teams -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 15))
def test_round_robin_meets_everyone_once(n: int) -> None:
    teams = names(n)
    met: Counter[frozenset[str]] = Counter()
    for r in range(1, round_robin_rounds(n) + 1):
        games = round_robin(teams, r)
        playing = [t for g in games for t in g if t != COMPUTER]
        assert sorted(playing) == sorted(teams)  # everyone, once
        met.update(frozenset(g) for g in games)
    assert all(met[frozenset(p)] == 1 for p in combinations(teams, 2))
    if n % 2:
        assert sum(c for pair, c in met.items() if COMPUTER in pair) == n


def test_a_withdrawn_team_leaves_its_games_to_the_computer_team() -> None:
    assert round_robin(names(4), 1) == [("p0", "p3"), ("p1", "p2")]
    assert round_robin(names(4), 1, present=["p0", "p1", "p2"]) == [("p0", COMPUTER), ("p1", "p2")]
    with pytest.raises(TournamentError, match="rounds 1 to 3"):
        round_robin(names(4), 4)


def outcome(round_: int, table: int, a: str, b: str, pa: int, pb: int) -> Outcome:
    sides = (Side((a,), pa), Side((b,) if b != COMPUTER else (), pb))
    return Outcome(round_, table, sides, 0 if pa >= pb else 1)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), st.integers(1, 8), st.integers(0, 2**32))
def test_swiss_never_rematches_while_avoidable(n: int, rounds: int, seed: int) -> None:
    rng = Random(seed)
    teams = names(n)
    outcomes: list[Outcome] = []
    byes: Counter[str] = Counter()
    for r in range(1, rounds + 1):
        met = Counter(
            frozenset(s.entrants[0] if s.entrants else COMPUTER for s in o.sides) for o in outcomes
        )
        games = swiss_round(teams, outcomes, rng)
        playing = [t for g in games for t in g if t != COMPUTER]
        assert sorted(playing) == sorted(teams)
        bye = [a for a, b in games if b == COMPUTER]
        if bye:
            assert byes[bye[0]] == min(byes[t] for t in teams)
            byes[bye[0]] += 1
        rematch = max((met[frozenset(g)] for g in games if COMPUTER not in g), default=0)
        if rematch and n - len(bye) <= 10:
            pool = sorted(t for t in teams if t not in bye)
            assert all(any(met[frozenset(p)] >= rematch for p in m) for m in all_matchings(pool))
        for t, (a, b) in enumerate(games, 1):
            outcomes.append(outcome(r, t, a, b, rng.randrange(600), rng.randrange(600)))


def test_swiss_pairs_the_best_placed_together() -> None:
    teams = names(4)
    first = [outcome(1, 1, "p0", "p1", 900, 100), outcome(1, 2, "p2", "p3", 800, 200)]
    games = swiss_round(teams, first, Random(0))
    assert games == [("p0", "p2"), ("p3", "p1")]  # 900 meets 800; 200 meets 100


def test_tie_breaks_buchholz_then_points_difference() -> None:
    # a and b both score 500; a's opponents scored more (Buchholz) — a ranks first.
    outcomes = [
        outcome(1, 1, "a", "x", 500, 480),
        outcome(1, 2, "b", "y", 500, 100),
        outcome(2, 1, "c", "d", 300, 300),
    ]
    lines = standings(
        ["a", "b", "c", "d", "x", "y"], outcomes, "points", ("buchholz", "difference")
    )
    assert [s.entrant for s in lines[:2]] == ["a", "b"]
    assert (lines[0].buchholz, lines[1].buchholz) == (480, 100)
    # equal on score and Buchholz: the points difference decides
    outcomes = [outcome(1, 1, "a", "x", 500, 300), outcome(1, 2, "b", "y", 500, 400)]
    outcomes += [outcome(2, 1, "x", "w", 100, 0)]  # x's 400 = y's 400, a conceded less
    lines = standings(["a", "b", "w", "x", "y"], outcomes, "points", ("buchholz", "difference"))
    by = {s.entrant: s for s in lines}
    assert by["a"].score == by["b"].score == 500 and by["a"].buchholz == by["b"].buchholz
    assert by["a"].rank < by["b"].rank
    # equal on everything: a shared rank
    lines = standings(["a", "b"], [outcome(1, 1, "a", "b", 300, 300)])
    assert [s.rank for s in lines] == [1, 1]


def test_striche_scoring_and_bad_choices() -> None:
    o = Outcome(1, 1, (Side(("a", "b"), 400, 1), Side(("c", "d"), 520, 4)), 1)
    lines = standings("abcd", [o], "striche")
    assert [(s.entrant, s.score) for s in lines] == [("c", 4), ("d", 4), ("a", 1), ("b", 1)]
    with pytest.raises(TournamentError, match="scoring"):
        standings("ab", [], "goals")
    with pytest.raises(TournamentError, match="tie-break"):
        standings("ab", [], "points", ("luck",))
    with pytest.raises(TournamentError, match="not entered"):
        standings("ab", [o])


# --- duplicate -------------------------------------------------------------------------------


def test_duplicate_compares_the_teams_that_held_the_same_cards() -> None:
    assert not is_turned(1) and is_turned(2)
    assert side_of(0, 1) == 0 and side_of(0, 2) == 1
    # Deal 1: side 0 made 100 at table 1 (team 0) and 80 at table 2 (team 1 there).
    plays = [
        TablePlay(1, (("a",), ("b",)), [(100, 57)]),
        TablePlay(2, (("c",), ("d",)), [(77, 80)]),
    ]
    result = compare(plays)
    assert result == {"a": 20.0, "d": -20.0, "b": -20.0, "c": 20.0}
    assert sum(result.values()) == 0
    with pytest.raises(TournamentError, match="two tables"):
        compare(plays[:1])


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 8), st.integers(1, 6), st.integers(0, 2**32))
def test_duplicate_results_add_up_to_zero(tables: int, deals: int, seed: int) -> None:
    rng = Random(seed)
    plays = []
    for t in range(1, tables + 1):
        points = []
        for _ in range(deals):
            a = rng.randrange(158)
            points.append((a, 157 - a))
        plays.append(TablePlay(t, ((f"{t}a",), (f"{t}b",)), points))
    assert abs(sum(compare(plays).values())) < 1e-6


@settings(max_examples=30, deadline=None)
@given(
    st.integers(4, 16), st.lists(st.integers(0, 2), min_size=1, max_size=6), st.integers(0, 2**32)
)
def test_swiss_with_withdrawals_pairs_every_team_present(
    n: int, withdrawals: list[int], seed: int
) -> None:
    rng = Random(seed)
    present = names(n)
    outcomes: list[Outcome] = []
    for r, leaving in enumerate(withdrawals, 1):
        for _ in range(min(leaving, len(present) - 2)):
            present.remove(rng.choice(present))
        games = swiss_round(present, outcomes, rng)
        playing = [t for g in games for t in g if t != COMPUTER]
        assert sorted(playing) == sorted(present)
        assert sum(COMPUTER in g for g in games) == len(present) % 2
        for t, (a, b) in enumerate(games, 1):
            outcomes.append(outcome(r, t, a, b, rng.randrange(600), rng.randrange(600)))


@pytest.mark.parametrize("length", [1, 3, 12])
def test_a_passe_is_over_after_its_last_hand_and_has_no_winner(length: int) -> None:
    game = Passe(Rules.preset("geneve-500"), length)
    assert game.rules.target == MAX_TARGET  # no target ends it
    players = [build_player("rule", seat) for seat in range(4)]
    rng = Random(length)
    while not game.is_over:
        seat = game.current_player
        if seat == CHANCE:
            game.deal(rng)
        else:
            assert seat is not None
            game.apply(players[seat].act(game.observation(seat)), seat)
    assert len(game.hands) == length and all(h.is_over for h in game.hands)
    assert game.winner == -1 and game.current_player is None
    assert list(game.totals) == [sum(h.score().totals[t] for h in game.hands) for t in (0, 1)]
    assert sum(game.totals) >= 157 * length  # every hand counts its 157 (and the weis)
    with pytest.raises(GameOver):
        game.deal(rng)


@pytest.mark.parametrize("length", [0, 101])
def test_a_passe_has_one_to_a_hundred_hands(length: int) -> None:
    with pytest.raises(TournamentError, match="1 to 100 hands"):
        Passe(Rules(), length)
