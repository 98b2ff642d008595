"""The access log: one line per request answered, the same from the front and from aiohttp,
with the values of credential-like query parameters masked."""

from __future__ import annotations

import logging
import re

from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

from relay.http.server import RECEIVED_VERSION

__all__ = ["LINE", "MASK", "AccessLog", "masked"]

LINE = '%s "%s" %d %d %.6fs'
"""Client, request line (its credentials masked), status, body size, seconds taken."""

MASK = "***"
"""What a credential-like parameter's value is logged as."""

_SECRET = re.compile(
    r"(?<=[?&;])([^=&;\s#]*(?:token|key|secret|passw|auth|session|signature|player|credential)"
    r"[^=&;\s#]*)=[^&;\s#]*",
    re.IGNORECASE,
)
"""A query parameter whose name says it may hold a credential, and its value."""


def masked(line: str) -> str:
    """Returns a request line with the value of every credential-like query parameter (token,
    api_key, player, ...) replaced by MASK; the relay's own take none, but a client may send
    one in a URL, and a log must not keep it."""
    if "?" not in line:
        return line
    return _SECRET.sub(r"\1=" + MASK, line)


class AccessLog(AbstractAccessLogger):
    """aiohttp's access log, in the front's format (LINE)."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        """Logs one line for the request answered."""
        version = request.get(RECEIVED_VERSION, request.version)
        line = f"{request.method} {request.path_qs} HTTP/{version.major}.{version.minor}"
        remote = request.remote if request.remote is not None else "-"
        self.logger.info(LINE, remote, masked(line), response.status, response.body_length, time)

    @property
    def enabled(self) -> bool:
        """Whether lines are logged at all (they are INFO)."""
        return self.logger.isEnabledFor(logging.INFO)
