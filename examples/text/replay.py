"""`--replay MATCH`: a finished or live match's record, move by move, in the terminal.

Typed into a terminal, Enter steps forward, `b` back, a number goes to that move, `q` quits;
with its input or output not a terminal, every position is written one after another."""

from __future__ import annotations

from typing import Any

import aiohttp

from sdk import GameHost, Played, Record, RelayClient, State
from sdk.console import Keyboard

from .client import TextGame
from .console import Screen

__all__ = ["replay"]

KEYS = "Enter: next move, b: back, a number: that move, q: quit."
OTHER_GAME = "Match {match} is a game of {game!r}, not of {key!r}."
REASONS = {
    "agreed": "{side} agreed the game was over.",
    "disputed": "{side} disputed the last move.",
    "unconfirmed": "{side} never confirmed the end.",
    "resigned": "{side} resigned.",
    "abandoned": "{side} left the match.",
    "timeout": "{side} ran out of time.",
    "drawn": "{side} accepted a draw.",
    "stalled": "{side} stopped moving; the win was claimed.",
    "over": "The referee found the game over after {side}'s move.",
    "illegal": "The referee found a move of {side}'s illegal.",
}
WINNERS = {None: " It is a draw.", 0: " {winner} wins.", 1: " {winner} wins."}


class _Viewer(GameHost):
    """The host of a game rebuilt only to be drawn: nothing is ever played through it."""

    @property
    def state(self) -> State:
        """Returns GAME_ENDED: a replayed position takes no move."""
        return State.GAME_ENDED

    def move(self, move: str, end_game: bool = False) -> None:
        """Refuses: a replay plays nothing."""
        raise RuntimeError("a replay plays no move")

    def show_dialog(self, text: str) -> None:
        """Ignores what the game says: the replay says what happened."""


def ending(record: Record) -> str:
    """Returns how the match ended, or that it is still being played."""
    if record.result is None:
        return f"Still being played ({record.status})."
    reason, seat = record.result
    side = "X" if seat == record.first else "O"
    said = REASONS.get(reason, "Ended: {side}, " + reason + ".").format(side=side)
    ended = record.ending
    if ended is not None and ended.detail:
        said = f"{said[:-1]}: {ended.detail}."
    if ended is not None and ended.refereed:
        winner = None if ended.winner is None else ("X" if ended.winner == record.first else "O")
        said += WINNERS[ended.winner].format(winner=winner)
    return said


def positions(spec: TextGame[Any], record: Record) -> list[str]:
    """Returns the board drawn after each number of moves, 0 (empty) to all of them."""
    moves = record.moves
    drawn = []
    for count in range(len(moves) + 1):
        game = spec.person(_Viewer(), True)
        history = [Played(mine=m.seat == record.first, move=m.move) for m in moves[:count]]
        game.restore(history)
        drawn.append(spec.draw(game, False))
    return drawn


async def replay(
    spec: TextGame[Any], relay: str, match: str, screen: Screen, keyboard: Keyboard | None
) -> bool:
    """Shows the match; returns False when it is not a match of this game."""
    async with aiohttp.ClientSession() as session:
        record = await RelayClient(session, relay).record(match)
    if record.game != spec.key:
        screen.line(OTHER_GAME.format(match=match, game=record.game, key=spec.key))
        return False
    boards, moves = positions(spec, record), record.moves
    screen.bold(f"{spec.title}, match {match}: {len(moves)} moves. {ending(record)}")

    def show(at: int) -> None:
        screen.line()
        if at == 0:
            screen.line(f"Start ({len(moves)} moves in all):")
        else:
            mover = "X" if moves[at - 1].seat == record.first else "O"
            screen.line(f"Move {at} of {len(moves)}: {mover} played {moves[at - 1].move}")
        screen.line(boards[at])

    if keyboard is None:
        for at in range(len(boards)):
            show(at)
        return True
    at = 0
    show(at)
    keyboard.start()
    while True:
        screen.line(KEYS)
        typed = await keyboard.line()
        if typed is None or typed.strip().lower() == "q":
            return True
        word = typed.strip().lower()
        if word == "b":
            at = max(0, at - 1)
        elif word.isdigit():
            at = min(len(moves), int(word))
        elif word == "":
            at = min(len(moves), at + 1)
        else:
            screen.line(f"{typed!r}? {KEYS}")
            continue
        show(at)
