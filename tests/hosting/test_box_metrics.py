"""The box's /metrics behind the shipped nginx site: one scrape of one target is every
worker's, checked against the moves played, and no counter ever goes backwards, not even
across a worker killed with SIGKILL and started again by the supervisor."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hosting.players import check_logs, play_matches
from tests.hosting.stack import Nginx, Workers, make_pages
from tests.support.components import require_binary
from tests.support.metrics import Samples, get, samples
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import quick_flags

pytestmark = pytest.mark.timeout(150)


class Scrapes:
    """Every scrape of the box's /metrics through nginx, in order."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.taken: list[Samples] = []

    async def take(self) -> Samples:
        """Scrapes /metrics once; returns its samples."""
        status, content_type, text = await get(self.url + "/metrics")
        assert status == 200, text
        assert content_type == "text/plain"
        found = samples(text)
        self.taken.append(found)
        return found

    def check_counters_never_decrease(self) -> int:
        """Checks every counter series only grows from one scrape to the next; returns how
        many series it followed."""
        series = {name for taken in self.taken for name in taken if "_total" in name}
        for name in series:
            values = [taken[name] for taken in self.taken if name in taken]
            assert values == sorted(values), (name, values)
        return len(series)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """Returns a redis-server of this test's own."""
    with RedisServer(redis_binary()) as server:
        yield server


@pytest.fixture
def pages() -> Iterator[Path]:
    """Returns a copy of the pages nginx serves."""
    folder = make_pages()
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


MOVES = "relay_moves_relayed_total"


async def test_one_scrape_through_nginx_is_the_whole_box_and_never_goes_back(
    redis_server: RedisServer, pages: Path
) -> None:
    with (
        Workers(redis_server.url, *quick_flags()) as workers,
        Nginx(require_binary("nginx", "nginx"), workers, pages) as nginx,
    ):
        assert workers.count == 2
        scrapes = Scrapes(nginx.url)
        first = await scrapes.take()
        assert first[MOVES] == 0
        assert first['relay_workers{state="answered"}'] == 2

        run = await play_matches(nginx.url, 20, "box-first")
        played = await check_logs(nginx.url, run, 20)
        by_worker = workers.moves_by_worker()
        assert all(count > 0 for count in by_worker), by_worker  # both workers counted some
        assert sum(by_worker) == played
        for _ in range(4):  # successive scrapes of one target: the same whole box each time
            taken = await scrapes.take()
            assert taken[MOVES] == played, (taken[MOVES], played, by_worker)
            assert taken['relay_matches_ended_total{reason="agreed"}'] == 20
            assert taken['relay_matches{status="finished"}'] == 20

        # Worker 1 killed with SIGKILL: the box keeps its last totals while it is down, and
        # after the supervisor started it again (its own counters back at 0).
        victim_socket, victim = next(iter(workers.pids().items()))
        os.kill(victim, signal.SIGKILL)
        while_down = await scrapes.take()
        assert while_down[MOVES] == played
        await asyncio.to_thread(workers.wait_restarted, victim_socket, victim)
        restarted = await scrapes.take()
        assert restarted[MOVES] == played
        assert restarted["relay_worker_restarts_total"] == 1
        assert restarted['relay_workers{state="answered"}'] == 2
        assert min(workers.moves_by_worker()) == 0  # the new worker's own count began again

        run = await play_matches(nginx.url, 20, "box-second")
        played += await check_logs(nginx.url, run, 20)
        for _ in range(4):
            taken = await scrapes.take()
            assert taken[MOVES] == played
            assert taken['relay_matches_ended_total{reason="agreed"}'] == 40

        assert scrapes.check_counters_never_decrease() >= 4
        print(f"\n{len(scrapes.taken)} scrapes through nginx; {played} moves, a kill -9 between")

        # Private, as the shipped site says: from any address but the loopback one, 403.
        assert (await get(nginx.url + "/metrics", "127.0.0.2"))[0] == 403
        # So is the admin API: only from this machine does it reach a relay (404, no secret).
        assert (await get(nginx.url + "/v1/admin/bans", "127.0.0.2"))[0] == 403
        assert (await get(nginx.url + "/v1/admin/bans"))[0] == 404
