"""The Redis Functions library of the Redis store: the Lua scripts in lua/*.lua (shipped in
the package), registered as one library; every change to a match is one atomic script.

Redis keeps a loaded library with its data and replicates it, and calling a function runs
only its body. The library's name and its functions' names carry VERSION (a digest of the
source), so a relay never calls the functions of another version by mistake; the store loads
the library on any node that does not have it (`relay.store.redis.batch`).

The keys are laid out in `relay.store.redis.keys`. A match script is given the match's hash
as its one key (which routes it to the right node of a Redis Cluster) and builds the other keys of
the same shard from the shard's tagged prefix, so it touches one slot. A game script touches
one game's waiting matches. No script touches two slots: a seek without a room is a game
script that picks a waiting match, then a match script that joins it (see relay.store.redis.seeks).

Every match script takes ARGV[1..5] = the shard's tagged prefix, the match id, now, grace,
keep (read by MATCH_PRELUDE's begin_match); a game script takes KEYS[1..2] = the game's
queue and waiting set, ARGV[1..2] = now, grace (GAME_PRELUDE's begin_game). A move arrives
as its JSON string, encoded in Python; the events are built here, byte for byte as
`relay.store.redis.store` builds them.
"""

from __future__ import annotations

import hashlib
from importlib.resources import files

__all__ = ["FUNCTIONS", "LIBRARY", "VERSION", "source"]

_MATCH, _GAME, _PLAIN = "begin_match(ARGV)", "begin_game(KEYS, ARGV)", ""

_KINDS = {
    "POLL": _MATCH, "ACT": _MATCH, "OPEN": _MATCH, "JOIN": _MATCH, "ROOM": _MATCH,
    "REAP": _MATCH, "OFFER": _MATCH, "CHAT": _MATCH, "LEFT": _MATCH, "TABLE": _MATCH,
    "JUDGED": _MATCH, "ERASE": _MATCH,
    "PAIR": _GAME, "PUSH": _GAME, "ENSURE": _GAME, "REQUEUE": _GAME,
    "PUSH_KEEP": _PLAIN,
    "UNLIST": _PLAIN, "RESERVE": _PLAIN, "REMATCH": _PLAIN, "REMATCH_START": _PLAIN,
    "LOBBY_ADD": _PLAIN, "LOBBY_MOVE": _PLAIN, "RATE": _PLAIN, "RATED": _PLAIN,
    "PENDING": _PLAIN, "TORATE": _PLAIN, "NAME": _PLAIN, "VOID": _PLAIN, "VOIDED": _PLAIN,
    "FIELDS": _PLAIN, "KNOW": _PLAIN, "HOLD": _PLAIN, "TAKE": _PLAIN, "PASSKEY_ADD": _PLAIN,
    "CHALLENGE_OUT": _PLAIN, "CHALLENGE_MARK": _PLAIN, "CHALLENGE_IN": _PLAIN,
    "CHALLENGE_ANSWER": _PLAIN, "FOLLOW": _PLAIN,
}  # fmt: skip
"""Each script, by name, and how its body begins (a match or a game script, or neither)."""


def source(name: str) -> str:
    """Returns the Lua of the script or prelude called name (lua/<name in lower case>.lua)."""
    return (files(__package__) / "lua" / f"{name.lower()}.lua").read_text(encoding="utf-8")


_BODIES = {name: (begin, source(name)) for name, begin in _KINDS.items()}

_PRELUDES = (source("MATCH_PRELUDE"), source("GAME_PRELUDE"), source("TRIM"))

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
