"""Finds, or installs with apt-get, the real components some tests need (nginx, Redis, Chromium).

Outside CI a component that cannot be had skips its tests; in CI (CI=true) it fails them."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

import pytest

__all__ = ["in_ci", "require_binary"]


def in_ci() -> bool:
    """Returns whether this run is CI's, where nothing may be skipped."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@functools.cache
def _apt_updated() -> bool:
    result = subprocess.run(
        ["apt-get", "-o", "DPkg::Lock::Timeout=600", "update", "-qq"],
        capture_output=True,
        timeout=300,
        check=False,
    )
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


def require_binary(binary: str, package: str) -> str:
    """Returns the path of binary, installing Debian's package when it is missing.

    Fails the test in CI, and skips it elsewhere, when the binary cannot be had."""
    path = shutil.which(binary) or (binary if os.path.exists(binary) else None)
    if path is None:
        why = _install(package)
        path = shutil.which(binary) or (binary if os.path.exists(binary) else None)
        if path is None:
            message = f"{binary} is missing and 'apt-get install {package}' failed: {why}"
            if in_ci():
                pytest.fail(message)
            pytest.skip(message)
    return path
