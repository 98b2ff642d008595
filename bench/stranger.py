"""`python -m bench.stranger`: strangers send game-ending moves and disputes they have no
right to, on a refereed relay, while normal players play; what each refusal costs, and the
players' move latency with and without them, in one run.

A stranger first fills a match of its own (two seeks in a private room of a refereed game)
with the longest moves the relay takes, up to its --max-log-bytes, then sends, on keep-alive
connections from loopback addresses of its own (127.0.0.2 and up):
- an ending (`end: true`) and a dispute (`agree: false`) with a bearer of no seat;
- an ending by the seat not to move, and a dispute at a stale position, with its own token;
against that match and a plain refused move (a bearer of no seat) beside them. Each is
refused with nothing read or judged: the rows give refusals per second of each kind, side by
side with the plain refused move. The strangers run in a process of their own, each address
sending at --rate requests a second (0: as fast as answered)."""

from __future__ import annotations

import argparse
import asyncio
import functools
import multiprocessing as mp
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

from bench.flood import BoundConnection, play_phase
from bench.http import Connection, HttpError
from bench.soak import measure_and_print

__all__ = ["KINDS", "Attack", "Strangers", "prepare", "refusal_rates", "strangers_in_process"]

JSON = "Content-Type: application/json\r\n"

GAME = "connect4"
"""The refereed game the stranger's match is of (`--referee connect4`)."""

KINDS = ("plain_move", "ending", "dispute", "ending_out_of_turn", "dispute_stale")
"""The refused requests sent, in turn: the first is the plain refused move they are
compared with."""

EXPECTED = {
    "plain_move": "403 auth/bad_token",
    "ending": "403 auth/bad_token",
    "dispute": "403 auth/bad_token",
    "ending_out_of_turn": "409 turn/not_yours",
    "dispute_stale": "409 turn/stale",
}
"""The answer each kind must get."""

ROUNDS = 5
"""Rounds of the refusal rates: each kind's figure is its best round."""


@dataclass(frozen=True)
class Attack:
    """The stranger's own match: its id, each seat's token, its last event and the seat to
    move."""

    match: str
    tokens: tuple[str, str]
    last: int
    to_move: int

    def request(self, kind: str) -> tuple[str, bytes, str]:
        """Returns (path, body, headers) of one refused request of a kind (KINDS)."""
        base = f"/v1/matches/{self.match}"
        stranger = f"Authorization: Bearer {secrets.token_urlsafe(32)}\r\n{JSON}"
        waiting = f"Authorization: Bearer {self.tokens[1 - self.to_move]}\r\n{JSON}"
        mover = f"Authorization: Bearer {self.tokens[self.to_move]}\r\n{JSON}"
        last = self.last
        if kind == "plain_move":
            return base + "/moves", orjson.dumps({"after": last, "move": "3"}), stranger
        if kind == "ending":
            return (
                base + "/moves",
                orjson.dumps({"after": last, "move": "3", "end": True}),
                stranger,
            )
        if kind == "dispute":
            return base + "/confirm", orjson.dumps({"after": last, "agree": False}), stranger
        if kind == "ending_out_of_turn":
            body = orjson.dumps({"after": last, "move": "3", "end": True})
            return base + "/moves", body, waiting
        return base + "/confirm", orjson.dumps({"after": last - 1, "agree": False}), mover


