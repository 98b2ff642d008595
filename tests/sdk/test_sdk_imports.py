"""The SDK's modules import each other without a circle, type-only and in-function imports too."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import sdk

SDK = Path(sdk.__file__).resolve().parent

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    """Returns the dotted name of an SDK source file (a package's __init__ is the package)."""
    parts = ["sdk", *path.relative_to(SDK).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Returns every module of the SDK, by dotted name."""
    return {module_name(path): path for path in sorted(SDK.rglob("*.py"))}


def imported(name: str, source: str, is_package: bool, known: Iterable[str]) -> Iterator[str]:
    """Yields every SDK module a module imports anywhere in its source: at the top, under
    `if TYPE_CHECKING:`, inside functions; `from P import M` counts M when M is a module."""
    known = set(known)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                stem = package[: len(package) - node.level + 1]
                base = ".".join([*stem, base] if base else stem)
            targets = [f"{base}.{alias.name}" for alias in node.names]
            targets = [t if t in known else base for t in targets]
        else:
            continue
        for target in targets:
            yield from _loaded(name, target, known)


def _loaded(importer: str, target: str, known: set[str]) -> Iterator[str]:
    """Yields the SDK modules that importing `target` runs: the target itself (`sdk` too, when
    named), and the packages that enclose it below `sdk` unless they enclose the importer too."""
    if target in known and target != importer:
        yield target
    parts = target.split(".")
    for end in range(2, len(parts)):
        package = ".".join(parts[:end])
        if package in known and not (importer + ".").startswith(package + "."):
            yield package


def graph() -> Graph:
    """Returns the SDK's import graph: each module and the SDK modules it imports."""
    known = modules()
    return {
        name: set(imported(name, path.read_text(), path.name == "__init__.py", known))
        for name, path in known.items()
    }


def circles(edges: Graph) -> list[list[str]]:
    """Returns the circles, each as a path back to its start: one through every module that
    is on a circle and on none found before it."""
    found: list[list[str]] = []
    done: set[str] = set()
    for start in sorted(edges):
        if start in done:
            continue
        circle = _circle_through(start, edges)
        if circle:
            found.append(circle)
            done.update(circle)
    return found


def _circle_through(start: str, edges: Graph) -> list[str] | None:
    """Returns a shortest import path from `start` back to itself, or None (breadth first)."""
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(edges.get(module, ())):
                if target == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [*reversed(path), start]
                if target not in parents:
                    parents[target] = module
                    following.append(target)
        frontier = following
    return None


def test_the_graph_sees_every_kind_of_import() -> None:
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from sdk import b\n"
        "if TYPE_CHECKING:\n"
        "    from sdk.host.c import C\n"
        "def f():\n"
        "    import sdk.a\n"
        "    from .host import d\n"
    )
    known = ["sdk", "sdk.a", "sdk.b", "sdk.host", "sdk.host.c", "sdk.host.d"]
    found = set(imported("sdk.a", source, False, known))
    assert found == {"sdk.b", "sdk.host", "sdk.host.c", "sdk.host.d"}  # not sdk, not itself
    assert set(imported("sdk.host.c", "from . import d", False, known)) == {"sdk.host.d"}
    assert set(imported("sdk.host", "from .c import C", True, known)) == {"sdk.host.c"}
    assert set(imported("sdk.host.c", "from sdk.host import D", False, known)) == {"sdk.host"}
    assert set(imported("sdk.b", "from sdk import Game", False, known)) == {"sdk"}
    assert circles({"sdk.a": {"sdk.b"}, "sdk.b": {"sdk.c"}, "sdk.c": {"sdk.a"}}) == [
        ["sdk.a", "sdk.b", "sdk.c", "sdk.a"]
    ]
    assert circles({"sdk.a": {"sdk.b"}, "sdk.b": set()}) == []


def test_the_sdk_has_no_import_circle() -> None:
    found = circles(graph())
    named = "; ".join(" -> ".join(circle) for circle in found)
    assert not found, f"import circles in sdk/: {named}"
