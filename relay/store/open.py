"""Opens the store a `--store` URL names: one table from the URL's scheme to its backend.

Nothing else in the relay asks which store it has: the endpoints, the webhook and the
command line see only the Store interface. A backend's module is imported only when a URL
names it, so the memory store needs nothing of Redis installed."""

from __future__ import annotations

import importlib
import urllib.parse
from typing import Protocol, cast

from relay.core.model import StoreSettings
from relay.store.base import Store

__all__ = ["BACKENDS", "UNKNOWN_STORE", "check_url", "masked", "open_store", "scheme_of"]


class Backend(Protocol):
    """Opens a store on a URL of its schemes."""

    def __call__(self, url: str, settings: StoreSettings) -> Store: ...


BACKENDS: dict[str, str] = {
    "memory": "relay.store.memory.store:open_url",
    "redis": "relay.store.redis.store:open_url",
    "rediss": "relay.store.redis.store:open_url",
    "unix": "relay.store.redis.store:open_url",
    "redis+sentinel": "relay.store.redis.store:open_url",
}
"""Each scheme a --store URL may have ('memory' is a URL of its own), and the function that
opens its store, as 'module:name'."""

UNKNOWN_STORE = (
    "unknown store {url!r}: use 'memory', redis://host:port/db, unix:///path or "
    "redis+sentinel://host:port[,host:port...]/name"
)


def masked(url: str) -> str:
    """Returns a store URL fit for a log or an error: its password, and the value of any query
    parameter whose name holds 'password', replaced by '***'."""
    parts = urllib.parse.urlsplit(url)
    shown = url
    userinfo, at, hosts = parts.netloc.rpartition("@")
    user, colon, _ = userinfo.partition(":")
    if at and colon:
        shown = shown.replace(parts.netloc, f"{user}:***@{hosts}", 1)
    if "password" in parts.query.lower():
        query = "&".join(
            f"{name}=***" if "password" in name.lower() else f"{name}={value}"
            for name, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        )
        shown = shown.replace("?" + parts.query, "?" + query, 1)
    return shown


def scheme_of(url: str) -> str:
    """Returns the scheme of a store URL ('memory' for 'memory')."""
    return url.partition("://")[0] if "://" in url else url


def _backend(url: str) -> Backend:
    path = BACKENDS.get(scheme_of(url))
    if path is None:
        raise ValueError(UNKNOWN_STORE.format(url=masked(url)))
    module, _, name = path.partition(":")
    return cast(Backend, getattr(importlib.import_module(module), name))


def check_url(url: str) -> None:
    """Raises ValueError, saying why, when url names no store the relay can open."""
    _backend(url)
    if scheme_of(url) == "redis+sentinel":
        from relay.store.redis.store import sentinel_url

        sentinel_url(url)


def open_store(url: str, settings: StoreSettings) -> Store:
    """Returns the store url names, with settings; raises ValueError for an unknown scheme."""
    return _backend(url)(url, settings)
