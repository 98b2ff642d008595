"""Ratings in the pages, in real Chromium through a real relay: each game card's leaderboard,
"Your games"' ratings with their history, and a random opponent sought near one's rating.

The rated match needs the relay's ratings (docs/ratings.md): the relay rates an agreed end by
the mover's claim, which the pages send from their game's result.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import MakePlayer
from tests.browser.players import PHONE, Player
from tests.browser.seating import play_to_a_win, seated


def test_each_game_card_has_a_leaderboard_and_a_choice_of_rated_play_near_my_rating(
    player: MakePlayer,
) -> None:
    a = player("a")
    a.open("/")
    card = a.page.locator("#game-xand0")
    board = card.get_by_role("list", name="Leaderboard")
    expect(board).to_have_text("No rated players yet.")
    expect(board).to_have_attribute("aria-live", "polite")
    near = card.get_by_label("Rated at X and 0")
    expect(near.locator("option")).to_have_text(
        ["No (casual)", "Yes, any rating", "Yes, within ±100", "Yes, within ±200",
         "Yes, within ±400"]
    )  # fmt: skip
    link = card.get_by_role("link", name="Play a random opponent")
    expect(link).to_have_attribute("href", re.compile(r"#play$"))
    near.select_option(label="Yes, within ±200")
    expect(link).to_have_attribute("href", re.compile(r"#play&within=200$"))
    near.select_option(label="Yes, any rating")
    expect(link).to_have_attribute("href", re.compile(r"#play&rated=1$"))
    near.select_option(label="No (casual)")
    expect(link).to_have_attribute("href", re.compile(r"#play$"))
    expect(a.page.locator("#your-games .ratings-list")).to_have_text("No rated games yet.")
    a.shot("leaderboards")


def your_rating(side: Player, game: str) -> None:
    """Opens the lobby until "Your games" lists the player's rating in `game` (the relay
    rates a match as it ends; the lobby reads the ratings as it opens)."""
    deadline = time.monotonic() + 10
    while True:
        side.open("/")
        rating = side.page.locator(f"#your-games .ratings-list li.rating[data-game='{game}']")
        expect(side.page.locator("#your-games .ratings-list li").first).to_be_visible()
        if rating.count() > 0 or time.monotonic() > deadline:
            return
        time.sleep(0.5)


def test_a_rated_match_shows_each_players_rating_and_its_history_in_your_games(
    player: MakePlayer,
) -> None:
    a, b = player("a"), player("b", PHONE)
    a.open("/xand0.html#play&rated=1")
    a.expect_state("LISTENING")
    b.open("/xand0.html#play&rated=1")
    x, o = seated(a, b)
    play_to_a_win(x, o)
    match = x.match_id()
    # Two new players: the winner goes to 1741.6, the loser to 1258.4 (relay.core.ratings),
    # both still provisional ("?"); ratings are shown in whole points, rounded down.
    for side, shown, said in ((x, "1741?", "Won"), (o, "1258?", "Lost")):
        your_rating(side, "xand0")
        rating = side.page.locator("#your-games .ratings-list li.rating[data-game='xand0']")
        expect(rating.locator(".rating-head")).to_have_text(f"X and 0: {shown} · 1 rated game")
        change = "1500 → 1741 (+241)" if said == "Won" else "1500 → 1258 (−242)"
        entry = rating.locator(f".rating-history li[data-match='{match}']")
        expect(entry).to_have_text(f"{said} against 1500: {change} Replay")
        expect(entry.get_by_role("link", name=re.compile("^Replay"))).to_have_attribute(
            "href", f"replay.html#match={match}"
        )
        row = side.page.locator(f"#your-games .mine-list li[data-match='{match}']")
        expect(row).to_contain_text(f"Rating {change}")
    assert b.fits_viewport()
    x.shot("rated-winner")
    o.shot("rated-loser")


def test_a_random_opponent_near_my_rating_is_found_from_the_lobby_choice(
    player: MakePlayer,
) -> None:
    a, b = player("a"), player("b")
    a.open("/")
    card = a.page.locator("#game-xand0")
    card.get_by_label("Rated at X and 0").select_option(label="Yes, within ±100")
    card.get_by_role("link", name="Play a random opponent").click()
    a.expect_state("LISTENING")
    expect(a.page.get_by_label("Rated", exact=True)).to_have_value("100")
    # Two new keys are both 1500: within 100 of each other.
    b.open("/xand0.html")
    b.page.get_by_label("Rated", exact=True).select_option(label="Yes, within ±400")
    b.page.get_by_role("button", name="Play a random opponent").click()
    for side in (a, b):
        expect(side.page.locator("body")).to_have_attribute("data-state", re.compile("^PLAYING_"))


def test_two_tabs_of_one_browser_meet_in_a_casual_match(player: MakePlayer) -> None:
    # One browser, one player key: the relay never pairs a key with itself, so the pages seek
    # casual matches (the default) with no key, and two tabs of one browser can play.
    a = player("a")
    a.open("/")
    expect(a.page.locator("#game-xand0").get_by_label("Rated at X and 0")).to_have_value("")
    a.open("/xand0.html#play")
    a.expect_state("LISTENING")
    other = Player(a.page.context.new_page(), "a, second tab", a.shots)
    other.open("/xand0.html#play")
    for side in (a, other):
        expect(side.page.locator("body")).to_have_attribute("data-state", re.compile("^PLAYING_"))
    assert not other.errors, other.errors
