"""Through real nginx and real Apache (the shipped sites), the relay reads every forwarded
request of the corpus as the proxy that forwarded it did.

Each shape of `tests/relay/http/http_corpus.py` goes on a fresh match to the proxy, in front of
relay workers as the systemd unit runs them (lean front on). The proxy's log says which
requests it forwarded, the relay's access log which it read; `tests/hosting/desync.py`
compares them, and checks that no event landed on the match that no forwarded request asked
for (a smuggled resign). Shapes go one after another per proxy, so each log line belongs to
the shape in flight; nginx and Apache run side by side, each with its own relay workers."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Protocol

import aiohttp
import pytest

from tests.hosting.desync import (
    Forwarded,
    Request,
    explain_effect,
    find_desync,
    forwarded_requests,
    relayed_requests,
)
from tests.hosting.stack import Apache, Nginx, Workers, make_pages
from tests.relay.http.http_corpus import SHAPES, Shape, fill
from tests.support.components import require_binary
from tests.support.raw_http import Answers, effect, exchange, seat_pair
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess, free_port, quick_flags

pytestmark = pytest.mark.timeout(180)

PROXIES = ("nginx", "apache")

SETTLE = 0.15
"""Seconds for the proxy and the relay to write their log lines after the last answer."""


@dataclass(frozen=True, slots=True)
class Finding:
    """What one shape did through one proxy."""

    answers: Answers
    forwarded: Forwarded
    relayed: list[Request]
    effect: tuple[tuple[str, ...], ...]
    logs: str
    """The lines the proxy and the relay logged meanwhile, to show on a failure."""

    @property
    def problems(self) -> list[str]:
        """Returns where the relay read the forwarded requests differently from the proxy."""
        return find_desync(self.forwarded, self.relayed) + explain_effect(
            self.effect, self.forwarded
        )


Findings = dict[tuple[str, str], Finding]
"""Per (proxy, shape name): what happened."""


def _tail_from(path: Path, offset: int) -> str:
    with path.open("rb") as file:
        file.seek(offset)
        return file.read().decode("latin-1")


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


class Proxy(Protocol):
    """A proxy in front of a relay, with a log of what it forwarded (the `forwarded` format)."""

    @property
    def url(self) -> str: ...

    port: int

    @property
    def forwarded_log(self) -> Path: ...


async def _run(
    proxy: Proxy, relay_log: Path, shapes: Sequence[Shape] = SHAPES, setup: str = ""
) -> dict[str, Finding]:
    """Sends each shape through the proxy, one after another; returns what each did. Matches
    are set up and read back through the proxy, or through `setup` (a URL) if given."""
    setup = setup or proxy.url
    found: dict[str, Finding] = {}
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for shape in shapes:
            seats = await seat_pair(session, setup, "corpus")
            values = {"HOST": f"127.0.0.1:{proxy.port}", "MATCH": seats.match}
            data = fill(shape.template, {**values, "TOKEN": seats.mover, "PTOKEN": seats.partner})
            proxy_mark, relay_mark = _size(proxy.forwarded_log), _size(relay_log)
            answers = await exchange("127.0.0.1", proxy.port, data, first=2.0, quiet=0.3)
            await asyncio.sleep(SETTLE)
            proxy_log = _tail_from(proxy.forwarded_log, proxy_mark)
            relay_lines = _tail_from(relay_log, relay_mark)
            found[shape.name] = Finding(
                answers,
                forwarded_requests(proxy_log),
                relayed_requests(relay_lines),
                await effect(session, setup, seats),
                f"proxy:\n{proxy_log}relay:\n{relay_lines}",
            )
    return found


async def _run_both(nginx: Nginx, apache: Apache, workers: dict[str, Workers]) -> Findings:
    by_nginx, by_apache = await asyncio.gather(
        _run(nginx, workers["nginx"].log_path), _run(apache, workers["apache"].log_path)
    )
    return {
        **{("nginx", name): finding for name, finding in by_nginx.items()},
        **{("apache", name): finding for name, finding in by_apache.items()},
    }


@pytest.fixture(scope="module")
def findings() -> Iterator[Findings]:
    """Returns what every shape did through nginx and through Apache."""
    pages = make_pages()
    options = (*quick_flags(), "--request-timeout", "30")
    try:
        with contextlib.ExitStack() as stack:
            redis = stack.enter_context(RedisServer(redis_binary()))
            workers = {name: stack.enter_context(Workers(redis.url, *options)) for name in PROXIES}
            nginx = stack.enter_context(
                Nginx(require_binary("nginx", "nginx"), workers["nginx"], pages)
            )
            apache = stack.enter_context(
                Apache(require_binary("apache2", "apache2"), workers["apache"], pages)
            )
            yield asyncio.run(_run_both(nginx, apache, workers))
    finally:
        shutil.rmtree(pages.parent, ignore_errors=True)


@pytest.mark.parametrize("shape", SHAPES, ids=[shape.name for shape in SHAPES])
@pytest.mark.parametrize("proxy", PROXIES)
def test_relay_reads_each_forwarded_request_as_the_proxy_did(
    proxy: str, shape: Shape, findings: Findings
) -> None:
    found = findings[proxy, shape.name]
    assert not found.problems, (
        f"{shape.name} ({shape.category}, RFC {shape.clause}) through {proxy}:\n"
        + "".join(f"  {problem}\n" for problem in found.problems)
        + f"  the client got {list(found.answers.statuses)}; forwarded {found.forwarded}; "
        f"relayed {found.relayed}; events {list(found.effect)}\n{found.logs[-3000:]}"
    )


class NaiveProxy:
    """A proxy that takes all a client sends on a connection for one request: it logs that
    one request (its first line) and forwards the bytes as they came. A relay that reads two
    requests in them reads them differently from this proxy, which the check must catch."""

    def __init__(self, relay: RelayProcess, folder: Path) -> None:
        self.relay = relay
        self.port = free_port()
        self.forwarded_log = folder / "forwarded.log"
        self.forwarded_log.touch()
        self.server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        """Returns the proxy's base URL."""
        return f"http://127.0.0.1:{self.port}"

    async def __aenter__(self) -> NaiveProxy:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        assert self.server is not None
        self.server.close()

    async def _serve(self, client: asyncio.StreamReader, answer: asyncio.StreamWriter) -> None:
        data = b""
        while True:
            try:
                data += await asyncio.wait_for(client.read(65536), 0.2)
            except TimeoutError:
                break
        reader, writer = await asyncio.open_connection("127.0.0.1", self.relay.port)
        writer.write(data)
        line = data.split(b"\r\n", 1)[0].decode("latin-1")
        with self.forwarded_log.open("a") as log:
            log.write(f'200 "relay" "application/json" "{line}"\n')
        try:
            while chunk := await asyncio.wait_for(reader.read(65536), 0.3):
                answer.write(chunk)
        except TimeoutError:
            pass
        writer.close()
        answer.close()


