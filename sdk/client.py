"""RelayClient: protocol v1 calls, each retried through transient faults with backoff.

Its parts: the requests and their retries (sdk.transport), the calls at a match's table
(sdk.table_calls), those of a player key (sdk.player_calls) and its transfer codes
(sdk.signin); the match's own calls are here."""

from __future__ import annotations

import secrets
from typing import Any

from sdk.clock import TimeControl
from sdk.errors import ProtocolError, clean_reason
from sdk.events import Claim, Event, parse_event
from sdk.lobby import Lobby, parse_lobby
from sdk.player_calls import PlayerCalls
from sdk.ratings import MatchRatings, RatingRange, parse_match_ratings
from sdk.record import Record, parse_record
from sdk.rematch import Rematch, parse_rematch
from sdk.signin import SigninCalls
from sdk.table import Table, parse_table
from sdk.table_calls import TableCalls
from sdk.ticket import Ticket

# The names this module held before sdk.transport took them, still importable from here.
from sdk.transport import _RETRIED_STATUSES as _RETRIED_STATUSES
from sdk.transport import GAVE_UP as GAVE_UP
from sdk.transport import NOT_AN_ANSWER as NOT_AN_ANSWER
from sdk.transport import UNREACHABLE as UNREACHABLE
from sdk.transport import _error as _error
from sdk.transport import _match_and_token as _match_and_token
from sdk.transport import _retry_after as _retry_after

__all__ = ["RelayClient"]


