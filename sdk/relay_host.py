"""RelayHost: the GameHost that plays one match through a relay by long-polling its event log.

A front over its parts in sdk.host: what it shows (view), its calls from its seat (seated),
the thread bridge (controls), the polling loop (driver) and the state machine (machine)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator, Callable
from typing import Self

import aiohttp

from sdk import rematch as rematches
from sdk.client import RelayClient
from sdk.clock import TimeControl
from sdk.errors import HostStateError
from sdk.game import GameFactory, GameHost
from sdk.host.controls import Controls
from sdk.host.driver import Driver
from sdk.host.machine import Machine
from sdk.host.seated import NO_OFFER as NO_OFFER  # importable from here, as before
from sdk.host.seated import NO_PLAYER_KEY as NO_PLAYER_KEY  # likewise
from sdk.host.seated import NOT_SEATED, SeatedCalls
from sdk.outcome import Outcome
from sdk.ratings import RatingChange, RatingRange
from sdk.state import State
from sdk.table import Table
from sdk.ticket import Ticket
from sdk.timing import Timing

__all__ = ["DialogSink", "RelayHost", "StateSink", "TableSink", "TicketSink"]

DialogSink = Callable[[str], None]
"""Shows a dialog text to the player (the default prints it)."""
StateSink = Callable[[State], None]
"""Told each new state of a host, as it changes."""
TicketSink = Callable[[Ticket], None]
"""Told the seat a seek got, so that it can be kept for resuming."""
TableSink = Callable[[Table], None]
"""Told each newer table of the match (names, presence, the last offer, new chat lines)."""

NOT_TEXT = "a move must be a str that UTF-8 can encode, not {move!r}"
NOT_KEPT = "the game data kept must be a str, not {text!r}"
PLAYED_TWICE = "a RelayHost plays one match; make another (or use RelayHost.resume)"


class RelayHost(SeatedCalls, GameHost):
    """Plays one match through a relay: seeks, long-polls the match log, and drives a Game.

    The host calls the game from the task running `play()`, one call at a time, in log order.
    `move()`, `resign()` and `cancel()` may be called from that loop (the game's callbacks,
    other tasks) or from another thread (a UI): each acts at once, calling the game's
    `disable()` in the caller's thread, and the loop sends in the background.
    """

    def __init__(
        self,
        relay_url: str,
        game_key: str,
        game_factory: GameFactory,
        *,
        version: str = "",
        room: str | None = None,
        time_control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
        name: str | None = None,
        rating_range: RatingRange | None = None,
        timing: Timing | None = None,
        dialog: DialogSink | None = None,
        on_state: StateSink | None = None,
        on_ticket: TicketSink | None = None,
        on_table: TableSink | None = None,
        session: aiohttp.ClientSession | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.relay_url = relay_url
        """The relay's base URL, such as http://localhost:8080."""
        self.game_key = game_key
        """The game key sought (empty for a resumed host, which never seeks)."""
        self.version = version
        """The version of the move strings this game speaks."""
        self.room = room
        """A private room name, or None to meet any seeker of the game and version."""
        self.time_control = time_control
        """The time control sought (None: no clock); only seekers of the same one meet."""
        self.player = player
        """The player key the seat is listed under (sdk.players), or None."""
        self.contact = contact
        """The contact handle the relay's your-turn notices name, or None."""
        self.name = name
        """The display name the seek gives (keep it with the player key), or None."""
        self.rating_range = rating_range
        """With a player key, the ratings an opponent may have (RatingRange), or None: any."""
        self.timing = timing or Timing()
        """Poll holds, request timeouts, backoff and give-up time."""
        self._factory = game_factory
        self._dialog = dialog or _print
        self._on_state = on_state
        self._on_table = on_table
        self._session = session
        self._rng = rng
        self._played = False

        def notify(state: State) -> None:  # read at each change: a subclass may set the sink
            if self._on_state is not None:
                self._on_state(state)

        def told(table: Table) -> None:
            if self._on_table is not None:
                self._on_table(table)

        self._machine = Machine(
            self, game_factory, lambda text: self.show_dialog(text), notify, told
        )
        self._driver = Driver(self._machine, on_ticket)
        self._controls = Controls(self._machine, self._driver)

    @classmethod
    def resume(
        cls,
        relay_url: str,
        ticket: Ticket,
        game_factory: GameFactory,
        *,
        timing: Timing | None = None,
        dialog: DialogSink | None = None,
        on_state: StateSink | None = None,
        on_table: TableSink | None = None,
        on_ticket: TicketSink | None = None,
        session: aiohttp.ClientSession | None = None,
        rng: random.Random | None = None,
    ) -> Self:
        """Returns a host that takes up the seat `ticket` again, after a restart.

        Its `play()` reads the whole log, creates the game and hands it the moves so far through
        `Game.restore()`, then plays on. Nothing already in the log is sent again. The game data
        kept with the ticket is `host.kept`; `on_ticket` is told the ticket again each time
        the game keeps new data (`keep()`).
        """
        host = cls(
            relay_url,
            "",
            game_factory,
            timing=timing,
            dialog=dialog,
            on_state=on_state,
            on_ticket=on_ticket,
            on_table=on_table,
            session=session,
            rng=rng,
        )
        host._machine.ticket = ticket
        host._driver.resumed = True
        return host

    def __repr__(self) -> str:
        return f"<RelayHost {self.relay_url!r} {self.game_key!r} state={self.state!r}>"

    # -- what a game and a UI do (what they see: sdk.host.view) ----------------------------

    def keep(self, text: str) -> None:
        """Keeps the game's private data for this match with this side's seat: the ticket
        becomes one with `kept=text`, and `on_ticket` is told it (save it as ever: the file of
        `Ticket.save()` is written whole, readable by its owner only). Never sent to the relay.
        Raises HostStateError before the seek has a seat, ValueError past KEPT_LIMIT."""
        if not isinstance(text, str):
            raise TypeError(NOT_KEPT.format(text=text))
        with self._machine.lock:
            ticket = self._machine.ticket
            if ticket is None:
                raise HostStateError(NOT_SEATED.format(what="keep()", state=self.state))
            ticket = self._machine.ticket = dataclasses.replace(ticket, kept=text)
        if self._driver.on_ticket is not None:
            self._driver.on_ticket(ticket)

    def move(self, move: str, end_game: bool = False) -> None:
        """Sends this side's move; `end_game` says the game is over with it.

        Allowed only in PLAYING_TO_MOVE: otherwise raises NotYourTurnError and sends nothing.
        The state becomes WAITING_SERVER_RESPONSE, the game is disabled at once, and the move is
        posted (retried until the relay accepts it): then PLAYING_WAIT_MOVE, or GAME_ENDED.
        """
        if not isinstance(move, str):
            raise TypeError(NOT_TEXT.format(move=move))
        if not _is_text(move):
            raise ValueError(NOT_TEXT.format(move=move))
        self._controls.take_turn("move", move, bool(end_game))

    def pass_turn(self) -> None:
        """Passes this side's turn back to the partner: by choice, or for want of a legal move.

        Allowed only in PLAYING_TO_MOVE, like `move()`: otherwise raises NotYourTurnError and
        sends nothing. The state becomes WAITING_SERVER_RESPONSE, the game is disabled at once,
        and the pass is posted: then PLAYING_WAIT_MOVE. The partner's game may dispute it.
        """
        self._controls.take_turn("pass", "", False)

    def show_dialog(self, text: str) -> None:
        """Shows a message to this side's player, through the `dialog` given (default: print)."""
        self._dialog(text)

    def resign(self) -> None:
        """Resigns the match (the partner wins); while seeking, withdraws the seek instead.

        Takes effect at once: the state becomes GAME_ENDED and the game is disabled; `play()`
        returns when the relay has recorded it. Does nothing once the match is over.
        """
        self._controls.leave()

    def cancel(self) -> None:
        """Withdraws the seek (before `play()` or while LISTENING): `play()` returns CANCELLED.

        If a partner has joined already, the new match is resigned instead, just as when the
        partner joins before the withdrawal reaches the relay. Does nothing once it is over.
        """
        self._controls.leave()

    def close(self) -> None:
        """Stops playing at once, without resigning or withdrawing: `play()` returns an Outcome
        with Reason.CLOSED, and the seat stays the player's, to take up again with
        `RelayHost.resume(relay_url, host.ticket, ...)` before the relay's grace period ends
        it (a waiting seek, before its --seek-grace). A write under way is finished first. Any
        thread may call it; does nothing once the match is over.
        """
        self._controls.close()

    # -- the match (the calls from its seat at the table: sdk.host.seated) ----------------

    async def play(self) -> Outcome:
        """Plays the match to its end and returns the Outcome; one call per host.

        Network faults are retried (see Timing); a final failure ends the match with a dialog
        and an Outcome (Reason.CONNECTION_LOST or Reason.ERROR), never an exception. An
        exception raised by the game's own code propagates (the seat can then be resumed).
        """
        if self._played:
            raise HostStateError(PLAYED_TWICE)
        self._played = True
        self._controls.bind()

        async def seek(client: RelayClient) -> Ticket:
            return await client.seek(
                self.game_key,
                self.version,
                self.room,
                time_control=self.time_control,
                player=self.player,
                contact=self.contact,
                name=self.name,
                rating_range=self.rating_range,
            )

        async with self.open_client() as client:
            return await self._driver.run(client, seek)

    @contextlib.asynccontextmanager
    async def open_client(self) -> AsyncIterator[RelayClient]:
        """Opens a RelayClient to the host's relay, with its timing, on its session (or on a
        new one, closed at the end)."""
        if self._session is not None:
            yield RelayClient(self._session, self.relay_url, self.timing, self._rng)
            return
        async with aiohttp.ClientSession() as session:
            yield RelayClient(session, self.relay_url, self.timing, self._rng)

    async def rating_change(self, wait: float = 3.0) -> RatingChange | None:
        """Returns how the finished match moved this side's rating (before, after), waiting up
        to `wait` seconds while the relay is rating it; None when it is not rated (a seat
        without a player key, a result nobody can trust, a relay without ratings) or not over."""
        ticket, outcome = self._machine.ticket, self._machine.outcome
        if ticket is None or outcome is None or not outcome.is_finished:
            return None
        async with self.open_client() as client:
            deadline = asyncio.get_running_loop().time() + wait
            while True:
                rated = await client.match_ratings(ticket.match)
                if rated.rated is True and rated.changes is not None:
                    return rated.changes[ticket.seat]
                if rated.rated != "pending" or asyncio.get_running_loop().time() > deadline:
                    return None
                await asyncio.sleep(0.2)

    async def offer_rematch(self) -> RelayHost | None:
        """Offers or accepts a rematch: the new match's host, or None (declined, lapsed)."""
        return await rematches.offer(self)

    async def decline_rematch(self) -> rematches.Rematch:
        """Declines the partner's rematch offer (or says no ahead of one)."""
        return await rematches.decline(self)

    async def next_rematch(self, after: int = 0) -> rematches.Rematch:
        """Returns the rematch once it changed past version `after` (an offer, a decline...)."""
        return await rematches.news(self, after)

    def resumed(self, game_factory: GameFactory | None = None) -> RelayHost:
        """Returns a host that takes this host's seat up again (after `close()`, or in another
        process given the ticket), with the same relay, sinks and timing, its game made anew
        by game_factory (default: this host's); start its `play()` to go on."""
        ticket = self.ticket
        if ticket is None:
            raise HostStateError(NOT_SEATED.format(what="resumed()", state=self.state))
        return type(self).resume(
            self.relay_url,
            ticket,
            game_factory or self._factory,
            timing=self.timing,
            dialog=self._dialog,
            on_state=self._on_state,
            on_table=self._on_table,
            on_ticket=self._driver.on_ticket,
            session=self._session,
            rng=self._rng,
        )

    def rematch_host(self, accepted: rematches.Rematch) -> RelayHost:
        """Returns the host of an accepted rematch's new match, from the same seat, with the
        same game factory, sinks and timing (the seat keeps its token)."""
        ticket = self.ticket
        assert ticket is not None and accepted.match is not None
        return type(self).resume(
            self.relay_url,
            Ticket(accepted.match, ticket.seat, ticket.token),
            self._factory,
            timing=self.timing,
            dialog=self._dialog,
            on_state=self._on_state,
            on_table=self._on_table,
            session=self._session,
            rng=self._rng,
        )


def _is_text(move: str) -> bool:
    try:
        move.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _print(text: str) -> None:
    print(text, flush=True)
