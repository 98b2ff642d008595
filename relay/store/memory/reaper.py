"""The memory store's reaper: ends matches whose seats stopped polling or ran out of time,
drops stale seeks, shows absent seats away and forgets old matches (the twin of the Redis
store's reap script)."""

from __future__ import annotations

import asyncio

from relay.core.players import patience
from relay.core.reasons import Reason
from relay.store.memory.act import finish
from relay.store.memory.match import ENDING, NO_WRITE, PLAYING, WAITING, Match
from relay.store.memory.ratings import SWEEP_EVERY
from relay.store.memory.registry import Registry

__all__ = ["Reaper"]

REAP_SLICE = 1000
"""Matches reap() looks at between two turns of the event loop: a pass over a box's tens of
thousands of matches lets the moves in meanwhile through, rather than holding them up."""


class Reaper:
    """Runs Matches.reap over a registry, sweeping ratings and moderation's ids once an hour."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg
        self._ids_swept = 0.0

    async def reap(self, now: float) -> int:
        """Ends matches whose seats stopped polling, drops stale seeks, forgets old matches
        and, once an hour, the ratings idle past RatingRules.keep; returns how many
        matches it changed."""
        reg = self.reg
        settings = reg.settings
        changed = 0
        if settings.ratings is not None:
            reg.ratings.sweep(now, settings.ratings.keep)
        if now - self._ids_swept >= SWEEP_EVERY:
            self._ids_swept = now
            reg.moderation.sweep(now)
        reg.reseeks = {d: seen for d, seen in reg.reseeks.items() if seen[2] >= now}
        for index, state in enumerate(list(reg.matches.values())):
            if index and index % REAP_SLICE == 0:
                await asyncio.sleep(0)
            if reg.matches.get(state.id) is not state:
                continue  # forgotten while the loop turned (by a reap() begun meanwhile)
            changed += _reap_one(reg, state, now)
        return changed


def _reap_one(reg: Registry, state: Match, now: float) -> int:
    """Reaps one match; returns 1 if it changed it, else 0."""
    grace = reg.settings.grace
    status = state.status
    if status is WAITING:
        if reg.is_stale(state, now):
            reg.expire(state, now)
            return 1
    elif status is PLAYING:
        _presence(reg, state, now)
        if state.control is not None and state.is_out(now):
            finish(reg, state, Reason.TIMEOUT, state.turn or 0, NO_WRITE, now)
            return 1
        if state.is_correspondence():
            return 0  # only its clock ends a correspondence match
        absent = min((0, 1), key=lambda seat: state.seen[seat])
        if state.seen[absent] + grace < now:
            finish(reg, state, Reason.ABANDONED, absent, NO_WRITE, now)
            return 1
    elif status is ENDING:
        _presence(reg, state, now)
        partner = 1 - state.ender
        wait = patience(state.control, grace)
        if state.since + wait < now or state.seen[partner] + wait < now:
            finish(reg, state, Reason.UNCONFIRMED, partner, NO_WRITE, now, state.detail)
            return 1
    elif state.since + reg.settings.keep < now:
        del reg.matches[state.id]
        reg.ratings.forget_match(state.id)
        reg.rematches.pop(state.id, None)
        reg.keys.forget(state.id, state.players)
        return 1
    return 0


def _presence(reg: Registry, state: Match, now: float) -> None:
    """Shows away each seat of a match in play that holds no poll (TableState.absent)."""
    table = state.table
    changed = False
    for seat in (0, 1):
        if table.away[seat] is None:
            since = table.absent(seat, state.seen[seat], now, reg.settings.hold)
            if since is not None:
                table.away[seat] = since
                changed = True
    if changed:
        table.version += 1
        reg.table_changed(state)
