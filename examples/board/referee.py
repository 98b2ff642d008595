"""A referee for any of the example boards: replays a match's plays on the game's own rules
(`Position`) and says where one broke them or where the game ended (sdk.referee).

The relay knows seats, the rules know players: the seat that played first is the first
player. A play of the player not to move is illegal, except a pass: in Dots and Boxes a box
closed keeps the mover's turn, so the partner, given the turn by the relay, passes it back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sdk.referee import Illegal, Legal, Over, Play, Verdict

from .rules import FIRST, Position, Termination

__all__ = ["BoardReferee"]

NOT_YOUR_TURN = "it was the other player's turn"
PASSED_WITH_MOVES = "passed with a legal move to play"


class BoardReferee:
    """Judges matches of one board game from its starting position and its move parser."""

    def __init__(
        self,
        empty: Callable[[], Position[Any]],
        parse: Callable[[str], Any],
        won: Callable[[Position[Any]], str],
    ) -> None:
        """empty: the starting position; parse: a move's text to a move (raises
        IllegalMoveError: any error of parse or of a position's push makes the play illegal,
        with the error's words); won: the words for how a finished game was won ("four in a
        row")."""
        self.empty = empty
        self.parse = parse
        self.won = won

    def judge(self, plays: Sequence[Play]) -> Verdict:
        """Returns the first illegal play, the play that ended the game, or Legal."""
        if not plays:
            return Legal()
        first = plays[0].seat
        board = self.empty()
        for play in plays:
            player = FIRST if play.seat == first else 1 - FIRST
            if play.move is None:
                if board.turn == player:
                    return Illegal(play.seq, play.seat, PASSED_WITH_MOVES)
                continue
            if board.turn != player:
                return Illegal(play.seq, play.seat, NOT_YOUR_TURN)
            try:
                board = board.push(self.parse(play.move))
            except Exception as error:  # IllegalMoveError, or any the rules raise on it
                return Illegal(play.seq, play.seat, str(error))
            outcome = board.outcome()
            if outcome is not None:
                if outcome.winner is None or outcome.reason is Termination.DRAW:
                    return Over(play.seq, None, "a draw: the board is full")
                seat = first if outcome.winner == FIRST else 1 - first
                return Over(play.seq, seat, self.won(board))
        return Legal()
