"""A Redis store follows the store model (tests.support.store_model), as the memory store does."""

from __future__ import annotations

import pytest
from hypothesis.stateful import run_state_machine_as_test

from relay import Store
from tests.support.store_model import MODEL_SETTINGS, REDIS_SETTINGS, StoreMachine

pytestmark = pytest.mark.usefixtures("pinned_coin")


def test_redis_store_follows_the_model(request: pytest.FixtureRequest) -> None:
    from tests.support.redis_server import fresh_redis_store

    async def make() -> Store:
        return await fresh_redis_store(request, MODEL_SETTINGS)

    machine = type("RedisMachine", (StoreMachine,), {"make_store": staticmethod(make)})
    run_state_machine_as_test(machine, settings=REDIS_SETTINGS)
