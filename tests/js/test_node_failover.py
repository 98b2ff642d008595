"""Runs the JavaScript host's failover cases (tests/js/failover-redis.mjs) against a real relay
on a real Redis, the log cut back with tests/support/lost_writes.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from relay.store.redis.store import DEFAULT_PREFIX
from tests.support.components import require_binary
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess, quick_flags

JS_TESTS = Path(__file__).resolve().parent
ROOT = JS_TESTS.parents[1]


def test_the_js_host_heals_a_log_cut_back_on_a_relay_on_redis() -> None:
    node = require_binary("node", "nodejs")
    with (
        RedisServer(redis_binary()) as redis,
        RelayProcess(*quick_flags(hold=1), "--store", redis.url) as relay,
    ):
        result = subprocess.run(
            [node, "--test", "--test-reporter=tap", str(JS_TESTS / "failover-redis.mjs")],
            cwd=ROOT,
            env={
                **os.environ,
                "MOVEWIRE_REDIS_RELAY": relay.url,
                "MOVEWIRE_REDIS_URL": redis.url,
                "MOVEWIRE_REDIS_PREFIX": DEFAULT_PREFIX,
                "MOVEWIRE_PYTHON": sys.executable,
                "PYTHONPATH": str(ROOT),
            },
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    report = result.stdout[-6000:] + result.stderr[-2000:]
    assert result.returncode == 0, report
    counts = dict(re.findall(r"^# (pass|fail|skipped|cancelled) (\d+)$", result.stdout, re.M))
    assert counts == {"pass": "3", "fail": "0", "skipped": "0", "cancelled": "0"}, report
