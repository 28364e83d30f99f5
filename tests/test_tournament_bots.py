"""Fair deals (commitment, reveal, ``chibre verify``) and ``chibre tournament``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from random import Random

import pytest

from chibre.actions import Deal
from chibre.bots.random_player import RandomPlayer
from chibre.deal import deal_cards
from chibre.game import CHANCE, Game
from chibre.notation import record_from_dict, record_to_dict
from chibre.rules import Rules
from chibre.tournament import COMPUTER, TournamentError
from chibre.tournament.bots import run_tournament
from chibre.tournament.fairdeal import DealSource, commitment, new_seed, verify
from chibre.tournament.plan import Options

RULES = Rules.preset("geneve-500")


def chibre(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chibre.cli", *args],
        capture_output=True,
        text=True,
        check=check,
        timeout=300,
    )


def play(source: DealSource, replace: dict[int, Deal] | None = None) -> Game:
    """A game of random players from the source's deals, some of them replaced."""
    game = Game(RULES)
    players = [RandomPlayer(s) for s in range(4)]
    while not game.is_over:
        seat = game.current_player
        if seat == CHANCE:
            deal = source.next_deal(game)
            if replace and len(game.hands) in replace:
                deal = replace[len(game.hands)]
            game.apply(deal)
        else:
            assert seat is not None
            game.apply(players[seat].act(game.observation(seat)), seat)
    return game


def test_a_seed_commits_to_every_deal() -> None:
    seed = new_seed()
    assert len(seed) == 64 and seed != new_seed()
    source = DealSource(seed)
    assert source.commitment == commitment(seed) and source.commitment.startswith("sha256:")
    assert len(source.commitment) == len("sha256:") + 64
    assert source.cards(3) == DealSource(seed).cards(3) != source.cards(4)
    turned = DealSource(seed, turned=True)
    a, b = source.cards(0), turned.cards(0)
    assert b == (a[1], a[2], a[3], a[0])
    assert turned.first_dealer() == (source.first_dealer() - 1) % 4
    game = play(source)
    assert verify(game.record, source.to_dict(reveal=True)) == []
    assert "seed" not in source.to_dict(reveal=False)


def test_a_changed_deal_or_seed_is_caught() -> None:
    source = DealSource("the seed of table 3")
    deals = source.to_dict(reveal=True)
    game = play(source)
    # a changed seed: it neither gives the commitment nor the cards
    changed = dict(deals, seed="another seed")
    problems = verify(game.record, changed)
    assert any("does not give the commitment" in p for p in problems)
    assert any("hand 1: the cards" in p for p in problems)
    # a changed commitment, or not the one published at the table
    assert verify(game.record, dict(deals, commitment=commitment("x")))
    assert verify(game.record, deals, published=commitment("x"))
    assert verify(game.record, deals, published=source.commitment) == []
    # the first hand dealt by another seat, or one deal dealt otherwise: caught at its hand
    first = source.next_deal(Game(RULES))
    moved = play(source, {0: Deal(first.hands, (first.dealer + 1) % 4)})
    assert any("hand 1: seat" in p for p in verify(moved.record, deals))
    second_dealer = game.hands[1].dealer
    tampered = play(source, {1: Deal(deal_cards(Random(99), 0).hands, second_dealer)})
    problems = verify(tampered.record, deals)
    assert problems and all(p.startswith("hand 2:") for p in problems)
    assert "not revealed" in verify(game.record, source.to_dict(reveal=False))[0]
    assert 'no "deals"' in verify(game.record, None)[0]


def test_bot_tournament_is_deterministic_and_its_standings_add_up() -> None:
    options = Options("evening", rounds=3)
    a = run_tournament(["rule"] * 8, options, RULES, seed=5)
    b = run_tournament(["rule"] * 8, options, RULES, seed=5)
    assert [s.to_dict() for s in a.standings()] == [s.to_dict() for s in b.standings()]
    assert [p.game.record.entries for p in a.played] == [p.game.record.entries for p in b.played]
    c = run_tournament(["rule"] * 8, options, RULES, seed=6)
    assert [p.game.record.entries for p in a.played] != [p.game.record.entries for p in c.played]
    assert len(a.played) == 6 and all(p.game.is_over for p in a.played)


