"""The endpoints of moderation (docs/fair-play.md#moderation): a player's reports, blocks and
mutes, and the host's admin API behind its own secret (bans, voided ratings, erased names,
the reports). Every one checks its bearer before it reads anything."""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Any

import orjson

from relay.api.calls import Call, Reply
from relay.api.fields.moderation import ban_target, block_kind, report_about, report_text
from relay.api.fields.request import (
    identifier_field,
    json_body,
    query_int,
    require_bearer,
    require_player,
)
from relay.api.limits import RateLimiter
from relay.config import Config
from relay.core.errors import RelayError
from relay.core.moderation import (
    BAN_MOST_SECONDS,
    PUBLIC_ID,
    REPORTS_KEPT,
    Ban,
    banned_error,
)
from relay.core.standings import public_id
from relay.store.base import Store

__all__ = ["REPORTS_PER_HOUR", "ModerationEndpoints", "check_ban"]

REPORTS_PER_HOUR = 20
"""Reports one client address may file an hour (per relay process): the store keeps the
newest REPORTS_KEPT, and a flood must not push real ones out."""

BAD_MATCH = "The field 'match' must be a match id, not {!r}."
BAD_ID = "The field 'id' must be a player's public id (12 characters), not {!r}."
BAD_SECONDS = "The field 'seconds' must be a number of seconds from 1 to {:.0f}, not {!r}."
BAD_REASON = "The field 'reason' must be text of at most 200 characters, not {!r}."


async def check_ban(
    store: Store, digests: tuple[str, ...], client: str, now: float, who: str = ""
) -> None:
    """Raises player/banned when a ban covers one of the player keys (by digest; '' for none)
    or the client's address (`who`, if given, names the banned one in its message when it is
    a key)."""
    ids = tuple(public_id(digest) for digest in digests if digest)
    ban = await store.moderation.banned(ids, client, now)
    if ban is not None:
        named = who if ban.target.startswith("id:") else ""
        raise banned_error(ban, now, named)


