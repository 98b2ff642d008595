"""Transfer codes through a real relay with passkeys on (docs/sdk.md#another-device): a key
makes a code, another device signs in with it and keeps the key in its key file (the key it
held kept beside), and finds the key's correspondence match; a code works once; a refusal is
a RelayRefusedError told at once, in the relay's words (wrong or used code, passkeys off,
too many tries, too many codes)."""

from __future__ import annotations

import os
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from pytest_aiohttp import AiohttpServer

from sdk import (
    ProtocolError,
    RelayClient,
    RelayRefusedError,
    TimeControl,
    load_player_key,
    new_player_key,
)
from sdk.signin import SignedIn, TransferCode, clean_code, keep_player_key
from sdk.testing import FAST, local_relay

pytestmark = pytest.mark.timeout(30)

DAY = TimeControl.parse("1d")


@pytest.fixture
async def keyed_relay() -> AsyncIterator[str]:
    """Returns the URL of a fresh in-process relay with passkeys and transfer codes on."""
    async with local_relay(passkeys=True) as url:
        yield url


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def test_a_code_brings_the_key_and_its_correspondence_match_to_another_device(
    keyed_relay: str, session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    laptop, phone = RelayClient(session, keyed_relay, FAST), RelayClient(session, keyed_relay, FAST)
    key = new_player_key()
    mine = await laptop.seek("tally", "1", "corr", time_control=DAY, player=key, name="Ann")
    await laptop.seek("tally", "1", "corr", time_control=DAY, player=new_player_key())
    made = await laptop.make_code(key)
    assert isinstance(made, TransferCode) and clean_code(made.code) == made.code
    assert 299 <= made.left() <= 300
    key_file = tmp_path / "player-key"
    before = load_player_key(key_file)  # the phone had a key of its own
    signed = await phone.sign_in_with_code(made.code.lower().replace("-", " "), key_file)
    assert signed == SignedIn(key_file, signed.previous, key, "Ann")  # with its name
    assert key not in repr(signed)
    assert load_player_key(key_file) == key
    assert signed.previous is not None and signed.previous.read_text().strip() == before
    for kept in (key_file, signed.previous):
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    listed = await phone.player_matches(load_player_key(key_file))
    assert [(row.match, row.seat, row.status) for row in listed] == [
        (mine.match, mine.seat, "playing")
    ]
    with pytest.raises(RelayRefusedError) as used:
        await phone.sign_in_with_code(made.code, tmp_path / "other-key")
    assert (used.value.status, used.value.code) == (403, "code/unknown")
    assert "mistyped, used already, or expired" in used.value.message
    assert not (tmp_path / "other-key").exists()


async def test_a_refused_code_leaves_the_key_file_as_it_was(
    keyed_relay: str, session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    key_file = tmp_path / "player-key"
    held = load_player_key(key_file)
    client = RelayClient(session, keyed_relay, FAST)
    with pytest.raises(RelayRefusedError) as wrong:
        await client.sign_in_with_code("ABCDE-FGHJK", key_file)
    assert (wrong.value.status, wrong.value.code) == (403, "code/unknown")
    assert str(wrong.value).startswith("403 code/unknown: No such transfer code")
    assert load_player_key(key_file) == held
    assert os.listdir(tmp_path) == ["player-key"]


async def test_text_that_cannot_be_a_code_is_refused_before_asking_the_relay(
    keyed_relay: str, session: aiohttp.ClientSession
) -> None:
    client = RelayClient(session, keyed_relay, FAST)
    for text in ("ABCDE-FGHJ", "ABCDE-FGHJ0", "abcde-fghjkl", ""):
        with pytest.raises(ValueError, match="a transfer code is 10 letters and digits"):
            await client.redeem_code(text)
    assert not client.reached
    assert clean_code(" abcde fghjk ") == clean_code("ABCDEFGHJK") == "ABCDE-FGHJK"


async def test_a_relay_without_passkeys_says_so(relay: str, session: aiohttp.ClientSession) -> None:
    client = RelayClient(session, relay, FAST)
    for call in (client.make_code(new_player_key()), client.redeem_code("ABCDE-FGHJK")):
        with pytest.raises(RelayRefusedError) as off:
            await call
        assert (off.value.status, off.value.code) == (404, "passkey/off")
        assert "transfer codes are off" in off.value.message


async def test_too_many_tries_are_told_at_once_with_the_wait(
    keyed_relay: str, session: aiohttp.ClientSession
) -> None:
    client = RelayClient(session, keyed_relay, FAST)
    refusals = []
    for _ in range(11):  # the relay's 10 tries a minute from one address, and one more
        try:
            await client.redeem_code("ABCDE-FGHJK")
        except RelayRefusedError as error:
            refusals.append(error)
    assert [error.code for error in refusals] == ["code/unknown"] * 10 + ["limit/signins"]
    last = refusals[-1]
    assert last.status == 429 and last.retry_after is not None and 0 < last.retry_after <= 60
    assert client.retries == 0
    assert repr(last).endswith(f", {last.retry_after!r})")


async def test_a_key_makes_three_codes_in_five_minutes(
    keyed_relay: str, session: aiohttp.ClientSession
) -> None:
    client, key = RelayClient(session, keyed_relay, FAST), new_player_key()
    codes = {(await client.make_code(key)).code for _ in range(3)}
    assert len(codes) == 3
    with pytest.raises(RelayRefusedError) as many:
        await client.make_code(key)
    assert (many.value.status, many.value.code) == (429, "code/too_many")
    assert many.value.retry_after == 300 and client.retries == 0


async def test_an_answer_that_is_not_a_player_key_is_never_kept(
    aiohttp_server: AiohttpServer, session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    answers = iter([{"player": "../../etc\nx" * 4}, {"player": ""}, {"key": "k" * 43}, [1]])

    async def signin(_: web.Request) -> web.Response:
        return web.json_response(next(answers))

    app = web.Application()
    app.router.add_post("/v1/signin/code", signin)
    server = await aiohttp_server(app)
    client = RelayClient(session, str(server.make_url("/")), FAST)
    key_file = tmp_path / "player-key"
    held = load_player_key(key_file)
    for _ in range(4):
        with pytest.raises(ProtocolError, match="not protocol v1"):
            await client.sign_in_with_code("ABCDE-FGHJK", key_file)
    assert load_player_key(key_file) == held and os.listdir(tmp_path) == ["player-key"]


def test_keeping_a_key_keeps_the_one_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "player-key"
    one, two, three = new_player_key(), new_player_key(), new_player_key()
    assert keep_player_key(path, one) is None  # a new file: nothing replaced
    assert keep_player_key(path, one) is None  # the same key: nothing changes
    first = keep_player_key(path, two)
    second = keep_player_key(path, three)
    assert first is not None and second is not None and first != second
    assert [first.read_text(), second.read_text(), path.read_text()] == [
        f"{one}\n",
        f"{two}\n",
        f"{three}\n",
    ]
    assert sorted(p.name for p in path.parent.iterdir()) == sorted(
        ["player-key", first.name, second.name]
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
