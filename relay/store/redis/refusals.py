"""How the Redis store turns what goes wrong into the relay's errors: a script's refusal into
its RelayError, and a Redis that cannot answer into 503 server/unavailable."""

from __future__ import annotations

from typing import Any

from redis.exceptions import (
    AskError,
    ClusterDownError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.model import (
    StoreSettings,
    behind,
    control_mismatch,
    finished,
    too_long,
    too_many_bytes,
)
from relay.core.players import same_player
from relay.core.reasons import Reason
from relay.core.table import not_stalled

__all__ = [
    "DOWN",
    "UNAVAILABLE",
    "Refusal",
    "act_error",
    "claim_error",
    "loading",
    "read_error",
    "refusal_of",
    "seek_error",
]

UNAVAILABLE = "The match store (Redis) cannot be reached; retry shortly."
"""The message of the 503 answer while Redis is down, restarting or loading its data."""

DOWN = (
    RedisConnectionError,
    RedisTimeoutError,
    ReadOnlyError,
    OutOfMemoryError,
    OSError,
    ClusterDownError,
    TryAgainError,
    RedisClusterException,
    AskError,  # MOVED too: still redirected after the store's tries, as a slot moves
)
"""Redis failures that mean 'not now' (503) rather than a bug (500)."""


def loading(exc: ResponseError) -> bool:
    """Returns whether Redis refused for now: still loading its data, a replica without its
    master, a cluster without a master for the slot, or a primary without the replicas that
    min-replicas-to-write asks for."""
    return str(exc).startswith(("LOADING", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "NOREPLICAS"))


class Refusal(Exception):
    """Raised when a script refuses a call: the error code and what the message needs."""

    def __init__(self, code: str, detail: str | int | None) -> None:
        super().__init__(code, detail)
        self.code = code
        self.detail = detail


def refusal_of(answer: list[Any]) -> Refusal:
    """Returns the Refusal a script answered as {'e', code[, detail]}."""
    detail = answer[2] if len(answer) > 2 else None
    return Refusal(answer[1].decode(), detail.decode() if isinstance(detail, bytes) else detail)


def read_error(refusal: Refusal, match: str, after: int = 0) -> RelayError:
    """Returns the error of a refused read of a match's log."""
    if refusal.code == "match/unknown":
        return RelayError("match/unknown", f"No match {match!r}.")
    if refusal.code == "match/behind":
        return behind(after, int(refusal.detail or 0))
    return RelayError(refusal.code)


def seek_error(
    refusal: Refusal, game: str, version: str, room: str | None, settings: StoreSettings,
    control: TimeControl | None,
) -> RelayError:  # fmt: skip
    """Returns the error of a refused seek."""
    if refusal.code == "limit/waiting":
        return RelayError(
            "limit/waiting",
            f"{settings.max_waiting} matches of {game!r} are waiting.",
            retry_after=settings.grace,
        )
    if refusal.code == "room/version_mismatch":
        return RelayError(
            "room/version_mismatch",
            f"Room {room!r} waits for {game!r} version {refusal.detail!r}, not {version!r}.",
        )
    if refusal.code == "room/control_mismatch":
        waiting = TimeControl.from_key(str(refusal.detail or ""))
        return control_mismatch(room or "", waiting, control)
    if refusal.code == "room/full":
        return RelayError("room/full", f"Room {room!r} of {game!r} is full.")
    if refusal.code == "room/same_player":
        return same_player(room or "")
    return RelayError(refusal.code)


def act_error(refusal: Refusal, match: str, after: int, settings: StoreSettings) -> RelayError:
    """Returns the error of a refused move, pass, confirm, resign or cancel."""
    if refusal.code == "turn/stale":
        return RelayError(
            "turn/stale", f"'after' is {after} but the last event is {refusal.detail}."
        )
    if refusal.code == "turn/not_yours" and refusal.detail == "confirm":
        return RelayError("turn/not_yours", "The partner confirms the end, not its sender.")
    if refusal.code == "match/too_long":
        if refusal.detail == "bytes":
            return too_many_bytes(settings.max_log_bytes)
        return too_long(settings.max_events)
    if refusal.code == "match/finished":
        return finished(refusal.detail == Reason.TIMEOUT)
    return read_error(refusal, match)


def claim_error(detail: str | int | None) -> RelayError:
    """Returns the error of a refused claim, from the detail ACT answered: 'yours', '' (no
    claim in this match now) or the seconds until one."""
    text = "" if detail is None else str(detail)
    if text == "yours":
        return not_stalled(None, True)
    return not_stalled(float(text) if text else None, False)
