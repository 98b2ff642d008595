"""A `--quick` run of `python -m bench.ratings` without the candidates: the harness runs, and
relay.core.ratings reproduces the worked example and predicts better than Elo."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.ratings import main


def test_a_quick_run_prints_every_table(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--quick"])
    out = capsys.readouterr().out
    assert re.search(r"relay\.core\.ratings +1464\.0507 +151\.5165 +0\.0599960", out)
    losses = dict(re.findall(r"^  (.+?)\s+log loss (\d\.\d+)", out, re.MULTILINE))
    assert set(losses) == {
        "relay.core.ratings, lichess constants",
        "relay.core.ratings, the paper's constants",
        "Elo, K = 24",
    }
    assert float(losses["relay.core.ratings, lichess constants"]) < float(losses["Elo, K = 24"])
    assert "µs per game" in out


def test_candidates_missing_from_their_folder_are_left_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    main(["--quick", "--candidates", str(tmp_path)])
    assert "glicko2 2.1.0" not in capsys.readouterr().out
