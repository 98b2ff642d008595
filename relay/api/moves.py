"""The endpoints that write a seat's turn: a move (held for the reply with ?wait=), a pass,
the partner's confirm of a game-ending move, a resignation and a seek's cancel."""

from __future__ import annotations

import time

from relay.api.calls import Answer, Call, Pending, Reply, drive
from relay.api.fields.moves import claim_field, detail_field, reason_field
from relay.api.fields.request import (
    bool_field,
    int_field,
    json_body,
    query_int,
    query_seconds,
    require_bearer,
)
from relay.api.holds import Held, Holds
from relay.api.metrics import RelayMetrics
from relay.api.table import TableAnswers
from relay.api.verdicts import Verdicts
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.model import Action, new_action
from relay.store.base import Immediate, Store, Wake

__all__ = ["MoveEndpoints"]


class MoveEndpoints:
    """Writes of a seat's turn, over one store, with the process's holds and verdicts."""

    def __init__(
        self, config: Config, store: Store, holds: Holds, metrics: RelayMetrics,
        verdicts: Verdicts, tables: TableAnswers,
    ) -> None:  # fmt: skip
        self.config = config
        self.store = store
        self.holds = holds
        self.metrics = metrics
        self.verdicts = verdicts
        self.tables = tables

    async def move(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/moves[?wait=S[&table=V]]: relays a move text, applied
        once. With ?wait= the post doubles as the next poll (one request per move): held like
        a poll until the reply, counted as a held request of its seat from before the move is
        applied, so that a seat at --polls-per-seat is refused with nothing changed."""
        token = require_bearer(call.authorization)
        wait = self._wait(call)
        action = self._action(call)
        if action.end and self.verdicts:
            # A game-ending move of a refereed game carries its verdict into the store.
            action = await self.verdicts.on_end(call.match, token, action)
        store = self.store
        if not wait:
            seq = await store.matches.act(call.match, token, action, time.time())
            self.metrics.moves += 1
            return 200, b'{"seq":%d}' % seq if wait is None else b'{"seq":%d,"events":[]}' % seq
        version = self._version(call)
        holds = self.holds
        key = holds.take_seat(call, 0)
        started = time.time()
        try:
            if version is None:
                seq, current = await store.matches.act(call.match, token, action, started), 0
            else:
                seq, current = await store.tables.act(call.match, token, action, started)
        except BaseException:
            holds.release(key)
            raise
        self.metrics.moves += 1
        found, moved = await holds.wait(call, 0, seq, holds.seconds(wait), version, started, key)
        head = b'{"seq":%d,"events":[' % seq
        if version is None:
            return 200, head + b",".join(found) + b"]}"
        if moved:
            _, found, current = await store.tables.poll(call.match, None, seq, started)
        return 200, await self.tables.answer(call, head, found, current, version, 0)

    def move_now(self, store: Immediate, call: Call, answer: Answer) -> Pending | None:
        """move() on a store that answers at once, through callbacks only: answers at once,
        or when the reply arrives (then returning the hold)."""
        holds = self.holds
        digest = holds.seat_digest(call.authorization)
        wait = self._wait(call)
        action = self._action(call)
        if action.end and self.verdicts:
            # A game-ending move of a refereed game is judged before it is answered.
            return drive(self.move(call), answer)
        if not wait:
            seq = store.act_hashed(call.match, digest, action, time.time())
            self.metrics.moves += 1
            answer(
                (200, b'{"seq":%d}' % seq if wait is None else b'{"seq":%d,"events":[]}' % seq),
                None,
            )
            return None
        version = self._version(call)
        key = holds.take(call.match, digest)
        started = time.time()
        tables = self.tables
        made: list[Held] = []

        def hold(seq: int) -> Wake:
            # The mover's own hold, from the event its write made: one entry into the store.
            head = b'{"seq":%d,"events":[' % seq
            held = holds.hold(
                call, key, started, tables.replier(store, call, head, version, 0, answer)
            )
            made.append(held)
            return held.wake

        try:
            _, waiting = store.act_watch(
                call.match, digest, action, started, holds.seconds(wait), hold, version
            )
        except BaseException:
            if made:
                made[0].cancel()
            else:
                holds.release(key)
            raise
        self.metrics.moves += 1
        return made[0].held(waiting)

    def _version(self, call: Call) -> int | None:
        """Returns the table version a held move post names (?table=), None when it names
        none."""
        query = call.query
        return query_int(query["table"], "table", 0) if "table" in query else None

    def _wait(self, call: Call) -> float | None:
        """Returns how long a move post waits for the reply, within --hold (None: it does not)."""
        query = call.query
        if "chat" in query:  # read only with a table to send: refused alike when it is not
            query_int(query["chat"], "chat", 0)
        raw = query.get("wait")
        if raw is None:
            return None
        return min(self.config.hold, query_seconds(raw, "wait"))

    def _action(self, call: Call) -> Action:
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
        end = bool_field(body, "end", False)
        claim = body.get("claim")
        if claim is not None:
            claim = claim_field(claim, end)
        detail = body.get("detail")
        if detail is not None:
            detail = detail_field(detail, end)
        return new_action(Action, ("move", after, text, end, True, None, claim, detail or ""))

    async def pass_turn(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/pass: gives the turn back to the partner."""
        token = require_bearer(call.authorization)
        after = int_field(json_body(call.content_type, call.body), "after")
        seq = await self.store.matches.act(call.match, token, Action("pass", after), time.time())
        self.metrics.moves += 1
        return 200, b'{"seq":%d}' % seq

    async def confirm(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/confirm: the partner agrees or disputes the game is over."""
        token = require_bearer(call.authorization)
        body = json_body(call.content_type, call.body)
        after = int_field(body, "after")
        agree = bool_field(body, "agree", True)
        reason = reason_field(body)
        ending = None
        if self.verdicts:
            ending = await self.verdicts.on_confirm(call.match, token, after, agree)
        action = Action("confirm", after, "" if agree else reason, False, agree, ending)
        seq = await self.store.matches.act(call.match, token, action, time.time())
        return 200, b'{"seq":%d}' % seq

    async def resign(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/resign: ends the match at once; the partner wins."""
        token = require_bearer(call.authorization)
        json_body(call.content_type, call.body)
        seq = await self.store.matches.act(call.match, token, Action("resign"), time.time())
        return 200, b'{"seq":%d}' % seq

    async def cancel(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/cancel: withdraws a seek nobody has joined yet."""
        token = require_bearer(call.authorization)
        await self.store.matches.act(call.match, token, Action("cancel"), time.time())
        return 200, b'{"cancelled":true}'
