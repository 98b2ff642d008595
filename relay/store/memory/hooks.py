"""The memory store's Hooks part: its turn sink, and the webhook state of one relay process
(see relay.store.hooks)."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable

from relay.core.turns import EndSink, TurnSink
from relay.store.hooks import CLAIM_FOR, CLAIMS, HELD
from relay.store.memory.registry import Registry

__all__ = ["MemoryHookState", "MemoryHooks"]


class MemoryHookState:
    """The state of one relay process."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._claims: OrderedDict[str, float] = OrderedDict()
        self._windows: dict[str, float] = {}
        self._held: dict[str, deque[bytes]] = {}

    async def claim(self, key: str) -> bool:
        """See HookState.claim."""
        now = self._clock()
        while self._claims and (
            len(self._claims) >= CLAIMS or next(iter(self._claims.values())) < now
        ):
            self._claims.popitem(last=False)
        if key in self._claims:
            return False
        self._claims[key] = now + CLAIM_FOR
        return True

    async def open_window(self, contact: str, seconds: float) -> bool:
        """See HookState.open_window."""
        now = self._clock()
        for name, until in list(self._windows.items()):
            if until <= now:
                del self._windows[name]
        if contact in self._windows:
            return False
        self._windows[contact] = now + seconds
        return True

    async def window_left(self, contact: str) -> float:
        """See HookState.window_left."""
        return max(0.0, self._windows.get(contact, 0.0) - self._clock())

    async def hold(self, contact: str, turn: bytes) -> None:
        """See HookState.hold."""
        self._held.setdefault(contact, deque(maxlen=HELD)).append(turn)

    async def take(self, contact: str) -> list[bytes]:
        """See HookState.take."""
        return list(self._held.pop(contact, ()))

    async def give_back(self, contact: str, turns: list[bytes]) -> None:
        """See HookState.give_back."""
        held = self._held.setdefault(contact, deque(maxlen=HELD))
        held.extendleft(reversed(turns[-HELD:]))
        while len(held) > HELD:  # extendleft on a full deque drops from the right
            held.pop()


class MemoryHooks:
    """The Hooks part of the memory store: its turn sink, kept in the registry the writes
    read, and the webhook's state in this process."""

    def __init__(self, reg: Registry) -> None:
        self._reg = reg
        self._state: MemoryHookState | None = None

    @property
    def turns(self) -> TurnSink | None:
        """Told of turns given in correspondence matches (see Hooks.turns)."""
        return self._reg.turns

    @turns.setter
    def turns(self, sink: TurnSink | None) -> None:
        self._reg.turns = sink

    @property
    def timed(self) -> bool:
        """Whether turns of matches with a clock are told too (see Hooks.timed)."""
        return self._reg.timed

    @timed.setter
    def timed(self, told: bool) -> None:
        self._reg.timed = told

    @property
    def ended(self) -> EndSink | None:
        """Told of matches a seat's write may have ended (see Hooks.ended)."""
        return self._reg.ended

    @ended.setter
    def ended(self, sink: EndSink | None) -> None:
        self._reg.ended = sink

    def state(self) -> MemoryHookState:
        """Returns the webhook's state, in this process (see Hooks.state)."""
        if self._state is None:
            self._state = MemoryHookState()
        return self._state
