"""The Redis store's way to Redis: its library's functions called in pipelined batches, plain
calls through redis-py, and a Redis that cannot answer turned into 503, on the Redis its
topology found (relay.store.redis.topology); waits on its channels are relay.store.redis.waits."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from relay.core.errors import RelayError
from relay.core.model import StoreSettings
from relay.core.table import AWAY
from relay.store.redis import library as redis_library
from relay.store.redis.batch import Script
from relay.store.redis.keys import SHARDS, GameKeys, Layout
from relay.store.redis.refusals import DOWN, Refusal, loading, refusal_of
from relay.store.redis.topology import SENTINEL_SCHEME, Topology, sentinel_url

__all__ = ["DEFAULT_PREFIX", "SCRIPTS", "SENTINEL_SCHEME", "Connection", "sentinel_url", "timings"]

DEFAULT_PREFIX = "movewire:"
"""The prefix of every key the store writes (several relays may share one Redis by prefix)."""

SCRIPTS = {
    name: Script(function, redis_library.LIBRARY)
    for name, function in redis_library.FUNCTIONS.items()
}
"""Each script of the library, by its name in lua/ (in upper case)."""

_T = TypeVar("_T")


class Connection(Topology):
    """The store's link to Redis: calls and plain commands on the Redis its topology found
    (see Link)."""

    def __init__(
        self,
        settings: StoreSettings,
        prefix: str,
        *,
        recheck: float,
        linger: float,
        url: str | None = None,
        client: aioredis.Redis | None = None,
        listener: aioredis.Redis | None = None,
    ) -> None:
        super().__init__(linger=linger, url=url, client=client, listener=listener)
        self.settings = settings
        self.prefix = prefix
        self.layout = Layout(prefix)
        """Where the store's keys are (relay.store.redis.keys)."""
        self.recheck = recheck
        """Seconds a waiting poll trusts pub/sub before it re-reads the log anyway."""
        self.closing = False
        """Whether the store is closing: waits end at once."""

    @property
    def heard(self) -> int:
        """Event notices this process heard (see Store.heard)."""
        return 0 if self._notes is None else self._notes.messages

    # -- calling Redis ---------------------------------------------------------------------

    def match_args(self, tagged: str, match: str, now: float, *rest: object) -> list[Any]:
        """Returns a match script's arguments: the shard's tagged prefix, the match, now,
        the store's timings and keep (MATCH_PRELUDE's begin_match), then rest."""
        return [tagged, match, repr(float(now)), timings(self.settings), repr(self.settings.keep),
                *rest]  # fmt: skip

    async def run(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """Runs a script and returns its answer, or raises Refusal with the error it gave.

        A Redis that cannot answer becomes RelayError('server/unavailable')."""
        batch = self._batch
        if batch is None:
            batch = (await self._connect())[0]
        try:
            answer = await batch.call(script, keys, args)
        except DOWN as exc:
            raise self.unavailable(exc) from None
        except ResponseError as exc:
            if loading(exc):
                raise self.unavailable(exc) from None
            raise
        self.up()
        if isinstance(answer, list) and answer and answer[0] == b"e":
            raise refusal_of(answer)
        return answer

    async def on_match(self, name: str, match: str, now: float, *rest: object) -> Any:
        """Runs the match script called name on match (see run)."""
        tagged = self.layout.tagged(match)
        args = self.match_args(tagged, match, now, *rest)
        return await self.run(SCRIPTS[name], [f"{tagged}m:{match}"], args)

    async def on_game(
        self, name: str, game: GameKeys, now: float, memo: str, *rest: object,
        span: float | None = None,
    ) -> Any:  # fmt: skip
        """Runs the game script called name; a seeker's memo lasts span seconds (default the
        grace period)."""
        keys = [game.queue, game.waiting, memo]
        args = [repr(float(now)), repr(self.settings.grace if span is None else span), *rest]
        return await self.run(SCRIPTS[name], keys, args)

    async def call(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Runs a function of the library by its script's name (the rematch and lobby
        scripts, which name every key they touch); a refusal becomes its RelayError."""
        try:
            return await self.run(SCRIPTS[name], keys, args)
        except Refusal as refusal:
            raise RelayError(refusal.code) from None

    async def guard(self, reply: Awaitable[_T]) -> _T:
        """Awaits a plain Redis reply; a Redis that cannot answer becomes server/unavailable."""
        try:
            found = await reply
        except DOWN as exc:
            raise self.unavailable(exc) from None
        except RuntimeError as exc:
            # redis-py writing to a transport closed under it (uvloop: "the handler is
            # closed"), as a cluster node is killed: Redis away, as in relay.store.redis.pipe.
            raise self.unavailable(exc) from None
        self.up()
        return found

    async def tallies(self) -> list[tuple[str, int]]:
        """Returns every shard's counts: matches by status, and 'ended:<reason>' totals."""
        pipe = (await self.client()).pipeline(transaction=False)
        for shard in range(SHARDS):
            pipe.hgetall(self.layout.shard(shard)[2])
        found: list[dict[bytes, bytes]] = await self.guard(pipe.execute())
        return [(name.decode(), int(count)) for held in found for name, count in held.items()]

    # -- ending ----------------------------------------------------------------------------

    def sweep(self) -> None:
        """Lets the notifier drop the channels no wait follows any more."""
        if self._notes is not None:
            self._notes.sweep()

    def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        self.closing = True
        if self._notes is not None:
            self._notes.wake_all()

    async def close(self) -> None:
        """Stops listening for notifications and closes the connections to Redis."""
        self.closing = True
        await self.close_links()


def timings(settings: StoreSettings) -> str:
    """Returns the store's timings as a match script reads them (MATCH_PRELUDE's ARGV[4]):
    'grace:hold:seek_grace:claim_after:away:pair_window'."""
    return ":".join(
        repr(float(value))
        for value in (
            settings.grace, settings.hold, settings.seek_grace, settings.claim_after, AWAY,
            settings.pair_window,
        )
    )  # fmt: skip
