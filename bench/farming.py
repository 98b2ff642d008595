"""`python -m bench.farming`: one person farms a rating with keys of its own, on a relay that
referees X and 0 (`--referee xand0`, the host's rating rules otherwise as they ship), for a
bounded time; what rating and leaderboard rank its main key reaches.

The attacks the issue's stranger played: a main key and K "sock" keys meet in private rooms
and each sock resigns at once (a rated win for the main key); in a second round every other
match is an accepted draw (a sock's offer) instead, which alone once put a sock key first on
a leaderboard. Each round runs from one loopback address (127.0.0.2), then from many: each
seek from an address of its own network (127.N.M.1), as a person with many machines. It
prints, per round, the matches played and rated, the main key's best rating, and its rank on
the game's leaderboard (null: not listed)."""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import itertools
import json
import secrets
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

import aiohttp

from bench.soak import relay_process

__all__ = ["Round", "farm", "main", "public_id"]

GAME = "xand0"


def public_id(key: str) -> str:
    """Returns a key's public handle on leaderboards (relay.core.standings.public_id)."""
    digest = hashlib.sha256(key.encode()).hexdigest()
    hashed = hashlib.sha256(b"board:" + digest.encode()).digest()
    return base64.urlsafe_b64encode(hashed).decode()[:12]


@dataclass
class Round:
    """What one round of farming reached."""

    name: str
    seconds: float
    socks: int
    addresses: int
    matches: int = 0
    rated: int = 0
    refused: int = 0
    best_rating: str | None = None
    games: int = 0
    rank: int | None = None


def _addresses(many: bool, alone: str) -> Iterator[str]:
    """Yields the source addresses seeks come from: `alone` only, or one per network."""
    if not many:
        yield from itertools.repeat(alone)
    for n in itertools.count():
        yield f"127.{1 + n // 250}.{n % 250}.1"


async def _post(
    session: aiohttp.ClientSession, url: str, body: dict[str, Any], token: str | None = None
) -> tuple[int, Any]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with session.post(url, json=body, headers=headers) as answer:
        return answer.status, await answer.json()


async def farm(
    url: str, name: str, socks: int, seconds: float, many: bool, draws: bool, alone: str
) -> Round:
    """Plays one round of farming against the relay at url, from `alone` or from many
    addresses; stops by itself."""
    found = Round(name, seconds, socks, 0)
    main = secrets.token_urlsafe(32)
    keys = [secrets.token_urlsafe(32) for _ in range(socks)]
    sources = _addresses(many, alone)
    sessions: dict[str, aiohttp.ClientSession] = {}
    timeout = aiohttp.ClientTimeout(total=10)

    def session(source: str) -> aiohttp.ClientSession:
        if source not in sessions:
            connector = aiohttp.TCPConnector(local_addr=(source, 0))
            sessions[source] = aiohttp.ClientSession(connector=connector, timeout=timeout)
        return sessions[source]

    deadline = time.monotonic() + seconds
    try:
        for n, sock in enumerate(itertools.cycle(keys)):
            if time.monotonic() >= deadline:
                break
            room = secrets.token_hex(6)
            tickets = []
            for player in (main, sock):
                body = {"game": GAME, "room": room, "player": player}
                status, answer = await _post(session(next(sources)), f"{url}/v1/seek", body)
                if status != 201:
                    found.refused += 1
                    await asyncio.sleep(0.2)
                    break
                tickets.append(answer)
            if len(tickets) < 2:
                continue
            found.matches += 1
            mine, theirs = tickets
            base = f"{url}/v1/matches/{mine['match']}"
            http = session(next(sources))
            # Seat 0 polls again, as a live client does: that starts the paired match.
            start = {"Authorization": f"Bearer {mine['token']}"}
            async with http.get(f"{base}/events?after=0&wait=0", headers=start) as answer:
                assert answer.status == 200, await answer.text()
            if draws and n % 2:
                await _post(http, f"{base}/offer", {"kind": "draw", "after": 1}, theirs["token"])
                await _post(http, f"{base}/answer", {"accept": True, "after": 1}, mine["token"])
            else:
                await _post(http, f"{base}/resign", {}, theirs["token"])
            async with http.get(base) as answer:
                if (await answer.json()).get("rated") is True:
                    found.rated += 1
        http = session("127.0.0.2")
        headers = {"Authorization": f"Bearer {main}"}
        async with http.get(f"{url}/v1/player/ratings?game={GAME}", headers=headers) as answer:
            ratings = (await answer.json())["ratings"]
        if ratings:
            found.best_rating, found.games = ratings[0]["shown"], ratings[0]["games"]
        async with http.get(f"{url}/v1/games/{GAME}/leaderboard?limit=100") as answer:
            rows = (await answer.json())["players"]
        mine_id = public_id(main)
        found.rank = next((row["rank"] for row in rows if row["id"] == mine_id), None)
        found.addresses = len(sessions)
    finally:
        for made in sessions.values():
            await made.close()
    return found


async def _run(url: str, socks: int, seconds: float) -> list[Round]:
    rounds = []
    for n, (many, draws) in enumerate(itertools.product((False, True), (False, True))):
        name = ("many addresses" if many else "one address") + (
            ", wins and draws" if draws else ", wins"
        )
        alone = f"127.0.0.{2 + n}"  # each round's one address is fresh to the rate limits
        rounds.append(await farm(url, name, socks, seconds, many, draws, alone))
    return rounds


def main(argv: list[str] | None = None) -> None:
    """Runs the rounds against a relay of its own and prints what each reached, as JSON."""
    p = argparse.ArgumentParser(prog="python -m bench.farming", description=__doc__)
    p.add_argument("--socks", type=int, default=20, help="sock keys the main key meets")
    p.add_argument("--seconds", type=float, default=20.0, help="how long each round plays")
    p.add_argument("--store", default="memory", help="the relay's --store")
    a = p.parse_args(argv)
    relay_args = ["--store", a.store, "--no-access-log", "--log-level", "warning"]
    relay_args += ["--referee", GAME]
    with relay_process(*relay_args) as (port, _pid, _log):
        rounds = asyncio.run(_run(f"http://127.0.0.1:{port}", a.socks, a.seconds))
    print(
        json.dumps({"relay": " ".join(relay_args), "rounds": [asdict(r) for r in rounds]}, indent=2)
    )


if __name__ == "__main__":
    main()
