"""The memory store follows the store model (tests.support.store_model): random interleavings
of every store operation, checked against the model after every step."""

from __future__ import annotations

import pytest
from hypothesis.stateful import run_state_machine_as_test

from relay import MemoryStore, Store
from tests.support.store_model import MACHINE_SETTINGS, MODEL_SETTINGS, StoreMachine

pytestmark = pytest.mark.usefixtures("pinned_coin")


def test_memory_store_follows_the_model() -> None:
    async def make() -> Store:
        return MemoryStore(MODEL_SETTINGS)

    machine = type("MemoryMachine", (StoreMachine,), {"make_store": staticmethod(make)})
    run_state_machine_as_test(machine, settings=MACHINE_SETTINGS)
