"""The relay uses only redis-py's public API: no module of redis-py whose name starts with an
underscore (`redis._parsers`), no underscore name imported from redis-py, and, in the Redis
store, no underscore attribute read off anything but the store's own objects (`self`), nor a
connection's `_writer`, `_reader` or `_parser` under any base."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRIVATE_CONNECTION_PARTS = {"_writer", "_reader", "_parser", "_parsers"}
"""What redis-py's connections keep privately: the pipe once took the transport from them."""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _redis_module(name: str) -> bool:
    return name == "redis" or name.startswith("redis.")


def import_offences(tree: ast.AST) -> list[str]:
    """Returns each import of a private redis-py module or name in a module's tree."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _redis_module(alias.name) and any(map(_private, alias.name.split("."))):
                    found.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and _redis_module(node.module):
            names = [alias.name for alias in node.names]
            if any(map(_private, node.module.split("."))) or any(map(_private, names)):
                found.append(f"{node.lineno}: from {node.module} import {', '.join(names)}")
    return found


def attribute_offences(tree: ast.AST) -> list[str]:
    """Returns each underscore attribute read off something other than self or cls, and each
    read of a redis-py connection's private parts whatever its base."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
        if not own or node.attr in PRIVATE_CONNECTION_PARTS:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in PRIVATE_CONNECTION_PARTS:
            found.append(f"{node.lineno}: {node.value!r} (getattr?)")
    return found


def test_the_relay_imports_nothing_private_of_redis_py() -> None:
    offences = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "relay").rglob("*.py"))
        if (found := import_offences(ast.parse(path.read_text(), str(path))))
    }
    assert offences == {}


def test_the_redis_store_reads_no_private_attribute() -> None:
    offences = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "relay" / "store" / "redis").rglob("*.py"))
        if (found := attribute_offences(ast.parse(path.read_text(), str(path))))
    }
    assert offences == {}


def test_the_scan_finds_what_the_pipe_once_did() -> None:
    old = (
        "from redis._parsers.base import BaseParser\n"
        "from redis.asyncio.connection import _AsyncHiredisParser\n"
        "import redis._parsers\n"
        "transport = conn._writer.transport\n"
        "conn._writer = conn._reader = None\n"
        "self._parser = None\n"
    )
    tree = ast.parse(old)
    assert len(import_offences(tree)) == 3
    assert len(attribute_offences(tree)) == 4
    assert import_offences(ast.parse("from redis.asyncio.connection import Connection")) == []
    assert attribute_offences(ast.parse("self._pipe = other.pipe")) == []
