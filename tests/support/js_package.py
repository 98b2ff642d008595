"""The JavaScript host as the npm package `movewire` (relay/pages/package.json): its pinned tools
(TypeScript, Vite) installed from the package's lockfile, its type check, its types and its
packed file list.

The tools are installed outside relay/pages, in `.cache/js/<lockfile hash>/` of the checkout,
so that the served folder never holds a node_modules, and a second run (or a second test
worker) finds them installed: one worker installs while the others wait on a lock. npm's own
download cache is `.cache/npm/`. `python3 -m tests.support.js_package` runs the type check, as
.ci/run does."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.installed import file_lock

__all__ = [
    "PACKAGE",
    "TOOLS_TIMEOUT",
    "build_types",
    "npm",
    "pack_list",
    "tools",
    "type_check",
]

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "relay" / "pages"
"""The package's folder: the relay's page kit, which it serves as it is."""

CACHE = ROOT / ".cache"
"""The checkout's cache (gitignored): the tools by lockfile, and npm's downloads."""

TOOLS_TIMEOUT = 300
"""Seconds `npm ci` may take to install the tools (a first run downloads about 30 MB)."""

RUN_TIMEOUT = 120
"""Seconds a type check, a build or a pack may take."""


class ToolError(RuntimeError):
    """Raised when npm or a tool of the package fails; the message carries its output."""


def npm_env() -> dict[str, str]:
    """Returns the environment for npm: its cache in the checkout, no audit, no fund notices,
    no update check."""
    return {
        **os.environ,
        "npm_config_cache": str(CACHE / "npm"),
        "npm_config_audit": "false",
        "npm_config_fund": "false",
        "npm_config_update_notifier": "false",
    }


def npm(*args: str, cwd: Path, timeout: float = RUN_TIMEOUT) -> str:
    """Runs npm with args in cwd; returns its output, or raises ToolError with it."""
    run = subprocess.run(
        ["npm", *args],
        cwd=cwd,
        env=npm_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if run.returncode != 0:
        raise ToolError(
            f"npm {' '.join(args)} failed in {cwd}:\n{run.stdout[-3000:]}{run.stderr[-3000:]}"
        )
    return run.stdout


def tools() -> Path:
    """Returns the folder whose node_modules holds the package's pinned tools, installing them
    with `npm ci` from the lockfile the first time (keyed by the lockfile's hash: it records
    the dev dependencies, so another package.json field changes nothing here)."""
    key = hashlib.sha256((PACKAGE / "package-lock.json").read_bytes()).hexdigest()[:16]
    folder = CACHE / "js" / key
    if (folder / "node_modules" / ".bin" / "tsc").exists():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(CACHE / "js" / "install.lock"):
        if (folder / "node_modules" / ".bin" / "tsc").exists():
            return folder  # installed by another worker meanwhile
        work = Path(tempfile.mkdtemp(prefix=f"{key}-", dir=folder.parent))
        try:
            shutil.copyfile(PACKAGE / "package.json", work / "package.json")
            shutil.copyfile(PACKAGE / "package-lock.json", work / "package-lock.json")
            # --ignore-scripts: the package's own prepack (its types) is not wanted here.
            npm("ci", "--ignore-scripts", "--no-progress", cwd=work, timeout=TOOLS_TIMEOUT)
            work.rename(folder)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return folder


def tool(name: str) -> str:
    """Returns the path of a pinned tool's command (`tsc`, `vite`)."""
    return str(tools() / "node_modules" / ".bin" / name)


def run_tool(name: str, *args: str, cwd: Path) -> str:
    """Runs a pinned tool in cwd; returns its output, or raises ToolError with it."""
    run = subprocess.run(
        [tool(name), *args],
        cwd=cwd,
        env=npm_env(),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    if run.returncode != 0:
        raise ToolError(
            f"{name} {' '.join(args)} failed in {cwd}:\n{run.stdout[-6000:]}{run.stderr[-3000:]}"
        )
    return run.stdout


def type_check() -> str:
    """Type-checks the host's modules from their JSDoc (relay/pages/tsconfig.json, strict);
    returns tsc's output, or raises ToolError listing the errors."""
    return run_tool("tsc", "-p", str(PACKAGE / "tsconfig.json"), "--noEmit", cwd=PACKAGE)


def build_types(folder: Path) -> None:
    """Writes the host's declarations (`<module>.d.mts`, from the JSDoc) into folder."""
    run_tool(
        "tsc",
        "-p",
        str(PACKAGE / "tsconfig.json"),
        "--noEmit",
        "false",
        "--declaration",
        "--emitDeclarationOnly",
        "--outDir",
        str(folder),
        cwd=PACKAGE,
    )


def stage(folder: Path) -> Path:
    """Copies the package's folder into folder/movewire with its types built, as `npm pack`
    would pack it after its prepack script; returns the copy."""
    copy = folder / "movewire"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("node_modules", "types"))
    build_types(copy / "types")
    return copy


def pack_list(staged: Path) -> list[str]:
    """Returns the paths of the files `npm pack` puts in the package staged (a dry run)."""
    answer = json.loads(npm("pack", "--dry-run", "--json", "--ignore-scripts", cwd=staged))
    return sorted(entry["path"] for entry in answer[0]["files"])


def pack(staged: Path, into: Path) -> Path:
    """Packs the package staged into a tarball in folder into; returns the tarball."""
    into.mkdir(parents=True, exist_ok=True)
    answer = json.loads(
        npm("pack", "--json", "--ignore-scripts", "--pack-destination", str(into), cwd=staged)
    )
    return into / str(answer[0]["filename"])


def main() -> int:
    """Type-checks the host (for .ci/run); prints what tsc says."""
    try:
        print(type_check() or "tsc: the JavaScript host type-checks (relay/pages/tsconfig.json)")
    except ToolError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
