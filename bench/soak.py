"""`python -m bench.soak`: continuous matches through one relay for minutes, with its resident
memory, open file descriptors and held polls sampled: they stay flat, nothing leaks.

Pairs of players on loopback play match after match, each ending one of the ways a match
ends (agreed, disputed, resigned, abandoned by a seat that leaves mid-poll, a seek
cancelled); every match's log is checked for every move, once and in order. Finished matches
are forgotten after --keep, so at the end the relay should be back where it started."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from bench.http import Connection
from bench.players import Tally
from bench.procstat import rss_mb

__all__ = [
    "ENDINGS",
    "Plan",
    "Sample",
    "SoakReport",
    "open_fds",
    "play_match",
    "relay_process",
    "sample",
    "soak",
]

JSON = "Content-Type: application/json\r\n"

ENDINGS = ("agreed", "agreed", "agreed", "disputed", "resigned", "abandoned", "cancelled")
"""How matches end, drawn uniformly: mostly agreed, each other way now and then."""

ERROR_MARKS = ("Traceback", " ERROR ", "server/internal", "unexpected error")
"""Relay log lines that mean a request was not answered as designed."""


class MatchError(AssertionError):
    """Raised when the relay answers a player otherwise than the protocol says."""


@dataclass(frozen=True)
class Plan:
    """How one match goes: its length, its ending and the players' thinking time."""

    moves: int
    ending: str
    think: float = 0.0
    wait: float = 20.0
    """Seconds a move post waits for the reply (the `wait` of POST .../moves)."""

    @classmethod
    def draw(cls, rng: random.Random, think: float) -> Plan:
        """Returns a random plan: 4 to 24 moves, an ending from ENDINGS."""
        return cls(rng.randint(4, 24), rng.choice(ENDINGS), think * rng.random() * 2)


def _check(status: int, data: bytes, wanted: int, what: str) -> Any:
    if status != wanted:
        raise MatchError(f"{what}: {status} {data[:300]!r}")
    return orjson.loads(data)


async def play_match(host: str, port: int, room: str, plan: Plan, tally: Tally) -> int:
    """Plays one match to its planned ending over fresh connections; returns the moves it
    relayed. Raises MatchError when an answer or the final log is not as the protocol says."""
    conn = await Connection(host, port).open()
    try:
        seek = orjson.dumps({"game": "soak", "room": room})
        status, _, data = await conn.request("POST", "/v1/seek", seek, JSON)
        first = _check(status, data, 201, "seek")
        if plan.ending == "cancelled":
            await _cancel(conn, first)
            return 0
        status, _, data = await conn.request("POST", "/v1/seek", seek, JSON)
        second = _check(status, data, 201, "second seek")
    finally:
        conn.close()
    sent: list[list[str]] = [[], []]
    await asyncio.gather(
        *(_seat(host, port, ticket, plan, tally, sent) for ticket in (first, second))
    )
    await _verify(host, port, first["match"], plan, sent)
    return len(sent[0]) + len(sent[1])


async def _cancel(conn: Connection, ticket: dict[str, Any]) -> None:
    auth = f"Authorization: Bearer {ticket['token']}\r\n"
    path = f"/v1/matches/{ticket['match']}"
    status, _, data = await conn.request("GET", path + "/events?after=0&wait=0.1", headers=auth)
    _check(status, data, 200, "poll while waiting")
    status, _, data = await conn.request("POST", path + "/cancel", headers=auth)
    _check(status, data, 200, "cancel")
    status, _, data = await conn.request("GET", path)
    _check(status, data, 410, "cancelled match")


