"""Where referees run: on a few daemon threads beside the event loop, each judgement within a
time budget (`--referee-budget`), so that a slow referee delays only the write it judges.

A judgement that has not finished by its budget is given up: its caller handles the match as
if its game had no referee (docs/protocol.md#verdicts). Python cannot stop a thread, so a
referee past its budget runs on to its end on its thread, and its answer is dropped; a
judgement still queued when its budget ends is never started. The threads are daemons: a
referee that never returns cannot keep the process from exiting."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["BUDGET", "THREADS", "Judging", "OverBudget"]

BUDGET = 1.0
"""Seconds a judgement may take, queued and running, by default (--referee-budget)."""

THREADS = 2
"""Threads that run judgements: one slow referee leaves another thread free."""

_T = TypeVar("_T")


class OverBudget(TimeoutError):
    """Raised when a judgement did not finish within its time budget."""


class _Job(Generic[_T]):
    """One judgement: the work, where its answer goes, and whether it was given up."""

    __slots__ = ("answer", "given_up", "loop", "work")

    def __init__(
        self, work: Callable[[], _T], loop: asyncio.AbstractEventLoop, answer: asyncio.Future[_T]
    ) -> None:
        self.work = work
        self.loop = loop
        self.answer = answer
        self.given_up = False

    def run(self) -> None:
        """Runs the work on the calling thread and hands its outcome to the event loop."""
        if self.given_up:
            return
        try:
            result, error = self.work(), None
        except BaseException as exc:  # handed to the awaiting coroutine, which logs it
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for the answer
            self.loop.call_soon_threadsafe(self.settle, result, error)

    def settle(self, result: _T | None, error: BaseException | None) -> None:
        """Gives the answer to its waiter, unless the budget ended first."""
        if self.answer.done():
            return
        if error is not None:
            self.answer.set_exception(error)
        else:
            self.answer.set_result(result)  # type: ignore[arg-type]  # work returned it

    def give_up(self, budget: float) -> None:
        """Ends the wait with OverBudget, at the budget's end."""
        self.given_up = True
        if not self.answer.done():
            self.answer.set_exception(OverBudget(f"no verdict within {budget:g} s"))


class Judging:
    """Runs judgements on THREADS daemon threads, started at the first one."""

    def __init__(self, budget: float = BUDGET, threads: int = THREADS) -> None:
        if budget <= 0:
            raise ValueError(f"the referee's budget must be > 0 seconds, not {budget!r}")
        self.budget = budget
        self._threads = threads
        self._jobs: queue.SimpleQueue[_Job[object]] = queue.SimpleQueue()
        self._started = False
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
            for number in range(self._threads):
                threading.Thread(target=self._serve, name=f"referee-{number}", daemon=True).start()

    def _serve(self) -> None:
        while True:
            self._jobs.get().run()

    async def run(self, work: Callable[[], _T]) -> _T:
        """Returns work() as run on a judging thread; raises what it raised, or OverBudget
        when it did not finish (queued and running) within the budget."""
        if not self._started:
            self._start()
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[_T] = loop.create_future()
        job = _Job(work, loop, answer)
        timer = loop.call_later(self.budget, job.give_up, self.budget)
        self._jobs.put(job)  # type: ignore[arg-type]  # the queue holds jobs of any result
        try:
            return await answer
        finally:
            timer.cancel()
            job.given_up = True  # a job still queued when its caller left is never run
