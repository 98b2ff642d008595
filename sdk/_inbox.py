"""A host's inbox: the match log's events in order, the poller's failure, and wake-ups."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sdk.client import RelayClient
from sdk.errors import ProtocolError
from sdk.events import Ended, Event
from sdk.ticket import Ticket

__all__ = ["GAP", "WAKE", "Failure", "Inbox", "Wake", "poll_into"]

GAP = "the relay skipped from event {cursor} to event {seq}"


@dataclass(frozen=True, slots=True)
class Failure:
    """The poller's final error, handed to the host in order with the events."""

    error: Exception


class Wake:
    """Tells the host to look at what it has to send."""


WAKE = Wake()
"""The one wake-up item."""

Inbox = asyncio.Queue[Event | Failure | Wake]
"""What a host's main loop reads, one item at a time."""


async def poll_into(
    inbox: Inbox, client: RelayClient, ticket: Ticket, after: int, wait: int
) -> None:
    """Long-polls the log above `after` and queues each new event once, in order, until `ended`.

    A final error (the connection lost, a refusal) is queued as a Failure and ends the poll.
    """
    try:
        while True:
            for event in await client.events(ticket, after, wait):
                if event.seq <= after:
                    continue
                if event.seq != after + 1:
                    raise ProtocolError(GAP.format(cursor=after, seq=event.seq))
                inbox.put_nowait(event)
                after = event.seq
                if isinstance(event, Ended):
                    return
    except Exception as exc:  # the host ends the match with it, after the events before it
        inbox.put_nowait(Failure(exc))
