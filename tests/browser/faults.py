"""Connection faults in the browser tests: the relay killed, the console reports of the
requests its death made fail forgiven, a page seen saying it is reconnecting."""

from __future__ import annotations

import re
import signal

from playwright.sync_api import expect

from tests.browser.players import Player
from tests.support.relay_process import RelayProcess

__all__ = [
    "FAILED_LOAD",
    "NOTICED_WITHIN_MS",
    "RECONNECTING",
    "expect_reconnecting",
    "forgive_failed_loads",
    "kill",
    "kill_after_a_held_move",
]

RECONNECTING = "Reconnecting to the relay..."
"""What a page's status line says while its requests to the relay fail."""

NOTICED_WITHIN_MS = 2_000
"""How soon after its requests start failing a page must say that it is reconnecting."""

FAILED_LOAD = re.compile(
    r"^console: Failed to load resource: (net::ERR_\w+"
    r"|the server responded with a status of (404 \(Not Found\)|503 \(Service Unavailable\)))$"
)
"""Chromium's console report of each request the relay's death made fail."""


def kill(relay: RelayProcess) -> None:
    """Kills the relay process at once (SIGKILL): every connection to it breaks."""
    relay.stop(signal.SIGKILL)


def kill_after_a_held_move(relay: RelayProcess, x: Player, o: Player) -> None:
    """Plays X's first move (the centre), seen by O and held by the relay as X's move post
    (so the relay has it), then kills the relay."""
    x.play_cell("11")
    expect(o.cell("11")).to_have_text("X")
    x.expect_state("PLAYING_WAIT_MOVE")
    kill(relay)


def forgive_failed_loads(*sides: Player) -> None:
    """Drops Chromium's console reports of the requests this test made fail; anything else a
    page logged stays an error of the test."""
    for side in sides:
        side.errors[:] = [error for error in side.errors if not FAILED_LOAD.match(error)]


def expect_reconnecting(side: Player, text: str = RECONNECTING) -> None:
    """Waits (briefly) until the side's status line says it is reconnecting."""
    expect(side.status).to_have_text(text, timeout=NOTICED_WITHIN_MS)
    expect(side.page.locator("body")).to_have_attribute("data-reachable", "false")
