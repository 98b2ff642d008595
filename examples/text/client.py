"""The core of the text client of any board game: one side's match through a relay, a bot's.

A game plugs in as a `TextGame`; X and 0 and connect4 do.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from sdk import (
    ConnectionLostError,
    Game,
    GameHost,
    Outcome,
    ProtocolError,
    RatingRange,
    Reason,
    RelayHost,
    RelayRefusedError,
    Result,
    State,
    Ticket,
    TimeControl,
    Timing,
)

__all__ = [
    "BotSession",
    "G",
    "Playable",
    "Seeking",
    "Session",
    "TextGame",
    "rating_line",
    "summary",
]

NOT_A_GAME = "{factory!r} made {game!r}, which is not an SDK Game"

DECLINE_TIMEOUT = 10.0
"""Seconds a bot spends telling the opponent it wants no rematch, before it exits anyway."""


class Playable(Protocol):
    """What the client needs of a game besides the SDK's Game interface."""

    first_move: bool
    """Whether this side moves first."""

    @property
    def mark(self) -> str:
        """Returns this side's mark."""

    @property
    def ply(self) -> int:
        """Returns the number of moves played so far."""

    @property
    def last_move(self) -> str | None:
        """Returns the move string of the last move played, or None before the first."""

    def play(self, move: str) -> None:
        """Plays this side's move string; raises ValueError, with a message, if it is illegal."""


G = TypeVar("G", bound=Playable)


@dataclass(frozen=True, slots=True)
class TextGame(Generic[G]):
    """How one game is played in text: its relay key, its Game classes and its board drawing."""

    key: str
    """The game key sought on the relay."""
    version: str
    """The version of the move strings sought."""
    title: str
    """The game's name for people."""
    how_to_move: str
    """How to type a move, such as "two digits, column then row (21: column 2, row 1)"."""
    person: Callable[[GameHost, bool], G]
    """Makes the game of a person at the terminal."""
    bot: Callable[[int], Callable[[GameHost, bool], G]]
    """Returns the game factory of a bot of a level."""
    levels: tuple[int, int]
    """The weakest and the strongest bot level."""
    draw: Callable[[G, bool], str]
    """Returns the board as text, in colour or not, with the last move marked."""
    words: Callable[[G], str] | None = None
    """Returns how the game on this side's board ended, in the game's own words ("three in a
    row"; "" when it cannot say): told with the result when both games agree the game is over
    (a referee's verdict comes with its own words). None: the result is told alone."""


def summary(title: str, level: int, game: Playable | None, outcome: Outcome) -> str:
    """Returns a bot's one-line result, such as "X and 0 bot (level 3, O): drawn, 9 moves"."""
    who = f"{title} bot (level {level}{', ' + game.mark if game is not None else ''})"
    if outcome.reason is Reason.RESIGNED:
        why = "resigned" if outcome.by_me else "opponent resigned"
    elif outcome.reason is Reason.ABANDONED:
        why = "left" if outcome.by_me else "opponent left"
    elif outcome.reason in (Reason.AGREED, Reason.OVER) and game is not None:
        why = f"{game.ply} moves" + (f" ({outcome.detail})" if outcome.detail else "")
    else:
        why = outcome.message or str(outcome.reason)
    return f"{who}: {outcome.result}, {why}"


@dataclass(frozen=True, slots=True)
class Seeking:
    """What a session seeks besides its game and room, or the seat it takes up again."""

    time_control: TimeControl | None = None
    """The clock sought (None: no clock)."""
    player: str | None = None
    """The player key the seat is listed under."""
    contact: str | None = None
    """The contact handle your-turn notices name."""
    resume: Ticket | None = None
    """A seat to take up again instead of seeking (the player key its bearer)."""
    name: str | None = None
    """The display name the partner, spectators and the lobby see (None: none)."""
    rating_range: RatingRange | None = None
    """With the player key, the ratings an opponent may have (None: any)."""


