"""Every component a test asks for is one that a run installs up front (COMPONENTS): a
package asked for under another binary, or missing from the list, would be installed in a
transaction of its own, in the middle of the run. A node too old for the JavaScript host is
named as such."""

from __future__ import annotations

import ast
from pathlib import Path

from bench.targets import NCHAN_MODULE
from tests.support.components import COMPONENTS, NODE_LEAST, _old_node

ROOT = Path(__file__).resolve().parents[1]

KNOWN_NAMES = {"NCHAN_MODULE": NCHAN_MODULE}
"""The constants that some callers name a binary by."""


def _asked() -> set[tuple[str, str]]:
    """Returns each (binary, package) that a call of require_binary in the tests names."""
    found = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or ast.unparse(node.func) != "require_binary":
                continue
            binary, package = node.args
            if isinstance(binary, ast.Name):
                name = KNOWN_NAMES[binary.id]
            else:
                assert isinstance(binary, ast.Constant), ast.unparse(node)
                name = str(binary.value)
            assert isinstance(package, ast.Constant), ast.unparse(node)
            found.add((name, str(package.value)))
    return found


def test_every_component_asked_for_is_installed_up_front() -> None:
    asked = _asked()
    assert ("gcc", "gcc") in asked and ("nginx", "nginx") in asked  # the scan sees the calls
    assert asked <= set(COMPONENTS), asked - set(COMPONENTS)


def test_a_node_too_old_for_the_javascript_host_is_named(tmp_path: Path) -> None:
    for version, told in (("v18.20.4", True), ("v20.20.2", False), ("v22.1.0", False)):
        node = tmp_path / f"node-{version}"
        node.write_text(f"#!/bin/sh\necho {version}\n")
        node.chmod(0o755)
        why = _old_node(str(node))
        assert bool(why) is told, (version, why)
        if told:
            assert f"Node.js {version}" in why and f"needs Node.js {NODE_LEAST} or later" in why
