"""Where the Redis store keeps things: key names, hash tags and shards.

Every match lives in one of `SHARDS` shards, told by the first character of its id (drawn
at random, so matches spread evenly). Each shard has a hash tag whose Redis
Cluster slot lies in its own 1/SHARDS of the slot space, so the shards of a cluster whose
masters hold equal slot ranges (as `redis-cli --cluster create` makes them) are spread evenly
over the masters. All of a match's keys, its notification channel and its shard's deadlines
and counts share the shard's tag, so every script that changes a match touches one slot.

Keys, under a prefix P (default ``movewire:``), for a match with id I in shard tag T:

- ``P{T}m:I``        hash: game, version, room, status, h0/h1 (token digests), seen0/seen1,
                     since, turn, first, ender, last (number of events), said (a
                     game-ending move's words, as its end's `ended` fields), and w0/w1: each
                     seat's latest write ('seq|write'), so a write sent again is
                     recognised until its seat writes anew; with a time
                     control, tc and tcj (its key and JSON), l0/l1 (each seat's ms left when
                     its turn last started or ended) and tat (when the turn started, ms)
- ``P{T}e:I``        list: the event log, the JSON bytes sent on the wire (event N at index N-1)
- ``P{T}w:I:0``, ``P{T}w:I:1``  sharded pub/sub channels: 'seq event' for each event
                     appended, on the channel of seq's parity (a wait for event N follows
                     N's, so in a match each process hears only the events that answer its
                     waits); 'x' on both when the match expires
- ``P{T}deadlines``  sorted set: id -> the time by which the reaper must look at the match
- ``P{T}counts``     hash: status -> matches of the shard (for /metrics)
- ``P{T}r:G:R``      string: id of the match holding private room R of game G (room matches are
                     drawn in the shard of their room, so a room seek is one script)
- ``P{T}t:D``        string: match:seat:until of a room seek by the seeker's own token (digest D)

And per game G, under the tag ``g:G`` (one slot per game, written at seeks only):

- ``P{g:G}q:V``      list: ids of matches waiting for a player of version V (oldest first);
                     ``q:V~C`` for those of time control C (its key, relay.core.clock)
- ``P{g:G}waiting``  sorted set: id -> since, the matches of G waiting for a player
                     (the --max-waiting limit)
- ``P{g:G}t:D``      string: match:seat:until of a public seek by the seeker's own token

A match's hash also holds p0/p1 (the digest of the player key each seat was taken with) and
c0/c1 (each seat's contact handle), for seats whose seek gave one. Per player key with
digest D, under the tag ``p:D`` (one slot per player key, written after the seek's own
steps, and healed by every read of it):

- ``P{p:D}matches``  sorted set: id -> when the key's seek took its seat, the matches it
                     seated (GET /v1/player/matches); the reaper unlists a match it forgets
- ``P{p:D}games``    set: the games the key has ratings in

A match between two player keys also holds `rate` ('pending' from its end until its rating is
settled, then 'done' or 'no') and, once rated, `ratings` ('before0 after0 before1 after1'),
and a game-ending move's `claim` (a match made by a challenge with rated: false holds `cas`
'1' and is never rated); ``P{T}torate`` (sorted set: id -> when it ended) lists the
shard's pending ones. The ratings themselves live in each game's slot
(`relay.store.redis.ratings`).
"""

from __future__ import annotations

import hashlib
import itertools

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from relay.core.clock import Clock, TimeControl
from relay.core.model import ID_FIRST, MatchInfo, Status, new_match_id

__all__ = [
    "ALPHABET",
    "INFO_FIELDS",
    "SHARDS",
    "TAGS",
    "GameKeys",
    "Layout",
    "check_prefix",
    "match_info",
    "new_id",
    "room_shard",
    "shard_of",
]

ALPHABET = ID_FIRST
"""The characters a match id begins with; the first one tells its shard."""

SHARDS = len(ALPHABET)
"""How many shards matches are spread over."""


def _tags() -> tuple[str, ...]:
    """Returns one short hash tag per shard, shard i's slot in the i-th 1/SHARDS of slots."""
    width = REDIS_CLUSTER_HASH_SLOTS // SHARDS
    found: dict[int, str] = {}
    for number in itertools.count():
        tag = f"s{number}"
        shard = key_slot(tag.encode()) // width
        found.setdefault(shard, tag)
        if len(found) == SHARDS:
            return tuple(found[shard] for shard in range(SHARDS))
    raise AssertionError("unreachable")  # pragma: no cover


TAGS = _tags()
"""The hash tag of each shard."""

