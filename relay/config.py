"""The relay's settings: every limit and timing, with documented defaults."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import ipaddress
import re
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field

from relay.core.games import Game
from relay.core.model import StoreSettings
from relay.core.passkeys import PasskeySettings

__all__ = [
    "ADMIN_ENV",
    "CHAT_READERS",
    "NO_PUSH_SUBJECT",
    "PASSKEY_ENV",
    "SECRET_LEAST",
    "SECRET_SHORT",
    "STORE_ENV",
    "UNIX",
    "WHSEC",
    "WHSEC_BAD",
    "Config",
    "check_passkeys",
    "check_proxy_settings",
    "check_webhook",
    "webhook_key",
    "webhook_keys",
]

UNIX = "unix"
"""The trusted-proxy entry that trusts whatever connects through the relay's unix socket."""

PREFIX = re.compile(r"(/[A-Za-z0-9._~-]+)+")
"""A path prefix: '/games', '/play/relay'; no trailing slash."""

BAD_PREFIX = "prefix must be '' or a path like '/games' (no trailing slash), not {!r}"
BAD_PROXY = "a trusted proxy must be an IP address, a network like 10.0.0.0/8, or 'unix', not {!r}"


def check_proxy_settings(prefix: str, trusted: Sequence[str]) -> None:
    """Raises ValueError unless the prefix and every trusted proxy entry are well formed."""
    if prefix and PREFIX.fullmatch(prefix) is None:
        raise ValueError(BAD_PREFIX.format(prefix))
    for entry in trusted:
        if entry == UNIX:
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(BAD_PROXY.format(entry)) from None


STORE_ENV = "MOVEWIRE_STORE"
"""The environment variable the store URL may come from (kept out of the command line)."""


ADMIN_ENV = "MOVEWIRE_ADMIN_SECRET"
"""The environment variable the admin API's secret may come from (never the command line)."""

NO_PUSH_SUBJECT = (
    "Web Push needs --push-subject: a mailto: address or an https:// URL where push services "
    "can reach the host"
)
"""The refusal of a push key given without the host's contact."""

PASSKEY_ENV = "MOVEWIRE_PASSKEY_SECRET"
"""The environment variable the passkeys' sealing secret may come from (never the command
line)."""


def check_passkeys(settings: PasskeySettings) -> None:
    """Raises ValueError unless the passkey settings are whole: a secret of SECRET_LEAST bytes
    or more, and origins whose host is the relying-party id or under it."""
    if len(settings.secret) < SECRET_LEAST:
        raise ValueError(
            f"passkeys need a secret of at least {SECRET_LEAST} characters "
            f"(--passkey-secret-file, or {PASSKEY_ENV})"
        )
    if not settings.origins:
        raise ValueError("passkeys need the origin the pages are served from (--passkey-origin)")
    for origin in settings.origins:
        parts = urllib.parse.urlsplit(origin)
        host = parts.hostname or ""
        if (
            parts.scheme not in ("https", "http") or parts.path or parts.query
            or not (host == settings.rp_id or host.endswith("." + settings.rp_id))
        ):  # fmt: skip
            raise ValueError(
                f"a passkey origin must be http(s)://host[:port] on the relying-party id "
                f"{settings.rp_id!r} or under it, not {origin!r}"
            )


SECRET_LEAST = 16
"""Bytes a webhook secret's key must have at least."""

SECRET_SHORT = (
    "--webhook needs a secret of at least {least} bytes (each one, when several are given, "
    "separated by whitespace; a whsec_ one once decoded), from --webhook-secret-file PATH or "
    "the environment variable MOVEWIRE_WEBHOOK_SECRET"
)
"""The refusal of a webhook with no secret, or one too short."""

WHSEC = b"whsec_"
"""The prefix of a secret given in the Standard Webhooks form: whsec_ and the key in base64."""

WHSEC_BAD = (
    "a webhook secret beginning whsec_ must go on with its key in base64 (A-Z, a-z, 0-9, + "
    "and /, the = padding optional)"
)
"""The refusal of a whsec_ secret whose rest is not base64 (none of it shown)."""


def webhook_key(secret: bytes) -> bytes:
    """Returns a webhook secret's HMAC key: the base64 after `whsec_` decoded (padding
    optional), else the secret's own bytes; raises ValueError for bad base64."""
    if not secret.startswith(WHSEC):
        return secret
    rest = secret[len(WHSEC) :]
    try:
        return base64.b64decode(rest + b"=" * (-len(rest) % 4), validate=True)
    except binascii.Error:
        raise ValueError(WHSEC_BAD) from None


