"""Client processes run side by side to their end, killed if they overrun."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

__all__ = ["run_together"]


def run_together(
    commands: Sequence[Sequence[str]],
    cwd: Path,
    env: dict[str, str] | None = None,
    timeout: float = 40,
) -> list[subprocess.CompletedProcess[str]]:
    """Starts every command at once (no input), and returns each one's end once all are over.

    A process still running after `timeout` seconds is killed, and TimeoutExpired raised."""
    processes = [
        subprocess.Popen(
            list(command), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for command in commands
    ]  # fmt: skip
    try:
        outputs = [process.communicate(timeout=timeout) for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.communicate(timeout=10)
    return [
        subprocess.CompletedProcess(process.args, process.returncode, out, err)
        for process, (out, err) in zip(processes, outputs, strict=True)
    ]
