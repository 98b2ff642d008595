"""What a host sees: Prometheus metrics, and an access log that never shows a token."""

from __future__ import annotations

import asyncio
import re

import aiohttp

from tests.relay.wire import Wire
from tests.support.relay_process import RelayProcess


def metric(text: str, name: str) -> float:
    """Returns the value of one sample line of the Prometheus text."""
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert found, f"{name} not in metrics"
    return float(found.group(1))


async def test_metrics_count_matches_polls_moves_and_errors() -> None:
    with RelayProcess("--hold", "5", "--grace", "30") as relay:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            wire = Wire(session, relay.url)
            await wire.seek("metrics-waiting")
            x, o = await wire.pair("metrics")
            await wire.post(x, "moves", {"after": 1, "move": "a"})
            await wire.post(o, "pass", {"after": 2})
            done, _ = await wire.pair("metrics-done")
            await wire.post(done, "resign", {})
            await wire.post(o, "moves", {"after": 3, "move": "b"})
            held = asyncio.create_task(wire.events(x.match, 3, o))
            await asyncio.sleep(0.2)
            async with session.get(relay.url + "/metrics") as answer:
                text = await answer.text()
            await wire.post(x, "moves", {"after": 3, "move": "c"})
            await held
    assert metric(text, 'relay_matches{status="waiting"}') == 1
    assert metric(text, 'relay_matches{status="playing"}') == 1
    assert metric(text, 'relay_matches{status="finished"}') == 1
    assert metric(text, 'relay_matches_ended_total{reason="resigned"}') == 1
    assert metric(text, "relay_held_polls") == 1
    assert metric(text, "relay_moves_relayed_total") == 2
    assert metric(text, "relay_store_notices_total") == 0  # one process: nothing to hear
    assert metric(text, 'relay_errors_total{code="turn/not_yours"}') == 1


async def test_access_log_shows_requests_but_never_tokens() -> None:
    relay = RelayProcess("--hold", "1", "--grace", "30")
    with relay:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            wire = Wire(session, relay.url)
            x, o = await wire.pair("log")
            await wire.post(x, "moves", {"after": 1, "move": "secret-move"})
            await wire.events(x.match, 0, o)
            await wire.call(
                "GET",
                f"/v1/matches/{x.match}/events",
                headers={"Authorization": "Bearer forged-token-value"},
            )
    log = relay.log()
    assert f"POST /v1/matches/{x.match}/moves" in log
    assert "GET /v1/matches/" in log
    for secret in (x.token, o.token, "forged-token-value", "Bearer"):
        assert secret not in log
