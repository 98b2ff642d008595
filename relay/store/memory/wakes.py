"""Wake-ups by name for the memory store: a rematch or a lobby changed, so waits re-read it."""

from __future__ import annotations

import asyncio

__all__ = ["Wakes"]


class Wakes:
    """Waits by key, each answered at the next notify of its key or at its timeout.

    They wait on plain futures with a timer, never a task, as the memory store's waits must
    (relay.calls.drive)."""

    def __init__(self) -> None:
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}

    def notify(self, key: str) -> None:
        """Answers every wait on key."""
        for future in self._waiters.pop(key, ()):
            if not future.done():
                future.set_result(None)

    def add(self, key: str, future: asyncio.Future[None]) -> None:
        """Has the next notify of key answer future (a wait that times out on its own)."""
        self._waiters.setdefault(key, []).append(future)

    def drop(self, key: str, future: asyncio.Future[None]) -> None:
        """Forgets a future added under key, if it is still there."""
        waiters = self._waiters.get(key)
        if waiters is not None and future in waiters:
            waiters.remove(future)
            if not waiters:
                del self._waiters[key]

    def notify_all(self) -> None:
        """Answers every wait (at shutdown)."""
        for key in list(self._waiters):
            self.notify(key)

    async def wait(self, key: str, timeout: float) -> None:
        """Returns at the next notify of key, or after timeout seconds."""
        if timeout <= 0:
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self.add(key, future)
        timer = loop.call_later(timeout, _settle, future)
        try:
            await future
        finally:
            timer.cancel()
            self.drop(key, future)


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
