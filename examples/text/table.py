"""The table around a terminal match: the opponent's name and presence, chat, draw offers,
takebacks and claims, told as they happen and asked for with commands ("/say gg")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sdk import (
    ChatLine,
    ConnectionLostError,
    HostStateError,
    RelayHost,
    RelayRefusedError,
    State,
    Table,
)
from sdk.moderation import ERASED, REPORT_ABOUT

__all__ = ["COMMANDS", "TableTalk"]

COMMANDS = (
    "Commands: /say TEXT (chat), /draw (offer a draw), /takeback (ask to take back your last "
    "move), /yes or /no (answer your opponent's offer), /claim (win against an opponent who "
    "stopped moving), /mute or /block (hide their chat; a block also never pairs you again), "
    "/report play|name|chat [WORDS] (tell the host), /help."
)
PLAYING_AGAINST = "You play against {name}."
AWAY = "Your opponent disconnected: {left} to come back."
AWAY_FOR_GOOD = "Your opponent disconnected."
BACK = "Your opponent is back."
SAID = "{who}: {text}"
OFFERS = {
    "draw": "Your opponent offers a draw: /yes or /no.",
    "takeback": "Your opponent asks to take back their last move: /yes or /no.",
}
ANSWERED = {
    ("draw", "declined"): "Your opponent declined the draw.",
    ("takeback", "declined"): "Your opponent declined to take the move back.",
    ("draw", "withdrawn"): "Your opponent withdrew the draw offer.",
    ("takeback", "withdrawn"): "Your opponent withdrew the takeback request.",
}
TAKEN_BACK = "The move was taken back."
OFFERED = {"draw": "Draw offered.", "takeback": "Takeback asked."}
CLAIMABLE = "Your opponent has stopped moving: /claim wins the match."
NOT_NOW = "Not now: {why}."
LAPSED = "Too late: the match moved on, and that offer lapsed."
MUTED = {"mute": "Muted: their chat is hidden.", "block": "Blocked: their chat is hidden, and "
         "you will not be paired again."}  # fmt: skip
MUTED_HERE = "Muted in this match. To keep mutes and blocks, play with your player key (--rated)."
REPORTED = "Reported to the host. Thank you."
REPORT_HOW = "Say what you report: /report play, /report name or /report chat, then any words."
UNKNOWN = "Unknown command {command!r}. " + COMMANDS


class TableTalk:
    """Tells a person what happens at the table and carries out their commands."""

    def __init__(
        self,
        say: Callable[[str], None],
        host: Callable[[], RelayHost | None],
        taken_back: Callable[[], None] = lambda: None,
    ) -> None:
        self.say = say
        """Writes a line for the person."""
        self.host = host
        """Returns the host of the match in play (None between matches)."""
        self.taken_back = taken_back
        """Called once a takeback was carried out (the board is drawn again)."""
        self._named = False
        self._away: list[bool] = [False, False]
        self._offer: tuple[str, int, int, str] | None = None
        self._heard = 0
        self._claimable = False
        self._muted: bool | None = None
        """Whether the partner's chat is hidden (None: not known yet for this match)."""
        self._held: list[ChatLine] = []
        """The partner's lines heard before _muted was known."""
        self._checking: asyncio.Task[None] | None = None
        self._match = ""
        """The match the state above is of (a rematch starts it afresh)."""

    def news(self, table: Table) -> None:
        """Tells what changed at the table (a RelayHost's `on_table`)."""
        host = self.host()
        ticket = None if host is None else host.ticket
        if ticket is None:
            return
        if ticket.match != self._match:
            self._match, self._named, self._heard, self._offer = ticket.match, False, 0, None
            self._away, self._claimable, self._muted, self._held = [False, False], False, None, []
            self._checking = None
        other = 1 - ticket.seat
        name = table.names[other]
        if not self._named and name is not None:
            self._named = True
            self.say(PLAYING_AGAINST.format(name=name))
        presence = table.presence[other]
        if not presence.here and not self._away[other]:
            left = presence.abandon_in
            self.say(AWAY.format(left=f"{left:.0f} s") if left is not None else AWAY_FOR_GOOD)
        elif presence.here and self._away[other]:
            self.say(BACK)
        self._away[other] = not presence.here
        for line in table.chat:
            if line.n > self._heard:
                self._heard = line.n
                if line.seat == other:
                    self._partner_said(host, line, name)
        self._tell_offer(table, ticket.seat)
        claimable = table.claim_in is not None and table.claim_in <= 0
        waiting = host is not None and host.state is State.PLAYING_WAIT_MOVE
        if claimable and not self._claimable and waiting:
            self.say(CLAIMABLE)
        self._claimable = claimable

    def _partner_said(self, host: RelayHost | None, line: ChatLine, name: str | None) -> None:
        """Shows a line of the partner's, unless this key muted or blocked it (asked of the
        relay once per match, the lines heard meanwhile held)."""
        if self._muted is None and host is not None and host.player is not None:
            self._held.append(line)
            if self._checking is None:
                self._checking = asyncio.get_running_loop().create_task(self._check(host, name))
            return
        if not self._muted:
            self.say(SAID.format(who=name or "Opponent", text=line.text or ERASED))

    async def _check(self, host: RelayHost, name: str | None) -> None:
        try:
            self._muted = await host.partner_muted()
        except (RelayRefusedError, HostStateError, ConnectionLostError):
            self._muted = False
        held, self._held = self._held, []
        for line in held:
            self._partner_said(host, line, name)

    def _tell_offer(self, table: Table, seat: int) -> None:
        offer = table.offer
        if offer is None:
            return
        key = (offer.kind, offer.by, offer.at, offer.state)
        if key == self._offer:
            return
        self._offer = key
        if offer.by != seat and offer.standing:
            self.say(OFFERS[offer.kind])
        elif offer.by == seat and (offer.kind, offer.state) in ANSWERED:
            self.say(ANSWERED[(offer.kind, offer.state)])
        elif offer.kind == "takeback" and offer.state == "accepted":
            self.say(TAKEN_BACK)
            self.taken_back()

    async def command(self, line: str) -> bool:
        """Carries out a command line ("/..."); returns False for a line that is not one."""
        text = line.strip()
        if not text.startswith("/"):
            return False
        word, _, rest = text.partition(" ")
        host = self.host()
        if host is None:
            self.say(NOT_NOW.format(why="no match in play"))
            return True
        try:
            await self._run(host, word.lower(), rest.strip())
        except RelayRefusedError as error:
            # A person reads the relay's words, not its status and code. An answer to an offer
            # that the match moved past (a move or another answer first) is refused as stale.
            answering = word.lower() in ("/yes", "/no")
            lapsed = answering and error.code == "turn/stale"
            self.say(LAPSED if lapsed else NOT_NOW.format(why=error.message.rstrip(".")))
        except (HostStateError, ConnectionLostError) as error:
            self.say(NOT_NOW.format(why=str(error).rstrip(".")))
        return True

    async def _run(self, host: RelayHost, word: str, rest: str) -> None:
        if word == "/say" and rest:
            await host.say(rest)
        elif word == "/draw":
            await host.offer_draw()
            self.say(OFFERED["draw"])
        elif word == "/takeback":
            await host.ask_takeback()
            self.say(OFFERED["takeback"])
        elif word in ("/yes", "/no"):
            await host.answer_offer(word == "/yes")
        elif word == "/claim":
            await host.claim()
        elif word in ("/mute", "/block"):
            if host.player is None and word == "/mute":
                self._muted = True
                self.say(MUTED_HERE)
                return
            await host.block("mute" if word == "/mute" else "block")
            self._muted = True
            self.say(MUTED[word[1:]])
        elif word == "/report":
            about, _, words = rest.partition(" ")
            if about not in REPORT_ABOUT:
                self.say(REPORT_HOW)
                return
            await host.report(about, words.strip())
            self.say(REPORTED)
        elif word == "/help":
            self.say(COMMANDS)
        else:
            self.say(UNKNOWN.format(command=word))