def webhook_keys(secrets: bytes) -> tuple[bytes, ...]:
    """Returns the HMAC keys of the webhook's secrets, separated by whitespace (one per line
    while rotating keys), in their order; raises ValueError for a whsec_ one's bad base64."""
    return tuple(webhook_key(secret) for secret in secrets.split())


def check_webhook(url: str, keys: Sequence[bytes], every: float) -> None:
    """Raises ValueError unless a webhook URL ('' for none) is an http(s) URL with a host,
    signed with one key or more, each of SECRET_LEAST bytes or more, and its throttle window
    is >= 0."""
    if every < 0:
        raise ValueError(f"the webhook's throttle window must be >= 0 minutes, not {every / 60!r}")
    if not url:
        return
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--webhook must be an http:// or https:// URL with a host, not {url!r}")
    if not keys or min(len(key) for key in keys) < SECRET_LEAST:
        raise ValueError(SECRET_SHORT.format(least=SECRET_LEAST))


CHAT_READERS = ("off", "seats", "all")
"""Who may read a match's chat (--chat)."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything `python -m relay` can be told; the defaults are the documented ones."""

    host: str = "0.0.0.0"
    """Address to listen on."""
    port: int = 8080
    """TCP port to listen on."""
    hold: float = 6.0
    """Seconds a poll is held open when there is nothing new (keep it below the proxy's).
    Short enough that a seat whose network died silently, and so began no poll since, is
    shown away within 10 s (hold + AWAY, and the reaper's turn)."""
    store: StoreSettings = field(default_factory=StoreSettings)
    """Grace, keep and waiting-match limit, enforced by the store."""
    max_move: int = 4096
    """Longest move text, in characters."""
    max_body: int = 32768
    """Largest request body, in bytes."""
    seeks_per_minute: int = 30
    """Seeks one client address may make per minute."""
    requests_per_second: float = 100.0
    """Requests one client address may make per second (bursts of twice that); floods
    beyond it get 429."""
    polls_per_seat: int = 2
    """Requests one seat may hold open at once, event polls and move posts with ?wait=
    alike (per relay process)."""
    store_url: str = field(default="memory", repr=False)
    """Where matches live: 'memory' (embedded) or a Redis URL (which may hold a password:
    shown only through `relay.store.open.masked`)."""
    front: bool = True
    """Whether the lean front answers the protocol's requests (else aiohttp answers all)."""
    pages: bool = True
    """Whether to serve the web pages and the JavaScript host at / (off behind nginx)."""
    pages_dirs: tuple[str, ...] = ()
    """More folders whose pages are served at / beside the relay's own (a game's own page)."""
    games: tuple[Game, ...] = field(default=(), repr=False)
    """The game packages hosted (`relay.games.installed_games()`, read at start): listed by
    `GET /v1/games`, their page folders served at / with the pages."""
    referee: tuple[str, ...] = ()
    """Games whose installed referee the relay runs (--referee GAME): it judges their
    game-ending moves and disputes itself (docs/protocol.md#verdicts); every other game stays
    opaque."""
    referee_budget: float = 1.0
    """Seconds a referee's judgement may take, queued and running, before it is given up and
    the match is handled as if its game had no referee (relay.api.judging)."""
    access_log: bool = True
    """Whether to log each request (method, path, status, time; never a token)."""
    log_level: str = "info"
    """Logging level name."""
    prefix: str = ""
    """Path the relay answers under behind a proxy (e.g. '/games'); '' for the root."""
    trusted_proxies: tuple[str, ...] = ()
    """Proxies (addresses, networks, or 'unix') whose X-Forwarded-For/-Proto are believed."""
    workers: int = 1
    """Relay processes to run on one box (more than one needs a shared store: Redis)."""
    metrics_host: str = ""
    """Where the supervisor of --workers N on TCP serves the box's /metrics, on --port + N
    ('': the loopback address)."""
    request_timeout: float = 10.0
    """Seconds a request's head and body may take to arrive (slow clients get 408)."""
    keepalive_timeout: float = 75.0
    """Seconds an idle keep-alive connection stays open."""
    webhook_url: str = ""
    """Where to POST your-turn notices of correspondence matches ('' for nowhere)."""
    webhook_keys: tuple[bytes, ...] = field(default=(), repr=False)
    """The keys the webhook's deliveries are signed with (HMAC-SHA256), one signature each."""
    names: bool = True
    """Whether seekers' display names are kept and shown (off: every name reads null)."""
    chat: str = "seats"
    """Who reads a match's chat: 'off' (no chat at all), 'seats' (the two seats, and the
    record read with a seat's key) or 'all' (spectators and every record reader too)."""
    chat_per_minute: int = 20
    """Chat lines one seat may post a minute in a match (in bursts of as many), counted in
    the store (StoreSettings.chat_per_minute): across processes and workers."""
    webhook_every: float = 600.0
    """Seconds of each contact's throttle window: one delivery per window at most (0: none)."""
    admin_secret: bytes = field(default=b"", repr=False)
    """The bearer of the host's admin API (b'': the API is off); from a file or the
    environment, never the command line."""
    passkeys: PasskeySettings | None = None
    """The relying party and sealing secret of passkeys and transfer codes (None: they are
    off, docs/protocol.md#passkeys)."""
    push_key: bytes = field(default=b"", repr=False)
    """The relay's VAPID private key as given (PEM, or its 32 raw bytes in base64url; b'':
    Web Push is off, docs/web-push.md); from a file or the environment, never the command
    line. relay.push.keys reads it."""
    push_subject: str = ""
    """How push services reach the host (a mailto: address or an https:// URL), named in
    every push's signature; needed with a push key."""
    push_every: float = 600.0
    """Seconds of each player's push window: one turn or challenge pushed per window at most,
    later ones told together at its end (0: no window)."""
    push_loopback: bool = False
    """Whether a subscription may name a plain http:// loopback endpoint (tests only: a push
    service on this machine)."""

    def __post_init__(self) -> None:
        if self.hold < 0:
            raise ValueError(f"hold must be >= 0, not {self.hold!r}")
        if self.store.grace <= self.hold:
            raise ValueError(
                f"grace ({self.store.grace!r} s) must be longer than hold ({self.hold!r} s), "
                "or seats that poll steadily would be taken for gone"
            )
        check_proxy_settings(self.prefix, self.trusted_proxies)
        for name in (
            "request_timeout", "keepalive_timeout", "requests_per_second", "referee_budget"
        ):  # fmt: skip
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be > 0, not {getattr(self, name)!r}")
        check_webhook(self.webhook_url, self.webhook_keys, self.webhook_every)
        if self.admin_secret and len(self.admin_secret) < SECRET_LEAST:
            raise ValueError(
                f"the admin secret must be at least {SECRET_LEAST} characters "
                f"(--admin-secret-file, or MOVEWIRE_ADMIN_SECRET)"
            )
        if self.passkeys is not None:
            check_passkeys(self.passkeys)
        if self.push_every < 0:
            raise ValueError(f"the push window must be >= 0 minutes, not {self.push_every / 60!r}")
        if self.push_key and not self.push_subject:
            raise ValueError(NO_PUSH_SUBJECT)
        if self.store.seek_grace <= 0 or self.store.claim_after < 0:
            raise ValueError(
                f"seek_grace must be > 0 and claim_after >= 0, not {self.store.seek_grace!r} "
                f"and {self.store.claim_after!r}"
            )
        if self.store.pair_window <= 0:
            raise ValueError(f"pair_window must be > 0, not {self.store.pair_window!r}")
        if self.chat not in CHAT_READERS:
            raise ValueError(f"chat must be one of {', '.join(CHAT_READERS)}, not {self.chat!r}")
        if self.store.hold != self.hold:
            # The store times presence by the longest poll: the relay's hold, always.
            object.__setattr__(self, "store", dataclasses.replace(self.store, hold=self.hold))
        rules = self.store.ratings
        if rules is not None and rules.refereed != frozenset(self.referee):
            # Only the games the relay referees are rated, unless the host opts out.
            rules = dataclasses.replace(rules, refereed=frozenset(self.referee))
            object.__setattr__(self, "store", dataclasses.replace(self.store, ratings=rules))
        if self.store.chat_per_minute != self.chat_per_minute:
            # The store counts each seat's chat lines: across processes and workers.
            replaced = dataclasses.replace(self.store, chat_per_minute=self.chat_per_minute)
            object.__setattr__(self, "store", replaced)
        if self.store.offers_per_minute < 1:
            raise ValueError(
                f"offers_per_minute must be >= 1, not {self.store.offers_per_minute!r}"
            )
        for name in (
            "max_move", "max_body", "seeks_per_minute", "polls_per_seat", "workers",
            "chat_per_minute",
        ):  # fmt: skip
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, not {getattr(self, name)!r}")
