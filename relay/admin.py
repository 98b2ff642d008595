"""`python -m relay admin`: the host's moderation from a shell, through a running relay's admin
API (docs/fair-play.md#moderation). The secret comes from a file or the environment, never
the command line, where `ps` would show it."""

from __future__ import annotations

import argparse
import datetime
import os
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from relay.config import ADMIN_ENV

__all__ = ["URL_ENV", "duration", "main"]

URL_ENV = "MOVEWIRE_URL"
"""The environment variable the relay's address may come from."""

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smhdw]?)")


def duration(text: str) -> float:
    """Returns the seconds of a duration such as '90', '30m', '12h', '7d' or '2w'."""
    found = _DURATION.fullmatch(text.strip().lower())
    if found is None or float(found.group(1)) <= 0:
        raise argparse.ArgumentTypeError(
            f"a duration is a number and a unit (s, m, h, d, w), such as 7d, not {text!r}"
        )
    return float(found.group(1)) * _UNITS[found.group(2) or "s"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m relay admin",
        description="Moderate a running relay through its admin API: bans, voided ratings, "
        "erased names, players' reports.",
    )
    p.add_argument(
        "--url",
        default=os.environ.get(URL_ENV, "http://127.0.0.1:8080"),
        help=f"the relay's address, with its --prefix if any (default: ${URL_ENV}, else "
        "http://127.0.0.1:8080)",
    )
    p.add_argument(
        "--secret-file",
        metavar="PATH",
        help=f"the file holding the admin secret (else the environment variable {ADMIN_ENV})",
    )
    p.add_argument("--json", action="store_true", help="print the relay's JSON answer as is")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("bans", help="list the bans in force")
    ban = commands.add_parser("ban", help="ban a public id or an address range for a time")
    ban.add_argument("target", help="a public id, written id:ID (as reports show it; an id may "
                     "begin with '-'), or an address range such as 203.0.113.0/24")  # fmt: skip
    ban.add_argument("--for", dest="seconds", type=duration, required=True, metavar="DURATION",
                     help="how long: 90s, 30m, 12h, 7d, 2w")  # fmt: skip
    ban.add_argument("--reason", default="", help="shown to the banned player (200 characters)")
    unban = commands.add_parser("unban", help="lift a ban")
    unban.add_argument("target")
    void = commands.add_parser("void", help="take a rated match's rating back from both seats")
    void.add_argument("match")
    void.add_argument("--game", help="the match's game, once the relay has forgotten the match")
    erase = commands.add_parser("erase", help="erase a public id's name and chat lines")
    erase.add_argument("id", help="a public id, written id:ID (as this command prints it; an id "
                       "may begin with '-')")  # fmt: skip
    reports = commands.add_parser("reports", help="list players' reports, newest first")
    reports.add_argument("--limit", type=int, default=50)
    return p


def _secret(path: str | None) -> str:
    if path is not None:
        return Path(path).read_text().strip()
    return os.environ.get(ADMIN_ENV, "").strip()


def _call(url: str, secret: str, method: str, path: str, body: Any = None) -> Any:
    """Sends one admin request and returns its JSON answer; raises _Failed with the relay's
    error."""
    data = None if body is None else orjson.dumps(body)
    request = urllib.request.Request(url.rstrip("/") + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {secret}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return orjson.loads(answer.read())
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            found = orjson.loads(raw)["error"]
            raise _Failed(f"{error.code} {found['code']}: {found['message']}") from None
        except (orjson.JSONDecodeError, KeyError, TypeError):
            raise _Failed(f"{error.code}: {raw[:200]!r}") from None
    except (urllib.error.URLError, OSError) as error:
        raise _Failed(f"cannot reach the relay at {url}: {error}") from None


class _Failed(Exception):
    """Raised when the relay refuses or cannot be reached."""


def _when(seconds: float) -> str:
    moment = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _id(public: str | None) -> str:
    """Returns a public id as the commands take it back (id:ID: an id may begin with '-')."""
    return "(no key)" if public is None else f"id:{public}"


def _show(command: str, answer: Any) -> str:
    """Returns an answer as lines a host reads."""
    if command == "bans":
        rows = answer["bans"]
        if not rows:
            return "no bans in force"
        return "\n".join(
            f"{ban['target']}  until {_when(ban['until'])}  {ban['reason']}" for ban in rows
        )
    if command == "ban":
        return f"banned {answer['target']} until {_when(answer['until'])}"
    if command == "unban":
        return f"{answer['target']}: {'ban lifted' if answer['lifted'] else 'was not banned'}"
    if command == "void":
        if answer["state"] != "voided":
            state = "was voided before" if answer["state"] == "already" else "was not rated"
            return f"match {answer['match']} {state}: nothing changed"
        lines = [f"voided the rating of match {answer['match']} ({answer['game']})"]
        for seat in answer["seats"]:
            how = "restored exactly" if seat["exact"] else "its points given back"
            lines.append(
                f"  {_id(seat['id'])}: {seat['before']} -> {seat['after']} in the match; now "
                f"{seat['now']} ({how})"
            )
        return "\n".join(lines)
    if command == "erase":
        return (
            f"erased {_id(answer['id'])}: its name in {answer['matches']} matches and "
            f"{answer['ratings']} leaderboards, {answer['lines']} chat lines"
        )
    rows = answer["reports"]
    if not rows:
        return "no reports"
    out = []
    for report in rows:
        out.append(
            f"#{report['n']} {_when(report['at'])} {report['about']} in {report['game']} "
            f"match {report['match']}: {_id(report['reported'])} named {report['name']!r}, "
            f"by {_id(report['reporter'])}"
        )
        if report["text"]:
            out.append(f"    says: {report['text']}")
        out.extend(f"    chat: {line}" for line in report["chat"])
    return "\n".join(out)


_REQUESTS = {
    "bans": ("GET", "/v1/admin/bans"),
    "ban": ("POST", "/v1/admin/bans"),
    "unban": ("POST", "/v1/admin/unban"),
    "void": ("POST", "/v1/admin/void"),
    "erase": ("POST", "/v1/admin/erase"),
    "reports": ("GET", "/v1/admin/reports"),
}
"""Each command's method and path."""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one admin command; returns the exit status (0 done, 1 refused, 2 misused)."""
    a = _parser().parse_args(argv)
    try:
        secret = _secret(a.secret_file)
    except OSError as exc:
        error = f"cannot read {a.secret_file!r}: {exc.strerror}"
        print(f"python -m relay admin: {error}", file=sys.stderr)
        return 2
    if not secret:
        print(
            f"python -m relay admin: no secret: give --secret-file PATH or set {ADMIN_ENV}",
            file=sys.stderr,
        )
        return 2
    method, path = _REQUESTS[a.command]
    body: Any = None
    if a.command == "ban":
        body = {"target": a.target, "seconds": a.seconds, "reason": a.reason}
    elif a.command == "unban":
        body = {"target": a.target}
    elif a.command == "void":
        body = {"match": a.match, **({"game": a.game} if a.game else {})}
    elif a.command == "erase":
        body = {"id": a.id.removeprefix("id:")}
    elif a.command == "reports":
        path += f"?limit={a.limit}"
    try:
        answer = _call(a.url, secret, method, path, body)
    except _Failed as failed:
        print(f"python -m relay admin: {failed}", file=sys.stderr)
        return 1
    print(orjson.dumps(answer).decode() if a.json else _show(a.command, answer))
    return 0
