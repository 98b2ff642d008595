"""Wheel build hook: compiles the relay's hot path with mypyc when a C compiler is at hand, and
maps `movewire_games` onto the checkout's examples/ in an editable install.

Every move goes through the modules in COMPILED (what that saves: docs/performance.md). A
wheel (`pip install .`) carries them compiled beside their sources; an editable install
(`pip install -e .`) stays pure Python, so an edited source is what runs. Without a C
compiler, or with MOVEWIRE_PURE=1 set, the wheel is pure Python: the
same relay, slower."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = (
    "relay/http/front.py",
    "relay/http/front_state.py",
    "relay/http/reader.py",
    "relay/api/endpoints.py",
    "relay/api/calls.py",
    "relay/api/holds.py",
    "relay/api/moves.py",
    "relay/api/matches.py",
    "relay/api/table.py",
    "relay/api/routes.py",
    "relay/store/memory/match.py",
    "relay/store/memory/registry.py",
    "relay/store/memory/act.py",
    "relay/store/memory/waits.py",
    "relay/store/memory/tables.py",
    "relay/store/memory/matches.py",
    "relay/core/model.py",
    "relay/core/events.py",
    "relay/api/fields/request.py",
    "relay/api/limits.py",
    "relay/core/errors.py",
)
"""The modules on every move's path, compiled in this order (paths from the project root)."""

SETUP = """
from mypyc.build import mypycify
from setuptools import setup

setup(
    name="movewire-hot-path",
    ext_modules=mypycify(
        ["--ignore-missing-imports", *{modules!r}],
        opt_level={opt_level!r},
        debug_level="0",
        group_name="relay._compiled",  # its runtime inside relay/, not at the top level
    ),
)
"""


OPT_LEVEL = "MOVEWIRE_OPT_LEVEL"
"""The environment variable that sets mypyc's optimisation level (0 to 3; 3 when unset). The
test suite builds at 0: the same compiled code, a third less build time (docs/performance.md);
what ships and what the bench measures is built at 3."""


def opt_level() -> str:
    """Returns mypyc's optimisation level for this build (OPT_LEVEL, else '3')."""
    level = os.environ.get(OPT_LEVEL, "3")
    if level not in ("0", "1", "2", "3"):
        raise RuntimeError(f"{OPT_LEVEL} must be 0, 1, 2 or 3, not {level!r}")
    return level


def compiler_missing() -> str:
    """Returns why no C extension can be built here, or '' when one can."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} is not on PATH)"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").exists():
        return f"no Python headers ({include}/Python.h is missing)"
    return ""


def compile_hot_path(root: Path, work: Path) -> list[Path]:
    """Compiles COMPILED from a copy of root's relay package in work; returns the extension
    files built, relative to work (relay/**/*.so and mypyc's shared runtime beside relay/)."""
    shutil.copytree(root / "relay", work / "relay", ignore=shutil.ignore_patterns("*.so"))
    setup = SETUP.format(modules=list(COMPILED), opt_level=opt_level())
    (work / "setup.py").write_text(setup)
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(done.stdout.decode(errors="replace")[-2000:])
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    found = [*work.glob(f"*{suffix}"), *work.glob(f"relay/**/*{suffix}")]  # not build/'s copies
    built = sorted(path.relative_to(work) for path in found)
    expected = {Path(module).with_suffix(suffix) for module in COMPILED}
    if not expected <= set(built):
        raise RuntimeError(f"mypyc built {built}, not all of {sorted(expected)}")
    return built


EDITABLE_GAMES = '''"""The example games as an editable install sees them: the modules of
`movewire_games` are the checkout's examples/ (written by hatch_build.py)."""

__path__ = [{examples!r}]
'''
"""The `movewire_games/__init__.py` of an editable install. A wheel holds examples/ as
`movewire_games` (pyproject's force-include); an editable install would copy it there too, and
the game packages' entry points (`movewire_games.xand0.package:PACKAGE`) would then load that
copy, not the sources being edited. This package instead finds its modules in examples/."""


def editable_games(root: Path, work: Path) -> Path:
    """Writes the editable install's `movewire_games/__init__.py` into work; returns it."""
    path = work / "movewire_games_init.py"
    path.write_text(EDITABLE_GAMES.format(examples=str((root / "examples").resolve())))
    return path


class CompileHotPath(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled hot path to a standard (not editable) wheel, and to an editable one a
    `movewire_games` that is the checkout's examples/."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compiles, and adds the extensions to the wheel; falls back to pure Python."""
        if self.target_name == "wheel" and version == "editable":
            self._work = Path(tempfile.mkdtemp(prefix="movewire-build-"))
            games = editable_games(Path(self.root), self._work)
            build_data["force_include_editable"] = {str(games): "movewire_games/__init__.py"}
            return
        if self.target_name != "wheel" or version != "standard":
            return
        if os.environ.get("MOVEWIRE_PURE"):
            self.app.display_info("MOVEWIRE_PURE is set: the relay is built as pure Python.")
            return
        missing = compiler_missing()
        if missing:
            self.app.display_warning(f"The relay is built as pure Python: {missing}.")
            return
        self._work = Path(tempfile.mkdtemp(prefix="movewire-build-"))
        try:
            built = compile_hot_path(Path(self.root), self._work)
        except (OSError, RuntimeError) as exc:
            self.app.display_warning(f"The relay is built as pure Python: mypyc failed: {exc}")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in built:
            build_data["force_include"][str(self._work / path)] = path.as_posix()
        self.app.display_info(f"Compiled the relay's hot path: {len(built)} extensions.")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Removes the compile's work folder once the wheel is written."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
