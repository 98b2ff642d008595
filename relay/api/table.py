"""The endpoints of the table around a match (relay.core.table): reading it, long-polled alone
or with the events, offers and their answers, claims against a staller, and chat."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

import orjson

from relay.api.calls import Call, Reply
from relay.api.fields import bearer, int_field, json_body, query_int, query_seconds, require_bearer
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.model import Action, Event
from relay.core.table import Table, chat_text, offer_kind, table_body
from relay.store.base import Store

__all__ = ["TableEndpoints"]

BAD_ACCEPT = "The field 'accept' must be true or false, not {!r}."


class Host(Protocol):
    """What the table's endpoints use of the Api they belong to."""

    config: Config
    store: Store

    @property
    def closing(self) -> bool:
        """Whether the process is shutting down (held polls are turned away)."""

    def hold_key(self, call: Call, seat: int | None) -> tuple[str, str]:
        """Counts a held request of the call's seat (or spectator address)."""

    def release_hold(self, key: tuple[str, str]) -> None:
        """Ends a held request counted by hold_key."""

    def client_left(self, call: Call, started: float) -> None:
        """Tells the store that a held request of the call's seat lost its client."""

    def count_move(self) -> None:
        """Counts a move relayed (the relay's metrics)."""


class TableEndpoints:
    """The table's endpoints of one Api (they share its store, limits and held counts)."""

    def __init__(self, api: Host) -> None:
        self.api = api

    def body(self, table: Table, seat: int | None) -> bytes:
        """Returns a table's JSON for a reader (its names and chat as the host allows)."""
        config = self.api.config
        chat = config.chat == "all" or (config.chat == "seats" and seat is not None)
        return table_body(table, time.time(), names=config.names, chat=chat)

    async def record_chat(self, call: Call) -> list[bytes]:
        """Returns the chat lines of a match's record, as the reader may read them: each
        {"type": "chat", "n", "seat", "text", "at", "time"}."""
        config = self.api.config
        token = bearer(call.authorization)
        if config.chat == "off" or (config.chat == "seats" and token is None):
            return []
        seat, table = await self.api.store.table(call.match, token, 0, time.time())
        if config.chat == "seats" and seat is None:
            return []
        return [
            orjson.dumps(
                {
                    "type": "chat",
                    "n": line.n,
                    "seat": line.seat,
                    "text": line.text,
                    "at": line.at,
                    "time": line.time,
                }
            )
            for line in table.chat
        ]

    async def table_read(self, call: Call) -> Reply:
        """GET /v1/matches/{match}/table[?after=V&wait=S&chat=C]: the table, held while its
        version is at most V."""
        api = self.api
        query = call.query
        token = bearer(call.authorization)
        after = query_int(query.get("after"), "after", 0) if "after" in query else None
        chat_after = query_int(query.get("chat"), "chat", 0)
        hold = api.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        now = time.time()
        seat, table = await api.store.table(call.match, token, chat_after, now)
        if after is None or table.version > after or hold <= 0 or api.closing:
            # Closing: answered at once, as a hold that ended, never refused (see Api.events).
            return 200, self.body(table, seat)
        deadline = time.monotonic() + hold
        while table.version <= after and not api.closing:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            # Woken by the table, or by an event of the log (then it looks again).
            last = (await api.store.info(call.match)).last
            await self.hold(call, seat, last, after, left, now)
            seat, table = await api.store.table(call.match, token, chat_after, time.time())
        return 200, self.body(table, seat)

    async def events(self, call: Call, after: int, version: int, hold: float) -> Reply:
        """GET .../events?after=N&table=V: the events above N and, when its version is above
        V, the table, held until there is either (the seat's poll marks it present). The table
        itself is read only when its version is newer than the reader's."""
        api = self.api
        token = bearer(call.authorization)
        now = time.time()
        seat, found, current = await api.store.poll_table(call.match, token, after, now)
        if not found and current <= version and hold > 0 and not api.closing:
            found, changed = await self.hold(call, seat, after, version, hold, now)
            if changed:
                _, found, current = await api.store.poll_table(call.match, None, after, now)
        return 200, await self.answer_with_table(
            call, b'{"events":[', found, current, version, seat
        )

    async def answer_with_table(
        self, call: Call, head: bytes, found: list[Event], current: int, version: int,
        seat: int | None,
    ) -> bytes:  # fmt: skip
        """Returns an answer's body: head, the events, and the table when `current` (its
        version) is above the reader's."""
        body = head + b",".join(found) + b"]"
        if current > version:
            chat_after = query_int(call.query.get("chat"), "chat", 0)
            _, table = await self.api.store.table(call.match, None, chat_after, time.time())
            body += b',"table":' + self.body(table, seat)
        return body + b"}"

    async def move(
        self, call: Call, token: str, action: Action, wait: float, version: int
    ) -> Reply:
        """POST .../moves?wait=S&table=V: the move, then held like a table-aware poll until
        the reply or a table above version V; answers its seq, the events above it and, when
        its version is above V, the table."""
        api = self.api
        key = api.hold_key(call, 0)
        started = time.time()
        try:
            seq, current = await api.store.act_table(call.match, token, action, started)
            api.count_move()
            found: list[Event] = []
            if current > version or api.closing:
                _, found, current = await api.store.poll_table(call.match, None, seq, started)
            else:
                try:
                    found, changed = await api.store.table_wait(call.match, seq, version, wait)
                except (asyncio.CancelledError, GeneratorExit):
                    api.client_left(call, started)
                    raise
                if changed:
                    _, found, current = await api.store.poll_table(call.match, None, seq, started)
        finally:
            api.release_hold(key)
        head = b'{"seq":%d,"events":[' % seq
        return 200, await self.answer_with_table(call, head, found, current, version, 0)

    async def hold(
        self, call: Call, seat: int | None, after: int, version: int, hold: float, started: float
    ) -> tuple[list[Event], bool]:
        """Holds a table-aware poll until the log passes after or the table may be above
        version, or the hold ends (store.table_wait); a seat's client leaving meanwhile is told
        to the store (presence)."""
        api = self.api
        key = api.hold_key(call, seat)
        try:
            return await api.store.table_wait(call.match, after, version, hold)
        except (asyncio.CancelledError, GeneratorExit):
            if seat is not None:
                api.client_left(call, started)
            raise
        finally:
            api.release_hold(key)

    async def offer(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/offer: offers a draw or asks a takeback."""
        token = require_bearer(call.authorization)
        body = json_body(call.content_type, call.body)
        kind = offer_kind(body)
        after = int_field(body, "after")
        table = await self.api.store.offer(call.match, token, kind, after, time.time())
        return 200, self.body(table, 0)

    async def answer(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/answer: accepts the partner's standing offer (its event
        joins the log) or declines it; the offerer withdraws its own with accept: false."""
        token = require_bearer(call.authorization)
        body = json_body(call.content_type, call.body)
        accept = body.get("accept")
        if not isinstance(accept, bool):
            raise RelayError("request/invalid", BAD_ACCEPT.format(accept))
        store = self.api.store
        if not accept:
            table = await store.decline(call.match, token, time.time())
            return 200, b'{"seq":null,"table":' + self.body(table, 0) + b"}"
        after = int_field(body, "after")
        seq = await store.act(call.match, token, Action("accept", after), time.time())
        _, table = await store.table(call.match, None, 0, time.time())
        return 200, b'{"seq":%d,"table":%b}' % (seq, self.body(table, 0))

    async def claim(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/claim: claims the win from a partner that stalls."""
        token = require_bearer(call.authorization)
        after = int_field(json_body(call.content_type, call.body), "after")
        seq = await self.api.store.act(call.match, token, Action("claim", after), time.time())
        return 200, b'{"seq":%d}' % seq

    async def chat(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/chat: says a line to the partner (and the spectators,
        if the host lets them read)."""
        api = self.api
        if api.config.chat == "off":
            raise RelayError("chat/off", "This relay carries no chat.")
        token = require_bearer(call.authorization)
        text = chat_text(json_body(call.content_type, call.body))
        # The store counts the seat's lines (StoreSettings.chat_per_minute): chat/too_fast.
        n = await api.store.chat(call.match, token, text, time.time())
        return 200, b'{"n":%d}' % n
