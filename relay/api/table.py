"""The endpoints of the table around a match (relay.core.table): reading it, long-polled alone
or with the events, offers and their answers, claims against a staller, and chat."""

from __future__ import annotations

import time

import orjson

from relay.api.calls import Answer, Call, Reply
from relay.api.fields.request import (
    bearer,
    bool_field,
    int_field,
    json_body,
    query_int,
    query_seconds,
    require_bearer,
)
from relay.api.fields.table import chat_text_field, offer_kind_field
from relay.api.holds import Holds
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.model import Action, Event
from relay.core.table import Table, table_body
from relay.store.base import Immediate, Store, Wake

__all__ = ["TableAnswers", "TableEndpoints"]


class TableAnswers:
    """The table as each reader may read it (its names and chat as the host allows), alone or
    carried by a held answer of the log."""

    def __init__(self, config: Config, store: Store) -> None:
        self.config = config
        self.store = store

    def body(self, table: Table, seat: int | None) -> bytes:
        """Returns a table's JSON for a reader (its names and chat as the host allows)."""
        config = self.config
        chat = config.chat == "all" or (config.chat == "seats" and seat is not None)
        return table_body(table, time.time(), names=config.names, chat=chat)

    async def answer(
        self, call: Call, head: bytes, found: list[Event], current: int, version: int,
        seat: int | None,
    ) -> bytes:  # fmt: skip
        """Returns a held answer's body: head, the events, and the table when `current` (its
        version) is above the reader's."""
        body = head + b",".join(found) + b"]"
        if current > version:
            chat_after = query_int(call.query.get("chat"), "chat", 0)
            _, table = await self.store.tables.read(call.match, None, chat_after, time.time())
            body += b',"table":' + self.body(table, seat)
        return body + b"}"

    def answer_now(
        self, store: Immediate, call: Call, head: bytes, found: list[Event], current: int,
        version: int | None, seat: int | None,
    ) -> bytes:  # fmt: skip
        """answer() on a store that answers at once; with no version (a plain poll or move
        post), head and the events only."""
        body = head + b",".join(found) + b"]"
        if version is not None and current > version:
            chat_after = query_int(call.query.get("chat"), "chat", 0)
            body += b',"table":' + self.body(store.table_now(call.match, chat_after), seat)
        return body + b"}"

    def replier(
        self, store: Immediate, call: Call, head: bytes, version: int | None,
        seat: int | None, answer: Answer,
    ) -> Wake:  # fmt: skip
        """Returns what answers a held request on a store that answers at once, once its wait
        ends: answer_now()'s body, or match/expired when the match expired meanwhile."""

        def reply(found: list[Event] | None, current: int) -> None:
            if found is None:
                answer(None, RelayError("match/expired"))
                return
            try:
                body = self.answer_now(store, call, head, found, current, version, seat)
            except RelayError as error:
                answer(None, error)
                return
            answer((200, body), None)

        return reply

    async def record_chat(self, call: Call) -> list[bytes]:
        """Returns the chat lines of a match's record, as the reader may read them: each
        {"type": "chat", "n", "seat", "text", "at", "time"}."""
        config = self.config
        token = bearer(call.authorization)
        if config.chat == "off" or (config.chat == "seats" and token is None):
            return []
        seat, table = await self.store.tables.read(call.match, token, 0, time.time())
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


class TableEndpoints:
    """The table's endpoints: they share the process's holds (and so its held counts)."""

    def __init__(self, config: Config, store: Store, holds: Holds, answers: TableAnswers) -> None:
        self.config = config
        self.store = store
        self.holds = holds
        self.answers = answers

    async def table_read(self, call: Call) -> Reply:
        """GET /v1/matches/{match}/table[?after=V&wait=S&chat=C]: the table, held while its
        version is at most V."""
        holds = self.holds
        store = self.store
        query = call.query
        token = bearer(call.authorization)
        after = query_int(query.get("after"), "after", 0) if "after" in query else None
        chat_after = query_int(query.get("chat"), "chat", 0)
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        now = time.time()
        seat, table = await store.tables.read(call.match, token, chat_after, now)
        if after is None or table.version > after or hold <= 0 or holds.closing:
            # Closing: answered at once, as a hold that ended, never refused.
            return 200, self.answers.body(table, seat)
        deadline = time.monotonic() + hold
        while table.version <= after and not holds.closing:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            # Woken by the table, or by an event of the log (then it looks again).
            last = (await store.matches.info(call.match)).last
            await holds.wait(call, seat, last, left, after, now)
            seat, table = await store.tables.read(call.match, token, chat_after, time.time())
        return 200, self.answers.body(table, seat)

    async def offer(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/offer: offers a draw or asks a takeback."""
        token = require_bearer(call.authorization)
        body = json_body(call.content_type, call.body)
        kind = offer_kind_field(body)
        after = int_field(body, "after")
        table = await self.store.tables.offer(call.match, token, kind, after, time.time())
        return 200, self.answers.body(table, 0)

    async def answer(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/answer: accepts the partner's standing offer (its event
        joins the log) or declines it; the offerer withdraws its own with accept: false."""
        token = require_bearer(call.authorization)
        body = json_body(call.content_type, call.body)
        accept = bool_field(body, "accept")
        store = self.store
        if not accept:
            table = await store.tables.decline(call.match, token, time.time())
            return 200, b'{"seq":null,"table":' + self.answers.body(table, 0) + b"}"
        after = int_field(body, "after")
        seq = await store.matches.act(call.match, token, Action("accept", after), time.time())
        _, table = await store.tables.read(call.match, None, 0, time.time())
        return 200, b'{"seq":%d,"table":%b}' % (seq, self.answers.body(table, 0))

    async def claim(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/claim: claims the win from a partner that stalls."""
        token = require_bearer(call.authorization)
        after = int_field(json_body(call.content_type, call.body), "after")
        seq = await self.store.matches.act(call.match, token, Action("claim", after), time.time())
        return 200, b'{"seq":%d}' % seq

    async def chat(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/chat: says a line to the partner (and the spectators,
        if the host lets them read)."""
        if self.config.chat == "off":
            raise RelayError("chat/off", "This relay carries no chat.")
        token = require_bearer(call.authorization)
        text = chat_text_field(json_body(call.content_type, call.body))
        # The store counts the seat's lines (StoreSettings.chat_per_minute): chat/too_fast.
        n = await self.store.tables.chat(call.match, token, text, time.time())
        return 200, b'{"n":%d}' % n
