"""Connection faults in real Chromium: the relay process killed mid-match and started again on
the same port. The pages say "Reconnecting to the relay..." within two seconds, keep sending
their requests again, hold a move made meanwhile as being sent and send it once the relay is
back; the lobby and a spectator pick up by themselves; a match the relay forgot (its memory
store gone with it) says so plainly; and the connection is called lost only after minutes,
with a Retry button that takes the match up again."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Route, expect

from tests.browser.conftest import MakePlayer
from tests.browser.faults import (
    NOTICED_WITHIN_MS,
    RECONNECTING,
    expect_reconnecting,
    forgive_failed_loads,
    kill,
    kill_after_a_held_move,
)
from tests.browser.players import Player
from tests.browser.relay_api import moves_of
from tests.browser.seating import start_room
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import RelayProcess, quick_flags

SENDING = "Sending your move... (reconnecting to the relay)"
FORGOTTEN = "The relay restarted and no longer knows this match; it cannot go on."
LOST = "Lost the connection to the relay: it has not answered for 5 minutes."


@pytest.fixture
def relay(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """Returns a relay serving the pages on a Redis store of its own, so that its matches
    outlive a restart; parametrized indirectly with "memory", on the memory store instead."""
    if getattr(request, "param", "redis") == "memory":
        with RelayProcess(*quick_flags()) as process:
            yield process
        return
    with (
        RedisServer(redis_binary()) as redis,
        RelayProcess(*quick_flags(), "--store", redis.url) as process,
    ):
        yield process


def test_a_relay_restart_is_shown_and_a_move_made_meanwhile_is_sent_once(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, match = start_room(player("ann"), player("bob"))
    kill_after_a_held_move(relay, x, o)
    for side in (x, o):
        expect_reconnecting(side)
    o.play_cell("00")  # while the relay is away
    expect(o.cell("00")).to_have_text("0")
    expect_reconnecting(o, SENDING)
    o.page.wait_for_timeout(2_000)  # retried all along: neither taken for sent nor given up
    o.expect_state("WAITING_SERVER_RESPONSE")
    o.expect_status(SENDING)
    x.expect_status(RECONNECTING)
    o.shot("move-waiting-for-the-relay")
    x.shot("reconnecting")

    relay.start()
    o.expect_status("Opponent's turn...")
    x.expect_status("Your turn.")
    expect(x.cell("00")).to_have_text("0")
    for side in (x, o):
        expect(side.page.locator("body")).to_have_attribute("data-reachable", "true")
    x.play_cell("22")
    expect(o.cell("22")).to_have_text("X")
    assert [event["move"] for event in moves_of(relay, match)] == ["11", "00", "22"]
    forgive_failed_loads(x, o)


def test_the_lobby_and_a_spectator_reconnect_by_themselves(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob, watcher, looker = player("ann"), player("bob"), player("watcher"), player("looker")
    x, o, match = start_room(ann, bob)
    watcher.open(f"/replay.html#match={match}")
    looker.open("/")
    lobby = looker.page.locator("[data-lobby='xand0']")
    expect(lobby).to_have_attribute("data-version", re.compile(r"\d+"))
    x.play_cell("11")
    expect(watcher.page.locator("#position")).to_contain_text("Move 1 of 1")

    kill(relay)
    for side in (watcher, looker):
        notice = side.page.locator(".connection")
        expect(notice.locator(".connection-text")).to_have_text(
            RECONNECTING, timeout=NOTICED_WITHIN_MS
        )
        expect(notice).to_have_attribute("role", "status")
        expect(notice.get_by_role("button", name="Retry")).to_be_hidden()
    watcher.shot("spectator-reconnecting")
    looker.shot("lobby-reconnecting")

    relay.start()
    for side in (watcher, looker):
        expect(side.page.locator(".connection")).to_be_hidden()
    o.play_cell("00")
    expect(watcher.page.locator("#position")).to_contain_text("Move 2 of 2")
    # The lobby follows again: a public game opened now is listed.
    cat = player("cat")
    cat.open("/xand0.html#room=after-restart&public")
    cat.expect_state("LISTENING")
    expect(lobby.locator(".open-list li[data-match]")).to_have_count(1)
    forgive_failed_loads(ann, bob, watcher, looker)


@pytest.mark.parametrize("relay", ["memory"], indirect=True)
def test_a_match_forgotten_in_a_restart_says_so_and_leads_back_to_the_lobby(
    player: MakePlayer, relay: RelayProcess
) -> None:
    x, o, _ = start_room(player("ann"), player("bob"))
    kill_after_a_held_move(relay, x, o)
    relay.start()  # on the memory store: every match is gone
    for side in (x, o):
        side.expect_status(FORGOTTEN)
        expect(side.page.get_by_role("link", name="Back to the lobby")).to_be_visible()
    o.shot("forgotten")
    o.page.get_by_role("link", name="Back to the lobby").click()
    expect(o.page.locator("[data-lobby='xand0']")).to_have_attribute(
        "data-version", re.compile(r"\d+")
    )
    forgive_failed_loads(x, o)


def test_the_connection_is_called_lost_only_after_minutes_and_retry_takes_the_match_up(
    player: MakePlayer, relay: RelayProcess
) -> None:
    ann, bob = player("ann"), player("bob")
    for side in (ann, bob):
        side.page.clock.install()  # the pages' timers, run ahead by the test
    x, o, match = start_room(ann, bob)
    kill_after_a_held_move(relay, x, o)
    for side in (x, o):
        expect_reconnecting(side)
    run_ahead((x, o), minutes=4)
    for side in (x, o):  # four minutes on: still trying
        side.expect_status(RECONNECTING)
        expect(side.page.get_by_role("button", name="Retry")).to_be_hidden()
    run_ahead((x, o), minutes=2)
    for side in (x, o):
        expect(side.status).to_contain_text(LOST)
        expect(side.page.get_by_role("button", name="Retry")).to_be_visible()
    o.shot("lost")

    relay.start()
    for side in (x, o):
        side.page.get_by_role("button", name="Retry").click()
    o.expect_status("Your turn.")
    x.expect_status("Opponent's turn...")
    o.play_cell("00")
    expect(x.cell("00")).to_have_text("0")
    assert [event["move"] for event in moves_of(relay, match)] == ["11", "00"]
    forgive_failed_loads(x, o)


def run_ahead(sides: tuple[Player, ...], minutes: int) -> None:
    """Runs the pages' clocks `minutes` ahead, five seconds at a time, letting each retry that
    falls due fail (the relay is down) before the next step."""
    for _ in range(minutes * 12):
        for side in sides:
            side.page.clock.fast_forward(5_000)
        sides[0].page.wait_for_timeout(30)


def test_the_lobby_gives_up_only_after_minutes_and_retry_follows_it_again(
    player: MakePlayer, relay: RelayProcess
) -> None:
    looker = player("looker")
    looker.page.clock.install()
    looker.open("/")
    lobby = looker.page.locator("[data-lobby='xand0']")
    expect(lobby).to_have_attribute("data-version", re.compile(r"\d+"))
    notice = looker.page.locator(".connection")
    retry = notice.get_by_role("button", name="Retry")

    kill(relay)
    expect(notice.locator(".connection-text")).to_have_text(RECONNECTING)
    run_ahead((looker,), minutes=4)
    expect(notice.locator(".connection-text")).to_have_text(RECONNECTING)
    expect(retry).to_be_hidden()
    run_ahead((looker,), minutes=2)
    expect(notice.locator(".connection-text")).to_have_text(LOST)
    expect(retry).to_be_visible()
    looker.shot("lobby-lost")

    relay.start()
    retry.click()
    expect(notice).to_be_hidden()
    cat = player("cat")
    cat.open("/xand0.html#room=after-retry&public")
    cat.expect_state("LISTENING")
    expect(lobby.locator(".open-list li[data-match]")).to_have_count(1)
    forgive_failed_loads(looker)


@pytest.mark.parametrize("relay", ["memory"], indirect=True)
def test_the_lobby_lists_its_games_though_its_first_read_of_them_failed(
    player: MakePlayer, relay: RelayProcess
) -> None:
    """A network change under the lobby's first read of the games (as Chromium reports when
    another interface comes up) is retried: the cards show with no click."""
    looker = player("looker")
    failed: list[str] = []

    def fail_once(route: Route) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort("internetdisconnected")

    looker.page.route("**/v1/games", fail_once)
    looker.open("/")
    expect(
        looker.page.locator("#game-xand0").get_by_role("link", name="Play a random opponent")
    ).to_be_visible()
    assert len(failed) == 1
    forgive_failed_loads(looker)
