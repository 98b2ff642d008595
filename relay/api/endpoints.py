"""The protocol's endpoints, whichever HTTP server carries them: one call in per request.

Either server reads a request of the route table into a Call and hands it to Api.handle,
which answers through a callback: at once, or when what the request waits for is done. The
endpoints are coroutines that take the Call and return (status, body), or raise RelayError."""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, cast

import orjson

from relay.api.calls import Answer, Call, Pending, Reply, drive
from relay.api.fields import (
    bearer,
    int_field,
    json_body,
    name_field,
    query_int,
    query_seconds,
    require_bearer,
)
from relay.api.limits import RateLimiter
from relay.api.metrics import RelayMetrics
from relay.api.moderation import ModerationEndpoints, check_ban
from relay.api.openapi import openapi
from relay.api.routes import ROUTES
from relay.api.table import TableEndpoints
from relay.api.verdicts import Verdicts
from relay.config import Config
from relay.core.clock import control_field
from relay.core.errors import RelayError
from relay.core.games import games_json
from relay.core.lobby import KINDS, lobby_entry_json
from relay.core.model import Action, Event, hash_token, new_action
from relay.core.patterns import KEY
from relay.core.players import NOT_A_PLAYER_KEY, PLAYER, contact_field, listing, player_field
from relay.core.rated import NO_RATINGS, claim_field, range_field
from relay.core.referee import Referee
from relay.core.rematch import RematchOp, rematch_body
from relay.core.standings import BOARD_DEFAULT, BOARD_LIMIT, rated_seats, seat_id
from relay.core.table import NAME_MOST
from relay.core.table import name_field as name_of
from relay.core.text_policy import NAME_TAKEN, shown_once, skeletons
from relay.core.verdicts import reason_field, result_of
from relay.store.base import Immediate, Store

__all__ = ["Api", "Lifecycle", "error_reply", "retry_after_header"]

log = logging.getLogger("relay")

TOKEN = KEY
"""A seeker's own token: 32 to 128 URL-safe characters, which it must draw at random."""

BAD_TOKEN = "The field 'token' must be 32 to 128 random characters from A-Z a-z 0-9 _ -."

BAD_BOOL = "The field {!r} must be true or false, not {!r}."
REMATCH_BANNED = "A player key of this match"
"""Who a refused rematch's ban message names: either seat's key may be the banned one."""

LOBBY_POLLS_PER_SEAT = 8
"""Held lobby polls a client address may have, per --polls-per-seat."""

SPECTATOR_POLLS_PER_SEAT = 8
"""Held spectator polls (event and rematch polls without a token) a client address may have,
per --polls-per-seat: a household or an office watching several matches, not thousands."""

LOBBY_RECHECK = 5.0
"""Seconds a held lobby poll trusts notifications before it reads the lobby again (a match
that started or ended changes its lists only when a reader sees it)."""

RECORD_FORMAT = 1
"""The version of the record format a record's header names."""

DIGESTS = 4096
"""Authorization headers whose token digests the Api keeps: a seat's moves read it once."""

Endpoint = Callable[[Call], Coroutine[Any, Any, Reply]]
"""An Api coroutine method answering one route."""


class Lifecycle:
    """Where the process is in its life."""

    closing: bool = False
    """Set when shutdown begins: held polls are answered and new ones are turned away."""


def error_reply(error: RelayError) -> Reply:
    """Returns the answer to an error: {"error": {"code": ..., "message": ...}}, markup in the
    message (it may quote the request: a match id, a parameter) escaped as JSON allows."""
    body = orjson.dumps({"error": {"code": error.code, "message": error.message}})
    if b"<" in body or b">" in body or b"&" in body:
        body = body.replace(b"&", b"\\u0026").replace(b"<", b"\\u003c").replace(b">", b"\\u003e")
    return error.status, body