async def test_a_relay_reading_more_requests_than_a_real_proxy_forwarded_is_caught(
    tmp_path: Path,
) -> None:
    by_name = {shape.name: shape for shape in SHAPES}
    shapes = [by_name["valid-pipelined-pair"], by_name["cl-get-body-hides-request"]]
    with RelayProcess(*quick_flags()) as relay:
        async with NaiveProxy(relay, tmp_path) as proxy:
            found = await _run(proxy, relay.log_path, shapes, setup=relay.url)
    pair, hidden = found["valid-pipelined-pair"], found["cl-get-body-hides-request"]
    # The proxy forwarded a move; the relay read the move and a resign, and applied both.
    assert len(pair.forwarded.answered) == 1 and not pair.forwarded.unanswered
    assert len(pair.relayed) == 2 and len(pair.effect) == 2
    assert any("the relay read 2" in problem for problem in pair.problems), pair.problems
    assert any("no resign request" in problem for problem in pair.problems), pair.problems
    # A request hidden in a GET's body is read as that body by the relay too: no desync.
    assert hidden.problems == [], hidden.problems


MOVE = ("POST", "/v1/matches/m1/moves")
RESIGN = ("POST", "/v1/matches/m1/resign")
JSON = "application/json"


def test_a_request_smuggled_past_the_proxy_is_detected() -> None:
    # nginx forwarded one move; the relay read the move and a resign hidden in its body.
    nginx_log = (
        f'201 "unix:/run/a.sock" "{JSON}" "POST /v1/seek HTTP/1.1"\n'
        f'200 "unix:/run/a.sock" "{JSON}" "POST /v1/matches/m1/moves HTTP/1.1"\n'
        '400 "-" "-" "GET /v1/x y HTTP/1.1"\n'
    )
    relay_log = (
        '2026-01-01 00:00:00,000 INFO relay.access unix "POST /v1/seek HTTP/1.1" 201 9 0.1s\n'
        "2026-01-01 00:00:00,001 INFO relay.access unix "
        '"POST /v1/matches/m1/moves HTTP/1.1" 200 9 0.1s\n'
        "2026-01-01 00:00:00,002 INFO relay.access  "
        '"POST /v1/matches/m1/resign HTTP/1.1" 200 9 0.1s\n'
    )
    forwarded, relayed = forwarded_requests(nginx_log), relayed_requests(relay_log)
    assert (forwarded, relayed) == (Forwarded([MOVE]), [MOVE, RESIGN])
    problems = find_desync(forwarded, relayed)
    assert any("the relay read 2" in problem for problem in problems)
    assert any("never forwarded" in problem for problem in problems)
    resigned = (("move", "mover", "outer", "false"), ("ended", "resigned", "partner"))
    assert explain_effect(resigned, forwarded) == [
        "('ended', 'resigned', 'partner') landed, but the proxy forwarded no resign request"
    ]


