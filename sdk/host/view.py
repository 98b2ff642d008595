"""HostView: what a host shows its game and its UI, read from its state machine and loop."""

from __future__ import annotations

from sdk.clock import Clock
from sdk.game import Game
from sdk.host.driver import Driver
from sdk.host.machine import Machine
from sdk.outcome import Outcome
from sdk.state import State
from sdk.table import ChatLine, Table
from sdk.ticket import Ticket

__all__ = ["HostView"]


class HostView:
    """The read side of a host (RelayHost has it): its state, game, seat, kept data, clock,
    outcome, table, chat and retries, each as its Machine or its Driver knows it now."""

    _machine: Machine
    _driver: Driver

    @property
    def state(self) -> State:
        """Returns the host's current state."""
        return self._machine.state

    @property
    def game(self) -> Game | None:
        """Returns the game, once the match has started (and still once it is over)."""
        return self._machine.game

    @property
    def ticket(self) -> Ticket | None:
        """Returns this side's seat (match id, seat, token) once seated; keep it to resume."""
        return self._machine.ticket

    @property
    def kept(self) -> str | None:
        """Returns the game data last kept with this side's seat (`keep()`; after a resume, what
        the ticket kept), or None."""
        ticket = self._machine.ticket
        return None if ticket is None else ticket.kept

    @property
    def end_claimed(self) -> bool:
        """Returns, while the game's `receive_move()` runs, whether the partner's move said the
        game is over (sent with `end_game=True`); False at any other time."""
        return self._machine.end_claimed

    @property
    def clock(self) -> Clock | None:
        """Returns the seats' clocks once a match with a time control started (see
        GameHost.clock), else None."""
        return self._machine.clock

    @property
    def outcome(self) -> Outcome | None:
        """Returns how the match ended, once it has."""
        return self._machine.outcome

    @property
    def table(self) -> Table | None:
        """Returns the match's table as last reported: names, presence, the last offer, the
        chat lines of that report, when a staller may be claimed against (None before)."""
        return self._machine.table

    @property
    def chat(self) -> list[ChatLine]:
        """Returns every chat line heard so far, in order (show them as text)."""
        return list(self._machine.chat)

    @property
    def retries(self) -> int:
        """Returns how many requests were sent again after a transient fault."""
        client = self._driver.client
        return client.retries if client is not None else 0
