"""When the relay pushes: the store's turn notices and end hints, and the challenges made,
turned into notices for the dispatcher (relay.push.dispatch.Pusher), off the move's path.

The store's sinks only queue (TurnNotice, a match id, a ChallengeNotice). Behind the queue
one task reads what each needs of the store, and pushes:

- a turn to the seat's player key, unless the seat is watching the match (it may hold a poll
  on it: Tables.present). A seat watching is looked at again once it could be found gone
  (`recheck` seconds), and pushed then if it is gone and the turn still its;
- a low clock, by a timer per match in this process, set by the turn: when the seat to move
  has LOW_SHARE of its control's time left (LOW_LEAST seconds at least), if the turn is still
  its and it is not watching;
- a match's end to each seat with a player key that is not watching: told by the end sink
  of a write that may end it, and by the same timer at the turn's end (a timeout);
- a challenge to the challenged key.

Each notice's identity makes it once for the fleet (PushThrottle): a turn and a low clock by
match, seat and event, an end by match and seat, a challenge by its id."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from relay.core.challenges import ChallengeNotice
from relay.core.errors import RelayError
from relay.core.model import MatchInfo, Status
from relay.core.table import AWAY
from relay.core.turns import TurnNotice
from relay.push import messages
from relay.push.messages import Notice
from relay.store.base import Store

__all__ = ["LOW_LEAST", "LOW_SHARE", "PushTriggers", "low_after", "words"]

log = logging.getLogger("relay.push")

LOW_SHARE = 0.1
"""A clock is low with this share of its control's time left: of the time per move with a
per-move deadline, of the base time otherwise."""

LOW_LEAST = 10.0
"""Seconds a low clock has at least (a share of a short control would be too late to act)."""

ENDED_AFTER = 2.0
"""Seconds after a turn's time ran out at which the match is read for its end (the reaper,
which ends it, sweeps every second)."""

Push = Callable[[str, str, Notice], None]
"""The dispatcher: push(player key digest, identity, notice) queues a push."""


def low_after(base: float) -> float:
    """Returns the seconds left at which a clock of a control's base time is low."""
    return max(LOW_LEAST, LOW_SHARE * base)


def words(reason: str, seat: int | None, mine: int) -> str:
    """Returns how a match ended, as the seat `mine` is told it (the ended event's reason
    and seat)."""
    yours = seat == mine
    said = {
        "resigned": "you resigned." if yours else "your partner resigned.",
        "timeout": "you ran out of time." if yours else "your partner ran out of time.",
        "drawn": "drawn by agreement.",
        "abandoned": "you left the match." if yours else "your partner left the match.",
    }
    return said.get(reason, f"the match is over ({reason}).")


