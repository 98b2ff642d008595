"""`python -m relay`: runs the relay from the command line."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import resource
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from aiohttp import web

from relay.api.metrics import hot_path
from relay.api.verdicts import pick_referees
from relay.config import ADMIN_ENV, CHAT_READERS, STORE_ENV, Config, webhook_keys
from relay.core.model import StoreSettings
from relay.core.rated import RatingRules
from relay.games import installed_games
from relay.http.access import AccessLog
from relay.http.app import BadRequests, create_app
from relay.http.front import SWEEP, Front
from relay.http.pages import check_pages, copy_pages
from relay.http.server import Connections
from relay.http.state import API
from relay.store.open import check_url, masked, open_store

__all__ = ["main", "parse_args"]

BACKLOG = 2048
"""Connections the kernel queues before the relay accepts them (bursts of players)."""

LINGER = 3.0
"""Seconds a process shutting down keeps its trusted proxies' idle connections open (see
Front.linger): longer than the shipped sites' idle timeout for upstream connections (2 s)."""


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, str | None]:
    """Returns the relay's settings and unix socket path from command-line arguments."""
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
    p.add_argument("--hold", type=float, default=d.hold, help="seconds a poll is held open")
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
        "--webhook-every",
        type=float,
        default=d.webhook_every / 60,
        metavar="MINUTES",
        help="one webhook delivery per contact per this many minutes at most, later turns "
        "sent together when it ends (0: no limit)",
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
    a = p.parse_args(argv)
    try:
        a.store = store_url(a.store, a.store_file)
    except ValueError as exc:
        p.error(str(exc))
    try:
        check_url(a.store)
    except ValueError as exc:
        p.error(str(exc))
    try:
        games = installed_games()  # every installed game package, or a refusal naming one
        config = Config(
            host=a.host,
            port=a.port,
            hold=a.hold,
            store=StoreSettings(
                grace=a.grace,
                keep=a.keep,
                max_waiting=a.max_waiting,
                max_events=a.max_events,
                max_log_bytes=a.max_log_bytes,
                offers_per_minute=a.offers_per_minute,
                lobby_size=a.lobby_size,
                seek_grace=a.seek_grace,
                claim_after=a.claim_after,
                ratings=None
                if a.no_ratings
                else RatingRules(
                    timeouts=a.rate_timeouts,
                    abandoned=a.rate_abandoned,
                    unrefereed=a.rate_unrefereed,
                    pair_daily=a.pair_daily,
                    board_opponents=a.board_opponents,
                    board_age=a.board_days * 86_400.0,
                    keep=a.rating_days * 86_400.0,
                ),
            ),
            names=not a.no_names,
            chat=a.chat,
            chat_per_minute=a.chat_per_minute,
            max_move=a.max_move,
            max_body=a.max_body,
            seeks_per_minute=a.seeks_per_minute,
            polls_per_seat=a.polls_per_seat,
            store_url=a.store,
            pages=not a.no_pages,
            pages_dirs=tuple(a.pages_dir),
            games=games,
            referee=tuple(dict.fromkeys(a.referee)),
            referee_budget=a.referee_budget,
            front=not a.no_front,
            access_log=not a.no_access_log,
            log_level=a.log_level,
            prefix=a.prefix.rstrip("/"),
            trusted_proxies=tuple(a.trusted_proxy),
            workers=a.workers,
            metrics_host=a.metrics_host,
            request_timeout=a.request_timeout,
            requests_per_second=a.requests_per_second,
            keepalive_timeout=a.keepalive_timeout,
            webhook_url=a.webhook,
            webhook_keys=webhook_keys(webhook_secret(a.webhook_secret_file)) if a.webhook else (),
            webhook_every=a.webhook_every * 60,
            admin_secret=admin_secret(a.admin_secret_file),
        )
        if config.workers > 1 and config.store_url == "memory":
            raise ValueError("--workers needs a shared store: add --store redis://host:port/db")
        check_pages(config.games, config.pages_dirs)
    except ValueError as exc:
        p.error(str(exc))
    if a.copy_pages is not None:
        try:
            count = copy_pages(Path(a.copy_pages), config.games, config.pages_dirs)
        except OSError as exc:
            p.error(f"cannot copy the pages into {a.copy_pages!r}: {exc.strerror}")
        print(f"copied {count} files into {a.copy_pages}")
        raise SystemExit(0)
    return config, a.unix


def store_url(given: str | None, path: str | None) -> str:
    """Returns the store URL: the one given on the command line, else the file's content,
    else the environment's (STORE_ENV), else 'memory'; raises ValueError when the file
    cannot be read."""
    if given:
        return given
    if path is not None:
        try:
            return Path(path).read_text().strip()
        except OSError as exc:
            raise ValueError(f"cannot read --store-file {path!r}: {exc.strerror}") from None
    return os.environ.get(STORE_ENV, "").strip() or "memory"


def webhook_secret(path: str | None) -> bytes:
    """Returns the webhook's secrets as given: the file's content, else
    MOVEWIRE_WEBHOOK_SECRET's, without surrounding whitespace; raises ValueError when the file
    cannot be read."""
    if path is None:
        return os.environ.get("MOVEWIRE_WEBHOOK_SECRET", "").strip().encode()
    try:
        return Path(path).read_bytes().strip()
    except OSError as exc:
        raise ValueError(f"cannot read --webhook-secret-file {path!r}: {exc.strerror}") from None


