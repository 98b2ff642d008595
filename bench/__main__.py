"""`python -m bench`: the relay side by side with Nchan and a bare aiohttp server, in one run.

On Redis, the relay runs with 1, 2, 4 and 8 processes and Nchan with `nchan_redis_pass` to the
same redis-server; redis-server's CPU per move is reported apart from the relay's (or nginx's)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import platform
import resource
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import targets
from bench.cluster import Cluster, matches_per_master, redis_cluster
from bench.connect4_match import CONNECT4, REFEREED
from bench.idle import hold_polls, idle_row
from bench.installed import BuildError, installed_tree
from bench.presence_cost import measure_all
from bench.report import ratios, table
from bench.run import Result, measure

__all__ = ["main"]

Starter = Callable[[], contextlib.AbstractContextManager[targets.Target]]


def machine() -> str:
    """Returns a one-line description of this machine."""
    model = "unknown CPU"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{os.cpu_count()} cores, {model}, Python {platform.python_version()}, {platform.system()}"
    )


@dataclass(frozen=True)
class Redis:
    """The scratch redis-server the Redis targets share."""

    unix_url: str
    port: int
    pid: int


@dataclass(frozen=True)
class Entry:
    """One target of the run: how it is measured and started, the cluster it runs on, and
    whether it is measured paced and holding idle polls too."""

    mode: str
    start: Starter
    cluster: Cluster | None = None
    idle: bool = False
    against: Starter | None = None
    """A second target measured in turns with this one, ROUNDS times each, in mode `versus`
    (the cost of one option, set against the same relay without it: see connect4)."""
    versus: str = ""


def lineup(
    redis: Redis | None,
    tree: Path | None,
    processes: tuple[int, ...] = (1, 2, 4, 8),
    clusters: tuple[Cluster, ...] = (),
    idle_polls: int = 10_000,
) -> list[Entry]:
    """Returns the targets to compare; Redis's CPU counts too.

    The relay runs as the wheel installs it (tree: its hot path compiled), and once more from
    its pure-Python sources; without a tree (no C compiler), from the sources only. On Redis,
    the relay runs once per count in processes, and Nchan with 1, 2 and 8 workers; on each
    Redis Cluster, the relay with 1 and 2 processes. The bare aiohttp server runs with 1
    process, and with 2 and 8: what more processes than cores cost on this machine, with no
    relay in it. The relay on memory (compiled if it can be) and Nchan on its own memory are
    also measured paced and holding idle_polls polls (Nchan's nginx sized to hold them)."""
    build = "compiled" if tree else "pure Python"
    aiohttp_only = f"relay, memory, 1 process, aiohttp only (--no-front), {build}"
    memory = memory_target(tree)
    no_front = ("--no-front",)
    found = [
        Entry("plain", lambda: targets.relay(aiohttp_only, flags=no_front, tree=tree)),
        Entry("fast", lambda: targets.relay(aiohttp_only, flags=no_front, tree=tree)),
        Entry("plain", lambda: targets.relay(memory, tree=tree)),
        Entry("fast", lambda: targets.relay(memory, tree=tree), idle=True),
        # As the shipped SDKs and pages play: one request per move, the table asked for too.
        Entry("table", lambda: targets.relay(memory, tree=tree)),
    ]
    if tree:
        found.append(Entry("fast", lambda: targets.relay("relay, memory, 1 process, pure Python")))
    if not targets.nchan_available():
        # The idle polls and the paced matches', as many as the open files limit lets nginx hold.
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        connections = max(30_000, min(idle_polls + 2_000, hard))
        found.append(Entry("plain", lambda: targets.nchan(connections=connections), idle=True))
    found += connect4(memory, "memory", [], tree)
    if redis:
        found += [Entry("fast", redis_relay(redis, tree, count)) for count in processes]
        found.append(Entry("table", redis_relay(redis, tree, 1)))
        found += connect4(redis_name(tree, 1), redis.unix_url, [redis.pid], tree)
        if not targets.nchan_available():
            found += [Entry("plain", redis_nchan(redis, workers)) for workers in (1, 2, 8)]
    for cluster in clusters:
        found += [Entry("fast", cluster_relay(cluster, tree, count), cluster) for count in (1, 2)]
    found += [Entry("plain", ceiling(count)) for count in (1, 2, 8)]
    return found


def run_entry(
    entry: Entry, a: argparse.Namespace, rows: list[dict[str, Any]], idle: list[dict[str, Any]]
) -> None:
    """Measures one target: at full speed, then (the idle-capacity targets) paced, and paced
    again while holding `--idle-polls` polls; with --only-idle, the last alone."""
    mode, cluster = entry.mode, entry.cluster
    if entry.against is not None:
        if not a.only_idle and a.rounds:
            run_pair(entry, a, rows)
        return
    with entry.start() as target:
        print(f"running {target.name} ({mode})...", file=sys.stderr)
        if not a.only_idle:
            result = measure(target, mode, a.matches, a.moves, a.workers)
            rows.append(result.row())
            if target.kind == "relay" and target.redis_pids:
                notices = targets.store_notices(target) / max(1, result.moves)
                rows[-1]["notices_per_move"] = round(notices, 2)
            if cluster:
                rows[-1]["matches_per_master"] = matches_per_master(cluster)
            print(f"  {rows[-1]}", file=sys.stderr)
        if not entry.idle:
            return
        if not a.only_idle:
            paced: Result = measure(target, mode, a.matches, 50, a.workers, a.paced_think)
            rows.append({**paced.row(), "mode": f"{mode}, paced {a.paced_think * 1000:g} ms"})
        if a.idle_polls:
            print(f"  holding {a.idle_polls:,} polls...", file=sys.stderr)
            with hold_polls(target, a.idle_polls) as held:
                print(f"  {held.result}", file=sys.stderr)
                during = measure(target, mode, 20, 50, a.workers, a.paced_think)
            idle.append(idle_row(held.result, during))
            print(f"  {idle[-1]}", file=sys.stderr)


def connect4(name: str, store: str, redis_pids: list[int], tree: Path | None) -> list[Entry]:
    """Returns whole Connect Four matches through the relay named, on store: without a
    referee, and against it refereed (--referee connect4), measured in turns."""

    def start(*flags: str) -> Starter:
        return functools.partial(
            targets.relay, name, 1, store, redis_pids, flags, tree, module="bench.refereed"
        )

    return [Entry(CONNECT4, start(), against=start("--referee", "connect4"), versus=REFEREED)]


def run_pair(entry: Entry, a: argparse.Namespace, rows: list[dict[str, Any]]) -> None:
    """Measures an entry and the one it is set against in turns, `--rounds` times each (the
    machine's slow drifts, other work or its clock's speed, fall on both alike), and adds
    each one's figures over all its turns."""
    assert entry.against is not None
    with entry.start() as one, entry.against() as other:
        print(f"running {one.name} ({entry.mode} against {entry.versus})...", file=sys.stderr)
        found: dict[str, list[Result]] = {entry.mode: [], entry.versus: []}
        for _ in range(a.rounds):
            for mode, target in ((entry.mode, one), (entry.versus, other)):
                found[mode].append(measure(target, mode, a.matches, a.moves, a.workers))
        for target, results in zip((one, other), found.values(), strict=True):
            total = Result.total(results)
            rows.append(total.row())
            if target.redis_pids:
                notices = targets.store_notices(target) / max(1, total.moves)
                rows[-1]["notices_per_move"] = round(notices, 2)
            print(f"  {rows[-1]}", file=sys.stderr)


def ceiling(processes: int) -> Starter:
    """Returns the starter of the bare aiohttp server with `processes` processes."""
    return lambda: targets.ceiling(processes)


def redis_name(tree: Path | None, count: int) -> str:
    """Returns the name of `count` relay processes on the scratch redis-server."""
    build = "compiled" if tree else "pure Python"
    return f"relay, Redis, {count} process{'es' if count > 1 else ''}, {build}"


def redis_relay(redis: Redis, tree: Path | None, count: int) -> Starter:
    """Returns the starter of `count` relay processes on the scratch redis-server."""
    name = redis_name(tree, count)
    return lambda: targets.relay(name, count, redis.unix_url, [redis.pid], tree=tree)


def cluster_relay(cluster: Cluster, tree: Path | None, count: int) -> Starter:
    """Returns the starter of `count` relay processes on a scratch cluster."""
    build = "compiled" if tree else "pure Python"
    masters = f"{cluster.masters} master{'s' if cluster.masters > 1 else ''}"
    processes = f"{count} process{'es' if count > 1 else ''}"
    name = f"relay, Redis Cluster ({masters}), {processes}, {build}"
    return lambda: targets.relay(name, count, cluster.url, cluster.pids, tree=tree)


def redis_nchan(redis: Redis, workers: int) -> Starter:
    """Returns the starter of Nchan (`workers` nginx workers) on the scratch redis-server."""
    return lambda: targets.nchan(workers, redis.port, [redis.pid])


def memory_target(tree: Path | None) -> str:
    """Returns the name of the relay target also measured paced and holding idle polls."""
    return f"relay, memory, 1 process, {'compiled' if tree else 'pure Python'}"


def built_tree(wanted: bool) -> Path | None:
    """Returns the relay as the wheel installs it, built if need be; None when not wanted or
    when it cannot be compiled here (the bench then measures the sources only)."""
    if not wanted:
        return None
    try:
        return installed_tree(progress=True)
    except BuildError as exc:
        print(f"measuring the pure-Python sources only: {exc}", file=sys.stderr)
        return None


@contextlib.contextmanager
def redis_server(wanted: bool) -> Iterator[Redis | None]:
    """Yields a scratch redis-server (None when not wanted or installed)."""
    binary = shutil.which("redis-server")
    if not wanted or binary is None:
        if wanted:
            print("redis-server is not installed: skipping the Redis targets", file=sys.stderr)
        yield None
        return
    from tests.support.redis_server import RedisServer

    with RedisServer(binary) as server:
        assert server.proc is not None
        yield Redis(server.unix_url, server.port, server.proc.pid)


def _counts(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        counts = ()
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected positive counts like 1,2,4,8, got {text!r}")
    return counts


def main(argv: list[str] | None = None) -> int:
    """Runs the comparison and prints the markdown table (and writes JSON)."""
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    p.add_argument("--matches", type=int, default=100, help="concurrent matches")
    p.add_argument("--moves", type=int, default=300, help="moves per match")
    p.add_argument("--workers", type=int, default=2, help="load generator processes")
    p.add_argument(
        "--idle-polls",
        type=int,
        default=10_000,
        help="held polls for the idle-capacity run (0 skips it; 100000 is the box-capacity "
        "run of docs/performance.md)",
    )
    p.add_argument(
        "--paced-think", type=float, default=0.02, help="think time (s) of the paced latency run"
    )
    p.add_argument(
        "--only-idle",
        action="store_true",
        help="run the idle-capacity run alone (the relay on memory and Nchan, nothing else)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="turns of each of a pair measured in turns (a referee's cost: the relay "
        "refereeing Connect Four against not; 0 skips it)",
    )
    p.add_argument(
        "--presence-matches",
        type=int,
        default=200,
        help="idle matches of the presence-cost run, the hold before beside today's (0 skips it)",
    )
    p.add_argument(
        "--only-presence",
        action="store_true",
        help="run the presence-cost run alone (requests and CPU per idle match per minute)",
    )
    p.add_argument("--no-redis", action="store_true", help="skip the Redis targets")
    p.add_argument("--no-cluster", action="store_true", help="skip the Redis Cluster targets")
    p.add_argument(
        "--redis-processes",
        type=_counts,
        default=(1, 2, 4, 8),
        help="relay process counts of the Redis scaling run, comma-separated (default 1,2,4,8)",
    )
    p.add_argument(
        "--sources-only",
        action="store_true",
        help="run the relay from its pure-Python sources only (no wheel is built)",
    )
    p.add_argument(
        "--json",
        type=Path,
        default=Path("bench-results.json"),
        help="where to write the figures as JSON",
    )
    a = p.parse_args(argv)
    for name in ("matches", "moves", "workers", "rounds", "idle_polls", "presence_matches"):
        if getattr(a, name) < 0:
            p.error(f"--{name.replace('_', '-')} must be 0 or more")
    if a.only_presence:
        return _presence(a.presence_matches or 200)
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    idle: list[dict[str, Any]] = []
    print(f"machine: {machine()}", file=sys.stderr)
    tree = built_tree(not a.sources_only)
    on_redis = not a.no_redis and not a.only_idle
    with (
        redis_server(on_redis) as redis,
        redis_cluster(on_redis and not a.no_cluster, masters=1) as lone,
        redis_cluster(on_redis and not a.no_cluster, masters=3) as three,
    ):
        clusters = tuple(cluster for cluster in (lone, three) if cluster)
        for entry in lineup(redis, tree, a.redis_processes, clusters, a.idle_polls):
            if entry.idle or not a.only_idle:
                run_entry(entry, a, rows, idle)
    presence = []
    if a.presence_matches and not a.only_idle:
        presence = [cost.row() for cost in measure_all(a.presence_matches)]
    side_by_side = ratios(rows)
    report = {
        "machine": machine(),
        "seconds": round(time.monotonic() - started),
        "load": vars(a) | {"json": str(a.json)},
        "runs": rows,
        "idle": idle,
        "ratios": side_by_side,
        "presence": presence,
    }
    a.json.write_text(json.dumps(report, indent=2))
    print(f"# movewire relay benchmark ({machine()})\n")
    print(table(rows, idle))
    heard = [row for row in rows if "notices_per_move" in row]
    if heard:
        print("\nEvent notices heard per move, all relay processes together:")
        for row in heard:
            print(f"- {row['target']}: {row['notices_per_move']}")
    if side_by_side:
        print("\nSide by side, in this run:")
        for what, ratio in side_by_side.items():
            print(f"- {what}: {ratio}x")
    for row in rows:
        if "matches_per_master" in row:
            spread = ", ".join(str(count) for count in row["matches_per_master"])
            print(f"\n{row['target']}: matches held by each master so far: {spread}")
    if presence:
        print("\nPresence within 10 s, per idle match per minute (both seats polling):")
        print(_presence_table(presence))
    load = f"{a.matches} matches x {a.moves} moves per run"
    if a.only_idle:
        load = f"the idle-capacity run alone, {a.idle_polls:,} polls asked for"
    print(f"\n{load}; took {report['seconds']} s; JSON in {a.json}")
    return 0


def _presence_table(rows: list[dict[str, Any]]) -> str:
    """Returns the presence-cost rows as a markdown table, with today's over before's."""
    lines = ["| hold | requests | relay CPU, ms |", "|---|---:|---:|"]
    for row in rows:
        lines.append(
            f"| {row['config']} | {row['requests_per_match_minute']} "
            f"| {row['cpu_ms_per_match_minute']} |"
        )
    if len(rows) == 2:
        before, now = rows
        requests = now["requests_per_match_minute"] / before["requests_per_match_minute"]
        cpu = now["cpu_ms_per_match_minute"] / before["cpu_ms_per_match_minute"]
        lines.append(f"| now over before | {requests:.2f}x | {cpu:.2f}x |")
    return "\n".join(lines)


def _presence(matches: int) -> int:
    """Runs the presence-cost run alone and prints its table."""
    print(f"machine: {machine()}", file=sys.stderr)
    rows = [cost.row() for cost in measure_all(matches)]
    print(f"# What presence within 10 s costs ({machine()})\n")
    print(_presence_table(rows))
    print(f"\n{matches} idle matches, both seats polling, 30 s each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
