"""Rematches: after a match ends, both sides agree to play again, the first mover swapped.

The relay keeps the rematch beside the finished match (docs/protocol.md, "Rematch"): each
seat offers, and once both did, a new match starts with the same seats and tokens. A host
learns of the partner's offer by long-polling it, never by reloading."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import aiohttp

from sdk.errors import HostStateError, ProtocolError
from sdk.ticket import Ticket

if TYPE_CHECKING:
    from sdk.client import RelayClient
    from sdk.relay_host import RelayHost

__all__ = ["Rematch", "RematchState", "parse_rematch"]

RematchState = Literal["none", "offered", "accepted", "declined", "lapsed"]
"""No offer yet; one side offers; both did (a new match began); a side declined; the offer
lapsed after the relay's grace period."""

_STATES = ("none", "offered", "accepted", "declined", "lapsed")
NOT_OVER = "a rematch is offered once the match is over, not in state {state!r}"
NOT_A_REMATCH = "the relay's answer about a rematch is not protocol v1: {body!r}"


@dataclass(frozen=True, slots=True)
class Rematch:
    """Where the rematch of a match stands, as the relay reported it."""

    version: int
    """Grows with each change: poll for a version above the one you have."""
    state: RematchState
    offers: tuple[bool, bool]
    """Whether seat 0 and seat 1 offer."""
    by: int | None = None
    """The seat that declined."""
    match: str | None = None
    """The new match, once accepted."""
    first: int | None = None
    """The seat that moves first in the new match."""

    def offered_by(self, seat: int) -> bool:
        """Returns whether that seat offers (or, once accepted, offered) a rematch."""
        return self.offers[seat]


def parse_rematch(answer: Any) -> Rematch:
    """Returns the Rematch of a relay's JSON answer; raises ProtocolError if it is not one."""
    try:
        state = answer["state"]
        offers = answer["offers"]
        if state not in _STATES or not isinstance(offers, list) or len(offers) != 2:
            raise TypeError
        by, match, first = answer.get("by"), answer.get("match"), answer.get("first")
        return Rematch(
            int(answer["version"]),
            state,
            (bool(offers[0]), bool(offers[1])),
            by=None if by is None else int(by),
            match=None if match is None else str(match),
            first=None if first is None else int(first),
        )
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_A_REMATCH.format(body=answer)) from None


@contextlib.asynccontextmanager
async def _client(host: RelayHost) -> AsyncIterator[RelayClient]:
    from sdk.client import RelayClient

    session = host._session
    if session is not None:
        yield RelayClient(session, host.relay_url, host.timing, host._rng)
        return
    async with aiohttp.ClientSession() as own:
        yield RelayClient(own, host.relay_url, host.timing, host._rng)


def _ended_ticket(host: RelayHost) -> Ticket:
    ticket = host.ticket
    if host.outcome is None or ticket is None:
        raise HostStateError(NOT_OVER.format(state=host.state))
    return ticket


async def offer(host: RelayHost) -> RelayHost | None:
    """RelayHost.offer_rematch: offers (or accepts) a rematch, waits for the partner's answer;
    returns the host of the new match, or None when declined or lapsed."""
    ticket = _ended_ticket(host)
    async with _client(host) as client:
        current = await client.offer_rematch(ticket, True)
        while current.state == "offered":
            current = await client.rematch(ticket, current.version, host.timing.poll_wait)
    if current.state != "accepted" or current.match is None:
        return None
    return follow(host, current)


async def decline(host: RelayHost) -> Rematch:
    """RelayHost.decline_rematch: declines the partner's offer (or withdraws one's own)."""
    ticket = _ended_ticket(host)
    async with _client(host) as client:
        return await client.offer_rematch(ticket, False)


async def news(host: RelayHost, after: int) -> Rematch:
    """RelayHost.next_rematch: returns the rematch once its version is above after."""
    ticket = _ended_ticket(host)
    async with _client(host) as client:
        while True:
            current = await client.rematch(ticket, after, host.timing.poll_wait)
            if current.version > after:
                return current


def follow(host: RelayHost, rematch: Rematch) -> RelayHost:
    """Returns a host that plays the accepted rematch from the same seat, with the same
    game factory, sinks and timing (the seat keeps its token)."""
    ticket = host.ticket
    assert ticket is not None and rematch.match is not None
    return type(host).resume(
        host.relay_url,
        Ticket(rematch.match, ticket.seat, ticket.token),
        host._factory,
        timing=host.timing,
        dialog=host._dialog,
        on_state=host._on_state,
        session=host._session,
        rng=host._rng,
    )
