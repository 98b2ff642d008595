"""Machine: a host's event-driven state machine, what is done with each event of the log."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Literal

from sdk import _endings as endings
from sdk._answers import reply_to
from sdk._claims import claim_of
from sdk._healing import DIVERGED, Write, same_event
from sdk._resume import history, move_number, split_log, turn_after
from sdk.clock import Clock
from sdk.errors import NotYourTurnError, ProtocolError
from sdk.events import Ended, Event, Moved, Passed, Started, Undone
from sdk.game import NO_UNDO, Game, GameFactory, GameHost, can_undo
from sdk.host.ticks import tick, tick_own
from sdk.outcome import Outcome, Reason, Result
from sdk.state import State
from sdk.table import ChatLine, Table
from sdk.ticket import Ticket

__all__ = [
    "GAP",
    "NOT_STARTED",
    "NOT_YOUR_TURN",
    "NO_PASS_NOW",
    "VOIDED_MOVE",
    "VOIDED_PASS",
    "Leaving",
    "Machine",
]

GAP = "the relay skipped from event {cursor} to event {seq}"
"""The ProtocolError of a log that skips events."""
NOT_YOUR_TURN = "move({move!r}) in state {state!r}: a game moves only after enable()"
"""The NotYourTurnError of a move out of turn."""
NO_PASS_NOW = "pass_turn() in state {state!r}: a game passes only after enable()"
"""The NotYourTurnError of a pass out of turn."""
NOT_STARTED = "the match log does not open with a started event: {event!r}"
"""The ProtocolError of a log whose first event is not `started` (or that starts twice)."""
VOIDED_MOVE = "Your move {move} was not played: the takeback was accepted just before it."
"""The dialog of this side's move that a takeback accepted just before it voided (the game,
which played it already, takes it back with the moves the takeback names)."""
VOIDED_PASS = "Your pass was not played: the takeback was accepted just before it."
"""The dialog of this side's pass that a takeback accepted just before it voided."""

Leaving = Literal["withdraw", "resign"] | None
"""What the loop must do after `Machine.leave()`: withdraw the seek, send the resignation, or
nothing (the match is over, or leaving was asked already)."""


