"""The text a player may give the relay to show others (relay.core.text_policy): what names and
chat lines refuse and keep, one script per name, and the skeletons two look-alike names
share."""

from __future__ import annotations

import pytest
import regex

from relay.core.errors import RelayError
from relay.core.table import NAME_MOST
from relay.core.text_policy import SCRIPTS, chat_line, display_name, shown_once, skeletons

INVISIBLE = {
    "zero-width space": "\u200b",
    "zero-width non-joiner": "\u200c",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "left-to-right mark": "\u200e",
    "right-to-left mark": "\u200f",
    "Arabic letter mark": "\u061c",
    "right-to-left override": "\u202e",
    "first strong isolate": "\u2068",
    "tag letter A": "\U000e0041",
    "cancel tag": "\U000e007f",
    "noncharacter U+FFFE": "\ufffe",
    "noncharacter U+FDD0": "\ufdd0",
    "line separator": "\u2028",
    "paragraph separator": "\u2029",
    "Hangul filler": "\u3164",
    "Hangul choseong filler": "\u115f",
    "combining grapheme joiner": "\u034f",
    "soft hyphen": "\u00ad",
    "private use": "\ue000",
    "unassigned": "\U0003fffd",
    "C1 control": "\x85",
}
"""The characters the issue's stranger hid in names and chat lines, and more of each kind."""


@pytest.mark.parametrize("char", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_invisible_and_reordering_characters_are_refused_in_names_and_chat(char: str) -> None:
    for text in (f"Ann{char}a", f"hi{char}there"):
        with pytest.raises(RelayError) as name:
            display_name(text, 32)
        with pytest.raises(RelayError) as chat:
            chat_line(text, 300)
        assert name.value.code == chat.value.code == "request/invalid"


def test_combining_marks_are_bounded() -> None:
    assert display_name("e" + "\u0301\u0302\u0303\u0304", 32)  # four marks on one letter
    for text in ("x" + "\u0301" * 5, "Zalgo" + "\u0336" * 31):
        with pytest.raises(RelayError):
            display_name(text, 64)
        with pytest.raises(RelayError):
            chat_line(text, 300)


LEGIT = [
    "Ann", "José", "Zoë", "O'Brien", "Jean-Luc", "Bob 42", "Ørjan", "Nguyễn Văn An",
    "Владимир", "Αλέξανδρος", "王小明", "山田さくら", "サクラ", "김민준", "محمد", "דוד",
    "अर्जुन", "தமிழ்", "ქეთი", "Player🐉", "ＡＢＣ", "Łukasz", "İlkay", "Ĳsbrand",
]  # fmt: skip
"""Names of many scripts that a player may show."""


@pytest.mark.parametrize("name", LEGIT)
def test_names_in_one_script_are_kept_as_written_in_nfc(name: str) -> None:
    assert display_name(f"  {name} ", 32) == name


@pytest.mark.parametrize(
    "name", ["\u0410dmin", "Adm\u0456n", "p\u0430ypal", "\u0391lpha", "Bob\u03bf", "\u0661\u0662a3"]
)
def test_names_mixing_scripts_or_digit_systems_are_refused(name: str) -> None:
    with pytest.raises(RelayError) as caught:
        display_name(name, 32)
    assert caught.value.code == "request/invalid" and repr(name) in caught.value.message


def test_latin_goes_with_han_and_kana_or_hangul_as_uts39_allows() -> None:
    assert display_name("Yuki雪さくら", 32) and display_name("Kim민준", 32)
    with pytest.raises(RelayError):
        display_name("Kim민준さくら", 32)  # Hangul with kana: two East Asian sets at once


def test_chat_keeps_emoji_sequences_whole() -> None:
    line = "gg \U0001f468\u200d\U0001f469\u200d\U0001f467 \u2764\ufe0f 1\ufe0f\u20e3"
    assert chat_line(line, 300) == line
    with pytest.raises(RelayError):
        chat_line("a\u200db", 300)  # a joiner between letters hides nothing it may keep


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("BOB", "\u0412\u041e\u0412"),  # Cyrillic ВОВ
        ("paypal", "paypa1"),
        ("paypal", "paypaI"),
        ("paypal", "PAYPAL"),
        ("admin", "\u0430dmin"),  # Cyrillic а (a mixed name, refused on its own too)
        ("ABC", "\uff21\uff22\uff23"),  # fullwidth
        ("modern", "rnodern"),
    ],
)
def test_look_alike_names_share_a_skeleton(one: str, other: str) -> None:
    assert set(skeletons(one)) & set(skeletons(other))


@pytest.mark.parametrize(("one", "other"), [("Ann", "Anna"), ("Bob", "Rob"), ("José", "Jose")])
def test_different_names_do_not(one: str, other: str) -> None:
    assert not set(skeletons(one)) & set(skeletons(other))


def test_a_leaderboard_shows_each_look_once_and_no_name_the_rules_refuse() -> None:
    names = ["BOB", "\u0412\u041e\u0412", "\u0410dmin", None, "Ann"]
    rows: list[dict[str, str | None]] = [{"name": name} for name in names]
    shown_once(rows, NAME_MOST)
    assert [row["name"] for row in rows] == ["BOB", None, None, None, "Ann"]


def test_the_installed_regex_knows_every_script_a_name_is_read_by() -> None:
    # pyproject asks for the regex release that knows Unicode 17's scripts: an older one
    # refuses \p{sc=SEAL} and would turn every name into a server error.
    unknown = []
    for script in SCRIPTS:
        try:
            regex.compile(r"\p{sc=" + script + "}")
        except regex.error:
            unknown.append(script)
    assert not unknown, f"regex {regex.__version__} does not know {unknown}"
