"""An offer made right after this side's own move: made at the position after that move, once
the relay has it, never refused as stale for a move still on its way (docs/sdk.md, "The table").

A host posts its move and goes on at once; the relay applies the move when the post arrives. An
offer sent meanwhile names a position the relay does not have yet (the move not arrived) or
one it has moved past (the move arrived first, the offer named the one before). Either way the
relay refuses it `409 turn/stale`. `offer_settled` then reads the log: when what stands between
the offer's position and the log's end is only this side's own moves and passes, the offer is
made again at the log's end; when the own move has not arrived yet, it waits for it, briefly. A
partner's move in between is a real change of position: the refusal stands, as the player's
words ("Too late: the match moved on") say."""

from __future__ import annotations

import asyncio
import time

from sdk.client import RelayClient
from sdk.errors import RelayRefusedError
from sdk.events import Moved, Passed
from sdk.table import OfferKind, Table
from sdk.ticket import Ticket

__all__ = ["SETTLE_SECONDS", "offer_settled"]

SETTLE_SECONDS = 3.0
"""How long an offer waits for this side's own move to reach the relay."""
_STEP = 0.05
"""Seconds between reads of the log while the own move is on its way."""


async def offer_settled(
    client: RelayClient, ticket: Ticket, kind: OfferKind, after: int, known: int
) -> Table:
    """Offers a draw or asks a takeback at the position after event `after`; when the relay
    refuses it as stale because of this side's own moves in flight, offers it at the log's end
    instead. `known` is the last event this side has read, from which the log is read again.
    Raises the relay's refusal when the position changed by the partner's play."""
    try:
        return await client.offer(ticket, kind, after)
    except RelayRefusedError as refused:
        if refused.code != "turn/stale":
            raise
        stale = refused
    deadline = time.monotonic() + SETTLE_SECONDS
    since = min(known, after)
    while True:
        later = await client.events(ticket, since, 0)
        last = later[-1].seq if later else since
        if last == after:
            break
        if last > after:
            own = all(
                isinstance(event, Moved | Passed) and event.seat == ticket.seat for event in later
            )
            if not own:
                raise stale  # the partner's play changed the position: the offer lapsed
            return await client.offer(ticket, kind, last)
        if time.monotonic() > deadline:
            raise stale
        await asyncio.sleep(_STEP)  # this side's move is still on its way to the relay
    return await client.offer(ticket, kind, after)
