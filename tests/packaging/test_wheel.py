"""The wheel `pip install .` builds: the relay's hot path compiled, or pure Python without a
C compiler (or with MOVEWIRE_PURE=1), and the same relay either way."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from bench.installed import ROOT

SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def build(tmp_path: Path, **env: str) -> tuple[Path, str]:
    """Builds the wheel with extra environment; returns it and pip's verbose output."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v", "-w", str(tmp_path)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return next(tmp_path.glob("movewire-*.whl")), done.stdout + done.stderr


def test_the_installed_tree_runs_the_hot_path_compiled(installed: Path) -> None:
    compiled = {path.name for path in (installed / "relay").glob(f"*{SUFFIX}")}
    assert {f"{name}{SUFFIX}" for name in ("web_front", "api", "memory_store")} <= compiled
    run = subprocess.run(
        [sys.executable, "-P", "-c", "from relay.metrics import hot_path; print(hot_path())"],
        env={**os.environ, "PYTHONPATH": str(installed)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert run.stdout.strip() == "compiled"


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"MOVEWIRE_PURE": "1"}, "MOVEWIRE_PURE is set"),
        ({"CC": "/nonexistent/cc"}, "no C compiler ('/nonexistent/cc' is not on PATH)"),
    ],
)
def test_without_a_compiler_the_wheel_is_pure_python(
    tmp_path: Path, env: dict[str, str], said: str
) -> None:
    wheel, output = build(tmp_path, **env)
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "relay/web_front.py" in names
    assert not [name for name in names if name.endswith(SUFFIX)]
    assert said in output
