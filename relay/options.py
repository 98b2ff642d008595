"""The command line's options and their help: the parser of `python -m relay` (its `--help`
is this module's); relay/cli.py reads what it parses."""

from __future__ import annotations

import argparse

from relay.config import CHAT_READERS, STORE_ENV, Config
from relay.core.model import StoreSettings
from relay.core.rated import RatingRules

__all__ = ["parser"]


def parser() -> argparse.ArgumentParser:
    """Returns the parser of the relay's options, each with its help and default."""
    d = Config()
    s = StoreSettings()
    p = argparse.ArgumentParser(
        prog="python -m relay",
        description="Pairs two players and relays their moves over HTTP long-poll.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--host", default=d.host, help="address to listen on")
    p.add_argument("--port", type=int, default=d.port, help="TCP port to listen on")
    p.add_argument("--unix", metavar="PATH", help="listen on this unix socket instead of TCP")
    p.add_argument(
        "--hold",
        type=float,
        default=d.hold,
        help="seconds a poll is held open: a seat that began no poll for this long and 3 s"
        " more is shown away",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=s.grace,
        help="seconds without polling before a seat abandons",
    )
    p.add_argument(
        "--keep", type=float, default=s.keep, help="seconds a finished match stays readable"
    )
    p.add_argument(
        "--seek-grace",
        type=float,
        default=s.seek_grace,
        help="seconds a seeker whose page closed (or that began no poll for --hold and this"
        " long) keeps its seek before it is dropped, never paired",
    )
    p.add_argument(
        "--pair-window",
        type=float,
        default=s.pair_window,
        help="seconds a waiting seeker has to poll again once paired: one that does not (a"
        " crashed browser, a dead network) is never played",
    )
    p.add_argument(
        "--claim-after",
        type=float,
        default=s.claim_after,
        help="seconds the seat to move of a match without a clock may think before its"
        " partner may claim the win (0: never)",
    )
    p.add_argument(
        "--no-names", action="store_true", help="keep and show no display names of seekers"
    )
    p.add_argument(
        "--no-ratings",
        action="store_true",
        help="rate no match: the rating endpoints answer empty lists, seeks take no rating_range",
    )
    p.add_argument(
        "--rate-timeouts",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="rate matches lost on time (default: yes)",
    )
    p.add_argument(
        "--rate-abandoned",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="rate matches a seat abandoned, stopping to poll (default: yes)",
    )
    p.add_argument(
        "--rate-unrefereed",
        action="store_true",
        help="rate the matches of games whose referee this relay does not run (--referee) "
        "too: their losers can escape a loss by disputing it (docs/fair-play.md)",
    )
    r = RatingRules()
    p.add_argument(
        "--pair-daily",
        type=int,
        default=r.pair_daily,
        help="rated results one pair of player keys may have in a game in 24 hours",
    )
    p.add_argument(
        "--board-opponents",
        type=int,
        default=r.board_opponents,
        help="distinct opponents a key needs rated games against to be on a leaderboard",
    )
    p.add_argument(
        "--board-days",
        type=float,
        default=r.board_age / 86_400.0,
        help="days since a key's first rated game before it may be on the leaderboard",
    )
    p.add_argument(
        "--rating-days",
        type=float,
        default=r.keep / 86_400.0,
        help="days a key's rating in a game is kept after its last rated game there",
    )
    p.add_argument(
        "--chat",
        choices=CHAT_READERS,
        default=d.chat,
        help="who reads a match's chat: nobody (no chat), its two seats, or all (spectators too)",
    )
    p.add_argument(
        "--chat-per-minute",
        type=int,
        default=d.chat_per_minute,
        help="chat lines one seat may post a minute in a match (counted in the store)",
    )
    p.add_argument(
        "--offers-per-minute",
        type=int,
        default=s.offers_per_minute,
        help="draw offers, takeback requests and their withdrawals one seat may make a "
        "minute in a match (counted in the store)",
    )
    p.add_argument(
        "--max-waiting",
        type=int,
        default=s.max_waiting,
        help="matches that may wait for a player, per game key",
    )
    p.add_argument(
        "--lobby-size",
        type=int,
        default=s.lobby_size,
        help="entries each lobby list keeps, per game and kind",
    )
    p.add_argument(
        "--max-events",
        type=int,
        default=s.max_events,
        help="events a match may hold before moves are refused",
    )
    p.add_argument(
        "--max-log-bytes",
        type=int,
        default=s.max_log_bytes,
        help="bytes of move text a match may hold before longer moves are refused",
    )
    p.add_argument("--max-move", type=int, default=d.max_move, help="longest move, in characters")
    p.add_argument(
        "--max-body", type=int, default=d.max_body, help="largest request body, in bytes"
    )
    p.add_argument(
        "--seeks-per-minute",
        type=int,
        default=d.seeks_per_minute,
        help="seeks per client address per minute",
    )
    p.add_argument(
        "--polls-per-seat",
        type=int,
        default=d.polls_per_seat,
        help="requests one seat may hold open at once (polls, move posts with ?wait=)",
    )
    p.add_argument(
        "--store",
        help="'memory', or redis://host:port/db or unix:///path for Redis (Redis 7 or later;"
        " any node of a Redis Cluster finds the whole cluster), or"
        " redis+sentinel://host:port[,host:port...]/name for the primary Sentinels watch;"
        f" default: --store-file's, else the environment variable {STORE_ENV}, else"
        " 'memory'. A URL with a password belongs in the file or the environment: the"
        " command line is readable by every user of the machine (ps)",
    )
    p.add_argument(
        "--store-file",
        metavar="PATH",
        help="the file holding the store URL (keep it readable by the relay's user alone)",
    )
    p.add_argument(
        "--no-pages", action="store_true", help="serve no web pages at / (when nginx serves them)"
    )
    p.add_argument(
        "--pages-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="also serve the pages in DIR at / (a game's own page beside movewire.mjs)",
    )
    p.add_argument(
        "--copy-pages",
        metavar="DIR",
        help="copy every page the relay serves (its own, its games', --pages-dir's) into DIR "
        "and exit: the folder nginx or Apache serves beside a relay run with --no-pages",
    )
    p.add_argument(
        "--no-front",
        action="store_true",
        help="let aiohttp answer every request (slower: for comparison, or as a fallback)",
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log each request")
    p.add_argument(
        "--requests-per-second",
        type=float,
        default=d.requests_per_second,
        help="requests per client address per second (bursts of twice that)",
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=d.request_timeout,
        help="seconds a request's head and body may take to arrive",
    )
    p.add_argument(
        "--keepalive-timeout",
        type=float,
        default=d.keepalive_timeout,
        help="seconds an idle keep-alive connection stays open",
    )
    p.add_argument("--prefix", default=d.prefix, help="path the relay answers under (e.g. /games)")
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="believe X-Forwarded-For/-Proto from this address, network or 'unix' (repeatable)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=d.workers,
        help="relay processes to run, on --port and the ports after it, or on --unix "
        "PATH with {n} replaced by 1..N (needs --store redis://...); above 1, their "
        "supervisor serves the box's /metrics, every one's summed, on the port after "
        "theirs (of --metrics-host), or on PATH with {n} replaced by 'metrics'",
    )
    p.add_argument(
        "--metrics-host",
        default=d.metrics_host,
        metavar="ADDRESS",
        help="where the box's /metrics is served under --workers on TCP (default: the "
        "loopback address; name a private address for a scraper on another machine)",
    )
    p.add_argument(
        "--webhook",
        default=d.webhook_url,
        metavar="URL",
        help="POST signed your-turn notices of correspondence matches to this URL "
        "(docs/hosting.md#your-turn-webhooks)",
    )
    p.add_argument(
        "--webhook-secret-file",
        metavar="PATH",
        help="the file holding the webhook's signing secret, or several separated by "
        "whitespace while rotating them (else the environment variable MOVEWIRE_WEBHOOK_SECRET)",
    )
    p.add_argument(
        "--admin-secret-file",
        metavar="PATH",
        help="the file holding the secret of the host's admin API, /v1/admin/ (at least 16 "
        "characters; else the environment variable MOVEWIRE_ADMIN_SECRET; neither: no admin "
        "API). `python -m relay admin` uses it (docs/fair-play.md#moderation)",
    )
    p.add_argument(
        "--passkey-rp-id",
        metavar="HOST",
        help="turn passkeys and transfer codes on, for this relying-party id: the host name "
        "the pages are served from (docs/protocol.md#passkeys); needs --passkey-origin and a "
        "secret",
    )
    p.add_argument(
        "--passkey-origin",
        action="append",
        default=[],
        metavar="URL",
        help="an origin the pages are served from, e.g. https://games.example (repeatable)",
    )
    p.add_argument(
        "--passkey-secret-file",
        metavar="PATH",
        help="the file holding the secret that seals the player keys passkeys bring back (at "
        "least 16 characters; else the environment variable MOVEWIRE_PASSKEY_SECRET)",
    )
    p.add_argument(
        "--webhook-every",
        type=float,
        default=d.webhook_every / 60,
        metavar="MINUTES",
        help="one webhook delivery per contact per this many minutes at most, later turns "
        "sent together when it ends (0: no limit)",
    )
    p.add_argument(
        "--push-key-file",
        metavar="PATH",
        help="turn Web Push on: the file holding the relay's VAPID private key, PEM or 32 raw "
        "bytes in base64url (else the environment variable MOVEWIRE_VAPID_KEY; neither: no "
        "pushes). Needs --push-subject (docs/web-push.md)",
    )
    p.add_argument(
        "--push-subject",
        default=d.push_subject,
        metavar="CONTACT",
        help="how push services reach the host, in every push's signature: a mailto: address "
        "or an https:// URL",
    )
    p.add_argument(
        "--push-every",
        type=float,
        default=d.push_every / 60,
        metavar="MINUTES",
        help="one your-turn push per player per this many minutes at most, later turns told "
        "together when it ends (0: no limit)",
    )
    p.add_argument(
        "--referee",
        action="append",
        default=[],
        metavar="GAME",
        help="run the installed referee of GAME: the relay judges its game-ending moves and "
        "disputes itself (repeat for more games; others stay opaque)",
    )
    p.add_argument(
        "--referee-budget",
        type=float,
        default=d.referee_budget,
        metavar="SECONDS",
        help="time a referee's judgement may take before the match is handled as if its game "
        "had no referee",
    )
    p.add_argument(
        "--log-level",
        default=d.log_level,
        choices=["debug", "info", "warning", "error"],
        help="logging level",
    )
    return p
