"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.installed import BuildError, installed_tree
from tests.support.components import in_ci, require_binary
from tests.support.relay_process import RelayProcess, quick_flags


@pytest.fixture(scope="session")
def relay_url() -> Iterator[str]:
    """Returns the URL of a real relay subprocess shared by the session (short hold and grace)."""
    with RelayProcess(*quick_flags()) as relay:
        yield relay.url


@pytest.fixture(scope="session")
def installed() -> Path:
    """Returns the packages as `pip install .` installs them, the relay's hot path compiled:
    the wheel is built once per state of the sources (about a minute), with gcc installed
    by apt-get if need be. Fails in CI, and skips elsewhere, when it cannot be built."""
    require_binary("gcc", "gcc")
    try:
        return installed_tree()
    except BuildError as exc:
        if in_ci():
            pytest.fail(str(exc))
        pytest.skip(str(exc))
