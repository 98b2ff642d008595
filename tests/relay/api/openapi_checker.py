"""Checks the relay's answers against its OpenAPI document, and keeps which it saw."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

__all__ = ["Checker"]


class Checker:
    """Checks answers against the OpenAPI document's schemas."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.seen: set[tuple[str, str, str]] = set()

    def check(self, path: str, method: str, status: int, body: Any) -> None:
        """Validates one answer body against the documented schema for its status."""
        operation = self.doc["paths"][path][method.lower()]
        assert str(status) in operation["responses"], (path, method, status, body)
        schema = operation["responses"][str(status)]["content"]["application/json"]["schema"]
        root = {**schema, "components": self.doc["components"]}
        Draft202012Validator(root).validate(body)
        self.seen.add((path, method.lower(), str(status)))
