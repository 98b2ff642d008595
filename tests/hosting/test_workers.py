"""`python -m relay --workers N` and the systemd unit: N processes, one Redis, no stickiness."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from relay.config import Config
from relay.workers import box_address, reachable, worker_address
from tests.hosting.stack import ROOT, UNIT, render, unit_command
from tests.relay.wire import Wire
from tests.support.components import require_binary
from tests.support.ports import free_ports
from tests.support.redis_server import RedisServer, redis_binary

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """Returns a redis-server of this test's own."""
    with RedisServer(redis_binary()) as server:
        yield server


def test_worker_addresses() -> None:
    config = Config(port=8081)
    assert worker_address(config, None, 3) == ["--port", "8083"]
    assert worker_address(config, "/run/mw/relay-{n}.sock", 2) == ["--unix", "/run/mw/relay-2.sock"]
    assert worker_address(config, "/run/mw/relay.sock", 2) == ["--unix", "/run/mw/relay.sock.2"]
    # The supervisor serves the box's metrics beside them, and reaches each worker.
    two = Config(port=8081, workers=2, host="0.0.0.0")
    assert box_address(two, None) == ("127.0.0.1", 8083)  # loopback unless told
    assert box_address(Config(port=8081, workers=2, host="::"), None) == ("::1", 8083)
    told = Config(port=8081, workers=2, host="0.0.0.0", metrics_host="10.0.0.11")
    assert box_address(told, None) == ("10.0.0.11", 8083)
    assert box_address(two, "/run/mw/relay-{n}.sock") == "/run/mw/relay-metrics.sock"
    assert box_address(two, "/run/mw/relay.sock") == "/run/mw/relay.sock.metrics"
    assert reachable(two, None, 2) == ("127.0.0.1", 8082)
    assert reachable(two, "/run/mw/relay-{n}.sock", 2) == "/run/mw/relay-2.sock"


@pytest.fixture
def three_workers(redis_server: RedisServer) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """Returns `python -m relay --workers 3` on three consecutive ports (the box's metrics on
    the fourth), and the first port."""
    base = free_ports(4)
    args = ["--workers", "3", "--host", "127.0.0.1", "--port", str(base)]
    args += ["--store", redis_server.url, "--hold", "5", "--grace", "30", "--no-access-log"]
    supervisor = subprocess.Popen([sys.executable, "-m", "relay", *args], cwd=ROOT)
    yield supervisor, base
    if supervisor.poll() is None:
        supervisor.kill()
        supervisor.wait(10)


async def test_workers_on_consecutive_ports_answer_any_request(
    three_workers: tuple[subprocess.Popen[bytes], int],
) -> None:
    supervisor, base = three_workers
    urls = [f"http://127.0.0.1:{port}" for port in range(base, base + 3)]
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            await _until_healthy(session, urls)
            wires = [Wire(session, url) for url in urls]
            # Seek on one process, join on another, hold a poll on the third.
            a = await wires[0].seek("workers")
            b = await wires[1].seek("workers")
            assert (a.match, b.seat) == (b.match, 1)
            # Seat 0 polls again, on the third, as a live client does: that starts the match.
            first = (await wires[2].events(a.match, 0, a))[0]["first"]
            mover = a if first == a.seat else b
            held = asyncio.create_task(wires[2].events(a.match, 1, b if mover is a else a))
            await asyncio.sleep(0.2)
            sent = time.monotonic()
            status, _ = await wires[0].post(mover, "moves", {"after": 1, "move": "across"})
            assert status == 200
            events = await held
            assert time.monotonic() - sent < 1.0
            assert events[0]["move"] == "across"
            # The port after the workers' is the supervisor's: one scrape, the whole box.
            async with session.get(f"http://127.0.0.1:{base + 3}/metrics") as answer:
                assert answer.status == 200
                box = await answer.text()
            assert "\nrelay_moves_relayed_total 1.0\n" in box
            assert '\nrelay_workers{state="answered"} 3.0\n' in box
    finally:
        supervisor.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(supervisor.wait, 30)
    assert code == 0
    # No worker outlives the supervisor.
    for port in range(base, base + 4):
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            pass


