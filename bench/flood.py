"""`python -m bench.flood`: one client floods the relay with seeks, polls and moves from its
own loopback address while normal players play; the flood is answered 429 with Retry-After,
and the players' move latency is measured with and without it, in the same run.

The flooder runs in a process of its own, bound to --flood-source (127.0.0.2), sends
pipelined batches on many connections and ignores Retry-After; the players play from
127.0.0.1. The flooder is niced by default, as if it sent from another machine: the figure
is then the relay's, not the CPU this one box shares between the flood and the players."""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

from bench.http import Connection, HttpError, start_match
from bench.players import Tally
from bench.soak import MatchError, Plan, measure_and_print, play_match

__all__ = ["BoundConnection", "FloodTally", "Phase", "flood", "flood_in_process", "play_phase"]

JSON = "Content-Type: application/json\r\n"


class BoundConnection(Connection):
    """A keep-alive connection whose client end is bound to a given source address."""

    def __init__(self, host: str, port: int, source: str) -> None:
        super().__init__(host, port)
        self.source = source

    async def open(self) -> BoundConnection:
        """Connects from the source address."""
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, limit=2**20, local_addr=(self.source, 0)
        )
        return self


@dataclass
class FloodTally:
    """What the flooder was answered: counts by (status, error code), and 429s without
    Retry-After (there should be none)."""

    answers: Counter[str] = field(default_factory=Counter)
    without_retry_after: int = 0
    requests: int = 0
    seconds: float = 0.0

    def count(self, status: int, headers: dict[bytes, bytes], body: bytes) -> None:
        """Counts one answer."""
        self.requests += 1
        code = ""
        if status >= 400:
            code = orjson.loads(body)["error"]["code"]
        self.answers[f"{status} {code}".strip()] += 1
        if status == 429 and b"retry-after" not in headers:
            self.without_retry_after += 1

    def limited(self) -> dict[str, int]:
        """Returns the 429 answers by code."""
        return {key: n for key, n in self.answers.items() if key.startswith("429")}


async def _answers(conn: Connection, count: int, tally: FloodTally) -> None:
    """Reads `count` pipelined answers off the connection into the tally."""
    assert conn.reader is not None
    for _ in range(count):
        line = await conn.reader.readline()
        if not line:
            raise HttpError("connection closed")
        status = int(line.split(None, 2)[1])
        headers: dict[bytes, bytes] = {}
        while (line := await conn.reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.partition(b":")
            headers[key.strip().lower()] = value.strip()
        body = await conn.reader.readexactly(int(headers[b"content-length"]))
        tally.count(status, headers, body)


async def flood(
    host: str, port: int, source: str, seconds: float, connections: int = 24, batch: int = 16
) -> FloodTally:
    """Floods the relay from `source` for `seconds`: pipelined seeks, moves and match reads
    on most connections, a held poll and then more polls on the rest. Stops by itself."""
    tally = FloodTally()
    started = time.monotonic()
    deadline = started + seconds
    # A seat of its own to poll and move with: two seeks in a private room.
    setup = await BoundConnection(host, port, source).open()
    room = orjson.dumps({"game": "flood", "room": secrets.token_hex(8)})
    tickets = []
    for _ in range(2):
        status, _, data = await setup.request("POST", "/v1/seek", room, JSON)
        if status != 201:
            raise HttpError(f"flood seek: {status} {data!r}")
        tickets.append(orjson.loads(data))
    await start_match(setup, tickets[0])
    setup.close()
    match, auth = tickets[0]["match"], f"Authorization: Bearer {tickets[0]['token']}\r\n"
    seek = orjson.dumps({"game": "flood"})
    move = orjson.dumps({"after": 0, "move": "flood"})

    def request(kind: str) -> bytes:
        if kind == "seek":
            head = f"POST /v1/seek HTTP/1.1\r\nHost: x\r\n{JSON}Content-Length: {len(seek)}\r\n"
            return head.encode() + b"\r\n" + seek
        if kind == "move":
            head = (
                f"POST /v1/matches/{match}/moves HTTP/1.1\r\nHost: x\r\n{auth}{JSON}"
                f"Content-Length: {len(move)}\r\n"
            )
            return head.encode() + b"\r\n" + move
        if kind == "poll":
            return (
                f"GET /v1/matches/{match}/events?after=1 HTTP/1.1\r\nHost: x\r\n{auth}\r\n".encode()
            )
        return f"GET /v1/matches/{match} HTTP/1.1\r\nHost: x\r\n\r\n".encode()

    async def hammer(number: int) -> None:
        rng = random.Random(number)
        kinds = ["poll"] if number % 4 == 0 else ["seek", "move", "move", "info"]
        conn = await BoundConnection(host, port, source).open()
        try:
            while time.monotonic() < deadline:
                picked = [rng.choice(kinds) for _ in range(batch)]
                assert conn.writer is not None
                conn.writer.write(b"".join(request(kind) for kind in picked))
                remaining = deadline - time.monotonic()
                try:
                    async with asyncio.timeout(max(0.1, remaining) + 1):
                        await _answers(conn, batch, tally)
                except TimeoutError:
                    return  # a held poll outlasts the flood: done
        except (HttpError, OSError):
            pass
        finally:
            conn.close()

    await asyncio.gather(*(hammer(n) for n in range(connections)))
    tally.seconds = time.monotonic() - started
    return tally


def _flood_worker(
    host: str, port: int, source: str, seconds: float, nice: int, go: Any, results: Any
) -> None:
    import uvloop

    if nice:
        os.nice(nice)
    go.wait()
    results.put(uvloop.run(flood(host, port, source, seconds)))


def flood_in_process(
    host: str, port: int, source: str, seconds: float, nice: int = 10
) -> tuple[Any, Any, mp.process.BaseProcess]:
    """Starts the flooder in a process of its own; returns (go event, result queue, process).
    Set go to start it; the queue then yields its FloodTally."""
    ctx = mp.get_context("spawn")
    go, results = ctx.Event(), ctx.Queue()
    proc = ctx.Process(
        target=_flood_worker, args=(host, port, source, seconds, nice, go, results), daemon=True
    )
    proc.start()
    return go, results, proc


@dataclass
class Phase:
    """One round of normal matches: their move latencies, and any that failed."""

    name: str
    matches: int
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def percentile(self, share: float) -> float:
        """Returns a move-latency percentile in milliseconds."""
        ordered = sorted(self.latencies)
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 2)

    def row(self) -> dict[str, Any]:
        """Returns the phase's figures, JSON-ready."""
        return {
            "phase": self.name,
            "matches": self.matches,
            "moves": self.moves,
            "failures": len(self.failures),
            "seconds": round(self.seconds, 1),
            "p50_ms": self.percentile(0.5),
            "p99_ms": self.percentile(0.99),
            "max_ms": self.percentile(1.0),
        }


