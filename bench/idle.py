"""Idle capacity: memory per held poll, and move latency while thousands of players wait.

Each idle player holds one seat's poll of a real match (two seats a match), on a connection
of its own from a loopback address of its own (bench.holders), polling again whenever the
relay answers its poll at the end of `--hold`. A few load-generator processes share them."""

from __future__ import annotations

import asyncio
import math
import multiprocessing as mp
import resource
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event as MpEvent
from typing import Any

import orjson

from bench.holders import Tally, open_pollers, poll_request
from bench.http import Connection, start_match
from bench.procstat import rss_mb
from bench.run import Result
from bench.targets import Target

__all__ = ["OPEN_PER_SECOND", "IdleResult", "hold_polls", "idle_row", "room_for_polls"]

OPEN_PER_SECOND = 4000
"""Connections opened a second, all load-generator processes together (the relay's accept
queue, BACKLOG in relay/http/serve.py, is never near full)."""

SPARE_FILES = 500
"""Open files a server keeps for other than idle polls: listeners, the paced matches' own."""

PER_PROCESS = 16_000
"""Idle players one load-generator process holds at most (its open files bound it too)."""

JSON = "Content-Type: application/json\r\n"


@dataclass
class IdleResult:
    """Server memory before and while `polls` polls are held open, and how they were opened."""

    target: str
    polls: int
    requested: int
    rss_before_mb: float
    """With the idle players' matches made, before their polls (the relay's; Nchan has none)."""
    rss_start_mb: float = 0.0
    """Before the idle players' matches were made."""
    rss_held_mb: float = 0.0
    open_s: float = 0.0
    held: int | None = None
    """Polls the server said it held (the relay's relay_held_polls), None when it cannot say."""
    bound: str = ""
    """What held fewer polls than requested, if anything."""
    processes: int = 0
    lost: int = 0
    answers: Counter[int] = field(default_factory=Counter)

    @property
    def kb_per_poll(self) -> float:
        """Returns the resident memory each held poll costs, in KB."""
        return (self.rss_held_mb - self.rss_before_mb) * 1024 / self.polls


def open_files_limit(pid: int) -> int:
    """Returns the process's open files limit (soft), from /proc."""
    with open(f"/proc/{pid}/limits") as limits:
        for line in limits:
            if line.startswith("Max open files"):
                return int(line.split()[3])
    raise RuntimeError(f"no open files limit for {pid}")


def room_for_polls(target: Target, polls: int) -> tuple[int, str]:
    """Returns the polls the target can hold of those asked for, even, and what bounds it."""
    limit = max(open_files_limit(pid) for pid in target.pids)
    room = max(2, limit - SPARE_FILES)
    if polls <= room:
        return polls - polls % 2, ""
    return room - room % 2, f"the server process's open files limit ({limit:,}; `ulimit -Hn`)"


async def _seek(target: Target, port: int, name: str, pairs: range) -> list[bytes]:
    """Returns the polls of both seats of each pair's match, seeking over 8 connections."""
    found: dict[int, list[bytes]] = {}
    if target.kind != "relay":
        return [poll_request(f"/sub/{name}n{n}_{seat}") for n in pairs for seat in (0, 1)]

    async def seeker(numbers: range) -> None:
        conn = await Connection(target.host, port).open()
        for number in numbers:
            body = orjson.dumps({"game": "bench", "room": f"{name}n{number}"})
            found[number] = []
            tickets: list[dict[str, Any]] = []
            for _ in range(2):
                status, _, data = await conn.request("POST", "/v1/seek", body, JSON)
                assert status == 201, data
                ticket = orjson.loads(data)
                if ticket["seat"] == 1:
                    await start_match(conn, tickets[0])
                tickets.append(ticket)
                path = f"/v1/matches/{ticket['match']}/events?after=1"
                auth = f"Authorization: Bearer {ticket['token']}\r\n"
                found[number].append(poll_request(path, auth))
        conn.close()

    await asyncio.gather(*(seeker(pairs[i::8]) for i in range(8)))
    return [request for number in pairs for request in found[number]]


async def _holders(
    target: Target, index: int, pairs: range, rate: float, go: MpEvent, stop: MpEvent, ready: Any
) -> None:
    port = target.ports[index % len(target.ports)]
    requests = await _seek(target, port, f"idle{time.time_ns()}w{index}", pairs)
    ready.put(("seeked", index))
    loop = asyncio.get_running_loop()
    # Nothing connects before the server's memory is read without the polls.
    await loop.run_in_executor(None, go.wait)
    tally = Tally()
    pollers = await open_pollers(target.host, port, requests, 2 * pairs.start, rate, tally)
    ready.put(("opened", index, tally.opened, dict(tally.failed)))
    await loop.run_in_executor(None, stop.wait)
    lost = tally.lost
    for poller in pollers:
        if poller.transport is not None:
            poller.transport.close()
    ready.put(("ended", index, lost, dict(tally.answers)))