async def _seat(
    host: str,
    port: int,
    ticket: dict[str, Any],
    plan: Plan,
    tally: Tally,
    sent: list[list[str]],
) -> None:
    """Plays one seat: moves with ?wait= (one request per move), polls when it must."""
    me, match = ticket["seat"], ticket["match"]
    auth = f"Authorization: Bearer {ticket['token']}\r\n"
    conn = await Connection(host, port).open()
    base = f"/v1/matches/{match}"
    cursor, turn, moves, confirm, finished = 0, -1, 0, False, False
    events: list[dict[str, Any]] = []
    try:
        while not finished:
            if confirm:
                body = orjson.dumps({"after": cursor, "agree": plan.ending == "agreed"})
                status, _, data = await conn.request("POST", base + "/confirm", body, auth + JSON)
                _check(status, data, 200, "confirm")
                return
            if turn == me and moves == plan.moves and plan.ending == "resigned":
                status, _, data = await conn.request("POST", base + "/resign", b"{}", auth + JSON)
                _check(status, data, 200, "resign")
                return
            if turn == me and moves == plan.moves and plan.ending == "abandoned":
                # Leaves in the middle of a held poll (its place must be freed) and never
                # comes back: the partner polls on until the relay ends the match.
                assert conn.writer is not None
                poll = f"GET {base}/events?after={cursor} HTTP/1.1\r\nHost: x\r\n{auth}\r\n"
                conn.writer.write(poll.encode())
                await asyncio.sleep(0.05)
                return
            if turn == me and moves < plan.moves:
                if plan.think:
                    await asyncio.sleep(plan.think)
                end = moves + 1 == plan.moves and plan.ending in ("agreed", "disputed")
                text = f"{me}:{moves}:{time.monotonic_ns()}"
                sent[me].append(text)
                body = orjson.dumps({"after": cursor, "move": text, "end": end})
                path = f"{base}/moves?wait={plan.wait:g}"
                status, _, data = await conn.request("POST", path, body, auth + JSON)
                answer = _check(status, data, 200, "move")
                if answer["seq"] != cursor + 1:
                    raise MatchError(f"move {cursor + 1} answered seq {answer['seq']}")
                cursor, turn, moves = answer["seq"], 1 - me, moves + 1
                events = answer["events"]
            else:
                path = f"{base}/events?after={cursor}"
                status, _, data = await conn.request("GET", path, headers=auth)
                events = _check(status, data, 200, "poll")["events"]
            for event in events:
                if event["seq"] != cursor + 1:
                    raise MatchError(f"event {event['seq']} after {cursor}")
                cursor = event["seq"]
                if event["type"] == "started":
                    turn = event["first"]
                elif event["type"] == "move":
                    moves += 1
                    if event["seat"] != me:
                        tally.received(event["move"].rsplit(":", 1)[1])
                        turn, confirm = me, event["end"]
                elif event["type"] == "ended":
                    finished = True
    finally:
        conn.close()


async def _verify(host: str, port: int, match: str, plan: Plan, sent: list[list[str]]) -> None:
    """Checks the whole log as a spectator reads it: every move once, in order, and the end."""
    conn = await Connection(host, port).open()
    try:
        path = f"/v1/matches/{match}/events?after=0&wait=0"
        status, _, data = await conn.request("GET", path)
        log = _check(status, data, 200, "log")["events"]
    finally:
        conn.close()
    if [event["seq"] for event in log] != list(range(1, len(log) + 1)):
        raise MatchError(f"log numbers are not consecutive: {log}")
    moves = [event for event in log if event["type"] == "move"]
    for seat in (0, 1):
        if [e["move"] for e in moves if e["seat"] == seat] != sent[seat]:
            raise MatchError(f"seat {seat} sent {sent[seat]} but the log has {log}")
    ended = log[-1]
    if ended["type"] != "ended" or ended["reason"] != plan.ending:
        raise MatchError(f"planned {plan.ending!r}, log ends {ended}")
    if plan.ending == "abandoned" and ended["seat"] == moves[-1]["seat"]:
        raise MatchError(f"the seat to move left, but {ended} names the other")


