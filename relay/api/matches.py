"""The endpoints that read a match: its log (long-polled), its summary, its record, and its
rematch (read, long-polled, offered or declined)."""

from __future__ import annotations

import asyncio
import time

import orjson

from relay.api.calls import Answer, Call, Pending, Reply
from relay.api.fields.request import (
    bearer,
    bool_field,
    json_body,
    query_int,
    query_seconds,
    require_bearer,
)
from relay.api.holds import Holds
from relay.api.moderation import check_ban
from relay.api.table import TableAnswers
from relay.config import Config
from relay.core.model import Event
from relay.core.rematch import RematchOp, rematch_body
from relay.core.standings import rated_seats, seat_id
from relay.core.verdicts import result_of
from relay.store.base import Immediate, Store

__all__ = ["MatchEndpoints"]


REMATCH_BANNED = "A player key of this match"
"""Who a refused rematch's ban message names: either seat's key may be the banned one."""

RECORD_FORMAT = 1
"""The version of the record format a record's header names."""

EVENTS = b'{"events":['
"""The head of an event poll's answer."""


class MatchEndpoints:
    """Reads of a match, over one store, with the process's holds."""

    def __init__(self, config: Config, store: Store, holds: Holds, tables: TableAnswers) -> None:
        self.config = config
        self.store = store
        self.holds = holds
        self.tables = tables

    def _query(self, call: Call) -> tuple[int, float, int | None]:
        """Reads an event poll's query: after, the seconds it may hold, and the table version
        the reader has (None when it asks for no table)."""
        query = call.query
        after = query_int(query.get("after"), "after", 0)
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        if "chat" in query:  # read only with a table to send: refused alike when it is not
            query_int(query["chat"], "chat", 0)
        version = query_int(query["table"], "table", 0) if "table" in query else None
        return after, self.holds.seconds(hold), version

    async def events(self, call: Call) -> Reply:
        """GET /v1/matches/{match}/events?after=N[&table=V]: the log above N and, when its
        version is above V, the table, held until there is either (a seat's poll marks it
        present). The table itself is read only when its version is newer than the reader's."""
        after, hold, version = self._query(call)
        store = self.store
        now = time.time()
        token = bearer(call.authorization)
        if version is None:
            seat, found = await store.matches.poll(call.match, token, after, now)
            current = 0
        else:
            seat, found, current = await store.tables.poll(call.match, token, after, now)
        if not found and (version is None or current <= version) and hold > 0:
            found, moved = await self.holds.wait(call, seat, after, hold, version, now)
            if moved:
                _, found, current = await store.tables.poll(call.match, None, after, now)
        if version is None:
            return 200, EVENTS + b",".join(found) + b"]}"
        return 200, await self.tables.answer(call, EVENTS, found, current, version, seat)

    def events_now(self, store: Immediate, call: Call, answer: Answer) -> Pending | None:
        """events() on a store that answers at once, through callbacks only: answers at once,
        or on the loop's turn after an event (or a table newer than the reader's) arrives,
        returning the hold."""
        after, hold, version = self._query(call)
        now = time.time()
        seat, found = store.poll_now(call.match, bearer(call.authorization), after, now)
        done = self.tables.replier(store, call, EVENTS, version, seat, answer)

        current = 0 if version is None else store.table_version(call.match)
        if found or hold <= 0 or (version is not None and current > version):
            done(found, current)
            return None

        def woken(found: list[Event] | None, moved: int) -> None:
            # Answered on the loop's next turn, as events() is: the write that woke the poll
            # (a seat's own accept, say) is answered first. The table comes with the events
            # only when it was newer before the hold; a hold the table alone ended carries it.
            loop.call_soon(done, found, current if found else moved)

        loop = asyncio.get_running_loop()

        holds = self.holds
        key = holds.take_seat(call, seat)
        return holds.watch(store, call, key, after, hold, version, now, woken)

    async def match_info(self, call: Call) -> Reply:
        """GET /v1/matches/{match}: the match's game, status, turn and last event number."""
        info = await self.store.matches.info(call.match)
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
        info = await self.store.matches.info(call.match)
        _, events = await self.store.matches.poll(call.match, None, 0, time.time())
        chat = await self.tables.record_chat(call)
        result = None
        if events and info.status.value == "finished":
            last = orjson.loads(events[-1])
            if last.get("type") == "ended":
                # An agreed end's winner is what its game-ending move (the event before) claimed.
                ender = orjson.loads(events[-2]) if len(events) > 1 else {}
                result = result_of(last, ender.get("claim") if ender.get("end") else None)
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
        current = await self.store.rematches.step(call.match, token, "read", time.time())
        holds = self.holds
        if after is None or current.version > after or hold <= 0 or holds.closing:
            return 200, rematch_body(current)
        key = holds.take_seat(call, None if token is None else 0)
        try:
            current = await self.store.rematches.wait(call.match, after, hold, time.time())
        finally:
            holds.release(key)
        return 200, rematch_body(current)

    async def rematch_offer(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/rematch: offers or accepts a rematch, or declines one."""
        token = require_bearer(call.authorization)
        offer = bool_field(json_body(call.content_type, call.body), "offer")
        op: RematchOp = "offer" if offer else "decline"
        if offer:  # a rematch is a new match: refused when a ban covers either seat
            now = time.time()
            info = await self.store.matches.info(call.match)
            await check_ban(self.store, info.keys, call.client, now, REMATCH_BANNED)
        return 200, rematch_body(
            await self.store.rematches.step(call.match, token, op, time.time())
        )