def _worker(
    target: Target, index: int, pairs: range, rate: float, go: MpEvent, stop: MpEvent, ready: Any
) -> None:
    import uvloop

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    uvloop.run(_holders(target, index, pairs, rate, go, stop, ready))


def held_polls(target: Target) -> int | None:
    """Returns the polls the target holds now, by its /metrics (None for other than the relay)."""
    if target.kind != "relay":
        return None
    total = 0
    for port in target.ports:
        with urllib.request.urlopen(f"http://{target.host}:{port}/metrics", timeout=10) as answer:
            for line in answer.read().decode().splitlines():
                if line.startswith("relay_held_polls "):
                    total += int(float(line.split()[1]))
    return total


class hold_polls:
    """Holds `polls` polls open on target while inside (fewer when the server cannot hold so
    many: result.bound says why), from a few load-generator processes."""

    def __init__(self, target: Target, polls: int, per_second: float = OPEN_PER_SECOND) -> None:
        self.target = target
        count, bound = room_for_polls(target, polls)
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        workers = max(2, math.ceil(count / min(PER_PROCESS, hard - SPARE_FILES)))
        ctx = mp.get_context("spawn")
        self.go, self.stop, self.ready = ctx.Event(), ctx.Event(), ctx.Queue()
        shares = [count // 2 // workers + (i < count // 2 % workers) for i in range(workers)]
        starts = [sum(shares[:i]) for i in range(workers)]
        rate, events = per_second / workers, (self.go, self.stop, self.ready)
        self.procs = [
            ctx.Process(
                target=_worker,
                args=(target, i, range(start, start + share), rate, *events),
                daemon=True,
            )
            for i, (start, share) in enumerate(zip(starts, shares, strict=True))
        ]
        self.result = IdleResult(target.name, count, polls, 0.0, bound=bound, processes=workers)

    def _answers(self, kind: str, timeout: float) -> list[tuple[Any, ...]]:
        found = [self.ready.get(timeout=timeout) for _ in self.procs]
        assert all(answer[0] == kind for answer in found), found
        return found

    def __enter__(self) -> hold_polls:
        self.result.rss_start_mb = rss_mb(self.target.pids)
        for proc in self.procs:
            proc.start()
        try:
            self._hold()
        except BaseException:
            self._end()
            raise
        return self

    def _hold(self) -> None:
        result = self.result
        self._answers("seeked", 180 + result.polls / 200)
        time.sleep(0.5)
        result.rss_before_mb = rss_mb(self.target.pids)
        began = time.monotonic()
        self.go.set()
        opened = self._answers("opened", 180 + result.polls / 200)
        result.open_s = time.monotonic() - began
        failed: Counter[str] = Counter()
        for _, _, _, errors in opened:
            failed.update(errors)
        if failed or sum(count for _, _, count, _ in opened) != result.polls:
            raise RuntimeError(f"of {result.polls} idle connections, failed: {dict(failed)}")
        deadline = time.monotonic() + 30
        while (held := held_polls(self.target)) is not None and held < result.polls:
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        time.sleep(2.0)  # the last requests reach the server and are held
        result.held = held_polls(self.target)
        result.rss_held_mb = rss_mb(self.target.pids)

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        try:
            for _, _, lost, answers in self._answers("ended", 30):
                self.result.lost += lost
                self.result.answers.update(answers)
        finally:
            self._end()

    def _end(self) -> None:
        self.stop.set()
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()


def idle_row(held: IdleResult, during: Result) -> dict[str, Any]:
    """Returns the figures of one idle-capacity run, with the paced moves' latency meanwhile."""
    return {
        "target": held.target,
        "polls": held.polls,
        "requested": held.requested,
        "held_by_server": held.held,
        "bound": held.bound,
        "rss_start_mb": round(held.rss_start_mb, 1),
        "rss_before_mb": round(held.rss_before_mb, 1),
        "rss_held_mb": round(held.rss_held_mb, 1),
        "kb_per_poll": round(held.kb_per_poll, 2),
        "open_s": round(held.open_s, 1),
        "generator_processes": held.processes,
        "connections_lost": held.lost,
        "answers_by_status": {str(status): count for status, count in held.answers.items()},
        "p50_ms": round(during.percentile(0.5), 2),
        "p99_ms": round(during.percentile(0.99), 2),
    }
