"""End to end on the real stack: nginx with the shipped site, relay workers as the systemd
unit runs them, and redis-server; SDK hosts play through nginx, with faults injected."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import orjson
import pytest

from tests.hosting.players import (
    Run,
    check_gzipped_pages,
    check_logs,
    check_pages,
    play_matches,
    seek_statuses,
)
from tests.hosting.stack import Nginx, Workers, make_pages, render, unix_get
from tests.support.components import require_binary
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import quick_flags

RELAY_OPTIONS = quick_flags()
"""Short holds for quick tests; a grace long enough that faults never look like abandonment."""

pytestmark = pytest.mark.timeout(150)


@pytest.fixture
def pages() -> Iterator[Path]:
    """Returns a pages dir with a page only nginx can serve (the relays run --no-pages)."""
    folder = make_pages()
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """Returns a redis-server with AOF (fsync always), stopped after the test."""
    with RedisServer(redis_binary(), aof=True) as server:
        yield server


@pytest.fixture
def workers(redis_server: RedisServer) -> Iterator[Workers]:
    """Returns the relay workers of the shipped systemd unit, all on the test's Redis."""
    with Workers(redis_server.url, *RELAY_OPTIONS) as started:
        yield started


@pytest.fixture
def nginx(workers: Workers, pages: Path) -> Iterator[Nginx]:
    """Returns nginx running the shipped site in front of the workers."""
    server = Nginx(require_binary("nginx", "nginx"), workers, pages)
    checked = server.check()
    assert checked.returncode == 0, checked.stderr
    with server:
        yield server


async def test_100_matches_through_nginx_on_two_relay_processes(
    nginx: Nginx, workers: Workers
) -> None:
    assert workers.count >= 2 and len(workers.pids()) == workers.count
    started = time.monotonic()
    run = await play_matches(nginx.url, 100, "e2e")
    moves = await check_logs(nginx.url, run, 100)
    elapsed = time.monotonic() - started
    by_worker = workers.moves_by_worker()
    print(f"\n100 matches, {moves} moves through nginx in {elapsed:.1f} s; by worker {by_worker}")
    # Moves landed on every process: no process is special, no stickiness.
    assert all(count > 0 for count in by_worker)
    assert sum(by_worker) >= moves


async def test_nginx_serves_the_pages_and_the_relay_answers_v1(nginx: Nginx, pages: Path) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(nginx.url + "/") as answer:
            assert answer.status == 200
            assert await answer.read() == (pages / "index.html").read_bytes()
        async with session.get(nginx.url + "/v1/openapi.json") as answer:
            assert answer.status == 200
            assert "Content-Encoding" not in answer.headers  # the relay's JSON, as it is
            assert (await answer.json())["openapi"].startswith("3.1")
        async with session.get(nginx.url + "/v1/matches/nope/events?after=0") as answer:
            assert answer.status == 404
            assert (await answer.json())["error"]["code"] == "match/unknown"
    assert await check_pages(nginx.url) > 5
    assert await check_gzipped_pages(nginx.url) > 5


async def test_seek_limit_counts_the_client_behind_nginx(
    redis_server: RedisServer, pages: Path
) -> None:
    options = ("--hold", "5", "--grace", "30", "--seeks-per-minute", "2")
    with (
        Workers(redis_server.url, *options) as workers,
        Nginx(require_binary("nginx", "nginx"), workers, pages) as nginx,
    ):
        # Each process allows 2 seeks a minute per client address. Two clients behind one
        # nginx are two addresses; a client that claims to be others is still itself.
        for source in ("127.0.0.2", "127.0.0.3"):
            statuses = await seek_statuses(nginx.url, source, 2 * workers.count + 1)
            assert statuses[0] == 201, (source, statuses)
            assert statuses.count(201) <= 2 * workers.count
            assert 429 in statuses, (source, statuses)


async def test_kill_9_of_one_relay_process_loses_nothing(nginx: Nginx, workers: Workers) -> None:
    run = Run(milestone=60)
    playing = asyncio.create_task(play_matches(nginx.url, 40, "kill", run=run))
    async with asyncio.timeout(60):
        await run.reached.wait()
    victim_socket, victim = next(iter(workers.pids().items()))
    os.kill(victim, signal.SIGKILL)
    killed_at = run.moves
    async with asyncio.timeout(100):
        await playing
    moves = await check_logs(nginx.url, run, 40)
    print(
        f"\nkill -9 of pid {victim} after {killed_at} moves: all 40 matches completed, "
        f"{moves} moves, {run.retries} requests retried"
    )
    assert killed_at < moves
    # The supervisor started the worker again, on the same socket.
    await asyncio.to_thread(workers.wait_restarted, victim_socket, victim)
    assert "exited with -9; restarting" in workers.log()


