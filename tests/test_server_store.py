"""The table store: tables and their records in a real SQLite file, and back."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from random import Random

import pytest

from chibre.actions import Deal, Play, Thank
from chibre.bots import make_player
from chibre.game import CHANCE, Game
from chibre.notation import format_record
from chibre.rules import Rules
from chibre.server.store import (
    SeatInfo,
    Store,
    StoredTable,
    StoreUnavailable,
    decode_entry,
    encode_entry,
)


def play_game(rules: Rules, seed: int, stop_after: int | None = None) -> Game:
    """A game between four random players from a seeded deal, up to ``stop_after`` entries."""
    rng = Random(seed)
    game = Game(rules)
    players = [make_player("random", seed + s) for s in range(4)]
    while not game.is_over and (stop_after is None or len(game.record.entries) < stop_after):
        if game.current_player == CHANCE:
            game.deal(rng)
        else:
            seat = game.current_player
            assert seat is not None
            game.apply(players[seat].act(game.observation(seat)), seat)
    return game


def new_table(table_id: str, rules: Rules) -> StoredTable:
    seats = (
        SeatInfo("human", "Anna", "tok-anna"),
        SeatInfo("rule", "rule", None, 17),
        SeatInfo("human", "Marc", "tok-marc"),
        SeatInfo("strong", "Strong", None, 99),
    )
    return StoredTable(table_id, rules, seats, watch="tok-watch", preset="jasvel")


def store_game(store: Store, table_id: str, game: Game) -> None:
    """Store a game as the server does: the table with its first deal, then entry by entry."""
    entries = game.record.entries
    table = new_table(table_id, game.rules)
    table.entries = entries[:1]
    store.create(table)
    for n in range(1, len(entries)):
        seat, entry = entries[n]
        last = n == len(entries) - 1
        store.append(table_id, n, seat, entry, finished=last and game.is_over)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("jasvel"),
        Rules.preset("romand", auto_weis=False, auto_stoeck=False, claim="thank"),
        Rules.preset("pique-double", pique_double="choice", target=700),
    ],
    ids=["jasvel", "declared-weis-thank", "pique-choice"],
)
def test_a_whole_game_round_trips(tmp_path: Path, rules: Rules) -> None:
    game = play_game(rules, seed=11)
    assert game.is_over
    path = tmp_path / "chibre.sqlite"
    store = Store(path)
    store_game(store, "t1", game)
    store.close()

    again = Store(path)  # a new connection on the same file
    loaded = again.load("t1")
    assert loaded is not None
    assert loaded.entries == game.record.entries
    assert loaded.rules == rules
    assert loaded.finished
    assert [s.kind for s in loaded.seats] == ["human", "rule", "human", "strong"]
    assert loaded.seats[0].token == "tok-anna" and loaded.seats[3].seed == 99
    assert loaded.watch == "tok-watch" and loaded.preset == "jasvel"
    replayed = loaded.replay()
    assert replayed.totals == game.totals and replayed.winner == game.winner
    assert format_record(replayed.record) == format_record(game.record)
    assert again.unfinished() == []
    again.close()


def test_an_unfinished_table_is_restored_where_it_stopped(tmp_path: Path) -> None:
    game = play_game(Rules(), seed=5, stop_after=23)  # in the middle of the first hand
    store = Store(tmp_path / "db.sqlite")
    store_game(store, "open", game)
    finished = play_game(Rules.preset("geneve-500", target=200), seed=6)
    store_game(store, "done", finished)
    assert store.unfinished() == ["open"]
    loaded = store.load("open")
    assert loaded is not None
    restored = loaded.replay()
    assert restored.record.entries == game.record.entries
    assert restored.hand is not None and game.hand is not None
    assert restored.hand.hands == game.hand.hands and restored.hand.trick == game.hand.trick
    assert restored.current_player == game.current_player
    done = store.load("done")
    assert done is not None and done.finished and done.entries == finished.record.entries
    assert store.load("nothing") is None
    store.close()


def test_entries_are_written_in_the_engine_notation(tmp_path: Path) -> None:
    game = play_game(Rules(), seed=3, stop_after=8)
    path = tmp_path / "db.sqlite"
    store = Store(path)
    store_game(store, "t", game)
    store.append("t", 8, 2, Thank())  # any seat may thank: stored with its seat
    store.close()
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT n, seat, entry FROM game_entries ORDER BY n").fetchall()
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    assert [r[0] for r in rows] == list(range(9))
    assert rows[0][1] == CHANCE and rows[0][2].count("/") == 3  # "3:K.AJ.AK8.Q96/..."
    assert rows[-1][1:] == (2, "!2")
    for n, seat, text in rows[:8]:
        assert decode_entry(seat, text) == game.record.entries[n][1]


def test_one_entry_number_cannot_be_written_twice(tmp_path: Path) -> None:
    game = play_game(Rules(), seed=4, stop_after=3)
    store = Store(tmp_path / "db.sqlite")
    store_game(store, "t", game)
    with pytest.raises(StoreUnavailable) as refused:
        store.append("t", 2, 0, Play(0))
    assert isinstance(refused.value.__cause__, sqlite3.IntegrityError)
    assert len(store.entries("t")) == 3  # the failed transaction left nothing behind
    store.close()


def test_encode_and_decode_entries() -> None:
    game = Game(Rules())
    game.deal(Random(2))
    _, dealt = game.record.entries[0]
    assert isinstance(dealt, Deal)
    assert decode_entry(CHANCE, encode_entry(CHANCE, dealt)) == dealt
    play = Play(13, (0b111,), True)
    assert encode_entry(1, play) == "H10[D6-D7-D8]*"
    assert decode_entry(1, encode_entry(1, play)) == play
