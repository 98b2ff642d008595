"""What the host does with the partner's move or pass: the game's answer, read as a Reply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sdk import _endings as endings
from sdk._claims import check_claim
from sdk.errors import NO_PASS_REASON, NO_REASON, MoveRejected, clean_reason
from sdk.events import Moved, Passed
from sdk.game import Game
from sdk.state import State

__all__ = ["BAD_ANSWER", "Reply", "reply_to"]

BAD_ANSWER = (
    "{game}.{method}() must return State.PLAYING_TO_MOVE, PLAYING_WAIT_MOVE "
    "or GAME_ENDED, not {answer!r}"
)

_ANSWERS = frozenset({State.PLAYING_TO_MOVE, State.PLAYING_WAIT_MOVE, State.GAME_ENDED})


@dataclass(frozen=True, slots=True)
class Reply:
    """What the host does next: give this side the turn, pass, confirm an end, or dispute."""

    kind: Literal["turn", "pass", "confirm", "dispute"]
    agree: bool = True
    """For a confirm: whether the game agrees the game is over."""
    dialog: str = ""
    """For a dispute: what this side's player is told."""
    reason: str = ""
    """For a dispute (or a confirm that disagrees): the reason sent to the relay."""


def reply_to(game: Game, event: Moved | Passed, number: int | None = None) -> Reply:
    """Hands the partner's move or pass to the game; returns what its answer calls for.

    A move sent with `end` is confirmed (agreed only if the game says GAME_ENDED and, when the
    move claims a result, its `result()` is the claim's mirror or cannot tell). A move or
    pass the game rejects (MoveRejected), or a move that ends the game by this side's rules
    though not by the partner's, is disputed, with a reason. `number` is the move's number in
    the match, for the dialog. Raises ValueError for an answer that is no State of the three a
    game may give.
    """
    try:
        if isinstance(event, Moved):
            method, answer = "receive_move", game.receive_move(event.move)
        else:
            method, answer = "receive_pass", game.receive_pass()
    except MoveRejected as rejection:
        moved = isinstance(event, Moved)
        reason = clean_reason(rejection.given)
        legacy = event.move if isinstance(event, Moved) else "pass"
        if not reason or rejection.given == legacy:
            # None given (games before reasons raised MoveRejected(move), or ("pass")): the
            # default text.
            reason = NO_REASON if moved else NO_PASS_REASON
        dialog = endings.rejected(number, not moved, reason)
        return Reply("dispute", dialog=dialog, reason=reason)
    if answer not in _ANSWERS:
        name = type(game).__name__
        raise ValueError(BAD_ANSWER.format(game=name, method=method, answer=answer))
    if isinstance(event, Moved) and event.end:
        if answer != State.GAME_ENDED:
            return Reply("confirm", agree=False, reason=endings.NOT_OVER)
        wrong = "" if event.claim is None else check_claim(event.claim, game.result())
        return Reply("confirm", agree=not wrong, reason=wrong)
    if answer == State.PLAYING_TO_MOVE:
        return Reply("turn")
    if answer == State.PLAYING_WAIT_MOVE:
        return Reply("pass")
    # The game says it is over but the partner's move did not say so.
    return Reply("dispute", dialog=endings.local_dispute(number), reason=endings.UNCLAIMED_END)