async def prepare(
    host: str, port: int, source: str, move_length: int = 4096, most: int = 10_000
) -> Attack:
    """Opens the stranger's match from `source` and fills its log with moves of
    `move_length` characters until the relay refuses one (match/too_long), or `most` moves;
    returns it."""
    conn = await BoundConnection(host, port, source).open()
    try:
        seek = orjson.dumps({"game": GAME, "room": secrets.token_hex(8)})
        tickets = []
        for _ in range(2):
            status, _, data = await conn.request("POST", "/v1/seek", seek, JSON)
            if status != 201:
                raise HttpError(f"stranger's seek: {status} {data!r}")
            tickets.append(orjson.loads(data))
        match = tickets[0]["match"]
        auth0 = f"Authorization: Bearer {tickets[0]['token']}\r\n"
        path = f"/v1/matches/{match}/events?after=0"
        status, _, data = await conn.request("GET", path, headers=auth0)  # starts the match
        first = orjson.loads(data)["events"][0]["first"]
        tokens = {t["seat"]: t["token"] for t in tickets}
        last, seat = 1, first
        while last <= most:
            body = orjson.dumps({"after": last, "move": "x" * move_length})
            auth = f"Authorization: Bearer {tokens[seat]}\r\n{JSON}"
            status, headers, data = await conn.request(
                "POST", f"/v1/matches/{match}/moves", body, auth
            )
            if status == 429:  # over the address's rate: as told, then again
                await asyncio.sleep(float(headers.get(b"retry-after", b"1")))
                continue
            if status == 409 and b"match/too_long" in data:
                break
            if status != 200:
                raise HttpError(f"stranger's move: {status} {data!r}")
            last, seat = last + 1, 1 - seat
    finally:
        conn.close()
    return Attack(match, (tokens[0], tokens[1]), last, seat)


@dataclass
class Strangers:
    """What the strangers were answered, by kind and answer, and how long they sent."""

    answers: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    seconds: float = 0.0

    def unexpected(self) -> dict[str, int]:
        """Returns the answers that are not the refusal their kind must get."""
        expected = set(EXPECTED.values()) | {"429 limit/requests"}
        return {key: n for key, n in self.answers.items() if key.split(" ", 1)[1] not in expected}


async def _answer(conn: Connection, path: str, body: bytes, headers: str) -> str:
    status, _, data = await conn.request("POST", path, body, headers)
    code = orjson.loads(data)["error"]["code"] if status >= 400 else ""
    return f"{status} {code}".strip()


async def send(
    host: str, port: int, attack: Attack, sources: list[str], seconds: float, rate: float
) -> Strangers:
    """Sends every kind of refused request in turn from each source address for `seconds`,
    each address at `rate` requests a second (0: as fast as answered). Stops by itself."""
    tally = Strangers()
    started = time.monotonic()
    deadline = started + seconds

    async def one(number: int, source: str) -> None:
        conn = await BoundConnection(host, port, source).open()
        sent = 0
        try:
            while (now := time.monotonic()) < deadline:
                if rate > 0:
                    due = started + sent / rate
                    if due > now:
                        await asyncio.sleep(due - now)
                kind = KINDS[(number + sent) % len(KINDS)]
                answer = await _answer(conn, *attack.request(kind))
                tally.answers[f"{kind} {answer}"] += 1
                tally.requests += 1
                sent += 1
        finally:
            conn.close()

    await asyncio.gather(*(one(n, source) for n, source in enumerate(sources)))
    tally.seconds = time.monotonic() - started
    return tally


def _worker(
    host: str, port: int, attack: Attack, sources: list[str], seconds: float, rate: float,
    go: Any, results: Any,
) -> None:  # fmt: skip
    import uvloop

    go.wait()
    results.put(uvloop.run(send(host, port, attack, sources, seconds, rate)))


def strangers_in_process(
    host: str, port: int, attack: Attack, sources: list[str], seconds: float, rate: float
) -> tuple[Any, Any, mp.process.BaseProcess]:
    """Starts the strangers in a process of their own; returns (go event, result queue,
    process). Set go to start them; the queue then yields their Strangers tally."""
    ctx = mp.get_context("spawn")
    go, results = ctx.Event(), ctx.Queue()
    proc = ctx.Process(
        target=_worker, args=(host, port, attack, sources, seconds, rate, go, results),
        daemon=True,
    )  # fmt: skip
    proc.start()
    return go, results, proc


