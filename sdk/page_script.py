"""A game page's JavaScript run in node, beside the relay's page kit as the relay serves it: for
a game writer's tests that the page's rules say what the Python rules say, move for move and
word for word (docs/ship-your-game.md#the-tests).

A page's modules import the kit's by relative names ("./board-rules.mjs"), because the relay
serves the kit's files beside each game's page folder. `run_page_script` lays both out in one
temporary folder the same way and runs a script there, so node resolves those imports as a
browser does."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["NO_NODE", "NO_RELAY", "page_kit", "run_page_script"]

NO_NODE = "node is not installed: the page's JavaScript cannot be run (install Node.js 18 or later)"
"""Why run_page_script cannot run (FileNotFoundError)."""
NO_RELAY = "the relay is not installed, and with it the page kit: pip install 'movewire[relay]'"
"""Why page_kit cannot find the kit (LookupError)."""


def page_kit() -> Path:
    """Returns the folder of the relay's page kit (the files it serves beside every game's
    page folder); raises LookupError without the relay installed."""
    found = importlib.util.find_spec("relay")
    if found is None or found.origin is None:
        raise LookupError(NO_RELAY)
    return Path(found.origin).parent / "pages"


def run_page_script(page: Path, script: str, data: object = None, *, timeout: float = 60.0) -> Any:
    """Runs `script`, an ES module, in node beside the page folder `page` and the page kit.

    The script imports the page's modules and the kit's by their names ("./mygame.mjs"),
    reads `data` as JSON from its standard input, and writes its answer as JSON to its
    standard output, which is returned. Raises FileNotFoundError without node, LookupError
    without the relay, and RuntimeError, with node's error, when the script fails or runs
    longer than `timeout` seconds.
    """
    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError(NO_NODE)
    with tempfile.TemporaryDirectory(prefix="movewire-page-") as folder:
        for source in (page_kit(), page):  # the page's own files as the relay serves them
            for file in source.iterdir():
                if file.is_file():
                    shutil.copyfile(file, Path(folder) / file.name)
        try:
            ran = subprocess.run(
                [node, "--input-type=module", "-e", script],
                cwd=folder,
                input=json.dumps(data),
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"the page script ran longer than {timeout} s") from None
    if ran.returncode != 0:
        raise RuntimeError(f"the page script failed: {ran.stderr.strip()[-2000:]}")
    return json.loads(ran.stdout)
