"""SDK hosts playing scripted matches through a relay, and the checks that nothing was lost.

Both sides of a match derive its moves from the match id, so any two seekers that the relay
pairs know what to play and what to expect; each move text is unique and tricky (astral
unicode, quotes, JSON-looking text)."""

from __future__ import annotations

import asyncio
import gzip
import random
import ssl
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import orjson

from relay.http.pages import CACHE_CONTROL, SECURITY_HEADERS, load_pages
from sdk import Game, GameHost, Outcome, Reason, RelayHost, State, Timing

__all__ = [
    "TIMING",
    "Run",
    "check_gzipped_pages",
    "check_logs",
    "check_pages",
    "play_matches",
    "script_of",
    "seek_statuses",
]

TIMING = Timing(
    poll_wait=5,
    poll_margin=10.0,
    request_timeout=10.0,
    backoff_base=0.05,
    backoff_cap=1.0,
    give_up=60.0,
)
"""Short polls and quick retries against a stack on this machine. A held poll has 10 s past
its hold, as any other request has (not the 3 s that tells a player a dead network soon):
these runs count a retry as the stack's fault, and a 2-core machine running the whole suite
beside a flood may answer a held poll late."""

FLAVOURS = ["", " ♞ ü", " \U0001f600\U00010348", ' "q" \\ {"j": [1]}', " <b>&amp;</b>\n\t"]


def script_of(match: str) -> list[str]:
    """Returns the moves of a match, derived from its id (the last one ends the game)."""
    rng = random.Random(match)
    return [f"{match}:{index}{rng.choice(FLAVOURS)}" for index in range(rng.randint(4, 9))]


@dataclass
class Run:
    """What every host of a run saw."""

    received: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    """The partner's moves each seat's game received, in order, by (match, seat)."""
    moves: int = 0
    """Moves the games received so far (the run's progress)."""
    outcomes: list[Outcome] = field(default_factory=list)
    """Each host's outcome."""
    retries: int = 0
    """Requests the hosts sent again after a failure (a fault's visible cost)."""
    milestone: int = 0
    """After this many moves, `reached` is set (to inject a fault mid-run)."""
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once `milestone` moves have been received."""


class ScriptedGame(Game):
    """Plays its side of the match's script and records what the partner played."""

    def __init__(self, host: GameHost, first_move: bool, run: Run) -> None:
        super().__init__(host, first_move)
        assert isinstance(host, RelayHost) and host.ticket is not None
        self.run = run
        self.key = (host.ticket.match, host.ticket.seat)
        self.script = script_of(host.ticket.match)
        self.mine = list(range(0 if first_move else 1, len(self.script), 2))
        self.theirs = list(range(1 if first_move else 0, len(self.script), 2))
        self.received = run.received.setdefault(self.key, [])

    def enable(self) -> None:
        """Plays this side's next move of the script."""
        index = self.mine.pop(0)
        self.host.move(self.script[index], end_game=index == len(self.script) - 1)

    def disable(self) -> None:
        """Nothing to do: the script waits for enable()."""

    def receive_move(self, move: str) -> State:
        """Records the partner's move; the game is over after the script's last move."""
        self.received.append(move)
        self.run.moves += 1
        if self.run.moves >= self.run.milestone:
            self.run.reached.set()
        index = (
            self.theirs[len(self.received) - 1] if len(self.received) <= len(self.theirs) else -1
        )
        return State.GAME_ENDED if index == len(self.script) - 1 else State.PLAYING_TO_MOVE


async def play_matches(
    url: str,
    count: int,
    game: str,
    *,
    run: Run | None = None,
    timing: Timing = TIMING,
    limit: float = 100.0,
    tls: ssl.SSLContext | None = None,
    through: Path | None = None,
) -> Run:
    """Plays `count` matches of `game` with 2 * count SDK hosts seeking at once (over HTTPS
    trusting `tls`, if given, or through the unix socket `through`); fails by name
    (TimeoutError) if they are not all over within `limit` seconds."""
    run = run or Run()

    def factory(host: GameHost, first: bool) -> Game:
        return ScriptedGame(host, first, run)

    connector = (
        aiohttp.UnixConnector(str(through), limit=0)
        if through is not None
        else aiohttp.TCPConnector(limit=0, ssl=tls if tls is not None else True)
    )
    async with aiohttp.ClientSession(connector=connector) as session:
        hosts = [
            RelayHost(url, game, factory, timing=timing, session=session, dialog=lambda _: None)
            for _ in range(2 * count)
        ]
        async with asyncio.timeout(limit):
            run.outcomes = list(await asyncio.gather(*(host.play() for host in hosts)))
    run.retries = sum(host.retries for host in hosts)
    return run


