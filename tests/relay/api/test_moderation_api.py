"""Moderation end to end against a real relay process: players report, block and mute over
HTTP; the host bans, voids, erases and reads reports with `python -m relay admin`, its secret
from a file; every answer is checked against the OpenAPI document
(docs/fair-play.md#moderation)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import orjson
import pytest

from relay.api.moderation import REPORTS_PER_HOUR
from relay.core.model import hash_token
from relay.core.standings import public_id
from tests.relay.api.openapi_checker import Checker
from tests.relay.wire import Seat, Wire
from tests.support.relay_process import RelayProcess, quick_flags
from tests.support.relay_zygote import run

ROOT = Path(__file__).resolve().parents[3]
SECRET = "host-" + secrets.token_urlsafe(24)
M = "/v1/matches/{match}"


@pytest.fixture(scope="module")
def admin_relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Returns the URL of a relay with an admin secret read from a file."""
    secret_file = tmp_path_factory.mktemp("admin") / "secret"
    secret_file.write_text(SECRET + "\n")
    flags = (*quick_flags(), "--rate-unrefereed", "--admin-secret-file", str(secret_file))
    with RelayProcess(*flags) as relay:
        yield relay.url


def admin(url: str, *args: str, secret: str | None = SECRET) -> subprocess.CompletedProcess[str]:
    """Runs `python -m relay admin` with the secret in the environment (never in argv)."""
    env = {k: v for k, v in os.environ.items() if k != "MOVEWIRE_ADMIN_SECRET"}
    if secret is not None:
        env["MOVEWIRE_ADMIN_SECRET"] = secret
    return run([sys.executable, "-m", "relay", "admin", "--url", url, *args],
               cwd=ROOT, env=env, timeout=60)  # fmt: skip


def key() -> str:
    return secrets.token_urlsafe(32)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def rated_match(wire: Wire, loser: str, winner: str, **names: str) -> tuple[Seat, Seat]:
    """Pairs two keys and has the loser resign; returns (loser's seat, winner's seat)."""
    one = await wire.seek("moderated", player=loser, **({"name": names["one"]} if names else {}))
    two = await wire.seek("moderated", player=winner, **({"name": names["two"]} if names else {}))
    assert one.match == two.match
    # Seat 0 polls again, as a live client does: that starts the paired match.
    assert (await wire.events(one.match, 0, one))[0]["type"] == "started"
    status, body = await wire.post(one, "resign", {})
    assert status == 200, body
    return one, two


async def test_the_admin_api_checks_its_secret_first(admin_relay: str, relay_url: str) -> None:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
        wire = Wire(session, admin_relay)
        doc = (await wire.call("GET", "/v1/openapi.json"))[1]
        checker = Checker(doc)
        for headers, status, code in (
            (None, 401, "auth/required"),
            (bearer("x" * len(SECRET)), 403, "admin/bad_secret"),
            (bearer(SECRET[:-1]), 403, "admin/bad_secret"),
        ):
            answer = await wire.call("GET", "/v1/admin/bans", headers=headers)
            assert answer[0] == status and answer[1]["error"]["code"] == code
            checker.check("/v1/admin/bans", "GET", *answer)
        # A bad secret is refused before its body is read: no 400 for a bad body.
        answer = await wire.call("POST", "/v1/admin/bans", {"target": 5}, bearer("nope" * 5))
        assert answer[0] == 403
        # A relay without a secret has no admin API.
        off = await Wire(session, relay_url).call(
            "GET", "/v1/admin/reports", headers=bearer(SECRET)
        )
        assert off[0] == 404 and off[1]["error"]["code"] == "admin/off"
        checker.check("/v1/admin/reports", "GET", *off)


