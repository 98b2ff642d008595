"""A corpus of HTTP/1.1 request shapes, valid and malformed, for differential tests of parsers.

Each shape is raw bytes with placeholders that `fill` replaces with a real match's values, so
that a server which accepts the shape does something observable: the outer request posts the
mover's first move ("outer") on a fresh match, and a request hidden in a body or behind an
ambiguous framing (`$SMUGGLE`) resigns that match as the partner. Placeholders:

- `$HOST`: the server's `host:port`; `$MATCH`: the match id; `$MOVE`: the path of its moves;
- `$AUTH`: the mover's `Authorization` line; `$PTOKEN`: the partner's token;
- `$BODY` (a valid move body), `$BODY_LEN`, `$BODY_HEX`: the body and its length in decimal
  and hex; `$SMUGGLE`, `$SMUGGLE_LEN`, `$SMUGGLE_HEX`: the hidden request and its length;
- `$REST_LEN`: the length of everything after the head's blank line (filled last);
- `$CHUNK_LINE_LEN`: the length of `$SMUGGLE_HEX` and its CRLF (the TE.CL split point).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["BODY", "CATEGORIES", "OUTER_MOVE", "SHAPES", "Shape", "fill"]

Expect = Literal["accept", "reject", "either"]
"""What RFC 9112 asks of a server: accept the shape, reject it with a 4xx (or 5xx where the
RFC names one), or either (a MAY, or a SHOULD with an allowed alternative)."""

OUTER_MOVE = "outer"
"""The move text the outer request posts."""

BODY = b'{"after":1,"move":"' + OUTER_MOVE.encode() + b'"}'
"""The body of the outer request: the first move of a fresh match."""

_SMUGGLE = (
    b"POST /v1/matches/$MATCH/resign HTTP/1.1\r\nHost: $HOST\r\nAuthorization: Bearer $PTOKEN"
    b"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
)

_NAMES = (
    "CHUNK_LINE_LEN", "SMUGGLE_LEN", "SMUGGLE_HEX", "SMUGGLE", "BODY_LEN", "BODY_HEX", "BODY",
    "PTOKEN", "TOKEN", "MATCH", "MOVE", "AUTH", "HOST",
)  # fmt: skip
_PLACEHOLDER = re.compile(rb"\$(" + "|".join(_NAMES).encode() + rb")")


@dataclass(frozen=True, slots=True)
class Shape:
    """One request shape: its name, what it exercises, what RFC 9112 asks, and its bytes."""

    name: str
    category: str
    clause: str
    """The RFC 9112 section (or smuggling class) the shape exercises."""
    expect: Expect
    template: bytes

    def __repr__(self) -> str:
        return f"Shape({self.name!r})"


def fill(template: bytes, values: Mapping[str, str]) -> bytes:
    """Returns the template with every placeholder replaced; values gives HOST, MATCH, TOKEN
    (the mover's) and PTOKEN (the partner's), the rest is derived from them."""
    smuggle = _expand(_SMUGGLE, values)
    known = {
        **{key: value.encode() for key, value in values.items()},
        "MOVE": b"/v1/matches/%s/moves" % values["MATCH"].encode(),
        "AUTH": b"Authorization: Bearer %s" % values["TOKEN"].encode(),
        "BODY": BODY,
        "BODY_LEN": b"%d" % len(BODY),
        "BODY_HEX": b"%x" % len(BODY),
        "SMUGGLE": smuggle,
        "SMUGGLE_LEN": b"%d" % len(smuggle),
        "SMUGGLE_HEX": b"%x" % len(smuggle),
        "CHUNK_LINE_LEN": b"%d" % (len(b"%x" % len(smuggle)) + 2),
    }
    filled = _PLACEHOLDER.sub(lambda m: known.get(m.group(1).decode(), m.group(0)), template)
    filled = _PLACEHOLDER.sub(lambda m: known.get(m.group(1).decode(), m.group(0)), filled)
    _, blank, rest = filled.partition(b"\r\n\r\n")
    filled = filled.replace(b"$REST_LEN", b"%d" % len(rest) if blank else b"0")
    leftover = re.search(rb"\$[A-Z]", filled)
    assert leftover is None, f"unknown placeholder {leftover.group(0)!r}"
    return filled


def _expand(template: bytes, values: Mapping[str, str]) -> bytes:
    return _PLACEHOLDER.sub(
        lambda m: values[m.group(1).decode()].encode() if m.group(1).decode() in values else m[0],
        template,
    )


# The heads most shapes share: the outer move, with and without its framing.
_HEAD = b"POST $MOVE HTTP/1.1\r\nHost: $HOST\r\n$AUTH\r\nContent-Type: application/json\r\n"
_MOVE = _HEAD + b"Content-Length: $BODY_LEN\r\n\r\n$BODY"
_CHUNKED = b"$BODY_HEX\r\n$BODY\r\n0\r\n\r\n"


def _with(*lines: bytes) -> bytes:
    """Returns the outer move with extra header lines (before Content-Length)."""
    return (
        _HEAD
        + b"".join(line + b"\r\n" for line in lines)
        + b"Content-Length: $BODY_LEN\r\n\r\n$BODY"
    )


def _target(action: bytes) -> bytes:
    """Returns the outer move with its target's last segment (`moves`) replaced."""
    return _MOVE.replace(b"POST $MOVE ", b"POST /v1/matches/$MATCH/" + action + b" ", 1)


