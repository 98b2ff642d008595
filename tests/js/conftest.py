"""Fixtures of the JavaScript package's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.components import in_ci, require_binary
from tests.support.js_package import ToolError, tools


@pytest.fixture(scope="module")
def js_tools() -> Path:
    """Returns the folder of the package's pinned tools (TypeScript, Vite), installed once."""
    require_binary("node", "nodejs")
    require_binary("npm", "npm")
    try:
        return tools()
    except ToolError as error:
        if in_ci():
            pytest.fail(str(error))
        pytest.skip(f"the package's tools could not be installed: {error}")
