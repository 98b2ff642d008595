"""Held spectator polls are bounded per client address and counted in relay_held_polls, and
the rate limiter makes room for a flood of new addresses without looking over every client
at each one."""

from __future__ import annotations

import asyncio
from typing import Any

from relay.api.limits import RateLimiter
from tests.relay.conftest import Make


async def _pair(client: Any) -> str:
    seats = []
    for _ in range(2):
        answer = await client.post("/v1/seek", json={"game": "held", "room": "watched"})
        assert answer.status == 201, await answer.text()
        seats.append(await answer.json())
    match: str = seats[0]["match"]
    # Seat 0 polls again, as a live client does: that starts the paired match. Answered at
    # once (the started event), it holds no place when the spectators come.
    opener = {"Authorization": f"Bearer {seats[0]['token']}"}
    answer = await client.get(f"/v1/matches/{match}/events?after=0&wait=0", headers=opener)
    assert [event["type"] for event in (await answer.json())["events"]] == ["started"]
    return match


async def _until_held(client: Any, wanted: float) -> None:
    """Waits, at most 5 s, until relay_held_polls says `wanted`."""
    for _ in range(100):
        if await _held_polls(client) == wanted:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"relay_held_polls is {await _held_polls(client)}, not {wanted}")


async def _held_polls(client: Any) -> float:
    text = await (await client.get("/metrics")).text()
    line = next(line for line in text.splitlines() if line.startswith("relay_held_polls "))
    return float(line.split()[1])


async def test_spectator_polls_per_client_are_limited_and_counted(make: Make) -> None:
    client = await make(polls_per_seat=1, hold=5.0)
    match = await _pair(client)
    url = f"/v1/matches/{match}/events?after=1"
    # 8 x --polls-per-seat spectator polls from one address are held...
    held = [asyncio.create_task(client.get(url)) for _ in range(8)]
    await _until_held(client, 8)
    # ...and one more is refused, as a seat's poll past its limit is.
    answer = await client.get(url)
    assert answer.status == 429, await answer.text()
    assert (await answer.json())["error"]["code"] == "limit/polls"
    assert "Retry-After" in answer.headers
    assert await _held_polls(client) == 8
    for task in held:
        task.cancel()
    await asyncio.gather(*held, return_exceptions=True)
    await _until_held(client, 0)
    # Places freed, a spectator is held again.
    again = asyncio.create_task(client.get(url))
    await _until_held(client, 1)
    again.cancel()
    await asyncio.gather(again, return_exceptions=True)


def test_a_flood_of_new_addresses_costs_the_limiter_a_tenth_of_a_look_each() -> None:
    limiter = RateLimiter(rate=1.0, burst=2.0, max_clients=1000)
    for n in range(1000):
        assert limiter.take(f"10.0.{n // 256}.{n % 256}", 0.0) == 0.0
    assert limiter.sweeps == 0
    # A thousand more addresses within the refill window: no bucket has refilled.
    for n in range(1000):
        assert limiter.take(f"10.9.{n // 256}.{n % 256}", 0.5) == 0.0
    assert limiter.sweeps <= 10, limiter.sweeps  # one look made room for a tenth
    # A client still known keeps its bucket: it is refused until its tokens come back.
    recent = "10.9.3.231"
    assert limiter.take(recent, 0.5) == 0.0
    assert limiter.take(recent, 0.5) > 0.0


def test_refilled_clients_are_dropped_before_any_other() -> None:
    limiter = RateLimiter(rate=1.0, burst=2.0, max_clients=100)
    for n in range(100):
        limiter.take(f"old-{n}", 0.0)
    limiter.take("busy", 10.0)  # evicts nothing yet: a place was made for it
    limiter.take("busy", 10.0)
    assert limiter.take("busy", 10.0) > 0.0  # over its burst
    for n in range(50):
        limiter.take(f"new-{n}", 10.0)
    # The old clients had refilled (2 s), so they made the room; the busy one is remembered.
    assert limiter.take("busy", 10.0) > 0.0
