"""Passkeys in each store (memory, Redis, Redis Cluster), driven through Store.passkeys: pending
items taken once, expired, capped per scope; passkeys bound, capped, found, removed
(relay.store.passkeys)."""

from __future__ import annotations

import secrets
import time

import pytest

from relay import RelayError, Store
from relay.core.passkeys import Passkey


def passkey(owner: str, created: float, count: int = 0) -> Passkey:
    return Passkey(secrets.token_urlsafe(24), owner, "sealed", "cose", count, "", created)


async def test_a_pending_item_is_taken_once_before_it_expires(store: Store) -> None:
    now = time.time()
    part = store.passkeys
    assert await part.hold("s", "a", "one", now + 60, now, 2)
    assert not await part.hold("s", "a", "again", now + 60, now, 2)
    assert await part.hold("s", "b", "two", now + 1, now, 2)
    assert not await part.hold("s", "c", "three", now + 60, now, 2)
    assert await part.hold("other", "c", "", now + 60, now, 2)
    assert await part.take("s", "a", now) == "one"
    assert await part.take("s", "a", now) is None
    assert await part.take("s", "b", now + 2) is None
    # The expired item no longer counts against the scope's cap.
    assert await part.hold("s", "d", "", now + 60, now + 2, 1)
    assert await part.take("other", "c", now) == ""


async def test_passkeys_are_bound_capped_found_and_removed(store: Store) -> None:
    now = time.time()
    part = store.passkeys
    owner = secrets.token_hex(32)
    first, second = passkey(owner, now), passkey(owner, now + 1)
    assert await part.add(first, 2, 1000)
    assert not await part.add(first, 2, 1000)
    assert await part.add(second, 2, 1000)
    with pytest.raises(RelayError) as refused:
        await part.add(passkey(owner, now + 2), 2, 1000)
    assert refused.value.code == "passkey/full"
    assert [p.id for p in await part.listed(owner)] == [first.id, second.id]
    assert await part.find(first.id) == first
    await part.used(first, 7)
    found = await part.find(first.id)
    assert found is not None and found.sign_count == 7
    assert not await part.remove(secrets.token_hex(32), first.id)
    assert await part.remove(owner, first.id)
    assert await part.find(first.id) is None
    assert [p.id for p in await part.listed(owner)] == [second.id]
    assert await part.listed(secrets.token_hex(32)) == []


async def test_the_store_keeps_a_bounded_number_of_passkeys(store: Store) -> None:
    now = time.time()
    part = store.passkeys
    assert await part.add(passkey(secrets.token_hex(32), now), 8, 2)
    assert await part.add(passkey(secrets.token_hex(32), now), 8, 2)
    with pytest.raises(RelayError) as refused:
        await part.add(passkey(secrets.token_hex(32), now), 8, 2)
    assert refused.value.code == "passkey/full"


async def test_the_memory_store_forgets_expired_scopes() -> None:
    from relay import MemoryStore

    part = MemoryStore().passkeys
    now = time.time()
    for n in range(part.SWEEP_EVERY - 1):
        assert await part.hold(f"r:{n}", "c", "", now + 1, now, 4)
    assert await part.hold("last", "c", "", now + 60, now + 2, 4)
    assert list(part._pending) == ["last"]