async def refusal_rates(
    host: str, port: int, attack: Attack, source: str, count: int
) -> dict[str, float]:
    """Returns refusals per second of each kind, `count` sent one after another on one
    keep-alive connection from `source` (each must get its refusal): in ROUNDS rounds that
    take the kinds in turn, each kind's best round, so that a moment the machine spent
    elsewhere falls in one round of one kind, not in its figure."""
    rates: dict[str, float] = dict.fromkeys(KINDS, 0.0)
    each = max(1, count // ROUNDS)
    conn = await BoundConnection(host, port, source).open()
    try:
        for _ in range(ROUNDS):
            for kind in KINDS:
                started = time.perf_counter()
                for _ in range(each):
                    answer = await _answer(conn, *attack.request(kind))
                    if answer != EXPECTED[kind]:
                        raise HttpError(f"{kind}: answered {answer}, not {EXPECTED[kind]}")
                rate = round(each / (time.perf_counter() - started))
                rates[kind] = max(rates[kind], rate)
    finally:
        conn.close()
    return rates


async def _measure(a: argparse.Namespace, port: int) -> dict[str, Any]:
    host = "127.0.0.1"
    sources = [f"127.0.0.{2 + n}" for n in range(a.strangers)]
    attack = await prepare(host, port, sources[0], most=a.stranger_moves)
    rates = await refusal_rates(host, port, attack, sources[0], a.count)
    plain = rates["plain_move"]
    quiet = await play_phase(host, port, "quiet", a.matches, a.moves, a.think)
    seconds = quiet.seconds * 1.5 + 3
    go, results, proc = strangers_in_process(host, port, attack, sources, seconds, a.rate)
    loop = asyncio.get_running_loop()
    go.set()
    await asyncio.sleep(1.0)
    flooded = await play_phase(host, port, "strangers", a.matches, a.moves, a.think)
    tally: Strangers = await loop.run_in_executor(None, results.get, True, seconds + 60)
    await loop.run_in_executor(None, proc.join, 10)
    return {
        "stranger_match": {"events": attack.last, "max_log_bytes": a.max_log_bytes},
        "refusals_per_s": rates,
        "refusals_vs_plain_refused_move": {kind: round(r / plain, 2) for kind, r in rates.items()},
        "phases": [quiet.row(), flooded.row()],
        "p99_ratio": round(flooded.percentile(0.99) / quiet.percentile(0.99), 2),
        "strangers": {
            "addresses": sources,
            "requests": tally.requests,
            "requests_per_s": round(tally.requests / tally.seconds),
            "answers": dict(tally.answers.most_common()),
        },
        "failures": quiet.failures + flooded.failures,
    }


def main(argv: list[str] | None = None) -> None:
    """Runs the measurement against a refereeing relay of its own; prints JSON."""
    p = argparse.ArgumentParser(prog="python -m bench.stranger", description=__doc__)
    p.add_argument("--count", type=int, default=2000, help="refusals timed of each kind")
    p.add_argument("--strangers", type=int, default=4, help="stranger addresses")
    p.add_argument("--rate", type=float, default=0.0, help="requests a second per address")
    p.add_argument("--matches", type=int, default=10, help="normal matches played at once")
    p.add_argument("--moves", type=int, default=200, help="moves in each normal match")
    p.add_argument("--think", type=float, default=0.02, help="seconds a normal player thinks")
    p.add_argument(
        "--max-log-bytes", type=int, default=262_144, help="the relay's own (0: not set)"
    )
    p.add_argument(
        "--stranger-moves", type=int, default=10_000, help="most moves in the stranger's match"
    )
    p.add_argument("--store", default="memory", help="the relay's --store")
    p.add_argument(
        "--requests-per-second", type=int, default=1000, help="the relay's per-address limit"
    )
    a = p.parse_args(argv)
    relay_args = [
        "--store", a.store, "--no-access-log", "--log-level", "warning",
        "--requests-per-second", str(a.requests_per_second), "--seeks-per-minute", "600",
        "--referee", GAME,
    ]  # fmt: skip
    if a.max_log_bytes:
        relay_args += ["--max-log-bytes", str(a.max_log_bytes)]
    measure_and_print(relay_args, functools.partial(_measure, a), module="bench.refereed")


if __name__ == "__main__":
    main()
