"""Script calls to Redis, sent together: every call made in one event-loop turn goes out in
one pipeline per node (one write, one round trip), so a busy relay pays one round trip for
many moves.

The scripts are one Redis Functions library (`relay.store.redis.library.LIBRARY`), called by
FCALL; a node that does not have it (started afresh without its data) gets it loaded and
the calls sent again. In a cluster, a call redirected by
MOVED or ASK is sent again where the cluster says.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from functools import partial
from typing import Any, Protocol

from redis.exceptions import AskError, ClusterDownError, MovedError, RedisError, ResponseError

from relay.store.redis.dial import Opener
from relay.store.redis.pipe import Pipe

__all__ = ["Batcher", "Links", "OneRedis", "Script"]


class Script:
    """One function of the store's Redis Functions library."""

    __slots__ = ("library", "name")

    def __init__(self, name: str, library: str) -> None:
        self.name = name
        self.library = library
        """The source of the library that registers the function."""


def _unknown(reply: object) -> bool:
    """Whether a reply says the node does not have the function."""
    return isinstance(reply, ResponseError) and str(reply).startswith("Function not found")


async def _load(pipe: Pipe, library: str) -> None:
    """Loads the library on the node (one loaded meanwhile by another process is fine)."""
    reply = (await pipe.run([("FUNCTION", "LOAD", library)]))[0]
    if isinstance(reply, ResponseError) and "already exists" not in str(reply):
        raise reply


_Call = tuple[Script, list[str], list[Any], "asyncio.Future[Any]"]

_REDIRECTS = 6
"""How many times a call is sent again to the node a cluster redirects it to (while a slot
moves, the nodes may for a moment send a call back and forth: each try waits a little more;
past the last, the call fails as Redis being unavailable, and the client retries)."""

_REDIRECT_PAUSE = 0.02
"""Seconds before the second redirect of a call; each later one waits twice as long."""


class Batcher:
    """Sends the script calls of each loop turn to Redis: one pipeline per node. Each answer
    settles its call in the loop turn that reads it."""

    def __init__(self, links: Links) -> None:
        self._links = links
        self._calls: list[_Call] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._loading: dict[tuple[Pipe, str], asyncio.Future[None]] = {}
        """The library being loaded on a node that did not have it, by node and library."""

    def call(self, script: Script, keys: list[str], args: list[Any]) -> asyncio.Future[Any]:
        """Returns the future answer of a script call; errors (RedisError) are raised by it."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        if not self._calls:
            loop.call_soon(self._flush)
        self._calls.append((script, keys, args, answer))
        return answer

    def _flush(self) -> None:
        calls, self._calls = self._calls, []
        groups: dict[Pipe, list[_Call]] = {}
        for call in calls:
            try:
                pipe = self._links.pipe_for(call[1][0])
            except (RedisError, LookupError) as exc:  # a slot no master serves now
                failure = ClusterDownError(f"No master serves {call[1][0]!r}: {exc}")  # type: ignore[no-untyped-call, unused-ignore]
                _settle(call[3], failure)
                continue
            groups.setdefault(pipe, []).append(call)
        for pipe, group in groups.items():
            commands = [("FCALL", script.name, len(keys), *keys, *args)
                        for script, keys, args, _ in group]  # fmt: skip
            pipe.send(commands, [partial(self._answered, pipe, call) for call in group])

    def _answered(self, pipe: Pipe, call: _Call, reply: Any) -> None:
        """Settles a call with its reply; loads the library on a node that lacks it, follows a
        cluster's redirection, and reports a lost connection (the topology may have changed)."""
        if isinstance(reply, ResponseError):
            if _unknown(reply):
                self._spawn(self._load_and_send(pipe, call), call)
                return
            if isinstance(reply, AskError):  # MOVED too: the slot is served elsewhere
                self._spawn(self._redirect(call, reply), call)
                return
        elif isinstance(reply, (RedisError, OSError)):  # the call's connection failed
            self._links.broken(pipe)
        _settle(call[3], reply)

    def _spawn(self, work: Coroutine[Any, Any, None], call: _Call) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(partial(self._ended, call))

    def _ended(self, call: _Call, task: asyncio.Task[None]) -> None:
        """Settles the call with what a follow-up raised unforeseen (a bug is told, not hung)."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _settle(call[3], task.exception())

    async def _load_and_send(self, pipe: Pipe, call: _Call) -> None:
        """Loads the library on a node that did not have it (once for all the calls that
        found it missing), then sends the call again."""
        key = (pipe, call[0].library)
        loading = self._loading.get(key)
        if loading is None:
            loading = self._loading[key] = asyncio.ensure_future(_load(pipe, call[0].library))
            loading.add_done_callback(lambda _: self._loading.pop(key, None))
        try:
            await asyncio.shield(loading)
            [reply] = await _evalsha(pipe, [call])
        except (RedisError, OSError) as exc:
            _settle(call[3], exc)
            return
        if _unknown(reply):  # loaded, and gone again: a node flushed meanwhile
            _settle(call[3], reply)
        else:
            self._answered(pipe, call, reply)

    async def _redirect(self, call: _Call, reply: AskError) -> None:
        """Sends a call to the node a cluster redirected it to (MOVED or ASK)."""
        answer = call[3]
        for attempt in range(_REDIRECTS):
            if attempt:
                await asyncio.sleep(_REDIRECT_PAUSE * 2 ** (attempt - 1))
            asking = not isinstance(reply, MovedError)
            try:
                pipe = await self._links.redirected(reply, asking)
                replies = await _evalsha(pipe, [call], asking=asking)
            except (RedisError, OSError) as exc:
                _settle(answer, exc)
                return
            found = replies[0]
            if _unknown(found):
                try:
                    await _load(pipe, call[0].library)
                except (RedisError, OSError) as exc:
                    _settle(answer, exc)
                    return
                continue
            if not isinstance(found, AskError):
                _settle(answer, found)
                return
            reply = found
        _settle(answer, reply)

    async def close(self) -> None:
        """Waits for the calls already sent, then closes the connections."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._links.close()


