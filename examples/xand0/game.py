"""X and 0 as an SDK Game: the board, the partner's moves checked, this side's moves sent."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from sdk import Game, GameHost, MoveRejected, Played, Result, State

from .bot import MAX_LEVEL, choose_move
from .rules import (
    FIRST,
    MARKS,
    SECOND,
    Board,
    IllegalMoveError,
    Move,
    Player,
    format_move,
    parse_move,
)

__all__ = ["GAME_KEY", "VERSION", "Xand0Bot", "Xand0Game"]

GAME_KEY = "xand0"
"""The relay's key for X and 0: clients of any author that seek it play each other."""

VERSION = "1"
"""The version of the move strings: two digits 'ij', column i then row j, each 0..2."""

ILLEGAL_MOVE = "Your opponent played {move!r}, which is not legal here: {error}."
NO_PASSES = "X and 0 has no passes, but the match log holds one"


class Xand0Game(Game):
    """One side of a game of X and 0: keeps the board and speaks the move strings.

    A UI shows `board` and calls `play()` when `host.state` says it is this side's turn; a bot
    overrides `enable()` to choose a move (see `Xand0Bot`).
    """

    def __init__(self, host: GameHost, first_move: bool) -> None:
        super().__init__(host, first_move)
        self.board = Board.empty()
        """The position now."""
        self.me: Player = FIRST if first_move else SECOND
        """This side's player: FIRST (X) or SECOND (O)."""
        self.last: Move | None = None
        """The last move played, by either side (None before the first)."""

    @property
    def mark(self) -> str:
        """Returns this side's mark, X or O."""
        return MARKS[self.me]

    @property
    def ply(self) -> int:
        """Returns the number of moves played so far."""
        return self.board.ply

    @property
    def last_move(self) -> str | None:
        """Returns the move string of the last move played, or None before the first."""
        return None if self.last is None else format_move(self.last)

    def enable(self) -> None:
        """Does nothing: a UI sees the turn in `host.state`, and a bot overrides this."""

    def disable(self) -> None:
        """Does nothing: a UI sees the turn pass in `host.state`."""

    def play(self, move: str) -> None:
        """Plays this side's move, such as "21"; raises IllegalMoveError and sends nothing.

        Only on this side's turn: otherwise the host raises NotYourTurnError.
        """
        cell = parse_move(move)
        board = self.board.push(cell)
        self.host.move(format_move(cell), end_game=board.is_game_over())
        self.board, self.last = board, cell

    def receive_move(self, move: str) -> State:
        """Applies the partner's move; an illegal one is rejected, and the host disputes it."""
        try:
            cell = parse_move(move)
            self.board = self.board.push(cell)
        except IllegalMoveError as error:
            self.host.show_dialog(ILLEGAL_MOVE.format(move=move, error=error))
            raise MoveRejected(move) from error
        self.last = cell
        return State.GAME_ENDED if self.board.is_game_over() else State.PLAYING_TO_MOVE

    def result(self) -> Result | None:
        """Returns won, lost or drawn once the board says the game is over."""
        outcome = self.board.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return Result.DRAWN
        return Result.WON if outcome.winner == self.me else Result.LOST

    def restore(self, history: Sequence[Played]) -> None:
        """Replays the match log's moves when a match is resumed."""
        for played in history:
            if played.move is None:
                raise IllegalMoveError(NO_PASSES)
            self.last = parse_move(played.move)
            self.board = self.board.push(self.last)


class Xand0Bot(Xand0Game):
    """A computer opponent: searches in a worker thread when enabled, then plays."""

    def __init__(
        self,
        host: GameHost,
        first_move: bool,
        level: int = MAX_LEVEL,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(host, first_move)
        self.level = level
        """How well it plays: 1 (random) to MAX_LEVEL (perfect)."""
        self.rng = rng or random.Random()
        """Breaks ties between equally good moves."""

    def enable(self) -> None:
        """Starts the search in a worker thread, so that the host keeps polling meanwhile."""
        search = asyncio.get_running_loop().run_in_executor(
            None, choose_move, self.board, self.level, self.rng
        )
        search.add_done_callback(self._searched)

    def _searched(self, search: asyncio.Future[Move]) -> None:
        if search.cancelled():
            return
        # A failed search raises here: asyncio reports it to the loop's exception handler.
        move = search.result()
        if self.host.state is State.PLAYING_TO_MOVE:  # not if the partner left meanwhile
            self.play(format_move(move))
