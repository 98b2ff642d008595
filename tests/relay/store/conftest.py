"""Fixtures of the store tests."""

from __future__ import annotations

import pytest

from tests.support.store_model import pin_coin


@pytest.fixture
def pinned_coin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pins the first-mover coin of the store model's tests (tests.support.store_model), so
    that hypothesis replays every case exactly."""
    pin_coin(monkeypatch)
