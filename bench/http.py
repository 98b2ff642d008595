"""A minimal keep-alive HTTP/1.1 client for load generation: cheap, so the server is measured."""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["Connection", "HttpError", "start_match"]


class HttpError(Exception):
    """Raised when a response cannot be read (connection closed, unsupported framing)."""


class Connection:
    """One persistent connection; one request at a time."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> Connection:
        """Connects."""
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=2**20)
        return self

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, dict[bytes, bytes], bytes]:
        """Sends one request and returns (status, lower-cased headers, body)."""
        if self.writer is None or self.reader is None:
            await self.open()
        assert self.writer is not None and self.reader is not None
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{headers}"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        line = await self.reader.readline()
        if not line:
            raise HttpError("connection closed")
        status = int(line.split(None, 2)[1])
        found: dict[bytes, bytes] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            key, _, value = line.partition(b":")
            found[key.strip().lower()] = value.strip()
        if b"content-length" in found:
            data = await self.reader.readexactly(int(found[b"content-length"]))
        elif found.get(b"transfer-encoding") == b"chunked":
            data = await self._chunks()
        else:
            raise HttpError("response without a length")
        return status, found, data

    async def _chunks(self) -> bytes:
        assert self.reader is not None
        parts: list[bytes] = []
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readline()

    def close(self) -> None:
        """Closes the connection."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def start_match(conn: Connection, ticket: dict[str, Any]) -> None:
    """Polls seat 0 of a match just paired once, at once, as a live client does: a pairing
    starts only when its waiting seat polls again (docs/protocol.md#seek)."""
    auth = f"Authorization: Bearer {ticket['token']}\r\n"
    path = f"/v1/matches/{ticket['match']}/events?after=0&wait=0"
    status, _, data = await conn.request("GET", path, headers=auth)
    if status != 200:
        raise HttpError(f"seat 0's poll of a paired match: {status} {data!r}")
