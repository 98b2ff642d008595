"""The Framer: where reads handed to aiohttp are cut so that each request read whole is answered."""

from __future__ import annotations

import pytest

from relay.http.framing import Framer

GET = b"GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n"
CLOSE = b"GET /healthz HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n"
OLD = b"GET /healthz HTTP/1.0\r\n\r\n"
POST = b"POST /v1/seek HTTP/1.1\r\nHost: relay\r\nContent-Length: 2\r\n\r\n{}"
UPGRADE = b"GET /healthz HTTP/1.1\r\nHost: relay\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"


def cuts(*reads: bytes) -> list[bytes]:
    framer = Framer()
    return [part for data in reads for part in framer.cut(data)]


def test_good_reads_pass_whole() -> None:
    assert cuts(GET + POST + GET, POST[:10], POST[10:] + GET) == [
        GET + POST + GET,
        POST[:10],
        POST[10:] + GET,
    ]


def test_a_read_is_cut_before_what_follows_good_requests_and_fails() -> None:
    assert cuts(GET + POST + b"NOT HTTP\r\n\r\n" + GET) == [GET + POST, b"NOT HTTP\r\n\r\n" + GET]
    # The request completed in this read began in the one before.
    assert cuts(GET + POST[:10], POST[10:] + b"X Y\r\n\r\n") == [
        GET + POST[:10],
        POST[10:],
        b"X Y\r\n\r\n",
    ]


@pytest.mark.parametrize("last", [CLOSE, OLD])
def test_nothing_after_a_request_that_ends_the_connection_is_passed_on(last: bytes) -> None:
    assert cuts(GET + last + GET, GET) == [GET + last]
    assert cuts(last, GET) == [last]


def test_nothing_after_a_read_that_asks_to_switch_protocols_is_passed_on() -> None:
    assert cuts(GET + UPGRADE + GET, GET) == [GET + UPGRADE + GET]


def test_a_malformed_first_request_passes_as_it_came() -> None:
    assert cuts(b"X Y\r\n\r\n" + GET, GET) == [b"X Y\r\n\r\n" + GET, GET]


def test_a_long_pipelined_stream_is_still_cut_at_its_last_request() -> None:
    stream = GET * 3000  # over KEEP, reads ending inside requests
    reads = [stream[start : start + 999] for start in range(0, len(stream), 999)]
    parts = cuts(*reads[:-1], reads[-1] + b"X Y\r\n\r\n")
    assert b"".join(parts) == stream + b"X Y\r\n\r\n"
    assert parts[-1] == b"X Y\r\n\r\n" and parts[-2] == reads[-1]
