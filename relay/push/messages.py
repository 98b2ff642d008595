"""The notices a player's browser is pushed: small JSON payloads, no secret in any.

Each says what happened in a few words (`title`, `body`), which match it is about (`tag`: the
browser shows one notification per tag, a newer replacing an older) and the page to open
(`url`, relative to the pages' root; the service worker opens nothing outside it). A notice
never holds a token, a player key or a contact: whoever sees the notification, sees only this.
Sender fields: `ttl` (how long a push service keeps it for a browser that is off), `urgency`
(RFC 8030) and `topic` (the match's: a push service replaces a notice still waiting with a
newer one of the same topic).
"""

from __future__ import annotations

import base64
import enum
import hashlib
import urllib.parse
from dataclasses import dataclass

import orjson

__all__ = [
    "MAX_PAYLOAD",
    "MAX_TTL",
    "Kind",
    "Notice",
    "challenge",
    "clock_low",
    "digest",
    "ended",
    "topic_of",
    "turn",
]

MAX_PAYLOAD = 3000
"""Bytes a notice's JSON may have: well within the 4096 bytes a push message may carry once
encrypted (RFC 8291: 3993 of plaintext at most)."""

MAX_TTL = 28 * 86400
"""The longest TTL asked for: 4 weeks, what the big push services keep a message at most."""

ENDED_TTL = 86400
"""Seconds a match's end waits for a browser that is off."""


class Kind(enum.StrEnum):
    """What a notice tells."""

    TURN = "turn"
    """It became the player's turn."""
    CLOCK_LOW = "clock_low"
    """The player's clock is low on their turn."""
    ENDED = "ended"
    """A match of the player's ended."""
    CHALLENGE = "challenge"
    """Another player challenged this one."""
    DIGEST = "digest"
    """Several turns held back by the throttle, told together."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One push message's content and delivery fields."""

    kind: Kind
    match: str
    """The match (or challenge) it is about: its tag and its topic."""
    title: str
    body: str
    url: str
    """The page to open, relative to the pages' root (`xand0.html#resume=...`)."""
    ttl: int
    """Seconds a push service keeps it for a browser that is off (0 to MAX_TTL)."""
    urgency: str = "normal"
    """RFC 8030's Urgency: very-low, low, normal or high."""

    def __post_init__(self) -> None:
        if self.urgency not in ("very-low", "low", "normal", "high"):
            raise ValueError(f"urgency must be very-low, low, normal or high: {self.urgency!r}")
        if urllib.parse.urlsplit(self.url).scheme or self.url.startswith(("/", "\\")):
            raise ValueError(f"a notice's url is relative to the pages' root: {self.url!r}")
        object.__setattr__(self, "ttl", max(0, min(MAX_TTL, int(self.ttl))))
        if len(self.payload()) > MAX_PAYLOAD:
            raise ValueError(f"a notice's payload is at most {MAX_PAYLOAD} bytes")

    def payload(self) -> bytes:
        """Returns the JSON the service worker reads: kind, match, title, body, tag, url."""
        return orjson.dumps(
            {
                "kind": self.kind.value,
                "match": self.match,
                "title": self.title,
                "body": self.body,
                "tag": self.tag,
                "url": self.url,
            }
        )

    @property
    def tag(self) -> str:
        """The notification's tag: one shown per match (or challenge), a newer replacing an
        older; one for every digest."""
        if self.kind is Kind.DIGEST:
            return "digest"
        return f"{'challenge' if self.kind is Kind.CHALLENGE else 'match'}:{self.match}"

    def to_bytes(self) -> bytes:
        """Returns the notice as from_bytes reads it (to hold it in the store)."""
        fields = (self.kind.value, self.match, self.title, self.body, self.url, self.ttl)
        return orjson.dumps([*fields, self.urgency])

    @classmethod
    def from_bytes(cls, data: bytes) -> Notice:
        """Returns the notice to_bytes wrote."""
        kind, match, title, body, url, ttl, urgency = orjson.loads(data)
        return cls(Kind(kind), match, title, body, url, ttl, urgency)

    @property
    def topic(self) -> str:
        """The RFC 8030 Topic of the notice's match."""
        return topic_of(self.match)


def topic_of(match: str) -> str:
    """Returns a match's Topic: 32 base64url characters of its SHA-256, as RFC 8030 allows
    (at most 32 of that alphabet), so each match's newer notice replaces its older."""
    digest = hashlib.sha256(match.encode()).digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


def _play_url(game: str, match: str, seat: int) -> str:
    """The page that takes a match up for a seat (as the pages' resumeHref writes it)."""
    quoted = urllib.parse.quote
    return f"{quoted(game, safe='')}.html#resume={quoted(match, safe='')}&seat={seat}"


def _left(seconds: float) -> str:
    """Returns a time left in words, rounded to the second first (86399.6 s is 24 hours)."""
    seconds = max(0, round(seconds))
    if seconds >= 2 * 86400:
        return f"{seconds // 86400} days"
    if seconds >= 2 * 3600:
        return f"{seconds // 3600} hours"
    if seconds >= 120:
        return f"{seconds // 60} minutes"
    return f"{seconds} s"


def turn(game: str, match: str, seat: int, due: float | None, now: float) -> Notice:
    """Returns the notice that it is the seat's turn; kept until due (or a day) at most."""
    left = None if due is None else due - now
    body = f"{game}: your move." + ("" if left is None else f" {_left(left)} left.")
    ttl = 86400 if left is None else int(left)
    return Notice(Kind.TURN, match, "Your turn", body, _play_url(game, match, seat), ttl)


def clock_low(game: str, match: str, seat: int, left: float) -> Notice:
    """Returns the notice that the seat's clock is low on its turn; urgent, kept no longer
    than the clock lasts."""
    body = f"{game}: {_left(left)} left on your clock."
    url = _play_url(game, match, seat)
    return Notice(Kind.CLOCK_LOW, match, "Your clock is low", body, url, int(left), "high")


def ended(game: str, match: str, words: str) -> Notice:
    """Returns the notice that a match ended (words: how, as the pages say it, at most 200
    characters); opens the match's replay."""
    url = f"replay.html#match={urllib.parse.quote(match, safe='')}"
    body = f"{game}: {words[:200]}"
    return Notice(Kind.ENDED, match, "Match over", body, url, ENDED_TTL, "low")


def digest(notices: list[Notice]) -> Notice:
    """Returns one notice for several turns and challenges held back: 'Your turn in 3
    matches.', 'Your turn in 2 matches, and 1 challenge.', opening the lobby (its Your games
    and challenges list them), kept as long as the longest of them."""
    ttl = max((notice.ttl for notice in notices), default=0)
    challenges = sum(1 for notice in notices if notice.kind is Kind.CHALLENGE)
    turns = len(notices) - challenges
    told = []
    if turns:
        told.append(f"Your turn in {turns} match{'' if turns == 1 else 'es'}")
    if challenges:
        told.append(f"{challenges} challenge{'' if challenges == 1 else 's'}")
    body = ", and ".join(told) + "."
    title = "Your turn" if turns else "Challenges"
    return Notice(Kind.DIGEST, "digest", title, body, "index.html", ttl)


def challenge(game: str, challenge_id: str, by: str, until: float, now: float) -> Notice:
    """Returns the notice of a challenge from the player named by (a display name, at most
    32 characters), open until until; it opens the lobby."""
    url = "index.html"
    body = f"{by[:32]} challenges you to {game}."
    ttl = int(until - now)
    return Notice(Kind.CHALLENGE, challenge_id, "A challenge", body, url, ttl, "high")
