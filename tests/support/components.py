"""Finds, or installs with apt-get, the real components some tests need (nginx, Redis, Chromium).

A run starts by installing, in one apt-get transaction beside the first tests, every
component of COMPONENTS that the machine lacks (install_missing): on a new machine, one
update and one install instead of one a package, and the tests that need none of them run
meanwhile. A test then asks for its component by name (require_binary), and waits for
that transaction if it is under way; a component missing still is installed on its own.
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

__all__ = ["COMPONENTS", "in_ci", "install_missing", "require_binary"]

COMPONENTS = (
    ("redis-server", "redis-server"),
    ("redis-cli", "redis-tools"),
    ("nginx", "nginx"),
    ("/usr/lib/nginx/modules/ngx_nchan_module.so", "libnginx-mod-nchan"),
    ("apache2", "apache2"),
    ("apache2ctl", "apache2"),
    ("/usr/bin/chromium-headless-shell", "chromium-headless-shell"),
    ("certutil", "libnss3-tools"),
    ("openssl", "openssl"),
    ("curl", "curl"),
    ("gcc", "gcc"),
    ("systemd-analyze", "systemd"),
    ("node", "nodejs"),
    ("npm", "npm"),
)
"""Every component a test asks for: the binary found on the PATH (or a file's path) and the
Debian package that brings it (tests/test_components.py holds require_binary's callers to
it)."""


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
    return _apt_install([package])


def _apt_install(packages: list[str]) -> str:
    """Installs Debian packages in one transaction; returns '' on success or why it failed."""
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
            *packages,
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


def install_missing() -> str:
    """Installs, in one apt-get transaction, the packages of every component of COMPONENTS
    that is missing, holding the lock that require_binary waits on; returns '' when nothing
    was missing or all were installed, else why not (each test then asks on its own)."""
    with file_lock(LOCK):
        missing = sorted({package for binary, package in COMPONENTS if _found(binary) is None})
        return _apt_install(missing) if missing else ""


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
    if binary == "node" and (old := _old_node(path)):
        if in_ci():
            pytest.fail(old)
        pytest.skip(old)
    return path


NODE_LEAST = 20
"""The oldest Node.js the JavaScript host runs on: it needs Web Crypto as the global `crypto`
(Node 19 and later), and Node 18 is past its end of life."""


@functools.cache
def _old_node(path: str) -> str:
    """Returns why the node at path is too old for the JavaScript host ("" when it is not)."""
    version = subprocess.run(
        [path, "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout.strip()
    major = version.lstrip("v").split(".")[0]
    if major.isdigit() and int(major) >= NODE_LEAST:
        return ""
    return (
        f"{path} is Node.js {version or '(no version)'}: the JavaScript host needs Node.js "
        f"{NODE_LEAST} or later (Debian bookworm's nodejs is 18); install a newer one"
    )
