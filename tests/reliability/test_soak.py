"""A short soak: continuous matches, every way a match ends, on a relay that forgets finished
matches after two seconds. After warm-up nothing grows: open files come back to where they
were, held polls to none, the store to empty, and resident memory stays within a few MB.

`python -m bench.soak --minutes 10` is the long run (docs/reliability.md has its figures)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import pytest

from bench.soak import open_fds, soak
from tests.reliability.conftest import LAX, assert_log_clean
from tests.support.relay_process import RelayProcess

RSS_GROWTH_MB = 8.0
"""Resident memory the relay may gain after warm-up (allocator pools settling, not leaks)."""


def client_fds(pid: int, redis_port: int | None) -> int:
    """Returns the relay's open files, less its pool of connections to Redis (kept open)."""
    if redis_port is None:
        return open_fds(pid)
    pooled = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[2].rsplit(":", 1)[1], 16) == redis_port:
                pooled.add(f"socket:[{fields[9]}]")
    links = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            links.append(os.readlink(fd))
    return sum(1 for link in links if link not in pooled)


@pytest.mark.parametrize("store", ["memory", "redis"])
async def test_short_soak_leaks_nothing(request: pytest.FixtureRequest, store: str) -> None:
    # Redis: a database of its own, for the store's counts to be this relay's matches only.
    url = "memory" if store == "memory" else request.getfixturevalue("redis_url")[:-1] + "1"
    redis_port = None if store == "memory" else int(url.rsplit(":", 1)[1].split("/")[0])
    args = ("--store", url, "--hold", "1", "--grace", "3", "--keep", "2", "--no-access-log")
    with RelayProcess(*args, *LAX) as relay:
        assert relay.proc is not None
        pid = relay.proc.pid
        await asyncio.sleep(0.5)
        baseline = client_fds(pid, redis_port)
        report = await soak("127.0.0.1", relay.port, pid, 15.0, pairs=12, every=3.0, settle=6.0)
        for _ in range(25):  # the last connections close within 5 s
            if client_fds(pid, redis_port) <= baseline:
                break
            await asyncio.sleep(0.2)
        fds_after = client_fds(pid, redis_port)
    assert_log_clean(relay)
    assert report.failures == []
    assert report.played > 30 and report.moves > 200
    summary = report.summary()
    assert fds_after <= baseline, (fds_after, baseline, summary["fds"])
    assert summary["held_polls"]["idle_after"] == 0
    assert summary["matches_in_store"]["idle_after"] == 0
    rss = summary["rss_mb"]
    assert rss["max"] - rss["first_loaded"] < RSS_GROWTH_MB, rss
    assert rss["idle_after"] - rss["first_loaded"] < RSS_GROWTH_MB, rss
