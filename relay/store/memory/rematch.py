"""Rematches in the memory store: each finished match's rematch, offered, declined or begun
(the twin of relay.store.redis.rematch and its rematch scripts)."""

from __future__ import annotations

from relay.core.errors import RelayError
from relay.core.model import hash_token, new_match_id
from relay.core.rematch import NONE, Rematch, RematchOp, lapse_at, not_finished, step
from relay.store.memory.match import FINISHED, TICK, Match
from relay.store.memory.registry import Registry

__all__ = ["MemoryRematches"]


class MemoryRematches:
    """The Rematches part of the memory store."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg

    async def step(self, match: str, token: str | None, op: RematchOp, now: float) -> Rematch:
        """Reads a match's rematch, or has the token's seat offer or decline one."""
        reg = self.reg
        state = reg.get(match)
        seat = None if token is None else state.seat_of(hash_token(token))
        if op != "read":
            if seat is None:
                raise RelayError("auth/required")
            if state.status is not FINISHED:
                raise not_finished()
        old = reg.rematches.get(match, NONE)
        new = step(old, op, seat, now, reg.settings.grace, new_match_id(), state.first)
        if new is not old:
            reg.rematches[match] = new
            if new.match is not None and new.match not in reg.matches:
                self._start(state, new.match, new.first or 0, now)
            reg.wakes.notify(f"rematch:{match}")
        return new

    def _start(self, old: Match, match: str, first: int, now: float) -> None:
        """Opens the new match of an accepted rematch: the same seats, tokens and game."""
        reg = self.reg
        opened = Match(old.game, old.version, None, now, old.control)
        opened.id = match
        opened.hashes = list(old.hashes)
        opened.players = list(old.players)
        opened.contacts = list(old.contacts)
        opened.table.names = list(old.table.names)
        opened.casual = old.casual
        reg.matches[match] = opened
        for player in opened.players:
            reg.keys.add(player, match, now)
        opened.start(first, now)
        reg.tell_start(opened)

    async def wait(self, match: str, after: int, timeout: float, now: float) -> Rematch:
        """Returns the rematch once its version is above after, or as it is after timeout."""
        reg = self.reg
        loop = reg.running_loop()
        start = loop.time()
        while True:
            at = now + loop.time() - start
            current = await self.step(match, None, "read", at)
            left = timeout - (loop.time() - start)
            due = lapse_at(current, reg.settings.grace)
            if due is not None:
                left = min(left, due - at + TICK)
            if current.version > after or reg.closing or left <= 0:
                return current
            await reg.wakes.wait(f"rematch:{match}", left)