class Machine:
    """Drives a Game by the match log's events: the states, the cursor, the clocks, the Outcome.

    It knows nothing of the network: the Driver (sdk.host.driver) hands it the log's events in
    order and posts the writes it leaves pending. `take_turn()` and `leave()` may be called
    from any thread (under `lock`); the other methods only from the loop playing the match.
    """

    def __init__(
        self,
        host: GameHost,
        game_factory: GameFactory,
        show_dialog: Callable[[str], None],
        notify: Callable[[State], None],
        on_table: Callable[[Table], None] | None = None,
    ) -> None:
        self._host = host
        self._on_table = on_table
        self._factory = game_factory
        self._show_dialog = show_dialog
        self._notify = notify
        self.lock = threading.Lock()
        """Guards the state, the pending write and the wish to leave across threads."""
        self.state = State.NOT_CONNECTED
        """The current state; changed through `set_state()`."""
        self.ticket: Ticket | None = None
        """This side's seat, once the seek got one (or the ticket a resumed host was given)."""
        self.game: Game | None = None
        """The game, once the match has started."""
        self.outcome: Outcome | None = None
        """How the match ended, once it has."""
        self.clock: Clock | None = None
        """The seats' clocks, once a match with a time control started."""
        self.cursor = 0
        """The number of the last event handled."""
        self.delivered: dict[int, Event] = {}
        """Every event handled, by number: what the game was told, to check a healed log by."""
        self.cancel_wanted = False
        """Whether the seek is to be withdrawn."""
        self.resign_wanted = False
        """Whether this side resigns (the resignation is then sent before anything else)."""
        self.resign_sent = False
        """Whether the resignation was posted."""
        self.table: Table | None = None
        """The match's table as last reported (names, presence, the last offer...)."""
        self.chat: list[ChatLine] = []
        """Every chat line heard, in order, once each."""
        self.answer_wanted: tuple[bool, int] | None = None
        """An answer the game gave to the partner's offer (accept, the offer's `at`), for the
        loop to post."""
        self.end_claimed = False
        """Whether the partner's move being handed to the game said the game is over."""
        self.voided: Write | None = None
        """This side's move or pass the relay refused because a takeback accepted just before
        took its place: the game, which played it already, takes it back with the others."""
        self.held = 0
        """The event this side's move or pass last posted makes: the relay applies it as it
        arrives, while the post is held for the reply (0: none)."""
        self._considered: tuple[str, int, int] | None = None
        self._write: Write | None = None
        self._dispute_dialog: str | None = None

    @property
    def seat(self) -> int:
        """Returns this side's seat (0 or 1); there must be a ticket."""
        assert self.ticket is not None
        return self.ticket.seat

    @property
    def last(self) -> int:
        """Returns the log's last event as this side knows it: the last one handled, or this
        side's move or pass posted since (its post held for the reply, its event not yet read
        back). Offers and claims are made there."""
        return max(self.cursor, self.held)

    def set_state(self, state: State, only_from: State | None = None) -> None:
        """Changes the state (only from `only_from`, when given) and tells the state sink."""
        with self.lock:
            if only_from is not None and self.state is not only_from:
                return
            old, self.state = self.state, state
        if old is not state:
            self._notify(state)

    def take_turn(self, kind: Literal["move", "pass"], move: str, end: bool) -> None:
        """Leaves this side's move or pass pending and disables the game; raises
        NotYourTurnError outside PLAYING_TO_MOVE. The caller wakes the loop to send it."""
        with self.lock:
            if self.state is not State.PLAYING_TO_MOVE:
                if kind == "pass":
                    raise NotYourTurnError(NO_PASS_NOW.format(state=self.state))
                raise NotYourTurnError(NOT_YOUR_TURN.format(move=move, state=self.state))
            self._write = Write(kind, self.cursor, move, end)
            self.state = State.WAITING_SERVER_RESPONSE
            self.clock = tick_own(self.clock, self.seat, end, time.monotonic())
        self._notify(State.WAITING_SERVER_RESPONSE)
        assert self.game is not None
        self.game.disable()

    def leave(self) -> Leaving:
        """Resigns the match at once (GAME_ENDED, the game disabled), or before the match has
        started, marks the seek withdrawn; returns what the loop must do about it."""
        with self.lock:
            if self.outcome is not None or self.resign_wanted or self.cancel_wanted:
                return None
            if self.game is None:
                self.cancel_wanted = True
                return "withdraw"
            self.resign_wanted = True
            was_enabled = self.state is State.PLAYING_TO_MOVE
            self.state = State.GAME_ENDED
        self._notify(State.GAME_ENDED)
        if was_enabled:
            self.game.disable()
        return "resign"

    def take_write(self) -> Write | None:
        """Returns the move, pass or confirm waiting to be posted, and forgets it; a
        game-ending move carries the result the game tells now (its claim) and its words."""
        with self.lock:
            write, self._write = self._write, None
        if write is not None and write.kind == "move" and write.end and write.claim is None:
            # Asked here, in the loop, once move() returned: the game has played its move.
            game = self.game
            assert game is not None
            write = dataclasses.replace(
                write, claim=claim_of(game.result()), detail=game.end_words()
            )
        return write

    def sent(self, write: Write) -> None:
        """Moves on once the relay holds this side's move or pass: the partner's turn, or the
        end after a game-ending move (unless something else changed the state meanwhile)."""
        after = State.GAME_ENDED if write.end else State.PLAYING_WAIT_MOVE
        self.set_state(after, only_from=State.WAITING_SERVER_RESPONSE)

    def start(self, batch: list[Event], resumed: bool) -> list[Event]:
        """Creates the game from the first events (restoring a resumed one); returns the
        events left to handle, in order."""
        started, ticket = batch[0], self.ticket
        assert ticket is not None
        if not isinstance(started, Started) or started.seq != 1:
            raise ProtocolError(NOT_STARTED.format(event=started))
        seat = ticket.seat
        restored, live = split_log(batch[1:], seat) if resumed else ([], batch[1:])
        self.cursor = 1
        self.delivered = {event.seq: event for event in (started, *restored)}
        if started.time_control is not None and started.left is not None:
            self.clock = Clock(started.time_control, started.left, started.first, time.monotonic())
            for event in restored:
                self.clock = tick(self.clock, event, time.monotonic())
        game = self.game = self._factory(self._host, started.first == seat)
        if restored:
            game.restore(history(restored, seat))
            self.cursor = restored[-1].seq
        turn, ending = turn_after(started.first, restored)
        finished = any(isinstance(event, Ended) for event in live)
        if turn == seat and not ending and not finished:
            self._give_turn()
        else:
            self.set_state(State.GAME_ENDED if ending else State.PLAYING_WAIT_MOVE)
            game.disable()
        return live

    def handle(self, event: Event) -> None:
        """Handles the next event of the log: the only place the game hears of the partner."""
        if event.seq <= self.cursor:
            known = self.delivered.get(event.seq)
            if same_event(known, event):
                return  # handled already (a failover made the partner post it again)
            if not isinstance(event, Ended):
                raise ProtocolError(DIVERGED.format(event=event, known=known))
        elif event.seq != self.cursor + 1:
            raise ProtocolError(GAP.format(cursor=self.cursor, seq=event.seq))
        self.cursor = event.seq
        self.delivered[event.seq] = event
        self.clock = tick(self.clock, event, time.monotonic())
        if isinstance(event, Ended):
            self._end(event)
        elif isinstance(event, Started):
            raise ProtocolError(NOT_STARTED.format(event=event))
        elif isinstance(event, Undone):
            self._undo(event)
            self._consider()
        elif self.resign_wanted or event.seat == self.seat:
            return  # our own move or pass, or play after this side left
        else:
            self._receive(event)
            self._consider()

    def _undo(self, event: Undone) -> None:
        """Has the game take back the moves of an accepted takeback; the asker moves next."""
        game = self.game
        assert game is not None
        if self.resign_wanted:
            return
        if not can_undo(game):
            raise ProtocolError(NO_UNDO.format(name=type(game).__name__))
        voided, self.voided = self.voided, None
        with self.lock:
            pending = self._write
            if pending is not None and pending.kind in ("move", "pass"):
                # Taken before the undo was handled, not yet posted: the relay would refuse it.
                voided, self._write = pending, None
        # This side's move or pass the takeback voided goes back too, and its player is told.
        game.undo(event.count + (0 if voided is None else 1))
        if voided is not None:
            said = VOIDED_PASS if voided.kind == "pass" else VOIDED_MOVE
            self._show_dialog(said.format(move=voided.move))
        if event.seat == self.seat:
            self._give_turn()
        else:
            self.set_state(State.PLAYING_WAIT_MOVE)
            game.disable()  # Game.undo's contract: then enable() for the asker, else disable()

    def table_news(self, table: Table) -> None:
        """Takes a newer table: keeps it and its new chat lines, tells the table sink, and
        asks the game about a partner's offer standing at the position it has."""
        if self.table is not None and table.version <= self.table.version:
            return
        self.table = table
        heard = self.chat[-1].n if self.chat else 0
        self.chat.extend(line for line in table.chat if line.n > heard)
        if self._on_table is not None:
            self._on_table(table)
        self._consider()

    def _consider(self) -> None:
        """Asks the game, once, about the partner's offer standing at the position it has."""
        table, game = self.table, self.game
        offer = None if table is None else table.offer
        if offer is None or game is None or self.ticket is None or not offer.standing:
            return
        key = (offer.kind, offer.by, offer.at)
        if offer.by == self.seat or key == self._considered or offer.at != self.cursor:
            return
        self._considered = key
        decided = game.consider_offer(offer)
        if decided is not None:
            self.answer_wanted = (decided, offer.at)

    def _receive(self, event: Moved | Passed) -> None:
        """Hands the partner's move or pass to the game, and acts on its answer."""
        assert self.game is not None
        self.end_claimed = isinstance(event, Moved) and event.end
        try:
            reply = reply_to(self.game, event, move_number(self.delivered, event.seq))
        finally:
            self.end_claimed = False
        if reply.kind == "turn":
            self._give_turn()
        elif reply.kind == "pass":
            self._write = Write("pass", event.seq)
        elif reply.kind == "confirm":
            self.set_state(State.GAME_ENDED)
            self._write = Write("confirm", event.seq, agree=reply.agree, reason=reply.reason)
        else:
            self._dispute(event, reply.dialog, reply.reason)

    def _dispute(self, event: Moved | Passed, dialog: str, reason: str) -> None:
        """Disputes the partner's last move or pass, with a reason: the match ends disputed
        for both (with a referee, the referee decides)."""
        self._dispute_dialog = dialog
        self.set_state(State.GAME_ENDED)
        self._write = Write("confirm", event.seq, agree=False, reason=reason)
        self._show_dialog(dialog)

    def _give_turn(self) -> None:
        """Gives this side the turn: PLAYING_TO_MOVE, and the game enabled."""
        assert self.game is not None
        self.set_state(State.PLAYING_TO_MOVE)
        self.game.enable()

    def _end(self, event: Ended) -> None:
        """Ends the match by the log's `ended` event: the Outcome, and the dialog about it."""
        game, ticket = self.game, self.ticket
        assert game is not None and ticket is not None
        was_enabled = self.state is State.PLAYING_TO_MOVE
        self.set_state(State.GAME_ENDED)
        if was_enabled:
            game.disable()
        about = self.delivered.get(event.at) if event.at is not None else None
        number = move_number(self.delivered, event.at)
        played = about if isinstance(about, Moved | Passed) else None
        result, reason, dialog = endings.ending(event, ticket.seat, game.result, played, number)
        own, message = self._dispute_dialog, dialog or ""
        told = reason is Reason.DISPUTED and event.seat == ticket.seat and not event.refereed
        if own is not None and told:
            dialog, message = None, own  # this side's dispute was told as it was made
        if dialog is not None:
            self._show_dialog(dialog)
        self.outcome = Outcome(
            result,
            reason,
            ticket.match,
            ticket.seat,
            by=event.seat,
            message=message,
            at=event.at,
            detail=event.detail,
            winner=event.winner,
            refereed=event.refereed,
        )

    def break_off(self, reason: Reason, message: str) -> None:
        """Ends the match for this side after a failure that retrying could not fix."""
        game, ticket = self.game, self.ticket
        was_enabled = self.state is State.PLAYING_TO_MOVE
        self.set_state(State.GAME_ENDED if game is not None else State.NOT_CONNECTED)
        if was_enabled and game is not None:
            game.disable()
        self._show_dialog(message)
        match, seat = (ticket.match, ticket.seat) if ticket else (None, None)
        self.outcome = Outcome(Result.UNKNOWN, reason, match, seat, message=message)

    def closed(self) -> None:
        """Ends this side's play without a word to the relay: the seat stays resumable."""
        game, ticket = self.game, self.ticket
        was_enabled = self.state is State.PLAYING_TO_MOVE
        self.set_state(State.NOT_CONNECTED)
        if was_enabled and game is not None:
            game.disable()
        match, seat = (ticket.match, ticket.seat) if ticket else (None, None)
        self.outcome = Outcome(Result.UNKNOWN, Reason.CLOSED, match, seat)

    def drop_seek(self, message: str) -> None:
        """Ends a seek that was withdrawn (or dropped by the relay) before a partner came."""
        self.set_state(State.NOT_CONNECTED)
        if message:
            self._show_dialog(message)
        ticket = self.ticket
        match, seat = (ticket.match, ticket.seat) if ticket else (None, None)
        self.outcome = Outcome(Result.UNKNOWN, Reason.CANCELLED, match, seat, message=message)

    def resigned_at_once(self) -> None:
        """Ends a match this side resigned as it started: the partner came just before the
        seek's withdrawal reached the relay."""
        ticket = self.ticket
        assert ticket is not None
        self.set_state(State.GAME_ENDED)
        self.outcome = Outcome(
            Result.LOST, Reason.RESIGNED, ticket.match, ticket.seat, by=ticket.seat
        )
