"""The Redis protocol as the store's own connections read it: hiredis parses the replies, and
an error reply becomes the exception redis-py's parser gives it (MOVED and ASK as MovedError
and AskError, which the cluster code follows; LOADING as BusyLoadingError), from a table kept
here rather than from redis-py's private parsers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import hiredis
from redis.exceptions import (
    AskError,
    AuthenticationError,
    BusyLoadingError,
    ClusterCrossSlotError,
    ClusterDownError,
    ExecAbortError,
    InvalidResponse,
    MasterDownError,
    MovedError,
    NoPermissionError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

__all__ = ["MORE", "error_of", "pack", "reader"]

MORE = object()
"""What a reader gives when no whole reply has arrived yet."""

_BY_CODE: dict[str, type[RedisError]] = {
    "OOM": OutOfMemoryError,
    "WRONGPASS": AuthenticationError,
    "EXECABORT": ExecAbortError,
    "LOADING": BusyLoadingError,
    "NOSCRIPT": NoScriptError,
    "READONLY": ReadOnlyError,
    "NOAUTH": AuthenticationError,
    "NOPERM": NoPermissionError,
    "ASK": AskError,
    "TRYAGAIN": TryAgainError,
    "MOVED": MovedError,
    "CLUSTERDOWN": ClusterDownError,
    "CROSSSLOT": ClusterCrossSlotError,
    "MASTERDOWN": MasterDownError,
}
"""The exception of an error reply by its code, as redis-py's parser maps them (a code not
here, such as WRONGTYPE, BUSY or NOREPLICAS, gives ResponseError with the whole message)."""

_BY_ERR: dict[str, type[RedisError]] = {
    "max number of clients reached": RedisConnectionError,
    "invalid password": AuthenticationError,
    "AUTH <password> called without any password configured for the default user. Are you "
    "sure your configuration is correct?": AuthenticationError,
    "Client sent AUTH, but no password is set": AuthenticationError,
}
"""The ERR messages that redis-py raises as something other than ResponseError."""


def error_of(message: str) -> RedisError:
    """Returns an error reply as redis-py's parser gives it: a known code's exception with
    the rest of the message (MOVED 3999 127.0.0.1:6381 as MovedError('3999 127.0.0.1:6381')),
    ERR's message without the code, and any other reply whole as ResponseError."""
    code, _, rest = message.partition(" ")
    if code == "ERR":
        return _BY_ERR.get(rest, ResponseError)(rest)
    kind = _BY_CODE.get(code)
    return ResponseError(message) if kind is None else kind(rest)


def reader(decode: tuple[str, str] | None = None) -> Any:
    """Returns a hiredis reader of RESP2 replies: an error reply as error_of's exception, and
    text decoded with `decode` (an encoding and its error handling) if given."""
    options = {} if decode is None else {"encoding": decode[0], "errors": decode[1]}
    return hiredis.Reader(
        protocolError=InvalidResponse, replyError=error_of, notEnoughData=MORE, **options
    )


def pack(commands: Iterable[tuple[Any, ...]]) -> bytes:
    """Returns the commands in the Redis protocol, as one buffer."""
    return b"".join(hiredis.pack_command(command) for command in commands)
