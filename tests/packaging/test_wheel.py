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

from bench.installed import build_wheel

SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def test_the_installed_tree_runs_the_hot_path_compiled(installed: Path) -> None:
    compiled = {
        path.relative_to(installed).as_posix() for path in installed.rglob(f"relay/**/*{SUFFIX}")
    }
    wanted = ("relay/http/front", "relay/api/endpoints", "relay/store/memory/store")
    assert {f"{name}{SUFFIX}" for name in wanted} <= compiled
    run = subprocess.run(
        [sys.executable, "-P", "-c", "from relay.api.metrics import hot_path; print(hot_path())"],
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
    wheel, output = build_wheel(tmp_path, {**os.environ, **env})
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "relay/http/front.py" in names
    assert not [name for name in names if name.endswith(SUFFIX)]
    assert said in output
