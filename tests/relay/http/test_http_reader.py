"""The front's request reader on its own: llhttp's verdicts, aiohttp's extra checks, hand-off."""

from __future__ import annotations

import pytest

from relay.api.routes import Router
from relay.http.reader import MAX_FIELD, MAX_HEAD, MAX_HEADERS, RequestReader, message_start

BODY = b'{"after":1,"move":"a b"}'
MOVE = (
    b"POST /v1/matches/m1/moves?wait=5 HTTP/1.1\r\nHost: relay\r\n"
    b"Authorization: Bearer abc\r\nContent-Type: application/json\r\n"
    b"Content-Length: %d\r\n\r\n%s" % (len(BODY), BODY)
)
POLL = b"GET /v1/matches/m1/events?after=2 HTTP/1.1\r\nHost: relay\r\n\r\n"
PAGE = b"GET /connect4.html HTTP/1.1\r\nHost: relay\r\n\r\n"


def reader(max_body: int = 1024) -> RequestReader:
    return RequestReader(Router(), max_body, lambda forwarded: forwarded or "peer")


def read(data: bytes, piece: int | None = None) -> RequestReader:
    """Returns a reader fed data whole, or in pieces of the given size."""
    found = reader()
    step = piece or len(data)
    for start in range(0, len(data), step):
        found.feed(data[start : start + step])
    return found


def test_a_move_is_read_into_one_call() -> None:
    found = read(MOVE)
    assert found.handoff is None and found.refusal is None and not found.in_message
    ((call, keep_alive, target),) = found.ready
    assert (call.route.endpoint, call.match, dict(call.query)) == ("move", "m1", {"wait": "5"})
    assert (call.authorization, call.content_type, call.client) == (
        "Bearer abc",
        "application/json",
        "peer",
    )
    assert call.body == BODY and keep_alive
    assert target == b"POST /v1/matches/m1/moves?wait=5 HTTP/1.1"


@pytest.mark.parametrize("piece", [1, 2, 7, 50])
def test_requests_in_pieces_read_as_whole_ones(piece: int) -> None:
    whole = [(c.route, c.match, c.body, dict(c.query)) for c, _, _ in read(MOVE + POLL).ready]
    split = [
        (c.route, c.match, c.body, dict(c.query)) for c, _, _ in read(MOVE + POLL, piece).ready
    ]
    assert split == whole and len(whole) == 2


def test_a_page_behind_pipelined_moves_is_handed_over_from_its_first_byte() -> None:
    found = read(MOVE + POLL + PAGE + MOVE)
    assert [call.route.endpoint for call, _, _ in found.ready] == ["move", "events"]
    assert bytes(found.handoff or b"") == PAGE + MOVE
    found.feed(b"more")
    assert bytes(found.handoff or b"") == PAGE + MOVE + b"more"


def test_malformed_request_behind_a_good_one_is_handed_over_whole() -> None:
    bad = b"POST /v1/seek HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 2\r\n\r\n{}"
    found = read(POLL + bad, piece=5)
    assert [call.route.endpoint for call, _, _ in found.ready] == ["events"]
    assert bytes(found.handoff or b"") == bad


@pytest.mark.parametrize(
    "head",
    [
        b"GET /v1/matches/m1 HTTP/1.1\r\n\r\n",  # no Host
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\nUser-Agent: x\r\nUser-Agent: y\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\nAuthorization: a\r\nauthorization: b\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.0\r\nHost: a\r\n\r\n",
        b"GET http://a/v1/matches/m1 HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET /v1/matches/m%31 HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET /v1/matches/m1/ HTTP/1.1\r\nHost: a\r\n\r\n",
        b"PUT /v1/matches/m1 HTTP/1.1\r\nHost: a\r\n\r\n",
        b"POST /v1/seek HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n",
        b"POST /v1/seek HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\nX: y\r\n folded\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.1\nHost: a\n\n",
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\nX: " + b"v" * MAX_FIELD + b"\r\n\r\n",
        b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\n" + b"X: y\r\n" * MAX_HEADERS + b"\r\n",
    ],
)
def test_what_the_front_does_not_serve_is_left_to_aiohttp(head: bytes) -> None:
    found = read(head)
    assert not found.ready and found.refusal is None
    assert bytes(found.handoff or b"") == head


def test_a_head_longer_than_the_front_reads_is_left_to_aiohttp() -> None:
    start = b"GET /v1/matches/m1 HTTP/1.1\r\nHost: a\r\n"
    found = reader()
    found.feed(start)
    for line in range(5):
        if found.handoff is not None:
            break
        found.feed(b"X-%d: " % line + b"v" * 8000 + b"\r\n")
    assert found.handoff is not None and len(found.handoff) > MAX_HEAD
    assert found.handoff.startswith(start) and not found.ready


def test_a_body_over_the_limit_is_refused_before_it_arrives() -> None:
    found = reader(max_body=10)
    found.feed(b"POST /v1/seek HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n")
    assert found.refusal is not None and found.refusal.code == "request/too_large"
    assert "10 bytes" in found.refusal.message and not found.ready


def test_connection_close_and_forwarded_client_are_read() -> None:
    found = reader()
    found.feed(
        POLL.replace(b"\r\n\r\n", b"\r\nConnection: close\r\nX-Forwarded-For: 10.1.2.3\r\n\r\n")
    )
    ((call, keep_alive, _),) = found.ready
    assert not keep_alive and call.client == "10.1.2.3"


def test_a_pipelining_client_keeps_what_the_reader_holds_bounded() -> None:
    found = reader()
    stream = (POLL * 2000)[: MAX_HEAD * 4]
    offset = 0
    while offset < len(stream):  # every read ends in the middle of a request
        found.feed(stream[offset : offset + 1000])
        offset += 1000
        found.ready.clear()
        assert len(found._unsplit) <= MAX_HEAD + 1000
    assert found.handoff is None


def test_message_start_finds_each_request() -> None:
    stream = MOVE + POLL + PAGE
    assert [message_start(stream, i) for i in range(3)] == [0, len(MOVE), len(MOVE + POLL)]


@pytest.mark.parametrize("host", [b"a b", b"u@evil/x?y", b"relay:80x", b"[::1"])
def test_a_host_that_is_no_uri_host_is_handed_to_aiohttp(host: bytes) -> None:
    found = read(POLL.replace(b"Host: relay", b"Host: " + host))
    assert not found.ready and bytes(found.handoff or b"").startswith(b"GET ")


def test_a_valid_host_is_read_again_without_a_second_check() -> None:
    found = read(POLL + POLL.replace(b"after=2", b"after=3") + MOVE)
    assert [call.route.endpoint for call, _, _ in found.ready] == ["events", "events", "move"]
    assert found.handoff is None
