"""Fixtures of the reliability tests: a redis-server of their own, and the relay-log check."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess

LAX = ("--requests-per-second", "100000", "--seeks-per-minute", "100000")
"""Limits lifted, for tests that play many requests from one loopback address on purpose."""

TROUBLE = (
    "Traceback (most recent call last)",
    " ERROR ",
    "server/internal",
    "unexpected error",
    '" 500 ',
)
"""What a relay log must never show after hostile input: every request answered as designed."""


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Returns the URL of a redis-server for the reliability tests' relays (one per session)."""
    with RedisServer(redis_binary()) as server:
        yield server.url


def assert_log_clean(relay: RelayProcess) -> None:
    """Fails if the relay logged an unexpected error or a traceback."""
    lines = relay.log().splitlines()
    found = [n for n, line in enumerate(lines) if any(mark in line for mark in TROUBLE)]
    if found:
        # The first trouble in full (its traceback runs to the next dated line), then the rest.
        n = found[0]
        end = next((k for k in range(n + 1, len(lines)) if lines[k].startswith("20")), len(lines))
        shown = lines[n : min(end, n + 60)] + [lines[k] for k in found[1:20] if k >= end]
        raise AssertionError("\n".join(shown))
