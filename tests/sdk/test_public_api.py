"""The SDK's public surface: names, docstrings, typing, and its independence from the relay."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import sdk
from sdk import Game, GameHost, Outcome, Reason, RelayHost, Result, State  # the import

SDK = Path(sdk.__file__).resolve().parent


def test_state_has_the_six_fmnetgames_values() -> None:
    assert {s.name: int(s) for s in State} == {
        "NOT_CONNECTED": 0,
        "LISTENING": 1,
        "PLAYING_TO_MOVE": 2,
        "PLAYING_WAIT_MOVE": 3,
        "WAITING_SERVER_RESPONSE": 4,
        "GAME_ENDED": 5,
    }


def test_relay_host_is_a_game_host_and_game_is_abstract() -> None:
    assert issubclass(RelayHost, GameHost)
    assert Game.__abstractmethods__ == frozenset({"enable", "disable", "receive_move"})
    assert GameHost.__abstractmethods__ == frozenset({"move", "show_dialog", "state"})


def documented(tree: ast.Module) -> set[str]:
    """Returns the names a module documents: classes and functions with a docstring, and
    assignments followed by a string (an attribute docstring)."""
    names = set()
    for node, after in zip(tree.body, [*tree.body[1:], None], strict=True):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            if ast.get_docstring(node):
                names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            is_doc = isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
            if is_doc and isinstance(after.value.value, str):  # type: ignore[union-attr]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def test_every_public_name_is_documented() -> None:
    for path in sorted(SDK.rglob("[!_]*.py")):
        name = ".".join(["sdk", *path.relative_to(SDK).with_suffix("").parts])
        module = __import__(name, fromlist=["__all__"])
        missing = set(module.__all__) - documented(ast.parse(path.read_text()))
        assert not missing, f"{path.relative_to(SDK.parent)}: {sorted(missing)} have no docstring"
    for name in sdk.__all__:
        assert getattr(sdk, name) is not None


def test_every_module_has_a_docstring_future_annotations_and_all() -> None:
    for path in sorted(SDK.rglob("*.py")):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), path.name
        imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
        assert imports and imports[0].module == "__future__", path.name
        names = [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Name)]  # fmt: skip
        assert "__all__" in names, path.name


def test_the_package_is_typed() -> None:
    assert (SDK / "py.typed").is_file()


def test_the_sdk_never_imports_the_relay_but_in_its_test_helper() -> None:
    for path in sorted(SDK.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            if any(name == "relay" or name.startswith("relay.") for name in names):
                assert path.name == "testing.py", f"{path.name} imports the relay"
                assert node.col_offset > 0, "sdk.testing imports the relay only when it runs"
    code = "import sdk, sdk.testing, sys; print('relay' in sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "False"


def test_reprs_can_be_pasted_back() -> None:
    outcome = Outcome(Result.WON, Reason.RESIGNED, "m1", 0, by=1, message="Bye.")
    namespace = {"Outcome": Outcome, "Result": Result, "Reason": Reason}
    assert eval(repr(outcome), namespace) == outcome
    assert repr(State.LISTENING) == "State.LISTENING"
    assert (outcome.by_me, outcome.is_finished) == (False, True)
