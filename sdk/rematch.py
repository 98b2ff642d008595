"""Rematches: after a match ends, both sides agree to play again, the first mover swapped.

The relay keeps the rematch beside the finished match (docs/protocol.md, "Rematch"): each
seat offers, and once both did, a new match starts with the same seats and tokens. A host
learns of the partner's offer by long-polling it, never by reloading."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from sdk.errors import HostStateError, ProtocolError
from sdk.outcome import Outcome
from sdk.state import State
from sdk.ticket import Ticket
from sdk.timing import Timing

__all__ = ["Rematch", "RematchCalls", "RematchSeat", "RematchState", "parse_rematch"]

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


Host = TypeVar("Host", covariant=True)
"""The kind of host a seat makes for the rematch's new match."""


class RematchCalls(Protocol):
    """The relay calls a rematch takes (RelayClient makes them)."""

    async def rematch(
        self, ticket: Ticket | str, after: int | None = None, wait: int | None = None
    ) -> Rematch:
        """Returns the rematch; with `after`, held until its version is above `after`."""
        ...

    async def offer_rematch(self, ticket: Ticket, offer: bool = True) -> Rematch:
        """Offers (or accepts) a rematch; offer=False declines."""
        ...


class RematchSeat(Protocol[Host]):
    """What a rematch needs of the host of the finished match (RelayHost offers it)."""

    @property
    def state(self) -> State:
        """Returns the host's state, for the error when the match is not over."""
        ...

    @property
    def ticket(self) -> Ticket | None:
        """Returns the seat that offers or declines."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """Returns how the match ended (None: not yet, and no rematch can be offered)."""
        ...

    @property
    def timing(self) -> Timing:
        """Returns the host's timing: how long a wait for the partner's answer is held."""
        ...

    def open_client(self) -> AbstractAsyncContextManager[RematchCalls]:
        """Opens a client to the relay for the rematch's calls."""
        ...

    def rematch_host(self, accepted: Rematch) -> Host:
        """Returns the host of the accepted rematch's new match, from the same seat."""
        ...


def _ended_ticket(host: RematchSeat[Any]) -> Ticket:
    """Returns the host's seat, once its match is over; raises HostStateError before."""
    ticket = host.ticket
    if host.outcome is None or ticket is None:
        raise HostStateError(NOT_OVER.format(state=host.state))
    return ticket


async def offer(host: RematchSeat[Host]) -> Host | None:
    """RelayHost.offer_rematch: offers (or accepts) a rematch, waits for the partner's answer;
    returns the host of the new match, or None when declined or lapsed."""
    ticket = _ended_ticket(host)
    async with host.open_client() as client:
        current = await client.offer_rematch(ticket, True)
        while current.state == "offered":
            current = await client.rematch(ticket, current.version, host.timing.poll_wait)
    if current.state != "accepted" or current.match is None:
        return None
    return host.rematch_host(current)


async def decline(host: RematchSeat[Any]) -> Rematch:
    """RelayHost.decline_rematch: declines the partner's offer (or withdraws one's own)."""
    ticket = _ended_ticket(host)
    async with host.open_client() as client:
        return await client.offer_rematch(ticket, False)


async def news(host: RematchSeat[Any], after: int) -> Rematch:
    """RelayHost.next_rematch: returns the rematch once its version is above after."""
    ticket = _ended_ticket(host)
    async with host.open_client() as client:
        while True:
            current = await client.rematch(ticket, after, host.timing.poll_wait)
            if current.version > after:
                return current
