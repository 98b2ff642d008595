"""The push cost bench runs: a move's CPU with Web Push off and on, both measured, on the
memory store and on a Redis of the test's own."""

from __future__ import annotations

import subprocess
import time

import pytest
import redis

from bench import push_cost
from tests.support.ports import free_port

pytestmark = pytest.mark.timeout(60)


def test_the_bench_measures_a_move_with_push_off_and_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(push_cost, "MOVES", 300)
    monkeypatch.setattr(push_cost, "ROUNDS", 1)
    figures = push_cost.measure()
    assert set(figures) == {"off", "on"}
    assert all(0 < value < 10_000 for value in figures.values())


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url).ping())
    except redis.ConnectionError:
        return False


def test_the_bench_measures_a_move_script_on_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(push_cost, "MOVES", 200)
    port = free_port()  # a Redis of its own: the bench resets its statistics
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        url = f"redis://127.0.0.1:{port}/0"
        deadline = time.monotonic() + 10
        while not _answers(url):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        figures = push_cost.measure_redis(url, 1)
    finally:
        server.terminate()
        server.wait(10)
    assert set(figures) == {"off", "on"}
    assert all(0 < value < 10_000 for value in figures.values())
