"""Scrapes of a relay's /metrics: a Prometheus text's samples, and a GET sent from a given
address (a proxy in front answers /metrics to its own host only)."""

from __future__ import annotations

import aiohttp

__all__ = ["Samples", "get", "samples"]

Samples = dict[str, float]
"""One scrape: each sample line's name and labels, and its value."""


def samples(text: str) -> Samples:
    """Returns the samples of a Prometheus text."""
    found: Samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found


async def get(url: str, source: str = "127.0.0.1") -> tuple[int, str, str]:
    """Returns the status, media type and text of GET url, sent from the address source."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        answer = await session.get(url)
        async with answer:
            return answer.status, answer.content_type, await answer.text()
