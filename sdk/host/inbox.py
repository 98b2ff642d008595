"""A host's inbox: the match log's events in order, the poller's failure, and wake-ups."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

from sdk.client import RelayClient
from sdk.errors import ProtocolError, RelayRefusedError
from sdk.events import Ended, Event
from sdk.host.machine import GAP
from sdk.table import Table
from sdk.ticket import Ticket

__all__ = [
    "BEHIND",
    "WAKE",
    "Behind",
    "Failure",
    "Feed",
    "Inbox",
    "TableNews",
    "Wake",
    "poll_into",
]


@dataclass(frozen=True, slots=True)
class Failure:
    """The poller's final error, handed to the host in order with the events."""

    error: Exception


class Wake:
    """Tells the host to look at what it has to send."""


WAKE = Wake()
"""The one wake-up item."""


@dataclass(frozen=True, slots=True)
class TableNews:
    """A newer table of the match, handed to the host after the events read with it."""

    table: Table


class Behind:
    """Tells the host the log is shorter than what it read: a failover of the relay's store."""


BEHIND = Behind()
"""The one falling-behind item."""

Inbox = asyncio.Queue[Event | Failure | Wake | Behind | TableNews]
"""What a host's main loop reads, one item at a time."""


class Feed:
    """Queues the log's events into an inbox once each, in order, whoever read them.

    Events come from event polls and from the answers of move posts held for the reply
    (`?wait=`); `after` is the number of the last event queued, where the next read starts.
    """

    def __init__(self, inbox: Inbox, after: int) -> None:
        self.inbox = inbox
        self.after = after
        """The number of the last event queued."""
        self.ended = False
        """Whether the `ended` event was queued: nothing follows it."""
        self.failed = False
        """Whether a poll's final error was queued: polling stops there."""
        self.table = 0
        """The version of the newest table queued (0: none yet)."""
        self.chat = 0
        """The number of the last chat line queued."""

    def put(self, events: Iterable[Event]) -> None:
        """Queues the events above `after`, in order; raises ProtocolError on a gap."""
        for event in events:
            if event.seq <= self.after or self.ended:
                continue
            if event.seq != self.after + 1:
                raise ProtocolError(GAP.format(cursor=self.after, seq=event.seq))
            self.inbox.put_nowait(event)
            self.after = event.seq
            self.ended = isinstance(event, Ended)

    def put_table(self, table: Table | None) -> bool:
        """Queues a table newer than the last one queued; returns whether it was."""
        if table is None or table.version <= self.table:
            return False
        self.table = table.version
        if table.chat:
            self.chat = max(self.chat, table.chat[-1].n)
        self.inbox.put_nowait(TableNews(table))
        return True

    def fail(self, error: Exception) -> None:
        """Queues a final error, after the events before it."""
        self.failed = True
        self.inbox.put_nowait(Failure(error))


async def poll_into(feed: Feed, client: RelayClient, ticket: Ticket, wait: int) -> None:
    """Long-polls the log above `feed.after` until it has fed new events (each once, in order)
    or a newer table of the match (the poll asks for both).

    It then stops: the host polls again only when it has handled them and has nothing to
    send, so a seat never holds a poll beside its held move post. Cancelling it loses
    nothing: events are queued only between polls, and the next poll starts from
    `feed.after`. A final error (the connection lost, a refusal) is queued as a Failure.
    """
    try:
        while not feed.ended:
            start = feed.after
            events, table = await client.read(ticket, start, wait, feed.table, feed.chat)
            feed.put(events)
            if feed.put_table(table) or feed.after != start:
                return
    except RelayRefusedError as exc:
        if exc.code == "match/behind":  # the host heals, after the events before it
            feed.inbox.put_nowait(BEHIND)
        else:
            feed.fail(exc)
    except Exception as exc:  # the host ends the match with it, after the events before it
        feed.fail(exc)
