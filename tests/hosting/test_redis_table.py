"""The table on a Redis store shared by several relay processes: a table change made through
one process wakes the table-aware waits held in another (told on the match's event channels,
with no read of the log), and presence noted by one is shown by the reaper of another."""

from __future__ import annotations

import asyncio
import time

import orjson

from relay.core.model import Action
from relay.core.table import AWAY
from tests.hosting.conftest import StoreMaker
from tests.relay.store.calls import start as start_match


async def test_a_chat_line_through_one_process_wakes_a_wait_in_another(
    make_store: StoreMaker,
) -> None:
    here, there = make_store(), make_store()
    a = await here.matches.seek("tables", "1", None, time.time())
    b = await there.matches.seek("tables", "1", None, time.time())
    _, _, version = await here.tables.poll(a.match, a.token, 1, time.time())
    async with asyncio.timeout(5):
        waiting = asyncio.create_task(here.matches.wait(a.match, 1, 10, version))
        await asyncio.sleep(0.2)  # subscribed by now
        said = time.monotonic()
        await there.tables.chat(b.match, b.token, "hi from the other process", time.time())
        assert await waiting == ([], True)
        assert time.monotonic() - said < 1.0
    _, table = await here.tables.read(a.match, a.token, 0, time.time())
    assert [line.text for line in table.chat] == ["hi from the other process"]
    # An event still wakes the same kind of wait with the event itself.
    first = orjson.loads((await here.matches.poll(a.match, None, 0, time.time()))[1][0])["first"]
    mover = a if first == a.seat else b
    async with asyncio.timeout(5):
        waiting = asyncio.create_task(here.matches.wait(a.match, 1, 10, table.version))
        await asyncio.sleep(0.1)
        await there.matches.act(mover.match, mover.token, Action("move", 1, "11"), time.time())
        found, changed = await waiting
    assert ([orjson.loads(e)["move"] for e in found], changed) == (["11"], False)


async def test_presence_noted_by_one_process_is_shown_by_the_reaper_of_another(
    make_store: StoreMaker,
) -> None:
    here, there = make_store(), make_store()
    start = time.time()
    a = await here.matches.seek("tables", "1", None, start)
    b = await there.matches.seek("tables", "1", None, start)
    await start_match(here, a, at=start)
    await there.matches.poll(b.match, b.token, 1, start)
    await there.matches.left(b.match, b.token, start, start + 0.5)
    await here.matches.reap(start + 0.5 + AWAY + 0.5)
    _, table = await here.tables.read(a.match, a.token, 0, start + 5)
    assert table.away[b.seat] is not None and table.away[a.seat] is None
