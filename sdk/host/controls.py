"""Controls: a host's thread bridge, that takes moves and resignations from any thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Literal

from sdk.host.driver import Driver
from sdk.host.machine import Machine

__all__ = ["Controls"]


class Controls:
    """Takes a game's or a UI's moves, passes, resignations and withdrawals from any thread.

    Each acts on the Machine at once, in the caller's thread (the game's `disable()` too);
    what the Driver must then do runs in the loop playing the match: at once when called from
    it, else soon after.
    """

    def __init__(self, machine: Machine, driver: Driver) -> None:
        self._machine = machine
        self._driver = driver
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0

    def bind(self) -> None:
        """Takes the running loop (and its thread) as the one playing the match."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()

    def take_turn(self, kind: Literal["move", "pass"], move: str, end: bool) -> None:
        """Queues this side's move or pass, disables the game and wakes the loop to send it."""
        self._machine.take_turn(kind, move, end)
        self._call_in_loop(self._driver.wake)

    def leave(self) -> None:
        """Resigns the match, or withdraws the seek before it has started."""
        leaving = self._machine.leave()
        if leaving == "withdraw":
            self._call_in_loop(self._driver.stop_listening)
        elif leaving == "resign":
            self._call_in_loop(self._driver.wake)

    def close(self) -> None:
        """Stops the loop without resigning (see Driver.close)."""
        self._call_in_loop(self._driver.close)

    def _call_in_loop(self, callback: Callable[[], None]) -> None:
        """Runs callback in the loop playing the match: now if called from it, else soon."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            callback()
        else:
            loop.call_soon_threadsafe(callback)
