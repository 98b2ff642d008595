"""A person plays one match at a terminal: the board, what is happening, prompts, the end."""

from __future__ import annotations

import asyncio

from sdk import (
    ConnectionLostError,
    NotYourTurnError,
    Outcome,
    Reason,
    RelayHost,
    RelayRefusedError,
    State,
    Ticket,
    Timing,
    format_left,
)
from sdk.console import Keyboard
from sdk.outcome import verdict_words

from .client import G, Session, TextGame, rating_line
from .console import Screen
from .table import TableTalk

__all__ = ["PersonSession", "headline"]

CONNECTING = "Connecting to the relay..."
WAITING = "Waiting for an opponent..."
THINKING = "Opponent is thinking..."
PAIRED = "Paired: you play {mark}, {order}."
HOW_TO_MOVE = "To move, type {how}. Enter sends it; Ctrl-C resigns; /help lists the commands."
OPPONENT_PLAYED = "Your opponent played {move}."
PROMPT = "Your move ({mark}): "
CLOCK = "Time left: you {mine}, your opponent {theirs} ({control})."
EMPTY_LINE = "Type your move: {how}."
BAD_MOVE = "{error}. Try again."
LEAVING = "{why}: leaving the queue."
RESIGNING = "{why}: resigning."
END_OF_INPUT = "End of input"

AGAIN = "Again? [y/n] "
OFFERED = "Rematch offered; waiting for your opponent..."
OPPONENT_OFFERS = "Your opponent offers a rematch."
OPPONENT_DECLINED = "Your opponent does not want a rematch."
NO_REMATCH = "No rematch."
REMATCH = "Rematch: the first move goes to the other side."
_NO_ASKING = (Reason.ABANDONED, Reason.CANCELLED, Reason.CONNECTION_LOST, Reason.ERROR)
"""Ends after which nobody is asked to play again: the opponent or the relay is gone."""
_SAID = (Reason.AGREED, Reason.UNCONFIRMED)
"""Ends whose detail is the game-ending move's own words for how the game ended."""

OPPONENT_RESIGNED = "Your opponent resigned: you win!"
OPPONENT_LEFT = "Your opponent left the match: you win!"
OPPONENT_TIMEOUT = "Your opponent ran out of time: you win!"
YOU_TIMEOUT = "You ran out of time: your opponent wins."
YOU_RESIGNED = "You resigned: your opponent wins."
DRAW_AGREED = "Draw agreed."
YOU_CLAIMED = "Your opponent stopped moving: you win!"
YOU_STALLED = "Your opponent claimed the win: you took too long to move."
NO_OPPONENT = "You left before an opponent came."


def headline(outcome: Outcome, how: str = "") -> str:
    """Returns what a person is told when the match is over: who won and how, in the game's
    words ("You win: three in a row."), a resignation, a dispute... `how` is the game's own
    words for how it ended, told when both games agreed it is over ("" for none); a referee's
    verdict is told in the referee's words."""
    reason, verdict = outcome.reason, verdict_words(outcome.result, how)
    if reason is Reason.RESIGNED:
        return YOU_RESIGNED if outcome.by_me else OPPONENT_RESIGNED
    if reason is Reason.ABANDONED and not outcome.by_me:
        return OPPONENT_LEFT
    if reason is Reason.TIMEOUT:
        return YOU_TIMEOUT if outcome.by_me else OPPONENT_TIMEOUT
    if reason is Reason.DRAWN:
        return DRAW_AGREED
    if reason is Reason.STALLED:
        return YOU_STALLED if outcome.by_me else YOU_CLAIMED
    if reason is Reason.CANCELLED and not outcome.message:
        return NO_OPPONENT
    if outcome.refereed:
        # The host's dialog is the referee's verdict, result included ("You win: ...").
        return outcome.message or verdict_words(outcome.result, outcome.detail) or verdict
    if reason is Reason.AGREED and verdict:
        return verdict
    if outcome.message:
        return f"{outcome.message} {verdict}" if verdict else outcome.message
    return verdict or f"The match ended: {reason}."