def test_a_relay_that_loses_the_framing_is_detected() -> None:
    # Apache forwarded a move and a resign; the relay read one request, a move.
    apache_log = (
        f'200 "http://relay-1" "{JSON}" "POST http://h/v1/matches/m1/mov%65s HTTP/1.1"\n'
        f'200 "http://relay-1" "{JSON}" "POST /v1/matches/m1/resign HTTP/1.1"\n'
        '400 "-" "text/html" "GET /v1/\\"x HTTP/1.1"\n'
    )
    forwarded = forwarded_requests(apache_log)
    assert forwarded == Forwarded([MOVE, RESIGN])
    assert find_desync(forwarded, [MOVE]) != []


def test_a_move_the_relay_applied_while_the_proxy_refused_it_is_detected() -> None:
    # Apache began to send the move, then answered 400 itself; the relay applied it anyway.
    apache_log = '400 "http://relay-1" "text/html; charset=iso-8859-1" "POST /v1/matches/m1/moves"'
    forwarded = forwarded_requests(apache_log)
    assert forwarded == Forwarded([], [MOVE])
    assert find_desync(forwarded, [MOVE]) == []
    assert explain_effect([("move", "mover", "outer", "false")], forwarded) != []


def test_readings_that_agree_or_a_refused_request_are_no_desync() -> None:
    nginx_log = f'200 "unix:/a.sock, unix:/b.sock" "{JSON}" "POST /v1/matches/m1/moves HTTP/1.1"'
    forwarded = forwarded_requests(nginx_log)
    assert forwarded == Forwarded([MOVE], [MOVE])  # tried on two relay processes
    assert find_desync(forwarded, [MOVE, MOVE]) == []
    assert find_desync(forwarded, [MOVE]) == []
    assert find_desync(Forwarded([MOVE]), [("UNKNOWN", "/")]) == []
    assert explain_effect([("move", "mover", "outer", "false")], forwarded) == []
