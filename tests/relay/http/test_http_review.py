"""The low findings of the black-box review (issue #23), each against a relay with the lean
front and one with --no-front, which must answer alike: HTTP versions, Host values,
requests pipelined behind a last one or a protocol switch, refusals that quote nothing,
nosniff, and the access log's masked query parameters."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator

import pytest

from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(60)

HEALTH = b"GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n"
TOKEN = "Tok3nThatMustNeverBeEchoed0123456789abcdef"


@pytest.fixture(scope="module")
def relays() -> Iterator[dict[str, RelayProcess]]:
    """Returns a relay with the lean front and one without, by name."""
    with (
        RelayProcess(*quick_flags()) as front,
        RelayProcess("--no-front", *quick_flags()) as plain,
    ):
        yield {"front": front, "no-front": plain}


@pytest.fixture(params=["front", "no-front"])
def relay(request: pytest.FixtureRequest, relays: dict[str, RelayProcess]) -> RelayProcess:
    """Returns each of the two relays in turn."""
    return relays[request.param]


def talk(relay: RelayProcess, data: bytes, quiet: float = 0.5) -> tuple[bytes, bool]:
    """Sends data on a new connection; returns all the relay sent back, and whether it closed
    the connection (else it went quiet for `quiet` seconds)."""

    async def run() -> tuple[bytes, bool]:
        reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
        writer.write(data)
        received = b""
        try:
            while True:
                try:
                    chunk = await asyncio.wait_for(reader.read(65536), quiet)
                except TimeoutError:
                    return received, False
                if not chunk:
                    return received, True
                received += chunk
        except ConnectionError:
            return received, True
        finally:
            writer.close()

    return asyncio.run(run())


def status_lines(answer: bytes) -> list[str]:
    """Returns the status line of every answer in what a relay sent back."""
    return [line.decode() for line in re.findall(rb"HTTP/\d\.\d \d{3}[^\r\n]*", answer)]


def statuses(answer: bytes) -> list[int]:
    return [int(line.split()[1]) for line in status_lines(answer)]


# -- 1: HTTP versions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"POST /v1/seek HTTP/2.0\r\nHost: relay\r\nContent-Type: application/json\r\n"
        b'Content-Length: 17\r\n\r\n{"game":"review"}',
        b"GET /healthz HTTP/2.0\r\nHost: relay\r\n\r\n",
        b"GET /healthz\r\n\r\n",
    ],
    ids=["move-http-2", "get-http-2", "no-version"],
)
def test_a_version_other_than_http_1_is_answered_505(relay: RelayProcess, data: bytes) -> None:
    answer, closed = talk(relay, data)
    assert status_lines(answer) == ["HTTP/1.1 505 HTTP Version Not Supported"], answer
    assert closed
    assert b'"match"' not in answer  # the seek was not served


# -- 2: Host -------------------------------------------------------------------------------


@pytest.mark.parametrize("host", [b"a b", b"u@evil/x?y", b"relay/x", b"relay:80x", b"[::1"])
def test_a_host_that_is_no_uri_host_is_refused(relay: RelayProcess, host: bytes) -> None:
    answer, closed = talk(relay, HEALTH.replace(b"Host: relay", b"Host: " + host))
    assert statuses(answer) == [400] and closed, answer


@pytest.mark.parametrize(
    "host", [b"relay", b"relay:8080", b"127.0.0.1:1", b"[::1]:80", b"xn--bcher-kva.example", b""]
)
def test_a_valid_host_is_served(relay: RelayProcess, host: bytes) -> None:
    answer, _ = talk(relay, HEALTH.replace(b"Host: relay", b"Host: " + host))
    assert statuses(answer) == [200], answer


# -- 3 and 4: what follows a request in the same write -------------------------------------


@pytest.mark.parametrize(
    ("first", "then", "wanted"),
    [
        (HEALTH.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"), HEALTH, [200]),
        (b"GET /healthz HTTP/1.0\r\n\r\n", HEALTH, [200]),
        (HEALTH, b"NOT HTTP\r\n\r\n" + HEALTH, [200, 400]),
        (HEALTH, b"GET /healthz HTTP/1.1\r\nHost: relay\r\nX Bad: 1\r\n\r\n", [200, 400]),
    ],
    ids=["after-connection-close", "after-http-1.0", "garbage-after", "malformed-after"],
)
def test_the_request_before_a_last_or_malformed_one_is_served(
    relay: RelayProcess, first: bytes, then: bytes, wanted: list[int]
) -> None:
    answer, closed = talk(relay, first + then)
    assert statuses(answer) == wanted and closed, answer


@pytest.mark.parametrize("upgrade", [b"h2c", b"websocket"])
def test_a_request_behind_an_upgrade_is_not_dropped_on_an_open_connection(
    relay: RelayProcess, upgrade: bytes
) -> None:
    switch = HEALTH.replace(
        b"\r\n\r\n",
        b"\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: %s\r\n"
        b"HTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n" % upgrade,
    )
    answer, closed = talk(relay, switch + HEALTH)
    # The switch is answered as a plain request; then the connection is closed, so that the
    # client knows the request behind it went unanswered (aiohttp's parser drops it).
    assert statuses(answer) == [200] and b"Connection: close" in answer and closed, answer


# -- 5: refusals quote nothing of the request ----------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        f"Authorization: Bearer {TOKEN}\x01",
        f"Authorization: Bearer {TOKEN}\x00",
        f"Authorization: Bearer {TOKEN}\x7f",
        f"Authorization : Bearer {TOKEN}",
        f"Authorization: Bearer {TOKEN}\r\n continued",
        f"X-Auth Token: {TOKEN}",
    ],
    ids=["ctl", "nul", "del", "space-before-colon", "folded", "space-in-name"],
)
def test_no_refusal_quotes_a_credential(relay: RelayProcess, line: str) -> None:
    data = HEALTH.replace(b"\r\n\r\n", b"\r\n" + line.encode("latin-1") + b"\r\n\r\n")
    answer, closed = talk(relay, data)
    assert statuses(answer) == [400] and closed, answer
    assert TOKEN.encode() not in answer and TOKEN[:12].encode() not in answer
    assert b"Authorization" not in answer.split(b"\r\n\r\n", 1)[1]


# -- 6: nosniff, and no markup from the request --------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        HEALTH,
        b"GET /v1/matches/%3Cscript%3Ealert(1)%3C%2Fscript%3E HTTP/1.1\r\nHost: relay\r\n\r\n",
        b"GET /v1/matches/x/events?after=%3Cb%3E HTTP/1.1\r\nHost: relay\r\n\r\n",
        b"GET /<script>alert(1)</script> HTTP/1.1\r\nHost: relay\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nHost: relay\r\n\r\n",
        b"GET /v1/openapi.json HTTP/1.1\r\nHost: relay\r\n\r\n",
        b"POST /v1/seek HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\n"
        b"Content-Length: 40000\r\n\r\n" + b"x" * 40000,
        b"GET /healthz HTTP/1.1\r\nHost: relay\r\nX Bad: 1\r\n\r\n",
    ],
    ids=["ok", "unknown-match", "bad-parameter", "no-route", "metrics", "openapi", "413", "400"],
)
def test_every_answer_says_nosniff_and_echoes_no_markup(relay: RelayProcess, data: bytes) -> None:
    answer, _ = talk(relay, data)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"\r\nX-Content-Type-Options: nosniff\r\n" in head + b"\r\n", answer
    if statuses(answer)[0] >= 400:  # an error, which may quote the request
        assert b"<" not in body and b">" not in body, body
    if b"application/json" in head:
        json.loads(body)


def test_an_unknown_match_still_names_the_match_in_json(relay: RelayProcess) -> None:
    answer, _ = talk(
        relay, b"GET /v1/matches/%3Cb%3E HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n"
    )
    body = json.loads(answer.partition(b"\r\n\r\n")[2])
    assert body["error"] == {"code": "match/unknown", "message": "No match '<b>'."}


# -- 7: the access log masks credentials in query strings -----------------------------------


def test_the_access_log_masks_token_like_query_parameters(relay: RelayProcess) -> None:
    secrets = ("S3cretTok", "S3cretKey", "S3cretPlayer", "S3cretAccess")
    target = (
        f"/v1/matches/logged/events?after=0&token={secrets[0]}&api_key={secrets[1]}"
        f"&Player={secrets[2]}&access_token={secrets[3]}&wait=0"
    )
    for extra in (b"", b"Transfer-Encoding: chunked\r\n"):  # front-read, aiohttp-read
        data = b"GET %s HTTP/1.1\r\nHost: relay\r\n%s\r\n" % (target.encode(), extra)
        if extra:
            data += b"0\r\n\r\n"
        answer, _ = talk(relay, data + b"GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n")
        assert statuses(answer) == [404, 200], answer
    log = relay.log()
    lines = [line for line in log.splitlines() if "/v1/matches/logged/events" in line]
    assert len(lines) == 2, log[-2000:]
    for line in lines:
        assert not any(secret in line for secret in secrets), line
        assert "after=0&token=***&api_key=***&Player=***&access_token=***&wait=0" in line, line


def test_masking_keeps_all_but_the_credentials_values() -> None:
    from relay.http.access import masked

    assert masked("GET /v1/x?after=3&wait=20 HTTP/1.1") == "GET /v1/x?after=3&wait=20 HTTP/1.1"
    assert masked("GET /a?TOKEN=x&k=1&key=&sessionId=9;auth=z HTTP/1.1") == (
        "GET /a?TOKEN=***&k=1&key=***&sessionId=***;auth=*** HTTP/1.1"
    )
    assert masked("POST /v1/seek HTTP/1.1") == "POST /v1/seek HTTP/1.1"
