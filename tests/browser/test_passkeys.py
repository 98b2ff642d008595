"""Passkeys in real Chromium, with the DevTools protocol's virtual authenticators (ctap2,
internal, resident keys, user verification): a player adds a passkey on one device, signs in
with it on a second (the passkey synced there, as a phone's password manager does) and plays
on its correspondence match there; a third device signs in with a transfer code. axe-core
finds no serious or critical violation on the page (docs/protocol.md#passkeys)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, CDPSession, expect

from tests.browser.axe import no_severe_violations
from tests.browser.conftest import ARTIFACTS, WAIT_MS
from tests.browser.players import Player
from tests.browser.relay_api import call
from tests.support.ports import free_port
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(60)

KEY = "Pk9sYn" + "c" * 37
DAY = {"kind": "deadline", "per_move": 86400}


def seek(relay: RelayProcess, **more: Any) -> dict[str, Any]:
    """Seeks X and 0 in a room on a one-day-a-move clock; returns the ticket."""
    body = {"game": "xand0", "version": "1", "room": "carried", "time_control": DAY, **more}
    ticket: dict[str, Any] = call(relay, "/v1/seek", body)
    return ticket


def events(relay: RelayProcess, ticket: dict[str, Any], after: int) -> list[dict[str, Any]]:
    """Returns the match's events after `after`, waiting up to 5 s for one."""
    path = f"/v1/matches/{ticket['match']}/events?after={after}&wait=5"
    found: list[dict[str, Any]] = call(relay, path, token=ticket["token"])["events"]
    return found


@pytest.fixture
def passkey_relay(tmp_path: Path) -> Iterator[RelayProcess]:
    """Returns a relay with passkeys on, for pages opened at http://localhost:PORT (a
    relying-party id is a host name, never an address)."""
    port = free_port()
    secret = tmp_path / "passkey-secret"
    secret.write_text("sealing-" + "s" * 24 + "\n")
    flags = ("--passkey-rp-id", "localhost", "--passkey-origin", f"http://localhost:{port}",
             "--passkey-secret-file", str(secret))  # fmt: skip
    with RelayProcess(*quick_flags(), *flags, port=port) as relay:
        yield relay


def device(browser: Browser, relay: RelayProcess, name: str) -> tuple[Player, CDPSession, str]:
    """Returns a new browser context on the relay with a virtual platform authenticator, its
    DevTools session and the authenticator's id."""
    context = browser.new_context(base_url=f"http://localhost:{relay.port}")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options: dict[str, Any] = {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
    }  # fmt: skip
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
    return Player(page, name, ARTIFACTS / "passkeys"), cdp, str(found["authenticatorId"])


def test_a_passkey_brings_the_player_and_its_match_to_another_device(
    browser: Browser, passkey_relay: RelayProcess
) -> None:
    relay = passkey_relay
    mine = seek(relay, player=KEY)
    partner = seek(relay)
    first = events(relay, partner, 0)[0]["first"]
    after = 1
    if first == partner["seat"]:  # the partner moves, so that it is the key's turn
        path = f"/v1/matches/{partner['match']}/moves"
        call(relay, path, {"after": 1, "move": "11"}, partner["token"])
        after = 2
    laptop, laptop_cdp, laptop_auth = device(browser, relay, "laptop")
    phone, phone_cdp, phone_auth = device(browser, relay, "phone")
    tablet = device(browser, relay, "tablet")[0]
    sides = (laptop, phone, tablet)
    try:
        laptop.open("/")
        laptop.page.evaluate(f"localStorage.setItem('movewire.player', '{KEY}')")
        laptop.page.get_by_role("link", name="Play as yourself on another device").click()
        expect(laptop.status).to_have_text("Ready.")
        laptop.page.get_by_label("Name this device").fill("Laptop")
        laptop.page.get_by_role("button", name="Add a passkey").click()
        expect(laptop.status).to_have_text(re.compile("^Passkey added"))
        expect(laptop.page.locator("#passkey-list li")).to_have_text(re.compile("^Laptop · added"))
        no_severe_violations(laptop, "the devices page with a passkey")
        laptop.shot("passkey-added")

        # The passkey syncs to the phone, as a platform's password manager carries it.
        found = laptop_cdp.send("WebAuthn.getCredentials", {"authenticatorId": laptop_auth})
        [made] = found["credentials"]
        synced = {"authenticatorId": phone_auth, "credential": made}
        phone_cdp.send("WebAuthn.addCredential", synced)
        phone.open("/devices.html")
        expect(phone.status).to_have_text("Ready.")
        phone.page.get_by_role("button", name="Sign in with a passkey").click()
        expect(phone.status).to_have_text(re.compile("^Signed in"))
        assert phone.page.evaluate("localStorage.getItem('movewire.player')") == KEY
        no_severe_violations(phone, "the devices page signed in")

        phone.open("/")
        row = phone.page.locator(f"#your-games .mine-list li[data-match='{mine['match']}']")
        expect(row).to_have_text(re.compile("Your turn"))
        row.locator("a").click()
        phone.key_to_cell("00" if after == 1 else "22")
        phone.expect_state("PLAYING_WAIT_MOVE")
        played = events(relay, partner, after)
        assert played[0]["type"] == "move" and played[0]["seat"] == mine["seat"]

        # A device without passkeys signs in once with a code the laptop makes.
        laptop.page.get_by_role("button", name="Make a transfer code").click()
        code = laptop.page.locator("#code-value")
        expect(code).to_have_text(re.compile(r"^[2-9A-Z]{5}-[2-9A-Z]{5}$"))
        tablet.open("/devices.html")
        tablet.page.get_by_label("Transfer code").fill(code.text_content() or "")
        tablet.page.get_by_role("button", name="Sign in with the code").click()
        expect(tablet.status).to_have_text(re.compile("^Signed in"))
        assert tablet.page.evaluate("localStorage.getItem('movewire.player')") == KEY
        tablet.shot("signed-in-by-code")

        # Removed, the passkey signs in no more.
        laptop.page.get_by_role("button", name="Remove Laptop").click()
        expect(laptop.status).to_have_text(re.compile("^Passkey removed"))
        expect(laptop.page.locator("#passkey-list li")).to_have_text("None yet.")
        phone.open("/devices.html")
        phone.page.get_by_role("button", name="Sign in with a passkey").click()
        expect(phone.status).to_have_text(re.compile("^That passkey is not one of this relay's"))
        refused = "console: Failed to load resource: the server responded with a status of 403"
        phone.errors = [error for error in phone.errors if not error.startswith(refused)]
    finally:
        for side in sides:
            side.page.context.close()
    for side in sides:
        assert not side.errors, side.errors
