"""Runs one measured load against one target: worker processes play, /proc is read around them."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import resource
import statistics
import time
from dataclasses import dataclass
from multiprocessing.synchronize import Event as MpEvent
from typing import Any

from bench.connect4_match import GAME, connect4_match
from bench.players import Tally, ceiling_player, nchan_player, relay_player, relay_tickets
from bench.procstat import cpu_seconds, peak_rss_mb
from bench.targets import Target

__all__ = ["Result", "measure"]


@dataclass
class Result:
    """The figures of one run."""

    target: str
    mode: str
    matches: int
    moves: int
    seconds: float
    cpu_seconds: float
    peak_rss_mb: float
    latencies: list[float]
    redis_cpu_seconds: float = 0.0
    """The part of cpu_seconds spent in redis-server."""

    @property
    def moves_per_second(self) -> float:
        """Returns moves delivered per second of wall time."""
        return self.moves / self.seconds

    @property
    def cpu_us_per_move(self) -> float:
        """Returns the server's CPU microseconds per delivered move (all its processes, Redis's
        included)."""
        return self.cpu_seconds / self.moves * 1e6

    @property
    def redis_cpu_us_per_move(self) -> float:
        """Returns redis-server's share of cpu_us_per_move."""
        return self.redis_cpu_seconds / self.moves * 1e6

    @classmethod
    def total(cls, results: list[Result]) -> Result:
        """Returns the figures of several runs of one target and mode added together."""
        first = results[0]
        return cls(
            first.target,
            first.mode,
            first.matches,
            sum(result.moves for result in results),
            sum(result.seconds for result in results),
            sum(result.cpu_seconds for result in results),
            max(result.peak_rss_mb for result in results),
            [value for result in results for value in result.latencies],
            sum(result.redis_cpu_seconds for result in results),
        )

    def percentile(self, share: float) -> float:
        """Returns the latency percentile in milliseconds."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    def row(self) -> dict[str, Any]:
        """Returns the figures as a JSON-ready dict."""
        return {
            "target": self.target,
            "mode": self.mode,
            "matches": self.matches,
            "moves": self.moves,
            "moves_per_s": round(self.moves_per_second),
            "cpu_us_per_move": round(self.cpu_us_per_move, 1),
            "front_cpu_us_per_move": round(self.cpu_us_per_move - self.redis_cpu_us_per_move, 1),
            "redis_cpu_us_per_move": round(self.redis_cpu_us_per_move, 1),
            "cpu_s_per_1000_moves": round(self.cpu_us_per_move / 1000, 4),
            "p50_ms": round(self.percentile(0.50), 2),
            "p99_ms": round(self.percentile(0.99), 2),
            "median_ms": round(statistics.median(self.latencies) * 1000, 2),
            "peak_rss_mb": round(self.peak_rss_mb, 1),
        }


def _raise_files_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _play(
    target: Target,
    mode: str,
    index: int,
    matches: int,
    length: int,
    think: float,
    go: MpEvent,
    ready: Any,
) -> tuple[list[float], int]:
    tally = Tally()
    start = asyncio.Event()
    pending = [0]
    tasks = []

    def one_ready() -> None:
        pending[0] -= 1
        if pending[0] == 0:
            ready.put(index)

    for number in range(matches):
        port = target.ports[number % len(target.ports)]
        other = target.ports[(number + 1) % len(target.ports)]
        if target.kind == "relay" and mode.startswith("connect4"):
            room = f"r{time.time_ns()}-{index}-{number}"
            games = max(1, length // len(GAME))
            tasks.append(
                connect4_match(target.host, (port, other), room, games, tally, start, one_ready)
            )
        elif target.kind == "relay":
            tickets = await relay_tickets(target.host, port, f"r{time.time_ns()}-{index}-{number}")
            for seat, ticket in enumerate(tickets):
                # With several processes, the two seats talk to different ones.
                tasks.append(
                    relay_player(
                        target.host,
                        (port, other)[seat],
                        ticket,
                        length,
                        mode in ("fast", "table"),
                        tally,
                        start,
                        one_ready,
                        think,
                        mode == "table",
                    )
                )
        elif target.kind == "nchan":
            channel = f"c{time.time_ns()}x{index}x{number}"
            for seat in (0, 1):
                tasks.append(
                    nchan_player(
                        target.host, port, channel, seat, length, tally, start, one_ready, think
                    )
                )
        else:
            tasks.append(ceiling_player(target.host, port, length, tally, start, one_ready))
    pending[0] = len(tasks)
    running = [asyncio.ensure_future(task) for task in tasks]
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    start.set()
    await asyncio.gather(*running)
    return tally.latencies, tally.moves


def _worker(
    target: Target,
    mode: str,
    index: int,
    matches: int,
    length: int,
    think: float,
    go: MpEvent,
    ready: Any,
    results: Any,
) -> None:
    import uvloop

    _raise_files_limit()
    results.put(uvloop.run(_play(target, mode, index, matches, length, think, go, ready)))


def measure(
    target: Target,
    mode: str,
    matches: int,
    length: int,
    workers: int = 2,
    think: float = 0.0,
    timeout: float = 120.0,
) -> Result:
    """Plays `matches` matches of `length` moves through target; returns what it cost."""
    ctx = mp.get_context("spawn")
    go, ready, results = ctx.Event(), ctx.Queue(), ctx.Queue()
    per_worker = [matches // workers + (1 if i < matches % workers else 0) for i in range(workers)]
    procs = [
        ctx.Process(
            target=_worker,
            args=(target, mode, i, n, length, think, go, ready, results),
            daemon=True,
        )
        for i, n in enumerate(per_worker)
        if n
    ]
    for proc in procs:
        proc.start()
    try:
        for _ in procs:
            ready.get(timeout=timeout)
        cpu_before = cpu_seconds(target.pids)
        redis_before = cpu_seconds(target.redis_pids)
        started = time.monotonic()
        go.set()
        gathered = [results.get(timeout=timeout) for _ in procs]
        seconds = time.monotonic() - started
        redis_cpu = cpu_seconds(target.redis_pids) - redis_before
        cpu = cpu_seconds(target.pids) - cpu_before + redis_cpu
    finally:
        for proc in procs:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
    latencies = [value for part, _ in gathered for value in part]
    moves = sum(count for _, count in gathered)
    rss = peak_rss_mb([*target.pids, *target.redis_pids])
    return Result(target.name, mode, matches, moves, seconds, cpu, rss, latencies, redis_cpu)
