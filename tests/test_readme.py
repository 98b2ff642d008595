"""The README's two commands are the ones CI and a new user run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """Returns the sh code blocks of the README's first screen, in order."""
    text = (ROOT / "README.md").read_text()
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)[:2]]


def test_ci_runs_the_readme_test_command() -> None:
    _, test_command = readme_commands()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci


def test_readme_starts_the_relay_on_the_memory_store() -> None:
    run_command, _ = readme_commands()
    # -P: the installed relay runs (hot path compiled), not the checkout's sources.
    assert run_command.startswith("python3 -m pip install '.[relay]' && python3 -P -m relay")
    assert "--store" not in run_command
