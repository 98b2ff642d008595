"""The endpoints of challenges: a player key challenges another by its public id, lists the
challenges made to it and by it (long-polled), accepts, declines or withdraws one; and the ids
it follows and its recent opponents, which the lobby offers to challenge
(docs/protocol.md#challenges).

`ChallengeEndpoints.told` is the one hook that hears of a challenge made, once it is stored
(Web Push hangs on it); nothing listens by default."""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson

from relay.api.calls import Call, Reply
from relay.api.fields.challenges import (
    action_field,
    challenge_id_field,
    colour_field,
    public_id_field,
)
from relay.api.fields.request import (
    bool_field,
    identifier_field,
    json_body,
    query_int,
    query_seconds,
    require_player,
)
from relay.api.fields.seek import control_field, display_name_field
from relay.api.holds import Holds
from relay.api.limits import RateLimiter
from relay.api.moderation import check_ban
from relay.config import Config
from relay.core import challenges as rules
from relay.core.challenges import Challenge, ChallengeNotice, ChallengeSink, Followed
from relay.core.errors import RelayError
from relay.core.model import hash_token
from relay.core.moderation import banned_error
from relay.core.standings import public_id, seat_id
from relay.core.text_policy import NAME_TAKEN, skeletons
from relay.store.base import Store

__all__ = ["RECHECK", "ChallengeEndpoints"]

log = logging.getLogger("relay")

RECHECK = 5.0
"""Seconds a held poll of a key's challenges waits before it reads them again (a notice lost
on a shared store only delays an answer)."""

THEIRS_BANNED = "The player you challenge"

BLOCK_ON_DECLINE = "The field 'block' goes with 'action': 'decline' only."

NOT_RATED = (
    "This relay does not rate {!r} (or keeps no ratings): a challenge to it takes 'rated': false."
)


