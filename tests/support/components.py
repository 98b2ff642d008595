"""Finds, or installs with apt-get, the real components some tests need (nginx, Redis, Chromium).

Outside CI a component that cannot be had skips its tests; in CI (CI=true) it fails them.
Parallel test workers install each package once: one installs while the others wait on a
lock, then find it installed; the package lists are updated once a run."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from bench.installed import file_lock

__all__ = ["in_ci", "require_binary"]


def in_ci() -> bool:
    """Returns whether this run is CI's, where nothing may be skipped."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


LOCK = Path(tempfile.gettempdir()) / "movewire-apt.lock"
"""Held while a test worker runs apt-get."""


def _updated_stamp() -> Path:
    """Returns the file that says this run updated the package lists (one per run, whatever
    its number of workers: pytest-xdist's run id, or this process's)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
    return Path(tempfile.gettempdir()) / f"movewire-apt-updated-{run}"


def _apt_updated() -> bool:
    stamp = _updated_stamp()
    if stamp.exists():
        return True
    result = subprocess.run(
        ["apt-get", "-o", "DPkg::Lock::Timeout=600", "update", "-qq"],
        capture_output=True,
        timeout=300,
        check=False,
    )
    if result.returncode == 0:
        stamp.touch()
    return result.returncode == 0


@functools.cache
def _install(package: str) -> str:
    """Installs a Debian package; returns '' on success or why it failed."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "not root, or no apt-get"
    _apt_updated()
    result = subprocess.run(
        [
            "apt-get",
            "-o",
            "DPkg::Lock::Timeout=600",
            "install",
            "-y",
            "-qq",
            "--no-install-recommends",
            package,
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )
    return "" if result.returncode == 0 else result.stderr[-2000:]


def _found(binary: str) -> str | None:
    return shutil.which(binary) or (binary if os.path.exists(binary) else None)


def require_binary(binary: str, package: str) -> str:
    """Returns the path of binary, installing Debian's package when it is missing.

    Fails the test in CI, and skips it elsewhere, when the binary cannot be had."""
    path = _found(binary)
    if path is None:
        with file_lock(LOCK):
            path = _found(binary)  # installed meanwhile by another worker
            why = "" if path is not None else _install(package)
        path = path or _found(binary)
        if path is None:
            message = f"{binary} is missing and 'apt-get install {package}' failed: {why}"
            if in_ci():
                pytest.fail(message)
            pytest.skip(message)
    return path
