"""Starts a real `redis-server` for tests (a unix socket and a free port in a temp dir).

The conformance suite's `fresh_redis_store` shares one server per test session; every store
it hands out has its own key prefix, so tests never see each other's matches."""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import pytest
import redis
import redis.asyncio as aioredis

from relay.core.model import StoreSettings
from relay.store.redis.store import RedisStore
from tests.support.components import require_binary
from tests.support.relay_process import free_port

__all__ = [
    "RedisServer",
    "fresh_redis_store",
    "session_redis",
    "subscribers",
    "until_blocked",
    "until_subscribers",
]


class RedisServer:
    """A redis-server subprocess with its data in a temp dir; use as a context manager.

    With aof=True it keeps an append-only file, so a restart keeps every match. With
    openssl (the path of the openssl tool) it also listens for TLS on tls_port, with a
    self-signed certificate for 127.0.0.1 made in its temp dir (tls_url trusts it)."""

    def __init__(
        self,
        binary: str,
        *,
        aof: bool = False,
        openssl: str | None = None,
        password: str | None = None,
    ) -> None:
        self.binary = binary
        self.password = password
        """The password clients must give (set once the server runs, so it is in no argv)."""
        self.aof = aof
        self.openssl = openssl
        self.tls_port = free_port() if openssl else 0
        self.dir = Path(tempfile.mkdtemp(prefix="movewire-redis-"))
        self.dir.chmod(0o755)
        self.port = free_port()
        self.socket = str(self.dir / "redis.sock")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Returns the redis:// URL of database 0 (with the password, if any)."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    @property
    def tls_url(self) -> str:
        """Returns the rediss:// URL of database 0, trusting the server's own certificate."""
        return f"rediss://127.0.0.1:{self.tls_port}/0?ssl_ca_certs={self.dir / 'cert.pem'}"

    @property
    def unix_url(self) -> str:
        """Returns the unix:// URL of the server's socket."""
        return f"unix://{self.socket}"

    def start(self, timeout: float = 10.0) -> RedisServer:
        """Starts the server and waits until it answers PING (and has loaded its data)."""
        args = [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--unixsocket", self.socket,
            "--unixsocketperm", "777",
            "--dir", str(self.dir),
            "--save", "",
            "--appendonly", "yes" if self.aof else "no",
            "--appendfsync", "always",
            "--daemonize", "no",
            "--logfile", str(self.dir / "redis.log"),
        ]  # fmt: skip
        if self.openssl:
            args += self._tls_args(self.openssl)
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        client = redis.Redis(unix_socket_path=self.socket, socket_timeout=1)
        try:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"redis-server exited: {self.log()}")
                try:
                    if client.ping():
                        if self.password:
                            client.config_set("requirepass", self.password)
                        return self
                except redis.RedisError:
                    time.sleep(0.02)
        finally:
            client.close()
        self.stop()
        raise RuntimeError(f"redis-server did not answer within {timeout} s: {self.log()}")

    def _tls_args(self, openssl: str) -> list[str]:
        """Makes the certificate (once) and returns the server's TLS options."""
        cert, key = self.dir / "cert.pem", self.dir / "key.pem"
        if not cert.exists():
            subprocess.run(
                [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                 "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
                 "-addext", "subjectAltName=IP:127.0.0.1"],
                check=True, capture_output=True, timeout=30,
            )  # fmt: skip
            key.chmod(0o644)
        return ["--tls-port", str(self.tls_port), "--tls-cert-file", str(cert),
                "--tls-key-file", str(key), "--tls-ca-cert-file", str(cert),
                "--tls-auth-clients", "no"]  # fmt: skip

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10.0) -> None:
        """Stops the server by PID (SIGTERM, then SIGKILL; with AOF nothing written is lost)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def restart(self) -> None:
        """Stops the server and starts it again on the same port, socket and data."""
        self.stop()
        self.start()

    def log(self) -> str:
        """Returns what the server logged so far."""
        try:
            return (self.dir / "redis.log").read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def cleanup(self) -> None:
        """Stops the server and removes its data."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        try:
            return self.start()
        except BaseException:
            self.cleanup()
            raise

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.cleanup()


def redis_binary() -> str:
    """Returns the path of redis-server, installing Debian's package when missing."""
    return require_binary("redis-server", "redis-server")


_shared: list[RedisServer] = []
_prefixes = itertools.count()


def session_redis(request: pytest.FixtureRequest) -> RedisServer:
    """Returns the redis-server shared by this test session, started on first use."""
    if not _shared or _shared[0].proc is None or _shared[0].proc.poll() is not None:
        _shared.clear()
        server = RedisServer(redis_binary())
        request.config.add_cleanup(server.cleanup)
        _shared.append(server.start())
    return _shared[0]


async def fresh_redis_store(
    request: pytest.FixtureRequest, settings: StoreSettings, *, unix: bool = False
) -> RedisStore:
    """Returns an empty Redis store on the session's redis-server (a key prefix of its own)."""
    server = session_redis(request)
    prefix = f"test{os.getpid()}-{next(_prefixes)}:"
    return RedisStore.from_url(server.unix_url if unix else server.url, settings, prefix=prefix)


async def subscribers(url: str, channel: str) -> int:
    """Returns how many connections of the Redis at url are subscribed to a sharded channel."""
    client = aioredis.Redis.from_url(url)
    try:
        found = await client.execute_command("PUBSUB", "SHARDNUMSUB", channel)  # type: ignore[no-untyped-call, unused-ignore]
    finally:
        await client.aclose()
    return int(found[1])


async def until_subscribers(url: str, channel: str, count: int) -> None:
    """Returns once `count` connections are subscribed to the channel (within 5 s)."""
    for _ in range(250):
        if await subscribers(url, channel) == count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{channel} never had {count} subscribers")


async def until_blocked(url: str, count: int = 1) -> None:
    """Returns once `count` clients of the Redis at url wait in a blocking command such as
    BLPOP (within 5 s)."""
    client = aioredis.Redis.from_url(url)
    try:
        for _ in range(250):
            if (await client.info("clients"))["blocked_clients"] >= count:
                return
            await asyncio.sleep(0.02)
    finally:
        await client.aclose()
    raise AssertionError(f"no {count} client(s) blocked at {url} within 5 s")
