"""The pipelined Redis connection: a connection lost under calls in flight fails every one of
them with a connection error, which the store answers with 503, never 500."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio.connection import UnixDomainSocketConnection
from redis.exceptions import ConnectionError as RedisConnectionError

from relay.redis_pipe import Pipe, packing
from tests.support.redis_server import RedisServer

pytestmark = pytest.mark.timeout(30)


async def test_a_write_refused_by_a_closed_transport_fails_every_call_in_flight_as_lost(
    redis_server: RedisServer,
) -> None:
    connections: list[UnixDomainSocketConnection] = []

    def connect() -> UnixDomainSocketConnection:
        kind: Any = packing(UnixDomainSocketConnection)
        made = kind(path=redis_server.socket)
        assert isinstance(made, UnixDomainSocketConnection)
        connections.append(made)
        return made

    pipe = Pipe(connect)
    assert await pipe.run([("SET", "pipe:k", "v")]) == [b"OK"]
    # A call in flight: Redis holds its answer for a second.
    held = asyncio.create_task(pipe.run([("BLPOP", "pipe:nothing", "1")]))
    await asyncio.sleep(0.1)
    assert not held.done()

    # The node dies and uvloop closes the transport before the pipe's reader hears of it:
    # the next write is refused with a RuntimeError (as a cluster failover test saw).
    async def refused(*_: Any, **__: Any) -> None:
        raise RuntimeError("unable to perform operation on <TCPTransport closed=True>")

    connections[0].send_packed_command = refused  # type: ignore[method-assign]
    with pytest.raises(RedisConnectionError):
        await pipe.run([("GET", "pipe:k")])
    # The call in flight learns of a lost connection too, not of the RuntimeError.
    [answer] = await held
    assert isinstance(answer, RedisConnectionError), repr(answer)
    # And the next call connects again.
    assert await pipe.run([("GET", "pipe:k")]) == [b"v"]
    assert len(connections) == 2
    await pipe.close()
