"""The table of a match in the memory store: names, presence, the standing offer and the
chat, kept beside the match's log (relay.core.table says what each means)."""

from __future__ import annotations

from relay.core.errors import RelayError
from relay.core.table import (
    AWAY,
    CHAT_KEEP,
    CHAT_SAME,
    ChatLine,
    Offer,
    OfferKind,
    OfferState,
    Table,
    settle,
    takeback_count,
)
from relay.core.throttle import admit

__all__ = ["TableState", "offer_refusal"]


class TableState:
    """One match's table, as the memory store changes it."""

    __slots__ = (
        "away", "chat", "chat_due", "gone", "names", "offer", "offer_due", "undone", "version"
    )  # fmt: skip

    def __init__(self) -> None:
        self.version = 1
        """1 for a table nothing happened at: a reader with version 0 reads it at once."""
        self.names: list[str | None] = [None, None]
        self.gone = [0.0, 0.0]
        """When each seat's last held poll ended with its client gone (0: never since)."""
        self.away: list[float | None] = [None, None]
        """Since when each seat is shown away (None: here)."""
        self.offer: Offer | None = None
        self.chat: list[ChatLine] = []
        self.undone = 0
        """Events of the log that are not live moves or passes besides `started`: each undo
        event and the moves and passes it took back."""
        self.chat_due = [0.0, 0.0]
        """When each seat's next chat line is due (relay.core.throttle)."""
        self.offer_due = [0.0, 0.0]
        """When each seat's next offer or withdrawal is due (relay.core.throttle)."""

    def plies(self, last: int) -> int:
        """Returns the moves and passes in play (not taken back) of a log ending at last."""
        return last - 1 - self.undone

    def view(
        self,
        last: int,
        playing: bool,
        chat_after: int,
        abandon_at: tuple[float | None, float | None],
        claim_at: float | None,
        claim_after: float | None = None,
    ) -> Table:
        """Returns the table as readers see it: a standing offer the log moved past lapsed."""
        return Table(
            self.version,
            (self.names[0], self.names[1]),
            (self.away[0], self.away[1]),
            abandon_at,
            settle(self.offer, last, playing),
            tuple(line for line in self.chat if line.n > chat_after),
            claim_at,
            claim_after,
        )

    def offer_made(
        self,
        kind: OfferKind,
        seat: int,
        last: int,
        turn: int | None,
        playing: bool,
        now: float,
        per_minute: int,
    ) -> bool:
        """Records seat's offer at the position after event last; returns False when it
        stood already (nothing changed). Raises what refuses it, offer/too_fast past
        per_minute offers and withdrawals of the seat."""
        if not playing:
            raise RelayError("offer/not_playing")
        current = settle(self.offer, last, True)
        if current is not None:
            refusal = offer_refusal(current, kind, seat, last)
            if refusal == "same":
                return False
            if refusal is not None:
                raise RelayError(refusal)
        count = takeback_count(seat, turn, self.plies(last)) if kind == "takeback" else 0
        self._pace(self.offer_due, seat, now, per_minute, "offer/too_fast")
        self.offer = Offer(kind, seat, last, "offered", count)
        self.version += 1
        return True

    def offer_declined(
        self, seat: int, last: int, playing: bool, now: float, per_minute: int
    ) -> bool:
        """Declines the partner's standing offer, or withdraws seat's own (offer/too_fast
        past per_minute offers and withdrawals); returns False when none stood (nothing
        changed)."""
        current = settle(self.offer, last, playing)
        if current is None or current.state != "offered":
            return False
        if current.by == seat:
            self._pace(self.offer_due, seat, now, per_minute, "offer/too_fast")
        state: OfferState = "withdrawn" if current.by == seat else "declined"
        self.offer = Offer(current.kind, current.by, current.at, state, current.count)
        self.version += 1
        return True

    def offer_accepted(self, seat: int, last: int, playing: bool) -> Offer:
        """Marks the partner's standing offer accepted and returns it; raises offer/none."""
        current = settle(self.offer, last, playing)
        if current is None or current.state != "offered" or current.by == seat:
            raise RelayError("offer/none")
        self.offer = Offer(current.kind, current.by, current.at, "accepted", current.count)
        self.version += 1
        return current

    def said(self, seat: int, text: str, last: int, now: float, per_minute: int) -> int:
        """Adds a chat line and returns its number; the same line sent again answers its
        number, once. Raises chat/too_fast past per_minute lines of the seat."""
        for line in reversed(self.chat[-4:]):
            if line.seat == seat and line.text == text and line.at == last:
                if now - line.time <= CHAT_SAME:
                    return line.n
                break
        if len(self.chat) >= CHAT_KEEP:
            raise RelayError("chat/full")
        self._pace(self.chat_due, seat, now, per_minute, "chat/too_fast")
        n = len(self.chat) + 1
        self.chat.append(ChatLine(n, seat, text, last, now))
        self.version += 1
        return n

    def erase_chat(self, seat: int) -> int:
        """Erases the seat's chat lines (their text becomes ''); returns how many."""
        erased = 0
        for index, line in enumerate(self.chat):
            if line.seat == seat and line.text:
                self.chat[index] = ChatLine(line.n, seat, "", line.at, line.time)
                erased += 1
        return erased

    @staticmethod
    def _pace(due: list[float], seat: int, now: float, per_minute: int, code: str) -> None:
        """Counts one write of seat against its pace; raises `code` with the wait past it."""
        due[seat], wait = admit(due[seat], now, per_minute)
        if wait:
            raise RelayError(code, retry_after=wait)

    def back(self, seat: int) -> bool:
        """Notes that seat polled or wrote; returns True when that brought it back."""
        self.gone[seat] = 0.0
        if self.away[seat] is None:
            return False
        self.away[seat] = None
        self.version += 1
        return True

    def absent(self, seat: int, seen: float, now: float, hold: float) -> float | None:
        """Returns since when seat is absent, now, or None while it may hold a poll: its last
        held poll ended with its client gone AWAY seconds ago, or it began none for hold +
        AWAY seconds."""
        gone = self.gone[seat]
        if gone >= seen and gone + AWAY <= now:
            return gone
        if seen + hold + AWAY < now:
            return seen
        return None


def offer_refusal(current: Offer, kind: OfferKind, seat: int, last: int) -> str | None:
    """Returns what refuses seat's new offer of kind while the last offer is `current`:
    'same' when it is that very offer standing, an error code, or None (it may be made)."""
    if current.state == "offered":
        if current.by == seat and current.kind == kind:
            return "same"
        return "offer/pending"
    declined = current.state == "declined" and current.at == last
    if declined and current.by == seat and current.kind == kind:
        return "offer/declined"
    return None
