"""TableCalls: the protocol calls at a match's table: its reads, draw and takeback offers
and their answers, claims against a staller, chat and reports (docs/protocol.md, "The table")."""

from __future__ import annotations

from typing import Any

from sdk.errors import ProtocolError
from sdk.moderation import ReportAbout
from sdk.table import OfferKind, Table, parse_table
from sdk.ticket import Ticket
from sdk.transport import NOT_AN_ANSWER, Transport, _match_and_token

__all__ = ["TableCalls"]


class TableCalls(Transport):
    """The calls at a match's table, each retried through transient faults (RelayClient has
    them, with the match's other calls)."""

    async def table(
        self,
        ticket: Ticket | str,
        after: int | None = None,
        wait: int | None = None,
        chat: int = 0,
    ) -> Table:
        """Returns the match's table (names, presence, the last offer, the chat above `chat`);
        with `after`, held (up to `wait` seconds) until its version is above `after`."""
        match, token = _match_and_token(ticket)
        path, timeout = self._held(f"/v1/matches/{match}/table?chat={chat}", after, wait)
        return parse_table(await self._call("GET", path, token, None, timeout))

    async def offer(self, ticket: Ticket, kind: OfferKind, after: int) -> Table:
        """Offers a draw, or asks to take back this seat's last move, at the position after
        event `after` (the log's last); returns the table."""
        path = f"/v1/matches/{ticket.match}/offer"
        body = {"kind": kind, "after": after}
        return parse_table(await self._call("POST", path, ticket.token, body))

    async def answer(self, ticket: Ticket, accept: bool, after: int | None = None) -> int | None:
        """Accepts the partner's standing offer made at event `after` (returns the number of
        the event it appended), or declines it, or withdraws this seat's own (returns None)."""
        body: dict[str, Any] = {"accept": accept}
        if accept:
            body["after"] = after
        answer = await self._call("POST", f"/v1/matches/{ticket.match}/answer", ticket.token, body)
        seq = answer.get("seq") if isinstance(answer, dict) else None
        if seq is not None and type(seq) is not int:
            raise ProtocolError(NOT_AN_ANSWER.format(what="answer", body=answer))
        return seq

    async def claim(self, ticket: Ticket, after: int) -> int:
        """Claims the win from a partner that stalled on its turn past the relay's claim time;
        returns the number of the `ended` event."""
        return await self._seq(ticket, "claim", {"after": after})

    async def say(self, ticket: Ticket, text: str) -> int:
        """Says a line of chat to the partner; returns its number in the chat (the same line
        sent again at once is said once)."""
        answer = await self._call(
            "POST", f"/v1/matches/{ticket.match}/chat", ticket.token, {"text": text}
        )
        n = answer.get("n") if isinstance(answer, dict) else None
        if type(n) is not int:
            raise ProtocolError(NOT_AN_ANSWER.format(what="chat", body=answer))
        return n

    async def report(self, ticket: Ticket, about: ReportAbout, text: str = "") -> int:
        """Reports the partner to the host (its play, its name or its chat, with words of
        one's own, at most 500 characters); returns the report's number (the same report
        again answers the same)."""
        body: dict[str, Any] = {"about": about}
        if text:
            body["text"] = text
        # A person's report is refused at once when too many came from here, not waited on.
        path = f"/v1/matches/{ticket.match}/report"
        answer = await self._call("POST", path, ticket.token, body, retried=frozenset({408}))
        n = answer.get("report") if isinstance(answer, dict) else None
        if type(n) is not int:
            raise ProtocolError(NOT_AN_ANSWER.format(what="report", body=answer))
        return n
