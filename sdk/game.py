"""The two interfaces of a networked game: GameHost (what a game calls) and Game (what it is)."""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sdk.clock import Clock
from sdk.outcome import Result
from sdk.state import State
from sdk.table import Offer

__all__ = ["Game", "GameFactory", "GameHost", "Played", "can_undo"]

NO_PASS = "{name} cannot pass a turn: it does not implement GameHost.pass_turn()"
NO_KEEP = "{name} keeps no game data: it does not implement GameHost.keep()"
NO_RESTORE = (
    "{name} cannot be resumed: it does not override Game.restore(history) "
    "to rebuild its position from the match log"
)
NO_UNDO = (
    "{name} cannot take moves back: it does not override Game.undo(count); its host declines "
    "every takeback and asks for none"
)


class GameHost(abc.ABC):
    """What a game may call: its link to the partner. The host owns the state machine."""

    @property
    @abc.abstractmethod
    def state(self) -> State:
        """Returns the host's current state."""

    @abc.abstractmethod
    def move(self, move: str, end_game: bool = False) -> None:
        """Sends this side's move; `end_game` says the game is over with it.

        Allowed only in PLAYING_TO_MOVE (after `enable()`); otherwise raises NotYourTurnError and
        sends nothing. The host calls `disable()` at once and sends the move in the background.
        """

    @abc.abstractmethod
    def show_dialog(self, text: str) -> None:
        """Shows a message to this side's player."""

    @property
    def clock(self) -> Clock | None:
        """Returns the seats' clocks when the match has a time control (`clock.left()`: each
        seat's seconds left now, [seat 0, seat 1]), else None (this default)."""
        return None

    def pass_turn(self) -> None:
        """Passes this side's turn back to the partner, by choice (as in Go) or for want of a move.

        Allowed only in PLAYING_TO_MOVE, like `move()`. A host that cannot pass raises
        NotImplementedError (this default); RelayHost passes.
        """
        raise NotImplementedError(NO_PASS.format(name=type(self).__name__))

    @property
    def end_claimed(self) -> bool:
        """Returns, while `Game.receive_move()` runs, whether the partner's move said the game
        is over (`end_game=True`); False at any other time (this default: always)."""
        return False

    def keep(self, text: str) -> None:
        """Keeps the game's private data for this match (a commitment's salt, a hidden board)
        with this side's seat, replacing what was kept: saved where the ticket is saved,
        never sent to the relay or the partner, and handed back as `kept` when the match is
        resumed. A host that keeps nothing raises NotImplementedError (this default)."""
        raise NotImplementedError(NO_KEEP.format(name=type(self).__name__))

    @property
    def kept(self) -> str | None:
        """Returns the game data last kept with the seat (`keep()`), in this process or in the
        one that played the seat before a resume; None when nothing was kept (this default)."""
        return None


@dataclass(frozen=True, slots=True)
class Played:
    """One move or pass of a match's log, as this side sees it (given to `Game.restore`)."""

    mine: bool
    """Whether this side played it."""
    move: str | None
    """The move text, or None for a pass."""
    end: bool = False
    """Whether the move said the game is over."""

    @property
    def is_pass(self) -> bool:
        """Returns whether this is a pass rather than a move."""
        return self.move is None