_SHARD_OF = {character: index for index, character in enumerate(ALPHABET)}


def check_prefix(prefix: str) -> str:
    """Returns the prefix, refusing one with a brace (it would replace the keys' hash tags)."""
    if "{" in prefix or "}" in prefix:
        raise ValueError(f"The Redis key prefix {prefix!r} must not contain braces.")
    return prefix


def shard_of(match: str) -> int:
    """Returns the shard of a match id (0 for an id that is not one of the store's)."""
    return _SHARD_OF.get(match[:1], 0)


def new_id(shard: int | None = None) -> str:
    """Returns a fresh, unguessable match id, in the given shard or a random one."""
    return new_match_id(None if shard is None else ALPHABET[shard])


def room_shard(game: str, room: str) -> int:
    """Returns the shard whose matches hold private room `room` of `game`."""
    digest = hashlib.sha256(f"{game}:{room}".encode()).digest()
    return digest[0] % SHARDS


class Layout:
    """The key names under one prefix."""

    __slots__ = ("_tagged", "prefix")

    def __init__(self, prefix: str) -> None:
        self.prefix = check_prefix(prefix)
        self._tagged = tuple(f"{prefix}{{{tag}}}" for tag in TAGS)

    def tagged(self, match: str) -> str:
        """Returns the prefix and hash tag every key of the match's shard starts with."""
        return self._tagged[_SHARD_OF.get(match[:1], 0)]

    def match(self, match: str) -> str:
        """Returns the key of the match's hash."""
        return f"{self._tagged[_SHARD_OF.get(match[:1], 0)]}m:{match}"

    def channel(self, match: str, seq: int) -> str:
        """Returns the match's notification channel of the events numbered like seq (odd
        or even): the one a wait for event seq follows."""
        return f"{self._tagged[_SHARD_OF.get(match[:1], 0)]}w:{match}:{seq % 2}"

    def player(self, digest: str) -> str:
        """Returns the key of the matches a player key (by its digest) seated."""
        return f"{self.prefix}{{p:{digest}}}matches"

    def shard(self, shard: int) -> tuple[str, str, str]:
        """Returns a shard's tagged prefix, deadlines key and counts key."""
        tagged = self._tagged[shard]
        return tagged, f"{tagged}deadlines", f"{tagged}counts"


class GameKeys:
    """The keys of one game's waiting matches."""

    __slots__ = ("queue", "tagged", "waiting")

    def __init__(self, prefix: str, game: str, version: str) -> None:
        self.tagged = f"{prefix}{{g:{game}}}"
        self.queue = f"{self.tagged}q:{version}"
        self.waiting = f"{self.tagged}waiting"

    def memo(self, digest: str) -> str:
        """Returns the key remembering what a seek by this token digest got."""
        return f"{self.tagged}t:{digest}"


INFO_FIELDS = (
    "game", "version", "room", "status", "turn", "last", "first", "tc", "l0", "l1", "tat",
    "n0", "n1", "rate", "ratings", "p0", "p1",
)  # fmt: skip
"""The fields of a match's hash that make its summary (match_info)."""


def match_info(match: str, values: list[bytes | None]) -> MatchInfo | None:
    """Returns the summary of a match from its hash's INFO_FIELDS (None: no such match)."""
    (game, version, room, status, turn, last, first, control, left0, left1, turn_at, n0, n1,
     rate, ratings, p0, p1) = (
        None if value is None else value.decode() for value in values
    )  # fmt: skip
    if status is None:
        return None
    clock = None
    parsed = TimeControl.from_key(control or "")
    if parsed is not None:
        base = parsed.base * 1000
        clock = Clock(parsed, (int(left0 or base), int(left1 or base)), int(turn_at or 0))
    return MatchInfo(
        match=match,
        game=game or "",
        version=version or "",
        room=room,
        status=Status(status),
        turn=int(turn) if turn and status == Status.PLAYING else None,
        last=int(last or 0),
        first=int(first) if first else None,
        clock=clock,
        names=(n0, n1),
        rated=_RATED.get(rate or "", False),
        ratings=_ratings(ratings),
        keys=(p0 or "", p1 or ""),
    )


_RATED: dict[str, bool | str] = {"pending": "pending", "done": True, "void": "voided"}
"""MatchInfo.rated by a match hash's 'rate'."""


def _ratings(text: str | None) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Returns a match hash's 'ratings' ('before0 after0 before1 after1') by seat."""
    if not text:
        return None
    b0, a0, b1, a1 = (float(value) for value in text.split())
    return (b0, a0), (b1, a1)
