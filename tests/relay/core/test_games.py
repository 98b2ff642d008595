"""A game package as the relay reads it, by its fields (relay/core/games.py): read from any
object that has them, refused by name when one is wrong, and listed for GET /v1/games. (The
packages installed beside a relay process: tests/relay/test_games.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from relay.core.games import GamePackageError, check_names, games_json, read_game
from sdk.package import GamePackage
from tests.support.game_packages import PAGE


def stones(pages: Path, **changed: object) -> SimpleNamespace:
    """Returns the fields of a game package 'stones' whose page folder is pages (its page and
    view written there), with some fields changed."""
    (pages / "stones.html").write_text(PAGE)
    (pages / "stones-game.mjs").write_text("export const GAME = {};")
    fields: dict[str, object] = {
        "name": "stones", "title": " Stones ", "summary": "Take the last.", "pages": pages,
        "page": "", "computer": False, "referee": None, "view": "stones-game.mjs",
    }  # fmt: skip
    return SimpleNamespace(**{**fields, **changed})


def refusal(entry: str, value: object) -> str:
    """Returns the message of the GamePackageError reading value raises."""
    with pytest.raises(GamePackageError) as refused:
        read_game(entry, value, "stones 1.0")
    message = str(refused.value)
    assert message.startswith(f"game package {entry!r} (stones 1.0) "), message
    return message


def test_read_game_reads_any_object_with_the_fields(tmp_path: Path) -> None:
    shaped = stones(tmp_path)
    game = read_game("stones", shaped, "stones 1.0")
    assert (game.title, game.page, game.view, game.source) == (
        "Stones", "stones.html", "stones-game.mjs", "game package 'stones' (stones 1.0)",
    )  # fmt: skip
    made = GamePackage("stones", "Stones", "Take the last.", tmp_path)
    assert read_game("stones", made).json()["referee"] is False
    refereed = SimpleNamespace(**{**vars(shaped), "referee": object})
    assert read_game("stones", refereed).json()["referee"] is True
    assert json.loads(games_json([game]))["games"][0]["view"] == "stones-game.mjs"
    for field, value, said in (
        ("title", "", "its 'title' must be text of 1 to 64 characters"),
        ("computer", "yes", "its 'computer' must be True or False"),
        ("pages", str(tmp_path), "its 'pages' must be a folder (a pathlib.Path)"),
        ("page", "../stones.html", "names its page '../stones.html': it must be a file name"),
        ("referee", "ref", "its 'referee' must be None or a callable"),
    ):
        broken = SimpleNamespace(**{**vars(shaped), field: value})
        with pytest.raises(GamePackageError, match=r"^game package 'stones' ") as refused:
            read_game("stones", broken)
        assert said in str(refused.value)
    with pytest.raises(GamePackageError, match="installed twice"):
        check_names([game, game])


def test_a_game_is_listed_with_the_fields_a_page_needs(tmp_path: Path) -> None:
    game = read_game("stones", stones(tmp_path, view="", computer=True))
    assert game.json() == {
        "name": "stones",
        "title": "Stones",
        "summary": "Take the last.",
        "page": "stones.html",
        "view": None,
        "computer": True,
        "referee": False,
    }
    assert game.source == "game package 'stones'"


@pytest.mark.parametrize("name", ["Stones", "1stones", "stones-2", "s" * 33, "stones\n", ""])
def test_a_name_that_is_not_a_game_key_is_refused(tmp_path: Path, name: str) -> None:
    message = refusal(name, stones(tmp_path, name=name))
    assert f"its name {name!r} must be 1 to 32 lowercase letters" in message


def test_a_name_of_32_characters_with_digits_and_underscores_is_one(tmp_path: Path) -> None:
    name = "s_2" + "x" * 29
    (tmp_path / f"{name}.html").write_text(PAGE)
    assert read_game(name, stones(tmp_path, name=name)).page == f"{name}.html"


def test_a_package_must_name_itself_as_its_entry_point_does(tmp_path: Path) -> None:
    message = refusal("pebbles", stones(tmp_path))
    assert "names itself 'stones': a game package's name must be its entry point's" in message


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", None), ("name", 5), ("title", 5), ("summary", None), ("page", None), ("view", 0)],
)
def test_a_field_of_the_wrong_kind_is_refused_naming_it(
    tmp_path: Path, field: str, value: object
) -> None:
    message = refusal("stones", stones(tmp_path, **{field: value}))
    assert f"is not a game package: its {field!r} must be" in message
    assert repr(value) in message


def test_a_missing_field_is_refused_naming_it(tmp_path: Path) -> None:
    shaped = stones(tmp_path)
    del shaped.computer
    assert "its 'computer' must be True or False, not None" in refusal("stones", shaped)


def test_computer_must_be_a_bool_not_a_number(tmp_path: Path) -> None:
    assert "its 'computer' must be True or False" in refusal("stones", stones(tmp_path, computer=1))


@pytest.mark.parametrize(("field", "most"), [("title", 64), ("summary", 300)])
def test_a_title_and_a_summary_have_bounds_once_trimmed(
    tmp_path: Path, field: str, most: int
) -> None:
    kept = read_game("stones", stones(tmp_path, **{field: "  " + "t" * most + "\n"}))
    assert getattr(kept, field) == "t" * most
    for value in ("t" * (most + 1), "   "):
        message = refusal("stones", stones(tmp_path, **{field: value}))
        assert f"its {field!r} must be text of 1 to {most} characters" in message


def test_a_page_folder_must_be_a_folder(tmp_path: Path) -> None:
    shaped = stones(tmp_path)
    missing = tmp_path / "gone"
    assert f"has no page folder: {missing} is not a folder" in refusal(
        "stones", SimpleNamespace(**{**vars(shaped), "pages": missing})
    )
    a_file = tmp_path / "stones.html"
    assert "is not a folder" in refusal(
        "stones", SimpleNamespace(**{**vars(shaped), "pages": a_file})
    )


@pytest.mark.parametrize(
    "page", ["/etc/passwd", "../stones.html", "sub/../stones.html", "sub\\stones.html"]
)
def test_a_page_outside_its_folder_is_refused(tmp_path: Path, page: str) -> None:
    message = refusal("stones", stones(tmp_path, page=page))
    assert f"names its page {page!r}: it must be a file name inside its page folder" in message


def test_a_page_or_a_view_not_in_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "folder.html").mkdir()
    for field, value in (("page", "other.html"), ("page", "folder.html"), ("view", "v.mjs")):
        message = refusal("stones", stones(tmp_path, **{field: value}))
        assert f"has no {field} {value!r} in its page folder {tmp_path}" in message


def test_a_page_in_a_subfolder_is_served_from_there(tmp_path: Path) -> None:
    (tmp_path / "play").mkdir()
    (tmp_path / "play" / "board.html").write_text(PAGE)
    assert read_game("stones", stones(tmp_path, page="./play/board.html")).page == "play/board.html"


def test_games_of_distinct_names_pass_and_a_name_twice_names_both_packages(
    tmp_path: Path,
) -> None:
    one = read_game("stones", stones(tmp_path), "stones 1.0")
    other = read_game("stones", stones(tmp_path), "pebbles 2.0")
    (tmp_path / "go.html").write_text(PAGE)
    go = read_game("go", stones(tmp_path, name="go"))
    check_names([one, go])
    check_names([])
    with pytest.raises(GamePackageError) as refused:
        check_names([one, go, other])
    assert str(refused.value) == (
        "game 'stones' is installed twice: by game package 'stones' (stones 1.0) and by "
        "game package 'stones' (pebbles 2.0)"
    )


def test_the_list_of_games_is_sorted_by_name(tmp_path: Path) -> None:
    for name in ("go", "abalone"):
        (tmp_path / f"{name}.html").write_text(PAGE)
    games = [read_game(name, stones(tmp_path, name=name)) for name in ("stones", "go", "abalone")]
    listed = json.loads(games_json(games))["games"]
    assert [game["name"] for game in listed] == ["abalone", "go", "stones"]
    assert json.loads(games_json([])) == {"games": []}
