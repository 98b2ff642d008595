"""The memory store's Matches part: seeking, reading, waiting on and writing to each match,
and its housekeeping, over the store's registry; also what the store answers at once
(Immediate). The work itself is in seeks, act, waits and reaper."""

from __future__ import annotations

from collections.abc import Callable, Collection

from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.model import Action, Event, MatchInfo, Status, Ticket, hash_token
from relay.core.rated import RatingRange
from relay.core.table import Table
from relay.store.base import Judged, Waited, Wake
from relay.store.memory import seeks, waits
from relay.store.memory.act import act_hashed
from relay.store.memory.match import ENDING, EXPIRED, FINISHED, PLAYING, Held
from relay.store.memory.reaper import Reaper
from relay.store.memory.tables import view

__all__ = ["MemoryMatches"]


class MemoryMatches(Reaper):
    """The Matches part of the memory store, which is also its Immediate; its reap() is the
    Reaper's."""

    async def seek(
        self,
        game: str,
        version: str,
        room: str | None,
        now: float,
        token: str | None = None,
        control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
        name: str | None = None,
        rating_range: RatingRange | None = None,
    ) -> Ticket:
        """Joins the oldest compatible waiting match, or opens a new one (Matches.seek)."""
        return seeks.seek(
            self.reg, game, version, room, now, token, control, player, contact, name,
            rating_range,
        )  # fmt: skip

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """Returns the reader's seat and the events above after; marks a seat present."""
        return self.poll_now(match, token, after, now)

    def poll_now(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """poll(), at once (see Immediate)."""
        _, seat, events = self.reg.read(match, token, after, now)
        return seat, events

    async def wait(
        self, match: str, after: int, timeout: float, version: int | None = None,
        pairable: bool = False,
    ) -> Waited:  # fmt: skip
        """Returns the events above after once there are any; with a table version, ([],
        True) once the table is above it; else ([], False) after timeout, or once the match
        is paired (at once if it is already, for a pairable wait: Matches.wait)."""
        if pairable and self.reg.get(match).paired is not None:
            return Waited([], False)
        return await waits.wait(self.reg, match, after, timeout, version)

    def watch(
        self, match: str, after: int, timeout: float, wake: Wake, version: int | None = None
    ) -> Held | None:
        """wait() through a callback (see Immediate.watch)."""
        return waits.watch(self.reg, match, after, timeout, wake, version)

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event."""
        return act_hashed(self.reg, match, hash_token(token), action, now)

    def act_hashed(self, match: str, digest: str, action: Action, now: float) -> int:
        """act() at once, for a token already hashed (see Immediate.act_hashed)."""
        return act_hashed(self.reg, match, digest, action, now)

    def act_watch(
        self, match: str, digest: str, action: Action, now: float, timeout: float,
        wake_for: Callable[[int], Wake], version: int | None = None,
    ) -> tuple[int, Held | None]:  # fmt: skip
        """act_hashed(), then the writer's own watch() from its new event (see
        Immediate.act_watch)."""
        seq = act_hashed(self.reg, match, digest, action, now)
        return seq, waits.watch(self.reg, match, seq, timeout, wake_for(seq), version)

    def table_version(self, match: str) -> int:
        """Returns the version of the match's table (see Immediate)."""
        return self.reg.get(match).table.version

    def table_now(self, match: str, chat_after: int) -> Table:
        """Returns the match's table, at once (see Immediate)."""
        return view(self.reg, self.reg.get(match), chat_after)

    async def info(self, match: str) -> MatchInfo:
        """Returns a summary of the match."""
        return self.reg.summary(self.reg.get(match))

    async def judged(
        self, match: str, token: str, after: int, games: Collection[str]
    ) -> Judged | None:
        """Returns what a referee judges of a write by the token's seat at event after (see
        Matches.judged); checks the token before anything else."""
        state = self.reg.matches.get(match)
        if state is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        seat = state.seat_of(hash_token(token))
        status = state.status
        if state.game not in games or len(state.events) != after:
            return None
        if status is not PLAYING and status is not ENDING:
            return None
        return Judged(state.game, status, seat, state.events[:])

    async def left(self, match: str, token: str, started: float, now: float) -> None:
        """Notes that a held poll of the token's seat, begun at `started`, ended with its
        client gone: unless the seat polled or wrote since, it is away AWAY seconds on (a
        waiting seeker, --seek-grace on) if it polls no more."""
        state = self.reg.matches.get(match)
        if state is None or state.status in (FINISHED, EXPIRED):
            return
        try:
            seat = state.seat_of(hash_token(token))
        except RelayError:
            return
        if state.seen[seat] <= started:
            state.table.gone[seat] = now

    async def counts(self) -> dict[Status, int]:
        """Returns how many matches are in each status."""
        counts = dict.fromkeys(Status, 0)
        for state in self.reg.matches.values():
            counts[state.status] += 1
        return counts

    async def endings(self) -> dict[str, int]:
        """Returns how many matches ended, by reason (see Matches.endings)."""
        return dict(self.reg.endings)
