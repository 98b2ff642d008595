"""The Redis Functions library of the Redis store: every script of `relay.store.redis.scripts`,
`relay.store.redis.rematch` and `relay.store.redis.lobby`, registered as one library.

Redis keeps a loaded library with its data and replicates it, and calling a function runs
only its body. The library's name and its functions' names carry VERSION (a digest of the
source), so a relay never calls the functions of another version by mistake; the store loads
the library on any node that does not have it (`relay.store.redis.batch`).
"""

from __future__ import annotations

import hashlib

from relay.store.redis import lobby as redis_lobby
from relay.store.redis import rematch as redis_rematch
from relay.store.redis import scripts as redis_scripts

__all__ = ["FUNCTIONS", "LIBRARY", "VERSION"]

_MATCH, _GAME, _PLAIN = "begin_match(ARGV)", "begin_game(KEYS, ARGV)", ""

_BODIES = {
    "POLL": (_MATCH, redis_scripts.POLL),
    "ACT": (_MATCH, redis_scripts.ACT),
    "OPEN": (_MATCH, redis_scripts.OPEN),
    "JOIN": (_MATCH, redis_scripts.JOIN),
    "ROOM": (_MATCH, redis_scripts.ROOM),
    "REAP": (_MATCH, redis_scripts.REAP),
    "PAIR": (_GAME, redis_scripts.PAIR),
    "PUSH": (_GAME, redis_scripts.PUSH),
    "ENSURE": (_GAME, redis_scripts.ENSURE),
    "REQUEUE": (_GAME, redis_scripts.REQUEUE),
    "UNLIST": (_PLAIN, redis_scripts.UNLIST),
    "RESERVE": (_PLAIN, redis_scripts.RESERVE),
    "REMATCH": (_PLAIN, redis_rematch.REMATCH),
    "REMATCH_START": (_PLAIN, redis_rematch.REMATCH_START),
    "LOBBY_ADD": (_PLAIN, redis_lobby.LOBBY_ADD),
    "LOBBY_MOVE": (_PLAIN, redis_lobby.LOBBY_MOVE),
}

_PRELUDES = (redis_scripts.MATCH_PRELUDE, redis_scripts.GAME_PRELUDE, redis_lobby.TRIM)

VERSION = hashlib.sha1(
    "".join([*_PRELUDES, *(body for _, body in _BODIES.values())]).encode()
).hexdigest()[:12]
"""A digest of the library's source."""

FUNCTIONS = {name: f"movewire_{VERSION}_{name.lower()}" for name in _BODIES}
"""The name each script is registered under."""

LIBRARY = "\n".join(
    [
        f"#!lua name=movewire_{VERSION}",
        *_PRELUDES,
        *(
            f"redis.register_function('{FUNCTIONS[name]}', function(KEYS, ARGV)\n"
            f"{begin}\n{body}\nend)"
            for name, (begin, body) in _BODIES.items()
        ),
    ]
)
"""The library's source, as FUNCTION LOAD takes it."""
