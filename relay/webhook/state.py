"""What every relay process sending your-turn webhooks must agree on: which turns were
already handled, and each contact's throttle window and the turns held for its next digest.

The memory store's relay is one process and keeps these in memory; relays sharing Redis keep
them in Redis, under the store's prefix. A contact is known there only by a digest of it.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

__all__ = [
    "CLAIM_FOR",
    "HELD",
    "HookState",
    "MemoryHookState",
    "RedisHookState",
    "shared_state",
]

CLAIM_FOR = 86400.0
"""Seconds a handled turn is remembered (a write retried later is refused by the store)."""

HELD = 100
"""Turns held per contact for its next digest; older ones are dropped past it."""

CLAIMS = 100_000
"""Handled turns the memory state remembers, the oldest forgotten first."""


class HookState(Protocol):
    """The shared state of the webhook sender."""

    async def claim(self, key: str) -> bool:
        """Returns True the first time a turn's key is claimed, False every time after."""

    async def open_window(self, contact: str, seconds: float) -> bool:
        """Opens the contact's throttle window for seconds unless one is open; returns
        whether this call opened it."""

    async def window_left(self, contact: str) -> float:
        """Returns the seconds until the contact's window closes (0 when none is open)."""

    async def hold(self, contact: str, turn: bytes) -> None:
        """Keeps a turn for the contact's next digest (the newest HELD at most)."""

    async def take(self, contact: str) -> list[bytes]:
        """Returns the contact's held turns, oldest first, and forgets them."""

    async def give_back(self, contact: str, turns: list[bytes]) -> None:
        """Puts taken turns back before any held since (their digest must wait)."""


class MemoryHookState:
    """The state of one relay process."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._claims: OrderedDict[str, float] = OrderedDict()
        self._windows: dict[str, float] = {}
        self._held: dict[str, deque[bytes]] = {}

    async def claim(self, key: str) -> bool:
        """See HookState.claim."""
        now = self._clock()
        while self._claims and (
            len(self._claims) >= CLAIMS or next(iter(self._claims.values())) < now
        ):
            self._claims.popitem(last=False)
        if key in self._claims:
            return False
        self._claims[key] = now + CLAIM_FOR
        return True

    async def open_window(self, contact: str, seconds: float) -> bool:
        """See HookState.open_window."""
        now = self._clock()
        for name, until in list(self._windows.items()):
            if until <= now:
                del self._windows[name]
        if contact in self._windows:
            return False
        self._windows[contact] = now + seconds
        return True

    async def window_left(self, contact: str) -> float:
        """See HookState.window_left."""
        return max(0.0, self._windows.get(contact, 0.0) - self._clock())

    async def hold(self, contact: str, turn: bytes) -> None:
        """See HookState.hold."""
        self._held.setdefault(contact, deque(maxlen=HELD)).append(turn)

    async def take(self, contact: str) -> list[bytes]:
        """See HookState.take."""
        return list(self._held.pop(contact, ()))

    async def give_back(self, contact: str, turns: list[bytes]) -> None:
        """See HookState.give_back."""
        held = self._held.setdefault(contact, deque(maxlen=HELD))
        held.extendleft(reversed(turns[-HELD:]))
        while len(held) > HELD:  # extendleft on a full deque drops from the right
            held.pop()


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


def shared_state(store: object) -> HookState:
    """Returns the state for a relay on store: in Redis for the Redis store, else in memory
    (the memory store's relay is one process)."""
    from relay.store.memory.store import MemoryStore

    if isinstance(store, MemoryStore):
        return MemoryHookState()
    from relay.store.redis.store import RedisStore

    if isinstance(store, RedisStore):
        return RedisHookState(store.client, store.prefix)
    raise TypeError(f"no webhook state for a {type(store).__name__}")


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))