async def test_players_and_the_host_moderate_end_to_end(admin_relay: str) -> None:
    ann, bob, cid = key(), key(), key()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
        wire = Wire(session, admin_relay)
        checker = Checker((await wire.call("GET", "/v1/openapi.json"))[1])
        host = bearer(SECRET)

        # A first game, then a second that Bob farms: its rating is voided below.
        await rated_match(wire, ann, bob)
        (before,) = (await wire.call("GET", "/v1/player/ratings", headers=bearer(bob)))[1][
            "ratings"
        ]
        ann_seat, bob_seat = await rated_match(wire, ann, bob, one="Ann", two="Gold")
        status, info = await wire.call("GET", f"/v1/matches/{ann_seat.match}")
        assert info["players"] == [public_id(hash_token(ann)), public_id(hash_token(bob))]
        assert info["rated"] is True
        checker.check(M, "GET", status, info)
        for text in ("buy gold", "cheap gold now"):
            status, body = await wire.post(bob_seat, "chat", {"text": text})
            assert status == 200, body

        # Ann reports Bob's chat (once), blocks him, and lists her blocks.
        for about, status_wanted in (("chat", 201), ("chat", 201), ("spam", 400)):
            status, body = await wire.post(ann_seat, "report", {"about": about, "text": "spam"})
            assert status == status_wanted, body
            checker.check(f"{M}/report", "POST", status, body)
        stranger = await wire.call(
            "POST", f"/v1/matches/{ann_seat.match}/report", {"about": "play"}, bearer(key())
        )
        assert stranger[0] == 403
        checker.check(f"{M}/report", "POST", *stranger)
        status, body = await wire.call(
            "POST", "/v1/player/blocks", {"kind": "block", "match": ann_seat.match}, bearer(ann)
        )
        assert [(e["id"], e["name"], e["kind"]) for e in body["blocks"]] == [
            (public_id(hash_token(bob)), "Gold", "block")
        ]
        checker.check("/v1/player/blocks", "POST", status, body)
        answer = await wire.call("GET", "/v1/player/blocks", headers=bearer(ann))
        checker.check("/v1/player/blocks", "GET", *answer)
        answer = await wire.call(
            "POST", "/v1/player/blocks", {"kind": "block", "match": ann_seat.match}, bearer(cid)
        )
        assert answer[0] == 403 and answer[1]["error"]["code"] == "player/not_seated"
        checker.check("/v1/player/blocks", "POST", *answer)
        # Blocked: the two are not paired, but Cid is paired with the first of them.
        one = await wire.seek("moderated", player=ann)
        two = await wire.seek("moderated", player=bob)
        three = await wire.seek("moderated", player=cid)
        assert two.match != one.match and three.match == one.match
        assert (await wire.events(one.match, 0, one))[0]["type"] == "started"  # Ann is live
        await wire.post(two, "cancel", None)
        await wire.post(one, "resign", {})

        # The host reads the report with the command line.
        listed = admin(admin_relay, "reports")
        assert listed.returncode == 0, listed.stderr
        assert (
            public_id(hash_token(bob)) in listed.stdout and "chat: cheap gold now" in listed.stdout
        )
        answer = await wire.call("GET", "/v1/admin/reports?limit=5", headers=host)
        (report,) = answer[1]["reports"]
        assert report["reported"] == public_id(hash_token(bob)) and report["name"] == "Gold"
        checker.check("/v1/admin/reports", "GET", *answer)

        # Voids the farmed match: Bob's rating is what it was before it, exactly.
        voided = admin(admin_relay, "--json", "void", ann_seat.match)
        assert voided.returncode == 0, voided.stderr
        body = orjson.loads(voided.stdout)
        # Ann played Cid since (above): her points are given back; Bob's rating is exact.
        assert body["state"] == "voided"
        assert [seat["exact"] for seat in body["seats"]] == [False, True]
        (after,) = (await wire.call("GET", "/v1/player/ratings", headers=bearer(bob)))[1]["ratings"]
        assert {k: v for k, v in after.items() if k != "deviation"} == {
            k: v for k, v in before.items() if k != "deviation"
        }
        again = await wire.call("POST", "/v1/admin/void", {"match": ann_seat.match}, host)
        assert again[1]["state"] == "already"
        checker.check("/v1/admin/void", "POST", *again)
        assert (await wire.call("GET", f"/v1/matches/{ann_seat.match}"))[1]["rated"] == "voided"

        # Erases Bob's name and chat; the name's look is withheld from everyone.
        bob_id = public_id(hash_token(bob))
        erased = admin(admin_relay, "erase", f"id:{bob_id}")  # an id may begin with '-'
        assert erased.stdout.startswith(f"erased id:{bob_id}:"), erased.stdout
        assert erased.returncode == 0 and "2 chat lines" in erased.stdout, erased.stdout
        status, table = await wire.call(
            "GET", f"/v1/matches/{ann_seat.match}/table", headers=ann_seat.auth
        )
        assert table["names"] == ["Ann", None]
        assert [line["text"] for line in table["chat"]] == ["", ""]
        answer = await wire.call(
            "POST", "/v1/seek", {"game": "moderated", "player": key(), "name": "Gold"}
        )
        assert answer[0] == 409 and answer[1]["error"]["code"] == "name/taken"
        answer = await wire.call("POST", "/v1/admin/erase", {"id": bob_id}, host)
        checker.check("/v1/admin/erase", "POST", *answer)

        # Bans Bob's key for an hour: his seeks and rematches are refused, with the reason.
        banned = admin(admin_relay, "ban", f"id:{bob_id}", "--for", "1h", "--reason", "gold spam")
        assert banned.returncode == 0 and "banned id:" in banned.stdout, banned.stderr
        answer = await wire.call("POST", "/v1/seek", {"game": "moderated", "player": bob})
        assert answer[0] == 403 and answer[1]["error"]["code"] == "player/banned"
        assert "gold spam" in answer[1]["error"]["message"]
        checker.check("/v1/seek", "POST", *answer)
        answer = await wire.post(ann_seat, "rematch", {"offer": True})
        assert answer[0] == 403 and answer[1]["error"]["code"] == "player/banned"
        answer = await wire.call("GET", "/v1/admin/bans", headers=host)
        assert [ban["target"] for ban in answer[1]["bans"]] == [f"id:{bob_id}"]
        checker.check("/v1/admin/bans", "GET", *answer)
        assert "until" in admin(admin_relay, "bans").stdout
        assert admin(admin_relay, "unban", f"id:{bob_id}").stdout.strip().endswith("ban lifted")
        assert (await wire.seek("moderated", player=bob)).seat == 0

        # A range: every seek from the test's own address is refused, then let through.
        answer = await wire.call(
            "POST", "/v1/admin/bans", {"target": "127.0.0.0/8", "seconds": 60}, host
        )
        assert answer[0] == 201 and answer[1]["target"] == "127.0.0.0/8"
        checker.check("/v1/admin/bans", "POST", *answer)
        answer = await wire.call("POST", "/v1/seek", {"game": "moderated"})
        assert answer[0] == 403 and answer[1]["error"]["code"] == "player/banned"
        bad = await wire.call("POST", "/v1/admin/bans", {"target": "nowhere", "seconds": 60}, host)
        assert bad[0] == 400
        checker.check("/v1/admin/bans", "POST", *bad)
        answer = await wire.call("POST", "/v1/admin/unban", {"target": "127.0.0.1/8"}, host)
        assert answer[1] == {"target": "127.0.0.0/8", "lifted": True}
        checker.check("/v1/admin/unban", "POST", *answer)
        assert (await wire.seek("moderated")).seat in (0, 1)

        # Lifting Ann's block pairs the two again.
        answer = await wire.call(
            "POST", "/v1/player/blocks", {"kind": "none", "id": bob_id}, bearer(ann)
        )
        assert answer[1] == {"blocks": []}
        documented = {
            (path, method)
            for path, ops in checker.doc["paths"].items()
            for method in ops
            if path.startswith("/v1/admin/") or path in ("/v1/player/blocks", f"{M}/report")
        }
        assert documented <= {(path, method) for path, method, _ in checker.seen}


