"""The example games' entry points in an editable install (`pip install -e .`, as CI runs the
tests): they name `movewire_games.*`, as in a wheel, and load the checkout's examples/, the
sources being edited, not a copy (hatch_build.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import distribution, entry_points
from pathlib import Path

import pytest

from sdk.package import ENTRY_POINT_GROUP
from tests.support.relay_process import ROOT

EXAMPLES = ("connect4", "dots", "xand0")


def editable_here() -> bool:
    """Returns whether movewire is installed editable from this checkout."""
    try:
        found = json.loads(distribution("movewire").read_text("direct_url.json") or "{}")
    except ModuleNotFoundError:
        return False
    url, editable = found.get("url", ""), found.get("dir_info", {}).get("editable", False)
    return bool(editable) and Path(url.removeprefix("file://")).resolve() == ROOT


pytestmark = pytest.mark.skipif(
    not editable_here(), reason="movewire is not installed editable from this checkout"
)


def test_the_entry_points_name_movewire_games_and_load_the_checkouts_examples() -> None:
    found = {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}
    assert {name: found[name].value for name in EXAMPLES} == {
        name: f"movewire_games.{name}.package:PACKAGE" for name in EXAMPLES
    }
    for name in EXAMPLES:
        package = found[name].load()
        assert package.name == name
        assert package.pages == ROOT / "examples" / name / "page"


def test_a_fresh_process_outside_the_checkout_loads_them_from_it_too(tmp_path: Path) -> None:
    code = (
        "from importlib.metadata import entry_points; "
        "print(*sorted(str(e.load().pages) for e in entry_points(group='movewire.games') "
        "if e.dist.name == 'movewire'))"
    )
    run = subprocess.run(
        [sys.executable, "-P", "-c", code],
        cwd=tmp_path,  # not the checkout: only the install finds it
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert run.stdout.split() == [str(ROOT / "examples" / name / "page") for name in EXAMPLES]
