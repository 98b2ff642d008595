"""A `--quick` run of `python -m bench.redis_clients`: every client answers every row.

It checks the harness, not the clients' speed: a row has figures, or says why the client
cannot do it ("unsupported: ..."); no row is dropped and none fails."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from bench.redis_clients import CLIENTS, ROWS
from tests.support.components import in_ci, require_binary

ROOT = Path(__file__).resolve().parents[2]


def _require_clients() -> None:
    missing = [name for name in ("coredis", "glide") if importlib.util.find_spec(name) is None]
    if missing:
        message = f"{missing} not installed: pip install -e '.[bench]'"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


# 33 rows, each in a child process of its own: about 30 s alone, past a minute beside a busy
# parallel run; the bound only stops a hang.
@pytest.mark.timeout(200)
def test_quick_run_has_figures_or_a_reason_for_every_row(tmp_path: Path) -> None:
    require_binary("redis-server", "redis-server")
    require_binary("redis-cli", "redis-tools")
    _require_clients()
    out = tmp_path / "clients.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench.redis_clients", "--quick", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    got = {
        (entry["client"], entry["row"]): entry["result"] for entry in json.loads(out.read_text())
    }
    assert set(got) == {(client, row) for client in CLIENTS for row in ROWS}
    for (client, row), figures in got.items():
        if isinstance(figures, str):
            assert figures.startswith("unsupported: ") and len(figures) > 20, (client, row, figures)
            continue
        assert figures["ops"] > 0, (client, row)
        for key in ("client_us", "server_us"):
            assert math.isfinite(figures[key]) and figures[key] > 0, (client, row, figures)
        assert figures["connections"] >= 1, (client, row, figures)
    # Every client can run the move script on one node and on the cluster.
    for client in CLIENTS:
        for row in ROWS:
            if "EVALSHA" in row:
                assert isinstance(got[client, row], dict), (client, row, got[client, row])
    table = result.stdout
    for row in ROWS:
        assert f"| {row} |" in table, row
