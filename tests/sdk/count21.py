"""The count-to-21 game of the README and docs/sdk.md, read from the docs and imported."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

__all__ = ["DOCS", "ROOT", "example", "load"]

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "README.md", ROOT / "docs" / "sdk.md")
"""The docs that show the example: the README's copy and docs/sdk.md's."""


def example(doc: Path = DOCS[0]) -> str:
    """Returns the source of a doc's count21 example (the README's by default)."""
    found = re.search(r"<!-- example: count21 -->\n```python\n(.*?)```", doc.read_text(), re.S)
    assert found is not None, f"{doc} has no count21 example"
    return found.group(1)


def load(tmp_path: Path) -> ModuleType:
    """Returns the example, written to count21.py and imported."""
    path = tmp_path / "count21.py"
    path.write_text(example())
    spec = importlib.util.spec_from_file_location("count21", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
