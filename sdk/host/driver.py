"""Driver: a host's polling loop, that seeks, long-polls the match log and posts the writes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from sdk import _endings as endings
from sdk._healing import Write, check_log, lost_writes
from sdk.client import RelayClient
from sdk.errors import ConnectionLostError, ProtocolError, RelayRefusedError, RelayUnreachableError
from sdk.events import Ended, Event, Moved, Undone
from sdk.host.inbox import WAKE, Behind, Failure, Feed, Inbox, TableNews, Wake, poll_into
from sdk.host.machine import Machine
from sdk.outcome import Outcome, Reason
from sdk.state import State
from sdk.table import Table
from sdk.ticket import Ticket

__all__ = ["ACCEPTED_AFTER", "Closed", "Driver", "Seek"]

ACCEPTED_AFTER = 0.25
"""Seconds after which a move post held for the reply counts as accepted: the relay refuses a
move at once, so one still unanswered is held, and the partner has the turn."""


class Closed(Exception):
    """Queued by close(): the loop stops, with nothing more sent."""


Seek = Callable[[RelayClient], Awaitable[Ticket]]
"""Asks the relay for a seat (RelayClient.seek with the host's game, version, room...)."""


class Driver:
    """Plays a Machine's match through a relay: one request at a time per seat, with the
    poll holds and timeouts of the client's Timing.

    It feeds the log's events to the machine in order, posts what the machine leaves pending,
    heals the log after a failover of the relay's store, and turns a final network failure
    into the machine's Outcome. It polls only when it has nothing else to do: a move is posted
    held for the reply instead (one request per move), and the poll is stopped while it is.
    """

    def __init__(
        self,
        machine: Machine,
        on_ticket: Callable[[Ticket], None] | None = None,
    ) -> None:
        self.machine = machine
        self.resumed = False
        """Whether the seat is taken up again: the log's moves so far restore the game."""
        self.client: RelayClient | None = None
        """The client of the match, once `run()` began."""
        self.queue: Inbox = asyncio.Queue()
        """The log's events, the poll's failure and wake-ups, read one at a time."""
        self.feed = Feed(self.queue, 0)
        """What queues the log's events, each once, in order."""
        self.on_ticket = on_ticket
        """Told the seat the seek got, and the seat again with the game's data kept."""
        self.closing = False
        """Whether close() was called: the loop stops at its next step."""
        self._listening: asyncio.Task[list[Event]] | None = None
        self._poller: asyncio.Task[None] | None = None
        self._answers: set[asyncio.Task[None]] = set()
        """The game's answers to the partner's offers, being posted beside the loop."""
        self._reposts: list[Write] = []
        self._retried: Write | None = None
        self._table_after: Table | None = None
        """A table a held move post answered, queued once its events are."""
        """This side's writes a failover lost, to post again when the log reaches them."""

    async def run(self, client: RelayClient, seek: Seek) -> Outcome:
        """Plays the match to its end through `client` and returns the machine's Outcome."""
        machine = self.machine
        self.client = client
        try:
            batch = await self._listen(client, seek)
            if batch is None and self.closing:
                machine.closed()
            elif batch is not None:
                for event in machine.start(batch, self.resumed):
                    self.queue.put_nowait(event)
                if machine.cancel_wanted:  # cancel() came as the game was being created
                    machine.cancel_wanted = False
                    if machine.leave() == "resign":
                        self.wake()
                self.feed.after = batch[-1].seq
                self.feed.ended = isinstance(batch[-1], Ended)
                while machine.outcome is None:
                    await self._step(client)
        except Closed:
            machine.closed()
        except ConnectionLostError as exc:
            unreachable = isinstance(exc, RelayUnreachableError)
            said = endings.UNREACHABLE if unreachable else endings.CONNECTION_LOST
            machine.break_off(Reason.CONNECTION_LOST, said.format(error=_sentence(exc)))
        except (RelayRefusedError, ProtocolError) as exc:
            machine.break_off(Reason.ERROR, endings.REFUSED.format(error=_sentence(exc)))
            await self._resign_quietly(client)
        finally:
            for task in (self._poller, self._listening, *self._answers):
                if task is not None:
                    task.cancel()
                    await asyncio.wait([task])
        assert machine.outcome is not None
        return machine.outcome

    def wake(self) -> None:
        """Wakes the loop to look at what it has to send."""
        self.queue.put_nowait(WAKE)

    def close(self) -> None:
        """Stops the loop at its next step without a word to the relay (a write under way is
        finished first): the seat stays resumable."""
        if self.closing or self.machine.outcome is not None:
            return
        self.closing = True
        self.queue.put_nowait(Failure(Closed()))
        if self._listening is not None:
            self._listening.cancel()

    def stop_listening(self) -> None:
        """Stops the poll that waits for a partner, so that the seek is withdrawn at once."""
        if self._listening is not None:
            self._listening.cancel()

    async def _listen(self, client: RelayClient, seek: Seek) -> list[Event] | None:
        """Seeks and polls until the match starts; returns its first events (None: withdrawn)."""
        machine = self.machine
        machine.set_state(State.LISTENING)
        while True:
            if self.closing:
                return None
            if machine.cancel_wanted:
                await self._withdraw(client)
                return None
            if machine.ticket is None:
                machine.ticket = await seek(client)
                if self.on_ticket is not None:
                    self.on_ticket(machine.ticket)
                continue
            self._listening = task = asyncio.create_task(
                client.events(machine.ticket, 0, client.timing.poll_wait)
            )
            await asyncio.wait([task])
            self._listening = None
            if self.closing:
                return None
            if task.cancelled():
                continue
            try:
                batch = task.result()
            except RelayRefusedError as exc:
                if exc.code != "match/expired":
                    raise
                if self.resumed:
                    machine.drop_seek(endings.SEEK_DROPPED.format(error=_sentence(exc)))
                    return None
                machine.ticket = None  # the relay dropped the seek (we could not poll): seek anew
                continue
            if batch and machine.cancel_wanted:
                await self._withdraw(client)
                return None
            if batch:
                return batch

    async def _withdraw(self, client: RelayClient) -> None:
        """Withdraws the seek; a partner who came just before gets a resignation."""
        ticket = self.machine.ticket
        if ticket is not None:
            try:
                await client.cancel(ticket)
            except RelayRefusedError as exc:
                if exc.code != "match/started":
                    raise
                # The partner came just before the withdrawal: leave the new match at once.
                await client.resign(ticket)
                self.machine.resigned_at_once()
                return
        self.machine.drop_seek("")

    def _poll(self, client: RelayClient) -> None:
        """Polls the log, unless a poll is under way or the log is read to its end."""
        feed, poller, ticket = self.feed, self._poller, self.machine.ticket
        if feed.ended or feed.failed or ticket is None:
            return
        if poller is None or poller.done():
            wait = client.timing.poll_wait
            self._poller = asyncio.create_task(poll_into(feed, client, ticket, wait))

    async def _stop_polling(self) -> None:
        """Stops the poll under way, so that the seat holds one request at a time."""
        poller, self._poller = self._poller, None
        if poller is not None and not poller.done():
            poller.cancel()
            await asyncio.wait([poller])

    async def _step(self, client: RelayClient) -> None:
        """Sends what is pending, else hands the next queued event to the machine."""
        machine = self.machine
        if machine.resign_wanted:
            if not machine.resign_sent:
                machine.resign_sent = True
                await self._send(client, None)
                return
        else:
            write = machine.take_write()
            if write is None:
                write = self._repost()
            # An agreeing confirm of a match whose end is queued already (a referee's verdict
            # came with the move it judged) would be refused, 409 match/finished: the end is
            # read instead. A dispute is sent all the same: its reason is this side's word.
            agreed_late = write is not None and write.kind == "confirm" and write.agree
            if write is not None and not (agreed_late and self.feed.ended):
                await self._send(client, write)
                return
        if self.queue.empty():
            self._poll(client)
        item = await self.queue.get()
        if isinstance(item, Failure):
            raise item.error
        if isinstance(item, Behind):
            assert machine.ticket is not None
            await self._heal(client, await client.events(machine.ticket, 0, 0), None, True)
        elif isinstance(item, TableNews):
            machine.table_news(item.table)
        elif not isinstance(item, Wake):
            machine.handle(item)
        self._post_answer(client)

    def _post_answer(self, client: RelayClient) -> None:
        """Posts the game's answer to the partner's offer beside the loop: its outcome (an
        `ended` or `undo` event) comes back through the log, and an offer that lapsed
        meanwhile is no matter."""
        wanted, ticket = self.machine.answer_wanted, self.machine.ticket
        if wanted is None or ticket is None:
            return
        self.machine.answer_wanted = None
        accept, at = wanted

        async def post() -> None:
            with contextlib.suppress(RelayRefusedError):
                await client.answer(ticket, accept, at)

        task = asyncio.ensure_future(post())
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    def _repost(self) -> Write | None:
        """Returns the next write a failover lost, once the log reaches the event it followed."""
        reposts, after = self._reposts, self.feed.after
        while reposts and reposts[0].after < after:
            reposts.pop(0)  # the log has moved past it: its event was handled and checked
        if reposts and reposts[0].after == after and self.queue.empty():
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
        machine = self.machine
        last = log[-1].seq if log else 0
        if not behind:
            if pending is not None and pending.after == last:
                # Refused at the log's end: the log reached the write's place since the refusal
                # (the partner posted a lost move again). Post it once more; refused there a
                # second time, give up.
                if self._retried == pending:
                    return False
                self._retried = pending
            elif last >= machine.cursor and (pending is None or last > pending.after):
                return False  # the log is whole: the refusal has another cause
        await self._stop_polling()
        check_log(log, machine.delivered)
        self._reposts = lost_writes(machine.delivered, last, machine.seat, pending)
        self.feed.after = min(last, self.feed.after)
        self.feed.ended = False
        return True

    async def _send(self, client: RelayClient, write: Write | None) -> None:
        """Posts a write (None: the resignation); a 409 is explained by the log or raised."""
        machine, ticket = self.machine, self.machine.ticket
        assert ticket is not None
        try:
            if write is None:
                await client.resign(ticket)
            elif write.kind == "move":
                await self._stop_polling()
                machine.held = write.after + 1
                seq, replies = await self._post_held(client, write)
                own = Moved(seq, ticket.seat, write.move, write.end, claim=write.claim)
                self.feed.put([own, *replies])
                table, self._table_after = self._table_after, None
                self.feed.put_table(table)
            elif write.kind == "pass":
                machine.held = write.after + 1
                await client.pass_turn(ticket, write.after)
            else:
                await client.confirm(ticket, write.after, write.agree, write.reason)
        except RelayRefusedError as exc:
            if exc.status != 409:
                raise
            machine.held = 0  # refused: it made no event
            # Refused as the match moved on (the partner resigned or left), or as the log fell
            # behind what this side saw (a failover): the log says which.
            log = await client.events(ticket, 0, 0)
            behind = exc.code == "match/behind"
            if write is not None and await self._heal(client, log, write, behind):
                return
            # A takeback accepted just before this move or pass took its place: the game, which
            # played it already, takes it back with the moves the takeback names.
            voided = write is not None and write.kind in ("move", "pass")
            place = -1 if write is None else write.after + 1
            voided = voided and any(isinstance(e, Undone) and e.seq == place for e in log)
            machine.voided = write if voided else None
            try:
                for event in log:
                    machine.handle(event)
            finally:
                machine.voided = None
            self.feed.after = max(self.feed.after, machine.cursor)
            if machine.outcome is None and not voided:
                raise
            return
        if write is not None and write.kind in ("move", "pass"):
            machine.sent(write)

    async def _post_held(self, client: RelayClient, write: Write) -> tuple[int, list[Event]]:
        """Posts a move held for the reply; the partner has the turn once the relay holds it."""
        ticket = self.machine.ticket
        assert ticket is not None
        wait = client.timing.poll_wait
        feed = self.feed
        post = asyncio.ensure_future(
            client.move_held(
                ticket,
                write.after,
                write.move,
                write.end,
                wait,
                feed.table,
                feed.chat,
                claim=write.claim,
                detail=write.detail,
            )
        )
        try:
            done, _ = await asyncio.wait([post], timeout=ACCEPTED_AFTER)
            if not done:
                self.machine.sent(write)
            seq, events, table = await post
        finally:
            post.cancel()
        if table is not None:
            # Queued after the move's own event and its reply (the caller feeds them first).
            self._table_after = table
        return seq, events

    async def _resign_quietly(self, client: RelayClient) -> None:
        """Tries once to free the partner of a match this side cannot go on with."""
        ticket = self.machine.ticket
        if self.machine.game is None or ticket is None:
            return
        with contextlib.suppress(Exception):
            async with asyncio.timeout(client.timing.request_timeout):
                await client.resign(ticket)


def _sentence(error: Exception) -> str:
    """Returns an error's text without a final full stop, to quote it inside a sentence."""
    return str(error).rstrip(".")