def admin_secret(path: str | None) -> bytes:
    """Returns the admin API's secret: the file's content, else MOVEWIRE_ADMIN_SECRET's,
    without surrounding whitespace (b'' for neither); raises ValueError when the file cannot
    be read."""
    if path is None:
        return os.environ.get(ADMIN_ENV, "").strip().encode()
    try:
        return Path(path).read_bytes().strip()
    except OSError as exc:
        raise ValueError(f"cannot read --admin-secret-file {path!r}: {exc.strerror}") from None


def installed_referees(config: Config) -> Mapping[str, Callable[[], object]]:
    """Returns the referee factory of each installed game that ships one, by game name."""
    return {game.name: game.referee for game in config.games if game.referee is not None}


def main(
    argv: Sequence[str] | None = None,
    referees: Mapping[str, Callable[[], object]] | None = None,
) -> None:
    """Runs the relay until SIGINT or SIGTERM, then answers held polls and exits.

    referees: the referee factory of each game that has one, by name, which --referee picks
    from (default: the installed games', installed_referees)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["admin"]:
        from relay.admin import main as admin

        raise SystemExit(admin(args[1:]))
    config, unix = parse_args(argv)
    _mask_command_line(config.store_url)
    try:
        picked = pick_referees(
            config.referee, installed_referees(config) if referees is None else referees
        )
    except ValueError as exc:
        print(f"python -m relay: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if config.workers > 1:
        from relay.workers import supervise

        raise SystemExit(supervise(sys.argv[1:] if argv is None else argv, config, unix))
    _raise_open_files_limit()
    logging.basicConfig(
        level=config.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("aiohttp.server").addFilter(BadRequests())
    store = open_store(config.store_url, config.store)
    app = create_app(config, store, picked)
    where = f"unix:{unix}" if unix else f"http://{config.host}:{config.port}"
    logging.getLogger("relay").info(
        "relay listening on %s (store %s, hold %ss, grace %ss, hot path %s)",
        where,
        masked(config.store_url),
        config.hold,
        config.store.grace,
        hot_path(),
    )
    logging.getLogger("relay").info(
        "games: %s", ", ".join(game.source for game in config.games) or "none"
    )
    _settle_collector()
    loop = _new_loop()
    try:
        loop.run_until_complete(serve(app, config, unix))
    finally:
        loop.close()


async def serve(app: web.Application, config: Config, unix: str | None) -> None:
    """Serves until SIGINT or SIGTERM: the lean front first, aiohttp for everything else.

    At the signal it stops accepting, answers held polls, finishes requests in progress
    (at most hold + 5 s), then closes the store."""
    options: dict[str, Any] = {
        "access_log": logging.getLogger("relay.access") if config.access_log else None,
        "access_log_class": AccessLog,  # the front's line, credentials in a URL masked
        # Connections handed to aiohttp idle no longer than the front's own.
        "keepalive_timeout": config.keepalive_timeout,
        # A body left unread is not read on by aiohttp: the connection closes by the Guard's
        # bounded lingering close (relay/http/guard.py), as the front's own do.
        "lingering_time": 0,
    }
    runner = web.AppRunner(
        app,
        handle_signals=False,
        shutdown_timeout=config.hold + 5,
        handler_cancellation=True,
        **options,
    )
    await runner.setup()
    api = app[API]
    front = Front(api, config)
    assert runner.server is not None
    front.handoff = Connections(runner.server, options)
    loop = asyncio.get_running_loop()
    protocol: Callable[[], asyncio.BaseProtocol] = front.protocol
    if not config.front:
        protocol = front.aiohttp_protocol  # aiohttp answers everything itself
    server: asyncio.AbstractServer
    if unix:
        server = await loop.create_unix_server(protocol, unix, backlog=BACKLOG)
    else:
        server = await loop.create_server(
            protocol, config.host, config.port, backlog=BACKLOG, reuse_address=True
        )
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)

    async def sweep() -> None:
        while True:
            await asyncio.sleep(SWEEP)
            front.sweep()

    sweeper = asyncio.create_task(sweep())
    try:
        await stop.wait()
    finally:
        server.close()
        api.lifecycle.closing = True
        await api.store.wake_all()
        await front.linger(LINGER)
        front.close_idle()
        await front.drain(config.hold + 5)
        sweeper.cancel()
        await runner.cleanup()


def _mask_command_line(url: str) -> None:
    """Rewrites this process's command line, as `ps` and /proc/PID/cmdline show it to every
    user of the machine, with the store URL's password masked when --store gave one."""
    shown = masked(url)
    if shown == url:
        return
    import setproctitle

    title = setproctitle.getproctitle()
    if url in title:
        setproctitle.setproctitle(title.replace(url, shown))


def _settle_collector() -> None:
    """Sets what start-up made aside from the garbage collector's passes (gc.freeze), and
    lets it pass over young objects every 100,000 allocations rather than 700 (a move's
    garbage is freed by reference counting as it goes; see docs/performance.md)."""
    gc.freeze()
    gc.set_threshold(100_000, 20, 100)


def _raise_open_files_limit() -> None:
    """Lets the process hold as many connections (held polls) as the system allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _new_loop() -> asyncio.AbstractEventLoop:
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


if __name__ == "__main__":
    main()
