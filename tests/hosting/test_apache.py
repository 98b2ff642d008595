"""The shipped Apache (mod_proxy) site: it passes `apache2ctl -t`, and SDK hosts play through it."""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Iterator

import pytest

from tests.hosting.players import (
    check_gzipped_pages,
    check_logs,
    check_pages,
    play_matches,
    seek_statuses,
)
from tests.hosting.stack import Apache, Workers, make_pages, render
from tests.support.components import require_binary
from tests.support.metrics import get, samples
from tests.support.redis_server import RedisServer, redis_binary

pytestmark = pytest.mark.timeout(120)


@contextlib.contextmanager
def apache_stack(seeks_per_minute: int) -> Iterator[tuple[Apache, Workers]]:
    """Runs Apache with the shipped site (checked by `apache2ctl -t` first) in front of the
    systemd unit's relay workers and a redis-server."""
    pages = make_pages()
    binary = require_binary("apache2", "apache2")
    apache2ctl = require_binary("apache2ctl", "apache2")
    options = (
        "--hold",
        "5",
        "--grace",
        "30",
        "--seeks-per-minute",
        str(seeks_per_minute),
        "--requests-per-second",
        "100000",
    )
    try:
        with (
            RedisServer(redis_binary()) as redis_server,
            Workers(redis_server.url, *options) as workers,
        ):
            apache = Apache(binary, workers, pages)
            checked = apache.check(apache2ctl)
            assert checked.returncode == 0, checked.stdout + checked.stderr
            assert "Syntax OK" in checked.stdout + checked.stderr
            with apache:
                yield apache, workers
    finally:
        shutil.rmtree(pages.parent, ignore_errors=True)


async def test_matches_play_through_apache_on_two_relay_processes() -> None:
    with apache_stack(100_000) as (apache, workers):
        started = time.monotonic()
        run = await play_matches(apache.url, 30, "apache")
        moves = await check_logs(apache.url, run, 30)
        elapsed = time.monotonic() - started
        by_worker = workers.moves_by_worker()
        print(f"\n30 matches, {moves} moves through Apache in {elapsed:.1f} s; {by_worker}")
        assert all(count > 0 for count in by_worker), (by_worker, apache.error_log())
        # /metrics is the whole box (the supervisor's sum), and private to the loopback.
        status, _, text = await get(apache.url + "/metrics")
        assert status == 200, text
        assert samples(text)["relay_moves_relayed_total"] == sum(by_worker) >= moves
        assert (await get(apache.url + "/metrics", "127.0.0.2"))[0] == 403
        # So is the admin API: only from this machine does it reach a relay (404, no secret).
        assert (await get(apache.url + "/v1/admin/bans", "127.0.0.2"))[0] == 403
        assert (await get(apache.url + "/v1/admin/bans"))[0] == 404
        # The relays run --no-pages: every page comes from disk, as the relay would serve it.
        assert await check_pages(apache.url) > 5
        assert await check_gzipped_pages(apache.url) > 5


async def test_seek_limit_counts_the_client_behind_apache() -> None:
    with apache_stack(2) as (apache, workers):
        for source in ("127.0.0.2", "127.0.0.3"):
            statuses = await seek_statuses(apache.url, source, 2 * workers.count + 1)
            assert statuses[0] == 201, (source, statuses)
            assert statuses.count(201) <= 2 * workers.count
            assert 429 in statuses, (source, statuses)


def test_apache_site_for_more_workers_under_a_prefix_passes_apache2ctl() -> None:
    # The file a host writes with `deploy/configure.py apache --workers 4 --prefix /games`.
    workers = Workers("redis://127.0.0.1:1/0", unit=render("systemd", 4, "/games"))  # not run
    pages = make_pages()
    apache = Apache(
        require_binary("apache2", "apache2"), workers, pages, site=render("apache", 4, "/games")
    )
    try:
        checked = apache.check(require_binary("apache2ctl", "apache2"))
        assert checked.returncode == 0, checked.stdout + checked.stderr
        site = (apache.dir / "site.conf").read_text()
        assert site.count('BalancerMember "unix:') == 4
        assert 'ProxyPass "/games/v1/" "balancer://movewire/games/v1/"' in site
    finally:
        apache.stop()
        workers.stop()
        shutil.rmtree(pages.parent, ignore_errors=True)
