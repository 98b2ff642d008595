"""The store interface: the one source of truth for matches and their event logs."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, NamedTuple, Protocol

from relay.core.clock import TimeControl
from relay.core.lobby import Lobby, LobbyKind
from relay.core.model import Action, Event, MatchInfo, Seat, Status, Ticket
from relay.core.players import PlayerMatch
from relay.core.rated import RatingRange
from relay.core.rematch import Rematch, RematchOp
from relay.core.table import OfferKind, Table
from relay.core.turns import EndSink, TurnSink
from relay.store.challenges import Challenges
from relay.store.hooks import HookState
from relay.store.moderation import Moderation
from relay.store.passkeys import Passkeys
from relay.store.push import PushSubscriptions

__all__ = [
    "Hooks", "Immediate", "Judged", "Lobbies", "Matches", "Players", "Rematches", "Store",
    "Tables", "Waited", "Wake",
]  # fmt: skip


class Judged(NamedTuple):
    """What a referee judges of a seat's write, read at once (Matches.judged)."""

    game: str
    status: Status
    """PLAYING or ENDING."""
    seat: Seat
    """The seat whose token asked."""
    events: list[Event]
    """The whole log."""


class Waited(NamedTuple):
    """What Matches.wait returns."""

    events: list[Event]
    """The events above the wait's cursor ([] when its time ran out or the table moved)."""
    table: bool
    """Whether the table may be above the version the wait was given (the caller reads it);
    always False for a wait given no version."""


Wake = Callable[[list[Event] | None, int], None]
"""Called once when a watched wait ends: with the events above its cursor (empty when its
time ran out or the relay is closing), or None when the match expired meanwhile; and the
version of the match's table then (so that a table-aware answer needs no second read)."""


