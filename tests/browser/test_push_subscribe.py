"""The pages' "Notify me" control in real Chromium (devices.html): after a click it asks the
browser's permission, subscribes through the pages' service worker with the relay's public
key and gives the subscription to the relay with the player key; "Stop notifying" takes it
back. It shows blocked where the browser blocks notifications, and stays hidden on a relay
that does not push. axe-core finds no serious or critical violation.

What is simulated, honestly: the headless shell has no notification platform and reaches no
push service, so its `Notification.permission` stays 'denied' and `pushManager.subscribe`
cannot succeed. The test grants the permission in the page (Notification.requestPermission
answers 'granted') and stands in for the push service (PushManager.prototype.subscribe answers
a subscription to https://push.example, with a real P-256 key and auth secret, and records the
options it was given). Everything else is the page's own code against a real relay process:
the worker registered, the key read from GET /v1/push, the calls made. Delivery to the worker
is test_push_notices.py's; encryption and VAPID, tests/relay/push/'s."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Browser, expect

from relay.push.keys import VapidKey, b64url
from tests.browser.axe import no_severe_violations
from tests.browser.conftest import ARTIFACTS, WAIT_MS
from tests.browser.players import Player
from tests.browser.relay_api import call
from tests.browser.worker_spy import STAND_IN
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(60)

KEY = VapidKey.generate("mailto:host@games.example")
PLAYER = "Nt1fy" + "k" * 38


def subscription() -> dict[str, Any]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    endpoint = f"https://push.example/send/{secrets.token_urlsafe(12)}"
    keys = {"p256dh": b64url(point), "auth": b64url(secrets.token_bytes(16))}
    return {"endpoint": endpoint, "expirationTime": None, "keys": keys}


@pytest.fixture
def push_relay(tmp_path: Path) -> Iterator[RelayProcess]:
    """Returns a relay that pushes (its VAPID key in a file)."""
    path = tmp_path / "vapid.pem"
    path.write_bytes(
        KEY.private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    flags = ("--push-key-file", str(path), "--push-subject", "mailto:host@games.example")
    with RelayProcess(*quick_flags(), *flags) as relay:
        yield relay


def devices(browser: Browser, relay: RelayProcess, stand_in: dict[str, Any] | None) -> Player:
    """Returns a new context on the relay's devices page (with the stand-in, if given)."""
    context = browser.new_context()
    context.set_default_timeout(WAIT_MS)
    if stand_in is not None:
        context.add_init_script(f"({STAND_IN})({json.dumps(stand_in)})")
        context.add_init_script(f"localStorage.setItem('movewire.player', {json.dumps(PLAYER)})")
    page = context.new_page()
    page.goto(f"{relay.url}/devices.html")
    return Player(page, "devices", ARTIFACTS / "push")


def test_notify_me_subscribes_and_stop_takes_it_back(
    browser: Browser, push_relay: RelayProcess
) -> None:
    given = subscription()
    side = devices(browser, push_relay, given)
    page = side.page
    control = page.locator("#notify")
    expect(control).to_be_visible()
    expect(control).to_have_attribute("data-state", "off")
    page.get_by_role("button", name="Notify me").click()
    expect(control).to_have_attribute("data-state", "on")
    expect(page.get_by_role("button", name="Stop notifying")).to_be_visible()
    expect(page.get_by_role("button", name="Notify me")).to_be_hidden()
    asked = page.evaluate("window.asked")
    assert asked == [{"userVisibleOnly": True, "key": KEY.public}]
    no_severe_violations(side, "the devices page, notifications on")
    # The relay keeps it for the player key: posting it again renews it (still one).
    again = call(push_relay, "/v1/player/push", {"subscription": given}, token=PLAYER)
    assert again == {"subscriptions": 1}
    page.get_by_role("button", name="Stop notifying").click()
    expect(control).to_have_attribute("data-state", "off")
    removed = call(
        push_relay, "/v1/player/push/remove", {"endpoint": given["endpoint"]}, token=PLAYER
    )
    assert removed == {"removed": False}  # the page removed it already
    page.context.close()


def test_a_browser_that_blocks_notifications_is_told_so(
    browser: Browser, push_relay: RelayProcess
) -> None:
    side = devices(browser, push_relay, None)  # the headless shell: permission 'denied'
    control = side.page.locator("#notify")
    expect(control).to_have_attribute("data-state", "blocked")
    expect(control).to_contain_text("blocks notifications")
    no_severe_violations(side, "the devices page, notifications blocked")
    side.page.context.close()


def test_the_control_is_hidden_where_the_relay_does_not_push(
    browser: Browser, relay: RelayProcess
) -> None:
    side = devices(browser, relay, subscription())
    expect(side.page.locator("#status")).not_to_have_text("Loading...")
    side.page.wait_for_load_state("networkidle")
    expect(side.page.locator("#notify")).to_be_hidden()
    side.page.context.close()
