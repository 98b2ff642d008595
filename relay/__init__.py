"""The relay: pairs two players and forwards their opaque moves over HTTP long-poll."""

from __future__ import annotations

from relay import extra  # noqa: F401  (first: the relay's own dependencies are there)
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