def _settle(answer: asyncio.Future[Any], reply: Any) -> None:
    if answer.done():
        return
    if isinstance(reply, BaseException):
        answer.set_exception(reply)
    else:
        answer.set_result(reply)


async def _evalsha(pipe: Pipe, calls: list[_Call], *, asking: bool = False) -> list[Any]:
    """Sends script calls on one connection; answers each call's reply (an error as its
    exception)."""
    commands: list[tuple[Any, ...]] = []
    for script, keys, args, _ in calls:
        if asking:
            commands.append(("ASKING",))
        commands.append(("FCALL", script.name, len(keys), *keys, *args))
    replies = await pipe.run(commands)
    return replies[1::2] if asking else replies


class Links(Protocol):
    """The connections the store's script calls go out on: one Redis, or the masters of a
    cluster, each with one pipelined connection."""

    def pipe_for(self, key: str) -> Pipe:
        """Returns the connection to the node that serves the key."""

    async def redirected(self, error: AskError, asking: bool) -> Pipe:
        """Returns the connection to the node a MOVED or ASK error names (after MOVED, the
        key's slot is served there from now on)."""

    def broken(self, pipe: Pipe) -> None:
        """Tells that a connection failed (the topology may have changed)."""

    async def close(self) -> None:
        """Closes every connection."""


class OneRedis:
    """Links to one Redis server (or a replicated primary)."""

    def __init__(self, opener: Opener) -> None:
        self._pipe = Pipe(opener)

    def pipe_for(self, key: str) -> Pipe:
        """Returns the one connection."""
        return self._pipe

    async def redirected(self, error: AskError, asking: bool) -> Pipe:
        """A single Redis redirects nowhere: the error is raised."""
        raise error

    def broken(self, pipe: Pipe) -> None:
        """Nothing to refresh: the connection reconnects by itself."""

    async def close(self) -> None:
        """Closes the connection."""
        await self._pipe.close()
