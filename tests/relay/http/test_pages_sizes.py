"""docs/pages-hosting.md says how much text the relay's own pages are, and how much of it goes
out gzipped: the figures hold for the files as they are, within a tenth."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from relay.http.pages import PACKED, _files

ROOT = Path(__file__).resolve().parents[3]


def test_the_docs_sizes_of_the_pages_are_the_files() -> None:
    doc = (ROOT / "docs" / "pages-hosting.md").read_text()
    found = re.search(
        r"own pages' (\d+) KiB of\s+text \((\d+) files.*?about\s+(\d+) KiB", doc, re.S
    )
    assert found is not None, "the sizes sentence is gone from docs/pages-hosting.md"
    raw_said, files_said, packed_said = (int(group) for group in found.groups())
    texts = [path for path in _files(ROOT / "relay" / "pages", False) if path.suffix not in PACKED]
    raw = sum(len(path.read_bytes()) for path in texts) / 1024
    packed = sum(len(gzip.compress(path.read_bytes(), 9)) for path in texts) / 1024
    assert abs(raw - raw_said) <= raw / 10, (round(raw), raw_said)
    assert abs(packed - packed_said) <= packed / 10, (round(packed), packed_said)
    assert abs(len(texts) - files_said) <= len(texts) / 10, (len(texts), files_said)
