"""The lean front reads every request of the corpus as aiohttp does (`--no-front`).

Each shape of `tests/relay/http/http_corpus.py` goes, on a fresh match, to a relay with the front
and to one without. The two must give the same verdict: as many answers, each with the same
status, and the same events added to the match. Where both refuse a message as HTTP the exact
status may differ (`REJECTED`: RFC 9112 lets a server choose among 400, 413, 414, 431...).
Requests sent behind another in the same write get the same answers from both (`PIPELINED`):
the first served, then what follows it refused (garbage), or ignored and the connection
closed (after `Connection: close`, HTTP/1.0 or `Upgrade`). Where RFC 9112 asks for a rejection
(`expect="reject"`) the front may also refuse the message although aiohttp accepts it: it
must read HTTP at least as strictly as aiohttp, not as laxly. Whether a server closes the
connection is shown, not compared. Every shape is sent at once, each on its own connection
and match, so the module takes seconds, not minutes."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Iterator

import aiohttp
import pytest

from tests.relay.http.http_corpus import CATEGORIES, SHAPES, Shape
from tests.support.raw_http import Verdict, parse_answers, probe
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(120)

Verdicts = dict[str, tuple[Verdict, Verdict]]
"""Per shape name: the front's verdict and aiohttp's."""

NAMED_IN_THE_ISSUE = (
    "cl-duplicate-first-zero",
    "fold-hides-transfer-encoding",
    "host-missing",
    "host-duplicate",
    "field-space-in-name",
    "field-nul-in-value",
    "field-bare-cr-in-value",
)
"""The seven shapes the front answered with 201 when the issue was filed."""

_MOVED = ("move", "mover", "outer", "false")
_RESIGNED = ("ended", "resigned", "partner")
PIPELINED: dict[str, tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]] = {
    "valid-pipelined-pair": (("200", "200"), (_MOVED, _RESIGNED)),
    "pipe-after-connection-close": (("200",), (_MOVED,)),
    "pipe-after-http10": (("200",), (_MOVED,)),
    "pipe-after-http10-keepalive": (("200", "200"), (_MOVED, _RESIGNED)),
    "pipe-after-upgrade-h2c": (("200",), (_MOVED,)),
    "pipe-garbage-between": (("200", "rejected"), (_MOVED,)),
    "pipe-after-version-2": (("rejected",), ()),
    "cl-short-leaves-garbage": (("rejected", "rejected"), ()),
}
"""The answers (kinds) and events of requests sent behind another, from front and aiohttp."""

CONCURRENT = 24
"""Shapes in flight at once per relay."""


async def _verdicts(front: RelayProcess, plain: RelayProcess) -> Verdicts:
    limit = asyncio.Semaphore(CONCURRENT)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(timeout=timeout) as session:

        async def one(relay: RelayProcess, shape: Shape) -> Verdict:
            async with limit:
                return await probe(session, relay.url, "127.0.0.1", relay.port, shape)

        found = await asyncio.gather(
            *(asyncio.gather(one(front, shape), one(plain, shape)) for shape in SHAPES)
        )
    return {shape.name: (pair[0], pair[1]) for shape, pair in zip(SHAPES, found, strict=True)}


@pytest.fixture(scope="module", params=["sources", "compiled"])
def verdicts(request: pytest.FixtureRequest) -> Iterator[Verdicts]:
    """Returns every shape's verdict from a relay with the front (run from the sources, or as
    the wheel installs it, compiled) and from one with --no-front."""
    options = (*quick_flags(), "--request-timeout", "30")
    installed = request.getfixturevalue("installed") if request.param == "compiled" else None
    with (
        RelayProcess(*options, installed=installed) as front,
        RelayProcess("--no-front", *options) as plain,
    ):
        yield asyncio.run(_verdicts(front, plain))


@pytest.mark.parametrize("shape", SHAPES, ids=[shape.name for shape in SHAPES])
def test_front_gives_the_verdict_aiohttp_gives(shape: Shape, verdicts: Verdicts) -> None:
    front, plain = verdicts[shape.name]
    allowed = [(plain.kinds, plain.effect)]
    if shape.expect == "reject":
        # Stricter than aiohttp where RFC 9112 asks for a rejection: refused whole, no effect.
        allowed.append((("rejected",), ()))
    assert (front.kinds, front.effect) in allowed, (
        f"{shape.name} ({shape.category}, RFC {shape.clause}, expected: {shape.expect}):\n"
        f"  front:   {front}\n  aiohttp: {plain}"
    )


def test_corpus_covers_every_kind_of_request_the_issue_lists() -> None:
    assert len(SHAPES) >= 60
    wanted = {
        "valid", "request-line", "fields", "control-chars", "obs-fold", "host",
        "content-length", "CL.TE", "TE.CL", "TE.TE", "chunked", "bare-LF", "pipelined",
        "over-long", "expect-upgrade",
    }  # fmt: skip
    assert wanted <= set(CATEGORIES)
    by_name = {shape.name: shape for shape in SHAPES}
    assert all(name in by_name for name in NAMED_IN_THE_ISSUE)
    assert len({shape.template for shape in SHAPES}) == len(SHAPES)  # no shape repeats another
    counts = collections.Counter(shape.expect for shape in SHAPES)
    assert counts["accept"] >= 10 and counts["reject"] >= 30, counts


def test_answers_are_read_through_pipelining_interim_answers_and_garbage() -> None:
    data = (
        b"HTTP/1.1 100 Continue\r\n\r\n"
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
        b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nno\r\n0\r\n\r\n"
        b"HTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n"
        b"junk"
    )
    answers = parse_answers(data, closed=True)
    assert answers.statuses == (200, 400, 201)
    assert answers.garbage == b"junk"
    verdict = Verdict(answers.statuses, (), True, answers.garbage)
    assert verdict.kinds == ("200", "rejected", "201", "garbage")


@pytest.mark.parametrize("name", PIPELINED)
def test_a_request_sent_behind_another_is_answered_as_rfc_9112_asks(
    name: str, verdicts: Verdicts
) -> None:
    for verdict in verdicts[name]:
        assert (verdict.kinds, verdict.effect) == PIPELINED[name], f"{name}: {verdict}"
