"""Transport: one relay's requests, each sent again through transient faults with backoff."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import aiohttp
import orjson

from sdk.errors import (
    ConnectionLostError,
    ProtocolError,
    RelayRefusedError,
    RelayUnreachableError,
)
from sdk.ticket import Ticket
from sdk.timing import Timing

__all__ = ["NOT_AN_ANSWER", "Transport"]

log = logging.getLogger("sdk.transport")
"""Tells each request sent again, and why, at INFO (nothing is shown unless a program or a
test asks for it)."""

GAVE_UP = "no answer from {url} for {seconds:.1f} s ({failure})"
"""The ConnectionLostError of a call that failed for `timing.give_up` seconds."""
UNREACHABLE = "nothing answers at {url} ({failure}); is the relay's address right?"
"""The RelayUnreachableError of a call that never got an answer from the relay."""
NOT_AN_ANSWER = "the relay's answer to {what} is not protocol v1: {body!r}"
"""The ProtocolError of an answer that is not what protocol v1 says."""

_RETRIED_STATUSES = frozenset({408, 429})
"""4xx answers that mean "try again": request timeout and rate limits (5xx are all retried)."""


class Transport:
    """Sends one relay's requests and reads their answers, retrying transient faults (see
    RelayClient, which speaks the protocol over it, with TableCalls and PlayerCalls)."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        relay_url: str,
        timing: Timing | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.session = session
        self.relay_url = relay_url.rstrip("/")
        self.timing = timing or Timing()
        self.rng = rng or random.Random()
        self.retries = 0
        """How many times a request was sent again after a transient fault."""
        self.reached = False
        """Whether the relay has answered any request of this client (an error included)."""

    def _held(self, path: str, after: int | None, wait: int | None) -> tuple[str, float]:
        """Returns a read's path and timeout: with `after`, held until the version read is
        above it (up to `wait` seconds, which the timeout allows for)."""
        if after is None:
            return path, self.timing.request_timeout
        path += ("&" if "?" in path else "?") + f"after={after}"
        if wait is not None:
            path += f"&wait={wait}"
        return path, self.timing.poll_margin + (wait or 0)

    async def _seq(self, ticket: Ticket, action: str, body: dict[str, Any]) -> int:
        """Posts a write to the match (`action`: its path's last part); returns the number
        of the event the answer names."""
        path = f"/v1/matches/{ticket.match}/{action}"
        answer = await self._call("POST", path, ticket.token, body)
        seq = answer.get("seq") if isinstance(answer, dict) else None
        if type(seq) is not int:
            raise ProtocolError(NOT_AN_ANSWER.format(what=action, body=answer))
        return seq

    async def _call(
        self,
        method: str,
        path: str,
        token: str | None,
        body: dict[str, Any] | None,
        timeout: float | None = None,
        text: bool = False,
        retried: frozenset[int] = _RETRIED_STATUSES,
    ) -> Any:
        """Returns the JSON answer to a request (its bytes, with text), sent again after each
        transient fault (5xx, a lost connection, and the 4xx statuses in `retried`), each
        retry told to the `sdk.transport` logger at INFO."""
        url = self.relay_url + path
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = orjson.dumps(body)
        limit = aiohttp.ClientTimeout(total=timeout or self.timing.request_timeout)
        loop = asyncio.get_running_loop()
        started = loop.time()
        attempt = 0
        while True:
            retry_after: float | None = None
            try:
                async with self.session.request(
                    method, url, data=data, headers=headers, timeout=limit
                ) as answer:
                    raw = await answer.read()
                    status = answer.status
                    self.reached = True
                    retry_after = _retry_after(answer.headers.get("Retry-After"))
            except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                failure = f"{type(exc).__name__}: {exc}".rstrip(": ")
            else:
                if status < 400:
                    if text:
                        return raw
                    try:
                        return orjson.loads(raw)
                    except orjson.JSONDecodeError:
                        failure = f"{status} with a garbled body"
                else:
                    code, message = _error(raw)
                    if status < 500 and status not in retried:
                        raise RelayRefusedError(status, code, message, retry_after)
                    failure = f"{status} {code}"
            timing = self.timing
            delay = timing.backoff(attempt, self.rng, retry_after)
            waited = loop.time() - started
            if not self.reached and waited + delay > min(timing.first_contact, timing.give_up):
                raise RelayUnreachableError(UNREACHABLE.format(url=self.relay_url, failure=failure))
            if waited + delay > timing.give_up:
                raise ConnectionLostError(
                    GAVE_UP.format(url=self.relay_url, seconds=waited, failure=failure)
                )
            attempt += 1
            self.retries += 1
            log.info("%s %s: %s; sent again in %.1f s", method, path, failure, delay)
            await asyncio.sleep(delay)


def _match_and_token(ticket: Ticket | str) -> tuple[str, str | None]:
    """Returns the match a Ticket or a bare match id names, and the seat's token (None: read
    as a spectator)."""
    if isinstance(ticket, Ticket):
        return ticket.match, ticket.token
    return ticket, None


def _retry_after(header: str | None) -> float | None:
    """Returns the seconds of a Retry-After header given in seconds (dates are ignored)."""
    if header is None:
        return None
    try:
        seconds = float(header)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def _error(raw: bytes) -> tuple[str, str]:
    """Returns the code and message of a relay error answer (or stand-ins for a foreign one)."""
    try:
        error = orjson.loads(raw)["error"]
        return str(error["code"]), str(error["message"])
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return "http/error", raw[:200].decode("utf-8", "replace")
