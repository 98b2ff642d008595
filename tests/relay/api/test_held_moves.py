"""A move post with ?wait= is held like an event poll: it counts toward --polls-per-seat and
relay_held_polls, on the memory store (its callback path) and on Redis, through a real relay
process and the in-process aiohttp application."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from relay import Config, create_app
from tests.support.redis_server import session_redis
from tests.support.relay_process import RelayProcess, quick_flags


class Wire:
    """A client of one relay: seeks, posts and polls with a seat's token."""

    def __init__(self, session: Any, url: str = "") -> None:
        self.session, self.url = session, url

    async def pair(self, room: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Pairs two seats in a private room; returns (seat to move, the other)."""
        seats = []
        for _ in range(2):
            async with self.session.post(
                self.url + "/v1/seek", json={"game": "held", "room": room}
            ) as answer:
                assert answer.status == 201, await answer.text()
                seats.append(await answer.json())
        first = (await self.events(seats[0], 0))["events"][0]["first"]
        return (seats[0], seats[1]) if first == seats[0]["seat"] else (seats[1], seats[0])

    async def events(self, seat: dict[str, Any], after: int) -> dict[str, Any]:
        """Polls the seat's match for the events above after."""
        return await self.call("GET", seat, f"events?after={after}")

    async def call(
        self, method: str, seat: dict[str, Any], path: str, body: Any = None
    ) -> dict[str, Any]:
        """Makes one call with the seat's token; returns the status and the JSON body."""
        async with self.session.request(
            method,
            f"{self.url}/v1/matches/{seat['match']}" + (f"/{path}" if path else ""),
            json=body,
            headers={"Authorization": f"Bearer {seat['token']}"},
        ) as answer:
            found: dict[str, Any] = await answer.json()
            found["status"] = answer.status
            return found

    async def until_held(self, count: int) -> None:
        """Returns once relay_held_polls reads count (for up to 4 s)."""
        for _ in range(200):
            if await self.held_polls() == count:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"relay_held_polls never read {count}")

    async def held_polls(self) -> int:
        """Returns the relay's relay_held_polls gauge."""
        async with self.session.get(self.url + "/metrics") as answer:
            text = await answer.text()
        found = re.search(r"^relay_held_polls (\d+)", text, re.M)
        assert found, text
        return int(found.group(1))


@pytest.fixture(params=["app", "memory", "redis"])
async def wire(request: pytest.FixtureRequest, aiohttp_client: Any) -> AsyncIterator[Wire]:
    """Yields a client of a relay allowing one held request per seat: the in-process app,
    a relay process on the memory store, and one on Redis."""
    if request.param == "app":
        client = await aiohttp_client(create_app(Config(hold=5.0, polls_per_seat=1)))
        yield Wire(client)
        return
    store = session_redis(request).unix_url if request.param == "redis" else "memory"
    with RelayProcess(*quick_flags(), "--polls-per-seat", "1", "--store", store) as relay:
        timeout = aiohttp.ClientTimeout(total=10)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            yield Wire(session, relay.url)


async def test_held_move_post_counts_as_a_held_poll_of_its_seat(wire: Wire) -> None:
    x, o = await wire.pair(f"counted-{id(wire)}")
    async with asyncio.timeout(8):
        post = asyncio.create_task(wire.call("POST", x, "moves?wait=5", {"after": 1, "move": "a"}))
        await wire.until_held(1)
        # The seat holds its one allowed request: a poll is refused, the partner's is not.
        refused = await wire.events(x, 2)
        assert refused["status"] == 429 and refused["error"]["code"] == "limit/polls"
        reply = await wire.call("POST", o, "moves", {"after": 2, "move": "b"})
        assert reply == {"status": 200, "seq": 3}
        answered = await post
        assert answered["seq"] == 2
        assert [event["move"] for event in answered["events"]] == ["b"]
        assert await wire.held_polls() == 0


async def test_held_move_post_past_the_limit_is_refused_with_nothing_applied(wire: Wire) -> None:
    x, _ = await wire.pair(f"refused-{id(wire)}")
    async with asyncio.timeout(8):
        poll = asyncio.create_task(wire.events(x, 1))
        await wire.until_held(1)
        refused = await wire.call("POST", x, "moves?wait=5", {"after": 1, "move": "a"})
        assert refused["status"] == 429 and refused["error"]["code"] == "limit/polls"
        info = await wire.call("GET", x, "")
        assert info["last"] == 1, info
        # The same move without a hold is applied, and answers the seat's held poll.
        assert await wire.call("POST", x, "moves", {"after": 1, "move": "a"}) == {
            "status": 200,
            "seq": 2,
        }
        assert [event["move"] for event in (await poll)["events"]] == ["a"]
        assert await wire.held_polls() == 0


async def test_move_post_with_wait_zero_answers_at_once_and_holds_nothing(wire: Wire) -> None:
    x, _ = await wire.pair(f"zero-{id(wire)}")
    async with asyncio.timeout(8):
        poll = asyncio.create_task(wire.events(x, 1))
        await wire.until_held(1)
        reply = await wire.call("POST", x, "moves?wait=0", {"after": 1, "move": "a"})
        assert reply == {"status": 200, "seq": 2, "events": []}
        await poll
