"""Runs the JavaScript unit tests (`node --test tests/js/`) against a real relay."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.components import require_binary

JS_TESTS = Path(__file__).resolve().parent
ROOT = JS_TESTS.parents[1]


def test_node_suite_passes_against_a_real_relay(relay_url: str) -> None:
    node = require_binary("node", "nodejs")
    result = subprocess.run(
        [node, "--import", "./tests/js/served.mjs", "--test", "--test-reporter=tap", str(JS_TESTS)],
        cwd=ROOT,
        # The scenario corpus's runner starts the scenario relay with this Python.
        env={**os.environ, "MOVEWIRE_RELAY": relay_url, "MOVEWIRE_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = result.stdout[-6000:] + result.stderr[-2000:]
    assert result.returncode == 0, report
    counts = dict(re.findall(r"^# (pass|fail|skipped|cancelled) (\d+)$", result.stdout, re.M))
    assert counts == {"pass": counts["pass"], "fail": "0", "skipped": "0", "cancelled": "0"}, report
    assert int(counts["pass"]) >= 40, report
