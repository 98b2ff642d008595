"""The table of each match in the memory store, as its readers see it and as seats change it:
draw and takeback offers, chat, and the table-aware poll and write (the twin of
relay.store.redis.table and its scripts; each match's own table is relay.store.memory.table)."""

from __future__ import annotations

from relay.core.errors import RelayError
from relay.core.model import Action, Event, hash_token
from relay.core.table import OfferKind, Table
from relay.store.memory.act import act_hashed
from relay.store.memory.match import PLAYING, WAITING, Match
from relay.store.memory.registry import Registry

__all__ = ["MemoryTables", "view"]


def view(reg: Registry, state: Match, chat_after: int = 0) -> Table:
    """Returns the match's table as its readers see it, with the chat lines above chat_after."""
    away = state.table.away
    settings = reg.settings
    grace = settings.grace
    abandons = state.status is PLAYING and not state.is_correspondence()
    abandon_at = (
        state.seen[0] + grace if abandons and away[0] is not None else None,
        state.seen[1] + grace if abandons and away[1] is not None else None,
    )
    return state.table.view(
        len(state.events),
        state.status is PLAYING,
        chat_after,
        abandon_at,
        reg.claim_at(state),
        settings.claim_after if state.control is None and settings.claim_after > 0 else None,
    )


class MemoryTables:
    """The Tables part of the memory store."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg

    async def read(
        self, match: str, token: str | None, chat_after: int, now: float
    ) -> tuple[int | None, Table]:
        """Reads a match's table; returns the reader's seat (None for a spectator) with it."""
        state = self.reg.get(match)
        seat = None if token is None else state.seat_of(hash_token(token))
        return seat, view(self.reg, state, chat_after)

    async def present(self, match: str, seat: int, now: float) -> bool:
        """Whether the seat may hold a poll on the match (see Tables.present)."""
        state = self.reg.get(match)
        return state.table.absent(seat, state.seen[seat], now, self.reg.settings.hold) is None

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event], int]:
        """Matches.poll, and the table's version."""
        state, seat, events = self.reg.read(match, token, after, now)
        return seat, events, state.table.version

    async def act(self, match: str, token: str, action: Action, now: float) -> tuple[int, int]:
        """Matches.act, and the table's version."""
        seq = act_hashed(self.reg, match, hash_token(token), action, now)
        return seq, self.reg.matches[match].table.version

    async def offer(self, match: str, token: str, kind: OfferKind, after: int, now: float) -> Table:
        """Has the token's seat offer a draw or ask a takeback at the position after event
        `after`; returns the table."""
        reg = self.reg
        state, seat = self._writer(match, token, now)
        last = len(state.events)
        if state.status is PLAYING and after != last:
            raise RelayError("turn/stale", f"'after' is {after} but the last event is {last}.")
        per_minute = reg.settings.offers_per_minute
        playing = state.status is PLAYING
        if state.table.offer_made(kind, seat, last, state.turn, playing, now, per_minute):
            reg.table_changed(state)
        return view(reg, state)

    async def decline(self, match: str, token: str, now: float) -> Table:
        """Has the token's seat decline the partner's standing offer or withdraw its own."""
        reg = self.reg
        state, seat = self._writer(match, token, now)
        playing = state.status is PLAYING
        per_minute = reg.settings.offers_per_minute
        if state.table.offer_declined(seat, len(state.events), playing, now, per_minute):
            reg.table_changed(state)
        return view(reg, state)

    async def chat(self, match: str, token: str, text: str, now: float) -> int:
        """Adds a line to the match's chat from the token's seat; returns its number."""
        reg = self.reg
        state, seat = self._writer(match, token, now)
        if state.status is WAITING:
            raise RelayError("match/not_started")
        version = state.table.version
        n = state.table.said(seat, text, len(state.events), now, reg.settings.chat_per_minute)
        if state.table.version != version:
            reg.table_changed(state)
        return n

    def _writer(self, match: str, token: str, now: float) -> tuple[Match, int]:
        """Returns a match and the token's seat, marked present."""
        state = self.reg.get(match)
        seat = state.seat_of(hash_token(token))
        self.reg.mark_present(state, seat, now)
        return state, seat
