"""Player keys in the memory store: the list of matches each key seated, and when."""

from __future__ import annotations

from collections.abc import Callable

from relay.core.model import Status
from relay.core.players import over_limit, too_many

__all__ = ["KeyLists"]


class KeyLists:
    """The matches each player key (by its digest) seated, with when its seek took the seat."""

    def __init__(self) -> None:
        self._lists: dict[str, dict[str, float]] = {}

    def add(self, digest: str, match: str, now: float) -> None:
        """Lists a match under a player key (a repeat keeps the first time; '' lists none)."""
        if digest:
            self._lists.setdefault(digest, {}).setdefault(match, now)

    def listed(self, digest: str) -> list[tuple[str, float]]:
        """Returns the key's matches and when each was listed."""
        return list(self._lists.get(digest, {}).items())

    def check(self, digest: str, status: Callable[[str], Status | None]) -> None:
        """Refuses a seek by a key with LISTED matches not finished (player/too_many);
        status tells a match's status, None for one gone (whose entry is dropped)."""
        entries = self._lists.get(digest) if digest else None
        if not entries:
            return
        statuses = []
        for match in list(entries):
            found = status(match)
            if found is None:
                del entries[match]
            else:
                statuses.append(found)
        if over_limit(statuses):
            raise too_many()

    def forget(self, match: str, digests: list[str]) -> None:
        """Unlists a match the store forgot from its seats' player keys ('' for none)."""
        for digest in digests:
            entries = self._lists.get(digest) if digest else None
            if entries is not None:
                entries.pop(match, None)
                if not entries:
                    del self._lists[digest]