@pytest.fixture
def box_on_127_0_0_2(redis_server: RedisServer) -> Iterator[int]:
    """Runs `python -m relay --workers 2 --host 127.0.0.2`; returns its first port."""
    base = free_ports(3)
    args = ["--workers", "2", "--host", "127.0.0.2", "--port", str(base)]
    args += ["--store", redis_server.url, "--no-access-log"]
    supervisor = subprocess.Popen([sys.executable, "-m", "relay", *args], cwd=ROOT)
    yield base
    supervisor.terminate()
    supervisor.wait(20)


async def test_the_box_metrics_are_served_on_loopback_unless_told(box_on_127_0_0_2: int) -> None:
    base = box_on_127_0_0_2
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
        await _until_healthy(session, [f"http://127.0.0.2:{base}", f"http://127.0.0.2:{base + 1}"])
        deadline = time.monotonic() + 20
        while True:
            try:
                async with session.get(f"http://127.0.0.1:{base + 2}/metrics") as answer:
                    text = await answer.text()
                    break
            except aiohttp.ClientConnectorError:
                assert time.monotonic() < deadline, "the box's metrics did not come up"
                await asyncio.sleep(0.05)
        assert answer.status == 200 and "relay_moves_relayed_total" in text
        # Not on the workers' own address: a scraper elsewhere is let in only when named.
        with pytest.raises(aiohttp.ClientConnectorError):
            await session.get(f"http://127.0.0.2:{base + 2}/metrics")


async def _until_healthy(session: aiohttp.ClientSession, urls: list[str]) -> None:
    deadline = time.monotonic() + 20
    for url in urls:
        while True:
            try:
                async with session.get(url + "/healthz") as answer:
                    if answer.status == 200:
                        break
            except aiohttp.ClientError:
                pass
            assert time.monotonic() < deadline, f"{url} did not come up"
            await asyncio.sleep(0.05)


@pytest.mark.parametrize(("workers", "prefix"), [(2, ""), (6, "/games")])
def test_the_systemd_unit_passes_systemd_analyze(tmp_path: Path, workers: int, prefix: str) -> None:
    analyze = require_binary("systemd-analyze", "systemd")
    unit = tmp_path / UNIT.name
    text = UNIT.read_text() if (workers, prefix) == (2, "") else render("systemd", workers, prefix)
    # Only the interpreter's path is this machine's; the rest is the unit a host installs.
    unit.write_text(text.replace("/opt/movewire/venv/bin/python", sys.executable))
    checked = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"--workers {workers} " in text


def test_the_unit_command_runs_workers_on_redis(tmp_path: Path) -> None:
    command = unit_command(tmp_path, "redis://127.0.0.1:1/0")
    # -P: the relay installed from the wheel runs, not the sources in WorkingDirectory.
    assert command[:4] == [sys.executable, "-P", "-m", "relay"]
    assert command[command.index("--workers") + 1] == "2"
    assert command[command.index("--unix") + 1] == f"{tmp_path}/relay-{{n}}.sock"
    assert command[command.index("--trusted-proxy") + 1] == "unix"
    assert "--no-pages" in command


def test_configure_refuses_bad_workers_and_prefixes() -> None:
    for args in (["nginx", "--workers", "0"], ["apache", "--prefix", "games"]):
        done = subprocess.run(
            [sys.executable, str(ROOT / "deploy" / "configure.py"), *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 2 and "error:" in done.stderr, done


def test_workers_import_the_relay_their_supervisor_runs(tmp_path: Path) -> None:
    # From the checkout, python -m relay runs its sources, and so do its workers; from any
    # other folder, or under -P, workers get -P, so an installed relay stays the one that runs.
    script = "from relay.workers import python_command; print(python_command()[1:])"
    for cwd, flags, expected in (
        (ROOT, [], "[]"),
        (tmp_path, [], "['-P']"),
        (ROOT, ["-P"], "['-P']"),
    ):
        done = subprocess.run(
            [sys.executable, *flags, "-c", script],
            cwd=cwd, capture_output=True, text=True, timeout=30, check=True,
        )  # fmt: skip
        assert done.stdout.strip() == expected, (cwd, flags, done.stdout, done.stderr)
