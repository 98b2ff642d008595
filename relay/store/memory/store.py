"""The embedded store: every match in this process's memory; nothing to install."""

from __future__ import annotations

import asyncio
import math
from collections import Counter, deque
from collections.abc import Collection
from typing import Any

import orjson

from relay.core import model
from relay.core.clock import Clock, TimeControl, millis
from relay.core.errors import RelayError
from relay.core.events import ended_event, move_event, pass_event
from relay.core.lobby import Lobby, LobbyKind
from relay.core.model import (
    Action,
    Event,
    MatchInfo,
    Status,
    StoreSettings,
    Ticket,
    behind,
    control_mismatch,
    finished,
    hash_token,
    new_match_id,
    new_token,
    too_long,
    too_many_bytes,
)
from relay.core.players import PlayerMatch, patience, same_player
from relay.core.rated import RatingRange, RatingRules, can_pair, score_of
from relay.core.ratings import LICHESS
from relay.core.reasons import Reason
from relay.core.rematch import NONE, Rematch, RematchOp, lapse_at, not_finished, step
from relay.core.table import OfferKind, Table, not_stalled, undo_event
from relay.core.turns import TurnNotice, TurnSink
from relay.core.verdicts import dispute_tail, result_of
from relay.store.base import Immediate, Judged, Waited, Wake
from relay.store.memory.hooks import MemoryHookState
from relay.store.memory.lobby import MemoryLobbies
from relay.store.memory.match import (
    ENDING,
    EXPIRED,
    FINISHED,
    NO_WRITE,
    PLAYING,
    PLAYS,
    TICK,
    WAITING,
    Held,
    Match,
    Write,
    new_write,
)
from relay.store.memory.moderation import MemoryModeration
from relay.store.memory.names import MemoryNames
from relay.store.memory.notices import Notices
from relay.store.memory.players import MemoryPlayers
from relay.store.memory.ratings import SWEEP_EVERY, MemoryRatings

__all__ = ["Held", "MemoryStore", "open_url"]

NEW_RATING = LICHESS.rating
"""A key's rating in a game it has no rating in yet."""

REAP_SLICE = 1000
"""Matches reap() looks at between two turns of the event loop: a pass over a box's tens of
thousands of matches lets the moves in meanwhile through, rather than holding them up."""


class _Seeker:
    """Who seeks: the seat token, the player key's digest ('' for none), the contact, the
    display name."""

    __slots__ = ("contact", "name", "player", "rating_range", "token")

    def __init__(self, token: str, player: str, contact: str | None, name: str | None) -> None:
        self.token = token
        self.player = player
        self.contact = contact
        self.name = name
        self.rating_range: RatingRange | None = None
        """The ratings it will be paired with (None: any)."""


