"""A request as the Api takes it, its answer, and the running of an endpoint without a task
until it has to wait."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Generator, Mapping
from typing import Any, Protocol, cast

from relay.api.routes import Route
from relay.core.errors import RelayError

__all__ = ["Answer", "Call", "Pending", "Reply", "drive", "task_done"]

Reply = tuple[int, bytes]
"""An answer: HTTP status and body (of the route's content type)."""

Answer = Callable[[Reply | None, BaseException | None], None]
"""Takes a request's answer, or the error that ends it, when it is ready."""


class Pending(Protocol):
    """A request still in progress, to stop when its client goes away."""

    def cancel(self) -> Any:
        """Stops the request without answering it."""


class Call:
    """One request of the route table, read by either HTTP server: what the Api is handed."""

    __slots__ = ("authorization", "body", "client", "content_type", "match", "query", "route")

    def __init__(
        self,
        route: Route,
        match: str,
        client: str,
        authorization: str | None,
        content_type: str,
        query: Mapping[str, str],
        body: bytes,
    ) -> None:
        self.route = route
        self.match = match
        """The {match} of the path ('' on routes without one)."""
        self.client = client
        """The client's address (behind a trusted proxy, the one it forwarded)."""
        self.authorization = authorization
        self.content_type = content_type
        """The body's media type, lower case, without parameters ('' when none was sent)."""
        self.query = query
        self.body = body

    def __repr__(self) -> str:
        return (
            f"Call({self.route.method} {self.route.path}, match={self.match!r}, "
            f"client={self.client!r}, body={len(self.body)} bytes)"
        )


def drive(coro: Coroutine[Any, Any, Reply], answer: Answer) -> Pending | None:
    """Runs coro at once, without a task, and calls answer(result, error) when it finishes.

    For a store that answers at once (the memory store), whose endpoints mostly finish
    without waiting: such a request costs no task. One that has to wait (a held table or
    rematch read, say) is carried on from there in a task. Returns what to cancel while the
    coroutine waits, or None when it has answered already."""
    try:
        waiting = coro.send(None)
    except StopIteration as stop:
        answer(stop.value, None)
        return None
    except Exception as exc:
        answer(None, exc)
        return None
    task = asyncio.ensure_future(_carry_on(coro, waiting))
    task.add_done_callback(functools.partial(task_done, answer))
    return task


def task_done(answer: Answer, task: asyncio.Future[Reply]) -> None:
    """Passes a task's outcome to answer; a cancelled task answers server/shutting_down
    (the answer is dropped when the cancel came from its client going away)."""
    if task.cancelled():
        answer(None, RelayError("server/shutting_down"))
        return
    error = task.exception()
    answer(None if error is not None else task.result(), error)


async def _carry_on(coro: Coroutine[Any, Any, Reply], waiting: Any) -> Reply:
    """Finishes, in the task running this, a coroutine stopped at its first wait."""
    return await _Started(coro, waiting)


class _Started:
    """A coroutine already stopped at a wait, awaitable from there: what it waits on is
    passed up to the task awaiting this, and the task's sends and throws down to it, as
    `await` would have done had the task started it."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Coroutine[Any, Any, Reply], waiting: Any) -> None:
        self.coro = coro
        self.waiting = waiting

    def __await__(self) -> Generator[Any, Any, Reply]:
        coro, waiting = self.coro, self.waiting
        while True:
            try:
                sent = yield waiting
            except BaseException as thrown:  # a cancel: the coroutine's finally blocks run
                try:
                    waiting = coro.throw(thrown)
                except StopIteration as stop:
                    return cast(Reply, stop.value)
                continue
            try:
                waiting = coro.send(sent)
            except StopIteration as stop:
                return cast(Reply, stop.value)
