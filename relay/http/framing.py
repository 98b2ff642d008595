"""Cuts what a client sends aiohttp into reads that end where its requests end, when a read
holds more than aiohttp would answer: so that aiohttp answers every request it reads whole,
as the lean front does.

aiohttp parses each read whole before it answers anything: a good request followed in the
same read by a malformed one, or by anything after a request that ends the connection
(`Connection: close`, HTTP/1.0), is refused as a whole, the good one unanswered. A `Framer`
reads the same bytes with llhttp (httptools) and, in those cases alone, cuts the read at the
end of the last request read whole: aiohttp then answers that request, then refuses the rest
as malformed, or (after a request that ends the connection) never sees it. A request asking
to switch protocols (`Connection: Upgrade`) ends the connection too: aiohttp's parser drops
what follows it in its read (relay/http/server.py closes the connection after its answer),
and the framer passes nothing after that read on."""

from __future__ import annotations

import httptools

from relay.http.reader import message_start

__all__ = ["Framer"]

KEEP = 65536
"""Bytes of a request in progress the framer keeps to cut at (it trims completed requests)."""


class Framer:
    """Reads a connection's bytes with llhttp to find where aiohttp's reads must be cut."""

    def __init__(self) -> None:
        self.ended = False
        """Whether a request that ends the connection was read: nothing after it is passed on."""
        self._off = False
        """Whether framing has ended: what follows goes to aiohttp as it comes."""
        self._start()

    def _start(self) -> None:
        """Starts reading afresh, at the start of a request."""
        self._parser = httptools.HttpRequestParser(self)
        self._unsplit: list[bytes] = []
        """The reads since the parser last stood between two requests at the end of a read."""
        self._size = 0
        self._done = 0
        """Requests completed within _unsplit."""
        self._last = True
        """Whether the last request completed keeps the connection open."""
        self._in_message = False

    def on_message_begin(self) -> None:
        self._in_message = True

    def on_message_complete(self) -> None:
        self._in_message = False
        self._done += 1
        self._last = self._parser.should_keep_alive()

    def cut(self, data: bytes) -> list[bytes]:
        """Returns data as the reads to hand aiohttp one after another: [data] but where a
        request read whole is followed by what aiohttp would refuse it with, or drop."""
        if self.ended:
            return []
        if self._off:
            return [data]
        if not self._last and not self._in_message:  # a read after the connection's last request
            self.ended = True
            return []
        self._unsplit.append(data)
        self._size += len(data)
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            # aiohttp reads this read up to the request that asks to switch, then drops the rest.
            self.ended = True
            return [data]
        except httptools.HttpParserError:
            return self._cut_at_last_request(data)
        if not self._in_message:
            self._unsplit.clear()
            self._size = self._done = 0
        elif self._size > KEEP and self._done:
            self._trim()
        return [data]

    def _cut_at_last_request(self, data: bytes) -> list[bytes]:
        """Returns data cut after the last request llhttp read whole in it, before what llhttp
        refused: both, or the first alone if that request ends the connection."""
        self._off = True
        joined = b"".join(self._unsplit)
        end = message_start(joined, self._done) - (len(joined) - len(data)) if self._done else 0
        self._unsplit.clear()
        if end <= 0:  # no request completed in this read: aiohttp has the ones before
            return [data]
        if not self._last:
            self.ended = True
            return [data[:end]]
        return [data[:end], data[end:]]

    def _trim(self) -> None:
        """Drops from _unsplit the requests completed in it (a pipelining client's)."""
        joined = b"".join(self._unsplit)
        rest = joined[message_start(joined, self._done) :]
        self._unsplit = [rest]
        self._size = len(rest)
        self._done = 0