class PersonSession(Session[G]):
    """A person plays one match at a terminal: the board, what is happening, their moves."""

    def __init__(self, spec: TextGame[G], screen: Screen, keyboard: Keyboard) -> None:
        super().__init__(spec, spec.person)
        self.screen = screen
        """Where the client writes."""
        self.keyboard = keyboard
        """Where the person's lines come from."""
        self._asking: asyncio.Task[None] | None = None
        self._listening: asyncio.Task[None] | None = None
        self.talk = TableTalk(screen.line, lambda: self.host, self._taken_back)
        """The table: the opponent's name, presence and chat, offers, commands."""
        self._seen = -1  # moves on the board last drawn
        self._mine = -1  # moves on the board after this side's last move
        self._greeted = False

    async def play(self, relay: str, room: str | None, timing: Timing | None = None) -> Outcome:
        """Seeks an opponent, plays the match to its end, tells how it ended; returns that."""
        host = self._new_host(
            relay,
            room,
            timing,
            dialog=self._dialog,
            on_state=self._on_state,
            on_ticket=self._on_ticket,
            on_table=self.talk.news,
        )
        self.keyboard.start()
        return await self._play_through(host)

    async def _play_through(self, host: RelayHost) -> Outcome:
        helpers = [asyncio.create_task(self._tick()), asyncio.create_task(self._end_of_input())]
        try:
            outcome = await self._play(host)
        finally:
            for task in [*helpers, self._asking, self._listening]:
                if task is not None:
                    task.cancel()
        self._finish(outcome)
        line = await rating_line(host, outcome, self.spec.title)
        if line is not None:
            self.screen.line(line)
        return outcome

    async def again(self, outcome: Outcome) -> Outcome | None:
        """Asks "Again? [y/n]" after a match that ended in play, and plays the rematch when
        both sides say yes (the first move swapped); returns its Outcome, or None when there
        is no rematch (a no, the end of input, the opponent's no, or its offer lapsing)."""
        host = self.host
        if outcome.reason in _NO_ASKING or self._left or host is None or host.ticket is None:
            return None
        try:
            follow = await self._ask_again(host, host.ticket.seat)
        except (RelayRefusedError, ConnectionLostError) as error:
            self.screen.line(f"{NO_REMATCH} ({error})")
            return None
        if follow is None:
            return None
        self.screen.bold(REMATCH)
        self.game, self.host = None, follow
        self._seen, self._mine, self._greeted = -1, -1, False
        return await self._play_through(follow)

    async def _ask_again(self, host: RelayHost, seat: int) -> RelayHost | None:
        self.screen.prompt(AGAIN)
        answer = asyncio.create_task(self.keyboard.line())
        news = asyncio.create_task(self._partner_news(host, seat))
        try:
            await asyncio.wait([answer, news], return_when=asyncio.FIRST_COMPLETED)
            if not answer.done():
                news.result()  # the opponent declined
                self.screen.line(OPPONENT_DECLINED)
                return None
        finally:
            for task in (answer, news):
                task.cancel()
        line = answer.result()
        if line is not None:
            self.screen.typed(line, echoed=self.keyboard.is_tty)
        if line is None or not line.strip().lower().startswith("y"):
            await host.decline_rematch()
            self.screen.line(NO_REMATCH)
            return None
        self.screen.status(OFFERED)
        follow = await host.offer_rematch()
        if follow is None:
            self.screen.line(NO_REMATCH)
        return follow

    async def _partner_news(self, host: RelayHost, seat: int) -> None:
        """Tells of the opponent's offer; returns when the opponent declines."""
        version = 0
        while True:
            news = await host.next_rematch(version)
            version = news.version
            if news.state == "declined" and news.by == 1 - seat:
                return
            if news.state == "offered" and news.offered_by(1 - seat):
                self.screen.line(OPPONENT_OFFERS)

    def _leaving(self, why: str, listening: bool) -> None:
        self.screen.line((LEAVING if listening else RESIGNING).format(why=why))

    def _on_state(self, state: State) -> None:
        if state is not State.PLAYING_TO_MOVE and self._asking is not asyncio.current_task():
            if self._asking is not None:
                self._asking.cancel()
            self._asking = None
        if self._listening is not None and state is not State.PLAYING_WAIT_MOVE:
            self._listening.cancel()  # the prompt reads the keyboard now, or nobody does
            self._listening = None
        if state is State.LISTENING:
            self.screen.status(CONNECTING)
        elif state is State.PLAYING_TO_MOVE:
            self._show_board()
            self._asking = asyncio.get_running_loop().create_task(self._ask())
        elif state is State.PLAYING_WAIT_MOVE:
            self._show_board()
            self.screen.status(THINKING)
            if self._listening is None:
                self._listening = asyncio.get_running_loop().create_task(self._commands())

    def _on_ticket(self, ticket: Ticket) -> None:
        self.screen.status(WAITING)

    def _show(self, text: str) -> None:
        self.screen.line(text)

    def _show_board(self) -> None:
        game = self.game
        assert game is not None
        if not self._greeted:
            self._greeted = True
            order = "moving first" if game.first_move else "your opponent moves first"
            self.screen.line(PAIRED.format(mark=game.mark, order=order))
            self.screen.line(HOW_TO_MOVE.format(how=self.spec.how_to_move))
        if game.ply > self._seen:
            self._draw(game)

    def _draw(self, game: G) -> None:
        if game.ply != self._mine and game.last_move is not None:
            self.screen.line(OPPONENT_PLAYED.format(move=game.last_move))
        self.screen.line()
        self.screen.line(self.spec.draw(game, self.screen.color))
        self._seen = game.ply

    async def _commands(self) -> None:
        """Carries out the commands typed while the opponent thinks ("/say hi"); a move typed
        ahead is given back for the next prompt, and reading stops until then."""
        while True:
            line = await self.keyboard.line()
            if line is None:
                return
            if not line.strip().startswith("/"):
                self.keyboard.unread(line)
                return
            self.screen.typed(line, echoed=self.keyboard.is_tty)
            await self.talk.command(line)

    def _taken_back(self) -> None:
        """Draws the board again after a takeback (the moves taken back are not news)."""
        game = self.game
        if game is not None:
            self._mine = game.ply
            self.screen.line()
            self.screen.line(self.spec.draw(game, self.screen.color))
            self._seen = game.ply
            if self._my_turn() and self._asking is not None:
                self.screen.prompt(PROMPT.format(mark=game.mark))  # the prompt stands again

    def _my_turn(self) -> bool:
        return self.host is not None and self.host.state is State.PLAYING_TO_MOVE

    async def _ask(self) -> None:
        game, how = self.game, self.spec.how_to_move
        assert game is not None
        while True:
            clock = self._clock_line()
            if clock:
                self.screen.line(clock)
            self.screen.prompt(PROMPT.format(mark=game.mark))
            typed_ahead = self.keyboard.pending > 0
            line = await self.keyboard.line()
            if line is None:
                self.leave(END_OF_INPUT)
                return
            self.screen.typed(line, echoed=self.keyboard.is_tty and not typed_ahead)
            if not line.strip():
                self.screen.line(EMPTY_LINE.format(how=how))
                continue
            if await self.talk.command(line):
                if not self._my_turn():
                    return  # a draw agreed, a takeback: the turn moved on
                continue
            try:
                game.play(line.strip())
            except NotYourTurnError:
                return  # the match ended meanwhile
            except ValueError as error:
                text = str(error)
                self.screen.line(BAD_MOVE.format(error=text[:1].upper() + text[1:]))
                continue
            self._mine = game.ply
            return

    def _clock_line(self) -> str:
        """Returns both seats' time left ('' in a match without a clock)."""
        host = self.host
        clock = None if host is None else host.clock
        if host is None or clock is None or host.ticket is None:
            return ""
        left, seat = clock.left(), host.ticket.seat
        mine, theirs = (format_left(left[k], clock.control) for k in (seat, 1 - seat))
        return CLOCK.format(mine=mine, theirs=theirs, control=clock.control)

    async def _tick(self) -> None:
        while self.screen.live:
            await asyncio.sleep(0.2)
            self.screen.tick()

    async def _end_of_input(self) -> None:
        # Ctrl-D while waiting leaves at once; lines typed ahead (a pipe) are played first.
        await self.keyboard.ended.wait()
        if self.keyboard.pending == 0 and not self._my_turn():
            self.leave(END_OF_INPUT)

    def _finish(self, outcome: Outcome) -> None:
        game = self.game
        if game is not None and game.ply > max(self._seen, 0):
            self._draw(game)
        words = self.spec.words
        how = "" if game is None or words is None or outcome.refereed else words(game)
        if outcome.reason in _SAID and outcome.detail:
            how = outcome.detail  # the ender's words, as both sides and the record have them
        self.screen.bold(headline(outcome, how))
