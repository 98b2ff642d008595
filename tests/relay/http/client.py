"""A test client of the relay over HTTP, and the checks of its error answers."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient

from relay import CODES

__all__ = ["JSON", "Client", "auth", "expect"]

Client = TestClient[Any, Any]
"""A client of a relay, in process or of a relay process (tests.relay.conftest.make)."""

JSON = {"Content-Type": "application/json"}
"""The headers of a JSON body."""


async def expect(answer: Any, status: int, code: str) -> dict[str, Any]:
    """Checks an error answer's status, code and shape, and returns its body."""
    assert answer.status == status, await answer.text()
    assert answer.headers["Content-Type"] == "application/json"
    body: dict[str, Any] = await answer.json()
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert CODES[code][0] == status
    return body


def auth(token: str) -> dict[str, str]:
    """Returns the headers of a seat's write."""
    return {"Authorization": f"Bearer {token}", **JSON}
