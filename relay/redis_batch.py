"""Script calls to Redis, sent together: every call made in one event-loop turn goes out in
one pipeline (one write, one round trip), so a busy relay pays one round trip for many moves.

A script is called by its SHA1 (EVALSHA); a Redis that does not know it (started afresh, or
a new primary) gets it loaded and the calls sent again.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from redis.exceptions import NoScriptError

__all__ = ["Batcher", "Script"]


class Script:
    """A Lua script and its SHA1."""

    __slots__ = ("sha", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()


_Call = tuple[Script, list[str], list[Any], "asyncio.Future[Any]"]


class Batcher:
    """Sends the script calls of each loop turn to Redis as one pipeline."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._calls: list[_Call] = []
        self._tasks: set[asyncio.Task[None]] = set()

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
        task = asyncio.create_task(self._send(calls))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, calls: list[_Call]) -> None:
        try:
            replies = await self._run(calls)
            unknown = [call for call, reply in zip(calls, replies, strict=True)
                       if isinstance(reply, NoScriptError)]  # fmt: skip
            if unknown:
                for source in {call[0].source for call in unknown}:
                    await self._client.script_load(source)
                for call, reply in zip(unknown, await self._run(unknown), strict=True):
                    replies[calls.index(call)] = reply
        except BaseException as exc:  # every caller learns why its call failed
            for *_, answer in calls:
                if not answer.done():
                    answer.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (*_, answer), reply in zip(calls, replies, strict=True):
            if answer.done():
                continue
            if isinstance(reply, Exception):
                answer.set_exception(reply)
            else:
                answer.set_result(reply)

    async def _run(self, calls: list[_Call]) -> list[Any]:
        pipe = self._client.pipeline(transaction=False)
        for script, keys, args, _ in calls:
            pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
        return list(await pipe.execute(raise_on_error=False))

    async def close(self) -> None:
        """Waits for the calls already sent."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
