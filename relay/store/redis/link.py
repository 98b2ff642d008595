"""What the Redis store's helpers (the lobby, rematch and player-key parts) use of the store:
its settings and key prefix, its library's functions, and plain Redis calls."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

from relay.core.model import StoreSettings

__all__ = ["Link"]

_T = TypeVar("_T")


class Link(Protocol):
    """The store's connection as its parts see it (Connection is one)."""

    settings: StoreSettings
    prefix: str

    async def call(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Runs a function of the library by its script's name; a refusal becomes its
        RelayError."""

    async def guard(self, reply: Awaitable[_T]) -> _T:
        """Awaits a plain Redis reply; a Redis that cannot answer becomes server/unavailable."""

    async def client(self) -> Any:
        """Returns the redis-py client for plain calls (connecting first)."""
