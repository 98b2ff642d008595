"""Your turn, noticed, in real Chromium: the window title while the tab is in the background,
a tone the player turns on (and the page remembers), and a notification once allowed."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import Player
from tests.browser.seating import start_room
from tests.support.relay_process import RelayProcess

AWAY_TITLE = "● Your turn — X and 0"

AUDIO_SPY = """
window.__audio = { contexts: 0, tones: 0 };
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  constructor(...args) { super(...args); window.__audio.contexts += 1; }
};
const realStart = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__audio.tones += 1;
  return realStart.apply(this, args);
};
"""
"""Counts the audio contexts a page makes and the tones it starts."""

NOTIFICATION_SPY = """
window.__notes = { asked: 0, shown: [] };
window.Notification = class {
  static permission = "default";
  static async requestPermission() {
    window.__notes.asked += 1;
    window.Notification.permission = "granted";
    return "granted";
  }
  constructor(title, options) { window.__notes.shown.push(title); }
};
"""
"""Stands in for the browser's notifications: counts the asks, keeps what is shown."""


def hide(side: Player, hidden: bool = True) -> None:
    """Makes the page believe its tab went to the background (or came back)."""
    side.page.evaluate(
        """(hidden) => {
            Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
            Object.defineProperty(document, "visibilityState", {
                configurable: true, get: () => (hidden ? "hidden" : "visible"),
            });
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def audio(side: Player) -> dict[str, Any]:
    """Returns the audio spy's counts."""
    counts: dict[str, Any] = side.page.evaluate("window.__audio")
    return counts


def test_the_title_says_your_turn_while_the_tab_is_away_until_it_is_back(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, _ = start_room(player("ann"), player("bob"))
    expect(o.page).to_have_title("X and 0 · movewire")
    hide(o)
    x.play_cell("11")
    expect(o.page).to_have_title(AWAY_TITLE)
    o.page.wait_for_timeout(500)
    expect(o.page).to_have_title(AWAY_TITLE)  # it stays until the tab is seen
    hide(o, hidden=False)
    expect(o.page).to_have_title("Your turn · X and 0 · movewire")

    # A turn that comes while the tab is in view changes the title as before, no more.
    o.play_cell("00")
    expect(x.page).to_have_title("Your turn · X and 0 · movewire")


def test_the_turn_tone_is_off_until_turned_on_and_remembered(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    for side in (ann, bob):
        side.page.add_init_script(AUDIO_SPY)
    x, o, _ = start_room(ann, bob)
    sound = o.page.get_by_role("checkbox", name="Sound on your turn")
    expect(sound).not_to_be_checked()
    x.play_cell("11")
    o.expect_status("Your turn.")
    assert audio(o) == {"contexts": 0, "tones": 0}  # off: no sound, not even a context

    sound.check()
    o.page.reload()  # the match is taken up again, and the choice is kept
    o.expect_status("Your turn.")
    expect(sound).to_be_checked()
    assert o.page.evaluate("localStorage.getItem('movewire.sound')") == "on"
    assert audio(o)["tones"] == 0  # a reload is not a new turn
    o.play_cell("00")
    x.play_cell("22")
    o.expect_status("Your turn.")
    o.page.wait_for_function("window.__audio.tones >= 1")
    assert audio(o)["contexts"] == 1

    sound.uncheck()
    o.play_cell("02")
    x.play_cell("20")
    o.expect_status("Your turn.")
    o.page.wait_for_timeout(300)
    assert audio(o)["tones"] == 1
    assert o.page.evaluate("localStorage.getItem('movewire.sound')") == "off"


def test_a_notification_is_asked_for_by_the_button_only_and_shown_while_away(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    for side in (ann, bob):
        side.page.add_init_script(NOTIFICATION_SPY)
    x, o, _ = start_room(ann, bob)
    assert o.page.evaluate("window.__notes.asked") == 0  # never asked on load
    notify = o.page.get_by_role("button", name="Notify me on my turn")
    notify.click()
    expect(notify).to_be_hidden()  # answered: nothing more to ask
    assert o.page.evaluate("window.__notes.asked") == 1

    x.play_cell("11")  # in view: no notification
    o.expect_status("Your turn.")
    hide(o)
    o.play_cell("00")
    x.play_cell("22")
    expect(o.page).to_have_title(AWAY_TITLE)
    assert o.page.evaluate("window.__notes.shown") == [AWAY_TITLE]
