"""The test hosts leave the test's own network namespace alone: a browser there fails its
requests in flight (ERR_NETWORK_CHANGED) when an interface or an address comes or goes."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.components import in_ci
from tests.support.netns import Hosts, hosts_available

pytestmark = pytest.mark.timeout(60)


def _seen() -> str:
    """Returns the links and addresses of the test's namespace."""
    links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True, check=True)
    addresses = subprocess.run(["ip", "-o", "addr"], capture_output=True, text=True, check=True)
    return links.stdout + addresses.stdout


def _soon(ready: Callable[[], bool]) -> bool:
    """Returns whether ready() becomes true within ten seconds."""
    deadline = time.monotonic() + 10
    while not ready():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_hosts_made_cut_and_removed_change_nothing_in_the_tests_namespace(
    tmp_path: Path,
) -> None:
    why = hosts_available()
    if why:
        if in_ci():
            pytest.fail(why)
        pytest.skip(why)
    before = _seen()
    monitor = subprocess.Popen(
        ["ip", "monitor", "link", "address"], stdout=subprocess.PIPE, text=True
    )
    time.sleep(0.5)  # for the monitor to subscribe
    try:
        with Hosts() as hosts:
            one = hosts.add("one")
            hosts.add("two")
            server = [sys.executable, "-m", "http.server", "-b", one, "8000"]
            hosts.run("one", server, tmp_path / "server.log", cwd=tmp_path)
            assert _soon(lambda: hosts.reaches("two", one, 8000, "/"))
            assert one not in _seen()  # the hosts' addresses are theirs alone
            hosts.cut("one")
            assert not hosts.reaches("two", one, 8000)
            hosts.restore("one")
            assert _soon(lambda: hosts.reaches("two", one, 8000))
    finally:
        monitor.terminate()
        events, _ = monitor.communicate(timeout=10)
    assert events == "", events
    assert _seen() == before
