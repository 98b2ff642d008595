"""Slow clients by the hundred while matches play: heads and bodies trickled a byte at a time,
connections that say nothing, and requests the front hands to aiohttp (chunked bodies,
keep-alive after a page) trickled or left idle. Each is answered 408 and closed within
--request-timeout, or closed within --keepalive-timeout; the matches play on unhurt, and the
relay's open files come back to where they were. A client that sends requests but never
reads the answers costs the relay a bounded buffer, and is dropped."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter
from collections.abc import Iterator

import orjson
import pytest

from bench.http import Connection
from bench.players import Tally
from bench.procstat import rss_mb
from bench.soak import Plan, open_fds, play_match
from tests.reliability.conftest import LAX, assert_log_clean
from tests.support.relay_process import RelayProcess

REQUEST_TIMEOUT = 1.5
KEEPALIVE_TIMEOUT = 3.0
SWEEP = 1.0
"""The front checks its connections once a second."""
SLACK = 2.5
"""Time allowed past a timeout for the sweep and a loaded loop."""

JSON = "Content-Type: application/json\r\n"
SEEK_HEAD = b"POST /v1/seek HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"

KINDS = {
    # What is sent at once, then a byte at a time (b"" sends nothing more).
    "head": (SEEK_HEAD, b"X"),
    "body": (SEEK_HEAD + b"Content-Length: 1000\r\n\r\n{", b" "),
    "silent": (b"", b""),
    "chunked-body": (SEEK_HEAD + b"Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n", b"1\r\n \r\n"),
    "idle-after-page": (b"GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", b""),
    "head-after-page": (b"GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\nPOST /v1", b"X"),
}
"""The slow clients: some trickle a request, a byte at a time; the others go quiet."""

DEADLINES = {
    "head": REQUEST_TIMEOUT,
    "body": REQUEST_TIMEOUT,
    "chunked-body": REQUEST_TIMEOUT,
    "silent": KEEPALIVE_TIMEOUT,
    "idle-after-page": KEEPALIVE_TIMEOUT,
    "head-after-page": KEEPALIVE_TIMEOUT,
}


@pytest.fixture(scope="module")
def relay() -> Iterator[RelayProcess]:
    """Returns a relay with short request and keep-alive timeouts; its log is checked after."""
    with RelayProcess(
        "--hold", "1", "--grace", "30", "--request-timeout", str(REQUEST_TIMEOUT),
        "--keepalive-timeout", str(KEEPALIVE_TIMEOUT), *LAX,
        "--max-log-bytes", "1000000",  # room for the 600 KB log below
    ) as relay:  # fmt: skip
        yield relay
    assert_log_clean(relay)


async def slow_client(port: int, kind: str, cap: float) -> tuple[str, float, bytes]:
    """Plays one slow client until the relay closes it (or `cap` seconds pass); returns its
    kind, the seconds it stayed open, and the status line of the last answer it had."""
    first, trickle = KINDS[kind]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.monotonic()
    status = b""
    writer.write(first)

    async def read() -> None:
        nonlocal status
        while line := await reader.readline():
            if line.startswith(b"HTTP/1.1 "):
                status = line.split()[1]

    reading = asyncio.ensure_future(read())
    try:
        async with asyncio.timeout(cap):
            while not reading.done():
                await asyncio.wait([reading], timeout=0.3)
                if trickle and not reading.done():
                    writer.write(trickle)
    except TimeoutError:
        pass
    except OSError:
        pass
    finally:
        reading.cancel()
        writer.close()
    return kind, time.monotonic() - started, status


async def test_hundreds_of_slow_clients_are_timed_out_while_matches_play(
    relay: RelayProcess,
) -> None:
    assert relay.proc is not None
    await asyncio.sleep(0.5)
    baseline = open_fds(relay.proc.pid)
    cap = KEEPALIVE_TIMEOUT + 3 * SLACK
    slow = [
        asyncio.ensure_future(slow_client(relay.port, kind, cap))
        for kind in KINDS
        for _ in range(60)
    ]
    # Hundreds are connected at once: all 360 when the machine is idle; under a busy parallel
    # run the first are timed out (at REQUEST_TIMEOUT) while the last still connect, so the
    # peak is counted until the last of those timeouts could come.
    peak = 0
    for _ in range(int((REQUEST_TIMEOUT + SLACK) / 0.05)):
        peak = max(peak, open_fds(relay.proc.pid) - baseline)
        if peak >= 300:
            break
        await asyncio.sleep(0.05)
    assert peak >= 200, peak
    tally = Tally()
    plans = [Plan(16, "agreed", think=0.1) for _ in range(6)]
    moved = await asyncio.gather(
        *(play_match("127.0.0.1", relay.port, secrets.token_hex(6), p, tally) for p in plans)
    )
    assert moved == [16] * 6
    results = await asyncio.gather(*slow)
    late = [(kind, round(seconds, 1)) for kind, seconds, _ in results
            if seconds > DEADLINES[kind] + SLACK]  # fmt: skip
    assert not late, Counter(kind for kind, _ in late)
    statuses = Counter((kind, status) for kind, _, status in results)
    for kind in ("head", "body", "chunked-body"):
        assert statuses[(kind, b"408")] == 60, statuses
    assert statuses[("idle-after-page", b"200")] == 60, statuses
    assert statuses[("head-after-page", b"200")] == 60, statuses
    assert statuses[("silent", b"")] == 60, statuses
    for _ in range(50):  # the relay's own files only, within 10 s
        if open_fds(relay.proc.pid) <= baseline:
            break
        await asyncio.sleep(0.2)
    assert open_fds(relay.proc.pid) <= baseline


async def test_client_that_never_reads_its_answers_costs_bounded_memory(
    relay: RelayProcess,
) -> None:
    assert relay.proc is not None
    pid = relay.proc.pid
    conn = await Connection("127.0.0.1", relay.port).open()
    room = orjson.dumps({"game": "unread", "room": secrets.token_hex(6)})
    tickets = [orjson.loads((await conn.request("POST", "/v1/seek", room, JSON))[2])]
    tickets.append(orjson.loads((await conn.request("POST", "/v1/seek", room, JSON))[2]))
    base = f"/v1/matches/{tickets[0]['match']}"
    # Seat 0 polls again, as a live client does: that starts the paired match.
    opener = f"Authorization: Bearer {tickets[0]['token']}\r\n"
    first = orjson.loads((await conn.request("GET", base + "/events?after=0", b"", opener))[2])
    mover = first["events"][0]["first"]
    for after in range(1, 151):  # a log of 600 KB
        auth = f"Authorization: Bearer {tickets[(mover + after - 1) % 2]['token']}\r\n"
        body = orjson.dumps({"after": after, "move": "m" * 4000})
        assert (await conn.request("POST", base + "/moves", body, auth + JSON))[0] == 200
    conn.close()
    await asyncio.sleep(0.3)
    fds, rss = open_fds(pid), rss_mb([pid])
    # 2000 reads of the whole log, never read back: 1.2 GB of answers if they were all made.
    _, writer = await asyncio.open_connection("127.0.0.1", relay.port)
    poll = f"GET {base}/events?after=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    for _ in range(20):
        writer.write(poll * 100)
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    assert rss_mb([pid]) - rss < 50
    # Left unread for as long as a request may take, the connection is dropped.
    for _ in range(int((REQUEST_TIMEOUT + SWEEP + SLACK) / 0.2)):
        if open_fds(pid) <= fds:
            break
        await asyncio.sleep(0.2)
    assert open_fds(pid) <= fds
    writer.close()
