"""What presence within 10 s costs: requests and relay CPU per idle match per minute, with the
hold the shipped clients used before (`--hold 25`, `wait=20`: a silent cut shown after about
28 s) beside today's (`--hold 6`, `wait=6`: within 10 s).

Each match is started, then both seats poll as the SDKs and pages do while nobody moves: each
held poll answered empty is followed at once by the next."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import orjson

from bench import targets
from bench.http import Connection, start_match
from bench.players import JSON
from bench.procstat import cpu_seconds

__all__ = ["HOLDS", "PresenceCost", "measure_all"]

HOLDS = (("before: --hold 25, wait=20", 25, 20), ("now: --hold 6, wait=6", 6, 6))
"""Each configuration measured: its name, the relay's --hold and the clients' wait."""


@dataclass(frozen=True)
class PresenceCost:
    """One configuration's figures, per idle match per minute."""

    name: str
    matches: int
    seconds: float
    requests: int
    cpu_s: float

    @property
    def requests_per_match_minute(self) -> float:
        """Returns the polls answered per idle match per minute (both seats)."""
        return self.requests / self.matches / self.seconds * 60

    @property
    def cpu_ms_per_match_minute(self) -> float:
        """Returns the relay's CPU milliseconds per idle match per minute."""
        return self.cpu_s * 1000 / self.matches / self.seconds * 60

    def row(self) -> dict[str, Any]:
        """Returns the figures as the report shows them."""
        return {
            "config": self.name,
            "matches": self.matches,
            "seconds": round(self.seconds, 1),
            "requests_per_match_minute": round(self.requests_per_match_minute, 2),
            "cpu_ms_per_match_minute": round(self.cpu_ms_per_match_minute, 3),
        }


async def _seat(
    port: int, ticket: dict[str, Any], wait: int, stop: float, counts: list[int]
) -> None:
    """Polls one seat's match at once after each answer until `stop` (monotonic)."""
    conn = await Connection("127.0.0.1", port).open()
    auth = f"Authorization: Bearer {ticket['token']}\r\n"
    path = f"/v1/matches/{ticket['match']}/events?after=1&wait={wait}"
    try:
        while time.monotonic() < stop:
            status, _, data = await conn.request("GET", path, headers=auth)
            if status != 200 or orjson.loads(data)["events"]:
                raise AssertionError(f"an idle poll answered {status} {data!r}")
            counts[0] += 1
    finally:
        conn.close()


async def _pair(port: int, room: str) -> list[dict[str, Any]]:
    """Seats two seekers in a private room and starts their match; returns both tickets."""
    conn = await Connection("127.0.0.1", port).open()
    try:
        tickets = []
        for _ in range(2):
            body = orjson.dumps({"game": "idle", "room": room})
            status, _, data = await conn.request("POST", "/v1/seek", body, JSON)
            assert status == 201, data
            tickets.append(orjson.loads(data))
        await start_match(conn, tickets[0])
        return tickets
    finally:
        conn.close()


async def _measure(
    target: targets.Target, wait: int, matches: int, seconds: float
) -> tuple[int, float, float]:
    """Returns the polls answered, the relay's CPU seconds and the seconds they took: about
    `seconds` of idle matches, after one hold's warm-up (every poll held)."""
    port = target.ports[0]
    pairs = [await _pair(port, f"idle-{time.time_ns()}-{n}") for n in range(matches)]
    counts = [0]
    stop = time.monotonic() + wait + 1 + seconds
    seats = [_seat(port, ticket, wait, stop, counts) for pair in pairs for ticket in pair]
    tasks = [asyncio.ensure_future(seat) for seat in seats]
    await asyncio.sleep(wait + 1)  # every seat's first poll held, answered and polled again
    before_count, before_cpu = counts[0], cpu_seconds(target.pids)
    began = time.monotonic()
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - began
    return counts[0] - before_count, cpu_seconds(target.pids) - before_cpu, elapsed


def measure_all(
    matches: int = 200, seconds: float = 30.0, holds: tuple[tuple[str, int, int], ...] = HOLDS
) -> list[PresenceCost]:
    """Measures each configuration of holds (default HOLDS) in turn, on a relay of its own
    (memory store)."""
    found = []
    for name, hold, wait in holds:
        with targets.relay(f"relay {name}", flags=("--hold", str(hold))) as target:
            requests, cpu, elapsed = asyncio.run(_measure(target, wait, matches, seconds))
        found.append(PresenceCost(name, matches, elapsed, requests, cpu))
    return found
