"""How the Redis store wakes polls: from the notification when it carries exactly the next
event, from the log otherwise, and never trusting what it did not hear."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson
import pytest

from relay.core.model import Action
from relay.store.redis.store import RedisStore
from tests.hosting.conftest import StoreMaker
from tests.relay.store.calls import start
from tests.support.waits import waited


class CountingStore:
    """Counts the log reads (the POLL script, which every poll and wait reads the log with) a
    store makes while a test watches."""

    def __init__(self, store: RedisStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = 0
        link = store.matches.link
        run = link.on_match

        async def counted(name: str, match: str, now: float, *rest: object) -> Any:
            if name == "POLL":
                self.reads += 1
            return await run(name, match, now, *rest)

        monkeypatch.setattr(link, "on_match", counted)


async def test_wait_for_the_next_event_is_answered_from_its_notification(
    make_store: StoreMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, other = make_store(), make_store()
    a = await store.matches.seek("heard", "1", None, time.time())
    b = await store.matches.seek("heard", "1", None, time.time())
    await start(store, a)
    first = orjson.loads((await store.matches.poll(a.match, None, 0, time.time()))[1][0])["first"]
    x, o = (a, b) if first == a.seat else (b, a)
    async with asyncio.timeout(5):
        waiting = asyncio.create_task(waited(store, a.match, 1, 10))
        await asyncio.sleep(0.2)  # subscribed by now
        await other.matches.act(
            x.match, x.token, Action("move", 1, "e2\u00e9\U0001f600"), time.time()
        )
        assert [orjson.loads(e)["seq"] for e in await waiting] == [2]
        await other.matches.act(o.match, o.token, Action("move", 2, "e7"), time.time())
        # The next wait of this seat, for event 4, follows the channel already live (the
        # even events'), and is answered by the notice alone.
        counting = CountingStore(store, monkeypatch)
        waiting = asyncio.create_task(waited(store, a.match, 3, 10))
        await asyncio.sleep(0.1)
        await other.matches.act(x.match, x.token, Action("move", 3, 'say "hi"\n'), time.time())
        heard = await waiting
    assert counting.reads == 0
    # A wait whose cursor is behind what was heard reads the log, and is counted.
    assert len(await waited(store, a.match, 1, 10)) == 3
    assert counting.reads == 1
    logged = (await other.matches.poll(a.match, None, 3, time.time()))[1]
    assert heard == logged  # byte for byte what the log holds


async def test_events_from_before_the_store_listened_are_read(make_store: StoreMaker) -> None:
    writer = make_store()
    a = await writer.matches.seek("before", "1", None, time.time())
    await writer.matches.seek("before", "1", None, time.time())
    await start(writer, a)
    late = make_store()  # a process started after the match began
    async with asyncio.timeout(5):
        events = await waited(late, a.match, 0, 10)
        assert orjson.loads(events[0])["type"] == "started"
        # Subscribed now, and still nothing heard of this match: a wait reads first.
        await asyncio.sleep(0.2)
        assert len(await waited(late, a.match, 0, 10)) == 1


async def test_two_quick_events_are_both_delivered(make_store: StoreMaker) -> None:
    store, other = make_store(), make_store()
    a = await store.matches.seek("quick", "1", None, time.time())
    b = await store.matches.seek("quick", "1", None, time.time())
    await start(store, a)
    first = orjson.loads((await store.matches.poll(a.match, None, 0, time.time()))[1][0])["first"]
    x, o = (a, b) if first == a.seat else (b, a)
    async with asyncio.timeout(5):
        waiting = asyncio.create_task(waited(store, a.match, 1, 10))
        await asyncio.sleep(0.2)
        await other.matches.act(x.match, x.token, Action("move", 1, "one"), time.time())
        await other.matches.act(o.match, o.token, Action("move", 2, "two"), time.time())
        events = await waiting
        if len(events) == 1:  # woken by the first; the second is there to read
            events += await waited(store, a.match, 2, 10)
    assert [orjson.loads(e)["move"] for e in events] == ["one", "two"]
