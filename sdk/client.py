"""RelayClient: protocol v1 calls, each retried through transient faults with backoff."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any
from urllib.parse import quote

import aiohttp
import orjson

from sdk.clock import TimeControl
from sdk.errors import (
    ConnectionLostError,
    ProtocolError,
    RelayRefusedError,
    RelayUnreachableError,
    clean_reason,
)
from sdk.events import Claim, Event, parse_event
from sdk.lobby import Lobby, parse_lobby
from sdk.moderation import Blocked, BlockKind, ReportAbout, parse_blocks
from sdk.players import PlayerMatch
from sdk.ratings import (
    Leaderboard,
    MatchRatings,
    PlayerRating,
    RatingRange,
    parse_leaderboard,
    parse_match_ratings,
    parse_ratings,
)
from sdk.record import Record, parse_record
from sdk.rematch import Rematch, parse_rematch
from sdk.table import OfferKind, Table, parse_table
from sdk.ticket import Ticket
from sdk.timing import Timing

__all__ = ["RelayClient"]

GAVE_UP = "no answer from {url} for {seconds:.1f} s ({failure})"
UNREACHABLE = "nothing answers at {url} ({failure}); is the relay's address right?"
NOT_AN_ANSWER = "the relay's answer to {what} is not protocol v1: {body!r}"

_RETRIED_STATUSES = frozenset({408, 429})
"""4xx answers that mean "try again": request timeout and rate limits (5xx are all retried)."""


class RelayClient:
    """Speaks protocol v1 to one relay; transient faults are retried, 4xx raise RelayRefusedError.

    Transient: connection errors and resets, timeouts, garbled answers, 408, 429 and every 5xx.
    They are retried with exponential backoff and full jitter (see Timing) until a call has failed
    for `timing.give_up` seconds, which raises ConnectionLostError; until the relay has answered
    once, a call that gets no answer at all gives up after `timing.first_contact` seconds
    instead, raising RelayUnreachableError (a mistyped address fails fast). Every write of the
    protocol is safe to repeat (the relay applies it once); a seek sends a token of its own
    drawing, so that its retry gets the same seat rather than a second one.
    """

    def __init__(
        self,
        session: aiohttp.ClientSession,
        relay_url: str,
        timing: Timing | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.session = session
        self.relay_url = relay_url.rstrip("/")
        self.timing = timing or Timing()
        self.rng = rng or random.Random()
        self.retries = 0
        """How many times a request was sent again after a transient fault."""
        self.reached = False
        """Whether the relay has answered any request of this client (an error included)."""

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
            timeout += wait
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
    ) -> int:
        """Posts a move on the position after event `after`; returns the move's event number.
        A game-ending move may claim the mover's result ("win", "draw", "loss"): an agreed end
        is rated by it."""
        return await self._seq(ticket, "moves", _move_body(after, move, end, claim))

    async def move_and_wait(
        self,
        ticket: Ticket,
        after: int,
        move: str,
        end: bool,
        wait: int,
        *,
        claim: Claim | None = None,
    ) -> tuple[int, list[Event]]:
        """Posts a move held up to `wait` seconds for the reply (`?wait=`): one request per move.

        Returns the move's event number and the events above it (none when the wait ran out).
        A retry of the lost answer is answered the same number, with the events above it then.
        """
        seq, events, _ = await self.move_held(ticket, after, move, end, wait, claim=claim)
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
    ) -> tuple[int, list[Event], Table | None]:
        """move_and_wait(); with `table` (the version the poster has), the post also ends at a
        change of the table, and answers the table when it is newer."""
        path = f"/v1/matches/{ticket.match}/moves?wait={wait}"
        if table is not None:
            path += f"&table={table}&chat={chat}"
        body = _move_body(after, move, end, claim)
        timeout = self.timing.request_timeout + wait
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

    async def blocks(self, player: str) -> list[Blocked]:
        """Returns the keys a player key blocked or muted, newest first."""
        return parse_blocks(await self._call("GET", "/v1/player/blocks", player, None))

    async def block(self, player: str, match: str, kind: BlockKind = "block") -> list[Blocked]:
        """Blocks (never paired again, chat hidden) or mutes (chat hidden) the partner of a
        match the player key sat in; returns the key's blocks."""
        body = {"kind": kind, "match": match}
        return parse_blocks(await self._call("POST", "/v1/player/blocks", player, body))

    async def unblock(self, player: str, public_id: str) -> list[Blocked]:
        """Lifts a block or mute of a public id; returns the key's blocks."""
        body = {"kind": "none", "id": public_id}
        return parse_blocks(await self._call("POST", "/v1/player/blocks", player, body))

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

    async def player_matches(self, player: str) -> list[PlayerMatch]:
        """Returns the matches a player key seated that the relay still holds: the key's
        turn first (least time left first), then the partner's, waiting seeks, finished."""
        answer = await self._call("GET", "/v1/player/matches", player, None)
        try:
            return [PlayerMatch.from_json(row) for row in answer["matches"]]
        except (KeyError, TypeError, ValueError):
            raise ProtocolError(NOT_AN_ANSWER.format(what="player matches", body=answer)) from None

    async def leaderboard(self, game: str, limit: int | None = None) -> Leaderboard:
        """Returns the game's leaderboard: its established ratings, best first (at most
        `limit`; the relay's default without)."""
        path = f"/v1/games/{quote(game, safe='')}/leaderboard"
        if limit is not None:
            path += f"?limit={limit}"
        return parse_leaderboard(await self._call("GET", path, None, None))

    async def ratings(self, player: str, game: str | None = None) -> list[PlayerRating]:
        """Returns a player key's rating in each game it played rated (in `game` only, when
        given), each with its latest rated matches, newest first; none for an unknown key."""
        path = "/v1/player/ratings"
        if game is not None:
            path += f"?game={quote(game, safe='')}"
        return parse_ratings(await self._call("GET", path, player, None))

    async def match_ratings(self, match: str) -> MatchRatings:
        """Returns whether a match was rated (or is being rated) and, once it was, each seat's
        rating before and after it."""
        answer = await self._call("GET", f"/v1/matches/{match}", None, None)
        return parse_match_ratings(answer)

    def _held(self, path: str, after: int | None, wait: int | None) -> tuple[str, float]:
        """Returns a read's path and timeout: with `after`, held until the version read is
        above it (up to `wait` seconds, which the timeout allows for)."""
        if after is None:
            return path, self.timing.request_timeout
        path += ("&" if "?" in path else "?") + f"after={after}"
        if wait is not None:
            path += f"&wait={wait}"
        return path, self.timing.request_timeout + (wait or 0)

    async def _seq(self, ticket: Ticket, action: str, body: dict[str, Any]) -> int:
        path = f"/v1/matches/{ticket.match}/{action}"
        answer = await self._call("POST", path, ticket.token, body)
        seq = answer.get("seq") if isinstance(answer, dict) else None
        if type(seq) is not int:
            raise ProtocolError(NOT_AN_ANSWER.format(what=action, body=answer))
        return seq

    async def _call(
        self,
        method: str,
        path: str,
        token: str | None,
        body: dict[str, Any] | None,
        timeout: float | None = None,
        text: bool = False,
        retried: frozenset[int] = _RETRIED_STATUSES,
    ) -> Any:
        """Returns the JSON answer to a request (its bytes, with text), sent again after each
        transient fault (5xx, a lost connection, and the 4xx statuses in `retried`)."""
        url = self.relay_url + path
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = orjson.dumps(body)
        limit = aiohttp.ClientTimeout(total=timeout or self.timing.request_timeout)
        loop = asyncio.get_running_loop()
        started = loop.time()
        attempt = 0
        while True:
            retry_after: float | None = None
            try:
                async with self.session.request(
                    method, url, data=data, headers=headers, timeout=limit
                ) as answer:
                    raw = await answer.read()
                    status = answer.status
                    self.reached = True
                    retry_after = _retry_after(answer.headers.get("Retry-After"))
            except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                failure = f"{type(exc).__name__}: {exc}".rstrip(": ")
            else:
                if status < 400:
                    if text:
                        return raw
                    try:
                        return orjson.loads(raw)
                    except orjson.JSONDecodeError:
                        failure = f"{status} with a garbled body"
                else:
                    code, message = _error(raw)
                    if status < 500 and status not in retried:
                        raise RelayRefusedError(status, code, message)
                    failure = f"{status} {code}"
            timing = self.timing
            delay = timing.backoff(attempt, self.rng, retry_after)
            waited = loop.time() - started
            if not self.reached and waited + delay > min(timing.first_contact, timing.give_up):
                raise RelayUnreachableError(UNREACHABLE.format(url=self.relay_url, failure=failure))
            if waited + delay > timing.give_up:
                raise ConnectionLostError(
                    GAVE_UP.format(url=self.relay_url, seconds=waited, failure=failure)
                )
            attempt += 1
            self.retries += 1
            await asyncio.sleep(delay)


def _move_body(after: int, move: str, end: bool, claim: Claim | None) -> dict[str, Any]:
    """Returns a move's body: the claim only with a game-ending move."""
    body: dict[str, Any] = {"after": after, "move": move, "end": end}
    if end and claim is not None:
        body["claim"] = claim
    return body


def _match_and_token(ticket: Ticket | str) -> tuple[str, str | None]:
    if isinstance(ticket, Ticket):
        return ticket.match, ticket.token
    return ticket, None


def _retry_after(header: str | None) -> float | None:
    """Returns the seconds of a Retry-After header given in seconds (dates are ignored)."""
    if header is None:
        return None
    try:
        seconds = float(header)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def _error(raw: bytes) -> tuple[str, str]:
    """Returns the code and message of a relay error answer (or stand-ins for a foreign one)."""
    try:
        error = orjson.loads(raw)["error"]
        return str(error["code"]), str(error["message"])
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return "http/error", raw[:200].decode("utf-8", "replace")
