"""The wheel `pip install .` builds: the relay's hot path compiled, or pure Python without a
C compiler (or with MOVEWIRE_PURE=1), and the same relay either way."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import types
import zipfile
from pathlib import Path
from typing import Any

import pytest

from bench.installed import build_wheel
from tests.support.relay_process import ROOT

SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def test_the_installed_tree_runs_the_hot_path_compiled(installed: Path) -> None:
    compiled = {
        path.relative_to(installed).as_posix() for path in installed.rglob(f"relay/**/*{SUFFIX}")
    }
    wanted = ("relay/http/front", "relay/api/endpoints", "relay/store/memory/matches")
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


def test_with_movewire_pure_the_wheel_is_pure_python(tmp_path: Path) -> None:
    wheel, output = build_wheel(tmp_path, {**os.environ, "MOVEWIRE_PURE": "1"})
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "relay/http/front.py" in names
    assert not [name for name in names if name.endswith(SUFFIX)]
    assert "MOVEWIRE_PURE is set" in output


class _Said:
    """What the build hook tells the builder (hatchling's `app`), kept."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def display_info(self, text: str) -> None:
        self.lines.append(text)

    def display_warning(self, text: str) -> None:
        self.lines.append(text)


def _hook_module(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Returns hatch_build.py loaded as a module. hatchling lives in the build's environment,
    not here, so its base class is stood in for."""
    interface = types.ModuleType("hatchling.builders.hooks.plugin.interface")
    base = type("BuildHookInterface", (), {"__class_getitem__": classmethod(lambda c, _: c)})
    interface.BuildHookInterface = base  # type: ignore[attr-defined]
    for name in ("hatchling", "hatchling.builders", "hatchling.builders.hooks",
                 "hatchling.builders.hooks.plugin"):  # fmt: skip
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, interface.__name__, interface)
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook_module)
    return hook_module


def test_the_optimisation_level_is_3_unless_the_environment_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hook_module = _hook_module(monkeypatch)
    monkeypatch.delenv("MOVEWIRE_OPT_LEVEL", raising=False)
    assert hook_module.opt_level() == "3"
    monkeypatch.setenv("MOVEWIRE_OPT_LEVEL", "0")
    assert hook_module.opt_level() == "0"
    setup = hook_module.SETUP.format(modules=["relay/core/model.py"], opt_level="0")
    assert 'opt_level="0"' in setup.replace("'", '"')
    monkeypatch.setenv("MOVEWIRE_OPT_LEVEL", "fast")
    with pytest.raises(RuntimeError, match="MOVEWIRE_OPT_LEVEL must be 0, 1, 2 or 3"):
        hook_module.opt_level()


def test_without_a_c_compiler_the_hook_builds_pure_python_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The hook's own branch, run alone: the same pure wheel as MOVEWIRE_PURE's (built above),
    # told apart only by what it says.
    hook_module = _hook_module(monkeypatch)
    monkeypatch.delenv("MOVEWIRE_PURE", raising=False)
    monkeypatch.setenv("CC", "/nonexistent/cc")
    hook = hook_module.CompileHotPath()
    hook.target_name, hook.root, hook.app = "wheel", str(ROOT), _Said()
    build_data: dict[str, object] = {}
    hook.initialize("standard", build_data)
    assert hook.app.lines == [
        "The relay is built as pure Python: no C compiler ('/nonexistent/cc' is not on PATH)."
    ]
    assert build_data == {} and not hasattr(hook, "_work")  # nothing compiled, nothing added