class PushTriggers:
    """Takes the store's notices without waiting, and pushes what they call for."""

    def __init__(
        self,
        store: Store,
        push: Push,
        recheck: float,
        queue: int = 10_000,
        counts: Counter[str] | None = None,
    ) -> None:
        """recheck: seconds after which a seat watching may be found gone (the relay's hold
        and AWAY); queue: notices waiting at most (past it, dropped,
        counted in counts as `dropped`)."""
        self.store = store
        self.push = push
        self.recheck = recheck
        self.ahead = 0.0
        """Seconds added to now when presence is read (0; a test's stand-in for the seconds
        a closed page takes to be found gone)."""
        self.counts: Counter[str] = Counter() if counts is None else counts
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue(queue)
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def recheck_for(cls, hold: float) -> float:
        """Returns the recheck delay for a relay holding polls for `hold` seconds."""
        return hold + AWAY + 1.0

    # -- the sinks: each only queues --------------------------------------------------------

    def _put(self, kind: str, item: Any) -> None:
        try:
            self._queue.put_nowait((kind, item))
        except asyncio.QueueFull:
            self.counts["dropped"] += 1

    def turn(self, notice: TurnNotice) -> None:
        """A TurnSink: queues a turn given to a seat with a player key."""
        if notice.player:
            self._put("turn", notice)

    def ended(self, match: str) -> None:
        """An EndSink: queues a look at a match a write may have ended."""
        self._put("ended", match)

    def challenge(self, notice: ChallengeNotice) -> None:
        """A ChallengeSink: queues the push of a challenge made."""
        self._put("challenge", notice)

    # -- the task ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Starts the task that reads the store for each queued notice."""
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stops it; queued notices and timers are forgotten."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def idle(self) -> None:
        """Waits until every queued notice is handled (for tests)."""
        await self._queue.join()

    async def _run(self) -> None:
        handlers: dict[str, Callable[[Any], Awaitable[None]]] = {
            "turn": self._turn, "recheck": self._recheck, "low": self._low,
            "ended": self._ended, "challenge": self._challenge,
        }  # fmt: skip
        while True:
            kind, item = await self._queue.get()
            try:
                await handlers[kind](item)
            except RelayError as error:  # the match is gone, or the store away: not pushed
                log.info("push of %s skipped: %s", kind, error.code)
            except Exception:
                log.exception("push of %s failed", kind)
            finally:
                self._queue.task_done()

    def _later(self, key: str, delay: float, kind: str, item: Any) -> None:
        """Queues (kind, item) after delay seconds, replacing the timer of the same key."""
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()

        def fire() -> None:
            self._timers.pop(key, None)
            self._put(kind, item)

        self._timers[key] = asyncio.get_running_loop().call_later(max(0.0, delay), fire)

    # -- what each notice calls for ----------------------------------------------------------

    async def _info(self, notice: TurnNotice) -> MatchInfo | None:
        """Returns the match while the notice's turn is still the seat's (None: over)."""
        info = await self.store.matches.info(notice.match)
        live = info.status in (Status.PLAYING, Status.ENDING) and info.last == notice.seq
        return info if live else None

    async def _subscribed(self, player: str) -> bool:
        """Returns whether the player key has a browser to push to (most have none: then the
        match is not read at all)."""
        return bool(await self.store.push.of(player, time.time()))

    async def _watching(self, match: str, seat: int) -> bool:
        """Returns whether the seat may hold a poll on the match now (Tables.present: its page
        polls), read at once, by the rule the reaper shows a seat away by."""
        return await self.store.tables.present(match, seat, time.time() + self.ahead)

    async def _turn(self, notice: TurnNotice) -> None:
        if not await self._subscribed(notice.player):
            return
        info = await self._info(notice)
        if info is None:
            return
        now = time.time()
        control = info.clock.control if info.clock is not None else None
        if control is not None and info.status is Status.PLAYING:
            low = notice.due - low_after(float(control.base))
            self._later(notice.match, low - now, "low", notice)
        if await self._watching(notice.match, notice.seat):
            self._later(f"{notice.match}:again", self.recheck, "recheck", notice)
            return
        self._push_turn(notice, now)

    async def _recheck(self, notice: TurnNotice) -> None:
        if await self._info(notice) is None or await self._watching(notice.match, notice.seat):
            return
        self._push_turn(notice, time.time())

    def _push_turn(self, notice: TurnNotice, now: float) -> None:
        identity = f"{notice.match}:{notice.seat}:{notice.seq}"
        made = messages.turn(notice.game, notice.match, notice.seat, notice.due, now)
        self.push(notice.player, identity, made)

    async def _low(self, notice: TurnNotice) -> None:
        now = time.time()
        info = await self._info(notice)
        if info is None:
            if now >= notice.due:  # ended by its clock, perhaps: tell its end
                await self._ended(notice.match)
            return
        if now >= notice.due:
            # Not ended yet: the reaper ends it within a sweep or two; look once more then.
            if now < notice.due + 4 * ENDED_AFTER:
                self._later(notice.match, ENDED_AFTER, "low", notice)
            return
        self._later(notice.match, notice.due + ENDED_AFTER - now, "low", notice)
        if info.turn != notice.seat or await self._watching(notice.match, notice.seat):
            return
        identity = f"{notice.match}:{notice.seat}:{notice.seq}"
        made = messages.clock_low(notice.game, notice.match, notice.seat, notice.due - now)
        self.push(notice.player, identity, made)

    async def _ended(self, match: str) -> None:
        info = await self.store.matches.info(match)
        if info.status is not Status.FINISHED:
            return
        pushed = [bool(player) and await self._subscribed(player) for player in info.keys]
        if not any(pushed):
            return
        _, events = await self.store.matches.poll(match, None, info.last - 1, time.time())
        ended = orjson.loads(events[-1]) if events else {}
        if ended.get("type") != "ended":
            return
        for seat, player in enumerate(info.keys):
            if not pushed[seat] or await self._watching(match, seat):
                continue
            said = words(str(ended.get("reason")), ended.get("seat"), seat)
            self.push(player, f"{match}:{seat}", messages.ended(info.game, match, said))

    async def _challenge(self, notice: ChallengeNotice) -> None:
        by = notice.name or "A player"
        made = messages.challenge(notice.game, notice.challenge, by, notice.until, time.time())
        self.push(notice.player, notice.challenge, made)
