"""--pages-dir: a game's own pages served beside the relay's, and clashes refused by name."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from relay.http.pages import load_pages
from tests.support.relay_process import ROOT, RelayProcess, quick_flags
from tests.support.relay_zygote import run


def test_a_games_pages_are_served_beside_the_javascript_host(tmp_path: Path) -> None:
    (tmp_path / "mygame.html").write_text("<!doctype html><title>mine</title>")
    (tmp_path / "mygame.mjs").write_text('import { RelayHost } from "./movewire.mjs";\n')
    with RelayProcess(*quick_flags(), "--pages-dir", str(tmp_path)) as relay:
        for name, wanted in (("mygame.html", "<title>mine</title>"), ("mygame.mjs", "RelayHost")):
            with urllib.request.urlopen(f"{relay.url}/{name}", timeout=10) as answer:
                assert wanted in answer.read().decode()
        with urllib.request.urlopen(f"{relay.url}/movewire.mjs", timeout=10) as answer:
            assert answer.headers["Content-Type"].startswith("text/javascript")
        # relay/pages is the npm package `movewire` too: its manifests are not pages.
        for manifest in ("package.json", "package-lock.json", "tsconfig.json"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"{relay.url}/{manifest}", timeout=10)
            refused.value.close()
            assert refused.value.code == 404


def test_a_folders_package_manifests_and_node_modules_are_never_served(tmp_path: Path) -> None:
    assert "/movewire.mjs" in load_pages()
    assert not {"/package.json", "/package-lock.json", "/tsconfig.json"} & load_pages().keys()
    tools = tmp_path / "node_modules" / "vite"
    tools.mkdir(parents=True)
    (tools / "index.js").write_text("// a tool, not a page")
    (tmp_path / "package.json").write_text("{}")
    (tmp_path / "mygame.mjs").write_text("// the page's module")
    assert set(load_pages(tmp_path)) == {"/mygame.mjs"}


def test_a_missing_folder_or_a_clash_with_the_relays_pages_is_a_usage_error(
    tmp_path: Path,
) -> None:
    (tmp_path / "movewire.mjs").write_text("// not the host")
    for folder, said in (
        (tmp_path / "nowhere", "is not a folder"),
        (tmp_path, "/movewire.mjs of pages folder"),
    ):
        done = run(
            [sys.executable, "-m", "relay", "--port", "0", "--pages-dir", str(folder)],
            cwd=ROOT,
            timeout=30,
        )
        assert done.returncode == 2, done
        assert said in done.stderr


def test_a_symlink_that_leads_out_of_the_folder_is_not_served(tmp_path: Path) -> None:
    folder, outside = tmp_path / "pages", tmp_path / "private"
    folder.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("not for the web")
    (folder / "inside.txt").write_text("for the web")
    (folder / "leak.txt").symlink_to(outside / "secret.txt")
    (folder / "alias.txt").symlink_to(folder / "inside.txt")  # inside the folder: served
    with RelayProcess(*quick_flags(), "--pages-dir", str(folder)) as relay:
        with urllib.request.urlopen(f"{relay.url}/alias.txt", timeout=10) as answer:
            assert answer.read() == b"for the web"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{relay.url}/leak.txt", timeout=10)
        assert refused.value.code == 404
        assert b"not for the web" not in refused.value.read()
        assert "leak.txt" in relay.log() and "outside" in relay.log()