def open_fds(pid: int) -> int:
    """Returns how many file descriptors the process holds open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


@dataclass
class Sample:
    """The relay process at one moment."""

    seconds: float
    rss_mb: float
    fds: int
    held_polls: int
    matches: dict[str, int]
    played: int = 0
    moves: int = 0


def sample(host: str, port: int, pid: int, started: float) -> Sample:
    """Reads the relay's RSS and fds from /proc, its held polls and matches from /metrics."""
    fds, rss = open_fds(pid), round(rss_mb([pid]), 2)  # before the /metrics connection opens
    with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    held, matches = 0, {}
    for line in text.splitlines():
        if line.startswith("relay_held_polls "):
            held = int(float(line.split()[1]))
        elif line.startswith("relay_matches{"):
            status = line.split('"')[1]
            matches[status] = int(float(line.split()[-1]))
    return Sample(round(time.monotonic() - started, 1), rss, fds, held, matches)


@dataclass
class SoakReport:
    """What a soak run saw."""

    seconds: float
    played: int = 0
    moves: int = 0
    failures: list[str] = field(default_factory=list)
    idle_before: Sample | None = None
    samples: list[Sample] = field(default_factory=list)
    idle_after: Sample | None = None
    p50_ms: float = 0.0
    p99_ms: float = 0.0

    def summary(self) -> dict[str, Any]:
        """Returns the figures that matter, JSON-ready."""
        loaded = self.samples[1:] or self.samples
        assert self.idle_before is not None and self.idle_after is not None
        return {
            "seconds": self.seconds,
            "matches": self.played,
            "moves": self.moves,
            "failures": len(self.failures),
            "move_p50_ms": self.p50_ms,
            "move_p99_ms": self.p99_ms,
            "rss_mb": {
                "idle_before": self.idle_before.rss_mb,
                "first_loaded": loaded[0].rss_mb,
                "min": min(s.rss_mb for s in loaded),
                "max": max(s.rss_mb for s in loaded),
                "last_loaded": loaded[-1].rss_mb,
                "idle_after": self.idle_after.rss_mb,
            },
            "fds": {
                "idle_before": self.idle_before.fds,
                "min": min(s.fds for s in loaded),
                "max": max(s.fds for s in loaded),
                "idle_after": self.idle_after.fds,
            },
            "held_polls": {
                "max": max(s.held_polls for s in loaded),
                "idle_after": self.idle_after.held_polls,
            },
            "matches_in_store": {
                "max": max(sum(s.matches.values()) for s in loaded),
                "idle_after": sum(self.idle_after.matches.values()),
            },
        }


async def soak(
    host: str,
    port: int,
    pid: int,
    seconds: float,
    pairs: int = 20,
    every: float = 10.0,
    think: float = 0.02,
    settle: float = 0.0,
    seed: int | None = None,
) -> SoakReport:
    """Plays matches on `pairs` tables for `seconds`, sampling every `every` seconds; then
    waits `settle` seconds (the relay's keep and reaping) and samples the idle relay again."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    report = SoakReport(seconds)
    tally = Tally()
    started = time.monotonic()
    report.idle_before = await loop.run_in_executor(None, sample, host, port, pid, started)
    deadline = started + seconds
    prefix = f"soak{os.getpid()}x{time.time_ns()}"

    async def table(number: int) -> None:
        count = 0
        while time.monotonic() < deadline:
            count += 1
            plan = Plan.draw(rng, think)
            try:
                async with asyncio.timeout(60 + plan.wait):
                    moved = await play_match(host, port, f"{prefix}-{number}-{count}", plan, tally)
                report.moves += moved
            except (MatchError, OSError, TimeoutError) as exc:
                report.failures.append(f"{plan}: {type(exc).__name__}: {exc}")
            report.played += 1

    async def sampler() -> None:
        while time.monotonic() < deadline:
            await asyncio.sleep(min(every, max(0.0, deadline - time.monotonic())))
            taken = await loop.run_in_executor(None, sample, host, port, pid, started)
            taken.played, taken.moves = report.played, report.moves
            report.samples.append(taken)

    await asyncio.gather(sampler(), *(table(n) for n in range(pairs)))
    await asyncio.sleep(settle)
    report.idle_after = await loop.run_in_executor(None, sample, host, port, pid, started)
    if tally.latencies:
        ordered = sorted(tally.latencies)
        report.p50_ms = round(ordered[len(ordered) // 2] * 1000, 2)
        report.p99_ms = round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 2)
    return report


@contextlib.contextmanager
def relay_process(*args: str, module: str = "relay") -> Iterator[tuple[int, int, Path]]:
    """Runs `python -m relay` (or `module`, which runs its main) on 127.0.0.1 with args;
    yields its port, PID and log path, and stops it by PID at the end."""
    from tests.support.relay_process import RelayProcess

    with RelayProcess(*args, module=module) as relay:
        assert relay.proc is not None
        yield relay.port, relay.proc.pid, relay.log_path


def measure_and_print(
    relay_args: Sequence[str],
    measure: Callable[[int], Coroutine[Any, Any, dict[str, Any]]],
    module: str = "relay",
) -> None:
    """Runs a relay with relay_args, awaits measure(its port) for the figures, adds the
    relay's log errors and options, prints them as JSON, and exits 1 on failures."""
    with relay_process(*relay_args, module=module) as (port, _pid, log_path):
        figures = asyncio.run(measure(port))
        figures["relay_log_errors"] = log_errors(log_path)[:10]
    figures["relay"] = " ".join(relay_args)
    print(json.dumps(figures, indent=2))
    if figures.get("failures") or figures["relay_log_errors"]:
        raise SystemExit(1)