async def test_a_rolling_restart_on_sighup_loses_nothing(nginx: Nginx, workers: Workers) -> None:
    before = workers.pids()
    assert len(before) == workers.count
    restarted = asyncio.Event()
    logged = nginx.forwarded_log.read_text().count("\n")

    def logged_done() -> None:
        deadline = time.monotonic() + 60
        while "every worker restarted" not in workers.log():
            assert time.monotonic() < deadline, workers.log()
            time.sleep(0.05)

    async def restart() -> None:
        assert workers.proc is not None
        workers.proc.send_signal(signal.SIGHUP)
        await asyncio.to_thread(logged_done)
        restarted.set()

    # Waves of matches, seeking throughout the restart and one wave after it.
    runs: list[Run] = []
    rolling = asyncio.create_task(restart())
    async with asyncio.timeout(120):
        while not restarted.is_set() or len(runs) < 2:
            done_before = restarted.is_set()
            runs.append(await play_matches(nginx.url, 10, f"roll{len(runs)}"))
            if done_before:
                break
    await rolling
    for run in runs:
        await check_logs(nginx.url, run, 10)
    after = workers.pids()
    assert set(after) == set(before)
    # Every worker is a new process, and the box answered throughout: no match was lost.
    assert not set(after.values()) & set(before.values()), (before, after)
    assert workers.log().count("stopped for the restart") == workers.count
    retries = sum(run.retries for run in runs)
    print(f"\nrolling restart: {len(runs)} waves of 10 matches, {retries} requests retried")
    # No client was answered 503: a poll at a worker shutting down is answered at once and
    # its connection closed, and the next one goes to a worker that is up.
    answered = nginx.forwarded_log.read_text().splitlines()[logged:]
    refused = [line for line in answered if line.startswith(("502 ", "503 "))]
    assert refused == [], refused[:5]


async def test_redis_restart_with_aof_mid_run_loses_nothing(
    nginx: Nginx, redis_server: RedisServer
) -> None:
    run = Run(milestone=20)
    playing = asyncio.create_task(play_matches(nginx.url, 40, "restart", run=run))
    async with asyncio.timeout(60):
        await run.reached.wait()
    restarted_at = run.moves
    # Killed at once (with appendfsync always, every write it acknowledged is in its AOF)
    # while most moves are still to come, down for a second, so that relays answer 503 and
    # clients retry, then back with its AOF.
    await asyncio.to_thread(redis_server.stop, signal.SIGKILL)
    await asyncio.sleep(1.0)
    await asyncio.to_thread(redis_server.start)
    async with asyncio.timeout(100):
        await playing
    moves = await check_logs(nginx.url, run, 40)
    print(
        f"\nredis-server restarted after {restarted_at} moves: all 40 matches completed, "
        f"{moves} moves, {run.retries} requests retried"
    )
    assert restarted_at < moves
    assert run.retries > 0  # the outage was felt, and overcome


async def test_unreachable_redis_is_503_until_it_returns(
    nginx: Nginx, workers: Workers, redis_server: RedisServer
) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(nginx.url + "/v1/seek", json={"game": "outage"}) as answer:
            assert answer.status == 201
            ticket = await answer.json()
        redis_server.stop()
        for method, path in [
            ("GET", "/healthz"),
            ("POST", "/v1/seek"),
            ("GET", f"/v1/matches/{ticket['match']}/events?after=0"),
        ]:
            async with session.request(
                method, nginx.url + path, json={"game": "outage"} if method == "POST" else None
            ) as answer:
                assert answer.status == 503, (path, await answer.text())
                assert answer.headers["Retry-After"] == "1"
                error = orjson.loads(await answer.read())["error"]
                assert error["code"] == "server/unavailable"
                assert "Redis" in error["message"]
        for socket_path in workers.sockets:
            assert unix_get(socket_path, "/healthz")[0] == 503
        redis_server.start()
        # Nobody restarts the relays: they recover by themselves.
        deadline = time.monotonic() + 10
        while not workers.healthy():
            assert time.monotonic() < deadline, workers.log()
            await asyncio.sleep(0.1)
        async with session.get(
            f"{nginx.url}/v1/matches/{ticket['match']}/events?after=0&wait=0",
            headers={"Authorization": f"Bearer {ticket['token']}"},
        ) as answer:
            assert answer.status == 200
    run = await play_matches(nginx.url, 5, "after-outage")
    await check_logs(nginx.url, run, 5)


async def test_three_workers_under_a_path_prefix_behind_nginx(
    redis_server: RedisServer, pages: Path
) -> None:
    # The files a host writes with `deploy/configure.py --workers 3 --prefix /games`.
    unit = render("systemd", 3, "/games")
    with (
        Workers(redis_server.url, *RELAY_OPTIONS, unit=unit) as workers,
        Nginx(
            require_binary("nginx", "nginx"), workers, pages, site=render("nginx", 3, "/games")
        ) as nginx,
    ):
        assert (workers.count, workers.prefix) == (3, "/games")
        run = await play_matches(nginx.url + "/games", 30, "prefixed")
        await check_logs(nginx.url + "/games", run, 30)
        assert all(count > 0 for count in workers.moves_by_worker())
        async with aiohttp.ClientSession() as session:
            async with session.get(nginx.url + "/games/healthz") as answer:
                assert answer.status == 200
            async with session.get(nginx.url + "/v1/openapi.json") as answer:
                assert answer.status == 404  # only /games/ is the relay now
