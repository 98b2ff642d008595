"""The Redis password stays out of `ps` and out of the log: the store URL can come from a
file or the environment, workers get it in their environment, and every log line and error
shows it masked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from relay.store.open import masked
from tests.support.ports import free_ports
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import quick_flags
from tests.support.relay_zygote import run

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]

PASSWORD = "s3cret-Pa55word-for-the-test"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:pw@host:6379/0", "redis://:***@host:6379/0"),
        ("redis://user:pw@host:6379/0", "redis://user:***@host:6379/0"),
        ("redis://user@host:6379/0", "redis://user@host:6379/0"),
        ("rediss://:p%40w@host:6380/0?ssl_ca_certs=/ca.pem", "rediss://:***@host:6380/0?ssl_ca_certs=/ca.pem"),
        ("unix:///run/redis.sock?password=pw&db=1", "unix:///run/redis.sock?password=***&db=1"),
        ("redis+sentinel://:pw@h1:26379,h2:26379/main", "redis+sentinel://:***@h1:26379,h2:26379/main"),
        ("redis://h:1/0?sentinel_password=pw", "redis://h:1/0?sentinel_password=***"),
        ("memory", "memory"),
    ],
)  # fmt: skip
def test_a_store_url_is_shown_with_its_password_masked(url: str, shown: str) -> None:
    assert masked(url) == shown


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    with RedisServer(redis_binary(), password=PASSWORD) as server:
        yield server


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _cmdline(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def _seek(port: int, room: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/seek",
        data=orjson.dumps({"game": "secrets", "room": room}),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        status: int = answer.status
        return status


@pytest.mark.parametrize("given", ["file", "environment", "command line"])
def test_two_workers_on_a_password_redis_show_the_password_to_no_one(
    given: str, redis_server: RedisServer, tmp_path: Path
) -> None:
    port = free_ports(3)  # two workers and the box's metrics, on the port after theirs
    args = [sys.executable, "-m", "relay", "--workers", "2", "--host", "127.0.0.1",
            "--port", str(port), "--no-pages", *quick_flags()]  # fmt: skip
    env = dict(os.environ)
    if given == "file":
        secret_file = tmp_path / "store-url"
        secret_file.write_text(redis_server.url + "\n")
        secret_file.chmod(0o600)
        args += ["--store-file", str(secret_file)]
    elif given == "environment":
        env["MOVEWIRE_STORE"] = redis_server.url
    else:
        args += ["--store", redis_server.url]
    log = tmp_path / "relay.log"
    with log.open("wb") as out:
        supervisor = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while not (_healthy(port) and _healthy(port + 1)):
            assert supervisor.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        # Both workers reach the password-protected Redis: a seek on each pairs them.
        assert _seek(port, "room") == 201
        assert _seek(port + 1, "room") == 201
        workers = _children(supervisor.pid)
        assert len(workers) == 2
        for pid in workers:
            assert PASSWORD.encode() not in _cmdline(pid), pid
        # Nor the supervisor's: a password given on its command line is masked there.
        assert PASSWORD.encode() not in _cmdline(supervisor.pid)
        if given == "command line":
            assert b"redis://:***@127.0.0.1" in _cmdline(supervisor.pid)
    finally:
        supervisor.send_signal(signal.SIGTERM)
        supervisor.wait(20)
    text = log.read_text()
    assert "redis://:***@127.0.0.1" in text  # each process's start-up line, masked
    assert text.count("relay listening on") == 2
    assert PASSWORD not in text


def _refused(*args: str) -> str:
    """Runs the relay with args, which it must refuse (exit 2); returns what it printed."""
    done = run([sys.executable, "-m", "relay", *args], cwd=ROOT, timeout=30)
    assert done.returncode == 2, done.stderr
    return done.stderr


def test_an_unknown_store_is_refused_with_its_password_masked() -> None:
    stderr = _refused("--store", f"mongodb://:{PASSWORD}@host/db")
    assert "unknown store 'mongodb://:***@host/db'" in stderr
    assert PASSWORD not in stderr


def test_an_unreadable_store_file_is_refused_by_name(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    stderr = _refused("--store-file", str(missing))
    assert f"cannot read --store-file '{missing}'" in stderr
