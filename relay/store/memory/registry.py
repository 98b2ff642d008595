"""The memory store's one registry of matches, and what every part of the store shares: the
waiting lists and rooms, each key's matches, names and ratings, the turn sink, the loop the
waits run on, and the few steps every part takes on a match (look it up, summarise it, show
a seat back, tell a turn, expire a seek, wake the table's readers)."""

from __future__ import annotations

import asyncio
from collections import Counter, deque

from relay.core.clock import Clock
from relay.core.errors import RelayError
from relay.core.model import Event, MatchInfo, Status, StoreSettings, behind, hash_token
from relay.core.players import patience
from relay.core.rematch import Rematch
from relay.core.turns import EndSink, TurnNotice, TurnSink
from relay.store.memory.key_lists import KeyLists
from relay.store.memory.match import EXPIRED, PLAYING, WAITING, Held, Match
from relay.store.memory.moderation import MemoryModeration
from relay.store.memory.names import MemoryNames
from relay.store.memory.ratings import MemoryRatings
from relay.store.memory.wakes import Wakes

__all__ = ["Registry"]


class Registry:
    """Every match of one memory store, by id, and the state its parts share."""

    def __init__(self, settings: StoreSettings) -> None:
        self.settings = settings
        self.matches: dict[str, Match] = {}
        """Match id -> the match, until the reaper forgets it."""
        self.endings: Counter[str] = Counter()
        """How many matches ended, by reason."""
        self.queues: dict[tuple[str, str], deque[Match]] = {}
        """(game, version and control) -> its waiting seeks, oldest first."""
        self.rooms: dict[tuple[str, str], Match] = {}
        """(game, room) -> the match the room holds."""
        self.waiting: dict[str, int] = {}
        """Game -> how many of its matches wait for a second seat."""
        self.reseeks: dict[str, tuple[str, int, float]] = {}
        """Seat token digest -> (match, seat, until): the same seek repeated gets its ticket."""
        self.rematches: dict[str, Rematch] = {}
        """Match id -> its rematch, once someone offered one."""
        self.keys = KeyLists()
        """The matches each player key seated."""
        self.names = MemoryNames()
        self.ratings = MemoryRatings()
        """Each key's ratings, and each rated match's (docs/ratings.md)."""
        self.wakes = Wakes()
        """Wakes waits on rematches ('rematch:ID') and lobbies ('lobby:GAME')."""
        self.moderation = MemoryModeration(
            settings, self.matches, self.keys, self.names, self.ratings, self.table_changed
        )
        """Bans, reports, blocks, voids and erasures (relay.store.moderation)."""
        self.turns: TurnSink | None = None
        """Told of turns given in matches with a time control (see Hooks.turns)."""
        self.ended: EndSink | None = None
        """Told of matches a seat's write may have ended (see Hooks.ended)."""
        self.timed = False
        """Whether turns of matches with a clock are told too (see Hooks.timed)."""
        self.closing = False
        """Set at shutdown: every wait is answered at once."""
        self.ticks: dict[int, set[Held]] = {}
        """Tick number -> the waits that time out at that tick (see match.TICK)."""
        self.tables_due: set[Match] = set()
        """Matches whose table changed this turn, their table-aware waits still to end."""
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self, match: str) -> Match:
        """Returns the match; raises match/unknown or match/expired."""
        state = self.matches.get(match)
        if state is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        if state.status is EXPIRED:
            raise RelayError("match/expired")
        return state

    def read(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[Match, int | None, list[Event]]:
        """Returns the match, the reader's seat (None for a spectator) and the events above
        after (Matches.poll); a seat is marked present."""
        state = self.get(match)
        seat = None
        if token is not None:
            seat = state.seat_of(hash_token(token))
            self.mark_present(state, seat, now)
            if seat == 0 and state.paired is not None and state.status is WAITING:
                self.start(state, state.paired[1], now)  # the waiting seat is live
        if after > len(state.events):
            raise behind(after, len(state.events))
        return state, seat, state.events[after:]

    def status(self, match: str) -> Status | None:
        """Returns the match's status, or None when it is forgotten."""
        state = self.matches.get(match)
        return None if state is None else state.status

    def summary(self, state: Match) -> MatchInfo:
        """Returns the match's summary (Matches.info)."""
        rated = self.ratings.of_match(state.id)
        return MatchInfo(
            match=state.id,
            game=state.game,
            version=state.version,
            room=state.room,
            status=state.status,
            turn=state.turn if state.status is PLAYING else None,
            last=len(state.events),
            first=state.first,
            clock=None
            if state.control is None
            else Clock(state.control, (state.clock[0], state.clock[1]), state.turn_at),
            names=(state.table.names[0], state.table.names[1]),
            rated="voided" if self.ratings.is_voided(state.id) else rated is not None,
            ratings=None if rated is None else rated.pairs(),
            keys=(state.players[0], state.players[1]),
        )

    def running_loop(self) -> asyncio.AbstractEventLoop:
        """Returns the loop waits use: the one kept, or the running one once that is closed
        (tests run several in turn)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            loop = self._loop = asyncio.get_running_loop()
            self.ticks = {}
        return loop

    def table_changed(self, state: Match) -> None:
        """Ends the table-aware waits on the match, its table changed, once the write that
        changed it is done (on the loop's next turn): an event the same write appends (an
        accepted takeback's undo, a move by a seat back from away) reaches them with it."""
        if not self.tables_due:
            self.running_loop().call_soon(self._wake_tables)
        self.tables_due.add(state)

    def _wake_tables(self) -> None:
        """Ends the table-aware waits on every match whose table changed since the last turn."""
        due, self.tables_due = self.tables_due, set()
        for state in due:
            state.wake_tables()

    def mark_present(self, state: Match, seat: int, now: float) -> None:
        """Notes that seat polled or wrote now, showing it here again if it was away."""
        state.seen[seat] = now
        if state.table.away[seat] is not None and state.table.back(seat):
            self.table_changed(state)

    def start(self, state: Match, first: int, now: float) -> None:
        """Starts a waiting match whose seat 1 is taken: first moves first."""
        state.paired = None
        state.since = now
        state.start(first, now)
        self.tell_start(state)

    def tell(self, state: Match, seat: int, seq: int, due: float) -> None:
        """Tells the turn sink that event seq gave seat the turn, if the seat has a contact
        (in a correspondence match) or a player key."""
        sink, contact, player = self.turns, state.contacts[seat], state.players[seat]
        correspondence = state.is_correspondence()
        if sink is not None and ((contact is not None and correspondence) or player):
            notice = TurnNotice(
                state.id, state.game, seat, seq, contact or "", due, player, correspondence
            )
            sink(notice)

    def tell_start(self, state: Match) -> None:
        """Tells the turn sink that a match with a per-move deadline began (its first mover)."""
        first = state.first
        if self.turns is not None and first is not None and state.is_correspondence():
            self.tell(state, first, 1, (state.turn_at + state.clock[first]) / 1000)

    def is_stale(self, state: Match, now: float) -> bool:
        """Whether a waiting seek's seeker is gone: paired, it did not poll again within the
        pair window (a ghost: the match expires unstarted); without a per-move deadline, its
        last held poll ended with its client gone --seek-grace ago, or it began no poll for
        --hold and --seek-grace (within the grace period in any case); with one, it began no
        poll for the control's patience."""
        settings = self.settings
        paired = state.paired
        if paired is not None and paired[0] + settings.pair_window < now:
            return True
        seen = state.seen[0]
        if state.is_correspondence():
            return seen + patience(state.control, settings.grace) < now
        gone = state.table.gone[0]
        if gone >= seen and gone + settings.seek_grace <= now:
            return True
        return seen + min(settings.grace, settings.hold + settings.seek_grace) < now

    def expire(self, state: Match, now: float) -> None:
        """Ends a waiting seek unpaired, freeing its room and answering its waits."""
        if state.paired is None:  # a paired match no longer counts as waiting (seeks._join)
            self.waiting[state.game] -= 1
        state.status = EXPIRED
        state.since = now
        self.free_room(state)
        state.wake_all()

    def free_room(self, state: Match) -> None:
        """Frees the room the match holds, if it holds one."""
        if state.room is not None and self.rooms.get((state.game, state.room)) is state:
            del self.rooms[(state.game, state.room)]

    def claim_at(self, state: Match) -> float | None:
        """Returns when the partner of the seat to move may claim the win, if it may."""
        after = self.settings.claim_after
        if state.status is not PLAYING or state.control is not None or after <= 0:
            return None
        return state.turn_at / 1000 + after
