"""Finds where a relay read the requests a proxy forwarded differently from the proxy.

A proxy reads the client's bytes into requests and forwards each one it accepts; its log says
which it forwarded, to how many relay processes (when it retried), and whether a relay
answered (the relay's Content-Type; Apache's own error pages are text/html). The relay logs
every request it read. The two read alike when the relay read exactly the requests
forwarded: as many, each with the same method and path, save one the relay refused whole as
malformed (aiohttp logs those as `UNKNOWN /`). A request the proxy began to forward but
answered itself (a bad chunked body Apache found while sending it) may or may not have
reached the relay whole. A relay that reads more requests than were forwarded has read one
hidden in a body or behind an ambiguous framing (a smuggled request); one that reads fewer,
or another, has lost the framing. And no event may land on the match that no request
forwarded and answered by the relay asked for."""

from __future__ import annotations

import collections
import re
import urllib.parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "Forwarded",
    "Request",
    "explain_effect",
    "find_desync",
    "forwarded_requests",
    "relayed_requests",
    "request_of",
]

Request = tuple[str, str]
"""A request as a log shows it: its method and its path (percent-decoded, no query)."""

REFUSED: Request = ("UNKNOWN", "/")
"""How aiohttp logs a message it refused as malformed."""

SETUP = re.compile(
    r"^(POST /v1/seek|GET /v1/matches/[^/ ]+/events\?(after=0|after=1&wait=0)) HTTP/1\.1$"
)
"""Request lines of the test's own setup and read-back, left out of the comparison."""

_FORWARDED = re.compile(r'^(\d{3}) "([^"]*)" "([^"]*)" "(.*)"$')
_RELAY = re.compile(r' relay\.access \S* "(.*)" (\d{3}) ')


def request_of(line: str) -> Request:
    """Returns the method and decoded path of a request line (absolute-form made origin-form)."""
    parts = line.split()
    method, target = [*parts, "", ""][:2]
    if target.lower().startswith(("http://", "https://")):
        target = "/" + target.split("/", 3)[3] if target.count("/") >= 3 else "/"
    path = target.split("?", 1)[0].split("#", 1)[0]
    return method, urllib.parse.unquote(path)


@dataclass(frozen=True, slots=True)
class Forwarded:
    """The requests a proxy sent to a relay: `answered`, those a relay answered; `unanswered`,
    those it sent (or began to send) but answered itself, or retried elsewhere."""

    answered: list[Request] = field(default_factory=list)
    unanswered: list[Request] = field(default_factory=list)


def forwarded_requests(log: str) -> Forwarded:
    """Returns the requests a proxy's `forwarded` log shows it sent to a relay, once per relay
    process tried (nginx lists each, comma-separated; Apache names the balancer member)."""
    found = Forwarded()
    for line in log.splitlines():
        matched = _FORWARDED.match(line)
        if matched is None:
            continue
        upstream, content_type = matched.group(2), matched.group(3)
        request_line = matched.group(4).replace('\\"', '"')
        if upstream in ("", "-") or SETUP.match(request_line):
            continue
        request = request_of(request_line)
        tries = len(re.split(r", | : ", upstream))
        found.unanswered.extend([request] * (tries - 1))
        by_relay = content_type not in ("", "-") and not content_type.startswith("text/html")
        (found.answered if by_relay else found.unanswered).append(request)
    return found


def relayed_requests(log: str) -> list[Request]:
    """Returns the requests the relay's access log shows it read (and answered)."""
    return [
        request_of(matched.group(1))
        for matched in map(_RELAY.search, log.splitlines())
        if matched is not None and not SETUP.match(matched.group(1))
    ]


def find_desync(forwarded: Forwarded, relayed: Sequence[Request]) -> list[str]:
    """Returns how the relay's reading differs from the proxy's (nothing when they agree)."""
    problems = []
    sure, maybe = forwarded.answered, forwarded.unanswered
    if not len(sure) <= len(relayed) <= len(sure) + len(maybe):
        problems.append(
            f"the proxy forwarded {len(sure)} request(s) {sure} (and began {len(maybe)} more "
            f"{maybe}), the relay read {len(relayed)} {list(relayed)}"
        )
    unread = collections.Counter(sure) + collections.Counter(maybe)
    refused = 0
    for request in relayed:
        if unread[request] > 0:
            unread[request] -= 1
        elif request == REFUSED:
            refused += 1
        else:
            problems.append(f"the relay read {request}, which the proxy never forwarded")
    missing = sum((collections.Counter(sure) - collections.Counter(relayed)).values())
    if missing > refused:
        problems.append(f"the relay never read {missing - refused} answered request(s) of {sure}")
    return problems


def explain_effect(effect: Iterable[Sequence[str]], forwarded: Forwarded) -> list[str]:
    """Returns each event on the match that no request forwarded and answered asked for."""
    actions = collections.Counter(path.rsplit("/", 1)[-1] for _, path in forwarded.answered)
    problems = []
    for event in effect:
        action = {"move": "moves", "ended": "resign"}.get(event[0], event[0])
        if actions[action] > 0:
            actions[action] -= 1
        else:
            problems.append(f"{tuple(event)} landed, but the proxy forwarded no {action} request")
    return problems