_SHAPES: list[tuple[str, str, str, Expect, bytes]] = [
    # -- valid requests: a server must accept each (the corpus checks acceptance too) --------
    ("valid-keepalive-move", "valid", "9112 §6.2", "accept", _MOVE),
    ("valid-pipelined-pair", "valid", "9112 §9.3.2", "accept", _MOVE + b"$SMUGGLE"),
    ("valid-chunked-body", "valid", "9112 §7.1", "accept",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + _CHUNKED),
    ("valid-chunked-split", "valid", "9112 §7.1", "accept",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n"
     b'5\r\n{"aft\r\n15\r\ner":1,"move":"outer"}\r\n0\r\n\r\n'),
    ("valid-chunk-extension", "valid", "9112 §7.1.1", "accept",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n"
     b"$BODY_HEX;name=value\r\n$BODY\r\n0\r\n\r\n"),
    ("valid-chunked-trailer", "valid", "9112 §7.1.2", "accept",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n$BODY_HEX\r\n$BODY\r\n0\r\nX-Trailer: 1\r\n\r\n"),
    ("valid-http10-move", "valid", "9112 §2.3", "accept",
     _MOVE.replace(b"HTTP/1.1", b"HTTP/1.0", 1)),
    ("valid-http10-without-host", "valid", "9112 §3.2", "accept",
     _MOVE.replace(b"HTTP/1.1", b"HTTP/1.0", 1).replace(b"Host: $HOST\r\n", b"")),
    ("valid-expect-100-continue", "valid", "9110 §10.1.1", "accept",
     _with(b"Expect: 100-continue")),
    ("valid-percent-encoded-path", "valid", "9112 §3.2.1", "accept",
     _target(b"mov%65s")),
    ("valid-percent-encoded-query", "valid", "9112 §3.2.1", "accept",
     b"GET /v1/matches/$MATCH/events?after=%30&wait=0 HTTP/1.1\r\nHost: $HOST\r\n\r\n"),
    ("valid-absolute-form", "valid", "9112 §3.2.2", "accept",
     _MOVE.replace(b"POST $MOVE", b"POST http://$HOST$MOVE", 1)),
    ("valid-absolute-form-other-host", "valid", "9112 §3.2.2", "accept",
     _MOVE.replace(b"POST $MOVE", b"POST http://$HOST$MOVE", 1)
     .replace(b"Host: $HOST", b"Host: elsewhere.example")),
    ("valid-options-asterisk", "valid", "9112 §3.2.4", "accept",
     b"OPTIONS * HTTP/1.1\r\nHost: $HOST\r\n\r\n"),
    ("valid-ows-tabs", "valid", "9112 §5.1", "accept",
     _MOVE.replace(b"Content-Type: application/json", b"Content-Type:\tapplication/json \t")),
    ("valid-lowercase-names", "valid", "9110 §5.1", "accept",
     _MOVE.replace(b"Host:", b"host:").replace(b"Content-Length:", b"content-length:")),
    ("valid-content-length-leading-zeros", "valid", "9110 §8.6", "accept",
     _MOVE.replace(b"Content-Length: $BODY_LEN", b"Content-Length: 00$BODY_LEN")),
    ("valid-empty-field-value", "valid", "9110 §5.5", "accept", _with(b"X-Empty:")),
    ("valid-obs-text-value", "valid", "9110 §5.5", "accept", _with(b"X-Note: caf\xe9")),
    ("valid-connection-close", "valid", "9112 §9.6", "accept", _with(b"Connection: close")),
    ("valid-get-match-info", "valid", "9112 §3", "accept",
     b"GET /v1/matches/$MATCH HTTP/1.1\r\nHost: $HOST\r\n\r\n"),
    ("valid-leading-empty-line", "valid", "9112 §2.2", "either", b"\r\n" + _MOVE),
    ("valid-underscore-name", "valid", "9110 §5.1", "accept",
     _with(b"Transfer_Encoding: chunked")),
    # -- request line ------------------------------------------------------------------------
    ("line-lowercase-version", "request-line", "9112 §2.3", "reject",
     _MOVE.replace(b"HTTP/1.1", b"http/1.1", 1)),
    ("line-version-2", "request-line", "9112 §2.3", "reject",
     _MOVE.replace(b"HTTP/1.1", b"HTTP/2.0", 1)),
    ("line-version-2-get", "request-line", "9112 §2.3", "reject",
     b"GET /v1/matches/$MATCH HTTP/2.0\r\nHost: $HOST\r\n\r\n"),
    ("line-version-1-2", "request-line", "9112 §2.3", "either",
     _MOVE.replace(b"HTTP/1.1", b"HTTP/1.2", 1)),
    ("line-http09-no-version", "request-line", "9112 §3", "reject",
     b"GET /v1/matches/$MATCH\r\n\r\n"),
    ("line-double-space", "request-line", "9112 §3", "either",
     _MOVE.replace(b"POST ", b"POST  ", 1)),
    ("line-tab-separator", "request-line", "9112 §3", "either",
     _MOVE.replace(b"POST ", b"POST\t", 1)),
    ("line-trailing-space", "request-line", "9112 §3", "reject",
     _MOVE.replace(b" HTTP/1.1\r\n", b" HTTP/1.1 \r\n", 1)),
    ("line-space-in-target", "request-line", "9112 §3.2", "reject",
     _target(b"moves x")),
    ("line-nul-in-target", "control-chars", "9112 §3.2", "reject",
     _target(b"moves\x00")),
    ("line-fragment-in-target", "request-line", "9112 §3.2", "reject",
     _target(b"moves#x")),
    ("line-bad-method-token", "request-line", "9110 §9.1", "reject",
     _MOVE.replace(b"POST", b"PO(ST", 1)),
    ("line-authority-form-post", "request-line", "9112 §3.2.3", "reject",
     _MOVE.replace(b"POST $MOVE", b"POST $HOST", 1)),
    ("line-asterisk-form-post", "request-line", "9112 §3.2.4", "reject",
     _MOVE.replace(b"POST $MOVE", b"POST *", 1)),
    # -- header fields -----------------------------------------------------------------------
    ("field-space-before-colon", "fields", "9112 §5.1", "reject",
     _MOVE.replace(b"Content-Length:", b"Content-Length :")),
    ("field-space-in-name", "fields", "9110 §5.1", "reject", _with(b"X-Relay Test: 1")),
    ("field-no-colon", "fields", "9112 §5", "reject", _with(b"X-Note value")),
    ("field-empty-name", "fields", "9112 §5", "reject", _with(b": value")),
    ("field-whitespace-before-first", "fields", "9112 §2.2", "either",
     _MOVE.replace(b"\r\nHost:", b"\r\n Host:", 1)),
    ("field-nul-in-value", "control-chars", "9110 §5.5", "reject", _with(b"X-Note: a\x00b")),
    ("field-bare-cr-in-value", "control-chars", "9112 §2.2", "reject", _with(b"X-Note: a\rb")),
    ("field-ctl-in-name", "control-chars", "9110 §5.1", "reject", _with(b"X-No\x01te: 1")),
    ("field-del-in-value", "control-chars", "9110 §5.5", "reject", _with(b"X-Note: a\x7fb")),
    ("field-vtab-in-value", "control-chars", "9110 §5.5", "reject", _with(b"X-Note: a\x0bb")),
    ("field-nul-in-authorization", "control-chars", "9110 §5.5", "reject",
     _MOVE.replace(b"$AUTH", b"Authorization: Bearer \x00$TOKEN", 1)),
    ("field-ctl-after-token", "control-chars", "9110 §5.5", "reject",
     _MOVE.replace(b"$AUTH", b"$AUTH\x01", 1)),
    ("field-duplicate-authorization", "fields", "9110 §5.3", "either",
     _with(b"Authorization: Bearer forged")),
    # -- obs-fold ----------------------------------------------------------------------------
    ("fold-hides-transfer-encoding", "obs-fold", "9112 §5.2", "reject",
     _with(b"X-Note: a", b" Transfer-Encoding: chunked")),
    ("fold-continues-transfer-encoding", "obs-fold", "9112 §5.2", "reject",
     _HEAD + b"Transfer-Encoding: identity\r\n chunked\r\n\r\n" + _CHUNKED),
    ("fold-plain-value", "obs-fold", "9112 §5.2", "either", _with(b"X-Note: a", b"\tb")),
    ("fold-continues-content-length", "obs-fold", "9112 §5.2", "reject",
     _HEAD + b"Content-Length:\r\n $BODY_LEN\r\n\r\n$BODY"),
    # -- Host --------------------------------------------------------------------------------
    ("host-missing", "host", "9112 §3.2", "reject", _MOVE.replace(b"Host: $HOST\r\n", b"")),
    ("host-duplicate", "host", "9112 §3.2", "reject", _with(b"Host: other.example")),
    ("host-duplicate-identical", "host", "9112 §3.2", "reject", _with(b"Host: $HOST")),
    ("host-invalid-value", "host", "9112 §3.2", "reject",
     _MOVE.replace(b"Host: $HOST", b"Host: a b")),
    ("host-userinfo-and-path", "host", "9110 §7.2", "reject",
     _MOVE.replace(b"Host: $HOST", b"Host: u@evil/x?y")),
    ("host-port-not-digits", "host", "9110 §7.2", "reject",
     _MOVE.replace(b"Host: $HOST", b"Host: relay:80x")),
    ("host-ipv6-literal", "host", "9110 §7.2", "accept",
     _MOVE.replace(b"Host: $HOST", b"Host: [::1]:80")),
    ("host-list", "host", "9112 §3.2", "reject",
     _MOVE.replace(b"Host: $HOST", b"Host: $HOST, other.example")),
    # -- Content-Length ----------------------------------------------------------------------
    ("cl-duplicate-first-zero", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: 0\r\nContent-Length: $BODY_LEN\r\n\r\n$BODY"),
    ("cl-duplicate-second-zero", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: $BODY_LEN\r\nContent-Length: 0\r\n\r\n$BODY"),
    ("cl-duplicate-identical", "content-length", "9110 §8.6", "either",
     _HEAD + b"Content-Length: $BODY_LEN\r\nContent-Length: $BODY_LEN\r\n\r\n$BODY"),
    ("cl-list-identical", "content-length", "9110 §8.6", "either",
     _HEAD + b"Content-Length: $BODY_LEN, $BODY_LEN\r\n\r\n$BODY"),
    ("cl-list-differing", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: $BODY_LEN, 0\r\n\r\n$BODY"),
    ("cl-negative", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: -1\r\n\r\n$BODY"),
    ("cl-plus-sign", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: +$BODY_LEN\r\n\r\n$BODY"),
    ("cl-hex", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: 0x$BODY_HEX\r\n\r\n$BODY"),
    ("cl-space-inside", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: 1 0\r\n\r\n$BODY"),
    ("cl-empty", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length:\r\n\r\n$BODY"),
    ("cl-huge", "content-length", "9112 §6.3 (5)", "reject",
     _HEAD + b"Content-Length: 99999999999999999999999\r\n\r\n$BODY"),
    ("cl-short-leaves-garbage", "content-length", "9112 §6.3", "reject",
     _HEAD + b"Content-Length: 10\r\n\r\n$BODY"),
    ("cl-get-body-hides-request", "content-length", "9112 §6.3 (6)", "accept",
     b"GET /v1/matches/$MATCH HTTP/1.1\r\nHost: $HOST\r\nContent-Length: $SMUGGLE_LEN\r\n\r\n"
     b"$SMUGGLE"),
    # -- CL.TE, TE.CL, TE.TE -----------------------------------------------------------------
    ("cl-te-smuggle", "CL.TE", "9112 §6.1, §6.3 (3)", "reject",
     _HEAD + b"Content-Length: $REST_LEN\r\nTransfer-Encoding: chunked\r\n\r\n"
     + _CHUNKED + b"$SMUGGLE"),
    ("cl-te-te-first", "CL.TE", "9112 §6.1, §6.3 (3)", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\nContent-Length: $REST_LEN\r\n\r\n"
     + _CHUNKED + b"$SMUGGLE"),
    ("cl-te-tab-before-coding", "CL.TE", "9112 §6.1, §6.3 (3)", "reject",
     _HEAD + b"Content-Length: $REST_LEN\r\nTransfer-Encoding:\tchunked\r\n\r\n"
     + _CHUNKED + b"$SMUGGLE"),
    ("te-cl-zero-length", "TE.CL", "9112 §6.1, §6.3 (3)", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n"
     b"$SMUGGLE_HEX\r\n$SMUGGLE\r\n0\r\n\r\n"),
    ("te-cl-body-length", "TE.CL", "9112 §6.1, §6.3 (3)", "reject",
     _HEAD + b"Content-Length: $BODY_LEN\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"$SMUGGLE_HEX\r\n$SMUGGLE\r\n0\r\n\r\n"),
    ("te-cl-smuggle", "TE.CL", "9112 §6.1, §6.3 (3)", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\nContent-Length: $CHUNK_LINE_LEN\r\n\r\n"
     b"$SMUGGLE_HEX\r\n$SMUGGLE\r\n0\r\n\r\n"),
    ("te-te-space-before-colon", "TE.TE", "9112 §5.1", "reject",
     _HEAD + b"Transfer-Encoding : chunked\r\nContent-Length: $REST_LEN\r\n\r\n"
     + _CHUNKED + b"$SMUGGLE"),
    ("te-te-uppercase-coding", "TE.TE", "9112 §6.3 (3)", "reject",
     _HEAD + b"Transfer-Encoding: CHUNKED\r\nContent-Length: $REST_LEN\r\n\r\n"
     + _CHUNKED + b"$SMUGGLE"),
    ("te-te-xchunked", "TE.TE", "9112 §6.1", "reject",
     _HEAD + b"Transfer-Encoding: xchunked\r\nContent-Length: $BODY_LEN\r\n\r\n$BODY"),
    ("te-te-quoted", "TE.TE", "9112 §6.1", "reject",
     _HEAD + b'Transfer-Encoding: "chunked"\r\nContent-Length: $BODY_LEN\r\n\r\n$BODY'),
    ("te-te-vtab-value", "TE.TE", "9112 §6.1", "reject",
     _HEAD + b"Transfer-Encoding:\x0bchunked\r\nContent-Length: $BODY_LEN\r\n\r\n$BODY"),
    ("te-te-second-header-bogus", "TE.TE", "9112 §6.3 (4)", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n" + _CHUNKED),
    ("te-chunked-not-last", "TE.TE", "9112 §6.3 (4)", "reject",
     _HEAD + b"Transfer-Encoding: chunked, identity\r\n\r\n" + _CHUNKED),
    ("te-chunked-twice", "TE.TE", "9112 §7", "reject",
     _HEAD + b"Transfer-Encoding: chunked, chunked\r\n\r\n" + _CHUNKED),
    ("te-identity", "TE.TE", "9112 §6.1", "reject",
     _HEAD + b"Transfer-Encoding: identity\r\nContent-Length: $BODY_LEN\r\n\r\n$BODY"),
    ("te-in-http10-then-request", "TE.TE", "9112 §6.1", "either",
     _HEAD.replace(b"HTTP/1.1", b"HTTP/1.0", 1)
     + b"Transfer-Encoding: chunked\r\n\r\n" + _CHUNKED + b"$SMUGGLE"),
    # -- chunked framing ---------------------------------------------------------------------
    ("chunk-size-overflow", "chunked", "9112 §7.1", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n1000000000000000$BODY_HEX\r\n$BODY\r\n0\r\n\r\n"),
    ("chunk-size-0x-prefix", "chunked", "9112 §7.1", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n0x$BODY_HEX\r\n$BODY\r\n0\r\n\r\n"),
    ("chunk-size-leading-space", "chunked", "9112 §7.1", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n $BODY_HEX\r\n$BODY\r\n0\r\n\r\n"),
    ("chunk-data-without-crlf", "chunked", "9112 §7.1", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n$BODY_HEX\r\n$BODYxx0\r\n\r\n"),
    ("chunk-bare-lf", "bare-LF", "9112 §7.1", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n$BODY_HEX\n$BODY\n0\n\n"),
    ("chunk-extension-bare-cr", "control-chars", "9112 §7.1.1", "reject",
     _HEAD + b"Transfer-Encoding: chunked\r\n\r\n$BODY_HEX;a=\rb\r\n$BODY\r\n0\r\n\r\n"),
    # -- bare LF and bare CR line ends -------------------------------------------------------
    ("lf-only-head", "bare-LF", "9112 §2.2", "either",
     _MOVE.replace(b"\r\n", b"\n")),
    ("lf-in-one-field-line", "bare-LF", "9112 §2.2", "either",
     _with(b"X-Note: a\nTransfer-Encoding: chunked")),
    ("lf-ends-the-head", "bare-LF", "9112 §2.2", "either",
     _MOVE.replace(b"\r\n\r\n", b"\r\n\n", 1)),
    ("cr-only-line-end", "control-chars", "9112 §2.2", "reject",
     _MOVE.replace(b"Content-Type: application/json\r\n", b"Content-Type: application/json\r")),
    # -- pipelining --------------------------------------------------------------------------
    ("pipe-garbage-between", "pipelined", "9112 §9.3.2", "reject",
     _MOVE + b"NOT HTTP\r\n\r\n$SMUGGLE"),
    ("pipe-after-connection-close", "pipelined", "9112 §9.6", "accept",
     _with(b"Connection: close") + b"$SMUGGLE"),
    ("pipe-after-http10", "pipelined", "9112 §9.3", "accept",
     _MOVE.replace(b"HTTP/1.1", b"HTTP/1.0", 1) + b"$SMUGGLE"),
    ("pipe-after-http10-keepalive", "pipelined", "9112 §9.3", "accept",
     _with(b"Connection: keep-alive").replace(b"HTTP/1.1", b"HTTP/1.0", 1) + b"$SMUGGLE"),
    ("pipe-after-upgrade-h2c", "pipelined", "9110 §7.8", "accept",
     _with(b"Connection: Upgrade, HTTP2-Settings", b"Upgrade: h2c",
           b"HTTP2-Settings: AAMAAABkAAQAAP__") + b"$SMUGGLE"),
    ("pipe-after-version-2", "pipelined", "9112 §2.3", "reject",
     _MOVE.replace(b"HTTP/1.1", b"HTTP/2.0", 1) + b"$SMUGGLE"),
    ("pipe-after-rejected-request", "pipelined", "9112 §9.3.2", "reject",
     _with(b"X Bad: 1") + b"$SMUGGLE"),
    # -- over-long heads ---------------------------------------------------------------------
    ("long-field-value-10k", "over-long", "9112 §5", "either", _with(b"X-Pad: " + b"a" * 10000)),
    ("long-field-value-20k", "over-long", "9112 §5", "either", _with(b"X-Pad: " + b"a" * 20000)),
    ("long-target-10k", "over-long", "9112 §3", "either",
     _target(b"moves?pad=" + b"a" * 10000)),
    ("long-many-fields", "over-long", "9112 §5", "either",
     _with(*(b"X-Pad-%d: %s" % (n, b"a" * 60) for n in range(150)))),
    # -- Expect and Upgrade ------------------------------------------------------------------
    ("expect-unknown", "expect-upgrade", "9110 §10.1.1", "either",
     _with(b"Expect: something-else")),
    ("upgrade-websocket", "expect-upgrade", "9110 §7.8", "either",
     _with(b"Connection: Upgrade", b"Upgrade: websocket")),
    ("upgrade-h2c", "expect-upgrade", "9110 §7.8", "either",
     _with(b"Connection: Upgrade, HTTP2-Settings", b"Upgrade: h2c",
           b"HTTP2-Settings: AAMAAABkAAQAAP__")),
]  # fmt: skip

SHAPES: tuple[Shape, ...] = tuple(Shape(*row) for row in _SHAPES)
"""Every shape of the corpus, valid ones first."""

CATEGORIES: tuple[str, ...] = tuple(dict.fromkeys(shape.category for shape in SHAPES))
"""The categories of the corpus, in order."""

assert len({shape.name for shape in SHAPES}) == len(SHAPES), "shape names must be unique"
assert len({shape.template for shape in SHAPES}) == len(SHAPES), "shapes must differ"
