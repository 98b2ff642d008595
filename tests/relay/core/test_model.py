"""The relay's data model (relay/core/model.py): match ids and tokens, the digest kept of a
token, the first mover's coin, actions, and the errors that refuse a write."""

from __future__ import annotations

import hashlib
import re

import pytest

from relay.core.clock import TimeControl
from relay.core.model import (
    ID_FIRST,
    TIMED_OUT,
    Action,
    Status,
    behind,
    control_mismatch,
    draw_first,
    finished,
    hash_token,
    new_action,
    new_match_id,
    new_token,
    too_long,
    too_many_bytes,
)
from relay.core.patterns import KEY

URL_SAFE = re.compile(r"[A-Za-z0-9_-]+")


def test_a_match_id_is_16_url_safe_characters_never_read_as_an_option() -> None:
    ids = [new_match_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    for found in ids:
        assert len(found) == 16 and URL_SAFE.fullmatch(found), found
        assert found[0] in ID_FIRST and not found.startswith("-")
    # Every first character is drawn: 2000 ids miss one of 63 with odds below 1e-12.
    assert {found[0] for found in ids} == set(ID_FIRST)


def test_a_match_id_may_be_given_its_first_character() -> None:
    assert "-" not in ID_FIRST and len(ID_FIRST) == 63
    for first in ("A", "z", "0", "_"):
        found = new_match_id(first)
        assert found[0] == first and len(found) == 16 and URL_SAFE.fullmatch(found)


def test_a_seat_token_is_256_random_bits_a_seeker_could_have_drawn() -> None:
    tokens = {new_token() for _ in range(500)}
    assert len(tokens) == 500
    for token in tokens:
        assert len(token) == 43 and KEY.fullmatch(token), token


def test_a_token_is_kept_as_its_sha256_digest() -> None:
    token = "t" * 43
    assert hash_token(token) == hashlib.sha256(token.encode()).hexdigest()
    assert hash_token(token) == hash_token("t" * 43) != hash_token("t" * 42 + "u")
    assert re.fullmatch(r"[0-9a-f]{64}", hash_token(""))


def test_a_token_that_is_not_valid_unicode_still_has_a_digest() -> None:
    # A bearer header is read with surrogateescape: its digest must not raise.
    assert hash_token("\udcff" * 3) != hash_token("\udcfe" * 3)
    assert hash_token("é") == hashlib.sha256("é".encode()).hexdigest()


def test_the_first_mover_is_a_fair_coin() -> None:
    draws = [draw_first() for _ in range(400)]
    assert set(draws) == {0, 1}
    assert 120 < sum(draws) < 280  # beyond 8 standard deviations of a fair coin


def test_an_action_made_from_all_its_fields_at_once_is_the_same_action() -> None:
    assert Action("move", 3, "e4") == ("move", 3, "e4", False, True, None, None, "")
    made = new_action(Action, ("move", 3, "e4", True, True, None, "win", "mate"))
    assert made == Action("move", 3, "e4", end=True, claim="win", detail="mate")
    assert isinstance(made, Action) and made.claim == "win" and made.agree is True
    assert made.detail == "mate"
    assert Action("resign").after is None


def test_the_statuses_are_their_wire_words() -> None:
    assert [status.value for status in Status] == [
        "waiting",
        "playing",
        "ending",
        "finished",
        "expired",
    ]
    assert Status("ending") is Status.ENDING


def test_a_full_log_refuses_moves_naming_the_limit() -> None:
    for error, most in ((too_long(40), "40 events"), (too_many_bytes(600), "600 bytes")):
        assert (error.code, error.status) == ("match/too_long", 409)
        assert most in error.message
        assert "resign" in error.message  # a seat can always end the match


def test_a_room_seek_with_another_control_names_both() -> None:
    error = control_mismatch("friday", TimeControl("fischer", 300, 3), None)
    assert (error.code, error.status) == ("room/control_mismatch", 409)
    assert error.message == (
        "Room 'friday' waits for a match with "
        '{"kind":"fischer","base":300,"increment":3}, not no clock.'
    )
    error = control_mismatch("x", None, TimeControl("deadline", 60))
    assert error.message.endswith('with no clock, not {"kind":"deadline","per_move":60}.')


def test_a_write_to_a_finished_match_says_when_its_own_clock_ended_it() -> None:
    assert finished().code == finished(timed_out=True).code == "match/finished"
    assert finished(timed_out=True).message == TIMED_OUT
    assert finished().message != TIMED_OUT
    assert "'timeout'" in TIMED_OUT


def test_a_read_past_the_logs_end_names_both_numbers() -> None:
    error = behind(9, 4)
    assert (error.code, error.status) == ("match/behind", 409)
    assert "'after' is 9" in error.message and "ends at event 4" in error.message


@pytest.mark.parametrize("most", [1, 10_000])
def test_the_limits_messages_carry_any_number(most: int) -> None:
    assert f"{most} events" in too_long(most).message
    assert f"past {most} bytes" in too_many_bytes(most).message
