"""The command line read: parse_args makes the relay's Config from `python -m relay`'s options
(relay/options.py), with the store URL and the secrets they name read from a file or the
environment, and copies the pages for --copy-pages."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from relay.config import ADMIN_ENV, PASSKEY_ENV, STORE_ENV, Config, webhook_keys
from relay.core.model import StoreSettings
from relay.core.passkeys import PasskeySettings
from relay.core.rated import RatingRules
from relay.games import installed_games
from relay.http.pages import check_pages, copy_pages
from relay.options import parser
from relay.push.keys import KEY_ENV, NO_KEY, VapidKey, read_key
from relay.store.open import check_url

__all__ = ["parse_args"]


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, str | None]:
    """Returns the relay's settings and unix socket path from command-line arguments."""
    p = parser()
    a = p.parse_args(argv)
    try:
        a.store = store_url(a.store, a.store_file)
    except ValueError as exc:
        _refuse(p, str(exc))
    try:
        check_url(a.store)
    except ValueError as exc:
        _refuse(p, str(exc))
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
                pair_window=a.pair_window,
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
            passkeys=passkey_settings(a.passkey_rp_id, a.passkey_origin, a.passkey_secret_file),
            push_key=push_key(a.push_key_file, a.push_subject),
            push_subject=a.push_subject,
            push_every=a.push_every * 60,
        )
        if config.workers > 1 and config.store_url == "memory":
            raise ValueError("--workers needs a shared store: add --store redis://host:port/db")
        check_pages(config.games, config.pages_dirs)
    except ValueError as exc:
        _refuse(p, str(exc))
    if a.copy_pages is not None:
        try:
            count = copy_pages(Path(a.copy_pages), config.games, config.pages_dirs)
        except OSError as exc:
            _refuse(p, f"cannot copy the pages into {a.copy_pages!r}: {exc.strerror}")
        print(f"copied {count} files into {a.copy_pages}")
        raise SystemExit(0)
    return config, a.unix


def _refuse(p: argparse.ArgumentParser, message: str) -> NoReturn:
    """Stops with exit code 2 and the one line that says what is wrong (a game package that
    cannot load, a store URL, a folder): argparse itself prints the usage before an error of
    the options' own form, where it helps."""
    p.exit(2, f"{p.prog}: error: {message}\n")


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


def passkey_settings(
    rp_id: str | None, origins: Sequence[str], path: str | None
) -> PasskeySettings | None:
    """Returns the passkey settings (None without --passkey-rp-id): the secret from the file,
    else from MOVEWIRE_PASSKEY_SECRET; raises ValueError when the file cannot be read, or for
    an origin or a secret file given without a relying-party id."""
    if not rp_id:
        if origins or path:
            raise ValueError("--passkey-origin and --passkey-secret-file need --passkey-rp-id")
        return None
    if path is None:
        secret = os.environ.get(PASSKEY_ENV, "").strip().encode()
    else:
        try:
            secret = Path(path).read_bytes().strip()
        except OSError as exc:
            raise ValueError(
                f"cannot read --passkey-secret-file {path!r}: {exc.strerror}"
            ) from None
    return PasskeySettings(rp_id, tuple(origin.rstrip("/") for origin in origins), secret)


def push_key(path: str | None, subject: str) -> bytes:
    """Returns the relay's VAPID private key as given: the file's content, else
    MOVEWIRE_VAPID_KEY's (b'' for neither, with no --push-subject: Web Push is off). Raises
    ValueError, never quoting the key, when the file cannot be read or is empty, when a
    subject comes without a key, and when the key is not a P-256 private key or the subject
    not a mailto: or https: contact (relay.push.keys)."""
    if path is None:
        text = os.environ.get(KEY_ENV, "").strip().encode()
    else:
        try:
            text = Path(path).read_bytes().strip()
        except OSError as exc:
            raise ValueError(f"cannot read --push-key-file {path!r}: {exc.strerror}") from None
        if not text:
            raise ValueError(f"--push-key-file {path!r} is empty: {NO_KEY}")
    if not text:
        if subject:
            raise ValueError(NO_KEY)
        return b""
    if subject:
        VapidKey(read_key(text), subject)  # refused now, not at the first push
    return text
