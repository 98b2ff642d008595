"""Typed keys of the relay application's state."""

from __future__ import annotations

from aiohttp import web

from relay.api.endpoints import Api
from relay.api.metrics import RelayMetrics
from relay.config import Config
from relay.push.dispatch import Pusher
from relay.push.triggers import PushTriggers
from relay.store.base import Store

__all__ = ["API", "CONFIG", "METRICS", "PUSH", "STORE"]

CONFIG = web.AppKey("config", Config)
"""The relay's settings."""
STORE = web.AppKey("store", Store)
"""Where every match lives."""
METRICS = web.AppKey("metrics", RelayMetrics)
"""This process's counters."""
API = web.AppKey("api", Api)
"""The protocol's endpoints over the store, shared with the lean front."""
PUSH = web.AppKey("push", tuple[PushTriggers, Pusher])
"""Web Push's triggers and dispatcher, while the relay pushes (relay.http.push)."""
