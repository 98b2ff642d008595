"""A player who comes back, as players would, in real Chromium (#34): two players on two devices
each, every device a browser context of its own, on one relay process with passkeys and Web
Push on, pushing to the local push service (tests/support/push_service.py, which checks each
push's VAPID signature and decrypts it).

- Ann adds a passkey on her laptop and signs in with it on her phone (the passkey synced
  there, as a phone's password manager does), and asks her phone to notify her. Bob signs his
  phone in with a transfer code from his desktop.
- Their correspondence match goes on with every page closed: Bob moves from his phone, the
  relay pushes Ann's turn, her phone's service worker shows it, and its click opens the match,
  which Ann finishes there.
- Bob challenges Ann from his lobby's recent opponents. The challenge is pushed to Ann's
  phone, whose notification opens the lobby. She accepts, and both land in the match and move.
- Offline, Ann's phone opens the lobby, Your games and the replay of the finished match, and
  says so.

axe-core finds no serious or critical violation on the pages new to #34 (Your devices, the
lobby's challenges, the challenge dialog, the pages offline). What the headless shell cannot
do is stood in for, as in test_push_subscribe.py and test_push_notices.py: the notification
permission and the browser's side of the push service (the page subscribes to the local push
service's endpoint), the notification shown (recorded) and its click (dispatched in the
worker). The relay's push, its encryption and its VAPID signature are real."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from playwright.sync_api import Browser, CDPSession, expect

from relay.push.keys import VapidKey
from tests.browser.axe import no_severe_violations
from tests.browser.conftest import ARTIFACTS, WAIT_MS
from tests.browser.players import PHONE, Player, Viewport
from tests.browser.relay_api import call
from tests.browser.worker_spy import STAND_IN, WorkerSpy
from tests.support.ports import free_port
from tests.support.push_service import Browser as Subscribed
from tests.support.push_service import Push, PushService
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(180)

ANN = "AnnJourney" + "a" * 34
BOB = "BobJourney" + "b" * 34
VAPID = VapidKey.generate("mailto:host@games.example")
DAY = {"kind": "deadline", "per_move": 86400}
OFFLINE_ERRORS = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch")
"""What the console says of the requests that fail offline, as they must."""


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """Returns the local push service, served on an event loop of its own thread."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="push service", daemon=True)
    thread.start()
    service = PushService()
    asyncio.run_coroutine_threadsafe(service.__aenter__(), loop).result(10)
    try:
        yield service
    finally:
        asyncio.run_coroutine_threadsafe(service.__aexit__(None, None, None), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


@pytest.fixture
def journey_relay(tmp_path: Path) -> Iterator[RelayProcess]:
    """Returns a relay process with passkeys (for pages at http://localhost:PORT) and Web Push
    on, every push sent at once (--push-every 0), to the local push service's loopback address
    (tests/support/loopback_push_relay.py)."""
    port = free_port()
    secret = tmp_path / "passkey-secret"
    secret.write_text("sealing-" + "j" * 24 + "\n")
    vapid = tmp_path / "vapid.pem"
    vapid.write_bytes(
        VAPID.private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    flags = ("--passkey-rp-id", "localhost", "--passkey-origin", f"http://localhost:{port}",
             "--passkey-secret-file", str(secret), "--push-key-file", str(vapid),
             "--push-subject", "mailto:host@games.example", "--push-every", "0")  # fmt: skip
    module = "tests.support.loopback_push_relay"
    with RelayProcess(*quick_flags(), *flags, port=port, module=module) as relay:
        yield relay


class Device:
    """One device of a player: a browser context at http://localhost:PORT, with a virtual
    platform authenticator."""

    def __init__(
        self, browser: Browser, relay: RelayProcess, name: str, viewport: Viewport
    ) -> None:
        self.root = f"http://localhost:{relay.port}/"
        self.context = browser.new_context(
            base_url=self.root.rstrip("/"),
            viewport={"width": viewport.width, "height": viewport.height},
            is_mobile=viewport.mobile,
            has_touch=viewport.mobile,
        )
        self.context.set_default_timeout(WAIT_MS)
        self.side = Player(self.context.new_page(), name, ARTIFACTS / "journey")
        self.cdp: CDPSession = self.context.new_cdp_session(self.side.page)
        self.cdp.send("WebAuthn.enable")
        options = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                   "hasUserVerification": True, "isUserVerified": True}  # fmt: skip
        made = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
        self.authenticator = str(made["authenticatorId"])

    def as_player(self, key: str, name: str) -> None:
        """Keeps a player key and name where the pages keep them."""
        self.side.open("/")
        self.side.page.evaluate(
            "([key, name]) => { localStorage.setItem('movewire.player', key);"
            " localStorage.setItem('movewire.name', name); }",
            [key, name],
        )

    def key(self) -> str | None:
        """Returns the player key the pages keep on this device."""
        found: str | None = self.side.page.evaluate("localStorage.getItem('movewire.player')")
        return found


def pushed(service: PushService, to: Subscribed, kind: str, count: int) -> Push:
    """Waits (at most 10 s) until the browser was pushed `count` notices of a kind; returns the
    last."""
    deadline = time.monotonic() + 10
    while True:
        found = [push for push in service.pushes_to(to) if push.json()["kind"] == kind]
        if len(found) >= count:
            return found[count - 1]
        assert time.monotonic() < deadline, f"no {kind} push: {service.pushes_to(to)}"
        time.sleep(0.05)


def woken(spy: WorkerSpy, push: Push, shown_before: int) -> str:
    """Hands a push to the phone's service worker as its browser would, once decrypted; checks
    the notification it asks for and clicks it; returns the page the click opened."""
    spy.push(push.payload)
    notice = push.json()
    shown = spy.shown(shown_before + 1)
    assert len(shown) == shown_before + 1, shown
    assert shown[-1]["title"] == notice["title"] and shown[-1]["tag"] == notice["tag"]
    clicked = spy.click(notice["tag"])
    assert clicked["closed"] == [notice["tag"]]
    (opened,) = clicked["opened"] or clicked["focused"]
    assert opened.startswith(spy.root), opened
    return opened


def open_match_from_your_games(device: Device, match: str) -> None:
    """Opens a match from the lobby's Your games."""
    device.side.open("/")
    row = device.side.page.locator(f"#your-games .mine-list li[data-match='{match}']")
    expect(row).to_be_visible()
    row.locator("a").click()


def test_two_players_on_two_devices_each_come_back(
    browser: Browser, journey_relay: RelayProcess, push_service: PushService
) -> None:
    relay = journey_relay
    body = {"game": "xand0", "version": "1", "room": "journey", "time_control": DAY}
    ann_seat = call(relay, "/v1/seek", {**body, "player": ANN, "name": "Ann"})
    bob_seat = call(relay, "/v1/seek", {**body, "player": BOB, "name": "Bob"})
    match = str(ann_seat["match"])
    started = call(relay, f"/v1/matches/{match}/events?after=0&wait=5", token=ANN)
    ann_first = started["events"][0]["first"] == ann_seat["seat"]
    assert bob_seat["match"] == match

    laptop = Device(browser, relay, "ann-laptop", Viewport(1024, 768))
    phone = Device(browser, relay, "ann-phone", PHONE)
    desktop = Device(browser, relay, "bob-desktop", Viewport(1024, 768))
    bobs_phone = Device(browser, relay, "bob-phone", PHONE)
    devices = (laptop, phone, desktop, bobs_phone)
    subscribed = push_service.subscribe(VAPID.public)
    phone.context.add_init_script(f"({STAND_IN})({json.dumps(subscribed.subscription())})")
    try:
        # Ann's passkey, added on her laptop, signs her phone in; her phone asks to be told.
        laptop.as_player(ANN, "Ann")
        laptop.side.open("/devices.html")
        expect(laptop.side.status).to_have_text("Ready.")
        laptop.side.page.get_by_label("Name this device").fill("Laptop")
        laptop.side.page.get_by_role("button", name="Add a passkey").click()
        expect(laptop.side.status).to_have_text(re.compile("^Passkey added"))
        asked = {"authenticatorId": laptop.authenticator}
        found = laptop.cdp.send("WebAuthn.getCredentials", asked)
        [credential] = found["credentials"]
        synced = {"authenticatorId": phone.authenticator, "credential": credential}
        phone.cdp.send("WebAuthn.addCredential", synced)
        phone.side.open("/devices.html")
        expect(phone.side.status).to_have_text("Ready.")
        phone.side.page.get_by_role("button", name="Sign in with a passkey").click()
        expect(phone.side.status).to_have_text(re.compile("^Signed in"))
        assert phone.key() == ANN
        assert phone.side.page.evaluate("localStorage.getItem('movewire.name')") == "Ann"
        notify = phone.side.page.locator("#notify")
        expect(notify).to_have_attribute("data-state", "off")
        phone.side.page.get_by_role("button", name="Notify me").click()
        expect(notify).to_have_attribute("data-state", "on")
        no_severe_violations(phone.side, "Your devices, signed in by a passkey, notifying")
        phone.side.shot("signed-in-notifying")

        # Bob's phone signs in with a code from his desktop.
        desktop.as_player(BOB, "Bob")
        desktop.side.open("/devices.html")
        desktop.side.page.get_by_role("button", name="Make a transfer code").click()
        code = desktop.side.page.locator("#code-value")
        expect(code).to_have_text(re.compile(r"^[2-9A-Z]{5}-[2-9A-Z]{5}$"))
        bobs_phone.side.open("/devices.html")
        bobs_phone.side.page.get_by_label("Transfer code").fill(code.text_content() or "")
        bobs_phone.side.page.get_by_role("button", name="Sign in with the code").click()
        expect(bobs_phone.side.status).to_have_text(re.compile("^Signed in"))
        assert bobs_phone.key() == BOB

        # The correspondence match, every page of Ann's closed: Bob moves from his phone, and
        # Ann's turn is pushed to hers; its notification opens the match, which she plays out.
        spy = WorkerSpy(phone.context, phone.side.page, phone.root)
        if ann_first:
            call(relay, f"/v1/matches/{match}/moves", {"after": 1, "move": "00"}, ANN)
            bobs = ["01", "02"]
            anns = ["11", "22"]
        else:
            bobs = ["01", "02", "10"]
            anns = ["00", "11", "22"]
        open_match_from_your_games(bobs_phone, match)
        bobs_phone.side.expect_state("PLAYING_TO_MOVE")
        bobs_phone.side.play_cell(bobs.pop(0))
        bobs_phone.side.expect_state("PLAYING_WAIT_MOVE")
        turn = pushed(push_service, subscribed, "turn", 1)
        assert turn.json()["match"] == match
        assert turn.json()["url"] == f"xand0.html#resume={match}&seat={ann_seat['seat']}"
        assert turn.claims["sub"] == "mailto:host@games.example"
        phone.side.page.goto(woken(spy, turn, 0))
        phone.side.expect_state("PLAYING_TO_MOVE")
        phone.side.shot("woken-by-a-push")
        while anns:
            phone.side.play_cell(anns.pop(0))
            if bobs:
                bobs_phone.side.expect_state("PLAYING_TO_MOVE")
                bobs_phone.side.play_cell(bobs.pop(0))
                phone.side.expect_state("PLAYING_TO_MOVE")
        phone.side.expect_state("GAME_ENDED")
        bobs_phone.side.expect_state("GAME_ENDED")
        expect(phone.side.status).to_have_text(re.compile("^You win"))
        info = call(relay, f"/v1/matches/{match}")
        assert info["status"] == "finished", info
        assert [push.json()["kind"] for push in push_service.pushes_to(subscribed)] == ["turn"]

        # Bob challenges Ann from his lobby's recent opponents: pushed to her phone, whose
        # notification opens her lobby, where she accepts; both land in the match.
        desktop.side.open("/")
        opponents = desktop.side.page.locator("#challenges .opponents-list")
        opponents.get_by_role("button", name="Challenge Ann").click()
        dialog = desktop.side.page.get_by_role("dialog")
        dialog.get_by_label("Game").select_option("xand0")
        dialog.get_by_label("Who moves first").select_option("first")
        no_severe_violations(desktop.side, "the challenge dialog")
        dialog.get_by_role("button", name="Send the challenge").click()
        expect(dialog.get_by_role("status")).to_have_text(re.compile("^Challenge sent to Ann"))
        challenge = pushed(push_service, subscribed, "challenge", 1)
        assert "Bob" in challenge.json()["body"], challenge.json()
        lobby = woken(spy, challenge, 1)
        phone.side.page.goto(lobby)
        accept = phone.side.page.get_by_role("button", name="Accept the challenge of Bob")
        expect(accept).to_be_visible()
        no_severe_violations(phone.side, "the lobby with a challenge")
        # On a phone, the challenge's words keep a readable width: its buttons go under them.
        words = phone.side.page.locator("#challenges .incoming-list li .entry-words").first
        box = words.bounding_box()
        assert box is not None and box["width"] >= 0.6 * PHONE.width, box
        phone.side.shot("challenged")
        phone.side.page.reload()  # reloaded, the lobby reads its challenges again
        expect(accept).to_be_visible()
        accept.click()
        phone.side.page.wait_for_url(re.compile(r"xand0\.html"))
        desktop.side.page.wait_for_url(re.compile(r"xand0\.html"))
        desktop.side.expect_state("PLAYING_TO_MOVE")
        phone.side.expect_state("PLAYING_WAIT_MOVE")
        desktop.side.play_cell("11")
        phone.side.expect_state("PLAYING_TO_MOVE")
        phone.side.play_cell("00")
        desktop.side.expect_state("PLAYING_TO_MOVE")
        rematch = phone.side.match_id()
        assert rematch != match
        assert call(relay, f"/v1/matches/{rematch}")["names"] == ["Bob", "Ann"]

        # Offline, Ann's phone opens the lobby, Your games and the finished match's replay
        # (seen once online), and says so.
        phone.side.open(f"/replay.html#match={match}")
        result = phone.side.page.locator("#status")
        expect(result).to_have_text(re.compile("won"))
        won = result.text_content() or ""
        spy.cdp.detach()  # while attached, Chromium's navigator.onLine stays true offline
        phone.cdp.detach()
        phone.side.expected = OFFLINE_ERRORS  # the requests that fail offline, as they must
        phone.context.set_offline(True)
        phone.side.open("/")
        line = phone.side.page.locator(".offline-line")
        expect(line).to_have_text(re.compile("^You are offline: games can be played once"))
        row = phone.side.page.locator(f"#your-games li[data-match='{match}']")
        expect(row).to_contain_text("(you) won: three in a row")
        no_severe_violations(phone.side, "the lobby offline")
        phone.side.open(f"/replay.html#match={match}")
        expect(result).to_have_text(won)
        expect(line).to_have_text("You are offline: this replay was kept from an earlier visit.")
        phone.side.shot("offline-replay")
    finally:
        for device in devices:
            device.context.close()
    errors = [f"{d.side.name}: {error}" for d in devices for error in d.side.errors]
    assert not errors, "the pages raised errors:\n" + "\n".join(errors)
