"""RelayHost's parts: its state machine, its polling loop, its thread bridge, what it shows
and its calls from its seat."""

from __future__ import annotations

# sdk.relay_host.RelayHost puts the parts together; this package re-exports nothing, so that
# importing one part never runs the others. Each layer imports only those below it:
#   seated    the calls from the seat of the match in play: chat, reports, blocks, offers, claims
#   view      what a host shows its game and UI: its state, seat, clock, outcome, table, chat
#   controls  moves, passes, resignations and withdrawals from any thread, into the loop
#   driver    the polling/HTTP loop: seeks, polls, posts, heals, and feeds the machine
#   inbox     the queue of the log's events the loop reads, and the poll that fills it
#   machine   what is done with each event, the six states and the cursor; no network
#   ticks     the seats' clocks, moved on by the events

__all__ = []
