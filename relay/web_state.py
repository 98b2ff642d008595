"""Typed keys of the relay application's state."""

from __future__ import annotations

from aiohttp import web

from relay.config import Config
from relay.metrics import RelayMetrics
from relay.store import Store
from relay.web_limits import RateLimiter

__all__ = ["CONFIG", "HELD", "LIFECYCLE", "LIMITER", "METRICS", "STORE", "Lifecycle"]


class Lifecycle:
    """Where the process is in its life; mutable, unlike the started application."""

    closing: bool = False
    """Set when shutdown begins: held polls are answered and new ones are turned away."""


CONFIG = web.AppKey("config", Config)
"""The relay's settings."""
STORE = web.AppKey("store", Store)
"""Where every match lives."""
METRICS = web.AppKey("metrics", RelayMetrics)
"""This process's counters."""
LIMITER = web.AppKey("seek_limiter", RateLimiter)
"""Seeks per client address."""
HELD = web.AppKey("held", dict[tuple[str, int], int])
"""Polls held open in this process, per (match, seat)."""
LIFECYCLE = web.AppKey("lifecycle", Lifecycle)
"""Whether the process is shutting down."""
