"""SeatedCalls: a host's calls from its seat in the match in play: chat, reports, blocks and
mutes, draw and takeback offers and their answers, and claims (docs/protocol.md, "The table")."""

from __future__ import annotations

import asyncio
import time

from sdk.client import RelayClient
from sdk.errors import HostStateError
from sdk.game import NO_UNDO, can_undo
from sdk.host.offering import SETTLE_SECONDS, offer_settled
from sdk.host.view import HostView
from sdk.moderation import Blocked, BlockKind, ReportAbout
from sdk.state import State
from sdk.table import OfferKind, Table
from sdk.ticket import Ticket

__all__ = ["NOT_SEATED", "NO_OFFER", "NO_PLAYER_KEY", "SeatedCalls"]

NOT_SEATED = "{what} needs a match in play through this host's play(), not state {state!r}"
"""The HostStateError of a call made before the host is seated in a match, or after."""
NO_PLAYER_KEY = "{what} needs the host's player key (RelayHost(player=...))"
"""The HostStateError of a call that needs the host's player key, made without one."""
NO_OFFER = "no offer of the partner stands to answer"
"""The HostStateError of answer_offer() when no offer stands."""


class SeatedCalls(HostView):
    """The calls a host (RelayHost has them) makes at the table of the match in play, through
    its Driver's RelayClient; each raises HostStateError when no match is in play."""

    player: str | None

    def _seated(self, what: str) -> tuple[RelayClient, Ticket]:
        """Returns the client and seat of the match in play, or raises HostStateError."""
        client, ticket = self._driver.client, self._machine.ticket
        if client is None or ticket is None or self._machine.game is None:
            raise HostStateError(NOT_SEATED.format(what=what, state=self.state))
        return client, ticket

    async def say(self, text: str) -> int:
        """Says a line of chat to the partner; returns its number (raises RelayRefusedError
        `chat/off`, `chat/too_fast`... when the relay refuses it)."""
        client, ticket = self._seated("say()")
        return await client.say(ticket, text)

    async def report(self, about: ReportAbout, text: str = "") -> int:
        """Reports the partner of the match in play to the host (its play, name or chat);
        returns the report's number."""
        client, ticket = self._seated("report()")
        return await client.report(ticket, about, text)

    async def block(self, kind: BlockKind = "block") -> list[Blocked]:
        """Blocks (never paired again, chat hidden) or mutes (chat hidden) the partner of the
        match in play; needs the host's player key. Returns the key's blocks."""
        client, ticket = self._seated("block()")
        if self.player is None:
            raise HostStateError(NO_PLAYER_KEY.format(what="block()"))
        return await client.block(self.player, ticket.match, kind)

    async def partner_muted(self) -> bool:
        """Returns whether the host's player key blocked or muted the partner of the match in
        play (its chat is then not shown); False without a player key."""
        client, ticket = self._seated("partner_muted()")
        if self.player is None:
            return False
        ids = await client.seat_ids(ticket.match)
        partner = ids[1 - ticket.seat]
        return partner is not None and any(
            entry.id == partner for entry in await client.blocks(self.player)
        )

    async def offer_draw(self) -> Table:
        """Offers the partner a draw at the position this side has; returns the table. The
        match ends `drawn` if the partner accepts (play() then returns)."""
        return await self._offer("draw", "offer_draw()")

    async def ask_takeback(self) -> Table:
        """Asks the partner to take back this side's last move (with the partner's reply, if
        it made one); on acceptance the game's `undo()` is called. Raises HostStateError for
        a game that cannot undo."""
        self._seated("ask_takeback()")
        game = self._machine.game
        if game is not None and not can_undo(game):
            raise HostStateError(NO_UNDO.format(name=type(game).__name__))
        return await self._offer("takeback", "ask_takeback()")

    async def _offer(self, kind: OfferKind, what: str) -> Table:
        """Makes an offer at the position after this side's own move, if one is being sent:
        once the move is posted (bounded by SETTLE_SECONDS), and again at the log's end when
        the relay had the move sooner or later than the offer (sdk.host.offering)."""
        client, ticket = self._seated(what)
        machine = self._machine
        deadline = time.monotonic() + SETTLE_SECONDS
        # The move is on its way (the state may change from a UI's thread: looked at, not
        # awaited as an event); the offer follows it.
        while machine.state is State.WAITING_SERVER_RESPONSE and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.02)
        table = await offer_settled(client, ticket, kind, machine.last, machine.cursor)
        machine.table_news(table)
        return table

    async def answer_offer(self, accept: bool) -> int | None:
        """Accepts or declines the partner's standing offer, or withdraws this side's own
        (accept False); returns the event an acceptance appended (None otherwise)."""
        client, ticket = self._seated("answer_offer()")
        table = self._machine.table
        offer = None if table is None else table.offer
        if offer is None or not offer.standing:
            raise HostStateError(NO_OFFER)
        game = self._machine.game
        if accept and offer.kind == "takeback" and game is not None and not can_undo(game):
            raise HostStateError(NO_UNDO.format(name=type(game).__name__))
        return await client.answer(ticket, accept, offer.at)

    async def claim(self) -> int:
        """Claims the win from a partner that stalled on its turn past the relay's claim time
        (a match without a clock); returns the `ended` event's number."""
        client, ticket = self._seated("claim()")
        return await client.claim(ticket, self._machine.last)
