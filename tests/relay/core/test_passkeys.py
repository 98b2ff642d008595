"""A passkey's record reads back as written, and the limits tell a consistent story."""

from __future__ import annotations

import math

from relay.core.passkeys import (
    CODE_ALPHABET,
    CODE_LENGTH,
    CODES_MOST,
    CODES_PER_PLAYER,
    CREDENTIAL,
    HOLD_BUCKETS,
    SIGNINS_MOST,
    Passkey,
    PasskeySettings,
)


def test_a_passkey_reads_back_as_written_and_lists_no_secret() -> None:
    passkey = Passkey("c" * 22, "d" * 64, "sealed", "cose", 3, "Phone", 1.5)
    assert Passkey.from_dict(passkey.as_dict()) == passkey
    assert passkey.listing() == {"id": "c" * 22, "label": "Phone", "created": 1.5}


def test_codes_are_short_unambiguous_and_hard_to_guess() -> None:
    assert len(set(CODE_ALPHABET)) == len(CODE_ALPHABET) == 30
    assert not set("01OILU") & set(CODE_ALPHABET)
    assert math.log2(len(CODE_ALPHABET) ** CODE_LENGTH) > 48
    assert CODES_MOST % HOLD_BUCKETS == 0 and SIGNINS_MOST % HOLD_BUCKETS == 0
    assert 1 <= CODES_PER_PLAYER <= 5
    assert CREDENTIAL.fullmatch("A" * 16) and not CREDENTIAL.fullmatch("A=" * 10)


def test_the_settings_never_show_the_secret() -> None:
    assert "hush" not in repr(PasskeySettings("x.example", ("https://x.example",), b"hush"))