async def play_phase(
    host: str, port: int, name: str, matches: int, moves: int, think: float
) -> Phase:
    """Plays `matches` matches of `moves` moves at once from 127.0.0.1; all must end agreed."""
    phase = Phase(name, matches)
    tally = Tally()
    prefix = f"{name}-{secrets.token_hex(4)}"
    started = time.monotonic()

    async def one(number: int) -> None:
        plan = Plan(moves, "agreed", think)
        try:
            async with asyncio.timeout(120):
                moved = await play_match(host, port, f"{prefix}-{number}", plan, tally)
            phase.moves += moved
        except (MatchError, OSError, TimeoutError) as exc:
            phase.failures.append(f"{type(exc).__name__}: {exc}")

    await asyncio.gather(*(one(n) for n in range(matches)))
    phase.seconds = time.monotonic() - started
    phase.latencies = tally.latencies
    return phase


async def _measure(
    host: str, port: int, source: str, matches: int, moves: int, think: float, nice: int
) -> dict[str, Any]:
    baseline = await play_phase(host, port, "baseline", matches, moves, think)
    # The flood lasts the flooded phase: as long as the baseline took, and a margin.
    seconds = baseline.seconds * 1.5 + 3
    go, results, proc = flood_in_process(host, port, source, seconds, nice)
    loop = asyncio.get_running_loop()
    go.set()
    await asyncio.sleep(1.0)  # the flood is under way before the players start
    flooded = await play_phase(host, port, "flooded", matches, moves, think)
    tally: FloodTally = await loop.run_in_executor(None, results.get, True, seconds + 60)
    await loop.run_in_executor(None, proc.join, 10)
    after = await play_phase(host, port, "after", matches, moves, think)
    return {
        "phases": [baseline.row(), flooded.row(), after.row()],
        "p99_ratio": round(flooded.percentile(0.99) / baseline.percentile(0.99), 2),
        "flood": {
            "source": source,
            "seconds": round(tally.seconds, 1),
            "requests": tally.requests,
            "requests_per_s": round(tally.requests / tally.seconds),
            "answers": dict(tally.answers.most_common()),
            "429_without_retry_after": tally.without_retry_after,
        },
        "failures": baseline.failures + flooded.failures + after.failures,
    }


def main(argv: list[str] | None = None) -> None:
    """Runs the measurement against a relay of its own and prints the figures as JSON."""
    p = argparse.ArgumentParser(prog="python -m bench.flood", description=__doc__)
    p.add_argument("--matches", type=int, default=20, help="normal matches played at once")
    p.add_argument("--moves", type=int, default=300, help="moves in each normal match")
    p.add_argument("--think", type=float, default=0.03, help="seconds a normal player thinks")
    p.add_argument("--flood-source", default="127.0.0.2", help="the flooder's loopback address")
    p.add_argument("--nice", type=int, default=10, help="the flooder's nice increment")
    p.add_argument(
        "--requests-per-second",
        default="1000",
        help="the relay's per-address limit (every normal player shares 127.0.0.1)",
    )
    p.add_argument("--seeks-per-minute", default="600", help="the relay's seek limit")
    p.add_argument("--store", default="memory", help="the relay's --store")
    a = p.parse_args(argv)
    if not a.flood_source.startswith("127."):
        p.error("the flooder sends only to and from loopback addresses (127.0.0.0/8)")
    relay_args = (
        "--store", a.store, "--no-access-log", "--log-level", "warning",
        "--requests-per-second", a.requests_per_second, "--seeks-per-minute", a.seeks_per_minute,
    )  # fmt: skip
    measure_and_print(
        relay_args,
        lambda port: _measure(
            "127.0.0.1", port, a.flood_source, a.matches, a.moves, a.think, a.nice
        ),
    )


if __name__ == "__main__":
    main()
