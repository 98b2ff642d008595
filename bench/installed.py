"""The relay as `pip install .` installs it: the wheel built from this checkout, unpacked.

A wheel carries the relay's hot path compiled with mypyc (hatch_build.py), while the checkout
(and an editable install) runs its pure-Python sources. The bench measures both, and the tests
play the compiled one end to end. Built wheels are kept in the temporary folder, one per state
of the sources, so a second run starts at once."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["BuildError", "build_wheel", "file_lock", "installed_tree", "relay_command"]

ROOT = Path(__file__).resolve().parents[1]

OPT_LEVEL = "MOVEWIRE_OPT_LEVEL"
"""The environment variable hatch_build.py reads mypyc's optimisation level from."""

SOURCES = ("relay", "sdk", "examples")
"""The packages the wheel carries; with pyproject.toml and hatch_build.py, what it is built of."""


class BuildError(RuntimeError):
    """The wheel could not be built, or came out without its compiled hot path."""


def _fingerprint() -> str:
    # The optimisation level the wheel is built at (hatch_build.OPT_LEVEL) is part of its state.
    digest = hashlib.sha256(sys.version.encode() + os.environ.get(OPT_LEVEL, "3").encode())
    files = [ROOT / "pyproject.toml", ROOT / "hatch_build.py"]
    for package in SOURCES:
        files += sorted(p for p in (ROOT / package).rglob("*") if p.is_file() and _kept(p))
    for path in files:
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _kept(path: Path) -> bool:
    return "__pycache__" not in path.parts and path.suffix not in (".pyc", ".so")


def build_wheel(folder: Path, env: dict[str, str]) -> tuple[Path, str]:
    """Builds this checkout's wheel into folder, as `pip install .` does, with environment
    env; returns the wheel and pip's verbose output (the build hook's messages among it).
    Raises BuildError when pip fails."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v", "-w", str(folder)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=600,
        check=False,
    )
    output = done.stdout.decode(errors="replace")
    if done.returncode:
        raise BuildError(f"pip wheel failed: {output[-3000:]}")
    return next(folder.glob("movewire-*.whl")), output


def installed_tree(progress: bool = False) -> Path:
    """Returns a folder holding the packages exactly as the wheel installs them, building the
    wheel first (about a minute) unless this state of the sources was built before. Raises
    BuildError when the build fails or its hot path is not compiled (no C compiler)."""
    tree = Path(tempfile.gettempdir()) / f"movewire-installed-{_fingerprint()}"
    if (tree / "relay").is_dir():
        return tree
    # Parallel test workers build it once: the others wait for the first, then find it.
    with file_lock(tree.with_name("movewire-build.lock")):
        if (tree / "relay").is_dir():
            return tree
        return _build(tree, progress)


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Holds an exclusive lock on the file at path (made if need be) while in the block."""
    with path.open("a") as file:
        fcntl.flock(file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


def _build(tree: Path, progress: bool) -> Path:
    """Builds the wheel and unpacks it as tree."""
    work = Path(tempfile.mkdtemp(prefix="movewire-wheel-"))
    try:
        if progress:
            print("building the wheel (compiling the hot path, about a minute)...", file=sys.stderr)
        started = time.monotonic()
        env = {key: value for key, value in os.environ.items() if key != "MOVEWIRE_PURE"}
        wheel, _ = build_wheel(work, env)
        unpacked = work / "tree"
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(unpacked)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        if not (unpacked / "relay" / "http" / f"front{suffix}").exists():
            raise BuildError(
                f"{wheel.name} is pure Python: its hot path was not compiled (is a C compiler "
                "installed? see hatch_build.py)"
            )
        if progress:
            print(f"built in {time.monotonic() - started:.0f} s", file=sys.stderr)
        try:
            unpacked.rename(tree)
        except OSError:  # built meanwhile by another run
            if not (tree / "relay").is_dir():
                raise
        _forget_old(tree)
        return tree
    finally:
        shutil.rmtree(work, ignore_errors=True)


KEEP = 3
"""Built trees kept in the temporary folder (the newest; each is a few megabytes)."""


def _forget_old(newest: Path) -> None:
    """Removes all but the KEEP newest built trees (older states of the sources)."""
    built = sorted(
        newest.parent.glob("movewire-installed-*"), key=lambda p: p.stat().st_mtime, reverse=True
    )
    for old in built[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)


def relay_command(tree: Path | None) -> tuple[list[str], dict[str, str]]:
    """Returns the command start of `python -m relay` and its environment: from tree (as
    installed) when given, else from the checkout's sources."""
    if tree is None:
        return [sys.executable, "-m", "relay"], dict(os.environ)
    # -P: the working folder is not put first on the path, so the tree's packages are used.
    return [sys.executable, "-P", "-m", "relay"], {**os.environ, "PYTHONPATH": str(tree)}
