"""A flood from one client address, of seeks, polls and moves, is answered 429 with
Retry-After, while normal players from another address play every match to its end.

Timings are not asserted here: `python -m bench.flood` measures the players' move latency
with and without the flood (docs/reliability.md has the figures)."""

from __future__ import annotations

import asyncio

from bench.flood import FloodTally, flood_in_process, play_phase
from tests.reliability.conftest import assert_log_clean
from tests.support.relay_process import RelayProcess


async def test_flood_is_answered_429_with_retry_after_while_matches_complete() -> None:
    with RelayProcess(
        "--hold", "2", "--grace", "30", "--requests-per-second", "1000",
        "--seeks-per-minute", "120", "--polls-per-seat", "2", "--no-access-log",
    ) as relay:  # fmt: skip
        loop = asyncio.get_running_loop()
        go, results, proc = flood_in_process("127.0.0.1", relay.port, "127.0.0.2", 8.0)
        go.set()
        await asyncio.sleep(1.0)
        phase = await play_phase("127.0.0.1", relay.port, "flooded", 6, 12, 0.02)
        tally: FloodTally = await loop.run_in_executor(None, results.get, True, 60)
        await loop.run_in_executor(None, proc.join, 10)
        assert phase.failures == [] and phase.moves == 6 * 12
        limited = tally.limited()
        for code in ("limit/requests", "limit/seeks", "limit/polls"):
            assert limited.get(f"429 {code}", 0) > 0, tally.answers
        # Answered at most at the limit, and a 429 costs one answer per connection per
        # second: the rest of what the flooder sent waited unread.
        assert tally.requests < 2 * (2 * 1000 + 1000 * tally.seconds), tally.answers
        assert tally.without_retry_after == 0
        # Once the flood is over, its address is served again.
        await asyncio.sleep(1.5)
        after = await play_phase("127.0.0.1", relay.port, "after", 2, 6, 0.0)
        assert after.failures == []
    assert_log_clean(relay)


async def test_connection_over_the_rate_is_read_no_further_until_retry_after() -> None:
    with RelayProcess("--requests-per-second", "5", "--no-access-log") as relay:
        reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
        writer.write(b"GET /v1/matches/none HTTP/1.1\r\nHost: x\r\n\r\n" * 30)
        statuses, times = [], []
        async with asyncio.timeout(10):
            for _ in range(13):
                status = int((await reader.readline()).split()[1])
                headers = {}
                while (line := await reader.readline()) != b"\r\n":
                    key, _, value = line.decode().partition(":")
                    headers[key.lower()] = value.strip()
                await reader.readexactly(int(headers["content-length"]))
                statuses.append(status)
                times.append(asyncio.get_running_loop().time())
        writer.close()
    # A burst of twice the rate, then 429 with Retry-After, then nothing for that long.
    assert statuses[:10] == [404] * 10 and statuses[10] == 429
    assert times[11] - times[10] > 0.8
    assert_log_clean(relay)
