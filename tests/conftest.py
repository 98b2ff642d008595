"""Fixtures shared by the whole suite, and the order its files run in.

The relay's compiled wheel takes a minute or two to build. In a parallel run the
coordinating process starts building it as the run begins (a run of the whole suite) or
once the workers have collected tests that need it, while the workers run other files; the
files that need it start a while later, and run the tests that need it last."""

from __future__ import annotations

import compileall
import contextlib
import json
import os
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from bench.installed import BuildError, installed_tree
from tests.support.components import in_ci, install_missing, require_binary
from tests.support.relay_process import RelayProcess, quick_flags

# The clients the tests run keep their player keys and names in a folder of this test run's
# own (each worker's), never in the user's ~/.config/movewire.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="movewire-tests-config-")

# The suite builds the compiled wheel at mypyc's optimisation level 0 (hatch_build.OPT_LEVEL):
# the same compiled code, half a minute less of a 2-core machine's build; set it to 3 to test
# the wheel exactly as it ships. The bench processes the tests start inherit it, and so use
# the same build.
os.environ.setdefault("MOVEWIRE_OPT_LEVEL", "0")


@pytest.fixture(scope="session")
def relay_url() -> Iterator[str]:
    """Returns the URL of a real relay subprocess shared by the session (short hold and grace),
    rating every game's trusted results (--rate-unrefereed: it runs no referee)."""
    with RelayProcess(*quick_flags(), "--rate-unrefereed") as relay:
        yield relay.url


@pytest.fixture(scope="session")
def installed() -> Path:
    """Returns the packages as `pip install .` installs them, the relay's hot path compiled:
    the wheel is built once per state of the sources (about a minute), with gcc installed
    by apt-get if need be. Fails in CI, and skips elsewhere, when it cannot be built."""
    require_binary("gcc", "gcc")
    try:
        return installed_tree()
    except BuildError as exc:
        if in_ci():
            pytest.fail(str(exc))
        pytest.skip(str(exc))


WORKER_NICE = 5
"""How much less CPU priority a test worker (and all it starts) has than the coordinating
process, whose build of the compiled wheel then takes a core while four workers share the
other: built sooner, the files that need it wait less for it (docs/performance.md)."""

COMPILED_AHEAD = ("relay", "sdk", "examples", "bench")
"""The packages whose bytecode is written before the run (compile_ahead)."""


def pytest_configure(config: pytest.Config) -> None:
    """In a worker: lowers its CPU priority (WORKER_NICE). In the coordinating process,
    before any worker starts: for a run of the whole suite,
    starts building the compiled wheel, and installing the components the machine lacks in
    one apt-get transaction beside the first tests (tests/support/components.py); then
    writes the bytecode of the project's packages once. With PYTHONDONTWRITEBYTECODE set (as
    on this project's machines) every relay, client and bench process the tests start would
    otherwise compile the sources again, about a fifth of a relay's start
    (docs/performance.md)."""
    if hasattr(config, "workerinput"):
        os.nice(WORKER_NICE)
        return
    whole = config.args_source is not pytest.Config.ArgsSource.ARGS
    if whole:
        threading.Thread(target=install_missing, name="components", daemon=True).start()
    root = Path(__file__).resolve().parents[1]
    for package in COMPILED_AHEAD:
        compileall.compile_dir(root / package, quiet=1, workers=1)
    if whole:  # after the bytecode: the build copies the sources
        _start_building()


def _needs_installed(item: pytest.Item) -> bool:
    """Returns whether a test runs the relay as the wheel installs it (compiled)."""
    return "installed" in getattr(item, "fixturenames", ()) or "compiled" in item.name


DURATIONS = Path(__file__).with_name("support") / "durations.json"
"""Seconds each file of the suite took in one whole run (files under 3 s left out), to start
the longest first: with --dist loadfile a long file begun last keeps the run waiting for it
alone. Refresh it from `pytest --durations=0` now and then; an unlisted file counts 1 s."""


HEAD_START = 600
"""Seconds of files (by DURATIONS) that run before the first file needing the compiled wheel:
about two and a half minutes of four workers, the time the wheel takes to build beside them
on a new machine, where the components are installed meanwhile (at 450 s, the first such
file still waited 36 s for it)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Runs the longest files first, but the files that need the compiled wheel only after
    HEAD_START seconds of others, so that it is built meanwhile; within a file, the tests that
    need the wheel last. The order is the same in every worker, as pytest-xdist requires."""
    late = {item.path for item in items if _needs_installed(item)}
    root = Path(__file__).resolve().parents[1]
    took = json.loads(DURATIONS.read_text())
    paths = {item.path for item in items}
    weight = {path: took.get(path.relative_to(root).as_posix(), 1) for path in paths}
    longest = sorted(paths, key=lambda path: (-weight[path], str(path)))
    ahead: list[Path] = []
    begun = 0
    for path in longest:
        if begun >= HEAD_START:
            break
        if path not in late:
            ahead.append(path)
            begun += weight[path]
    order = ahead + [path for path in longest if path not in ahead]
    rank = {path: n for n, path in enumerate(order)}
    index = {id(item): n for n, item in enumerate(items)}
    items.sort(key=lambda item: (rank[item.path], _needs_installed(item), index[id(item)]))


def pytest_xdist_node_collection_finished(node: object, ids: Sequence[str]) -> None:
    """Starts building the compiled wheel, in the coordinating process, once a worker has
    collected a test that needs it (workers that need it wait for this build); a run of the
    whole suite started it already, as it began."""
    if any("compiled" in test or "installed" in test for test in ids):
        _start_building()


def _start_building() -> None:
    global _building
    if _building is None:
        _building = threading.Thread(target=_build_quietly, name="wheel", daemon=True)
        _building.start()


_building: threading.Thread | None = None


def _build_quietly() -> None:
    # On failure, the test that needs the wheel builds it again, and fails or skips by name.
    with contextlib.suppress(BuildError):
        installed_tree()
