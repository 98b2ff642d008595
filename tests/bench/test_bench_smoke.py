"""A tiny run of `python -m bench`: every target plays, and the figures come out whole.

It checks the harness, not the relay's speed: no timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.connect4_match import GAME
from bench.report import RATIOS, ratios
from bench.targets import NCHAN_MODULE
from tests.support.components import require_binary

ROOT = Path(__file__).resolve().parents[2]


# The run itself may take 240 s on a busy machine (20 s when idle); the time to build the wheel
# (the installed fixture, bounded by pip's own timeout) is not counted.
@pytest.mark.timeout(300, func_only=True)
def test_bench_runs_every_target_and_reports_whole_figures(tmp_path: Path, installed: Path) -> None:
    # installed: the wheel the bench runs is built (or found built) before the timeout starts.
    require_binary("nginx", "nginx")
    require_binary(NCHAN_MODULE, "libnginx-mod-nchan")
    require_binary("redis-server", "redis-server")
    require_binary("redis-cli", "redis-tools")
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--matches", "4", "--moves", "10",
         "--idle-polls", "200", "--rounds", "1", "--presence-matches", "0",
         "--redis-processes", "1,2", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(out.read_text())
    runs = {(run["target"], run["mode"]) for run in report["runs"]}
    names = {target for target, _ in runs}
    assert {
        "relay, memory, 1 process, compiled",
        "relay, memory, 1 process, pure Python",
        "relay, memory, 1 process, aiohttp only (--no-front), compiled",
        "relay, Redis, 1 process, compiled",
        "relay, Redis, 2 processes, compiled",
        "Nchan (nginx, 1 worker)",
        "Nchan on Redis (nginx, 1 worker)",
        "Nchan on Redis (nginx, 2 workers)",
        "Nchan on Redis (nginx, 8 workers)",
        "relay, Redis Cluster (1 master), 1 process, compiled",
        "relay, Redis Cluster (1 master), 2 processes, compiled",
        "relay, Redis Cluster (3 masters), 1 process, compiled",
        "relay, Redis Cluster (3 masters), 2 processes, compiled",
        "aiohttp, fixed answer (ceiling)",
        "aiohttp, fixed answer, 2 processes (the machine's cost of processes)",
        "aiohttp, fixed answer, 8 processes (the machine's cost of processes)",
    } <= names
    for store in ("memory", "Redis"):  # whole Connect Four matches, refereed and not
        for mode in ("connect4", "connect4, refereed"):
            assert (f"relay, {store}, 1 process, compiled", mode) in runs
    for run in report["runs"]:
        # Every move of every match was delivered (4 matches x 10 moves, or 4 x 50 paced, or
        # 4 whole games of Connect Four).
        if run["mode"].startswith("connect4"):
            assert run["moves"] == 4 * len(GAME), run
        else:
            assert run["moves"] in (40, 200), run
        assert run["cpu_us_per_move"] >= 0 and run["peak_rss_mb"] > 0
        # Redis's share is reported apart, and the two parts make the whole.
        parts = run["front_cpu_us_per_move"] + run["redis_cpu_us_per_move"]
        assert run["redis_cpu_us_per_move"] >= 0 and run["front_cpu_us_per_move"] >= 0
        assert abs(parts - run["cpu_us_per_move"]) <= 0.2, run
        if "Redis" not in run["target"]:
            assert run["redis_cpu_us_per_move"] == 0, run
        if run["target"].startswith("relay, Redis"):
            # Each move is heard by the one process that waits for it: about 1, whatever the
            # number of processes (the setup's seeks and starts add a little).
            assert 0 < run["notices_per_move"] <= 2, run
        if "Cluster" in run["target"]:
            # Where the matches landed, master by master (4 matches may miss one of three;
            # tests/hosting/test_redis_cluster_store.py checks the spread).
            masters = 1 if "(1 master)" in run["target"] else 3
            assert len(run["matches_per_master"]) == masters, run
            assert sum(run["matches_per_master"]) >= 4, run
    # The comparisons the relay is judged by, each a positive ratio (a figure of 0 CPU ticks
    # in so short a run gives none).
    assert set(report["ratios"]) <= {what for what, *_ in RATIOS}
    assert all(ratio > 0 for ratio in report["ratios"].values())
    assert {row["target"] for row in report["idle"]} == {
        "relay, memory, 1 process, compiled",
        "Nchan (nginx, 1 worker)",
    }
    assert all(row["polls"] == 200 for row in report["idle"])
    assert "| target | mode | moves/s |" in result.stdout
    assert all(f"- {what}: " in result.stdout for what in report["ratios"])


def test_ratios_set_each_figure_against_its_own_and_skip_what_did_not_run() -> None:
    def row(target: str, cpu: float, redis: float = 0.0, mode: str = "fast") -> dict[str, Any]:
        return {"target": target, "mode": mode, "cpu_us_per_move": cpu,
                "front_cpu_us_per_move": cpu - redis, "redis_cpu_us_per_move": redis}  # fmt: skip

    rows = [
        row("relay, Redis, 1 process, compiled", 60.0, 15.0),
        row("relay, Redis, 2 processes, compiled", 62.0, 16.0),
        row("relay, Redis, 2 processes, compiled", 999.0, 999.0, mode="fast, paced 20 ms"),
        row("relay, Redis, 8 processes, compiled", 76.0, 16.0),
        row("Nchan on Redis (nginx, 1 worker)", 80.0, 50.0, mode="plain"),
        row("Nchan on Redis (nginx, 2 workers)", 90.0, 50.0, mode="plain"),
        row("relay, Redis Cluster (3 masters), 2 processes, compiled", 70.0, 24.0),
        row("relay, Redis Cluster (1 master), 2 processes, compiled", 66.0, 0.0),
    ]
    found = ratios(rows)
    assert found == {
        "relay on Redis, relay CPU per move, 8 processes against 2": round(60 / 46, 2),
        "relay on Redis against Nchan on Redis, server CPU per move, 1 process or worker": 0.75,
        "relay on Redis against Nchan on Redis, server CPU per move, 2 processes or workers": (
            round(62 / 90, 2)
        ),
        "redis-server CPU per move, 3-master cluster against one Redis, 2 relay processes": 1.5,
    }
