"""Tickets that save: JSON text and a file, read back by Python and by the JavaScript host."""

from __future__ import annotations

import asyncio
import json
import secrets
import stat
import subprocess
from pathlib import Path

import pytest

from sdk import Reason, State, Ticket
from sdk.testing import FAST
from tests.sdk.scripted import RecordingHost, Side, factory
from tests.support.components import require_binary

ROOT = Path(__file__).resolve().parents[2]
TICKET = Ticket("m4tch-Id_1", 1, "t" * 43)


def test_a_ticket_round_trips_through_json() -> None:
    text = TICKET.to_json()
    assert json.loads(text) == {"match": "m4tch-Id_1", "seat": 1, "token": "t" * 43}
    assert Ticket.from_json(text) == TICKET
    assert Ticket.from_json(text.encode()) == TICKET
    assert "t" * 43 not in repr(TICKET)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"seat": 0, "token": "t"}', "'match' is not a match id"),
        ('{"match": "m", "seat": 2, "token": "t"}', "'seat' is not 0 or 1"),
        ('{"match": "m", "seat": true, "token": "t"}', "'seat' is not 0 or 1"),
        ('{"match": "m", "seat": 0, "token": ""}', "'token' is not a token"),
    ],
)
def test_anything_but_a_saved_ticket_is_refused_by_name(text: str, why: str) -> None:
    with pytest.raises(ValueError, match="not a saved ticket") as caught:
        Ticket.from_json(text)
    assert why in str(caught.value)


def test_a_saved_ticket_file_is_readable_only_by_its_user(tmp_path: Path) -> None:
    path = tmp_path / "seat.json"
    TICKET.save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Ticket.load(path) == TICKET
    assert [p.name for p in tmp_path.iterdir()] == ["seat.json"]


def test_the_javascript_host_reads_and_writes_the_same_text() -> None:
    node = require_binary("node", "nodejs")
    script = (
        "import('./relay/pages/movewire.mjs').then((m) => {"
        " const t = m.ticketFromJSON(process.argv[1]);"
        " console.log(m.ticketToJSON(t)); })"
    )
    run = subprocess.run(
        [node, "-e", script, TICKET.to_json()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert Ticket.from_json(run.stdout) == TICKET


async def test_a_seat_saved_to_a_file_resumes_after_a_restart(relay: str, tmp_path: Path) -> None:
    saved = tmp_path / "seat.json"
    room = "saved-" + secrets.token_hex(6)
    make = factory(Side(["a1!"]), Side(answers={"a1!": State.GAME_ENDED}))
    seated = asyncio.Event()

    def keep(ticket: Ticket) -> None:
        ticket.save(saved)
        seated.set()

    seeker = RecordingHost(relay, "saved", make, room=room, timing=FAST, on_ticket=keep)
    async with asyncio.timeout(20):
        task = asyncio.create_task(seeker.play())
        await seated.wait()
        task.cancel()  # the client dies while waiting for a partner
        await asyncio.wait([task])
        resumed = RecordingHost.resume(relay, Ticket.load(saved), make, timing=FAST)
        joiner = RecordingHost(relay, "saved", make, room=room, timing=FAST)
        outcomes = await asyncio.gather(resumed.play(), joiner.play())
    assert [o.reason for o in outcomes] == [Reason.AGREED, Reason.AGREED]
    assert outcomes[0].match == Ticket.load(saved).match