def log_errors(log_path: Path) -> list[str]:
    """Returns the relay log's lines that show a request not answered as designed."""
    text = log_path.read_text(errors="replace")
    return [line for line in text.splitlines() if any(mark in line for mark in ERROR_MARKS)]


def main(argv: list[str] | None = None) -> None:
    """Runs the soak against a relay of its own and prints the samples and a summary."""
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    p.add_argument("--minutes", type=float, default=10.0, help="how long to play")
    p.add_argument("--pairs", type=int, default=20, help="matches played at once")
    p.add_argument("--every", type=float, default=15.0, help="seconds between samples")
    p.add_argument("--think", type=float, default=0.02, help="mean seconds a player thinks")
    p.add_argument("--keep", type=float, default=20.0, help="the relay's --keep")
    p.add_argument("--store", default="memory", help="the relay's --store")
    p.add_argument("--json", type=Path, help="also write the report to this file")
    a = p.parse_args(argv)
    relay_args = (
        "--store",
        a.store,
        "--hold",
        "5",
        "--grace",
        "10",
        "--keep",
        str(a.keep),
        "--requests-per-second",
        "1000000",
        "--seeks-per-minute",
        "1000000",
        "--no-access-log",
        "--log-level",
        "warning",
    )
    with relay_process(*relay_args) as (port, pid, log_path):
        report = asyncio.run(
            soak(
                "127.0.0.1",
                port,
                pid,
                a.minutes * 60,
                a.pairs,
                a.every,
                a.think,
                settle=a.keep + 12,
            )
        )
        errors = log_errors(log_path)
    print("  t(s)  rss(MB)  fds  held  matches  played   moves", flush=True)
    assert report.idle_before is not None and report.idle_after is not None
    for s in [report.idle_before, *report.samples, report.idle_after]:
        print(
            f"{s.seconds:6.0f} {s.rss_mb:8.1f} {s.fds:4d} {s.held_polls:5d} "
            f"{sum(s.matches.values()):8d} {s.played:7d} {s.moves:7d}"
        )
    summary = {**report.summary(), "relay_log_errors": len(errors)}
    print(json.dumps(summary, indent=2))
    for failure in report.failures[:10]:
        print("FAILED:", failure)
    if a.json:
        full = {"summary": summary, "samples": [asdict(s) for s in report.samples]}
        a.json.write_text(json.dumps(full, indent=2))
    if report.failures or errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
