"""The host's states by the short names the state-machine tests write them with."""

from __future__ import annotations

from sdk import State

__all__ = ["ENDED", "LISTENING", "TO_MOVE", "WAITING", "WAIT_MOVE"]

LISTENING = State.LISTENING
TO_MOVE = State.PLAYING_TO_MOVE
WAIT_MOVE = State.PLAYING_WAIT_MOVE
WAITING = State.WAITING_SERVER_RESPONSE
ENDED = State.GAME_ENDED