async def check_logs(url: str, run: Run, count: int, through: Path | None = None) -> int:
    """Checks every match completed with every move delivered once (asking through the unix
    socket `through`, if given); returns the moves."""
    by_match: dict[str, list[Outcome]] = {}
    for outcome in run.outcomes:
        assert outcome.reason is Reason.AGREED, outcome
        assert outcome.match is not None
        by_match.setdefault(outcome.match, []).append(outcome)
    assert len(by_match) == count
    assert all(sorted(o.seat or 0 for o in pair) == [0, 1] for pair in by_match.values())
    moves = 0
    connector = None if through is None else aiohttp.UnixConnector(str(through))
    async with aiohttp.ClientSession(connector=connector) as session:
        for match in by_match:
            async with session.get(f"{url}/v1/matches/{match}/events?after=0") as answer:
                assert answer.status == 200
                events = orjson.loads(await answer.read())["events"]
            script = script_of(match)
            assert [event["seq"] for event in events] == list(range(1, len(script) + 3))
            assert events[0]["type"] == "started"
            played = events[1:-1]
            assert [event["move"] for event in played] == script
            assert [event["end"] for event in played] == [False] * (len(script) - 1) + [True]
            first = events[0]["first"]
            assert [event["seat"] for event in played] == [
                (first + index) % 2 for index in range(len(script))
            ]
            assert events[-1]["type"] == "ended" and events[-1]["reason"] == "agreed"
            for seat in (0, 1):
                # Each game received exactly the partner's moves, in order, once each.
                partner = [e["move"] for e in played if e["seat"] != seat]
                assert run.received[(match, seat)] == partner
            moves += len(script)
    return moves


async def seek_statuses(url: str, source: str, count: int) -> list[int]:
    """Seeks `count` times from the address `source`, each time claiming another client in
    X-Forwarded-For (which the proxy must drop); returns the statuses."""
    statuses = []
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        for index in range(count):
            async with session.post(
                url + "/v1/seek",
                json={"game": "limit", "room": f"{source.replace('.', '-')}-{index}"},
                headers={"X-Forwarded-For": f"198.51.100.{index}"},
            ) as answer:
                statuses.append(answer.status)
                if answer.status == 429:
                    assert int(answer.headers["Retry-After"]) >= 1
    return statuses


async def check_pages(url: str) -> int:
    """Checks the web server serves every page as the relay would: same bytes, same media
    type, same security headers; returns how many pages it checked."""
    pages = load_pages()
    async with aiohttp.ClientSession() as session:
        for path, page in pages.items():
            async with session.get(url + path) as answer:
                assert answer.status == 200, path
                assert await answer.read() == page.body, path
                assert answer.content_type == page.content_type.split(";")[0], path
                for header, value in SECURITY_HEADERS.items():
                    assert answer.headers.get(header) == value, (path, header)
                assert answer.headers.get("Cache-Control") == CACHE_CONTROL, path
    return len(pages)


async def check_gzipped_pages(url: str) -> int:
    """Checks the web server sends the text pages gzipped to a client that takes gzip, each
    unpacking to the file's bytes, marked Vary: Accept-Encoding, and revalidated by its ETag
    (304); and sends them as they are to a client that does not. Returns how many it checked."""
    pages = {path: page for path, page in load_pages().items() if page.gzipped is not None}
    async with aiohttp.ClientSession(auto_decompress=False) as session:
        for path, page in pages.items():
            taking = {"Accept-Encoding": "gzip"}
            async with session.get(url + path, headers=taking) as answer:
                assert answer.status == 200, path
                assert answer.headers.get("Content-Encoding") == "gzip", path
                assert "accept-encoding" in answer.headers.get("Vary", "").lower(), path
                assert gzip.decompress(await answer.read()) == page.body, path
                etag = answer.headers["ETag"]
            again = {**taking, "If-None-Match": etag}
            async with session.get(url + path, headers=again) as answer:
                assert answer.status == 304, (path, etag)
            plain = {"Accept-Encoding": "identity"}
            async with session.get(url + path, headers=plain) as answer:
                assert "Content-Encoding" not in answer.headers, path
                assert await answer.read() == page.body, path
    return len(pages)
