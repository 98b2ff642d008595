"""Game packages installed for a test the way pip installs one: a `*.dist-info` folder with its
`entry_points.txt` in the group `movewire.games`, and the package beside it, in a folder put on
the relay's PYTHONPATH."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from sdk.package import ENTRY_POINT_GROUP
from tests.support.relay_process import ROOT

__all__ = ["PAGE", "install", "package_module", "relay_env"]

PAGE = '<!doctype html><title>Fake</title><link rel="icon" href="icon.svg" type="image/svg+xml">'
"""A page's whole text."""


def install(
    site: Path, dist: str, module: str, entries: dict[str, str], files: dict[str, str]
) -> None:
    """Installs, in the folder site, a distribution `dist` 1.0 whose entry points (name: value)
    are in the game group, with a module `module` of the files given (paths inside it)."""
    info = site / f"{dist}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}")
    for path, text in files.items():
        target = site / module / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


def package_module(name: str = "fake", **fields: str) -> str:
    """Returns the __init__.py of a game package `name` whose page folder is page/."""
    extra = "".join(f", {key}={value}" for key, value in fields.items())
    return f"""
        from pathlib import Path
        from sdk.package import GamePackage

        PACKAGE = GamePackage(name={name!r}, title="Fake", summary="A fake game.",
                              pages=Path(__file__).with_name("page"){extra})
    """


def relay_env(site: Path) -> dict[str, str]:
    """Returns the environment of a relay that sees the distributions installed in site."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
