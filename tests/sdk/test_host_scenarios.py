"""The Python host replays the scenario corpus (tests/support/host_scenarios/) against the
scenario relay: the same events in give the states, calls, dialogs, writes and outcome each
scenario expects. tests/js/scenarios.test.mjs replays the same files with the JavaScript host."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from sdk import RelayHost, Timing
from tests.sdk.scenario_game import Recorder, factory
from tests.support.scenario_relay import load_scenarios, scenario_relay

SCENARIOS = load_scenarios()

TIMING = Timing(poll_wait=1, request_timeout=5.0, backoff_base=0.01, backoff_cap=0.2, give_up=10.0)
"""Short polls and quick retries, as the JavaScript runner's."""


@pytest.fixture
async def relay_url() -> AsyncIterator[str]:
    """Returns the URL of a scenario relay serving the corpus."""
    async with scenario_relay() as url:
        yield url


def test_the_corpus_covers_the_host_s_story() -> None:
    assert len(SCENARIOS) >= 12
    for name, scenario in SCENARIOS.items():
        assert set(scenario) == {"about", "seat", "game", "log", "expect"}, name


async def replay(relay_url: str, name: str) -> dict[str, Any]:
    """Plays scenario `name` with a Python RelayHost; returns what it did, as the corpus
    writes an expectation."""
    scenario = SCENARIOS[name]
    rec = Recorder()
    host = RelayHost(
        relay_url,
        name,
        factory(scenario["game"], rec),
        timing=TIMING,
        dialog=rec.dialog,
        on_state=rec.state,
    )
    rec.host = host
    async with asyncio.timeout(15):
        outcome = await host.play()
    assert host.ticket is not None
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{relay_url}/record/{host.ticket.match}") as answer,
    ):
        writes = (await answer.json())["writes"]
    return {
        "states": rec.states,
        "calls": rec.calls,
        "writes": writes,
        "outcome": {
            "result": str(outcome.result),
            "reason": str(outcome.reason),
            "by": outcome.by,
            "message": outcome.message,
        },
        "retried": host.retries > 0,
    }


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_the_python_host_replays_the_scenario(relay_url: str, name: str) -> None:
    assert await replay(relay_url, name) == SCENARIOS[name]["expect"]
