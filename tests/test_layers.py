"""The relay's packages are layers, imported one way only, with no import circle anywhere.

Every import counts: at the top of a module, inside a function, or under `TYPE_CHECKING`.
A new circle, or an import from a lower layer up, fails here by name.

The tests mirror the code (issue #31): tests/relay/core holds a test_<name>.py for each
relay/core/<name>.py and nothing else, and no module of the tests imports a test module
(`test_*.py`): what several test modules share lives in a helper module (tests/support/, or one
beside the tests that use it)."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

LAYERS: dict[str, set[str]] = {
    "relay.core": set(),
    "relay.extra": set(),
    "relay.store": {"relay.core"},
    "relay.config": {"relay.core"},
    "relay.games": {"relay.core"},
    "relay.api": {"relay.core", "relay.store", "relay.config", "relay.push"},
    "relay.webhook": {"relay.core", "relay.store", "relay.config"},
    "relay.push": {"relay.core", "relay.store"},
    "relay.http": {
        "relay.core", "relay.store", "relay.config", "relay.api", "relay.webhook", "relay.push",
    },
    "relay.box": {"relay.api"},
    "relay.workers": {"relay.config", "relay.box"},
    "relay.admin": {"relay.config"},
    "relay.options": {"relay.core", "relay.config"},
    "relay.cli": {
        "relay.core", "relay.store", "relay.config", "relay.games", "relay.http", "relay.options",
        "relay.push",
    },
    "relay.__main__": {
        "relay.core", "relay.store", "relay.config", "relay.api", "relay.webhook",
        "relay.http", "relay.workers", "relay.games", "relay.admin", "relay.cli", "relay.options",
        "relay.push",
    },
    "relay": {"relay.extra", "relay.core", "relay.store", "relay.config", "relay.http"},
}  # fmt: skip
"""Each layer of the relay, and the layers it may import (besides itself). `relay` is the
package's own __init__, its public face, which nothing inside the relay imports."""


def module_of(path: Path) -> str:
    """Returns the dotted name of the module at path (relative to the project root)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, top: str, known: set[str]) -> set[str]:
    """Returns the modules of package `top` that the module at path imports, wherever in it:
    `from a.b import c` counts as a.b.c when that is a module, else as a.b."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != top:
                continue
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.add(name if name in known else node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == top}
    return found


def graph_of(top: str) -> dict[str, set[str]]:
    """Returns each module of package `top` and the modules of `top` it imports."""
    paths = {module_of(path): path for path in (ROOT / top).rglob("*.py")}
    known = set(paths)
    return {name: imports_of(path, top, known) & known - {name} for name, path in paths.items()}


def layer_of(module: str) -> str:
    """Returns the layer a relay module belongs to: its package under relay, or itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def circle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """Returns one import circle of graph, or None."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        circle: list[str] = error.args[1]
        return circle
    return None


@pytest.mark.parametrize("top", ["relay", "sdk"])
def test_no_module_imports_itself_back_through_others(top: str) -> None:
    circle = circle_in(graph_of(top))
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_relay_imports_run_down_its_layers_only() -> None:
    graph = graph_of("relay")
    assert "relay.http.front" in graph and "relay.core.model" in graph  # the walk sees them
    assert "relay.api.endpoints" in graph["relay.http.front"]  # and their imports
    upward = sorted(
        f"{module} imports {imported}"
        for module, imported_set in graph.items()
        for imported in imported_set
        if layer_of(imported) != layer_of(module)
        and layer_of(imported) not in LAYERS[layer_of(module)]
    )
    assert not upward, "imports against the layers:\n" + "\n".join(upward)
    assert {layer_of(module) for module in graph} == set(LAYERS)


def test_the_core_needs_neither_aiohttp_nor_redis() -> None:
    for path in (ROOT / "relay" / "core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for name in names:
                assert name.split(".")[0] not in {"aiohttp", "redis", "httptools"}, (path, name)


def test_a_circle_and_an_upward_import_are_seen() -> None:
    # The checks themselves: they find what they are for.
    assert circle_in({"a": {"b"}, "b": {"a"}}) is not None
    assert circle_in({"a": {"b"}, "b": set()}) is None
    assert "relay.api" not in LAYERS["relay.core"]
    assert layer_of("relay.store.redis.store") == "relay.store"
    assert layer_of("relay.config") == "relay.config"


def imported_test_modules(source: str, package: str) -> set[str]:
    """Returns the test modules (`test_*`) of package `tests` that a module's source imports,
    wherever in it; `package` is the module's own package, for relative imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            if base.split(".")[0] != "tests":
                continue
            if base.split(".")[-1].startswith("test_"):
                found.add(base)
            found |= {
                f"{base}.{alias.name}" for alias in node.names if alias.name.startswith("test_")
            }
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "tests" and any(part.startswith("test_") for part in parts):
                    found.add(alias.name)
    return found


def test_no_module_of_the_tests_imports_a_test_module() -> None:
    paths = [path for path in (ROOT / "tests").rglob("*.py") if "node_modules" not in path.parts]
    assert ROOT / "tests" / "relay" / "store" / "test_store_table.py" in paths  # the walk sees them
    found = sorted(
        f"{module_of(path)} imports {imported}"
        for path in paths
        for imported in imported_test_modules(
            path.read_text(),
            module_of(path) if path.name == "__init__.py" else module_of(path.parent),
        )
    )
    assert not found, "move what is shared into a helper module:\n" + "\n".join(found)


def test_an_import_of_a_test_module_is_seen_in_each_form() -> None:
    seen = {
        "from tests.relay.store.test_store_conformance import move": {
            "tests.relay.store.test_store_conformance"
        },
        "import tests.sdk.test_faults": {"tests.sdk.test_faults"},
        "import tests.sdk.test_faults as faults": {"tests.sdk.test_faults"},
        "from tests.browser import test_xand0, players": {"tests.browser.test_xand0"},
        "from .test_faults import Idle": {"tests.sdk.test_faults"},
        "from . import test_faults": {"tests.sdk.test_faults"},
        "from ..relay.test_ratings import glicko": {"tests.relay.test_ratings"},
        "def f():\n    from tests.hosting.test_box_metrics import get": {
            "tests.hosting.test_box_metrics"
        },
        "from tests.relay.store.calls import move": set(),
        "from tests.browser.conftest import MakePlayer": set(),
        "from relay.core import test_nothing": set(),
        "import pytest": set(),
    }
    for source, imported in seen.items():
        assert imported_test_modules(source, "tests.sdk") == imported, source


def core_mirror() -> tuple[list[str], list[str]]:
    """Returns the relay/core modules without a tests/relay/core/test_<name>.py, and the test
    modules of tests/relay/core that name no relay/core module."""
    code = {path.stem for path in (ROOT / "relay" / "core").glob("*.py")} - {"__init__"}
    tests = {
        path.stem[len("test_") :] for path in (ROOT / "tests" / "relay" / "core").glob("test_*.py")
    }
    return sorted(code - tests), sorted(tests - code)


def test_each_core_module_has_its_test_module_in_tests_relay_core() -> None:
    untested, unknown = core_mirror()
    assert "model" in {path.stem for path in (ROOT / "relay" / "core").glob("*.py")}
    assert not untested, f"relay/core modules without tests/relay/core/test_<name>.py: {untested}"
    assert not unknown, f"tests/relay/core/test_<name>.py without relay/core/<name>.py: {unknown}"
