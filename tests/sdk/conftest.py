"""Fixtures of the SDK tests: a real relay running in the test's own event loop."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sdk.testing import local_relay


@pytest.fixture
async def relay() -> AsyncIterator[str]:
    """Returns the URL of a fresh in-process relay (hold 1 s, grace 10 s)."""
    async with local_relay() as url:
        yield url


@pytest.fixture
async def quick_relay() -> AsyncIterator[str]:
    """Returns the URL of a fresh in-process relay that declares a silent seat gone after 2 s."""
    async with local_relay(hold=0.5, grace=2.0) as url:
        yield url