class Session(Generic[G]):
    """One match of one side through a relay: the host, the game, and leaving it early."""

    def __init__(self, spec: TextGame[G], make: Callable[[GameHost, bool], G]) -> None:
        self.spec = spec
        """The game played."""
        self.seeking = Seeking()
        """The clock, player key and contact sought, or the seat to resume."""
        self.game: G | None = None
        """This side's game, once the match has started."""
        self.host: RelayHost | None = None
        """The host playing the match, once `play()` has begun."""
        self._make = make
        self._left = False
        self._quit = asyncio.Event()

    def leave(self, why: str) -> None:
        """Resigns the match, or withdraws the seek before an opponent came; once only."""
        host = self.host
        if self._left or host is None or host.state is State.GAME_ENDED or host.outcome:
            return
        self._left = True
        self._leaving(why, listening=host.state in (State.NOT_CONNECTED, State.LISTENING))
        if host.ticket is None:
            # No seat yet: nothing to withdraw, and the seek may be retrying an unreachable
            # relay for a minute. A seat the relay gave meanwhile expires unpolled.
            self._quit.set()
        else:
            host.resign()

    async def _play(self, host: RelayHost) -> Outcome:
        """Returns host.play(), or a cancelled Outcome at once if left before a seat came."""
        playing = asyncio.create_task(host.play())
        quitting = asyncio.create_task(self._quit.wait())
        try:
            await asyncio.wait([playing, quitting], return_when=asyncio.FIRST_COMPLETED)
            if playing.done():
                return playing.result()
        finally:
            for task in (playing, quitting):
                if not task.done():
                    task.cancel()
                    await asyncio.wait([task])
        return Outcome(Result.UNKNOWN, Reason.CANCELLED, None, None)

    def _new_host(
        self, relay: str, room: str | None, timing: Timing | None, **hooks: Any
    ) -> RelayHost:
        seeking = self.seeking
        if seeking.resume is not None:
            hooks.pop("on_ticket", None)
            self.host = RelayHost.resume(
                relay, seeking.resume, self._factory, timing=timing, **hooks
            )
            return self.host
        self.host = RelayHost(
            relay,
            self.spec.key,
            self._factory,
            version=self.spec.version,
            room=room,
            time_control=seeking.time_control,
            player=seeking.player,
            contact=seeking.contact,
            name=seeking.name,
            rating_range=seeking.rating_range,
            timing=timing,
            **hooks,
        )
        return self.host

    def _factory(self, host: GameHost, first_move: bool) -> Game:
        game = self._make(host, first_move)
        if not isinstance(game, Game):
            raise TypeError(NOT_A_GAME.format(factory=self._make, game=game))
        self.game = game
        return game

    def _dialog(self, text: str) -> None:
        host = self.host
        if host is not None and host.state in (State.GAME_ENDED, State.NOT_CONNECTED):
            return  # a dialog about the end is the outcome's message, told with the result
        self._show(text)

    def _show(self, text: str) -> None:
        _to_stderr(text)

    def _leaving(self, why: str, listening: bool) -> None:
        """Tells that this side leaves (a bot says nothing)."""


class BotSession(Session[G]):
    """A bot plays one match as a client like any other; it prints a one-line result."""

    def __init__(self, spec: TextGame[G], level: int) -> None:
        super().__init__(spec, spec.bot(level))
        self.level = level
        """The bot's level."""
        self.failed = False
        """Whether the bot's own code failed (it then resigned)."""

    async def play(self, relay: str, room: str | None, timing: Timing | None = None) -> Outcome:
        """Seeks an opponent, plays the match to its end, prints the result; returns it."""
        host = self._new_host(relay, room, timing, dialog=self._dialog)
        asyncio.get_running_loop().set_exception_handler(self._failure)
        outcome = await self._play(host)
        print(summary(self.spec.title, self.level, self.game, outcome), flush=True)
        await self._decline_rematch(host, outcome)
        return outcome

    async def _decline_rematch(self, host: RelayHost, outcome: Outcome) -> None:
        """A bot plays one match: it tells the opponent at once that it wants no rematch."""
        if host.ticket is None or outcome.reason in (Reason.CANCELLED, Reason.CONNECTION_LOST):
            return
        with contextlib.suppress(RelayRefusedError, ConnectionLostError, ProtocolError):
            async with asyncio.timeout(DECLINE_TIMEOUT):
                await host.decline_rematch()

    def _failure(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        # A search that raised on the bot's turn (a bug) would stall the match: show the
        # error, and free the opponent.
        loop.default_exception_handler(context)
        host = self.host
        if context.get("exception") is not None and host and host.state is State.PLAYING_TO_MOVE:
            self.failed = True
            host.resign()


RATING_LINE = "Your {title} rating: {before} → {after} ({delta})."
"""The line a rated match ends with."""


async def rating_line(host: RelayHost, outcome: Outcome, title: str) -> str | None:
    """Returns the line saying how a match played with a player key moved this side's rating
    (RelayHost.rating_change); None when it is not rated or cannot be read."""
    if host.player is None or not outcome.is_finished:
        return None
    try:
        change = await host.rating_change()
    except (RelayRefusedError, ConnectionLostError, ProtocolError):
        return None
    if change is None:
        return None
    before, after = int(change.before), int(change.after)
    delta = f"{after - before:+d}" if after != before else "±0"
    return RATING_LINE.format(title=title, before=before, after=after, delta=delta)


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
