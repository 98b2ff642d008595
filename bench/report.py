"""The figures of `python -m bench` as a markdown table, and the ratios the relay is judged by."""

from __future__ import annotations

from typing import Any

__all__ = ["RATIOS", "ratios", "table"]


def table(rows: list[dict[str, Any]], idle: list[dict[str, Any]]) -> str:
    """Returns the figures as markdown tables (the idle-capacity run's apart; none of the
    runs' when only the idle-capacity run ran)."""
    lines = []
    if rows:
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
            *([""] if lines else []),
            "| target | held polls | RSS at start MB | RSS before MB (matches made) | "
            "RSS holding MB | KB/poll | open s | p50 ms | p99 ms (paced moves meanwhile) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in idle:
            lines.append(
                f"| {row['target']} | {row['polls']:,} | {row['rss_start_mb']} | "
                f"{row['rss_before_mb']} | "
                f"{row['rss_held_mb']} | {row['kb_per_poll']} | {row['open_s']} | "
                f"{row['p50_ms']} | {row['p99_ms']} |"
            )
        lines += [
            f"\n{row['target']}: {row['requested']:,} polls asked for, {row['polls']:,} held: "
            f"bounded by {row['bound']}"
            for row in idle
            if row["bound"]
        ]
    return "\n".join(lines)


def _figure(rows: list[dict[str, Any]], prefix: str, field: str) -> float | None:
    """Returns `field` of the first row whose target starts with prefix, run at full speed
    (None if none does); a prefix ending in '@table' names the run that asks for the table
    too, as shipped clients play."""
    prefix, _, mode = prefix.partition("@")
    modes = (mode,) if mode else ("fast", "plain")
    for row in rows:
        if row["target"].startswith(prefix) and row["mode"] in modes:
            return float(row[field])
    return None


RATIOS = (
    ("relay on memory, the table asked for (as the shipped clients play) against not, relay "
     "CPU per move", "relay, memory, 1 process, compiled@table", "relay, memory, 1 process, "
     "compiled@fast", "cpu_us_per_move"),
    ("relay on Redis, the table asked for (as the shipped clients play) against not, server "
     "CPU per move, 1 process", "relay, Redis, 1 process@table", "relay, Redis, 1 process@fast",
     "cpu_us_per_move"),
    ("relay on Redis with the table (as the shipped clients play) against Nchan on Redis, "
     "server CPU per move, 1 process or worker", "relay, Redis, 1 process@table",
     "Nchan on Redis (nginx, 1 worker)", "cpu_us_per_move"),
    ("relay refereeing Connect Four against not, relay CPU per move of whole matches, on "
     "memory", "relay, memory, 1 process@connect4, refereed", "relay, memory, 1 process@connect4",
     "cpu_us_per_move"),
    ("relay refereeing Connect Four against not, relay CPU per move of whole matches, on "
     "Redis", "relay, Redis, 1 process@connect4, refereed", "relay, Redis, 1 process@connect4",
     "front_cpu_us_per_move"),
    ("relay on Redis, relay CPU per move, 8 processes against 2",
     "relay, Redis, 8 processes", "relay, Redis, 2 processes", "front_cpu_us_per_move"),
    ("Nchan on Redis, nginx CPU per move, 8 workers against 2",
     "Nchan on Redis (nginx, 8 workers)", "Nchan on Redis (nginx, 2 workers)",
     "front_cpu_us_per_move"),
    ("bare aiohttp, CPU per request, 8 processes against 2",
     "aiohttp, fixed answer, 8 processes", "aiohttp, fixed answer, 2 processes",
     "cpu_us_per_move"),
    ("relay on Redis against Nchan on Redis, server CPU per move, 1 process or worker",
     "relay, Redis, 1 process", "Nchan on Redis (nginx, 1 worker)", "cpu_us_per_move"),
    ("relay on Redis against Nchan on Redis, server CPU per move, 2 processes or workers",
     "relay, Redis, 2 processes", "Nchan on Redis (nginx, 2 workers)", "cpu_us_per_move"),
    ("redis-server CPU per move, 3-master cluster against one Redis, 1 relay process",
     "relay, Redis Cluster (3 masters), 1 process", "relay, Redis, 1 process",
     "redis_cpu_us_per_move"),
    ("redis-server CPU per move, 3-master cluster against one Redis, 2 relay processes",
     "relay, Redis Cluster (3 masters), 2 processes", "relay, Redis, 2 processes",
     "redis_cpu_us_per_move"),
    ("redis-server CPU per move, 1-master cluster against one Redis, 2 relay processes",
     "relay, Redis Cluster (1 master), 2 processes", "relay, Redis, 2 processes",
     "redis_cpu_us_per_move"),
    ("redis-server CPU per move, 3-master cluster against a 1-master cluster, 2 relay processes",
     "relay, Redis Cluster (3 masters), 2 processes",
     "relay, Redis Cluster (1 master), 2 processes", "redis_cpu_us_per_move"),
)  # fmt: skip
"""What is compared: a name, the target measured, the target it is set against, the figure."""


def ratios(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Returns each comparison of RATIOS whose two targets ran, as their figures' ratio (none
    where a figure is 0: a run too short for the CPU clock's ticks)."""
    found = {}
    for what, target, against, field in RATIOS:
        top, bottom = _figure(rows, target, field), _figure(rows, against, field)
        if top and bottom:
            found[what] = round(top / bottom, 2)
    return found