@pytest.mark.parametrize(
    "options",
    [
        Options("round-robin", rounds=3, scoring="striche"),
        Options("swiss", rounds=3, hands=4),
        Options("swiss", rounds=2, hands=3, duplicate=True),
        Options("evening", rounds=2, hands=2, duplicate=True),
        Options("evening", rounds=2, hands=2),
    ],
)
def test_every_format_plays(options: Options) -> None:
    byes = 2 if options.format == "evening" and not options.duplicate else 0  # 10 players
    result = run_tournament(["rule", "random"] * 4 + ["rule"] * byes, options, RULES, seed=1)
    lines = result.standings()
    assert len(lines) == len(result.entrants)
    if options.hands:
        assert all(len(p.game.hands) == options.hands for p in result.played)
    if byes:
        for r in (1, 2):
            seats = [p.table.seats for p in result.played if p.round == r]
            assert sorted(s.count(COMPUTER) for s in seats) == [0, 1, 1]
    if options.duplicate:
        assert abs(sum(s.score for s in lines)) < 1e-6
        # all tables of a round played the same cards, turned at the even tables
        for r in range(1, options.rounds + 1):
            games = [p for p in result.played if p.round == r]
            one, two = games[0].game.hands[0].dealt, games[1].game.hands[0].dealt
            assert two == (one[1], one[2], one[3], one[0])


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(TournamentError, match="no player"):
        run_tournament(["rule", "nobody"] * 4, Options(), RULES)
    with pytest.raises(TournamentError, match="duplicate"):
        Options(duplicate=True)
    with pytest.raises(TournamentError, match="format"):
        Options("knockout")
    with pytest.raises(TournamentError, match="even number"):
        run_tournament(["rule"] * 7, Options("swiss"), RULES)


def test_chibre_tournament_prints_writes_and_verifies(tmp_path: Path) -> None:
    out = tmp_path / "evening"
    first = chibre("tournament", "--seed", "11", "--out", str(out))  # 8 players, 3 rounds
    again = chibre("tournament", "--seed", "11")
    assert first.stdout.splitlines()[:-1] == again.stdout.splitlines()
    assert "round 3" in first.stdout and "rank" in first.stdout
    records = sorted(out.glob("round-*-table-*.json"))
    assert len(records) == 6
    # the standings equal a recomputation from the records alone
    points: dict[str, int] = defaultdict(int)
    for path in records:
        document = json.loads(path.read_text())
        game, _ = record_from_dict(document).replay()
        assert game.is_over
        for seat, name in enumerate(document["tournament"]["seats"]):
            if name != "computer":
                points[name] += game.totals[seat % 2]
        assert chibre("verify", str(path)).returncode == 0
    standings = json.loads((out / "standings.json").read_text())["standings"]
    assert {s["entrant"]: s["points"] for s in standings} == dict(points)
    assert [s["points"] for s in standings] == sorted(points.values(), reverse=True)
    # a changed deal or seed is caught by `chibre verify`
    document = json.loads(records[0].read_text())
    seed = document["deals"]["seed"]
    document["deals"]["seed"] = seed[:-1] + ("1" if seed[-1] == "0" else "0")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    result = chibre("verify", str(bad), check=False)
    assert result.returncode == 1 and "does not give the commitment" in result.stdout
    good = json.loads(records[0].read_text())
    other = Game(record_from_dict(good).rules)
    other.apply(DealSource("not the committed seed").next_deal(other))
    forged = record_to_dict(other.record) | {"deals": good["deals"]}
    bad.write_text(json.dumps(forged))
    result = chibre("verify", str(bad), check=False)
    assert (
        result.returncode == 1 and "hand 1: the cards are not those the seed deals" in result.stdout
    )
    assert chibre("verify", str(tmp_path / "missing.json"), check=False).returncode == 2


def test_duplicate_rounds_refuse_a_first_chooser_that_does_not_turn() -> None:
    run = chibre(
        "tournament", "--hands", "2", "--duplicate", "--set", "first_chooser=first_seat",
        check=False,
    )  # fmt: skip
    assert run.returncode == 2 and "not first_seat" in run.stderr, run.stderr
