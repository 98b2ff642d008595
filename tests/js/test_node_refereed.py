"""Runs the JavaScript host's refereed cases (tests/js/refereed-relay.mjs) against a relay
that referees Connect Four."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

from tests.support.components import require_binary
from tests.support.relay_process import RelayProcess, quick_flags

REFEREED: dict[str, Any] = {"module": "tests.support.refereed_relay"}
"""Runs the relay with the example games' referees for --referee to pick."""

JS_TESTS = Path(__file__).resolve().parent
ROOT = JS_TESTS.parents[1]


def test_the_js_host_takes_a_referees_verdicts() -> None:
    node = require_binary("node", "nodejs")
    flags = (*quick_flags(hold=1), "--referee", "connect4")
    with RelayProcess(*flags, **REFEREED) as relay:
        result = subprocess.run(
            [node, "--test", "--test-reporter=tap", str(JS_TESTS / "refereed-relay.mjs")],
            cwd=ROOT,
            env={**os.environ, "MOVEWIRE_REFEREED_RELAY": relay.url},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    report = result.stdout[-6000:] + result.stderr[-2000:]
    assert result.returncode == 0, report
    counts = dict(re.findall(r"^# (pass|fail|skipped|cancelled) (\d+)$", result.stdout, re.M))
    assert counts == {"pass": "3", "fail": "0", "skipped": "0", "cancelled": "0"}, report
