"""The errors the SDK raises, each a subclass of the matching built-in."""

from __future__ import annotations

__all__ = [
    "ConnectionLostError",
    "HostStateError",
    "MoveRejected",
    "NotYourTurnError",
    "ProtocolError",
    "RelayRefusedError",
    "RelayUnreachableError",
]


class HostStateError(RuntimeError):
    """Raised when a host method is called in a state that does not allow it."""


class NotYourTurnError(HostStateError):
    """Raised when a game calls `host.move()` while it does not have the turn; nothing is sent."""


class MoveRejected(ValueError):
    """Raised by a game's `receive_move()` for a move it does not accept (an illegal one):
    the host disputes that move, whether or not it claimed to end the game."""


class RelayRefusedError(Exception):
    """Raised when the relay answers with an error that retrying cannot fix (a 4xx)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        self.status = status
        self.code = code
        self.message = message
        super().__init__(f"{status} {code}: {message}")

    def __repr__(self) -> str:
        return f"RelayRefusedError({self.status!r}, {self.code!r}, {self.message!r})"


class ConnectionLostError(ConnectionError):
    """Raised when the relay could not be reached for the whole give-up time."""


class RelayUnreachableError(ConnectionLostError):
    """Raised when a client's very first request gets no answer at all for `first_contact`."""


class ProtocolError(ValueError):
    """Raised when the relay answers something protocol v1 does not allow."""