class Immediate(Protocol):
    """What a store that needs no waiting to read or write (the memory store) offers besides
    its parts: a move applied and its reply awaited through callbacks, with no coroutine."""

    def poll_now(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[Seat | None, list[Event]]:
        """Matches.poll, at once."""

    def act_hashed(self, match: str, digest: str, action: Action, now: float) -> int:
        """Matches.act, at once, for a token already hashed (hash_token)."""

    def watch(
        self, match: str, after: int, timeout: float, wake: Wake, version: int | None = None
    ) -> Any:
        """Matches.wait through a callback: calls wake with the events above after once there
        are any, or with [] after timeout: at once (returning None) when there are some
        already, else later (returning the wait, whose cancel() ends it without calling
        wake). With a table version, a table above it ends the wait too."""

    def act_watch(
        self, match: str, digest: str, action: Action, now: float, timeout: float,
        wake_for: Callable[[int], Wake], version: int | None = None,
    ) -> tuple[int, Any]:  # fmt: skip
        """act_hashed, then the writer's own wait from its new event, in one call (a held
        move post): returns the event's number and what watch returns for the wake that
        wake_for(number) gives. Nothing is waited on when the write is refused."""

    def table_version(self, match: str) -> int:
        """Tables.poll's version, at once."""

    def table_now(self, match: str, chat_after: int) -> Table:
        """Tables.read's table, at once (read as a spectator)."""


class Matches(Protocol):
    """The matches and their logs: a seat sought, the log read, waited on and written to, and
    the housekeeping that ends and forgets matches."""

    async def seek(
        self,
        game: str,
        version: str,
        room: str | None,
        now: float,
        token: str | None = None,
        control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
        name: str | None = None,
        rating_range: RatingRange | None = None,
    ) -> Ticket:
        """Joins the oldest compatible waiting match, or opens a new one, and returns the seat.

        With a rating range (and a player key), only a waiting seek whose key's rating in the
        game is within it, and whose own range (if any) admits the seeker's, is joined
        (relay.core.rated.can_pair); a seek without a player key never joins a ranged one.

        Only seekers of the same time control (or both of none) are paired. With a token (the
        seeker's own, random), the seat gets that token, and the same seek repeated within the
        grace period returns the same ticket instead of a second seat. With a player key, the
        key is a second key to the seat, the seat is listed under it (player_matches), and a
        seek never joins a seek of the same key (in a room: room/same_player); a key with
        relay.players.LISTED matches not finished is refused (player/too_many). A contact is
        kept for the seat's turn notices (see Hooks.turns). A name is the seat's display name (see
        relay.core.table), kept with the match and copied to its rematches."""

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[Seat | None, list[Event]]:
        """Returns the reader's seat (None for a spectator) and the events numbered above after.

        A seat's poll also marks it present (see reap)."""

    async def wait(
        self, match: str, after: int, timeout: float, version: int | None = None,
        pairable: bool = False,
    ) -> Waited:  # fmt: skip
        """The one wait of every held request (a poll, a move post's ?wait=, a table-aware
        one): returns the events numbered above after once there are any; given the version
        of the match's table the reader has, returns ([], table=True) once the table may be
        above it; else ([], False) after timeout. A pairable wait (seat 0's, which starts a
        paired match by polling again) also returns ([], False) once the match is paired,
        even by a join made before the wait began."""

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event.

        An action carrying a referee's verdict (`ending`: a game-ending move, or a confirm)
        ends the match with the verdict's ended event in the same write: the move's, or in
        place of 'agreed' or 'disputed'. Only once, as any write: the write is applied only
        at the position it names (`after`), and a retry is answered from its digest."""

    async def info(self, match: str) -> MatchInfo:
        """Returns a summary of the match."""

    async def judged(
        self, match: str, token: str, after: int, games: Collection[str]
    ) -> Judged | None:
        """Returns what a referee judges of a write the token's seat makes at event `after`,
        read at once: the match's game and status, the seat and the whole log. Checks the
        token first: raises match/unknown, or auth/bad_token when it opens no seat, having
        read nothing else. Returns None, the log unread, when there is nothing to judge: the
        game is not in `games`, the log's last event is not `after`, or the match is neither
        in play nor ending (the write itself is then refused or applied as without a
        referee)."""

    async def left(self, match: str, token: str, started: float, now: float) -> None:
        """Notes that a held request of the token's seat, begun (and marked present) at
        `started`, ended with its client gone; ignored if the seat polled or wrote since."""

    async def reap(self, now: float) -> int:
        """Ends matches whose seats stopped polling or ran out of time, drops stale seeks,
        forgets old matches. A match with a per-move deadline control never ends for want of
        polls: only its clock ends it; its seek and a game-over move wait out
        relay.players.patience, not just the grace period.

        Returns how many matches it changed."""

    async def counts(self) -> dict[Status, int]:
        """Returns how many matches are in each status."""

    async def endings(self) -> dict[str, int]:
        """Returns how many matches the store has ended since it began, by the `ended`
        event's reason (resigned, timeout...): every process's together on a shared store."""


class Tables(Protocol):
    """The table around each match (relay.core.table): names, presence, offers and chat."""

    async def read(
        self, match: str, token: str | None, chat_after: int, now: float
    ) -> tuple[Seat | None, Table]:
        """Returns the reader's seat (None for a spectator) and the match's table, with the
        chat lines numbered above chat_after."""

    async def present(self, match: str, seat: int, now: float) -> bool:
        """Returns whether the seat may hold a poll on the match at now: it polled or wrote
        within the hold and AWAY seconds (relay.core.table), and its last held poll did not
        end with its client gone AWAY seconds ago. The rule the reaper shows a seat away by,
        read at once (the reaper of a correspondence match may not look for days)."""

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[Seat | None, list[Event], int]:
        """Matches.poll, and the version of the match's table, read at once (a table-aware
        poll reads the table itself only when its version is newer than the reader's)."""

    async def act(self, match: str, token: str, action: Action, now: float) -> tuple[int, int]:
        """Matches.act, and the version of the match's table (as poll reads it), at once."""

    async def offer(self, match: str, token: str, kind: OfferKind, after: int, now: float) -> Table:
        """Has the token's seat offer a draw or ask a takeback at the position after event
        `after` (which must be the last), and returns the table; repeating a standing offer
        changes nothing. The partner accepts it with Matches.act (kind 'accept')."""

    async def decline(self, match: str, token: str, now: float) -> Table:
        """Has the token's seat decline the partner's standing offer, or withdraw its own, and
        returns the table (unchanged when no offer stands)."""

    async def chat(self, match: str, token: str, text: str, now: float) -> int:
        """Adds a line said by the token's seat to the match's chat and returns its number;
        the same line sent again within relay.core.table.CHAT_SAME answers the same number."""


class Lobbies(Protocol):
    """Each game's lobby: the open and live matches a page lists."""

    async def add(self, game: str, kind: LobbyKind, match: str, now: float) -> None:
        """Lists a match in a game's lobby (newest first, at most lobby_size per kind)."""

    async def promote(self, game: str, match: str, now: float) -> None:
        """Moves a match from the game's open list to its live list, if it is listed."""

    async def read(self, game: str) -> Lobby:
        """Reads a game's lobby, dropping or moving entries whose match changed."""

    async def wait(self, game: str, after: int, timeout: float) -> None:
        """Returns once the game's lobby version may be above after, or after timeout."""


class Rematches(Protocol):
    """The rematch of each finished match."""

    async def step(self, match: str, token: str | None, op: RematchOp, now: float) -> Rematch:
        """Reads the rematch of a match (any reader; a token, if given, must be a seat's), or
        has the token's seat offer or decline one (relay.rematch.step). When both seats
        offered, the new match exists by the time this returns."""

    async def wait(self, match: str, after: int, timeout: float, now: float) -> Rematch:
        """Returns the rematch once its version is above after, or as it is after timeout."""


class Players(Protocol):
    """What the store keeps of each player key: its matches, its name's look, its ratings."""

    async def matches(self, player: str, now: float) -> list[PlayerMatch]:
        """Returns every match the player key seated that the store still holds (but
        cancelled or dropped seeks), in no order; [] for a key it does not know."""

    async def claim_name(self, skeletons: tuple[str, ...], player: str | None, now: float) -> bool:
        """Binds a display name's skeletons (relay.core.text_policy.skeletons) to the player
        key for StoreSettings.name_hold, or with no key only checks them; returns False,
        binding nothing, when another key holds one of them."""

    async def ratings(self, player: str, game: str | None, now: float) -> list[Any]:
        """Returns the player key's ratings, one per game it has rated matches in (only
        `game`, if given), each with its history newest first, as GET /v1/player/ratings
        answers them (relay.core.standings.standing_answer); [] for a key it does not know."""

    async def leaderboard(self, game: str, limit: int, now: float) -> list[Any]:
        """Returns the game's leaderboard: at most `limit` established ratings at `now`, best
        first, as GET /v1/games/{game}/leaderboard answers them (relay.core.standings
        board_rows), each with the name its key last played under."""

    async def seeker_rating(self, game: str, match: str, now: float) -> str | None:
        """Returns the rating, as shown ('1500?'), of the player key that opened a match (its
        seat 0) in the game; None when it has no player key or the match is gone."""


class Hooks(Protocol):
    """What the your-turn notices need of the store."""

    turns: TurnSink | None
    """Told of each turn given to a seat with a contact in a per-move-deadline match, or
    with a player key in a match with a time control (see relay.core.turns); None (the
    default) tells nobody."""

    ended: EndSink | None
    """Told of each match a seat's write may have ended (see relay.core.turns); None (the
    default) tells nobody."""

    timed: bool
    """Whether the turns of matches with a clock are told too, not only those with a
    per-move deadline (False, the default: Web Push sets it; the webhook needs none, and a
    move of a timed match then does no work for the sink)."""

    def state(self) -> HookState:
        """Returns the state the your-turn webhook keeps in this store, shared by every relay
        process on it (the same object each call)."""


class Store(Protocol):
    """Holds every match; every relay process sharing a store may answer any request. It is made
    of parts, each a small protocol, as centrifuge sets a Broker beside a PresenceManager:
    a call names its part (store.matches.act, store.tables.offer, store.lobbies.read)."""

    @property
    def matches(self) -> Matches:
        """The matches and their logs."""

    @property
    def tables(self) -> Tables:
        """The table around each match."""

    @property
    def lobbies(self) -> Lobbies:
        """Each game's lobby."""

    @property
    def rematches(self) -> Rematches:
        """The rematch of each finished match."""

    @property
    def players(self) -> Players:
        """What the store keeps of each player key."""

    @property
    def hooks(self) -> Hooks:
        """What the your-turn notices need."""

    @property
    def moderation(self) -> Moderation:
        """Bans, reports, blocks, voided ratings and erased names (relay.store.moderation)."""

    @property
    def passkeys(self) -> Passkeys:
        """The passkeys bound to player keys, and pending challenges and transfer codes."""

    @property
    def challenges(self) -> Challenges:
        """Challenges between player keys, and the ids each key follows."""

    @property
    def push(self) -> PushSubscriptions:
        """The browsers each player key asked to be pushed to (relay.store.push)."""

    @property
    def immediate(self) -> Immediate | None:
        """The part that answers at once when the store can (its coroutines then also finish
        at once, or wait on plain futures only, and need no task); None for a store that
        waits on I/O."""

    @property
    def heard(self) -> int:
        """Notices of new events this process heard from a shared store (0 for a store of
        one process): with the Redis store, one per event per process waiting on its match."""

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once (used at shutdown)."""

    async def close(self) -> None:
        """Releases the store's connections."""