class ModerationEndpoints:
    """A player's and the host's moderation endpoints over one store."""

    def __init__(self, config: Config, store: Store) -> None:
        self.config = config
        self.store = store
        self.moderation = store.moderation
        self.report_limiter = RateLimiter(REPORTS_PER_HOUR / 3600.0, float(REPORTS_PER_HOUR))

    # -- a player's ------------------------------------------------------------------------

    async def report(self, call: Call) -> Reply:
        """POST /v1/matches/{match}/report: a seat reports its partner."""
        token = require_bearer(call.authorization)
        body = json_body(call.content_type, call.body)
        about = report_about(body.get("about"))
        text = report_text(body.get("text"))
        now = time.time()

        def admit() -> None:
            # Counted once the token is a seat's: a stranger's reports count nothing.
            wait = self.report_limiter.take(call.client, now)
            if wait:
                raise RelayError("report/too_fast", retry_after=wait)

        filed = await self.moderation.report(call.match, token, about, text, now, admit)
        return 201, orjson.dumps({"report": filed.n})

    async def blocks(self, call: Call) -> Reply:
        """GET /v1/player/blocks: the bearer's player key's blocks and mutes."""
        player = _player(call)
        return 200, _blocks(await self.moderation.blocks(player))

    async def block(self, call: Call) -> Reply:
        """POST /v1/player/blocks: blocks or mutes a match's partner, or lifts one by id."""
        player = _player(call)
        body = json_body(call.content_type, call.body)
        kind = block_kind(body.get("kind"))
        now = time.time()
        if kind is None:
            public = body.get("id")
            if not isinstance(public, str) or PUBLIC_ID.fullmatch(public) is None:
                raise RelayError("request/invalid", BAD_ID.format(public))
            return 200, _blocks(await self.moderation.unblock(player, public))
        match = body.get("match")
        if not isinstance(match, str) or not 1 <= len(match) <= 64:
            raise RelayError("request/invalid", BAD_MATCH.format(match))
        return 200, _blocks(await self.moderation.block(player, match, kind, now))

    # -- the host's ------------------------------------------------------------------------

    def _admin(self, call: Call) -> None:
        """Checks the bearer against the admin secret, first of all."""
        secret = self.config.admin_secret
        if not secret:
            raise RelayError("admin/off")
        given = require_bearer(call.authorization).encode()
        if not hmac.compare_digest(hashlib_digest(given), hashlib_digest(secret)):
            raise RelayError("admin/bad_secret")

    async def bans(self, call: Call) -> Reply:
        """GET /v1/admin/bans: the bans in force."""
        self._admin(call)
        found = await self.moderation.bans(time.time())
        return 200, orjson.dumps({"bans": [ban.as_dict() for ban in found]})

    async def ban(self, call: Call) -> Reply:
        """POST /v1/admin/bans: bans a public id or an address range for a time."""
        self._admin(call)
        body = json_body(call.content_type, call.body)
        target = ban_target(body.get("target"))
        seconds = body.get("seconds")
        if (
            not isinstance(seconds, (int, float))
            or isinstance(seconds, bool)
            or not 1 <= seconds <= BAN_MOST_SECONDS
        ):
            raise RelayError("request/invalid", BAD_SECONDS.format(BAN_MOST_SECONDS, seconds))
        reason = body.get("reason", "")
        if not isinstance(reason, str) or len(reason) > 200:
            raise RelayError("request/invalid", BAD_REASON.format(reason))
        now = time.time()
        ban = Ban(target, now + float(seconds), reason.strip(), now)
        await self.moderation.ban(ban)
        return 201, orjson.dumps(ban.as_dict())

    async def unban(self, call: Call) -> Reply:
        """POST /v1/admin/unban: lifts the ban of a public id or an address range."""
        self._admin(call)
        target = ban_target(json_body(call.content_type, call.body).get("target"))
        lifted = await self.moderation.unban(target)
        return 200, orjson.dumps({"target": target, "lifted": lifted})

    async def void(self, call: Call) -> Reply:
        """POST /v1/admin/void: takes a match's rating back from both seats."""
        self._admin(call)
        body = json_body(call.content_type, call.body)
        match = body.get("match")
        if not isinstance(match, str) or not 1 <= len(match) <= 64:
            raise RelayError("request/invalid", BAD_MATCH.format(match))
        game = identifier_field(body, "game", required=False)
        voided = await self.moderation.void(match, game, time.time())
        return 200, orjson.dumps(voided.as_dict())

    async def erase(self, call: Call) -> Reply:
        """POST /v1/admin/erase: erases a public id's name and chat lines."""
        self._admin(call)
        public = json_body(call.content_type, call.body).get("id")
        if not isinstance(public, str) or PUBLIC_ID.fullmatch(public) is None:
            raise RelayError("request/invalid", BAD_ID.format(public))
        erased = await self.moderation.erase(public, time.time())
        return 200, orjson.dumps(erased.as_dict())

    async def reports(self, call: Call) -> Reply:
        """GET /v1/admin/reports[?limit=N]: the newest reports."""
        self._admin(call)
        limit = query_int(call.query.get("limit"), "limit", 100)
        if not 1 <= limit <= REPORTS_KEPT:
            raise RelayError(
                "request/invalid",
                f"The parameter 'limit' must be from 1 to {REPORTS_KEPT}, not {limit!r}.",
            )
        found = await self.moderation.reports(limit, time.time())
        return 200, orjson.dumps({"reports": [report.as_dict() for report in found]})


def hashlib_digest(value: bytes) -> bytes:
    """Returns a secret's SHA-256, compared in constant time whatever the lengths."""
    return hashlib.sha256(value).digest()


def _player(call: Call) -> str:
    return require_player(call.authorization)


def _blocks(found: list[Any]) -> bytes:
    return orjson.dumps({"blocks": [entry.as_dict() for entry in found]})
