"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.relay_process import RelayProcess


@pytest.fixture(scope="session")
def relay_url() -> Iterator[str]:
    """Returns the URL of a real relay subprocess shared by the session (short hold and grace)."""
    with RelayProcess(
        "--hold",
        "5",
        "--grace",
        "30",
        "--seeks-per-minute",
        "100000",
        "--requests-per-second",
        "100000",
    ) as relay:
        yield relay.url
