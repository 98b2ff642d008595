"""A board game as an SDK Game, shared by the examples: the board, the partner's moves and
passes checked against the rules, this side's moves sent; and the bot that searches in a thread.

A game gives its rules as `Rules`: its name, the starting position, and how move strings are
read and written. Whose turn follows a move is the rules' `turn`: when a move keeps the turn
with its mover (a box closed in Dots and Boxes), the partner passes, and a pass the rules do
not call for is disputed.

Takebacks: the game keeps the position before each move and pass, and takes back as many as
the relay's `undo` event says. It agrees to take back only whole moves: its own last move (and
the partner's reply), never a pass the rules forced, which would leave the turn where the
rules do not put it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sdk import Game, GameHost, MoveRejected, Offer, Played, Result, State

from .rules import FIRST, MARKS, SECOND, Player, Position

__all__ = ["BoardBot", "BoardGame", "Rules"]

B = TypeVar("B", bound=Position[Any])
M = TypeVar("M")

FALSE_PASS = "a pass, with a move to make"
"""Why a pass the rules do not call for is rejected: the host's dialog and the partner's
say it, and the log keeps it as the dispute's reason."""


@dataclass(frozen=True, slots=True)
class Rules(Generic[B, M]):
    """What the shared Game needs of a game's rules."""

    name: str
    """The game's name, such as "X and 0"."""
    key: str
    """The relay's game key: clients of any author that seek it play each other."""
    version: str
    """The version of the move strings."""
    empty: Callable[[], B]
    """Returns the starting position."""
    parse_move: Callable[[str], M]
    """Returns the move a move string names; raises IllegalMoveError."""
    format_move: Callable[[M], str]
    """Returns the move string of a move."""
    choose_move: Callable[[B, int, random.Random], M]
    """The bot's engine: returns the move to play in a position at a level."""
    levels: tuple[int, int]
    """The bot's weakest and strongest levels."""
    timed_move: Callable[[B, int, random.Random, float], M] | None = None
    """The engine given a time budget in seconds as its fourth argument, when it searches
    for a while (None: choose_move answers at once)."""
    judge: Callable[[B, Player], int] | None = None
    """The bot's view of a position for a player: above 0 it is winning, 0 even, below 0
    losing (None: the bot never takes a draw)."""
    words: Callable[[B], str] | None = None
    """How a finished position ended, in the game's words ("three in a row"; "" while it goes
    on): sent with this side's game-ending move, told on both sides and kept in the record
    (None: the result is told alone). end_words makes it."""


