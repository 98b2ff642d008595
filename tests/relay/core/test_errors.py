"""The error codes and the exception that carries one (relay/core/errors.py)."""

from __future__ import annotations

import re

import pytest

from relay.core.errors import CODES, RelayError


def test_every_code_is_a_category_and_a_name_with_an_http_error_status_and_words() -> None:
    assert len(CODES) > 40
    for code, (status, words) in CODES.items():
        assert re.fullmatch(r"[a-z]+/[a-z_]+", code), code
        assert 400 <= status <= 599, code
        assert words.strip() and words.endswith("."), code


def test_the_statuses_clients_retry_on_are_the_limits_and_the_servers_own() -> None:
    # A 429 carries Retry-After and a 503 is retried by the SDK: each is one of these.
    assert {code for code, (status, _) in CODES.items() if status == 429} == {
        "offer/too_fast",
        "chat/too_fast",
        "limit/requests",
        "limit/seeks",
        "limit/polls",
        "limit/waiting",
        "player/too_many",
        "report/too_fast",
        "challenge/too_fast",
        "limit/push",
        "passkey/busy",
        "code/too_many",
        "limit/signins",
    }
    assert {code for code, (status, _) in CODES.items() if status == 503} == {
        "server/unavailable",
        "server/shutting_down",
        "push/full",  # a memory store holding its most subscriptions: later, some expired
    }
    assert CODES["server/internal"][0] == 500


@pytest.mark.parametrize("code", sorted(CODES))
def test_an_error_takes_its_status_and_words_from_its_code(code: str) -> None:
    error = RelayError(code)
    assert (error.code, error.status, error.message) == (code, CODES[code][0], CODES[code][1])
    assert error.retry_after is None
    assert str(error) == f"{code}: {CODES[code][1]}"


def test_an_error_may_say_more_and_when_to_retry() -> None:
    error = RelayError("limit/seeks", "Slow down.", retry_after=2.5)
    assert (error.status, error.message, error.retry_after) == (429, "Slow down.", 2.5)
    assert str(error) == "limit/seeks: Slow down."
    assert repr(error) == "RelayError('limit/seeks', 'Slow down.')"
    assert isinstance(error, Exception)


def test_an_unknown_code_is_a_programming_error_not_an_answer() -> None:
    with pytest.raises(KeyError):
        RelayError("match/nonsense")
