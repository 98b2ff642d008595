"""The errors the SDK raises, each a subclass of the matching built-in."""

from __future__ import annotations

__all__ = [
    "NO_PASS_REASON",
    "NO_REASON",
    "REASON_LIMIT",
    "ConnectionLostError",
    "HostStateError",
    "IllegalMoveError",
    "MoveRejected",
    "NotYourTurnError",
    "ProtocolError",
    "RelayRefusedError",
    "RelayUnreachableError",
    "clean_reason",
]


class HostStateError(RuntimeError):
    """Raised when a host method is called in a state that does not allow it."""


class NotYourTurnError(HostStateError):
    """Raised when a game calls `host.move()` while it does not have the turn; nothing is sent."""


REASON_LIMIT = 200
"""The most characters of a dispute's reason the relay keeps (the SDK cuts a longer one)."""
NO_REASON = "it breaks the game's rules"
"""The reason sent when a game rejects a move without saying why."""
NO_PASS_REASON = "there was a move to make"
"""The reason sent when a game rejects a pass without saying why."""


class MoveRejected(ValueError):
    """Raised by a game's `receive_move()` for a move it does not accept (an illegal one), or
    by its `receive_pass()` for a false pass: the host disputes it, whether or not it claimed
    to end the game, and sends `reason` with the dispute.

    `reason` says why, in a few words for people ("column 3 is full"): the partner is told it,
    and the relay's log and record keep it. Without one the host sends a default text.
    """

    def __init__(self, reason: str | None = None) -> None:
        super().__init__(*(() if reason is None else (reason,)))
        self.given = None if reason is None else str(reason)
        """The reason as the game gave it (None: none)."""

    @property
    def reason(self) -> str:
        """Returns the reason to send: the one given, made one line of at most REASON_LIMIT
        characters, or NO_REASON when none was given (or nothing is left of it)."""
        return clean_reason(self.given) or NO_REASON

    def __repr__(self) -> str:
        return f"MoveRejected({self.given!r})"


class IllegalMoveError(MoveRejected):
    """Raised by a game's rules when a move string is malformed or a move is not legal in the
    position ("column 3 is full"); a game's rules raise it, or a subclass of it.

    It is a MoveRejected (so a ValueError): raised from `receive_move()` on the partner's move,
    the host disputes the move with its words. The board kits catch it, and any other error
    their rules raise on a partner's move, as the same dispute.
    """

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.given!r})"


def clean_reason(text: str | None) -> str:
    """Returns a dispute's reason as the relay takes it: control characters made spaces,
    trimmed, at most REASON_LIMIT characters ("" for None)."""
    if text is None:
        return ""
    line = "".join(" " if _is_control(char) else char for char in text).strip()
    return line[:REASON_LIMIT].rstrip()


def _is_control(char: str) -> bool:
    point = ord(char)
    return point < 0x20 or 0x7F <= point < 0xA0 or char in "\u2028\u2029"


class RelayRefusedError(Exception):
    """Raised when the relay answers with an error that retrying cannot fix (a 4xx), or a
    rate limit a call tells at once (`retry_after`: the seconds the relay said to wait)."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: float | None = None
    ) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        super().__init__(f"{status} {code}: {message}")

    def __repr__(self) -> str:
        after = "" if self.retry_after is None else f", {self.retry_after!r}"
        return f"RelayRefusedError({self.status!r}, {self.code!r}, {self.message!r}{after})"


class ConnectionLostError(ConnectionError):
    """Raised when the relay could not be reached for the whole give-up time."""


class RelayUnreachableError(ConnectionLostError):
    """Raised when a client's very first request gets no answer at all for `first_contact`."""


class ProtocolError(ValueError):
    """Raised when the relay answers something protocol v1 does not allow."""
