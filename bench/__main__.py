"""`python -m bench`: the relay side by side with Nchan and a bare aiohttp server, in one run.

On Redis, the relay runs with 1, 2, 4 and 8 processes and Nchan with `nchan_redis_pass` to the
same redis-server; redis-server's CPU per move is reported apart from the relay's (or nginx's)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import targets
from bench.cluster import Cluster, matches_per_master, redis_cluster
from bench.idle import hold_polls
from bench.installed import BuildError, installed_tree
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


def lineup(
    redis: Redis | None,
    tree: Path | None,
    processes: tuple[int, ...] = (1, 2, 4, 8),
    cluster: Cluster | None = None,
) -> list[tuple[str, Starter]]:
    """Returns the targets to compare, as (mode, starter) pairs; Redis's CPU counts too.

    The relay runs as the wheel installs it (tree: its hot path compiled), and once more from
    its pure-Python sources; without a tree (no C compiler), from the sources only. On Redis,
    the relay runs once per count in processes, and Nchan with 1, 2 and 8 workers; on a
    Redis Cluster, the relay with 1 and 2 processes."""
    build = "compiled" if tree else "pure Python"
    aiohttp_only = f"relay, memory, 1 process, aiohttp only (--no-front), {build}"
    memory = memory_target(tree)
    no_front = ("--no-front",)
    found: list[tuple[str, Starter]] = [
        ("plain", lambda: targets.relay(aiohttp_only, flags=no_front, tree=tree)),
        ("fast", lambda: targets.relay(aiohttp_only, flags=no_front, tree=tree)),
        ("plain", lambda: targets.relay(memory, tree=tree)),
        ("fast", lambda: targets.relay(memory, tree=tree)),
    ]
    if tree:
        found.append(("fast", lambda: targets.relay("relay, memory, 1 process, pure Python")))
    if not targets.nchan_available():
        found.append(("plain", targets.nchan))
    if redis:
        found += [("fast", redis_relay(redis, tree, count)) for count in processes]
        if not targets.nchan_available():
            found += [("plain", redis_nchan(redis, workers)) for workers in (1, 2, 8)]
    if cluster:
        found += [("fast", cluster_relay(cluster, tree, count)) for count in (1, 2)]
    found.append(("plain", targets.ceiling))
    return found


def redis_relay(redis: Redis, tree: Path | None, count: int) -> Starter:
    """Returns the starter of `count` relay processes on the scratch redis-server."""
    build = "compiled" if tree else "pure Python"
    name = f"relay, Redis, {count} process{'es' if count > 1 else ''}, {build}"
    return lambda: targets.relay(name, count, redis.unix_url, [redis.pid], tree=tree)


def cluster_relay(cluster: Cluster, tree: Path | None, count: int) -> Starter:
    """Returns the starter of `count` relay processes on the scratch 3-master cluster."""
    build = "compiled" if tree else "pure Python"
    name = f"relay, Redis Cluster (3 masters), {count} process{'es' if count > 1 else ''}, {build}"
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


def table(rows: list[dict[str, Any]], idle: list[dict[str, Any]]) -> str:
    """Returns the figures as a markdown table."""
    lines = [
        "| target | mode | moves/s | server CPU µs/move | relay or nginx µs/move | "
        "redis-server µs/move | p50 ms | p99 ms | peak RSS MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['target']} | {row['mode']} | {row['moves_per_s']:,} | "
            f"{row['cpu_us_per_move']} | {row['front_cpu_us_per_move']} | "
            f"{row['redis_cpu_us_per_move']} | {row['p50_ms']} | {row['p99_ms']} | "
            f"{row['peak_rss_mb']} |"
        )
    if idle:
        lines += [
            "",
            "| target | held polls | RSS before MB | RSS holding MB | KB/poll | "
            "p50 ms | p99 ms (paced moves meanwhile) |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for row in idle:
            lines.append(
                f"| {row['target']} | {row['polls']:,} | {row['rss_before_mb']} | "
                f"{row['rss_held_mb']} | {row['kb_per_poll']} | {row['p50_ms']} | "
                f"{row['p99_ms']} |"
            )
    return "\n".join(lines)


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
        help="held polls for the idle-capacity run (0 skips it)",
    )
    p.add_argument(
        "--paced-think", type=float, default=0.02, help="think time (s) of the paced latency run"
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
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    idle: list[dict[str, Any]] = []
    print(f"machine: {machine()}", file=sys.stderr)
    tree = built_tree(not a.sources_only)
    with (
        redis_server(not a.no_redis) as redis,
        redis_cluster(not a.no_redis and not a.no_cluster) as cluster,
    ):
        for mode, start in lineup(redis, tree, a.redis_processes, cluster):
            with start() as target:
                print(f"running {target.name} ({mode})...", file=sys.stderr)
                result = measure(target, mode, a.matches, a.moves, a.workers)
                rows.append(result.row())
                if target.kind == "relay" and target.redis_pids:
                    notices = targets.store_notices(target) / max(1, result.moves)
                    rows[-1]["notices_per_move"] = round(notices, 2)
                if cluster and "Cluster" in target.name:
                    rows[-1]["matches_per_master"] = matches_per_master(cluster)
                print(f"  {rows[-1]}", file=sys.stderr)
                if target.kind == "ceiling" or (mode == "plain" and target.kind == "relay"):
                    continue
                if target.redis_pids or (
                    target.kind == "relay" and target.name != memory_target(tree)
                ):
                    continue
                paced: Result = measure(target, mode, a.matches, 50, a.workers, a.paced_think)
                rows.append({**paced.row(), "mode": f"{mode}, paced {a.paced_think * 1000:g} ms"})
                if a.idle_polls:
                    print(f"  holding {a.idle_polls} polls...", file=sys.stderr)
                    with hold_polls(target, a.idle_polls) as held:
                        assert held.result is not None
                        during = measure(target, mode, 20, 50, a.workers, a.paced_think)
                    idle.append(
                        {
                            "target": target.name,
                            "polls": held.result.polls,
                            "rss_before_mb": round(held.result.rss_before_mb, 1),
                            "rss_held_mb": round(held.result.rss_held_mb, 1),
                            "kb_per_poll": round(held.result.kb_per_poll, 2),
                            "p50_ms": round(during.percentile(0.5), 2),
                            "p99_ms": round(during.percentile(0.99), 2),
                        }
                    )
    report = {
        "machine": machine(),
        "seconds": round(time.monotonic() - started),
        "load": vars(a) | {"json": str(a.json)},
        "runs": rows,
        "idle": idle,
    }
    a.json.write_text(json.dumps(report, indent=2))
    print(f"# movewire relay benchmark ({machine()})\n")
    print(table(rows, idle))
    heard = [row for row in rows if "notices_per_move" in row]
    if heard:
        print("\nEvent notices heard per move, all relay processes together:")
        for row in heard:
            print(f"- {row['target']}: {row['notices_per_move']}")
    for row in rows:
        if "matches_per_master" in row:
            spread = ", ".join(str(count) for count in row["matches_per_master"])
            print(f"\n{row['target']}: matches held by each master so far: {spread}")
    print(
        f"\n{a.matches} matches x {a.moves} moves per run; took {report['seconds']} s; "
        f"JSON in {a.json}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
