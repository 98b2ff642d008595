"""What a Redis replica holds after a failover that lost the last writes: a match's log cut
back to its first events, and the match's state as those events left it.

Redis replicates asynchronously, so a replica promoted after its primary died may lack the
last events the primary acknowledged. `lose_tail` makes a live match look exactly like that,
so the clients' healing can be tested without waiting on a real failover (which
tests/hosting/test_failover.py does too)."""

from __future__ import annotations

from typing import cast

import orjson
import redis

from relay.store.redis.keys import Layout

__all__ = ["lose_tail"]


def lose_tail(url: str, prefix: str, match: str, keep: int) -> None:
    """Cuts the match's log to its first `keep` events (at least `started`) and rewinds the
    match's turn, status and event count to what those events left."""
    assert keep >= 1, "the started event stays: a replica has the match if it has the seek"
    layout = Layout(prefix)
    tagged = layout.tagged(match)
    client = redis.Redis.from_url(url)
    try:
        logged = cast(list[bytes], client.lrange(f"{tagged}e:{match}", 0, keep - 1))
        events = [orjson.loads(raw) for raw in logged]
        status, turn, ender = "playing", events[0]["first"], ""
        for event in events[1:]:
            if event["type"] in ("move", "pass"):
                turn = 1 - event["seat"]
                if event.get("end"):
                    status, ender = "ending", str(event["seat"])
        old = cast(bytes | None, client.hget(layout.match(match), "status"))
        with client.pipeline(transaction=True) as pipe:
            pipe.ltrim(f"{tagged}e:{match}", 0, keep - 1)
            writes = cast(list[bytes | None], client.hmget(layout.match(match), ["w0", "w1"]))
            lost = [
                f"w{seat}"
                for seat, write in enumerate(writes)
                if write is not None and int(write.split(b"|", 1)[0]) > keep
            ]
            if lost:
                pipe.hdel(layout.match(match), *lost)
            pipe.hset(
                layout.match(match),
                mapping={"last": len(events), "turn": turn, "status": status, "ender": ender},
            )
            if old is not None and old.decode() != status:
                pipe.hincrby(f"{tagged}counts", old.decode(), -1)
                pipe.hincrby(f"{tagged}counts", status, 1)
            pipe.execute()
    finally:
        client.close()