class ChallengeEndpoints:
    """Challenges, follows and recent opponents, over one store, with this process's pace of
    challenges per client address."""

    def __init__(self, config: Config, store: Store, holds: Holds) -> None:
        self.config = config
        self.store = store
        self.holds = holds
        self.limiter = RateLimiter(rules.PER_HOUR / 3600.0, float(rules.PER_HOUR))
        """Per client address: challenges made."""
        self.told: ChallengeSink | None = None
        """Told of each challenge made, after it is stored (ChallengeNotice): the hook Web
        Push sets; None tells nobody."""

    @staticmethod
    def _player(call: Call) -> str:
        """Returns the bearer's player key, checked before any other work."""
        return require_player(call.authorization)

    def _answer(self, challenge: Challenge) -> dict[str, Any]:
        return challenge.answer(self.config.names)

    # -- challenges ------------------------------------------------------------------------

    async def challenge(self, call: Call) -> Reply:
        """POST /v1/player/challenges: the bearer challenges a public id on its terms."""
        player = self._player(call)
        now = time.time()
        wait = self.limiter.take(call.client, now)
        if wait:
            raise RelayError("challenge/too_fast", retry_after=wait)
        body = json_body(call.content_type, call.body)
        to = public_id_field(body, "to")
        game = identifier_field(body, "game", required=True)
        assert game is not None
        version = identifier_field(body, "version", required=False, empty=True) or ""
        control = control_field(body)
        colour = colour_field(body)
        rated = bool_field(body, "rated", False)
        name = display_name_field(body) if self.config.names else None
        if self.config.games and game not in {known.name for known in self.config.games}:
            raise RelayError("game/unknown", f"This relay does not host the game {game!r}.")
        ratings = self.config.store.ratings
        if rated and (ratings is None or not ratings.rates(game)):
            raise RelayError("request/invalid", NOT_RATED.format(game))
        digest = hash_token(player)
        me = public_id(digest)
        if to == me:
            raise RelayError("challenge/self")
        await check_ban(self.store, (digest,), call.client, now)
        part = self.store.challenges
        theirs = await part.digest_of(to)
        if theirs is None:
            raise RelayError("player/unknown", f"The relay knows no player key by {to!r}.")
        await self._check_theirs(theirs, now)
        if await part.blocked(digest, theirs):
            raise RelayError("challenge/blocked")
        if name is not None and not await self.store.players.claim_name(
            skeletons(name), player, now
        ):
            raise RelayError("name/taken", NAME_TAKEN.format(name))
        made = Challenge(
            rules.new_challenge_id(to), me, digest, name, to, theirs, game, version, control,
            colour, rated, now, now + rules.lapse_for(control),
        )  # fmt: skip
        await part.make(made, now)
        self._tell(ChallengeNotice(theirs, made.id, made.sender_name, game, made.until))
        return 201, orjson.dumps(self._answer(made))

    def _tell(self, notice: ChallengeNotice) -> None:
        """Tells the hook of a challenge stored; a hook that fails is logged, and the
        challenge stands (its answer is the challenger's all the same)."""
        told = self.told
        if told is None:
            return
        try:
            told(notice)
        except Exception:
            log.exception("the challenge hook failed on challenge %s", notice.challenge)

    async def _check_theirs(self, digest: str, now: float) -> None:
        """Refuses a challenge to (or an accept of a challenge by) a key the host banned."""
        ban = await self.store.moderation.banned((public_id(digest),), None, now)
        if ban is not None:
            raise banned_error(ban, now, THEIRS_BANNED)

    async def challenges(self, call: Call) -> Reply:
        """GET /v1/player/challenges[?after=V&wait=S]: the bearer's challenges, both ways."""
        player = self._player(call)
        query = call.query
        after = query_int(query.get("after"), "after", 0) if "after" in query else None
        hold = self.config.hold
        if "wait" in query:
            hold = min(hold, query_seconds(query["wait"], "wait"))
        me = public_id(hash_token(player))
        part = self.store.challenges
        listed = await part.listed(me, time.time())
        if after is not None and listed.version <= after and hold > 0 and not self.holds.closing:
            key = self.holds.take("challenges", hash_token(player))
            try:
                deadline = time.monotonic() + hold
                while listed.version <= after and not self.holds.closing:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    await part.wait(me, after, min(left, RECHECK))
                    listed = await part.listed(me, time.time())
            finally:
                self.holds.release(key)
        return 200, orjson.dumps(
            {
                "version": listed.version,
                "incoming": [self._answer(c) for c in listed.incoming],
                "outgoing": [self._answer(c) for c in listed.outgoing],
            }
        )

    async def challenge_answer(self, call: Call) -> Reply:
        """POST /v1/player/challenges/answer: the bearer accepts, declines (and may block its
        challenger) or withdraws."""
        player = self._player(call)
        body = json_body(call.content_type, call.body)
        challenge = challenge_id_field(body)
        action = action_field(body)
        name = display_name_field(body) if self.config.names and action == "accept" else None
        block = bool_field(body, "block", False)
        if block and action != "decline":
            raise RelayError("request/invalid", BLOCK_ON_DECLINE)
        digest = hash_token(player)
        now = time.time()
        part = self.store.challenges
        found: list[Challenge] = []
        if action == "accept" or block:
            me = public_id(digest)
            found = [c for c in (await part.listed(me, now)).incoming if c.id == challenge]
            if action == "accept" and found and found[0].state == "open":
                sender = found[0].sender_key
                await check_ban(self.store, (digest,), call.client, now)
                await self._check_theirs(sender, now)
                if await part.blocked(digest, sender):
                    raise RelayError("challenge/blocked")
                if name is not None and not await self.store.players.claim_name(
                    skeletons(name), player, now
                ):
                    raise RelayError("name/taken", NAME_TAKEN.format(name))
        settled = await part.answer(challenge, digest, action, now, name)
        if block and found:
            # Declined, and its challenger blocked: it challenges this key, and meets it, no more.
            await self.store.moderation.block_key(
                player, found[0].sender_key, found[0].sender_name, "block", now
            )
        return 200, orjson.dumps(self._answer(settled))

    # -- follows and opponents -------------------------------------------------------------

    async def follows(self, call: Call) -> Reply:
        """GET /v1/player/follows: the ids the bearer follows, newest first."""
        me = public_id(hash_token(self._player(call)))
        return 200, _follows(await self.store.challenges.follows(me))

    async def follow(self, call: Call) -> Reply:
        """POST /v1/player/follows: the bearer follows an id, or stops following it."""
        player = self._player(call)
        body = json_body(call.content_type, call.body)
        followed = public_id_field(body, "id")
        follow = bool_field(body, "follow", True)
        name = display_name_field(body) if self.config.names and follow else None
        me = public_id(hash_token(player))
        part = self.store.challenges
        if not follow:
            return 200, _follows(await part.unfollow(me, followed))
        if followed == me:
            raise RelayError("challenge/self", "A player key does not follow itself.")
        entry = Followed(followed, name, time.time())
        return 200, _follows(await part.follow(me, entry, rules.FOLLOWS_MOST))

    async def opponents(self, call: Call) -> Reply:
        """GET /v1/player/opponents: the bearer's recent opponents that had player keys."""
        player = self._player(call)
        found = await self.store.players.matches(player, time.time())
        seen: dict[str, dict[str, Any]] = {}
        for entry in sorted(found, key=lambda entry: -entry.since):
            info = entry.info
            theirs = 1 - entry.seat
            opponent = seat_id(info.keys[theirs])
            if opponent is None or opponent in seen:
                continue
            name = info.names[theirs] if self.config.names else None
            seen[opponent] = {
                "id": opponent, "name": name, "game": info.game, "match": info.match,
                "at": entry.since,
            }  # fmt: skip
            if len(seen) >= rules.OPPONENTS_MOST:
                break
        return 200, orjson.dumps({"opponents": list(seen.values())})


def _follows(found: list[Followed]) -> bytes:
    return orjson.dumps({"follows": [entry.as_dict() for entry in found]})