class MemoryStore:
    """Keeps matches in memory: fast, single-process, lost on restart."""

    notices = 0
    """One process: nothing to hear from others (see Store.notices)."""

    def __init__(self, settings: StoreSettings | None = None) -> None:
        self.immediate: Immediate | None = self
        """Answers at once (poll_now, act_hashed, watch); see Store.immediate."""
        self.turns: TurnSink | None = None
        """Told of turns given in correspondence matches (see Store.turns)."""
        self.settings = settings or StoreSettings()
        self._matches: dict[str, Match] = {}
        self._endings: Counter[str] = Counter()
        self._queues: dict[tuple[str, str], deque[Match]] = {}
        self._rooms: dict[tuple[str, str], Match] = {}
        self._waiting: dict[str, int] = {}
        self._reseeks: dict[str, tuple[str, int, float]] = {}
        self._players = MemoryPlayers()
        """The matches each player key seated."""
        self._names = MemoryNames()
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ticks: dict[int, set[Held]] = {}
        self._tables_due: set[Match] = set()
        """Matches whose table changed this turn, their table-aware waits still to end."""
        """Tick number -> the waits that time out at that tick (see TICK)."""
        self._rematches: dict[str, Rematch] = {}
        """Match id -> its rematch, once someone offered one."""
        self._notices = Notices()
        """Wakes waits on rematches ('rematch:ID') and lobbies ('lobby:GAME')."""
        self._lobbies = MemoryLobbies(self.settings.lobby_size, self._notices.notify)
        self._hooks: MemoryHookState | None = None
        self._ratings = MemoryRatings()
        """Each key's ratings, and each rated match's (docs/ratings.md)."""
        self.moderation = MemoryModeration(
            self.settings, self._matches, self._players, self._names, self._ratings,
            self._table_changed,
        )  # fmt: skip
        """Bans, reports, blocks, voids and erasures (relay.store.moderation)."""
        self._ids_swept = 0.0

    # -- reading ---------------------------------------------------------------------------

    def _get(self, match: str) -> Match:
        state = self._matches.get(match)
        if state is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        if state.status is EXPIRED:
            raise RelayError("match/expired")
        return state

    def _seat(self, state: Match, digest: str) -> int:
        return state.seat_of(digest)

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """Returns the reader's seat and the events above after; marks a seat present."""
        return self.poll_now(match, token, after, now)

    def poll_now(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """poll(), at once (see Immediate)."""
        state = self._get(match)
        seat = None
        if token is not None:
            seat = self._seat(state, hash_token(token))
            state.seen[seat] = now
            if state.table.away[seat] is not None:
                self._back(state, seat)
        if after > len(state.events):
            raise behind(after, len(state.events))
        return seat, state.events[after:]

    async def wait(
        self, match: str, after: int, timeout: float, version: int | None = None
    ) -> Waited:
        """Returns the events above after once there are any; with a table version, ([],
        True) once the table is above it; else ([], False) after timeout: watch() awaited."""
        loop = self._running_loop()
        future: asyncio.Future[tuple[list[Event] | None, int]] = loop.create_future()

        def wake(events: list[Event] | None, table: int) -> None:
            if not future.done():
                future.set_result((events, table))

        held = self.watch(match, after, timeout, wake, version)
        try:
            events, table = await future
        finally:
            if held is not None:
                held.cancel()
        if events is None:
            raise RelayError("match/expired")
        return Waited(events, not events and version is not None and table > version)

    def watch(
        self, match: str, after: int, timeout: float, wake: Wake, version: int | None = None
    ) -> Held | None:
        """Calls wake with the events above after once there are any, or with [] after
        timeout: at once (returning None) when there are some already, else later, from
        whatever appends the next event (returning the wait, to cancel if need be). With a
        table version, a table above it ends the wait too (with the events then, maybe [])."""
        state = self._get(match)
        if after > len(state.events):
            raise behind(after, len(state.events))
        newer = version is not None and state.table.version > version
        if len(state.events) > after or self._closing or timeout <= 0 or newer:
            wake(state.events[after:], state.table.version)
            return None
        loop = self._running_loop()
        return self._hold(state, after, timeout, wake, loop, version is not None)

    def table_version(self, match: str) -> int:
        """Returns the version of the match's table (see Immediate)."""
        return self._get(match).table.version

    def table_now(self, match: str, chat_after: int) -> Table:
        """Returns the match's table, at once (see Immediate)."""
        return self._view(self._get(match), chat_after)

    def _hold(
        self, state: Match, after: int, timeout: float, wake: Wake,
        loop: asyncio.AbstractEventLoop, tables: bool = False,
    ) -> Held:  # fmt: skip
        """Registers a wait on the match until its next event (or its table's next change), or
        its tick after timeout."""
        tick = math.ceil((loop.time() + timeout) / TICK)
        due = self._ticks.get(tick)
        if due is None:
            due = self._ticks[tick] = set()
            loop.call_at(tick * TICK, self._time_out, tick)
        held = Held(state, after, wake, due, tables)
        due.add(held)
        state.waiters.append(held)
        return held

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """Returns the loop waits use: the one kept, or the running one once that is closed
        (tests run several in turn)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            loop = self._loop = asyncio.get_running_loop()
            self._ticks = {}
        return loop

    def _time_out(self, tick: int) -> None:
        """Answers every wait still held whose time is up at this tick."""
        for held in list(self._ticks.pop(tick, ())):
            held.fire()

    async def info(self, match: str) -> MatchInfo:
        """Returns a summary of the match."""
        return self._summary(self._get(match))

    def _summary(self, state: Match) -> MatchInfo:
        rated = self._ratings.of_match(state.id)
        return MatchInfo(
            match=state.id,
            game=state.game,
            version=state.version,
            room=state.room,
            status=state.status,
            turn=state.turn if state.status is PLAYING else None,
            last=len(state.events),
            first=state.first,
            clock=None
            if state.control is None
            else Clock(state.control, (state.clock[0], state.clock[1]), state.turn_at),
            names=(state.table.names[0], state.table.names[1]),
            rated="voided" if self._ratings.is_voided(state.id) else rated is not None,
            ratings=None if rated is None else rated.pairs(),
            keys=(state.players[0], state.players[1]),
        )

    async def counts(self) -> dict[Status, int]:
        """Returns how many matches are in each status."""
        counts = dict.fromkeys(Status, 0)
        for state in self._matches.values():
            counts[state.status] += 1
        return counts

    async def endings(self) -> dict[str, int]:
        """Returns how many matches ended, by reason (see Store.endings)."""
        return dict(self._endings)

    # -- pairing ---------------------------------------------------------------------------

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
        """Joins the oldest compatible waiting match, or opens a new one."""
        seeker = _Seeker(
            new_token() if token is None else token,
            "" if player is None else hash_token(player),
            contact,
            name,
        )
        seeker.rating_range = rating_range
        ticket = None
        if token is not None:
            prior = self._reseeks.get(hash_token(token))
            if prior is not None and prior[2] >= now and prior[0] in self._matches:
                ticket = Ticket(prior[0], prior[1], token)
        if ticket is None:
            self._players.check(seeker.player, self._status)
            ticket = self._seek(game, version, room, now, seeker, control)
            if token is not None:
                until = now + patience(control, self.settings.grace)
                self._reseeks[hash_token(token)] = (ticket.match, ticket.seat, until)
        self._players.add(seeker.player, ticket.match, now)
        self.moderation.know(seeker.player)
        return ticket

    def _status(self, match: str) -> Status | None:
        state = self._matches.get(match)
        return None if state is None else state.status

    def _seek(
        self,
        game: str,
        version: str,
        room: str | None,
        now: float,
        seeker: _Seeker,
        control: TimeControl | None,
    ) -> Ticket:
        if room is not None:
            held = self._rooms.get((game, room))
            if held is not None and held.status is WAITING and self._is_stale(held, now):
                self._expire(held, now)
            if held is not None and held.status is WAITING:
                if seeker.player and held.players[0] == seeker.player:
                    raise same_player(room)
                if self.moderation.refuses(seeker.player, held.players[0]):
                    raise RelayError("room/blocked")
                if held.version != version:
                    raise RelayError(
                        "room/version_mismatch",
                        f"Room {room!r} waits for {game!r} version {held.version!r}, "
                        f"not {version!r}.",
                    )
                if held.control != control:
                    raise control_mismatch(room, held.control, control)
                return self._join(held, now, seeker)
            if held is not None and held.status in (PLAYING, ENDING):
                raise RelayError("room/full", f"Room {room!r} of {game!r} is full.")
            ticket = self._open(game, version, room, now, seeker, control)
            self._rooms[(game, room)] = self._matches[ticket.match]
            return ticket
        queue = self._queues.setdefault(
            (game, version if control is None else f"{version}~{control.key}"), deque()
        )
        mine: list[Match] = []
        """Waiting seeks of the seeker's own player key: never joined, kept in their place."""
        try:
            while queue:
                oldest = queue.popleft()
                if oldest.status is not WAITING:
                    continue
                if self._is_stale(oldest, now):
                    self._expire(oldest, now)
                    continue
                if seeker.player and oldest.players[0] == seeker.player:
                    mine.append(oldest)
                    continue
                if self.moderation.refuses(seeker.player, oldest.players[0]):
                    mine.append(oldest)  # kept in its place for another seeker
                    continue
                if (seeker.rating_range is not None or oldest.rating_range is not None) and (
                    not self._in_range(game, seeker, oldest)
                ):
                    mine.append(oldest)  # kept in its place for a seeker in its range
                    continue
                return self._join(oldest, now, seeker)
            ticket = self._open(game, version, None, now, seeker, control)
            queue.append(self._matches[ticket.match])
            return ticket
        finally:
            queue.extendleft(reversed(mine))

    def _is_stale(self, state: Match, now: float) -> bool:
        """Whether a waiting seek's seeker is gone: without a per-move deadline, its last held
        poll ended with its client gone --seek-grace ago, or it began no poll for --hold and
        --seek-grace (within the grace period in any case); with one, it began no poll for
        the control's patience."""
        settings = self.settings
        seen = state.seen[0]
        if state.is_correspondence():
            return seen + patience(state.control, settings.grace) < now
        gone = state.table.gone[0]
        if gone >= seen and gone + settings.seek_grace <= now:
            return True
        return seen + min(settings.grace, settings.hold + settings.seek_grace) < now

    def _open(
        self,
        game: str,
        version: str,
        room: str | None,
        now: float,
        seeker: _Seeker,
        control: TimeControl | None,
    ) -> Ticket:
        if self._waiting.get(game, 0) >= self.settings.max_waiting:
            raise RelayError(
                "limit/waiting",
                f"{self.settings.max_waiting} matches of {game!r} are waiting.",
                retry_after=self.settings.grace,
            )
        opened = Match(game, version, room, now, control)
        opened.hashes[0] = hash_token(seeker.token)
        opened.players[0] = seeker.player
        opened.contacts[0] = seeker.contact
        opened.table.names[0] = seeker.name
        opened.rating_range = seeker.rating_range
        self._matches[opened.id] = opened
        self._waiting[game] = self._waiting.get(game, 0) + 1
        return Ticket(opened.id, 0, seeker.token)

    def _in_range(self, game: str, seeker: _Seeker, waiting: Match) -> bool:
        """Whether a seeker and a waiting seek are within each other's rating ranges."""
        return can_pair(
            self._rating(game, seeker.player),
            seeker.rating_range,
            self._rating(game, waiting.players[0]),
            waiting.rating_range,
        )

    def _rating(self, game: str, digest: str) -> float | None:
        """Returns a key's rating in a game (a new key's for none; None without a key)."""
        if not digest:
            return None
        rating = self._ratings.rating_of(game, digest)
        return NEW_RATING if rating is None else rating.rating

    def _join(self, state: Match, now: float, seeker: _Seeker) -> Ticket:
        state.hashes[1] = hash_token(seeker.token)
        state.players[1] = seeker.player
        state.contacts[1] = seeker.contact
        state.table.names[1] = seeker.name
        state.seen[1] = now
        state.since = now
        self._waiting[state.game] -= 1
        state.start(model.draw_first(), now)
        self._tell_start(state)
        return Ticket(state.id, 1, seeker.token)

    def _tell_start(self, state: Match) -> None:
        """Tells the turn sink that a match with a per-move deadline began (its first mover)."""
        first = state.first
        if self.turns is not None and first is not None and state.is_correspondence():
            self._tell(state, first, 1, (state.turn_at + state.clock[first]) / 1000)

    def _tell(self, state: Match, seat: int, seq: int, due: float) -> None:
        """Tells the turn sink that event seq gave seat the turn, if the seat has a contact."""
        sink, contact = self.turns, state.contacts[seat]
        if sink is not None and contact is not None:
            sink(TurnNotice(state.id, state.game, seat, seq, contact, due))

    def _expire(self, state: Match, now: float) -> None:
        state.status = EXPIRED
        state.since = now
        self._waiting[state.game] -= 1
        if state.room is not None and self._rooms.get((state.game, state.room)) is state:
            del self._rooms[(state.game, state.room)]
        state.wake_all()

    async def judged(
        self, match: str, token: str, after: int, games: Collection[str]
    ) -> Judged | None:
        """Returns what a referee judges of a write by the token's seat at event after (see
        Store.judged); checks the token before anything else."""
        state = self._matches.get(match)
        if state is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        seat = self._seat(state, hash_token(token))
        status = state.status
        if state.game not in games or len(state.events) != after:
            return None
        if status is not PLAYING and status is not ENDING:
            return None
        return Judged(state.game, status, seat, state.events[:])

    # -- writing ---------------------------------------------------------------------------

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event."""
        return self.act_hashed(match, hash_token(token), action, now)

    async def act_table(
        self, match: str, token: str, action: Action, now: float
    ) -> tuple[int, int]:
        """act(), and the table's version."""
        seq = self.act_hashed(match, hash_token(token), action, now)
        return seq, self._matches[match].table.version

    def act_hashed(self, match: str, digest: str, action: Action, now: float) -> int:
        """act() at once (the memory store needs no waiting to write), for a token already
        hashed (hash_token): the Api keeps the digest of a seat's token, not hashing it on
        every move."""
        state = self._matches.get(match)
        if state is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        seat = self._seat(state, digest)
        state.seen[seat] = now
        if state.table.away[seat] is not None:
            self._back(state, seat)
        status = state.status
        kind = action.kind
        if kind == "cancel":
            if status is EXPIRED:
                return 0
            if status is not WAITING:
                raise RelayError("match/started")
            self._expire(state, now)
            return 0
        if status is EXPIRED:
            raise RelayError("match/expired")
        if status is WAITING:
            raise RelayError("match/not_started")
        late = status is PLAYING and state.control is not None and state.is_out(now)
        if late:
            # The seat to move ran out of time before this write: the match ended then.
            self._finish(state, Reason.TIMEOUT, state.turn or 0, NO_WRITE, now)
            status = FINISHED
        done: Write = new_write(Write, (seat, kind, action.move, action.end, action.agree))
        events = state.events
        if kind == "resign":
            if status is FINISHED:
                last = state.done[-1]
                if last.seat == seat and last.kind == "resign":
                    return len(events)
                raise finished(late)
            return self._finish(state, Reason.RESIGNED, seat, done, now)
        after = action.after if action.after is not None else -1
        if 0 <= after < len(events):
            # A write sent again (its answer was lost): it made event after + 1, and is still
            # its seat's latest write (as the Redis store keeps only that one).
            later = state.done[after + 1 :]
            if state.done[after] == done and all(write.seat != seat for write in later):
                return after + 1
            if status is FINISHED:
                raise finished(late)
            raise RelayError(
                "turn/stale", f"'after' is {after} but the last event is {len(events)}."
            )
        if after != len(events):
            raise RelayError(
                "turn/stale", f"'after' is {after} but the last event is {len(events)}."
            )
        if status is FINISHED:
            raise finished(late)
        if kind == "confirm":
            last = state.done[-1]
            disputed = last.seat == 1 - seat and last.kind in PLAYS
            if status is PLAYING and not action.agree and disputed:
                # The seat to move disputes the partner's last move or pass (its game says it
                # ended the game, or broke the rules, or the partner had a move to make).
                return self._judged(state, action, seat, done, now)
            if status is not ENDING:
                raise RelayError("match/not_ending")
            if seat == state.ender:
                raise RelayError("turn/not_yours", "The partner confirms the end, not its sender.")
            if action.agree and action.ending is None:
                return self._finish(state, Reason.AGREED, seat, done, now)
            return self._judged(state, action, seat, done, now)
        if kind == "accept":
            return self._accept(state, seat, done, now)
        if kind == "claim":
            return self._claim(state, seat, done, now)
        if status is ENDING:
            raise RelayError("match/ending")
        if state.turn != seat:
            raise RelayError("turn/not_yours")
        if len(events) >= self.settings.max_events:
            raise too_long(self.settings.max_events)
        if kind == "move":
            size = state.move_bytes + len(orjson.dumps(action.move))
            if size > self.settings.max_log_bytes:
                raise too_many_bytes(self.settings.max_log_bytes)
            state.move_bytes = size
        seq = after + 1
        state.turn = 1 - seat
        if state.control is None:
            left = None
            state.turn_at = millis(now)
        else:
            left = state.charge(seat, now)
        if kind == "pass":
            seq = state.append(pass_event(seq, seat, left), done)
        elif action.end:
            state.status = ENDING
            state.ender = seat
            state.since = now
            state.claim = claim = action.claim
            event = move_event(seq, seat, action.move, True, left, claim)
            ending = action.ending
            if ending is not None:
                # A referee's verdict on the move joins the log with it: one wake for both.
                state.events.append(event)
                state.done.append(done)
                tail = ending.tail()
                self._finish(state, ending.reason, ending.seat, NO_WRITE, now, tail)
                return seq
            seq = state.append(event, done)
        else:
            seq = state.append(move_event(seq, seat, action.move, False, left), done)
        if self.turns is not None and state.is_correspondence():
            # The partner now has the turn, or, after a game-over move, its confirm to give.
            due = (state.turn_at + state.clock[1 - seat]) / 1000
            if state.status is ENDING:
                due = now + patience(state.control, self.settings.grace)
            self._tell(state, 1 - seat, seq, due)
        return seq

    def _accept(self, state: Match, seat: int, done: Write, now: float) -> int:
        """Accepts the partner's standing offer: a draw ends the match 'drawn'; a takeback
        appends its undo event and gives the asker the turn."""
        events = state.events
        offer = state.table.offer_accepted(seat, len(events), state.status is PLAYING)
        self._table_changed(state)
        if offer.kind == "draw":
            return self._finish(state, Reason.DRAWN, seat, done, now)
        state.table.undone += offer.count + 1
        left = state.rewind(offer.by, now)
        seq = state.append(undo_event(len(events) + 1, offer.by, offer.count, left), done)
        if self.turns is not None and state.is_correspondence():
            self._tell(state, offer.by, seq, (state.turn_at + state.clock[offer.by]) / 1000)
        return seq

    def _claim(self, state: Match, seat: int, done: Write, now: float) -> int:
        """Ends the match 'stalled' when its partner, to move without a clock, has thought
        for --claim-after seconds; raises claim/not_stalled before."""
        due = self._claim_at(state)
        if state.turn == seat:
            raise not_stalled(None, True)
        if due is None or state.turn != 1 - seat or due > now:
            raise not_stalled(None if due is None else due - now, False)
        return self._finish(state, Reason.STALLED, 1 - seat, done, now)

    def _claim_at(self, state: Match) -> float | None:
        """Returns when the partner of the seat to move may claim the win, if it may."""
        after = self.settings.claim_after
        if state.status is not PLAYING or state.control is not None or after <= 0:
            return None
        return state.turn_at / 1000 + after

    def _table_changed(self, state: Match) -> None:
        """Ends the table-aware waits on the match, its table changed, once the write that
        changed it is done (on the loop's next turn): an event the same write appends (an
        accepted takeback's undo, a move by a seat back from away) reaches them with it."""
        if not self._tables_due:
            self._running_loop().call_soon(self._wake_tables)
        self._tables_due.add(state)

    def _wake_tables(self) -> None:
        """Ends the table-aware waits on every match whose table changed since the last turn."""
        due, self._tables_due = self._tables_due, set()
        for state in due:
            state.wake_tables()

    def _back(self, state: Match, seat: int) -> None:
        """Shows seat here again (it polled or wrote), telling the table's readers."""
        if state.table.back(seat):
            self._table_changed(state)

    def _presence(self, state: Match, now: float) -> None:
        """Shows away each seat of a match in play that holds no poll (TableState.absent)."""
        table = state.table
        changed = False
        for seat in (0, 1):
            if table.away[seat] is None:
                since = table.absent(seat, state.seen[seat], now, self.settings.hold)
                if since is not None:
                    table.away[seat] = since
                    changed = True
        if changed:
            table.version += 1
            self._table_changed(state)

    def _judged(self, state: Match, action: Action, seat: int, done: Write, now: float) -> int:
        """Ends the match at a confirm that disputes the last play, or that carries a
        referee's verdict on it: the verdict's ending, else 'disputed' with the play's number
        and the disputer's reason."""
        ending = action.ending
        if ending is not None:
            return self._finish(state, ending.reason, ending.seat, done, now, ending.tail())
        tail = dispute_tail(len(state.events), action.move)
        return self._finish(state, Reason.DISPUTED, seat, done, now, tail)

    def _finish(
        self, state: Match, reason: str, seat: int, done: Write, now: float, tail: bytes = b""
    ) -> int:
        self._endings[reason] += 1
        if reason == Reason.TIMEOUT:
            state.clock[seat] = 0  # its time ran out: the match's clock reads so
        state.status = FINISHED
        state.since = now
        state.turn = None
        if state.room is not None and self._rooms.get((state.game, state.room)) is state:
            del self._rooms[(state.game, state.room)]
        seq = state.append(ended_event(len(state.events) + 1, reason, seat, tail), done)
        if self.settings.ratings is not None and state.players[0] and state.players[1]:
            self._rate(state, self.settings.ratings, now)
        return seq

    def _rate(self, state: Match, rules: RatingRules, now: float) -> None:
        """Rates a match that just ended between two player keys, if its result is rated:
        before anything is awaited, so once (docs/ratings.md)."""
        if not rules.rates(state.game):
            return
        score = score_of(orjson.loads(state.events[-1]), state.claim, rules)
        if score is not None:
            players, names = state.players, state.table.names
            self._ratings.rate(
                state.game, state.id, (players[0], players[1]), (names[0], names[1]), score, now,
                rules,
            )  # fmt: skip

    # -- rematches ------------------------------------------------------------------------

    async def rematch(self, match: str, token: str | None, op: RematchOp, now: float) -> Rematch:
        """Reads a match's rematch, or has the token's seat offer or decline one."""
        state = self._get(match)
        seat = None if token is None else self._seat(state, hash_token(token))
        if op != "read":
            if seat is None:
                raise RelayError("auth/required")
            if state.status is not FINISHED:
                raise not_finished()
        old = self._rematches.get(match, NONE)
        new = step(old, op, seat, now, self.settings.grace, new_match_id(), state.first)
        if new is not old:
            self._rematches[match] = new
            if new.match is not None and new.match not in self._matches:
                self._start_rematch(state, new.match, new.first or 0, now)
            self._notices.notify(f"rematch:{match}")
        return new

    def _start_rematch(self, old: Match, match: str, first: int, now: float) -> None:
        """Opens the new match of an accepted rematch: the same seats, tokens and game."""
        opened = Match(old.game, old.version, None, now, old.control)
        opened.id = match
        opened.hashes = list(old.hashes)
        opened.players = list(old.players)
        opened.contacts = list(old.contacts)
        opened.table.names = list(old.table.names)
        self._matches[match] = opened
        for player in opened.players:
            self._players.add(player, match, now)
        opened.start(first, now)
        self._tell_start(opened)

    async def rematch_wait(self, match: str, after: int, timeout: float, now: float) -> Rematch:
        """Returns the rematch once its version is above after, or as it is after timeout."""
        loop = self._running_loop()
        start = loop.time()
        while True:
            at = now + loop.time() - start
            current = await self.rematch(match, None, "read", at)
            left = timeout - (loop.time() - start)
            due = lapse_at(current, self.settings.grace)
            if due is not None:
                left = min(left, due - at + TICK)
            if current.version > after or self._closing or left <= 0:
                return current
            await self._notices.wait(f"rematch:{match}", left)

    # -- the table ------------------------------------------------------------------------

    async def table(
        self, match: str, token: str | None, chat_after: int, now: float
    ) -> tuple[int | None, Table]:
        """Reads a match's table; returns the reader's seat (None for a spectator) with it."""
        state = self._get(match)
        seat = None if token is None else self._seat(state, hash_token(token))
        return seat, self._view(state, chat_after)

    def _view(self, state: Match, chat_after: int = 0) -> Table:
        """Returns the match's table as its readers see it."""
        away = state.table.away
        grace = self.settings.grace
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
            self._claim_at(state),
            self.settings.claim_after
            if state.control is None and self.settings.claim_after > 0
            else None,
        )

    async def poll_table(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event], int]:
        """poll(), and the table's version."""
        seat, events = await self.poll(match, token, after, now)
        return seat, events, self._matches[match].table.version

    async def offer(self, match: str, token: str, kind: OfferKind, after: int, now: float) -> Table:
        """Has the token's seat offer a draw or ask a takeback at the position after event
        `after`; returns the table."""
        state, seat = self._writer(match, token, now)
        last = len(state.events)
        if state.status is PLAYING and after != last:
            raise RelayError("turn/stale", f"'after' is {after} but the last event is {last}.")
        settings = self.settings
        if state.table.offer_made(
            kind, seat, last, state.turn, state.status is PLAYING, now, settings.offers_per_minute
        ):
            self._table_changed(state)
        return self._view(state)

    async def decline(self, match: str, token: str, now: float) -> Table:
        """Has the token's seat decline the partner's standing offer or withdraw its own."""
        state, seat = self._writer(match, token, now)
        playing = state.status is PLAYING
        per_minute = self.settings.offers_per_minute
        if state.table.offer_declined(seat, len(state.events), playing, now, per_minute):
            self._table_changed(state)
        return self._view(state)

    async def chat(self, match: str, token: str, text: str, now: float) -> int:
        """Adds a line to the match's chat from the token's seat; returns its number."""
        state, seat = self._writer(match, token, now)
        if state.status is WAITING:
            raise RelayError("match/not_started")
        version = state.table.version
        n = state.table.said(seat, text, len(state.events), now, self.settings.chat_per_minute)
        if state.table.version != version:
            self._table_changed(state)
        return n

    async def left(self, match: str, token: str, started: float, now: float) -> None:
        """Notes that a held poll of the token's seat, begun at `started`, ended with its
        client gone: unless the seat polled or wrote since, it is away AWAY seconds on (a
        waiting seeker, --seek-grace on) if it polls no more."""
        state = self._matches.get(match)
        if state is None or state.status in (FINISHED, EXPIRED):
            return
        try:
            seat = self._seat(state, hash_token(token))
        except RelayError:
            return
        if state.seen[seat] <= started:
            state.table.gone[seat] = now

    def _writer(self, match: str, token: str, now: float) -> tuple[Match, int]:
        """Returns a match and the token's seat, marked present."""
        state = self._get(match)
        seat = self._seat(state, hash_token(token))
        state.seen[seat] = now
        if state.table.away[seat] is not None:
            self._back(state, seat)
        return state, seat

    # -- lobby -----------------------------------------------------------------------------

    async def lobby_add(self, game: str, kind: LobbyKind, match: str, now: float) -> None:
        """Lists a match in a game's lobby."""
        self._lobbies.add(game, kind, match, now)

    async def lobby_promote(self, game: str, match: str, now: float) -> None:
        """Moves a listed open seek to the live list."""
        self._lobbies.promote(game, match, now)

    async def lobby(self, game: str) -> Lobby:
        """Reads a game's lobby, healing entries whose match changed."""

        def look(match: str) -> MatchInfo | None:
            state = self._matches.get(match)
            return None if state is None else self._summary(state)

        return self._lobbies.read(game, look)

    async def lobby_wait(self, game: str, after: int, timeout: float) -> None:
        """Returns at the next change of the game's lobby, or after timeout."""
        if not self._closing:
            await self._notices.wait(f"lobby:{game}", timeout)

    # -- housekeeping ----------------------------------------------------------------------

    async def reap(self, now: float) -> int:
        """Ends matches whose seats stopped polling, drops stale seeks, forgets old matches
        and, once an hour, the ratings idle past RatingRules.keep."""
        grace, keep = self.settings.grace, self.settings.keep
        changed = 0
        if self.settings.ratings is not None:
            self._ratings.sweep(now, self.settings.ratings.keep)
        if now - self._ids_swept >= SWEEP_EVERY:
            self._ids_swept = now
            self.moderation.sweep(now)
        self._reseeks = {d: seen for d, seen in self._reseeks.items() if seen[2] >= now}
        for index, state in enumerate(list(self._matches.values())):
            if index and index % REAP_SLICE == 0:
                await asyncio.sleep(0)
            if self._matches.get(state.id) is not state:
                continue  # forgotten while the loop turned (by a reap() begun meanwhile)
            status = state.status
            if status is WAITING:
                if self._is_stale(state, now):
                    self._expire(state, now)
                    changed += 1
            elif status is PLAYING:
                self._presence(state, now)
                if state.control is not None and state.is_out(now):
                    self._finish(state, Reason.TIMEOUT, state.turn or 0, NO_WRITE, now)
                    changed += 1
                    continue
                if state.is_correspondence():
                    continue  # only its clock ends a correspondence match
                absent = min((0, 1), key=lambda seat: state.seen[seat])
                if state.seen[absent] + grace < now:
                    self._finish(state, Reason.ABANDONED, absent, NO_WRITE, now)
                    changed += 1
            elif status is ENDING:
                self._presence(state, now)
                partner = 1 - state.ender
                wait = patience(state.control, grace)
                if state.since + wait < now or state.seen[partner] + wait < now:
                    self._finish(state, Reason.UNCONFIRMED, partner, NO_WRITE, now)
                    changed += 1
            elif state.since + keep < now:
                del self._matches[state.id]
                self._ratings.forget_match(state.id)
                self._rematches.pop(state.id, None)
                self._players.forget(state.id, state.players)
                changed += 1
        return changed

    # -- player keys -----------------------------------------------------------------------

    async def claim_name(self, skeletons: tuple[str, ...], player: str | None, now: float) -> bool:
        """Binds a display name's skeletons to the player key, or checks them (Store)."""
        digest = "" if player is None else hash_token(player)
        return self._names.claim(skeletons, digest, now, self.settings.name_hold)

    async def player_matches(self, player: str, now: float) -> list[PlayerMatch]:
        """Returns the matches the player key seated that the store still holds."""
        digest = hash_token(player)
        listed: list[PlayerMatch] = []
        for match, opened in self._players.listed(digest):
            state = self._matches.get(match)
            if state is None or state.status is EXPIRED:
                continue
            seat = 0 if state.players[0] == digest else 1
            result = None
            if state.status is FINISHED:
                last = orjson.loads(state.events[-1])
                result = result_of(last)
            rated = self._ratings.of_match(match)
            change = None if rated is None else rated.pairs()[seat]
            listed.append(
                PlayerMatch(self._summary(state), seat, opened, state.since, result, change)
            )
        return listed

    async def player_ratings(self, player: str, game: str | None, now: float) -> list[Any]:
        """Returns the key's ratings, with their histories (see Store.player_ratings)."""
        return self._ratings.player(hash_token(player), game, now)

    async def leaderboard(self, game: str, limit: int, now: float) -> list[Any]:
        """Returns the game's leaderboard rows (see Store.leaderboard)."""
        return self._ratings.board(game, limit, now)

    async def seeker_rating(self, game: str, match: str, now: float) -> str | None:
        """Returns the rating of the key that opened the match (see Store.seeker_rating)."""
        state = self._matches.get(match)
        if state is None or not state.players[0]:
            return None
        return self._ratings.shown_of(game, state.players[0], now)

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        self._closing = True
        for state in self._matches.values():
            state.wake_all()
        self._notices.notify_all()

    async def close(self) -> None:
        """Releases nothing: the memory store holds no connections."""

    def hook_state(self) -> MemoryHookState:
        """Returns the webhook's state, in this process (see Store.hook_state)."""
        if self._hooks is None:
            self._hooks = MemoryHookState()
        return self._hooks


def open_url(url: str, settings: StoreSettings) -> MemoryStore:
    """Returns a new memory store (its URL is 'memory'; see relay.store.open)."""
    return MemoryStore(settings)
