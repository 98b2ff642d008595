"""The synchronous entry point: one call plays one match, for simple scripts."""

from __future__ import annotations

import asyncio

from sdk.game import GameFactory
from sdk.outcome import Outcome
from sdk.relay_host import DialogSink, RelayHost, StateSink, TicketSink
from sdk.ticket import Ticket
from sdk.timing import Timing

__all__ = ["play"]

IN_A_LOOP = "sdk.play() runs its own event loop; inside a running one, await RelayHost(...).play()"


def play(
    relay_url: str,
    game_key: str,
    game_factory: GameFactory,
    *,
    version: str = "",
    room: str | None = None,
    ticket: Ticket | None = None,
    timing: Timing | None = None,
    dialog: DialogSink | None = None,
    on_state: StateSink | None = None,
    on_ticket: TicketSink | None = None,
) -> Outcome:
    """Plays one match through the relay and returns its Outcome; blocks until it is over.

    With `ticket`, resumes that seat instead of seeking (see `RelayHost.resume`). Runs its own
    event loop (`asyncio.run`), so call it where no loop is running.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError(IN_A_LOOP)
    if ticket is not None:
        host = RelayHost.resume(
            relay_url, ticket, game_factory, timing=timing, dialog=dialog, on_state=on_state
        )
    else:
        host = RelayHost(
            relay_url,
            game_key,
            game_factory,
            version=version,
            room=room,
            timing=timing,
            dialog=dialog,
            on_state=on_state,
            on_ticket=on_ticket,
        )
    return asyncio.run(host.play())