class BoardGame(Game, Generic[B, M]):
    """One side of a board game: keeps the board and speaks the move strings.

    A UI shows `board` and calls `play()` when `host.state` says it is this side's turn; a bot
    overrides `enable()` to choose a move (see BoardBot). A subclass sets `rules`.
    """

    rules: Rules[B, M]
    """The game's rules (a class attribute of each game)."""

    def __init__(self, host: GameHost, first_move: bool) -> None:
        super().__init__(host, first_move)
        self.board: B = self.rules.empty()
        """The position now."""
        self.me: Player = FIRST if first_move else SECOND
        """This side's player: FIRST (X) or SECOND (O)."""
        self.last: M | None = None
        """The last move played, by either side (None before the first)."""
        self.plies: list[tuple[B, M | None, Player, bool]] = []
        """Before each move and pass of the match, in order: the position and last move then,
        who played it, and whether it was a move (False: a pass)."""

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
        return None if self.last is None else self.rules.format_move(self.last)

    def end_words(self) -> str:
        """Returns how the game ended in the rules' words (`Rules.words`), "" without them."""
        words = self.rules.words
        return "" if words is None else words(self.board)

    def enable(self) -> None:
        """Does nothing: a UI sees the turn in `host.state`, and a bot overrides this."""

    def disable(self) -> None:
        """Does nothing: a UI sees the turn pass in `host.state`."""

    def play(self, move: str) -> None:
        """Plays this side's move; raises IllegalMoveError and sends nothing if it is illegal.

        Only on this side's turn: otherwise the host raises NotYourTurnError.
        """
        parsed = self.rules.parse_move(move)
        board = self.board.push(parsed)
        self.host.move(self.rules.format_move(parsed), end_game=board.is_game_over())
        self.plies.append((self.board, self.last, self.me, True))
        self.board, self.last = board, parsed

    def receive_move(self, move: str) -> State:
        """Applies the partner's move; one the rules raise on (IllegalMoveError or any other
        error) is rejected with the error's words, and the host disputes it.

        Answers GAME_ENDED when the game is over, PLAYING_TO_MOVE when the rules give this side
        the turn, and PLAYING_WAIT_MOVE (the host passes) when they leave it with the partner.
        """
        try:
            parsed = self.rules.parse_move(move)
            board = self.board.push(parsed)
        except Exception as error:  # IllegalMoveError, or any the rules raise: not a crash
            raise MoveRejected(str(error)) from error
        self.plies.append((self.board, self.last, self.board.turn, True))
        self.board, self.last = board, parsed
        if self.board.is_game_over():
            return State.GAME_ENDED
        if self.board.turn == self.me:
            return State.PLAYING_TO_MOVE
        self.plies.append((self.board, self.last, self.me, False))  # the host passes for us
        return State.PLAYING_WAIT_MOVE

    def receive_pass(self) -> State:
        """Takes the turn after the partner's pass; a pass the rules do not call for is rejected."""
        if self.board.turn == self.me:
            self.plies.append((self.board, self.last, 1 - self.me, False))
            return State.PLAYING_TO_MOVE
        raise MoveRejected(FALSE_PASS)

    def undo(self, count: int) -> None:
        """Takes back the last `count` moves and passes (an accepted takeback)."""
        for _ in range(count):
            self.board, self.last, _, _ = self.plies.pop()

    def takeback_fits(self, by_me: bool, count: int) -> bool:
        """Returns whether a takeback asked by this side (or the partner) of `count` moves and
        passes takes back whole moves only, the asker's first: never a forced pass."""
        asker = self.me if by_me else 1 - self.me
        if not 0 < count <= len(self.plies):
            return False
        taken = self.plies[len(self.plies) - count :]
        return all(ply[3] for ply in taken) and taken[0][2] == asker

    def consider_offer(self, offer: Offer) -> bool | None:
        """Declines a takeback of anything but whole moves; leaves the rest to the player."""
        if offer.kind == "takeback" and not self.takeback_fits(False, offer.count or 0):
            return False
        return None

    def result(self) -> Result | None:
        """Returns won, lost or drawn once the board says the game is over."""
        outcome = self.board.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return Result.DRAWN
        return Result.WON if outcome.winner == self.me else Result.LOST

    def restore(self, history: Sequence[Played]) -> None:
        """Replays the match log's moves when a match is resumed (passes change no board)."""
        for played in history:
            mover = self.me if played.mine else 1 - self.me
            self.plies.append((self.board, self.last, mover, played.move is not None))
            if played.move is not None:
                self.last = self.rules.parse_move(played.move)
                self.board = self.board.push(self.last)


class BoardBot(BoardGame[B, M]):
    """A computer opponent: searches in a worker thread when enabled, then plays."""

    def __init__(
        self,
        host: GameHost,
        first_move: bool,
        level: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(host, first_move)
        self.level = self.rules.levels[1] if level is None else level
        """How well it plays, from 1 (near random) up."""
        self.rng = rng or random.Random()
        """Breaks ties between equally good moves."""

    def choose(self, board: B, budget: float) -> M:
        """Returns the move to play in board, from the rules' engine, searching budget seconds
        at most; runs in a worker thread."""
        timed = self.rules.timed_move
        if timed is None:
            return self.rules.choose_move(board, self.level, self.rng)
        return timed(board, self.level, self.rng, budget)

    def budget(self, most: float = float("inf")) -> float:
        """Returns the seconds the search of this move may take: at most `most`, and within
        what the clock gives (a Fischer clock: a twentieth of the time left plus half the
        increment; a deadline a move: a tenth of it; never more than half of it), so that a
        bot never loses on time."""
        clock = self.host.clock
        if clock is None or clock.turn is None:
            return most
        left = clock.left()[clock.turn]
        if clock.control.kind == "fischer":
            share = left / 20 + clock.control.increment / 2
        else:
            share = left / 10
        return max(0.0, min(most, share, left / 2))

    def consider_offer(self, offer: Offer) -> bool | None:
        """Takes back whole moves when asked; takes a draw only when its engine does not see
        itself winning (never, for rules without a judge)."""
        if offer.kind == "takeback":
            return self.takeback_fits(False, offer.count or 0)
        judge = self.rules.judge
        return judge is not None and judge(self.board, self.me) <= 0

    def enable(self) -> None:
        """Starts the search in a worker thread, so that the host keeps polling meanwhile."""
        loop = asyncio.get_running_loop()
        search = loop.run_in_executor(None, self.choose, self.board, self.budget())
        search.add_done_callback(self._searched)

    def _searched(self, search: asyncio.Future[M]) -> None:
        if search.cancelled():
            return
        # A failed search raises here: asyncio reports it to the loop's exception handler.
        move = search.result()
        if self.host.state is State.PLAYING_TO_MOVE:  # not if the partner left meanwhile
            self.play(self.rules.format_move(move))
