"""A game-ending move's words in each store: kept until its partner confirms, then the `detail`
of the agreed end (or of the unconfirmed one the reaper writes), and the result a player's
match list shows; a dispute or a verdict says its own words instead (docs/protocol.md,
"Game over")."""

from __future__ import annotations

import secrets

from relay import Action, Store
from relay.core.verdicts import Ending
from tests.relay.conftest import SETTINGS
from tests.relay.store.calls import mover, now, pair, parse, start

WORDS = "three mills: no move left"


def ending(after: int, detail: str = WORDS, claim: str | None = "win") -> Action:
    """Returns a game-ending move with the game's words."""
    return Action("move", after, "a1", True, claim=claim, detail=detail)


async def ended(store: Store, match: str, after: int, at: float | None = None) -> dict[str, object]:
    """Returns the event after `after`, as JSON: the match's `ended` event."""
    events = parse((await store.matches.poll(match, None, after, now() if at is None else at))[1])
    return events[-1]


async def test_an_agreed_end_carries_the_movers_words(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    assert await store.matches.act(x.match, x.token, ending(1), now()) == 2
    move = parse((await store.matches.poll(a.match, None, 1, now()))[1])[0]
    assert "detail" not in move  # the words are the end's, once agreed
    await store.matches.act(o.match, o.token, Action("confirm", 2), now())
    assert await ended(store, a.match, 2) == {
        "seq": 3, "type": "ended", "reason": "agreed", "seat": o.seat, "detail": WORDS,
    }  # fmt: skip


async def test_an_end_without_words_is_agreed_as_before(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, ending(1, ""), now())
    await store.matches.act(o.match, o.token, Action("confirm", 2), now())
    assert await ended(store, a.match, 2) == {
        "seq": 3, "type": "ended", "reason": "agreed", "seat": o.seat,
    }  # fmt: skip


async def test_a_dispute_says_the_disputers_words_not_the_movers(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, ending(1), now())
    await store.matches.act(o.match, o.token, Action("confirm", 2, "not over", agree=False), now())
    found = await ended(store, a.match, 2)
    assert (found["reason"], found["detail"]) == ("disputed", "not over")


async def test_a_verdict_says_the_referees_words_not_the_movers(store: Store) -> None:
    a, b = await pair(store)
    x, _ = await mover(store, a, b)
    verdict = Ending("over", x.seat, x.seat, 2, "four in a row")
    judged = Action("move", 1, "a1", True, ending=verdict, claim="win", detail=WORDS)
    await store.matches.act(x.match, x.token, judged, now())
    found = await ended(store, a.match, 2)
    assert (found["reason"], found["detail"], found["winner"]) == ("over", "four in a row", x.seat)


async def test_an_unconfirmed_end_carries_the_movers_words(store: Store) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", None, t)
    b = await store.matches.seek("xand0", "1", None, t)
    await start(store, a, at=t)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, ending(1), t)
    await store.matches.poll(a.match, x.token, 2, t + SETTINGS.grace - 1)
    await store.matches.reap(t + SETTINGS.grace + 1)
    found = await ended(store, a.match, 2, t + SETTINGS.grace + 1)
    assert (found["reason"], found["seat"], found["detail"]) == ("unconfirmed", o.seat, WORDS)


async def test_a_players_match_list_shows_the_words_with_the_claim(store: Store) -> None:
    keys = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    one = await store.matches.seek("xand0", "1", None, now(), player=keys[0])
    two = await store.matches.seek("xand0", "1", None, now(), player=keys[1])
    await start(store, one)
    x, o = await mover(store, one, two)
    await store.matches.act(x.match, x.token, ending(1), now())
    await store.matches.act(o.match, o.token, Action("confirm", 2), now())
    listed = await store.players.matches(keys[x.seat], now())
    assert [entry.result for entry in listed] == [
        {"reason": "agreed", "seat": o.seat, "detail": WORDS, "claim": "win"}
    ]
