"""The pipelined Redis connection: answers in order, batches made while it opens kept, and a
connection lost, refused or hung under calls in flight fails every one of them with a
connection error (which the store answers with 503, never 500); the next call reconnects."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from relay.store.redis.dial import Dial
from relay.store.redis.pipe import Pipe
from tests.support.redis_server import RedisServer, until_blocked

pytestmark = pytest.mark.timeout(30)


class _Connections:
    """Opens the pipe's connections to the test's Redis, and counts them."""

    def __init__(self, server: RedisServer) -> None:
        self.dial = Dial(path=server.socket, client_name="pipe-test")
        self.made = 0

    async def __call__(self, protocol: asyncio.Protocol) -> tuple[asyncio.Transport, Any]:
        self.made += 1
        return await self.dial.open(protocol)


async def _held(pipe: Pipe, server: RedisServer, seconds: str) -> asyncio.Task[list[Any]]:
    """Returns a call in flight: a BLPOP that Redis holds for `seconds` (waited on by then)."""
    held = asyncio.create_task(pipe.run([("BLPOP", "pipe:nothing", seconds)]))
    await until_blocked(server.url)
    assert not held.done()
    return held


async def test_answers_come_in_order_and_batches_made_while_opening_are_kept(
    redis_server: RedisServer,
) -> None:
    connections = _Connections(redis_server)
    pipe = Pipe(connections)
    # Fifty batches in one loop turn, before the connection is open: one connection, each
    # batch its own answers, a refusal as its error.
    batches = [
        pipe.run([("SET", f"pipe:o{n}", str(n)), ("GET", f"pipe:o{n}"), ("INCR", "pipe:o0")])
        for n in range(50)
    ]
    answers = await asyncio.gather(*batches)
    assert connections.made == 1
    for n, (done, value, counted) in enumerate(answers[1:], start=1):
        assert (done, value) == (b"OK", str(n).encode())
        assert isinstance(counted, ResponseError) or counted > 0
    assert isinstance(answers[0][2], int)  # pipe:o0 was set to "0" before its INCR
    [refused] = await pipe.run([("HGET", "pipe:o1", "f")])
    assert isinstance(refused, ResponseError) and "WRONGTYPE" in str(refused)
    await pipe.close()


async def test_a_write_refused_by_a_closed_transport_fails_every_call_in_flight_as_lost(
    redis_server: RedisServer,
) -> None:
    connections = _Connections(redis_server)
    pipe = Pipe(connections)
    assert await pipe.run([("SET", "pipe:k", "v")]) == [b"OK"]
    held = await _held(pipe, redis_server, "1")

    # The node dies and uvloop closes the transport before the pipe hears of it: the next
    # write is refused with a RuntimeError (as a cluster failover test saw).
    real = pipe._transport
    assert real is not None
    closing = real.abort

    class Refusing:
        def is_closing(self) -> bool:
            return False

        def write(self, data: bytes) -> None:
            raise RuntimeError("unable to perform operation on <TCPTransport closed=True>")

        def abort(self) -> None:
            closing()

    pipe._transport = Refusing()  # type: ignore[assignment]
    with pytest.raises(RedisConnectionError):
        await pipe.run([("GET", "pipe:k")])
    # The call in flight learns of a lost connection too, not of the RuntimeError.
    with pytest.raises(RedisConnectionError):
        await held
    # And the next call connects again.
    assert await pipe.run([("GET", "pipe:k")]) == [b"v"]
    assert connections.made == 2
    await pipe.close()


async def test_a_connection_redis_closes_fails_the_calls_in_flight_and_the_next_reconnects(
    redis_server: RedisServer,
) -> None:
    connections = _Connections(redis_server)
    pipe = Pipe(connections)
    assert await pipe.run([("SET", "pipe:c", "1")]) == [b"OK"]
    held = await _held(pipe, redis_server, "5")
    admin = redis.asyncio.Redis(unix_socket_path=redis_server.socket)
    try:
        assert await admin.client_kill_filter(_type="normal", skipme=True) >= 1
    finally:
        await admin.aclose()
    with pytest.raises(RedisConnectionError):
        await asyncio.wait_for(held, 2)
    assert await pipe.run([("GET", "pipe:c")]) == [b"1"]
    assert connections.made == 2
    await pipe.close()


async def test_a_redis_that_hangs_is_given_up_after_the_stall_and_the_next_call_reconnects(
    redis_server: RedisServer,
) -> None:
    connections = _Connections(redis_server)
    pipe = Pipe(connections, stall=0.3)
    assert await pipe.run([("SET", "pipe:h", "1")]) == [b"OK"]
    admin = redis.asyncio.Redis(unix_socket_path=redis_server.socket)
    try:
        await admin.execute_command("CLIENT", "PAUSE", "1500", "ALL")  # type: ignore[no-untyped-call]
        with pytest.raises(RedisTimeoutError):
            await asyncio.wait_for(pipe.run([("GET", "pipe:h")]), 3)
        await admin.execute_command("CLIENT", "UNPAUSE")  # type: ignore[no-untyped-call]
    finally:
        await admin.aclose()
    assert await pipe.run([("GET", "pipe:h")]) == [b"1"]
    assert connections.made == 2
    await pipe.close()


async def test_close_waits_for_the_answers_in_flight(redis_server: RedisServer) -> None:
    pipe = Pipe(_Connections(redis_server))
    waiting = await _held(pipe, redis_server, "0.5")
    await pipe.close()
    assert await waiting == [None]  # answered (a timed-out BLPOP), not failed
    # A closed pipe opens again when used.
    assert await pipe.run([("PING",)]) == [b"PONG"]
    await pipe.close()


async def test_an_unreachable_redis_fails_the_queued_calls_with_a_connection_error(
    redis_server: RedisServer,
) -> None:
    pipe = Pipe(Dial(path=redis_server.socket + ".absent").open)
    results = await asyncio.gather(
        pipe.run([("PING",)]), pipe.run([("PING",)]), return_exceptions=True
    )
    assert all(isinstance(result, RedisConnectionError) for result in results), results
    await pipe.close()
