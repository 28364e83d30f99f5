"""The search every draw uses: pair up items so that no pair repeats what was already played.

``matchings`` lists the perfect matchings whose every pair is allowed, in an order drawn from
the generator passed in. It builds them by backtracking, always going on with the item that
has the fewest allowed partners left (the most constrained first), so that it finds a matching
quickly when one exists and knows that none does when it has looked everywhere.

``least_matching`` relaxes as little as it must: it looks for a matching whose pairs all cost
0 (nothing repeated), and only when there is none for one whose pairs cost at most 1, then 2,
and so on. Each level's search has a step budget; a level whose budget runs out counts as having
no matching — with the most-constrained-first order this happens only for draws with many
more rounds than players, where a repeat is near-certain anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import TypeVar

from chibre.tournament import TournamentError

T = TypeVar("T")

BUDGET = 20_000
"""Steps (a pair tried) one level of ``least_matching`` may take."""


class _Budget:
    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def matchings(
    items: Sequence[T],
    allowed: Callable[[T, T], bool],
    rng: Random,
    budget: int = BUDGET,
) -> Iterator[list[tuple[T, T]]]:
    """Every perfect matching of ``items`` whose pairs ``allowed`` accepts, in a random order,
    until ``budget`` pairs have been tried. An odd number of items has none."""
    if len(items) % 2:
        return
    drawn = list(items)
    rng.shuffle(drawn)
    n = len(drawn)
    ok = [[i != j and allowed(drawn[i], drawn[j]) for j in range(n)] for i in range(n)]
    steps = _Budget(budget)
    free = set(range(n))
    pairs: list[tuple[int, int]] = []

    def search() -> Iterator[list[tuple[T, T]]]:
        if not free:
            yield [(drawn[a], drawn[b]) for a, b in pairs]
            return
        # the free item with the fewest allowed partners still free
        a = min(free, key=lambda i: (sum(ok[i][j] for j in free), i))
        free.discard(a)
        for b in sorted(j for j in free if ok[a][j]):
            if not steps.spend():
                break
            free.discard(b)
            pairs.append((a, b))
            yield from search()
            pairs.pop()
            free.add(b)
        free.add(a)

    yield from search()


def _within(cost: Callable[[T, T], int], level: int) -> Callable[[T, T], bool]:
    return lambda a, b: cost(a, b) <= level


def least_matching(
    items: Sequence[T],
    cost: Callable[[T, T], int],
    rng: Random,
    budget: int = BUDGET,
) -> tuple[list[tuple[T, T]], int]:
    """A perfect matching of ``items`` whose dearest pair costs as little as possible, and
    that cost (0: nothing repeated). ``TournamentError`` for an odd number of items."""
    if len(items) % 2:
        raise TournamentError(f"{len(items)} cannot be paired: the number must be even")
    levels = sorted({cost(a, b) for i, a in enumerate(items) for b in items[i + 1 :]} | {0})
    for level in levels:
        found = next(matchings(items, _within(cost, level), rng, budget), None)
        if found is not None:
            return found, level
    raise AssertionError("the last level allows every pair")  # pragma: no cover


__all__ = ["BUDGET", "least_matching", "matchings"]