def retry_after_header(seconds: float) -> str:
    """Returns a Retry-After value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


def _events(found: list[Event]) -> bytes:
    return b'{"events":[' + b",".join(found) + b"]}"


class Api:
    """The endpoints of protocol v1 over one store, with this process's limits and metrics."""

    def __init__(
        self,
        config: Config,
        store: Store,
        metrics: RelayMetrics,
        referees: Mapping[str, Referee] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.verdicts = Verdicts(store, referees or {}, config.referee_budget)
        """The referees the host turned on, by game (--referee), and the verdicts they give."""
        self.metrics = metrics
        self.lifecycle = Lifecycle()
        self.seek_limiter = RateLimiter.per_minute(config.seeks_per_minute)
        self.request_limiter = RateLimiter(
            config.requests_per_second, 2.0 * config.requests_per_second
        )
        self.held: dict[tuple[str, str], int] = {}
        """Requests held open in this process (event polls, move posts with ?wait=), per
        match and seat (the digest of the seat's token)."""
        self.immediate: Immediate | None = store.immediate
        self.tables = TableEndpoints(self)
        self.moderation = ModerationEndpoints(config, store)
        parts = {"api": self, "table": self.tables, "moderation": self.moderation}
        self.endpoints: dict[str, Endpoint] = {
            route.endpoint: getattr(parts[route.part], route.endpoint) for route in ROUTES
        }
        """The coroutine method answering each route, by its name in the route table."""
        self._games = games_json(config.games)
        """The answer of GET /v1/games: the games are read once, at start."""
        self._digests: dict[str, str] = {}
        self._leaving: set[asyncio.Future[None]] = set()
        """Notes to the store of held requests whose client left, still being written."""

    def handle(self, call: Call, answer: Answer) -> Pending | None:
        """Serves one request: calls answer(reply, None) or answer(None, error) once, at once
        or later. Returns what to cancel while it waits (its client may leave), else None."""
        route = call.route
        try:
            if route.limited:
                self.admit(call.client)
            immediate = self.immediate
            if immediate is not None and route.endpoint == "move":
                return self._move_now(immediate, call, answer)
            coro = self.endpoints[route.endpoint](call)
        except RelayError as error:
            answer(None, error)
            return None
        if immediate is not None:
            return drive(coro, answer)
        task = asyncio.ensure_future(coro)
        task.add_done_callback(functools.partial(_task_done, answer))
        return task

    def admit(self, client: str) -> None:
        """Counts a request of client against its rate; raises limit/requests past it."""
        wait = self.request_limiter.take(client, time.monotonic())
        if wait:
            raise RelayError("limit/requests", retry_after=wait)

    async def seek(self, call: Call) -> Reply:
        """POST /v1/seek: takes a seat in a waiting match, or opens one."""
        now = time.time()
        wait = self.seek_limiter.take(call.client, now)
        if wait:
            raise RelayError("limit/seeks", retry_after=wait)
        body = json_body(call.content_type, call.body)
        game = name_field(body, "game", required=True)
        assert game is not None
        version = name_field(body, "version", required=False, empty=True) or ""
        room = name_field(body, "room", required=False)
        token = body.get("token")
        if token is not None and (not isinstance(token, str) or TOKEN.fullmatch(token) is None):
            raise RelayError("request/invalid", BAD_TOKEN)
        public = body.get("public", False)
        if not isinstance(public, bool):
            raise RelayError("request/invalid", BAD_BOOL.format("public", public))
        control = control_field(body)
        player = player_field(body)
        contact = contact_field(body)
        name = name_of(body) if self.config.names else None
        rating_range = range_field(body)
        if rating_range is not None and self.config.store.ratings is None:
            raise RelayError("request/invalid", NO_RATINGS)
        await check_ban(self.store, (hash_token(player) if player else "",), call.client, now)
        if name is not None and not await self.store.claim_name(skeletons(name), player, now):
            raise RelayError("name/taken", NAME_TAKEN.format(name))
        ticket = await self.store.seek(
            game, version, room, now, token, control, player, contact, name, rating_range
        )
        # The lobby is kept by calls of its own, after the seek's: a lost one only leaves the
        # lobby behind until a reader heals it.
        if ticket.seat == 0 and public:
            await self.store.lobby_add(game, "open", ticket.match, now)
        elif ticket.seat == 1:
            await self.store.lobby_promote(game, ticket.match, now)
        return 201, orjson.dumps(
            {"match": ticket.match, "seat": ticket.seat, "token": ticket.token}
        )

    async def player_matches(self, call: Call) -> Reply:
        """GET /v1/player/matches: every match the bearer's player key seated, still held."""
        player = require_bearer(call.authorization)
        if PLAYER.fullmatch(player) is None:
            raise RelayError("auth/bad_token", NOT_A_PLAYER_KEY)
        now = time.time()
        found = await self.store.player_matches(player, now)
        return 200, orjson.dumps({"matches": listing(found, now)})

    async def player_ratings(self, call: Call) -> Reply:
        """GET /v1/player/ratings[?game=G]: the bearer's player key's ratings and histories."""
        player = require_bearer(call.authorization)
        if PLAYER.fullmatch(player) is None:
            raise RelayError("auth/bad_token", NOT_A_PLAYER_KEY)
        game = name_field(dict(call.query), "game", required=False)
        found: list[Any] = []
        if self.config.store.ratings is not None:
            found = await self.store.player_ratings(player, game, time.time())
        return 200, orjson.dumps({"ratings": found})

    async def leaderboard(self, call: Call) -> Reply:
        """GET /v1/games/{game}/leaderboard[?limit=N]: the game's established ratings, best
        first."""
        game = name_field({"game": call.match}, "game", required=True)
        assert game is not None
        limit = query_int(call.query.get("limit"), "limit", BOARD_DEFAULT)
        if not 1 <= limit <= BOARD_LIMIT:
            raise RelayError(
                "request/invalid",
                f"The parameter 'limit' must be a whole number from 1 to {BOARD_LIMIT}, "
                f"not {limit!r}.",
            )
        rows: list[Any] = []
        if self.config.store.ratings is not None:
            rows = await self.store.leaderboard(game, limit, time.time())
            if not self.config.names:
                for row in rows:
                    row["name"] = None
            shown_once(rows, NAME_MOST)
        return 200, orjson.dumps({"game": game, "players": rows})

    async def events(self, call: Call) -> Reply:
        """GET /v1/matches/{match}/events?after=N: the log above N, held until there is some."""
        query = call.query
        after = query_int(query.get("after"), "after", 0)
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        if "chat" in query:  # read only with a table to send: refused alike when it is not
            query_int(query["chat"], "chat", 0)
        if "table" in query:
            version = query_int(query["table"], "table", 0)
            return await self.tables.events(call, after, version, hold)
        now = time.time()
        seat, found = await self.store.poll(call.match, bearer(call.authorization), after, now)
        if not found and hold > 0 and not self.lifecycle.closing:
            # While the process shuts down a poll is answered at once, as a hold that ended,
            # never refused: the client polls again, on another process behind a proxy.
            found = await self._hold(call, seat, after, hold, now)
        return 200, _events(found)

    async def _hold(
        self, call: Call, seat: int | None, after: int, hold: float, started: float
    ) -> list[Event]:
        key = self.hold_key(call, seat)
        try:
            return await self.store.wait(call.match, after, hold)
        except (asyncio.CancelledError, GeneratorExit):
            if seat is not None:
                self.client_left(call, started)
            raise
        finally:
            self._release_hold(key)

    @property
    def closing(self) -> bool:
        """Whether the process is shutting down (held polls are turned away)."""
        return self.lifecycle.closing

    def hold_key(self, call: Call, seat: int | None) -> tuple[str, str]:
        """Counts a held request of the call's seat, or of its address for a spectator."""
        if seat is None:
            return self._take_spectator_hold(call)
        return self._take_hold(call.match, self._seat_digest(call.authorization))

    def release_hold(self, key: tuple[str, str]) -> None:
        """Ends a held request counted by hold_key."""
        self._release_hold(key)

    def count_move(self) -> None:
        """Counts a move relayed (relay_moves_relayed_total)."""
        self.metrics.moves += 1

    def client_left(self, call: Call, started: float) -> None:
        """Tells the store, in the background, that a held request of the call's seat begun
        at `started` lost its client: the seat shows away soon unless it polls again."""
        token = bearer(call.authorization)
        if token is None:
            return
        note = asyncio.ensure_future(self.store.left(call.match, token, started, time.time()))
        self._leaving.add(note)
        note.add_done_callback(self._left_done)

    def _left_done(self, note: asyncio.Future[None]) -> None:
        self._leaving.discard(note)
        error = None if note.cancelled() else note.exception()
        if error is not None:
            # Presence is a courtesy: a seat whose leaving the store missed stays shown here
            # until it abandons, as before there was presence.
            log.info("could not note a client gone: %s", error)

    def _take_hold(self, match: str, digest: str, most: int | None = None) -> tuple[str, str]:
        """Counts one more held request (an event poll or a move post with ?wait=) of the
        seat whose token has that digest; raises limit/polls past --polls-per-seat. Returns
        the key to release: the match and the digest, one per seat."""
        key = (match, digest)
        held = self.held
        count = held.get(key, 0)
        if count >= (self.config.polls_per_seat if most is None else most):
            raise RelayError("limit/polls", retry_after=1.0)
        held[key] = count + 1
        self.metrics.held_polls += 1
        return key

    def _take_spectator_hold(self, call: Call) -> tuple[str, str]:
        """Counts one more held spectator poll of the client's address; raises limit/polls
        past SPECTATOR_POLLS_PER_SEAT x --polls-per-seat."""
        most = SPECTATOR_POLLS_PER_SEAT * self.config.polls_per_seat
        return self._take_hold("spectator", call.client, most)

    def _release_hold(self, key: tuple[str, str]) -> None:
        """Ends one held request counted by _take_hold."""
        self.metrics.held_polls -= 1
        left = self.held[key] - 1
        if left:
            self.held[key] = left
        else:
            del self.held[key]

    async def move(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/moves[?wait=S]: relays a move text, applied once."""
        token = require_bearer(call.authorization)
        wait = self._move_wait(call)
        action = self._move_action(call)
        if action.end and self.verdicts:
            # A game-ending move of a refereed game carries its verdict into the store.
            action = await self.verdicts.on_end(call.match, token, action)
        if wait and "table" in call.query:
            version = query_int(call.query["table"], "table", 0)
            return await self.tables.move(call, token, action, wait, version)
        if not wait:
            seq = await self.store.act(call.match, token, action, time.time())
            self.metrics.moves += 1
            return 200, b'{"seq":%d}' % seq if wait is None else b'{"seq":%d,"events":[]}' % seq
        # The move post doubles as the next poll: one request per move instead of two. It is
        # counted as a held poll of its seat from before the move is applied, so a seat at
        # --polls-per-seat is refused with nothing changed.
        key = self._take_hold(call.match, self._seat_digest(call.authorization))
        started = time.time()
        try:
            seq = await self.store.act(call.match, token, action, started)
            self.metrics.moves += 1
            found = await self.store.wait(call.match, seq, self._reply_hold(wait))
        except asyncio.CancelledError:
            self.client_left(call, started)
            raise
        finally:
            self._release_hold(key)
        return 200, b'{"seq":%d,"events":[%b]}' % (seq, b",".join(found))

    def _move_now(self, store: Immediate, call: Call, answer: Answer) -> Pending | None:
        """move() on a store that answers at once, through callbacks only: answers at once,
        or when the reply arrives (then returning the wait held)."""
        digest = self._seat_digest(call.authorization)
        wait = self._move_wait(call)
        action = self._move_action(call)
        if action.end and self.verdicts:
            # A game-ending move of a refereed game is judged before it is answered.
            return drive(self.move(call), answer)
        query = call.query
        version = query_int(query["table"], "table", 0) if wait and "table" in query else None
        if not wait:
            seq = store.act_hashed(call.match, digest, action, time.time())
            self.metrics.moves += 1
            reply = b'{"seq":%d}' % seq if wait is None else b'{"seq":%d,"events":[]}' % seq
            answer((200, reply), None)
            return None
        key = self._take_hold(call.match, digest)
        started = time.time()
        try:
            seq = store.act_hashed(call.match, digest, action, started)
        except BaseException:
            self._release_hold(key)
            raise
        self.metrics.moves += 1
        release = _Release(self, key, call, started)

        def wake(found: list[Event] | None) -> None:
            release.release()
            if found is None:
                answer(None, RelayError("match/expired"))
            elif version is None:
                answer((200, b'{"seq":%d,"events":[%b]}' % (seq, b",".join(found))), None)
            else:
                answer((200, self._held_move_body(store, call, seq, found, version)), None)

        hold = self._reply_hold(wait)
        held: Pending | None = store.watch(call.match, seq, hold, wake, version)
        if held is None:
            return None
        release.held = held
        return release

    def _held_move_body(
        self, store: Immediate, call: Call, seq: int, found: list[Event], version: int
    ) -> bytes:
        """Returns a held table-aware move post's answer on a store that answers at once:
        its seq, the events above it, and the table when it is above the poster's version."""
        body = b'{"seq":%d,"events":[%b]' % (seq, b",".join(found))
        if store.table_version(call.match) > version:
            chat_after = query_int(call.query.get("chat"), "chat", 0)
            table = store.table_now(call.match, chat_after)
            body += b',"table":' + self.tables.body(table, 0)
        return body + b"}"

    def _seat_digest(self, authorization: str | None) -> str:
        """Returns the digest of the seat token in an Authorization header (hash_token), kept
        for the DIGESTS most recent headers."""
        digests = self._digests
        digest = None if authorization is None else digests.get(authorization)
        if digest is None:
            digest = hash_token(require_bearer(authorization))
            if len(digests) >= DIGESTS:
                digests.clear()
            digests[authorization or ""] = digest
        return digest

    def _move_wait(self, call: Call) -> float | None:
        """Returns how long a move post waits for the reply, within --hold (None: it does not)."""
        query = call.query
        if "chat" in query:  # read only with a table to send: refused alike when it is not
            query_int(query["chat"], "chat", 0)
        raw = query.get("wait")
        if raw is None:
            return None
        return min(self.config.hold, query_seconds(raw, "wait"))

    def _move_action(self, call: Call) -> Action:
        """Reads a move request's body, checked before anything is applied (a refused
        request changes nothing)."""
        body = json_body(call.content_type, call.body)
        after = int_field(body, "after")
        text = body.get("move")
        if not isinstance(text, str):
            raise RelayError("request/invalid", f"The field 'move' must be a string, not {text!r}.")
        if len(text) > self.config.max_move:
            raise RelayError(
                "move/too_long",
                f"The move has {len(text)} characters; at most {self.config.max_move}.",
            )
        end = body.get("end", False)
        if not isinstance(end, bool):
            raise RelayError(
                "request/invalid", f"The field 'end' must be true or false, not {end!r}."
            )
        claim = body.get("claim")
        if claim is not None:
            claim = claim_field(claim, end)
        return new_action(Action, ("move", after, text, end, True, None, claim))

    def _reply_hold(self, wait: float) -> float:
        """Seconds a move post waits for the reply: as planned, or none at shutdown."""
        return 0.0 if self.lifecycle.closing else wait

    async def pass_turn(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/pass: gives the turn back to the partner."""
        token = require_bearer(call.authorization)
        after = int_field(json_body(call.content_type, call.body), "after")
        seq = await self.store.act(call.match, token, Action("pass", after), time.time())
        self.metrics.moves += 1
        return 200, b'{"seq":%d}' % seq

    async def confirm(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/confirm: the partner agrees or disputes the game is over."""
        token = require_bearer(call.authorization)
        body = json_body(call.content_type, call.body)
        after = int_field(body, "after")
        agree = body.get("agree", True)
        if not isinstance(agree, bool):
            raise RelayError(
                "request/invalid", f"The field 'agree' must be true or false, not {agree!r}."
            )
        reason = reason_field(body)
        ending = None
        if self.verdicts:
            ending = await self.verdicts.on_confirm(call.match, token, after, agree)
        action = Action("confirm", after, "" if agree else reason, False, agree, ending)
        seq = await self.store.act(call.match, token, action, time.time())
        return 200, b'{"seq":%d}' % seq

    async def resign(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/resign: ends the match at once; the partner wins."""
        token = require_bearer(call.authorization)
        json_body(call.content_type, call.body)
        seq = await self.store.act(call.match, token, Action("resign"), time.time())
        return 200, b'{"seq":%d}' % seq

    async def cancel(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/cancel: withdraws a seek nobody has joined yet."""
        token = require_bearer(call.authorization)
        await self.store.act(call.match, token, Action("cancel"), time.time())
        return 200, b'{"cancelled":true}'

    async def match_info(self, call: Call) -> Reply:
        """GET /v1/matches/{match}: the match's game, status, turn and last event number."""
        info = await self.store.info(call.match)
        clock = info.clock
        return 200, orjson.dumps(
            {
                "match": info.match,
                "game": info.game,
                "version": info.version,
                "room": info.room,
                "status": info.status.value,
                "turn": info.turn,
                "first": info.first,
                "last": info.last,
                "time_control": None if clock is None else clock.control.as_dict(),
                "left": None if clock is None else list(clock.left_at(info.turn, time.time())),
                "names": list(info.names) if self.config.names else [None, None],
                "rated": info.rated,
                "players": [seat_id(info.keys[0]), seat_id(info.keys[1])],
                **rated_seats(info.ratings),
            }
        )

    async def record(self, call: Call) -> Reply:
        """GET /v1/matches/{match}/record: the match as JSON Lines (docs/protocol.md): a
        header (the game, its version, the time control, the result once it ended, the
        names), then each event of the log, as the events endpoint sends them, then each line
        of its chat the reader may read."""
        info = await self.store.info(call.match)
        _, events = await self.store.poll(call.match, None, 0, time.time())
        chat = await self.tables.record_chat(call)
        result = None
        if events and info.status.value == "finished":
            last = orjson.loads(events[-1])
            if last.get("type") == "ended":
                result = result_of(last)
        header = orjson.dumps(
            {
                "record": RECORD_FORMAT,
                "match": info.match,
                "game": info.game,
                "version": info.version,
                "room": info.room,
                "first": info.first,
                "time_control": None if info.clock is None else info.clock.control.as_dict(),
                "status": info.status.value,
                "result": result,
                "events": len(events),
                "names": list(info.names) if self.config.names else [None, None],
                "chat": len(chat),
            }
        )
        return 200, b"\n".join([header, *events, *chat]) + b"\n"

    async def rematch_read(self, call: Call) -> Reply:
        """GET /v1/matches/{match}/rematch[?after=V]: the rematch, held while its version is
        at most V."""
        query = call.query
        token = bearer(call.authorization)
        # The query is checked before the match is read: bad input is a 400 whatever the match.
        after = query_int(query.get("after"), "after", 0) if "after" in query else None
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        current = await self.store.rematch(call.match, token, "read", time.time())
        if after is None:
            return 200, rematch_body(current)
        if current.version > after or hold <= 0 or self.lifecycle.closing:
            return 200, rematch_body(current)
        key = (
            self._take_spectator_hold(call)
            if token is None
            else self._take_hold(call.match, self._seat_digest(call.authorization))
        )
        try:
            current = await self.store.rematch_wait(call.match, after, hold, time.time())
        finally:
            self._release_hold(key)
        return 200, rematch_body(current)

    async def rematch_offer(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/rematch: offers or accepts a rematch, or declines one."""
        token = require_bearer(call.authorization)
        offer = json_body(call.content_type, call.body).get("offer")
        if not isinstance(offer, bool):
            raise RelayError("request/invalid", BAD_BOOL.format("offer", offer))
        op: RematchOp = "offer" if offer else "decline"
        if offer:  # a rematch is a new match: refused when a ban covers either seat
            now = time.time()
            info = await self.store.info(call.match)
            await check_ban(self.store, info.keys, call.client, now, REMATCH_BANNED)
        return 200, rematch_body(await self.store.rematch(call.match, token, op, time.time()))

    async def lobby(self, call: Call) -> Reply:
        """GET /v1/lobby?game=G[&after=V]: a game's lobby, held while its version is at most V."""
        query = call.query
        game = name_field(dict(query), "game", required=True)
        assert game is not None
        after = query_int(query.get("after"), "after", 0) if "after" in query else None
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        lobby = await self.store.lobby(game)
        if after is not None and lobby.version <= after and hold > 0 and not self.lifecycle.closing:
            key = self._take_hold("lobby", call.client, self._lobby_polls())
            try:
                deadline = time.monotonic() + hold
                while lobby.version <= after and not self.lifecycle.closing:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    await self.store.lobby_wait(game, after, min(left, LOBBY_RECHECK))
                    lobby = await self.store.lobby(game)
            finally:
                self._release_hold(key)
        answer: dict[str, object] = {"game": game, "version": lobby.version}
        for kind in KINDS:
            answer[kind] = [lobby_entry_json(e) for e in lobby.entries if e.kind == kind]
        waiting = answer["open"]
        if waiting:
            await self._seeker_ratings(game, cast(list[dict[str, object]], waiting))
        return 200, orjson.dumps(answer)

    async def _seeker_ratings(self, game: str, entries: list[dict[str, object]]) -> None:
        """Gives each open entry its waiting seeker's rating as shown (null: no player key,
        or no ratings kept)."""
        now = time.time()
        for entry in entries:
            shown = None
            if self.config.store.ratings is not None:
                shown = await self.store.seeker_rating(game, str(entry["match"]), now)
            entry["rating"] = shown

    def _lobby_polls(self) -> int:
        """Lobby polls one client address may hold at once: several pages behind one address
        (a household, an office) each watch a lobby."""
        return LOBBY_POLLS_PER_SEAT * self.config.polls_per_seat

    async def games(self, call: Call) -> Reply:
        """GET /v1/games: the games hosted."""
        return 200, self._games

    async def healthz(self, call: Call) -> Reply:
        """GET /healthz: 200 while the relay and its store answer."""
        await self.store.counts()
        return 200, b'{"ok":true}'

    async def metrics_text(self, call: Call) -> Reply:
        """GET /metrics: Prometheus text format."""
        store = self.store
        self.metrics.referee_over_budget = self.verdicts.over_budget
        return 200, self.metrics.render(await store.counts(), store.notices, await store.endings())

    async def openapi(self, call: Call) -> Reply:
        """GET /v1/openapi.json: the OpenAPI document of protocol v1."""
        return 200, openapi()


class _Release:
    """A held move post of the memory store: releases its seat's held count once, when
    answered or when its client goes away (then also ending the wait)."""

    __slots__ = ("api", "call", "held", "key", "started")

    def __init__(self, api: Api, key: tuple[str, str], call: Call, started: float) -> None:
        self.api: Api | None = api
        self.key = key
        self.held: Pending | None = None
        self.call = call
        self.started = started
        """When the move was applied (its seat marked present)."""

    def release(self) -> None:
        """Releases the count, once."""
        api, self.api = self.api, None
        if api is not None:
            api._release_hold(self.key)

    def cancel(self) -> None:
        """Releases the count (once) and ends the wait; its client left (see presence)."""
        api = self.api
        self.release()
        held, self.held = self.held, None
        if held is not None:
            held.cancel()
            if api is not None:
                api.client_left(self.call, self.started)


def _task_done(answer: Answer, task: asyncio.Future[Reply]) -> None:
    """Passes a task's outcome to answer; a cancelled task answers server/shutting_down
    (the answer is dropped when the cancel came from its client going away)."""
    if task.cancelled():
        answer(None, RelayError("server/shutting_down"))
        return
    error = task.exception()
    answer(None if error is not None else task.result(), error)
