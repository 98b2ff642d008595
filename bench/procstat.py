"""CPU time and memory of server processes, read from /proc."""

from __future__ import annotations

import os
from collections.abc import Iterable

__all__ = ["cpu_seconds", "peak_rss_mb", "rss_mb"]

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: Iterable[int]) -> float:
    """Returns the user + system CPU seconds the processes have used so far, summed."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of stat)
    return total / _TICKS


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def rss_mb(pids: Iterable[int]) -> float:
    """Returns the resident memory of the processes now, summed, in MB."""
    return sum(_status_kb(pid, "VmRSS") for pid in pids) / 1024


def peak_rss_mb(pids: Iterable[int]) -> float:
    """Returns the peak resident memory of the processes, summed, in MB."""
    return sum(_status_kb(pid, "VmHWM") for pid in pids) / 1024
