"""The coach on the server: reviews of finished games, in a worker process of their own.

A review is many searches (``chibre.coach.review``); the server plans it on the event loop
(replaying the record is quick) and sends each decision to a pool of its own — one process,
started on first use, at a lower priority — so that the tables, and the search players'
pool (``chibre.server.thinking``), are not slowed. The decisions go one at a time, so the
progress is the count of those done. A worker receives a seat's ``Decision``: its
observation, and the real hands only for the hindsight column. A finished review is kept in
the server's file, so a restart does not make it again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from typing import Any

from chibre.actions import Deal
from chibre.coach.advice import Advice, advise
from chibre.coach.decisions import decisions
from chibre.coach.report import assessment_head, assessment_line, reason_text
from chibre.coach.review import (
    Assessment,
    Review,
    assess,
    assessment_from_json,
    assessment_to_json,
    compile_review,
)
from chibre.coach.value import Budget
from chibre.game import GameRecord
from chibre.observation import Observation
from chibre.server.store import Store, StoreUnavailable
from chibre.server.thinking import exit_with, stop_pool

log = logging.getLogger(__name__)

KEPT_REVIEWS = 32
"""How many reviews the server keeps (the most recently asked for)."""
REVIEW_BUDGET = Budget(samples=24, contract_samples=16)
"""A little lighter than the command line's default: a game in the background in seconds."""
HINT_BUDGET = Budget(samples=16, contract_samples=12)
"""A hint answers within about a second."""


def _start_worker(server: int) -> None:
    """A review worker yields to the tables, and leaves with the server."""
    with suppress(OSError):  # not allowed here: it runs at the same priority
        os.nice(10)
    exit_with(server)


@dataclass
class ReviewJob:
    """One review: ``done`` of ``total`` decisions assessed; ``review`` once finished,
    ``failed`` if the worker could not."""

    record: GameRecord
    seats: tuple[int, ...]
    total: int = 0
    done: int = 0
    review: Review | None = None
    failed: str = ""
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def view(self, lang: str, deck: str | None = None) -> dict[str, Any]:
        """What the page is sent: the progress, then the review with its lines in ``lang``,
        the cards named in ``deck`` (the page's; the table's by default)."""
        status = "failed" if self.failed else "done" if self.review else "running"
        out: dict[str, Any] = {"status": status, "done": self.done, "total": self.total}
        if self.review is not None:
            out["review"] = _review_view(self.review, self.record, lang, deck)
        return out


def _review_view(review: Review, record: GameRecord, lang: str, deck: str | None) -> dict[str, Any]:
    deck = deck or record.rules.deck
    starts = [i for i, (_, a) in enumerate(record.entries) if isinstance(a, Deal)]
    body = review.to_dict()
    for a, d in zip(review.assessments, body["assessments"], strict=True):
        d["move"] = a.entry - starts[a.hand_index] - 1
        d["head"] = assessment_head(a, lang, deck)
        d["text"] = assessment_line(a, lang, deck)
        d["reason_text"] = reason_text(a.reason, lang, deck)
    return body


class Coaching:
    """The server's reviews, by table and seats, and the worker that makes them."""

    def __init__(self, store: Store | None = None, budget: Budget = REVIEW_BUDGET) -> None:
        self.store = store
        self.budget = budget
        self.jobs: OrderedDict[tuple[str, tuple[int, ...]], ReviewJob] = OrderedDict()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def find(self, table: str, record: GameRecord, seats: tuple[int, ...]) -> ReviewJob | None:
        """The review of ``seats`` of ``table``'s game, made or under way, or ``None``."""
        job = self.jobs.get((table, seats))
        if job is None:
            job = self._kept(table, record, seats)
            if job is not None:
                self._hold(table, job)
        return job

    def start(self, table: str, record: GameRecord, seats: tuple[int, ...]) -> ReviewJob:
        """The review of ``seats`` of ``table``'s game, started unless it is already there."""
        job = self.find(table, record, seats)
        if job is not None and not job.failed:
            self.jobs.move_to_end((table, seats))
            return job
        job = ReviewJob(record, seats)
        self._hold(table, job)
        job.task = asyncio.get_running_loop().create_task(self._run(table, job))
        return job

    def _hold(self, table: str, job: ReviewJob) -> None:
        self.jobs[(table, job.seats)] = job
        while len(self.jobs) > KEPT_REVIEWS:
            _, old = self.jobs.popitem(last=False)
            if old.task is not None:
                old.task.cancel()

    def _kept(self, table: str, record: GameRecord, seats: tuple[int, ...]) -> ReviewJob | None:
        """The review the file keeps, or ``None`` (none kept, or one this version cannot read:
        it is made again)."""
        if self.store is None:
            return None
        try:
            text = self.store.review(table, seats)
            if text is None:
                return None
            kept = json.loads(text)
            budget = Budget(**kept["budget"])
            assessed = [assessment_from_json(a) for a in kept["assessed"]]
        except (StoreUnavailable, ValueError, KeyError, TypeError) as e:
            log.warning("the kept review of table %s is not used: %s", table, e)
            return None
        review = compile_review(record, seats, budget, assessed)
        return ReviewJob(record, seats, len(assessed), len(assessed), review)

    def _keep(self, table: str, job: ReviewJob, assessed: list[Assessment]) -> None:
        if self.store is None:
            return
        text = json.dumps(
            {"budget": asdict(self.budget), "assessed": [assessment_to_json(a) for a in assessed]},
            ensure_ascii=False,
        )
        try:
            self.store.keep_review(table, job.seats, text)
        except StoreUnavailable as e:  # the review is shown all the same; a restart remakes it
            log.warning("%s", e)

    async def _run(self, table: str, job: ReviewJob) -> None:
        todo = decisions(job.record, job.seats)
        job.total = len(todo)
        out: list[Assessment] = []
        try:
            for d in todo:
                out.append(
                    await asyncio.wrap_future(self._executor().submit(assess, d, self.budget))
                )
                job.done += 1
            job.review = compile_review(job.record, job.seats, self.budget, out)
            self._keep(table, job, out)
        except Exception as e:  # a worker that died or failed: said, never the server's end
            job.failed = type(e).__name__
            self._forget_broken(e)

    async def hint(self, observation: Observation) -> Advice:
        """The coach's choice for the seat of ``observation``, from it only (in the worker)."""
        job = self._executor().submit(advise, observation, HINT_BUDGET)
        try:
            return await asyncio.wrap_future(job)
        except Exception as e:
            self._forget_broken(e)
            raise

    def _forget_broken(self, e: Exception) -> None:
        """After a worker died, the next job starts a new pool (a refusal keeps this one)."""
        if isinstance(e, BrokenProcessPool) and self._pool is not None:
            stop_pool(self._pool)
            self._pool = None

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)
