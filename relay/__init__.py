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
from relay.errors import CODES, RelayError
from relay.memory_store import MemoryStore
from relay.store import Action, MatchInfo, Status, Store, StoreSettings, Ticket
from relay.web_app import create_app

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
