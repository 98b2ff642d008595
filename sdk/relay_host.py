"""RelayHost: the GameHost that plays one match through a relay by long-polling its event log."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections.abc import Callable
from typing import Literal, Self

import aiohttp

from sdk import _endings as endings
from sdk import rematch as rematches
from sdk._answers import reply_to
from sdk._healing import DIVERGED, Write, check_log, lost_writes, same_event
from sdk._inbox import GAP, WAKE, Behind, Failure, Feed, Inbox, Wake, poll_into
from sdk._resume import history, split_log, turn_after
from sdk.client import RelayClient
from sdk.clock import Clock, TimeControl
from sdk.errors import (
    ConnectionLostError,
    HostStateError,
    NotYourTurnError,
    ProtocolError,
    RelayRefusedError,
    RelayUnreachableError,
)
from sdk.events import Ended, Event, Moved, Passed, Started
from sdk.game import Game, GameFactory, GameHost
from sdk.outcome import Outcome, Reason, Result
from sdk.state import State
from sdk.ticket import Ticket
from sdk.timing import Timing

__all__ = ["DialogSink", "RelayHost", "StateSink", "TicketSink"]

DialogSink = Callable[[str], None]
"""Shows a dialog text to the player (the default prints it)."""
StateSink = Callable[[State], None]
"""Told each new state of a host, as it changes."""
TicketSink = Callable[[Ticket], None]
"""Told the seat a seek got, so that it can be kept for resuming."""

NOT_YOUR_TURN = "move({move!r}) in state {state!r}: a game moves only after enable()"
NOT_TEXT = "a move must be a str that UTF-8 can encode, not {move!r}"
PLAYED_TWICE = "a RelayHost plays one match; make another (or use RelayHost.resume)"
NO_PASS_NOW = "pass_turn() in state {state!r}: a game passes only after enable()"
NOT_STARTED = "the match log does not open with a started event: {event!r}"

ACCEPTED_AFTER = 0.25
"""Seconds after which a move post held for the reply counts as accepted: the relay refuses a
move at once, so one still unanswered is held, and the partner has the turn."""


class RelayHost(GameHost):
    """Plays one match through a relay: seeks, long-polls the match log, and drives a Game.

    The host calls the game from the task running `play()`, one call at a time, in log order.
    `move()`, `resign()` and `cancel()` may be called from that loop (the game's callbacks,
    other tasks) or from another thread (a UI): each acts at once, calling the game's
    `disable()` in the caller's thread, and the loop sends in the background.
    """

    def __init__(
        self,
        relay_url: str,
        game_key: str,
        game_factory: GameFactory,
        *,
        version: str = "",
        room: str | None = None,
        time_control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
        timing: Timing | None = None,
        dialog: DialogSink | None = None,
        on_state: StateSink | None = None,
        on_ticket: TicketSink | None = None,
        session: aiohttp.ClientSession | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.relay_url = relay_url
        """The relay's base URL, such as http://localhost:8080."""
        self.game_key = game_key
        """The game key sought (empty for a resumed host, which never seeks)."""
        self.version = version
        """The version of the move strings this game speaks."""
        self.room = room
        """A private room name, or None to meet any seeker of the game and version."""
        self.time_control = time_control
        """The time control sought (None: no clock); only seekers of the same one meet."""
        self.player = player
        """The player key the seat is listed under (sdk.players), or None."""
        self.contact = contact
        """The contact handle the relay's your-turn notices name, or None."""
        self.timing = timing or Timing()
        """Poll holds, request timeouts, backoff and give-up time."""
        self._factory = game_factory
        self._dialog = dialog or _print
        self._on_state = on_state
        self._on_ticket = on_ticket
        self._session = session
        self._rng = rng
        self._ticket: Ticket | None = None
        self._resumed = False
        self._client: RelayClient | None = None
        self._game: Game | None = None
        self._outcome: Outcome | None = None
        self._state = State.NOT_CONNECTED
        self._cursor = 0
        self._write: Write | None = None
        self._cancel_wanted = False
        self._resign_wanted = False
        self._resign_sent = False
        self._local_dispute = False
        self._dispute_dialog = ""
        self._played = False
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._queue: Inbox = asyncio.Queue()
        self._listening: asyncio.Task[list[Event]] | None = None
        self._feed = Feed(self._queue, 0)
        self._delivered: dict[int, Event] = {}
        """Every event handled, by number: what the game was told, to check a healed log by."""
        self._reposts: list[Write] = []
        self._retried: Write | None = None
        """This side's writes a failover lost, to post again when the log reaches them."""
        self._poller: asyncio.Task[None] | None = None
        self._clock: Clock | None = None

    @classmethod
    def resume(
        cls,
        relay_url: str,
        ticket: Ticket,
        game_factory: GameFactory,
        *,
        timing: Timing | None = None,
        dialog: DialogSink | None = None,
        on_state: StateSink | None = None,
        session: aiohttp.ClientSession | None = None,
        rng: random.Random | None = None,
    ) -> Self:
        """Returns a host that takes up the seat `ticket` again, after a restart.

        Its `play()` reads the whole log, creates the game and hands it the moves so far through
        `Game.restore()`, then plays on. Nothing already in the log is sent again.
        """
        host = cls(
            relay_url,
            "",
            game_factory,
            timing=timing,
            dialog=dialog,
            on_state=on_state,
            session=session,
            rng=rng,
        )
        host._ticket = ticket
        host._resumed = True
        return host

    def __repr__(self) -> str:
        return f"<RelayHost {self.relay_url!r} {self.game_key!r} state={self._state!r}>"

    # -- what a game and a UI see ----------------------------------------------------------

    @property
    def state(self) -> State:
        """Returns the host's current state."""
        return self._state

    @property
    def game(self) -> Game | None:
        """Returns the game, once the match has started."""
        return self._game

    @property
    def ticket(self) -> Ticket | None:
        """Returns this side's seat (match id, seat, token) once seated; keep it to resume."""
        return self._ticket

    @property
    def clock(self) -> Clock | None:
        """Returns the seats' clocks once a match with a time control started (see
        GameHost.clock), else None."""
        return self._clock

    @property
    def outcome(self) -> Outcome | None:
        """Returns how the match ended, once it has."""
        return self._outcome

    @property
    def retries(self) -> int:
        """Returns how many requests were sent again after a transient fault."""
        return self._client.retries if self._client is not None else 0

    def move(self, move: str, end_game: bool = False) -> None:
        """Sends this side's move; `end_game` says the game is over with it.

        Allowed only in PLAYING_TO_MOVE: otherwise raises NotYourTurnError and sends nothing.
        The state becomes WAITING_SERVER_RESPONSE, the game is disabled at once, and the move is
        posted (retried until the relay accepts it): then PLAYING_WAIT_MOVE, or GAME_ENDED.
        """
        if not isinstance(move, str):
            raise TypeError(NOT_TEXT.format(move=move))
        if not _is_text(move):
            raise ValueError(NOT_TEXT.format(move=move))
        self._take_turn("move", move, bool(end_game))

    def pass_turn(self) -> None:
        """Passes this side's turn back to the partner: by choice, or for want of a legal move.

        Allowed only in PLAYING_TO_MOVE, like `move()`: otherwise raises NotYourTurnError and
        sends nothing. The state becomes WAITING_SERVER_RESPONSE, the game is disabled at once,
        and the pass is posted: then PLAYING_WAIT_MOVE. The partner's game may dispute it.
        """
        self._take_turn("pass", "", False)

    def _take_turn(self, kind: Literal["move", "pass"], move: str, end: bool) -> None:
        """Queues this side's move or pass, disables the game and wakes the loop to send it."""
        with self._lock:
            if self._state is not State.PLAYING_TO_MOVE:
                if kind == "pass":
                    raise NotYourTurnError(NO_PASS_NOW.format(state=self._state))
                raise NotYourTurnError(NOT_YOUR_TURN.format(move=move, state=self._state))
            self._write = Write(kind, self._cursor, move, end)
            self._state = State.WAITING_SERVER_RESPONSE
            self._tick_own(end)
        self._notify(State.WAITING_SERVER_RESPONSE)
        assert self._game is not None
        self._game.disable()
        self._call_in_loop(self._wake)

    def show_dialog(self, text: str) -> None:
        """Shows a message to this side's player, through the `dialog` given (default: print)."""
        self._dialog(text)

    def resign(self) -> None:
        """Resigns the match (the partner wins); while seeking, withdraws the seek instead.

        Takes effect at once: the state becomes GAME_ENDED and the game is disabled; `play()`
        returns when the relay has recorded it. Does nothing once the match is over.
        """
        self._leave()

    def cancel(self) -> None:
        """Withdraws the seek (before `play()` or while LISTENING): `play()` returns CANCELLED.

        If a partner has joined already, the new match is resigned instead, just as when the
        partner joins before the withdrawal reaches the relay. Does nothing once it is over.
        """
        self._leave()

    def _leave(self) -> None:
        was_enabled = False
        with self._lock:
            if self._outcome is not None or self._resign_wanted or self._cancel_wanted:
                return
            if self._game is None:
                self._cancel_wanted = True
            else:
                self._resign_wanted = True
                was_enabled = self._state is State.PLAYING_TO_MOVE
                self._state = State.GAME_ENDED
        if self._cancel_wanted:
            self._call_in_loop(self._stop_listening)
            return
        self._notify(State.GAME_ENDED)
        if was_enabled and self._game is not None:
            self._game.disable()
        self._call_in_loop(self._wake)

    # -- the match -------------------------------------------------------------------------

    async def play(self) -> Outcome:
        """Plays the match to its end and returns the Outcome; one call per host.

        Network faults are retried (see Timing); a final failure ends the match with a dialog
        and an Outcome (Reason.CONNECTION_LOST or Reason.ERROR), never an exception. An
        exception raised by the game's own code propagates (the seat can then be resumed).
        """
        if self._played:
            raise HostStateError(PLAYED_TWICE)
        self._played = True
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        if self._session is not None:
            return await self._play(self._session)
        async with aiohttp.ClientSession() as session:
            return await self._play(session)

    async def offer_rematch(self) -> RelayHost | None:
        """Offers or accepts a rematch: the new match's host, or None (declined, lapsed)."""
        return await rematches.offer(self)

    async def decline_rematch(self) -> rematches.Rematch:
        """Declines the partner's rematch offer (or says no ahead of one)."""
        return await rematches.decline(self)

    async def next_rematch(self, after: int = 0) -> rematches.Rematch:
        """Returns the rematch once it changed past version `after` (an offer, a decline...)."""
        return await rematches.news(self, after)

    def rematch_host(self, accepted: rematches.Rematch) -> RelayHost:
        """Returns the host of an accepted rematch's new match, from the same seat."""
        return rematches.follow(self, accepted)

    async def _play(self, session: aiohttp.ClientSession) -> Outcome:
        client = self._client = RelayClient(session, self.relay_url, self.timing, self._rng)
        try:
            batch = await self._listen(client)
            if batch is not None:
                self._start(batch)
                if self._cancel_wanted:  # cancel() came as the game was being created
                    self._cancel_wanted = False
                    self.resign()
                self._feed.after = batch[-1].seq
                self._feed.ended = isinstance(batch[-1], Ended)
                while self._outcome is None:
                    await self._step(client)
        except ConnectionLostError as exc:
            unreachable = isinstance(exc, RelayUnreachableError)
            said = endings.UNREACHABLE if unreachable else endings.CONNECTION_LOST
            self._break_off(Reason.CONNECTION_LOST, said.format(error=_sentence(exc)))
        except (RelayRefusedError, ProtocolError) as exc:
            self._break_off(Reason.ERROR, endings.REFUSED.format(error=_sentence(exc)))
            await self._resign_quietly(client)
        finally:
            for task in (self._poller, self._listening):
                if task is not None:
                    task.cancel()
                    await asyncio.wait([task])
        assert self._outcome is not None
        return self._outcome

    async def _listen(self, client: RelayClient) -> list[Event] | None:
        """Seeks and polls until the match starts; returns its first events (None: withdrawn)."""
        self._set_state(State.LISTENING)
        while True:
            if self._cancel_wanted:
                await self._withdraw(client)
                return None
            if self._ticket is None:
                self._ticket = await client.seek(
                    self.game_key,
                    self.version,
                    self.room,
                    time_control=self.time_control,
                    player=self.player,
                    contact=self.contact,
                )
                if self._on_ticket is not None:
                    self._on_ticket(self._ticket)
                continue
            self._listening = task = asyncio.create_task(
                client.events(self._ticket, 0, self.timing.poll_wait)
            )
            await asyncio.wait([task])
            self._listening = None
            if task.cancelled():
                continue
            try:
                batch = task.result()
            except RelayRefusedError as exc:
                if exc.code != "match/expired":
                    raise
                if self._resumed:
                    self._drop_seek(endings.SEEK_DROPPED.format(error=_sentence(exc)))
                    return None
                self._ticket = None  # the relay dropped the seek (we could not poll): seek anew
                continue
            if batch and self._cancel_wanted:
                await self._withdraw(client)
                return None
            if batch:
                return batch

    async def _withdraw(self, client: RelayClient) -> None:
        ticket = self._ticket
        if ticket is not None:
            try:
                await client.cancel(ticket)
            except RelayRefusedError as exc:
                if exc.code != "match/started":
                    raise
                # The partner came just before the withdrawal: leave the new match at once.
                await client.resign(ticket)
                self._set_state(State.GAME_ENDED)
                self._outcome = Outcome(
                    Result.LOST, Reason.RESIGNED, ticket.match, ticket.seat, by=ticket.seat
                )
                return
        self._drop_seek("")

    def _drop_seek(self, message: str) -> None:
        self._set_state(State.NOT_CONNECTED)
        if message:
            self.show_dialog(message)
        ticket = self._ticket
        match, seat = (ticket.match, ticket.seat) if ticket else (None, None)
        self._outcome = Outcome(Result.UNKNOWN, Reason.CANCELLED, match, seat, message=message)

    def _start(self, batch: list[Event]) -> None:
        """Creates the game from the first events (restoring a resumed one) and queues the rest."""
        started, ticket = batch[0], self._ticket
        assert ticket is not None
        if not isinstance(started, Started) or started.seq != 1:
            raise ProtocolError(NOT_STARTED.format(event=started))
        seat = ticket.seat
        restored, live = split_log(batch[1:], seat) if self._resumed else ([], batch[1:])
        self._cursor = 1
        self._delivered = {event.seq: event for event in (started, *restored)}
        if started.time_control is not None and started.left is not None:
            self._clock = Clock(started.time_control, started.left, started.first, time.monotonic())
            for event in restored:
                self._tick(event)
        game = self._game = self._factory(self, started.first == seat)
        if restored:
            game.restore(history(restored, seat))
            self._cursor = restored[-1].seq
        turn, ending = turn_after(started.first, restored)
        finished = any(isinstance(event, Ended) for event in live)
        if turn == seat and not ending and not finished:
            self._give_turn()
        else:
            self._set_state(State.GAME_ENDED if ending else State.PLAYING_WAIT_MOVE)
            game.disable()
        for event in live:
            self._queue.put_nowait(event)

    def _poll(self, client: RelayClient) -> None:
        """Polls the log, unless a poll is under way or the log is read to its end.

        The host polls only when it has nothing else to do: a move is posted held for the
        reply instead (one request per move), and the poll is stopped while it is.
        """
        feed, poller, ticket = self._feed, self._poller, self._ticket
        if feed.ended or feed.failed or ticket is None:
            return
        if poller is None or poller.done():
            wait = self.timing.poll_wait
            self._poller = asyncio.create_task(poll_into(feed, client, ticket, wait))

    async def _stop_polling(self) -> None:
        """Stops the poll under way, so that the seat holds one request at a time."""
        poller, self._poller = self._poller, None
        if poller is not None and not poller.done():
            poller.cancel()
            await asyncio.wait([poller])

    async def _step(self, client: RelayClient) -> None:
        """Sends what is pending, else handles the next queued event."""
        if self._resign_wanted:
            if not self._resign_sent:
                self._resign_sent = True
                await self._send(client, None)
                return
        else:
            with self._lock:
                write, self._write = self._write, None
            if write is None:
                write = self._repost()
            if write is not None:
                await self._send(client, write)
                return
        if self._queue.empty():
            self._poll(client)
        item = await self._queue.get()
        if isinstance(item, Failure):
            raise item.error
        if isinstance(item, Behind):
            await self._heal(client, await client.events(self._ticket_now, 0, 0), None, True)
        elif not isinstance(item, Wake):
            self._handle(item)

    def _repost(self) -> Write | None:
        """Returns the next write a failover lost, once the log reaches the event it followed."""
        reposts, after = self._reposts, self._feed.after
        while reposts and reposts[0].after < after:
            reposts.pop(0)  # the log has moved past it: its event was handled and checked
        if reposts and reposts[0].after == after and self._queue.empty():
            return reposts.pop(0)
        return None

    async def _heal(
        self, client: RelayClient, log: list[Event], pending: Write | None, behind: bool
    ) -> bool:
        """Takes up a log that lost events this side handled or wrote; returns False if it did not.

        `behind`: the relay said so (`match/behind`); else the log says whether it lost events.

        The events left must be those the game saw. The host then reads on from the log's
        end: the partner's lost moves, posted again, are skipped as already handled, and this
        side's lost writes (with `pending`, the write just refused) are posted again in turn.
        """
        last = log[-1].seq if log else 0
        if not behind:
            if pending is not None and pending.after == last:
                # Refused at the log's end: the log reached the write's place since the refusal
                # (the partner posted a lost move again). Post it once more; refused there a
                # second time, give up.
                if self._retried == pending:
                    return False
                self._retried = pending
            elif last >= self._cursor and (pending is None or last > pending.after):
                return False  # the log is whole: the refusal has another cause
        await self._stop_polling()
        check_log(log, self._delivered)
        self._reposts = lost_writes(self._delivered, last, self._seat, pending)
        self._feed.after = min(last, self._feed.after)
        self._feed.ended = False
        return True

    async def _send(self, client: RelayClient, write: Write | None) -> None:
        """Posts a write (None: the resignation); a 409 is explained by the log or raised."""
        ticket = self._ticket
        assert ticket is not None
        try:
            if write is None:
                await client.resign(ticket)
            elif write.kind == "move":
                await self._stop_polling()
                seq, replies = await self._post_held(client, write)
                own = Moved(seq, ticket.seat, write.move, write.end)
                self._feed.put([own, *replies])
            elif write.kind == "pass":
                await client.pass_turn(ticket, write.after)
            else:
                await client.confirm(ticket, write.after, write.agree)
        except RelayRefusedError as exc:
            if exc.status != 409:
                raise
            # Refused as the match moved on (the partner resigned or left), or as the log fell
            # behind what this side saw (a failover): the log says which.
            log = await client.events(ticket, 0, 0)
            behind = exc.code == "match/behind"
            if write is not None and await self._heal(client, log, write, behind):
                return
            for event in log:
                self._handle(event)
            self._feed.after = max(self._feed.after, self._cursor)
            if self._outcome is None:
                raise
            return
        if write is not None and write.kind in ("move", "pass"):
            after = State.GAME_ENDED if write.end else State.PLAYING_WAIT_MOVE
            self._set_state(after, only_from=State.WAITING_SERVER_RESPONSE)

    async def _post_held(self, client: RelayClient, write: Write) -> tuple[int, list[Event]]:
        """Posts a move held for the reply; the partner has the turn once the relay holds it."""
        ticket = self._ticket
        assert ticket is not None
        wait = self.timing.poll_wait
        post = asyncio.ensure_future(
            client.move_and_wait(ticket, write.after, write.move, write.end, wait)
        )
        try:
            done, _ = await asyncio.wait([post], timeout=ACCEPTED_AFTER)
            if not done:
                after = State.GAME_ENDED if write.end else State.PLAYING_WAIT_MOVE
                self._set_state(after, only_from=State.WAITING_SERVER_RESPONSE)
            return await post
        finally:
            post.cancel()

    def _handle(self, event: Event) -> None:
        """Handles the next event of the log: the only place the game hears of the partner."""
        if event.seq <= self._cursor:
            known = self._delivered.get(event.seq)
            if same_event(known, event):
                return  # handled already (a failover made the partner post it again)
            if not isinstance(event, Ended):
                raise ProtocolError(DIVERGED.format(event=event, known=known))
        elif event.seq != self._cursor + 1:
            raise ProtocolError(GAP.format(cursor=self._cursor, seq=event.seq))
        self._cursor = event.seq
        self._delivered[event.seq] = event
        self._tick(event)
        if isinstance(event, Ended):
            self._end(event)
        elif isinstance(event, Started):
            raise ProtocolError(NOT_STARTED.format(event=event))
        elif self._resign_wanted or event.seat == self._seat:
            return  # our own move or pass, or play after this side left
        else:
            self._receive(event)

    def _tick(self, event: Event) -> None:
        """Moves the clocks on by an event: the mover's time as the relay gave it, the turn
        (and with a deadline control, a full turn's time) to the other seat; none runs once a
        game-ending move waits for its confirm or the match is over."""
        clock = self._clock
        if clock is None or isinstance(event, Started):
            return
        now = time.monotonic()
        left = list(clock.left(now))
        if isinstance(event, Ended):
            self._clock = Clock(clock.control, (left[0], left[1]), None, now)
            return
        if event.left is None:
            return  # this side's own move, counted when it was sent (_tick_own)
        left[event.seat] = event.left
        other = 1 - event.seat
        if clock.control.kind == "deadline":
            left[other] = float(clock.control.base)
        ending = isinstance(event, Moved) and event.end
        self._clock = Clock(clock.control, (left[0], left[1]), None if ending else other, now)

    def _tick_own(self, end: bool) -> None:
        """Stops this side's clock as it sends its move or pass (the relay charges it on
        arrival): Fischer adds the increment; the partner's clock starts (afresh with a
        deadline control); none runs after a game-ending move."""
        clock, seat = self._clock, self._seat
        if clock is None:
            return
        now = time.monotonic()
        left = list(clock.left(now))
        if clock.control.kind == "fischer":
            left[seat] += clock.control.increment
        else:
            left[1 - seat] = float(clock.control.base)
        self._clock = Clock(clock.control, (left[0], left[1]), None if end else 1 - seat, now)

    def _receive(self, event: Moved | Passed) -> None:
        """Hands the partner's move or pass to the game, and acts on its answer."""
        assert self._game is not None
        reply = reply_to(self._game, event)
        if reply.kind == "turn":
            self._give_turn()
        elif reply.kind == "pass":
            self._write = Write("pass", event.seq)
        elif reply.kind == "confirm":
            self._set_state(State.GAME_ENDED)
            self._write = Write("confirm", event.seq, agree=reply.agree)
        else:
            self._dispute(event, reply.dialog)

    def _dispute(self, event: Moved | Passed, dialog: str) -> None:
        """Disputes the partner's last move or pass: the match ends disputed for both."""
        self._local_dispute = True
        self._dispute_dialog = dialog
        self._set_state(State.GAME_ENDED)
        self._write = Write("confirm", event.seq, agree=False)
        self.show_dialog(dialog)

    def _give_turn(self) -> None:
        assert self._game is not None
        self._set_state(State.PLAYING_TO_MOVE)
        self._game.enable()

    def _end(self, event: Ended) -> None:
        game, ticket = self._game, self._ticket
        assert game is not None and ticket is not None
        was_enabled = self._state is State.PLAYING_TO_MOVE
        self._set_state(State.GAME_ENDED)
        if was_enabled:
            game.disable()
        if self._local_dispute:
            self._outcome = Outcome(
                Result.UNKNOWN,
                Reason.DISPUTED,
                ticket.match,
                ticket.seat,
                by=ticket.seat,
                message=self._dispute_dialog,
            )
            return
        result, reason, dialog = endings.ending(event, ticket.seat, game.result)
        if dialog is not None:
            self.show_dialog(dialog)
        self._outcome = Outcome(
            result, reason, ticket.match, ticket.seat, by=event.seat, message=dialog or ""
        )

    def _break_off(self, reason: Reason, message: str) -> None:
        """Ends the match for this side after a failure that retrying could not fix."""
        game, ticket = self._game, self._ticket
        was_enabled = self._state is State.PLAYING_TO_MOVE
        self._set_state(State.GAME_ENDED if game is not None else State.NOT_CONNECTED)
        if was_enabled and game is not None:
            game.disable()
        self.show_dialog(message)
        match, seat = (ticket.match, ticket.seat) if ticket else (None, None)
        self._outcome = Outcome(Result.UNKNOWN, reason, match, seat, message=message)

    async def _resign_quietly(self, client: RelayClient) -> None:
        """Tries once to free the partner of a match this side cannot go on with."""
        if self._game is None or self._ticket is None:
            return
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.timing.request_timeout):
                await client.resign(self._ticket)

    # -- plumbing --------------------------------------------------------------------------

    @property
    def _ticket_now(self) -> Ticket:
        assert self._ticket is not None
        return self._ticket

    @property
    def _seat(self) -> int:
        assert self._ticket is not None
        return self._ticket.seat

    def _set_state(self, state: State, only_from: State | None = None) -> None:
        with self._lock:
            if only_from is not None and self._state is not only_from:
                return
            old, self._state = self._state, state
        if old is not state:
            self._notify(state)

    def _notify(self, state: State) -> None:
        if self._on_state is not None:
            self._on_state(state)

    def _wake(self) -> None:
        self._queue.put_nowait(WAKE)

    def _stop_listening(self) -> None:
        if self._listening is not None:
            self._listening.cancel()

    def _call_in_loop(self, callback: Callable[[], None]) -> None:
        """Runs callback in the loop playing the match: now if called from it, else soon."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            callback()
        else:
            loop.call_soon_threadsafe(callback)


def _is_text(move: str) -> bool:
    try:
        move.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _sentence(error: Exception) -> str:
    """Returns an error's text without a final full stop, to quote it inside a sentence."""
    return str(error).rstrip(".")


def _print(text: str) -> None:
    print(text, flush=True)
