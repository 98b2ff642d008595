"""Requests held open in this process, and the one wait they share.

An event poll, a move post with ?wait= and their table-aware forms all hold the same way:
counted against their seat's --polls-per-seat (a spectator's and a lobby watcher's against
their address), then answered by the store's wait (Matches.wait), or on a store that answers
at once by the same wait through a callback (Immediate.watch), with no coroutine. The count is
released once, when the wait ends or its client goes away; a seat's client leaving is told to
the store, so that its partner sees it away (presence)."""

from __future__ import annotations

import asyncio
import logging
import time

from relay.api.calls import Call, Pending
from relay.api.fields.request import bearer, require_bearer
from relay.api.metrics import RelayMetrics
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.model import Event, hash_token
from relay.store.base import Immediate, Store, Waited, Wake

__all__ = ["DIGESTS", "SPECTATOR_POLLS_PER_SEAT", "Held", "Holds", "Lifecycle"]

log = logging.getLogger("relay")

SPECTATOR_POLLS_PER_SEAT = 8
"""Held spectator polls (event and rematch polls without a token) a client address may have,
per --polls-per-seat: a household or an office watching several matches, not thousands."""

DIGESTS = 4096
"""Authorization headers whose token digests are kept: a seat's moves read it once."""

Key = tuple[str, str]
"""What a held request is counted under: the match and its seat's token digest, or a
spectator's or lobby watcher's kind and address."""


class Lifecycle:
    """Where the process is in its life."""

    closing: bool = False
    """Set when shutdown begins: held polls are answered and new ones are turned away."""


class Holds:
    """The requests this process holds open, per seat (or address), and their one wait."""

    def __init__(self, config: Config, store: Store, metrics: RelayMetrics) -> None:
        self.config = config
        self.store = store
        self.metrics = metrics
        self.lifecycle = Lifecycle()
        self.held: dict[Key, int] = {}
        """Requests held open, per key (see Key)."""
        self._digests: dict[str, str] = {}
        self._leaving: set[asyncio.Future[None]] = set()
        """Notes to the store of held requests whose client left, still being written."""

    @property
    def closing(self) -> bool:
        """Whether the process is shutting down: a held request is answered at once, as a
        hold that ended, never refused (the client asks again, on another process)."""
        return self.lifecycle.closing

    def seconds(self, wait: float) -> float:
        """Seconds a request holds: as planned, or none at shutdown."""
        return 0.0 if self.lifecycle.closing else wait

    def seat_digest(self, authorization: str | None) -> str:
        """Returns the digest of the seat token in an Authorization header (hash_token), kept
        for the DIGESTS most recent headers."""
        digests = self._digests
        digest = None if authorization is None else digests.get(authorization)
        if digest is None:
            digest = hash_token(require_bearer(authorization))
            if len(digests) >= DIGESTS:
                digests.clear()
            digests[authorization or ""] = digest
        return digest

    def take(self, kind: str, who: str, most: int | None = None) -> Key:
        """Counts one more held request of who (a match's seat digest, or an address under a
        kind such as 'spectator'); raises limit/polls past `most` (--polls-per-seat)."""
        key = (kind, who)
        held = self.held
        count = held.get(key, 0)
        if count >= (self.config.polls_per_seat if most is None else most):
            raise RelayError("limit/polls", retry_after=1.0)
        held[key] = count + 1
        self.metrics.held_polls += 1
        return key

    def take_seat(self, call: Call, seat: int | None) -> Key:
        """Counts a held request of the call's seat, or of its address for a spectator."""
        if seat is None:
            most = SPECTATOR_POLLS_PER_SEAT * self.config.polls_per_seat
            return self.take("spectator", call.client, most)
        return self.take(call.match, self.seat_digest(call.authorization))

    def release(self, key: Key) -> None:
        """Ends one held request counted by take."""
        self.metrics.held_polls -= 1
        left = self.held[key] - 1
        if left:
            self.held[key] = left
        else:
            del self.held[key]

    async def wait(
        self, call: Call, seat: int | None, after: int, timeout: float,
        version: int | None, started: float, key: Key | None = None,
    ) -> Waited:  # fmt: skip
        """Holds the call until the log passes after (or, given a table version, the table may
        be above it), or timeout: Matches.wait, counted under key (taken here when None, and
        released either way). A seat's client leaving meanwhile is told to the store."""
        if key is None:
            key = self.take_seat(call, seat)
        try:
            pairable = seat == 0 and after == 0  # a waiting seeker's poll
            return await self.store.matches.wait(call.match, after, timeout, version, pairable)
        except (asyncio.CancelledError, GeneratorExit):
            if seat is not None:
                self.client_left(call, started)
            raise
        finally:
            self.release(key)

    def watch(
        self, store: Immediate, call: Call, key: Key, after: int, timeout: float,
        version: int | None, started: float, done: Wake,
    ) -> Pending | None:  # fmt: skip
        """wait() through a callback, on a store that answers at once: calls done with the
        events once the wait ends (None when the match expired meanwhile) and the table's
        version then, the count under key released first. Returns what to cancel while it
        waits, else None."""
        held = self.hold(call, key, started, done)
        return held.held(store.watch(call.match, after, timeout, held.wake, version))

    def hold(self, call: Call, key: Key, started: float, done: Wake) -> Held:
        """Returns a request held under key, whose wake() (for the store) releases the count
        and calls done; held() then gives it what the store holds."""
        return Held(self, key, call, started, done)

    def client_left(self, call: Call, started: float) -> None:
        """Tells the store, in the background, that a held request of the call's seat begun
        at `started` lost its client: the seat shows away soon unless it polls again."""
        token = bearer(call.authorization)
        if token is None:
            return
        note = asyncio.ensure_future(
            self.store.matches.left(call.match, token, started, time.time())
        )
        self._leaving.add(note)
        note.add_done_callback(self._left_done)

    def _left_done(self, note: asyncio.Future[None]) -> None:
        self._leaving.discard(note)
        error = None if note.cancelled() else note.exception()
        if error is not None:
            # Presence is a courtesy: a seat whose leaving the store missed stays shown here
            # until it abandons, as before there was presence.
            log.info("could not note a client gone: %s", error)


class Held:
    """A request held (Holds.hold, Holds.watch): releases its count once, when answered or
    when its client goes away (then also ending the wait)."""

    __slots__ = ("call", "done", "holds", "key", "started", "waiting")

    def __init__(
        self, holds: Holds, key: Key, call: Call, started: float,
        done: Wake,
    ) -> None:  # fmt: skip
        self.holds: Holds | None = holds
        self.key = key
        self.call = call
        self.started = started
        """When the request began (its seat marked present)."""
        self.done = done
        self.waiting: Pending | None = None

    def held(self, waiting: Pending | None) -> Pending | None:
        """Returns what to cancel while the store holds the wait (None: it was answered at
        once)."""
        if waiting is None:
            return None
        self.waiting = waiting
        return self

    def wake(self, events: list[Event] | None, version: int) -> None:
        """Ends the hold with what the store has for it."""
        self._release()
        self.done(events, version)

    def _release(self) -> None:
        holds, self.holds = self.holds, None
        if holds is not None:
            holds.release(self.key)

    def cancel(self) -> None:
        """Releases the count (once) and ends the wait; its client left (see presence)."""
        holds = self.holds
        self._release()
        waiting, self.waiting = self.waiting, None
        if waiting is not None:
            waiting.cancel()
            if holds is not None:
                holds.client_left(self.call, self.started)
