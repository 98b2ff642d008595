"""Idle capacity: memory per held poll, and move latency while thousands of players wait."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import resource
import time
from dataclasses import dataclass
from multiprocessing.synchronize import Event as MpEvent
from typing import Any

import orjson

from bench.http import Connection
from bench.players import relay_tickets
from bench.procstat import rss_mb
from bench.targets import Target

__all__ = ["IdleResult", "hold_polls"]


@dataclass
class IdleResult:
    """Server memory before and while `polls` polls are held open."""

    target: str
    polls: int
    rss_before_mb: float
    rss_held_mb: float

    @property
    def kb_per_poll(self) -> float:
        """Returns the resident memory each held poll costs, in KB."""
        return (self.rss_held_mb - self.rss_before_mb) * 1024 / self.polls


async def _holders(
    target: Target, index: int, pairs: int, go: MpEvent, stop: MpEvent, ready: Any
) -> None:
    port = target.ports[index % len(target.ports)]
    pollers = []
    for number in range(pairs):
        if target.kind == "relay":
            for ticket in await relay_tickets(
                target.host, port, f"idle{time.time_ns()}{index}n{number}"
            ):
                auth = f"Authorization: Bearer {ticket['token']}\r\n"
                path = f"/v1/matches/{ticket['match']}/events?after=1"
                pollers.append((path, auth))
        else:
            for seat in (0, 1):
                pollers.append((f"/sub/idle{index}n{number}_{seat}", ""))
    ready.put(("seeked", index))
    # Nothing connects before the server's memory is read without the polls.
    await asyncio.get_running_loop().run_in_executor(None, go.wait)

    opening = asyncio.Semaphore(128)
    connected = asyncio.Semaphore(0)

    async def hold(path: str, headers: str) -> None:
        async with opening:  # a burst of thousands of connects would overflow the backlog
            conn = await Connection(target.host, port).open()
        connected.release()
        while not stop.is_set():
            status, _, data = await conn.request("GET", path, headers=headers)
            if target.kind == "relay":
                assert status == 200 and orjson.loads(data)["events"] == [], data

    tasks = [asyncio.ensure_future(hold(path, auth)) for path, auth in pollers]
    for _ in tasks:
        await connected.acquire()
    await asyncio.sleep(2.0)  # the last requests reach the server and are held
    ready.put(("holding", index))
    await asyncio.get_running_loop().run_in_executor(None, stop.wait)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _worker(target: Target, index: int, pairs: int, go: MpEvent, stop: MpEvent, ready: Any) -> None:
    import uvloop

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    uvloop.run(_holders(target, index, pairs, go, stop, ready))


class hold_polls:
    """Holds `polls` polls open on target (split over worker processes) while inside."""

    def __init__(self, target: Target, polls: int, workers: int = 2) -> None:
        self.target = target
        self.polls = polls
        self.workers = workers
        ctx = mp.get_context("spawn")
        self.go, self.stop, self.ready = ctx.Event(), ctx.Event(), ctx.Queue()
        pairs = polls // 2 // workers
        self.procs = [
            ctx.Process(
                target=_worker,
                args=(target, i, pairs, self.go, self.stop, self.ready),
                daemon=True,
            )
            for i in range(workers)
        ]
        self.result: IdleResult | None = None

    def __enter__(self) -> hold_polls:
        for proc in self.procs:
            proc.start()
        for _ in self.procs:
            assert self.ready.get(timeout=180)[0] == "seeked"
        time.sleep(0.5)
        before = rss_mb(self.target.pids)
        self.go.set()
        for _ in self.procs:
            assert self.ready.get(timeout=180)[0] == "holding"
        time.sleep(2.0)
        self.result = IdleResult(self.target.name, self.polls, before, rss_mb(self.target.pids))
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
