"""The Redis store's Hooks part: its turn sink, and the webhook state shared by the relay
processes on one Redis (see relay.store.hooks)."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any, cast

from relay.core.turns import EndSink, TurnSink
from relay.store.hooks import CLAIM_FOR, HELD

__all__ = ["RedisHookState", "RedisHooks"]


class RedisHookState:
    """The state shared by every relay process on one Redis or Redis Cluster: a key per
    handled turn, and per contact a window key and a list of held turns under one hash tag."""

    def __init__(self, client: Callable[[], Awaitable[Any]], prefix: str) -> None:
        """client: returns the store's redis-py client (one Redis or a RedisCluster)."""
        self._client = client
        self._prefix = prefix

    def _contact(self, contact: str) -> str:
        tag = hashlib.sha256(contact.encode()).hexdigest()[:32]
        return f"{self._prefix}hook:{{{tag}}}:"

    async def claim(self, key: str) -> bool:
        """See HookState.claim."""
        redis = await self._client()
        done = await redis.set(f"{self._prefix}hook:turn:{key}", b"1", nx=True, px=_ms(CLAIM_FOR))
        return bool(done)

    async def open_window(self, contact: str, seconds: float) -> bool:
        """See HookState.open_window."""
        redis = await self._client()
        key = self._contact(contact) + "window"
        return bool(await redis.set(key, b"1", nx=True, px=_ms(seconds)))

    async def window_left(self, contact: str) -> float:
        """See HookState.window_left."""
        redis = await self._client()
        left = cast(int, await redis.pttl(self._contact(contact) + "window"))
        return max(0, left) / 1000

    async def hold(self, contact: str, turn: bytes) -> None:
        """See HookState.hold."""
        redis = await self._client()
        key = self._contact(contact) + "held"
        await redis.rpush(key, turn)
        await redis.ltrim(key, -HELD, -1)
        await redis.pexpire(key, _ms(CLAIM_FOR))

    async def take(self, contact: str) -> list[bytes]:
        """See HookState.take."""
        redis = await self._client()
        taken = await redis.lpop(self._contact(contact) + "held", HELD)
        return list(taken or ())

    async def give_back(self, contact: str, turns: list[bytes]) -> None:
        """See HookState.give_back."""
        if turns:
            redis = await self._client()
            key = self._contact(contact) + "held"
            await redis.lpush(key, *reversed(turns[-HELD:]))
            await redis.ltrim(key, 0, HELD - 1)
            await redis.pexpire(key, _ms(CLAIM_FOR))


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class RedisHooks:
    """The Hooks part of the Redis store."""

    def __init__(self, client: Callable[[], Awaitable[Any]], prefix: str) -> None:
        """client: returns the store's redis-py client (one Redis or a RedisCluster)."""
        self.turns: TurnSink | None = None
        """Told of turns given in matches with a time control (see Hooks.turns)."""
        self.ended: EndSink | None = None
        """Told of matches a seat's write may have ended (see Hooks.ended)."""
        self.timed = False
        """Whether turns of matches with a clock are told too (see Hooks.timed)."""
        self._client = client
        self._prefix = prefix
        self._state: RedisHookState | None = None

    def state(self) -> RedisHookState:
        """Returns the webhook's state, in Redis under the store's prefix (see Hooks.state)."""
        if self._state is None:
            self._state = RedisHookState(self._client, self._prefix)
        return self._state
