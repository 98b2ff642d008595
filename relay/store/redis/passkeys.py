"""Passkeys in the Redis store (relay.store.passkeys).

Keys, under the prefix P:
- ``P{h:S}``, ``P{h:S}v``  sorted set (item -> until, ms) and hash (item -> value) of the
  pending items of scope S (hold.lua, take.lua); they expire with their last item
- ``P{c:C}``               string: the passkey of credential C (a digest of its id), as JSON
- ``P{p:D}passkeys``       hash: credential id -> when added, the passkeys of the key with
  digest D; this list is the authority (a passkey signs in only while listed here)
- ``P{pk}count``           string: passkeys kept in all (rare writes: a registration, a removal)

A passkey is added in three steps on three slots (the count, its record, its owner's list) and
removed from its owner's list first: a step lost to a crash leaves a record nobody signs in
with, or a count a little high, never a passkey that signs in unlisted."""

from __future__ import annotations

import asyncio
import hashlib

import orjson

from relay.core.errors import RelayError
from relay.core.passkeys import Passkey
from relay.store.redis.link import Link

__all__ = ["RedisPasskeys"]


class RedisPasskeys:
    """The Redis store's passkeys, challenges and codes."""

    def __init__(self, store: Link) -> None:
        self.store = store
        self._count = f"{store.prefix}{{pk}}count"

    def _scope(self, scope: str) -> list[str]:
        tagged = f"{self.store.prefix}{{h:{scope}}}"
        return [tagged, tagged + "v"]

    def _record(self, credential: str) -> str:
        digest = hashlib.sha256(credential.encode()).hexdigest()[:32]
        return f"{self.store.prefix}{{c:{digest}}}"

    def _owned(self, owner: str) -> str:
        return f"{self.store.prefix}{{p:{owner}}}passkeys"

    async def hold(
        self, scope: str, item: str, value: str, until: float, now: float, most: int
    ) -> bool:
        """Keeps a pending item (Passkeys.hold)."""
        args = [item, value, round(until * 1000), round(now * 1000), most]
        return bool(int(await self.store.call("HOLD", self._scope(scope), args)))

    async def take(self, scope: str, item: str, now: float) -> str | None:
        """Takes a pending item once (Passkeys.take)."""
        found = await self.store.call("TAKE", self._scope(scope), [item, round(now * 1000)])
        if found is None:
            return None
        return found.decode() if isinstance(found, bytes) else str(found)

    async def add(self, passkey: Passkey, per_player: int, most: int) -> bool:
        """Binds a passkey (Passkeys.add)."""
        client = await self.store.client()
        guard = self.store.guard
        if int(await guard(client.incr(self._count))) > most:
            await guard(client.decr(self._count))
            raise RelayError("passkey/full")
        record = self._record(passkey.id)
        if not await guard(client.set(record, orjson.dumps(passkey.as_dict()), nx=True)):
            await guard(client.decr(self._count))
            return False
        args = [passkey.id, repr(passkey.created), per_player]
        if not int(await self.store.call("PASSKEY_ADD", [self._owned(passkey.owner)], args)):
            await guard(client.delete(record))
            await guard(client.decr(self._count))
            raise RelayError("passkey/full")
        return True

    async def listed(self, owner: str) -> list[Passkey]:
        """Returns a key's passkeys, oldest first (Passkeys.listed)."""
        client = await self.store.client()
        owned = await self.store.guard(client.hgetall(self._owned(owner)))
        found = await asyncio.gather(*(self.find(raw.decode()) for raw in owned))
        kept = [passkey for passkey in found if passkey is not None]
        return sorted(kept, key=lambda passkey: (passkey.created, passkey.id))

    async def remove(self, owner: str, credential: str) -> bool:
        """Unbinds a passkey (Passkeys.remove)."""
        client = await self.store.client()
        guard = self.store.guard
        if not int(await guard(client.hdel(self._owned(owner), credential))):
            return False
        await guard(client.delete(self._record(credential)))
        await guard(client.decr(self._count))
        return True

    async def find(self, credential: str) -> Passkey | None:
        """Returns a credential's passkey while its owner lists it (Passkeys.find)."""
        client = await self.store.client()
        raw = await self.store.guard(client.get(self._record(credential)))
        if raw is None:
            return None
        passkey = Passkey.from_dict(orjson.loads(raw))
        if not await self.store.guard(client.hexists(self._owned(passkey.owner), credential)):
            return None
        return passkey

    async def used(self, passkey: Passkey, sign_count: int) -> None:
        """Keeps a passkey's new counter (Passkeys.used)."""
        client = await self.store.client()
        kept = {**passkey.as_dict(), "sign_count": sign_count}
        await self.store.guard(client.set(self._record(passkey.id), orjson.dumps(kept), xx=True))
