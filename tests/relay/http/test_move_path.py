"""A move's way through the relay, traced: from the bytes the lean front reads to the partner's
held poll answered, on the memory store. The mover's request goes into the store once, for
its write and its own hold (Immediate.act_watch; the one wait is Immediate.watch); the write
calls the partner's hold back, which schedules its answer; on the loop's next turn the Api
writes that answer to the front, reading nothing more from the store."""

from __future__ import annotations

import asyncio
import itertools
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import FrameType
from typing import Any

import aiohttp
import pytest

import relay
from relay import Config, MemoryStore
from relay.api.endpoints import Api
from relay.api.metrics import RelayMetrics
from relay.http.front import Front

RELAY = Path(relay.__file__).resolve().parent
SHARED = {"api/routes.py", "api/calls.py"}
"""The vocabulary the front and the Api share (the route table, the call record): read by
both, a layer of neither."""
LAYERS = {"http": "front", "api": "Api", "store": "store"}
MOST_FILES = 20
"""Files the way touches at most (20 today, with core's helpers; the memory store's part is
5 of them: matches, act, waits, registry and match)."""


def layer(path: str) -> str | None:
    """Returns the layer of a relay file, None for core's helpers and the shared vocabulary."""
    if path in SHARED:
        return None
    return LAYERS.get(path.split("/")[0])


class Trace:
    """The relay files execution passes through, in order (a call into a file, or a return
    to one), with the function called."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, str]] = []

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
        elif event == "return" and frame.f_back is not None:
            code = frame.f_back.f_code
        else:
            return
        path = Path(code.co_filename)
        if not path.is_relative_to(RELAY):
            return
        name = path.relative_to(RELAY).as_posix()
        if not self.steps or self.steps[-1][0] != name:
            self.steps.append((name, code.co_name if event == "call" else "<-"))

    def until_answer(self) -> list[tuple[str, str]]:
        """Returns the steps up to the front writing the first answer (the partner's)."""
        for n, step in enumerate(self.steps):
            if step == ("http/front.py", "_answer"):
                return self.steps[: n + 1]
        raise AssertionError(f"no answer written: {self.steps}")


@pytest.fixture
async def front() -> AsyncIterator[aiohttp.ClientSession]:
    """Returns a client of a lean front over an Api on a memory store, in this process."""
    config = Config(hold=5.0, requests_per_second=1e6, seeks_per_minute=100000)
    front = Front(Api(config, MemoryStore(config.store), RelayMetrics()), config)
    server = await asyncio.get_running_loop().create_server(front.protocol, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as client:
        yield client
    server.close()
    await server.wait_closed()


async def call(client: aiohttp.ClientSession, method: str, path: str, **kw: Any) -> Any:
    async with asyncio.timeout(10), client.request(method, path, **kw) as answer:
        assert answer.status in (200, 201), await answer.text()
        return await answer.json()


@pytest.mark.parametrize("table", [False, True], ids=["plain", "table-aware"])
async def test_a_move_reaches_the_partner_through_one_write_and_one_wait(
    front: aiohttp.ClientSession, table: bool
) -> None:
    a = await call(front, "POST", "/v1/seek", json={"game": "g"})
    b = await call(front, "POST", "/v1/seek", json={"game": "g"})
    path = f"/v1/matches/{a['match']}"
    seat = {0: a, 1: b}
    # Seat 0 polls again, as a live client does: that starts the paired match (untraced).
    opener = {"Authorization": f"Bearer {a['token']}"}
    started = await call(front, "GET", f"{path}/events?after=0", headers=opener)
    first = started["events"][0]["first"]
    mover, partner = seat[first], seat[1 - first]
    query = ""
    if table:
        held = await call(front, "GET", f"{path}/events?after=1&table=0")
        query = f"&table={held['table']['version']}"
    mark = {"Authorization": f"Bearer {partner['token']}"}
    polled = asyncio.ensure_future(
        call(front, "GET", f"{path}/events?after=1{query}", headers=mark)
    )
    await asyncio.sleep(0.2)  # the partner's poll is held
    assert not polled.done()

    trace = Trace()
    sys.setprofile(trace)
    try:
        moved = asyncio.ensure_future(
            call(
                front, "POST", f"{path}/moves?wait=5{query}",
                json={"after": 1, "move": "e4"},
                headers={"Authorization": f"Bearer {mover['token']}"},
            )
        )  # fmt: skip
        answered = await polled
    finally:
        sys.setprofile(None)
    assert answered["events"][0]["move"] == "e4"
    moved.cancel()

    steps = trace.until_answer()
    files = {name for name, _ in steps}
    assert len(files) <= MOST_FILES, sorted(files)
    # Into the store from the Api once, for the mover's write and its own hold (the one wait),
    # and back once; on the way, the store only calls back: the partner's hold (woken) and
    # the maker of the mover's hold (from the event its write made).
    crossings = [
        (layer(before), function)
        for (before, _), (name, function) in itertools.pairwise(steps)
        if {layer(before), layer(name)} == {"Api", "store"}
    ]
    entered = [function for side, function in crossings if side == "Api" and function != "<-"]
    assert entered == ["act_watch"], steps
    returned = [function for side, function in crossings if side == "store" and function == "<-"]
    assert returned == ["<-"], steps
    called_back = [function for side, function in crossings if side == "store" and function != "<-"]
    assert called_back == ["wake", "hold"], steps
    # The write wakes the partner's hold, which only schedules its answer: the Api's hold,
    # called back from the match, never the front, never a task.
    wake = steps.index(("api/holds.py", "wake"))
    assert steps[wake - 1] == ("store/memory/match.py", "append"), steps
    back = next(n for n in range(wake, len(steps)) if layer(steps[n][0]) == "store")
    assert {layer(name) for name, _ in steps[wake:back]} == {"Api"}, steps
    # On the loop's next turn, once the mover's request is answered, the partner's answer
    # goes from the Api to the front and reads nothing more from the store.
    done = steps.index(("api/table.py", "reply"))
    assert steps[done - 1][0] == "http/front.py", steps
    assert {layer(name) for name, _ in steps[done:]} <= {"Api", "front", None}, steps
