"""The relay: pairs two players and forwards their opaque moves over HTTP long-poll."""

from __future__ import annotations

try:  # the relay's own dependencies come with the `relay` extra, not with the SDK
    import httptools  # noqa: F401
    import prometheus_client  # noqa: F401
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(
        f"the relay needs its own dependencies ({missing.name} is missing): "
        "pip install 'movewire[relay]'",
        name=missing.name,
    ) from missing

from relay.config import Config
from relay.core.errors import CODES, RelayError
from relay.core.model import Action, MatchInfo, Status, StoreSettings, Ticket
from relay.http.app import create_app
from relay.store.base import Store
from relay.store.memory.store import MemoryStore

__all__ = [
    "CODES",
    "Action",
    "Config",
    "MatchInfo",
    "MemoryStore",
    "RelayError",
    "Status",
    "Store",
    "StoreSettings",
    "Ticket",
    "create_app",
]
