"""`python -m relay`: runs the relay from the command line. The process is set up here (the
admin command, the --workers supervisor, logging, the store, the event loop); the options are
relay/options.py's, the Config they make relay/cli.py's, and the serving relay/http/serve.py's."""

from __future__ import annotations

import asyncio
import gc
import logging
import resource
import sys
from collections.abc import Callable, Mapping, Sequence

from relay.api.metrics import hot_path
from relay.api.verdicts import pick_referees
from relay.cli import parse_args
from relay.config import Config
from relay.http.app import BadRequests, create_app
from relay.http.serve import serve
from relay.store.open import masked, open_store

__all__ = ["main", "parse_args"]


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
    logging.getLogger("relay").info("referees: %s", referees_run(picked))
    _settle_collector()
    loop = _new_loop()
    try:
        loop.run_until_complete(serve(app, config, unix))
    finally:
        loop.close()


def referees_run(picked: Mapping[str, object]) -> str:
    """Returns the start log's words for the referees a relay runs: each game's name and its
    referee's class ("connect4 (Connect4Referee)"), or "none" (results are the clients')."""
    named = (f"{game} ({type(referee).__name__})" for game, referee in sorted(picked.items()))
    return ", ".join(named) or "none (no --referee: a result is what the two clients say)"


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
