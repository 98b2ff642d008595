"""Several boxes for real: two relay boxes and Redis on hosts of their own, nginx in front.

Each box, Redis and nginx is a network namespace of its own on a bridge (tests/support/netns.py);
nginx balances over both boxes, and the test's SDK hosts reach it through a unix socket.
They play while one box's link is cut mid-match, as a pulled cable would: its clients
carry on through nginx to the other box, and every move arrives once, in order."""

from __future__ import annotations

import asyncio
import functools
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from tests.hosting.players import Run, check_logs, play_matches
from tests.hosting.stack import ROOT, Nginx, make_pages
from tests.support.components import in_ci, require_binary
from tests.support.netns import Hosts, hosts_available
from tests.support.redis_server import redis_binary
from tests.support.relay_process import quick_flags

pytestmark = pytest.mark.timeout(180)

PORT = 8080
"""The port each box's relay listens on, at its own address."""

SITE = """
upstream relays {{
    {servers}
    keepalive 16;
}}
server {{
    listen 80;
    listen [::]:80;
    root /opt/movewire/pages;
    location /v1/ {{
        proxy_pass http://relays;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_buffering off;
        proxy_connect_timeout 1s;
        proxy_send_timeout 5s;
        proxy_read_timeout 9s;
        proxy_next_upstream error timeout;
    }}
}}
"""
"""nginx in front of the boxes: a box that does not answer within a second (connect) or
nine (a request: longer than the relay's hold) is skipped for a minute."""


@dataclass
class Boxes:
    """The running set: the hosts, nginx, and each box's address."""

    hosts: Hosts
    nginx: Nginx
    boxes: dict[str, str]


URL = "http://front"
"""The base URL the test's clients ask, through nginx's unix socket."""


def _wait(ready: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.1)
    raise TimeoutError(f"{what} did not come up within {timeout} s")


@pytest.fixture
def boxes(tmp_path: Path) -> Iterator[Boxes]:
    """Returns Redis and two relay boxes on hosts of their own, and nginx in front."""
    why = hosts_available()
    if why:
        if in_ci():
            pytest.fail(why)
        pytest.skip(why)
    nginx_binary = require_binary("nginx", "nginx")
    redis = redis_binary()
    pages = make_pages()
    with Hosts() as hosts:
        hosts.add("front")
        redis_address = hosts.add("redis")
        hosts.run(
            "redis",
            [redis, "--bind", redis_address, "--port", "6379", "--protected-mode", "no",
             "--save", "", "--appendonly", "no"],
            tmp_path / "redis.log",
        )  # fmt: skip
        _wait(functools.partial(hosts.reaches, "front", redis_address, 6379), "redis-server")
        found = {}
        for name in ("box1", "box2"):
            address = hosts.add(name)
            hosts.run(
                name,
                [sys.executable, "-m", "relay", "--host", address, "--port", str(PORT),
                 "--store", f"redis://{redis_address}:6379", "--no-pages",
                 *quick_flags(hold=3)],
                tmp_path / f"{name}.log",
                cwd=ROOT,
            )  # fmt: skip
            found[name] = address
        for name, address in found.items():
            _wait(functools.partial(hosts.reaches, "front", address, PORT, "/healthz"), name)
        servers = "\n    ".join(
            f"server {address}:{PORT} max_fails=1 fail_timeout=60s;" for address in found.values()
        )
        site = SITE.format(servers=servers)
        with Nginx(nginx_binary, None, pages, site=site, inside=hosts.inside("front")) as nginx:
            yield Boxes(hosts, nginx, found)


def _box_of(line: str, boxes: dict[str, str]) -> set[str]:
    """Returns the boxes an nginx forwarded-log line names (a retried request names two)."""
    return {name for name, address in boxes.items() if f"{address}:{PORT}" in line}


async def test_a_box_cut_off_mid_match_loses_nothing(boxes: Boxes) -> None:
    run = Run(milestone=40)
    front = boxes.nginx.socket
    playing = asyncio.create_task(play_matches(URL, 20, "boxes", run=run, limit=150, through=front))
    async with asyncio.timeout(60):
        await run.reached.wait()
    before = boxes.nginx.forwarded_log.read_text().splitlines()
    boxes.hosts.cut("box1")
    cut_at = run.moves
    async with asyncio.timeout(160):
        await playing
    moves = await check_logs(URL, run, 20, through=front)
    after = boxes.nginx.forwarded_log.read_text().splitlines()[len(before) :]
    served_before = set().union(*(_box_of(line, boxes.boxes) for line in before))
    answered_after = [line for line in after if line.startswith("200 ")]
    print(
        f"\nbox1 cut off after {cut_at} of {moves} moves: all 20 matches completed, "
        f"{run.retries} requests retried, {len(answered_after)} answered after the cut"
    )
    # Both boxes served before the cut; box2 carried the matches on after it.
    assert served_before == {"box1", "box2"}
    assert cut_at < moves
    assert any(_box_of(line, boxes.boxes) == {"box2"} for line in answered_after)
    # And every request sent now goes to box2 alone.
    seen = len(boxes.nginx.forwarded_log.read_text().splitlines())
    match = run.outcomes[0].match
    async with aiohttp.ClientSession(connector=aiohttp.UnixConnector(str(front))) as session:
        for _ in range(10):
            async with session.get(f"{URL}/v1/matches/{match}") as answer:
                assert answer.status == 200
    # nginx logs a request just after answering it, so a request of check_logs
    # may still land in the log after `seen`: the probes are picked by target.
    probe = f'"GET /v1/matches/{match} HTTP/1.1"'
    lines: list[str] = []
    for _ in range(50):
        lines = boxes.nginx.forwarded_log.read_text().splitlines()[seen:]
        if sum(probe in line for line in lines) >= 10:
            break
        await asyncio.sleep(0.1)
    assert sum(probe in line for line in lines) == 10, lines
    assert all(_box_of(line, boxes.boxes) == {"box2"} for line in lines), lines
