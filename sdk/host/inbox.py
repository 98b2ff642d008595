"""A host's inbox: the match log's events in order, the poller's failure, and wake-ups."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

from sdk.client import RelayClient
from sdk.errors import ProtocolError, RelayRefusedError
from sdk.events import Ended, Event
from sdk.host.machine import GAP
from sdk.ticket import Ticket

__all__ = ["BEHIND", "WAKE", "Behind", "Failure", "Feed", "Inbox", "Wake", "poll_into"]


@dataclass(frozen=True, slots=True)
class Failure:
    """The poller's final error, handed to the host in order with the events."""

    error: Exception


class Wake:
    """Tells the host to look at what it has to send."""


WAKE = Wake()
"""The one wake-up item."""


class Behind:
    """Tells the host the log is shorter than what it read: a failover of the relay's store."""


BEHIND = Behind()
"""The one falling-behind item."""

Inbox = asyncio.Queue[Event | Failure | Wake | Behind]
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

    def fail(self, error: Exception) -> None:
        """Queues a final error, after the events before it."""
        self.failed = True
        self.inbox.put_nowait(Failure(error))


async def poll_into(feed: Feed, client: RelayClient, ticket: Ticket, wait: int) -> None:
    """Long-polls the log above `feed.after` until it has fed new events (each once, in order).

    It then stops: the host polls again only when it has handled them and has nothing to
    send, so a seat never holds a poll beside its held move post. Cancelling it loses
    nothing: events are queued only between polls, and the next poll starts from
    `feed.after`. A final error (the connection lost, a refusal) is queued as a Failure.
    """
    try:
        while not feed.ended:
            start = feed.after
            feed.put(await client.events(ticket, start, wait))
            if feed.after != start:
                return
    except RelayRefusedError as exc:
        if exc.code == "match/behind":  # the host heals, after the events before it
            feed.inbox.put_nowait(BEHIND)
        else:
            feed.fail(exc)
    except Exception as exc:  # the host ends the match with it, after the events before it
        feed.fail(exc)
