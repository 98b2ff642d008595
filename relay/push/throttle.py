"""Push throttling, as the webhook's: each notice sent at most once for the whole fleet, and
at most one turn or challenge pushed per player per window, the rest told together at its end.

The state is the webhook's (relay.store.hooks.HookState: the memory store's in its process,
Redis's across processes), under keys of their own: a notice is claimed as
`push:<kind>:<its identity>` (a turn's identity is the webhook's, `match:seat:seq`, so a retried
write pushes nothing again), and a player's window and held notices live under
`push:<player>`, where player is what the caller knows the player by (a digest of its key).
A clock running low and a match's end are urgent and bounded (once per turn, once per match):
they are claimed, never held. When a window ends, its held notices go as one: the newest of
each match, and a digest ('Your turn in 3 matches, and 1 challenge.') when more than one
match or challenge is held.
"""

from __future__ import annotations

from relay.push.messages import Kind, Notice, digest
from relay.store.hooks import HookState

__all__ = ["PushThrottle"]

URGENT = frozenset({Kind.CLOCK_LOW, Kind.ENDED})
"""Kinds sent at once, never held for a window."""


class PushThrottle:
    """Decides which notices go now, which wait for the player's window, and which never."""

    def __init__(self, state: HookState, every: float) -> None:
        """every: seconds of a player's window (0: no window, each notice goes at once)."""
        if every < 0:
            raise ValueError(f"the push window must be >= 0 seconds, not {every!r}")
        self.state = state
        self.every = every

    async def admit(self, player: str, identity: str, notice: Notice) -> list[Notice]:
        """Returns what to push now for a new notice: [] when it was pushed before (the same
        kind and identity) or is held for the window's end, else the notice (with any held
        before it, as flush would give them)."""
        if not await self.state.claim(f"push:{notice.kind.value}:{identity}"):
            return []
        if notice.kind in URGENT or self.every <= 0:
            return [notice]
        box = f"push:{player}"
        if await self.state.open_window(box, self.every):
            held = [Notice.from_bytes(raw) for raw in await self.state.take(box)]
            return together([*held, notice])
        await self.state.hold(box, notice.to_bytes())
        return []

    async def window_left(self, player: str) -> float:
        """Returns the seconds until the player's window ends (0: none open): when to flush."""
        return await self.state.window_left(f"push:{player}")

    async def flush(self, player: str) -> list[Notice]:
        """Returns what to push at the end of the player's window: its held notices told
        together ([] when none, or when another process opened a new window meanwhile: that
        window's end tells them)."""
        box = f"push:{player}"
        held = await self.state.take(box)
        if not held:
            return []
        if await self.state.open_window(box, self.every):
            return together([Notice.from_bytes(raw) for raw in held])
        await self.state.give_back(box, held)
        return []


def together(notices: list[Notice]) -> list[Notice]:
    """Returns notices told as one push: the newest of each match, itself when only one
    match is left, else a digest of them."""
    newest: dict[tuple[Kind, str], Notice] = {}
    for notice in notices:
        newest.pop((notice.kind, notice.match), None)
        newest[(notice.kind, notice.match)] = notice
    kept = list(newest.values())
    return kept if len(kept) <= 1 else [digest(kept)]