class RelayClient(TableCalls, PlayerCalls, SigninCalls):
    """Speaks protocol v1 to one relay; transient faults are retried, 4xx raise RelayRefusedError.

    Transient: connection errors and resets, timeouts, garbled answers, 408, 429 and every 5xx.
    They are retried with exponential backoff and full jitter (see Timing) until a call has failed
    for `timing.give_up` seconds, which raises ConnectionLostError; until the relay has answered
    once, a call that gets no answer at all gives up after `timing.first_contact` seconds
    instead, raising RelayUnreachableError (a mistyped address fails fast). Every write of the
    protocol is safe to repeat (the relay applies it once); a seek sends a token of its own
    drawing, so that its retry gets the same seat rather than a second one. Not so a transfer
    code's redeem: a code whose answer was lost is used up, and its retry is told `403
    code/unknown` (make another). The transfer codes' calls raise a 429 at once.
    """

    async def seek(
        self,
        game: str,
        version: str = "",
        room: str | None = None,
        public: bool = False,
        *,
        time_control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
        name: str | None = None,
        rating_range: RatingRange | None = None,
    ) -> Ticket:
        """Returns a seat in a waiting match of `game`, or in a new one (listed in the game's
        lobby when public), of that time control (None: no clock). With a player key the
        seat is listed under it (see player_matches); with a contact handle the relay's
        your-turn notices of a correspondence match name it; a name is the seat's display
        name, shown to the partner, spectators, the lobby and records. A rating range (with a
        player key, without a room) meets only opponents whose rating in the game is in it."""
        # The seat's token is drawn here: a retried seek then answers the same seat.
        body: dict[str, Any] = {"game": game, "token": secrets.token_urlsafe(32)}
        if version:
            body["version"] = version
        if room is not None:
            body["room"] = room
        if public:
            body["public"] = True
        if time_control is not None:
            body["time_control"] = time_control.to_json()
        if player is not None:
            body["player"] = player
        if contact is not None:
            body["contact"] = contact
        if name is not None:
            body["name"] = name
        if rating_range is not None:
            body["rating_range"] = rating_range.to_json()
        answer = await self._call("POST", "/v1/seek", None, body)
        try:
            return Ticket(str(answer["match"]), int(answer["seat"]), str(answer["token"]))
        except (KeyError, TypeError, ValueError):
            raise ProtocolError(NOT_AN_ANSWER.format(what="seek", body=answer)) from None

    async def events(
        self, ticket: Ticket | str, after: int, wait: int | None = None
    ) -> list[Event]:
        """Returns the match's events numbered above `after`, held up to `wait` seconds.

        A Ticket reads as its seat (which tells the relay the seat is present); a bare match id
        reads as a spectator.
        """
        return (await self.read(ticket, after, wait))[0]

    async def read(
        self,
        ticket: Ticket | str,
        after: int,
        wait: int | None = None,
        table: int | None = None,
        chat: int = 0,
    ) -> tuple[list[Event], Table | None]:
        """Returns the events above `after` and, with `table` (the table version the reader
        has, 0 for none), the table when it is newer (with the chat lines above `chat`): held
        up to `wait` seconds until there is either."""
        match, token = _match_and_token(ticket)
        path = f"/v1/matches/{match}/events?after={after}"
        timeout = self.timing.request_timeout
        if wait is not None:
            path += f"&wait={wait}"
            timeout = self.timing.poll_margin + wait
        if table is not None:
            path += f"&table={table}&chat={chat}"
        answer = await self._call("GET", path, token, None, timeout)
        try:
            raw = answer["events"]
            if not isinstance(raw, list):
                raise TypeError
        except (KeyError, TypeError):
            raise ProtocolError(NOT_AN_ANSWER.format(what="events", body=answer)) from None
        found = answer.get("table")
        return [parse_event(item) for item in raw], None if found is None else parse_table(found)

    async def move(
        self,
        ticket: Ticket,
        after: int,
        move: str,
        end: bool = False,
        *,
        claim: Claim | None = None,
        detail: str = "",
    ) -> int:
        """Posts a move on the position after event `after`; returns the move's event number.
        A game-ending move may claim the mover's result ("win", "draw", "loss"): an agreed end
        is rated by it. It may say how the game ended in `detail`, its game's words, which an
        agreed end carries (at most 200 characters, control characters made spaces)."""
        body = _move_body(after, move, end, claim, detail)
        return await self._seq(ticket, "moves", body)

    async def move_and_wait(
        self,
        ticket: Ticket,
        after: int,
        move: str,
        end: bool,
        wait: int,
        *,
        claim: Claim | None = None,
        detail: str = "",
    ) -> tuple[int, list[Event]]:
        """Posts a move held up to `wait` seconds for the reply (`?wait=`): one request per move.

        Returns the move's event number and the events above it (none when the wait ran out).
        A retry of the lost answer is answered the same number, with the events above it then.
        """
        seq, events, _ = await self.move_held(
            ticket, after, move, end, wait, claim=claim, detail=detail
        )
        return seq, events

    async def move_held(
        self,
        ticket: Ticket,
        after: int,
        move: str,
        end: bool,
        wait: int,
        table: int | None = None,
        chat: int = 0,
        *,
        claim: Claim | None = None,
        detail: str = "",
    ) -> tuple[int, list[Event], Table | None]:
        """move_and_wait(); with `table` (the version the poster has), the post also ends at a
        change of the table, and answers the table when it is newer."""
        path = f"/v1/matches/{ticket.match}/moves?wait={wait}"
        if table is not None:
            path += f"&table={table}&chat={chat}"
        body = _move_body(after, move, end, claim, detail)
        timeout = self.timing.poll_margin + wait
        answer = await self._call("POST", path, ticket.token, body, timeout)
        try:
            seq, raw = answer["seq"], answer["events"]
            if type(seq) is not int or not isinstance(raw, list):
                raise TypeError
        except (KeyError, TypeError):
            raise ProtocolError(NOT_AN_ANSWER.format(what="moves", body=answer)) from None
        found = answer.get("table")
        events = [parse_event(item) for item in raw]
        return seq, events, None if found is None else parse_table(found)

    async def seat_ids(self, match: str) -> tuple[str | None, str | None]:
        """Returns each seat's public id (None: it sat without a player key)."""
        answer = await self._call("GET", f"/v1/matches/{match}", None, None)
        try:
            zero, one = answer["players"]
            return (None if zero is None else str(zero), None if one is None else str(one))
        except (KeyError, TypeError, ValueError):
            raise ProtocolError(NOT_AN_ANSWER.format(what="a match", body=answer)) from None

    async def pass_turn(self, ticket: Ticket, after: int) -> int:
        """Posts a pass (no legal move) after event `after`; returns the pass's event number."""
        return await self._seq(ticket, "pass", {"after": after})

    async def confirm(self, ticket: Ticket, after: int, agree: bool, reason: str = "") -> int:
        """Agrees with (or disputes) the game-ending move `after`, or disputes the partner's
        move or pass `after`; returns the `ended` number. A dispute's `reason` (a line of at
        most 200 characters: cut and cleaned here) reaches the partner and the record."""
        body: dict[str, Any] = {"after": after, "agree": agree}
        why = clean_reason(reason)
        if not agree and why:
            body["reason"] = why
        return await self._seq(ticket, "confirm", body)

    async def resign(self, ticket: Ticket) -> int:
        """Resigns the match; returns the number of the `ended` event."""
        return await self._seq(ticket, "resign", {})

    async def cancel(self, ticket: Ticket) -> None:
        """Withdraws a seek nobody has joined yet (repeating it is harmless)."""
        await self._call("POST", f"/v1/matches/{ticket.match}/cancel", ticket.token, {})

    async def record(self, match: Ticket | str) -> Record:
        """Returns a finished or live match's record (anyone may read it, like the log); read
        with a seat's Ticket, it holds the match's chat too."""
        match_id, token = _match_and_token(match)
        path = f"/v1/matches/{match_id}/record"
        raw = await self._call("GET", path, token, None, text=True)
        return parse_record(match_id, raw)

    async def rematch(
        self, ticket: Ticket | str, after: int | None = None, wait: int | None = None
    ) -> Rematch:
        """Returns the rematch of a finished match; with `after`, held (up to `wait` seconds)
        until its version is above `after`."""
        match, token = _match_and_token(ticket)
        path, timeout = self._held(f"/v1/matches/{match}/rematch", after, wait)
        return parse_rematch(await self._call("GET", path, token, None, timeout))

    async def offer_rematch(self, ticket: Ticket, offer: bool = True) -> Rematch:
        """Offers (or accepts) a rematch of the finished match; offer=False declines."""
        path = f"/v1/matches/{ticket.match}/rematch"
        return parse_rematch(await self._call("POST", path, ticket.token, {"offer": offer}))

    async def lobby(self, game: str, after: int | None = None, wait: int | None = None) -> Lobby:
        """Returns the game's lobby; with `after`, held (up to `wait` seconds) until its
        version is above `after`."""
        path, timeout = self._held(f"/v1/lobby?game={game}", after, wait)
        return parse_lobby(await self._call("GET", path, None, None, timeout))

    async def match_ratings(self, match: str) -> MatchRatings:
        """Returns whether a match was rated (or is being rated) and, once it was, each seat's
        rating before and after it."""
        answer = await self._call("GET", f"/v1/matches/{match}", None, None)
        return parse_match_ratings(answer)


def _move_body(
    after: int, move: str, end: bool, claim: Claim | None, detail: str
) -> dict[str, Any]:
    """Returns a move's body: the claim and the words (cleaned) only with a game-ending move."""
    body: dict[str, Any] = {"after": after, "move": move, "end": end}
    if end and claim is not None:
        body["claim"] = claim
    said = clean_reason(detail) if end else ""
    if said:
        body["detail"] = said
    return body