async def test_reports_from_one_address_are_paced(admin_relay: str) -> None:
    # From an address of its own (the other tests' reports count against 127.0.0.1).
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.3", 0))
    timeout = aiohttp.ClientTimeout(total=15)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        wire = Wire(session, admin_relay)
        seats: list[Seat] = []
        for room in ("p1", "p2", "p3", "p4"):
            seats += [await wire.seek("paced", room=room), await wire.seek("paced", room=room)]
        # A stranger's reports (a wrong token) are refused and count nothing; nor does a report
        # sent again.
        stranger = Seat({"match": seats[0].match, "seat": 0, "token": key()})
        for _ in range(REPORTS_PER_HOUR + 5):
            assert (await wire.post(stranger, "report", {"about": "play"}))[0] == 403
            assert (await wire.post(seats[0], "report", {"about": "play"}))[0] == 201
        # Each seat about each thing (seat 0's "play" sent again first), until the pace
        # refuses one: the first report above and 19 new ones are the hour's 20.
        statuses = []
        for seat in seats:
            for about in ("play", "name", "chat"):
                statuses.append(await wire.post(seat, "report", {"about": about}))
        codes = [status for status, _ in statuses]
        first = codes.index(429)
        assert first == REPORTS_PER_HOUR and codes[:first] == [201] * first, codes
        assert statuses[first][1]["error"]["code"] == "report/too_fast"
        async with session.post(
            f"{admin_relay}/v1/matches/{seats[-1].match}/report", json={"about": "play"},
            headers=seats[-1].auth,
        ) as answer:  # fmt: skip
            assert answer.status == 429
            assert 150 <= int(answer.headers["Retry-After"]) <= 181


def test_the_command_line_needs_a_secret_and_says_what_the_relay_refused(admin_relay: str) -> None:
    missing = admin(admin_relay, "bans", secret=None)
    assert missing.returncode == 2 and "MOVEWIRE_ADMIN_SECRET" in missing.stderr
    wrong = admin(admin_relay, "bans", secret="w" * 20)
    assert wrong.returncode == 1 and "403 admin/bad_secret" in wrong.stderr
    bad = admin(admin_relay, "ban", "nowhere", "--for", "1d")
    assert bad.returncode == 1 and "400 request/invalid" in bad.stderr
    usage = admin(admin_relay, "ban", "AAAAAAAAAAAA", "--for", "soon")
    assert usage.returncode == 2 and "a duration is a number and a unit" in usage.stderr
    away = admin("http://127.0.0.1:9", "bans")
    assert away.returncode == 1 and "cannot reach the relay" in away.stderr