class Game(abc.ABC):
    """What a game implements; the host creates it as `Game(host, first_move)` once paired.

    The host calls `enable()` when this side gets the turn and `disable()` when it loses it
    (and once at the start when the partner moves first). The partner's moves arrive through
    `receive_move()` and its passes through `receive_pass()`, whose answers decide what
    happens next. Every call comes from the host's
    event loop, one at a time.
    """

    def __init__(self, host: GameHost, first_move: bool) -> None:
        self.host = host
        """The host this game plays through."""
        self.first_move = first_move
        """Whether this side moves first."""

    @abc.abstractmethod
    def enable(self) -> None:
        """Lets this side move: a UI accepts input, a bot calls `self.host.move(...)`."""

    @abc.abstractmethod
    def disable(self) -> None:
        """Stops this side from moving (the partner has the turn, or the game is over)."""

    @abc.abstractmethod
    def receive_move(self, move: str) -> State:
        """Applies the partner's move and returns what follows for this side.

        PLAYING_TO_MOVE: this side moves next (the host calls `enable()`).
        PLAYING_WAIT_MOVE: this side has no legal move; the host passes, the partner moves again.
        GAME_ENDED: the game is over. If the partner's move said so too, the host confirms the
        end; if the partner's move said so and this answer does not, the host disputes it.
        Do not call `host.move()` from here: wait for `enable()`.
        """

    def receive_pass(self) -> State:
        """Learns that the partner passed, and returns what follows for this side.

        PLAYING_TO_MOVE (the default): this side moves next (the host calls `enable()`).
        PLAYING_WAIT_MOVE: this side has no legal move either; the host passes back.
        Raise MoveRejected if the partner had a legal move (a false pass): the host disputes
        the pass and the match ends disputed. Do not call `host.move()` from here.
        """
        return State.PLAYING_TO_MOVE

    def result(self) -> Result | None:
        """Returns who won, once the game is over; the host asks it for the Outcome.

        Optional: the default None gives Result.UNKNOWN. Asked when the match ends by an
        agreed (or unconfirmed) game-ending move; resignation and abandonment decide by themselves.
        """
        return None

    def end_words(self) -> str:
        """Returns how the game ended, in its own words ("three mills", "no move left"), once
        it is over; the host sends them with this side's game-ending move, and an agreed end
        tells them to both sides and keeps them in the record.

        Optional: the default "" sends none. At most 200 characters are sent (control
        characters made spaces); a referee's verdict says its own words instead.
        """
        return ""

    def restore(self, history: Sequence[Played]) -> None:
        """Rebuilds the position from the match log when a match is resumed after a restart.

        Optional: the default refuses to resume. `history` holds every move and pass of the log
        in order, both sides', except a last partner move this side had not answered: that one
        still arrives through `receive_move()`. Afterwards the host calls `enable()` or
        `disable()` as the log says, and never re-sends a pass or confirm already in the log.
        A last partner pass this side had not answered likewise arrives through `receive_pass()`.
        Called only when the log holds moves or passes.
        """
        raise NotImplementedError(NO_RESTORE.format(name=type(self).__name__))

    def undo(self, count: int) -> None:
        """Takes back the last `count` moves and passes (1 or 2, both sides' alike), after a
        takeback both sides agreed to (docs/protocol.md, "The table").

        Optional: the default refuses, and a host whose game keeps it never asks for a
        takeback and declines every one asked of it. `count` is 1 when the asker takes back
        its own last move before the partner replied, 2 with the partner's reply. Afterwards
        the host calls `enable()` if this side asked (it has the turn again), else
        `disable()`. A pass counts as a move here: undoing one gives the turn back.
        """
        raise NotImplementedError(NO_UNDO.format(name=type(self).__name__))

    def consider_offer(self, offer: Offer) -> bool | None:
        """Answers the partner's draw offer or takeback request as it arrives: True accepts,
        False declines, None leaves it standing for the player (the UI answers it through
        `RelayHost.answer_offer`), until the position changes.

        Optional: the default leaves every offer to the player, but declines a takeback
        when the game cannot undo. A bot answers here. Called from the host's loop, once
        per offer.
        """
        if offer.kind == "takeback" and not can_undo(self):
            return False
        return None


def can_undo(game: Game) -> bool:
    """Returns whether the game takes moves back (its class overrides Game.undo)."""
    return type(game).undo is not Game.undo


GameFactory = Callable[[GameHost, bool], Game]
"""Makes the game when the match starts, as `factory(host, first_move)`; a Game class is one."""
