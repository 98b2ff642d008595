"""sdk.page_script: a game page's JavaScript run in node beside the page kit, as the relay
serves both, with clear errors when node is missing or the script fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdk.page_script import page_kit, run_page_script
from tests.support.components import require_binary

ECHO = """
import { readFileSync } from "node:fs";
import { MARKS } from "./board-rules.mjs";
import { SIDE } from "./mine.mjs";
const data = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify({ marks: MARKS, side: SIDE, data }));
"""


@pytest.fixture
def page(tmp_path: Path) -> Path:
    """Returns a page folder whose module imports the kit's, as a game's rules do."""
    (tmp_path / "mine.mjs").write_text(
        'import { FIRST } from "./board-rules.mjs";\nexport const SIDE = FIRST;\n'
    )
    return tmp_path


def test_a_page_module_and_the_kits_import_each_other_as_served(page: Path) -> None:
    require_binary("node", "nodejs")
    answer = run_page_script(page, ECHO, {"moves": ["1", "2"]})
    assert answer == {"marks": ["X", "O"], "side": 0, "data": {"moves": ["1", "2"]}}
    assert (page_kit() / "board-rules.mjs").is_file()


def test_a_failing_script_raises_with_nodes_words(page: Path) -> None:
    require_binary("node", "nodejs")
    with pytest.raises(RuntimeError, match=r"(?s)the page script failed: .*Error: no such thing"):
        run_page_script(page, 'throw new Error("no such thing");')


def test_a_script_past_its_time_is_stopped(page: Path) -> None:
    require_binary("node", "nodejs")
    with pytest.raises(RuntimeError, match=r"ran longer than 0\.5 s"):
        run_page_script(page, "setInterval(() => {}, 1000);", timeout=0.5)


def test_without_node_the_error_says_what_to_install(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(FileNotFoundError, match="node is not installed"):
        run_page_script(page, "")
