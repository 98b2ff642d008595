"""Content codings of the pages: whether a client takes gzip, and a page's gzipped bytes."""

from __future__ import annotations

import gzip

__all__ = ["GZIP_LEVEL", "accepts_gzip", "gzipped"]

GZIP_LEVEL = 9
"""The pages are compressed once, at start-up: the smallest output is worth the time."""


def _weight(params: list[str]) -> float:
    """Returns the q-value among a coding's parameters (1 when absent, 0 when unreadable)."""
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value.strip())
            except ValueError:
                return 0.0
    return 1.0


def accepts_gzip(accept_encoding: str) -> bool:
    """Returns whether an Accept-Encoding header takes gzip: named (or x-gzip) with a q above
    0, or matched by `*` without gzip itself being refused."""
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        name, *params = item.split(";")
        name = name.strip().lower()
        if name:
            weights[name] = _weight(params)
    for name in ("gzip", "x-gzip"):
        if name in weights:
            return weights[name] > 0
    return weights.get("*", 0.0) > 0


def gzipped(body: bytes) -> bytes | None:
    """Returns body gzipped the same way each time (no timestamp), or None when that does
    not make it smaller."""
    packed = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)
    return packed if len(packed) < len(body) else None
