"""A request as the Api takes it, its answer, and the running of an endpoint without a task."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol

from relay.api.routes import Route

__all__ = ["Answer", "Call", "Pending", "Reply", "drive"]

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


def drive(coro: Coroutine[Any, Any, Reply], answer: Answer) -> _Resume | None:
    """Runs coro at once, without a task, and calls answer(result, error) when it finishes.

    For coroutines that finish at once or wait only on plain futures (the memory store's):
    a poll that has to wait costs a callback, not a task. Returns what to cancel while the
    coroutine waits, or None when it has answered already."""
    try:
        waiting = coro.send(None)
    except StopIteration as stop:
        answer(stop.value, None)
        return None
    except Exception as exc:
        answer(None, exc)
        return None
    resume = _Resume(coro, answer)
    resume.wait_on(waiting)
    return resume


class _Resume:
    """Carries on a coroutine that drive() started, each time what it awaits is done."""

    __slots__ = ("answer", "cancelled", "coro")

    def __init__(self, coro: Coroutine[Any, Any, Reply], answer: Answer) -> None:
        self.coro = coro
        self.answer = answer
        self.cancelled = False

    def cancel(self) -> None:
        """Stops the coroutine where it waits (its finally blocks run); answer is not called."""
        self.cancelled = True
        self.coro.close()

    def wait_on(self, waiting: Any) -> None:
        """Resumes the coroutine when what it yielded is done."""
        if waiting is None:  # a bare yield: asyncio.sleep(0)
            asyncio.get_running_loop().call_soon(self.step)
            return
        waiting._asyncio_future_blocking = False
        waiting.add_done_callback(self.step)

    def step(self, _: object = None) -> None:
        """Sends the coroutine on to its next wait, or to its end."""
        if self.cancelled:
            return
        try:
            waiting = self.coro.send(None)
        except StopIteration as stop:
            self.answer(stop.value, None)
        except Exception as exc:
            self.answer(None, exc)
        else:
            self.wait_on(waiting)
