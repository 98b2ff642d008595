"""Seeking in the memory store: a seeker joins the oldest compatible waiting match, or opens
one (the twin of relay.store.redis.seeks and its pair, open, join and room scripts)."""

from __future__ import annotations

from collections import deque

from relay.core import model
from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.model import Ticket, control_mismatch, hash_token, new_token
from relay.core.players import patience, same_player
from relay.core.rated import RatingRange, can_pair
from relay.core.ratings import LICHESS
from relay.store.memory.match import ENDING, PLAYING, WAITING, Match
from relay.store.memory.registry import Registry

__all__ = ["Seeker", "seek"]

NEW_RATING = LICHESS.rating
"""A key's rating in a game it has no rating in yet."""


class Seeker:
    """Who seeks: the seat token, the player key's digest ('' for none), the contact, the
    display name and the ratings it will be paired with (None: any)."""

    __slots__ = ("contact", "name", "player", "rating_range", "token")

    def __init__(
        self,
        token: str,
        player: str,
        contact: str | None,
        name: str | None,
        rating_range: RatingRange | None,
    ) -> None:
        self.token = token
        self.player = player
        self.contact = contact
        self.name = name
        self.rating_range = rating_range


def seek(
    reg: Registry,
    game: str,
    version: str,
    room: str | None,
    now: float,
    token: str | None,
    control: TimeControl | None,
    player: str | None,
    contact: str | None,
    name: str | None,
    rating_range: RatingRange | None,
) -> Ticket:
    """Matches.seek: the same seek repeated (by its token) within its patience answers its
    first ticket; else the seeker is paired or waits."""
    seeker = Seeker(
        new_token() if token is None else token,
        "" if player is None else hash_token(player),
        contact,
        name,
        rating_range,
    )
    ticket = None
    if token is not None:
        prior = reg.reseeks.get(hash_token(token))
        if prior is not None and prior[2] >= now and prior[0] in reg.matches:
            ticket = Ticket(prior[0], prior[1], token)
    if ticket is None:
        reg.keys.check(seeker.player, reg.status)
        if room is None:
            ticket = _pair(reg, game, version, now, seeker, control)
        else:
            ticket = _room(reg, game, version, room, now, seeker, control)
        if token is not None:
            until = now + patience(control, reg.settings.grace)
            reg.reseeks[hash_token(token)] = (ticket.match, ticket.seat, until)
    reg.keys.add(seeker.player, ticket.match, now)
    reg.moderation.know(seeker.player)
    return ticket


def _room(
    reg: Registry,
    game: str,
    version: str,
    room: str,
    now: float,
    seeker: Seeker,
    control: TimeControl | None,
) -> Ticket:
    """Joins the match waiting in the room, or opens the room's match."""
    held = reg.rooms.get((game, room))
    if held is not None and held.status is WAITING and reg.is_stale(held, now):
        reg.expire(held, now)
    if held is not None and held.status is WAITING and held.paired is None:
        if seeker.player and held.players[0] == seeker.player:
            raise same_player(room)
        if reg.moderation.refuses(seeker.player, held.players[0]):
            raise RelayError("room/blocked")
        if held.version != version:
            raise RelayError(
                "room/version_mismatch",
                f"Room {room!r} waits for {game!r} version {held.version!r}, not {version!r}.",
            )
        if held.control != control:
            raise control_mismatch(room, held.control, control)
        return _join(reg, held, now, seeker)
    if held is not None and held.status in (WAITING, PLAYING, ENDING):  # WAITING: paired
        raise RelayError("room/full", f"Room {room!r} of {game!r} is full.")
    opened = _open(reg, game, version, room, now, seeker, control)
    reg.rooms[(game, room)] = opened
    return Ticket(opened.id, 0, seeker.token)


def _pair(
    reg: Registry,
    game: str,
    version: str,
    now: float,
    seeker: Seeker,
    control: TimeControl | None,
) -> Ticket:
    """Joins the oldest waiting seek of the game, version and control the seeker may meet,
    or opens one at the end of their queue."""
    queue = reg.queues.setdefault(
        (game, version if control is None else f"{version}~{control.key}"), deque()
    )
    mine: list[Match] = []
    """Waiting seeks the seeker may not join (its own key's, blocked, out of range), kept
    in their places for another seeker."""
    try:
        while queue:
            oldest = queue.popleft()
            if oldest.status is not WAITING:
                continue
            if reg.is_stale(oldest, now):
                reg.expire(oldest, now)
                continue
            if seeker.player and oldest.players[0] == seeker.player:
                mine.append(oldest)
                continue
            if reg.moderation.refuses(seeker.player, oldest.players[0]):
                mine.append(oldest)
                continue
            if (seeker.rating_range is not None or oldest.rating_range is not None) and (
                not _in_range(reg, game, seeker, oldest)
            ):
                mine.append(oldest)
                continue
            return _join(reg, oldest, now, seeker)
        opened = _open(reg, game, version, None, now, seeker, control)
        queue.append(opened)
        return Ticket(opened.id, 0, seeker.token)
    finally:
        queue.extendleft(reversed(mine))


def _open(
    reg: Registry,
    game: str,
    version: str,
    room: str | None,
    now: float,
    seeker: Seeker,
    control: TimeControl | None,
) -> Match:
    """Opens a match with the seeker in seat 0; raises limit/waiting when too many wait."""
    settings = reg.settings
    if reg.waiting.get(game, 0) >= settings.max_waiting:
        raise RelayError(
            "limit/waiting",
            f"{settings.max_waiting} matches of {game!r} are waiting.",
            retry_after=settings.grace,
        )
    opened = Match(game, version, room, now, control)
    opened.hashes[0] = hash_token(seeker.token)
    opened.players[0] = seeker.player
    opened.contacts[0] = seeker.contact
    opened.table.names[0] = seeker.name
    opened.rating_range = seeker.rating_range
    reg.matches[opened.id] = opened
    reg.waiting[game] = reg.waiting.get(game, 0) + 1
    return opened


def _in_range(reg: Registry, game: str, seeker: Seeker, waiting: Match) -> bool:
    """Whether a seeker and a waiting seek are within each other's rating ranges."""
    return can_pair(
        _rating(reg, game, seeker.player),
        seeker.rating_range,
        _rating(reg, game, waiting.players[0]),
        waiting.rating_range,
    )


def _rating(reg: Registry, game: str, digest: str) -> float | None:
    """Returns a key's rating in a game (a new key's for none; None without a key)."""
    if not digest:
        return None
    rating = reg.ratings.rating_of(game, digest)
    return NEW_RATING if rating is None else rating.rating


def _join(reg: Registry, state: Match, now: float, seeker: Seeker) -> Ticket:
    """Seats the seeker in the waiting match's seat 1 and draws the first mover. A match with
    a per-move deadline starts at once (its waiting seeker may be away for days); any other
    starts once seat 0 polls again (Registry.read), and its held polls are answered empty now
    so that a live client does at once (a ghost never does: the reaper expires the match)."""
    state.hashes[1] = hash_token(seeker.token)
    state.players[1] = seeker.player
    state.contacts[1] = seeker.contact
    state.table.names[1] = seeker.name
    state.seen[1] = now
    reg.waiting[state.game] -= 1
    first = model.draw_first()
    if state.is_correspondence():
        reg.start(state, first, now)
    else:
        state.paired = (now, first)
        state.wake_all()
    return Ticket(state.id, 1, seeker.token)
