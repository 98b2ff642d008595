"""The store's own Redis connections (relay.store.redis.dial): opened as redis-py's options
say (unix socket, TCP, TLS from a rediss:// URL, a password, a database, a client name), and
error replies read as the exceptions redis-py's parser gives them (relay.store.redis.wire)."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import (
    AskError,
    AuthenticationError,
    BusyLoadingError,
    ClusterDownError,
    MasterDownError,
    MovedError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

from relay.core.errors import RelayError
from relay.core.model import StoreSettings
from relay.store.open import open_store
from relay.store.redis.dial import Dial, dial_for, dial_of
from relay.store.redis.pipe import Pipe
from relay.store.redis.refusals import DOWN, loading
from relay.store.redis.store import RedisStore
from relay.store.redis.wire import error_of
from tests.support.components import require_binary
from tests.support.redis_server import RedisServer, redis_binary

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    ("reply", "kind", "text"),
    [
        ("MOVED 3999 127.0.0.1:6381", MovedError, "3999 127.0.0.1:6381"),
        ("ASK 3999 127.0.0.1:6381", AskError, "3999 127.0.0.1:6381"),
        ("LOADING Redis is loading the dataset in memory", BusyLoadingError, None),
        ("READONLY You can't write against a read only replica.", ReadOnlyError, None),
        ("NOSCRIPT No matching script.", NoScriptError, None),
        ("OOM command not allowed when used memory > 'maxmemory'.", OutOfMemoryError, None),
        ("CLUSTERDOWN The cluster is down", ClusterDownError, None),
        ("TRYAGAIN Multiple keys request during rehashing of slot", TryAgainError, None),
        ("MASTERDOWN Link with MASTER is down", MasterDownError, None),
        ("NOAUTH Authentication required.", AuthenticationError, None),
        ("WRONGPASS invalid username-password pair", AuthenticationError, None),
        ("ERR Function not found", ResponseError, "Function not found"),
        ("ERR invalid password", AuthenticationError, "invalid password"),
        ("WRONGTYPE Operation against a key", ResponseError, "WRONGTYPE Operation against a key"),
        ("NOREPLICAS Not enough good replicas to write.", ResponseError, None),
        ("BUSY Redis is busy running a script.", ResponseError, None),
    ],
)
def test_an_error_reply_is_the_exception_redis_py_gives_it(
    reply: str, kind: type[Exception], text: str | None
) -> None:
    error = error_of(reply)
    assert type(error) is kind
    code, _, rest = reply.partition(" ")
    unmapped = code in ("WRONGTYPE", "NOREPLICAS", "BUSY")
    assert str(error) == (text if text is not None else reply if unmapped else rest)
    if isinstance(error, AskError):  # MOVED too: the cluster code follows it
        assert (error.slot_id, error.host, error.port) == (3999, "127.0.0.1", 6381)
    # The store answers 503 for Redis that cannot take the call now.
    if code in ("LOADING", "READONLY", "CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "NOREPLICAS"):
        assert isinstance(error, DOWN) or (isinstance(error, ResponseError) and loading(error))


def test_options_redis_py_leaves_unset_are_not_taken_for_values() -> None:
    # redis-py 8's cluster nodes carry a marker object for keepalive options left unset.
    options = {"host": "h", "port": "7001", "socket_keepalive_options": object(), "db": None}
    dial = dial_of(aioredis.Connection, options)
    assert (dial.host, dial.port, dial.db, dial.keepalive, dial.path, dial.tls) == (
        "h", 7001, 0, None, None, None,
    )  # fmt: skip
    tcp = {socket.TCP_KEEPIDLE: 30}
    assert dial_of(aioredis.Connection, {"socket_keepalive_options": tcp}).keepalive == tcp


async def _info(pipe: Pipe) -> dict[str, str]:
    [info] = await pipe.run([("CLIENT", "INFO")])
    text = info if isinstance(info, str) else info.decode()
    return dict(field.split("=", 1) for field in text.split())


async def test_a_pool_url_gives_the_socket_database_client_name_and_decoding() -> None:
    with RedisServer(redis_binary()) as server:
        for url in (
            f"{server.unix_url}?db=3&client_name=dialled",
            f"redis://127.0.0.1:{server.port}/3?client_name=dialled",
        ):
            client = aioredis.Redis.from_url(url, decode_responses=True)
            pipe = Pipe(dial_for(client.connection_pool).open)
            try:
                info = await _info(pipe)
                assert (info["db"], info["name"]) == ("3", "dialled")
                assert await pipe.run([("SET", "dial:k", "é"), ("GET", "dial:k")]) == ["OK", "é"]
            finally:
                await pipe.close()
                await client.aclose()


async def test_a_password_is_given_on_every_connection_and_a_wrong_one_is_refused() -> None:
    with RedisServer(redis_binary(), password="s3cret") as server:
        client = aioredis.Redis.from_url(server.url)
        pipe = Pipe(dial_for(client.connection_pool).open)
        try:
            assert await pipe.run([("PING",)]) == [b"PONG"]
            admin = aioredis.Redis(unix_socket_path=server.socket, password="s3cret")
            try:
                assert await admin.client_kill_filter(_type="normal", skipme=True) >= 1
            finally:
                await admin.aclose()
            for _ in range(50):  # the dropped connection may fail one call; the next AUTHs
                try:
                    assert await pipe.run([("PING",)]) == [b"PONG"]
                    break
                except RedisConnectionError:
                    await asyncio.sleep(0.05)
        finally:
            await pipe.close()
            await client.aclose()
        wrong = Pipe(Dial(port=server.port, host="127.0.0.1", password="wrong").open)
        with pytest.raises(AuthenticationError):
            await wrong.run([("PING",)])
        await wrong.close()


async def test_a_store_with_a_wrong_password_answers_503() -> None:
    with RedisServer(redis_binary(), password="s3cret") as server:
        url = server.url.replace("s3cret", "wrong")
        store = open_store(url, StoreSettings())
        assert isinstance(store, RedisStore)
        try:
            with pytest.raises(RelayError) as refused:
                await store.matches.seek("dial", "1", None, time.time())
            assert refused.value.status == 503
        finally:
            await store.close()


async def test_a_rediss_url_opens_the_connection_over_tls_trusting_its_ca() -> None:
    openssl = require_binary("openssl", "openssl")
    with RedisServer(redis_binary(), openssl=openssl) as server:
        client = aioredis.Redis.from_url(server.tls_url)
        dial = dial_for(client.connection_pool)
        assert dial.tls is not None
        pipe = Pipe(dial.open)
        try:
            assert await pipe.run([("PING",)]) == [b"PONG"]
        finally:
            await pipe.close()
            await client.aclose()
        # Without the CA the server's certificate is not trusted.
        untrusting = aioredis.Redis.from_url(f"rediss://127.0.0.1:{server.tls_port}/0")
        refused: Any = Pipe(dial_for(untrusting.connection_pool).open)
        with pytest.raises(RedisConnectionError):
            await refused.run([("PING",)])
        await refused.close()
        await untrusting.aclose()


async def test_a_transport_closed_under_a_plain_call_is_redis_away_not_a_crash() -> None:
    from relay.core.errors import RelayError
    from relay.core.model import StoreSettings
    from relay.store.redis.connection import Connection

    async def closed() -> None:
        # What uvloop raises when redis-py writes to a connection a killed node closed.
        raise RuntimeError("unable to perform operation on <TCPTransport>; the handler is closed")

    link = Connection(StoreSettings(), "p:", recheck=5.0, linger=1.0, url="redis://127.0.0.1:9")
    with pytest.raises(RelayError) as refused:
        await link.guard(closed())
    assert refused.value.code == "server/unavailable" and refused.value.retry_after
