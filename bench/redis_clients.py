"""Redis clients side by side: CPU per move-like EVALSHA and per pub/sub message, node and cluster.

`python -m bench.redis_clients [--quick]` starts its own redis-server and a 3-master cluster on
free loopback ports, runs every row of every client in a fresh child process (so one client's
threads and leftovers never count against another), and prints one table: the client process's
CPU µs per operation (`time.process_time()`, all its threads) and redis-server's (from
/proc/PID/task/*/schedstat, all nodes summed), and how many connections the client held."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

__all__ = ["CLIENTS", "MOVE_SCRIPT", "ROWS", "main"]

MOVE_SCRIPT = """
local got = redis.call('HMGET', KEYS[1], 'turn', 'seq', 'seat0', 'seat1')
local n = redis.call('RPUSH', KEYS[2], ARGV[1] .. ARGV[2] .. ARGV[3])
if n > 64 then redis.call('LTRIM', KEYS[2], -32, -1) end
redis.call('HSET', KEYS[1], 'turn', ARGV[4], 'seq', n, 'at', ARGV[5], 'by', ARGV[6])
redis.call('SPUBLISH', KEYS[3], n)
return n
"""
"""A move's shape: read the match hash, append to its log, update the hash, notify its channel."""

CLIENTS = ("redis-py+hiredis", "coredis", "valkey-glide")
ROWS = (
    "EVALSHA, one at a time",
    "EVALSHA, 100 concurrent tasks",
    "EVALSHA, pipeline of 100",
    "cluster EVALSHA, one at a time",
    "cluster EVALSHA, 100 concurrent tasks",
    "cluster EVALSHA, pipeline of 100",
    "receive, SUBSCRIBE 1000 channels",
    "receive, SSUBSCRIBE 1000 channels",
    "cluster receive, SSUBSCRIBE 1000 channels",
    "SUBSCRIBE+UNSUBSCRIBE, batches of 100",
    "cluster SSUBSCRIBE+SUNSUBSCRIBE, batches of 100",
)
ROOT = Path(__file__).resolve().parents[1]
CHANNELS = 1000
BATCH = 100
TASKS = 100


class Unsupported(Exception):
    """Raised when a client cannot do a row; the message says why."""


# ---------------------------------------------------------------- servers


def _free_port(cluster: bool) -> int:
    """Returns a free loopback port; for a cluster node, one whose bus port (+10000) is free too."""
    while True:
        port = random.randint(20000, 55535) if cluster else 0
        with socket.socket() as sock, socket.socket() as bus:
            try:
                sock.bind(("127.0.0.1", port))
                if cluster:
                    bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
            free: int = sock.getsockname()[1]
            return free


@dataclass
class Node:
    """One redis-server process of the bench."""

    port: int
    proc: subprocess.Popen[bytes]

    def client(self) -> redis.Redis:
        """Returns a plain synchronous client of this node."""
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)


def _start_node(dir: Path, *, cluster: bool) -> Node:
    port = _free_port(cluster)
    here = dir / str(port)
    here.mkdir()
    args = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(here),
            "--save", "", "--appendonly", "no", "--logfile", str(here / "redis.log")]  # fmt: skip
    if cluster:
        args += ["--cluster-enabled", "yes", "--cluster-config-file", str(here / "nodes.conf"),
                 "--cluster-node-timeout", "1000"]  # fmt: skip
    node = Node(port, subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and node.proc.poll() is None:
        try:
            if node.client().ping():
                return node
        except redis.RedisError:
            time.sleep(0.02)
    node.proc.kill()
    log = (here / "redis.log").read_text(errors="replace")[-1000:]
    raise RuntimeError(f"redis-server on port {port} did not start: {log}")


@contextmanager
def servers() -> Iterator[tuple[list[Node], list[Node]]]:
    """Starts one standalone redis-server and a 3-master cluster; stops them by PID after."""
    dir = Path(tempfile.mkdtemp(prefix="movewire-bench-redis-"))
    nodes: list[Node] = []
    try:
        nodes.append(_start_node(dir, cluster=False))
        for _ in range(3):
            nodes.append(_start_node(dir, cluster=True))  # one by one: a failure stops those before
        masters = nodes[1:]
        subprocess.run(
            ["redis-cli", "--cluster", "create", *(f"127.0.0.1:{m.port}" for m in masters),
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=30,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while not all(_cluster_ok(m) for m in masters):
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not reach cluster_state:ok")
            time.sleep(0.05)
        for node in nodes:
            node.client().script_load(MOVE_SCRIPT)
        yield nodes[:1], masters
    finally:
        for node in nodes:
            node.proc.kill()
            node.proc.wait(10)
        shutil.rmtree(dir, ignore_errors=True)


def _cluster_ok(node: Node) -> bool:
    info = node.client().execute_command("CLUSTER INFO")  # type: ignore[no-untyped-call]
    return bool(info.get("cluster_state") == "ok")


def server_cpu_ns(pids: Sequence[int]) -> int:
    """Returns the CPU nanoseconds all threads of the processes have run so far."""
    total = 0
    for pid in pids:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
    return total


def connections(ports: Sequence[int]) -> int:
    """Returns the clients connected to the nodes, less the one asking each node."""
    total = 0
    for port in ports:
        info: dict[str, Any] = redis.Redis(host="127.0.0.1", port=port).info("clients")  # type: ignore[assignment, unused-ignore]
        total += int(info["connected_clients"]) - 1
    return total


# ---------------------------------------------------------------- clients


def _move_call(i: int) -> tuple[list[str], list[str]]:
    tag = f"{{m{i % 1000}}}"
    keys = [f"{tag}:match", f"{tag}:log", f"{tag}:ch"]
    args = ["move", "|", "e2e4-opaque-move", str(i % 2), "1700000000.123", "0", "x", "y", "z"]
    return keys, args


def _optional(name: str) -> Any:
    """Returns a client library of the bench extra, typed Any: the relay's type check needs none."""
    return importlib.import_module(name)


class Client:
    """What one client library is asked to do; a method it cannot do raises Unsupported."""

    name = ""

    async def connect(self, ports: Sequence[int], cluster: bool) -> None:
        """Connects to the node (or the cluster) at the first port."""
        raise NotImplementedError

    async def close(self) -> None:
        """Closes every connection."""
        raise NotImplementedError

    async def evalsha(self, sha: str, keys: list[str], args: list[str]) -> Any:
        """Runs the move script once, awaited."""
        raise NotImplementedError

    async def pipeline(self, sha: str, calls: list[tuple[list[str], list[str]]]) -> Any:
        """Runs the move script once per call, in one explicit pipeline (not a transaction)."""
        raise NotImplementedError

    async def subscriber(self, sharded: bool) -> Subscriber:
        """Returns a subscriber (SSUBSCRIBE when sharded) or raises Unsupported saying why."""
        raise NotImplementedError


class Subscriber:
    """One subscribing connection (or the client's own pub/sub machinery)."""

    async def subscribe(self, channels: list[str]) -> None:
        """Subscribes to the channels in one command, and waits for the confirmations."""
        raise NotImplementedError

    async def unsubscribe(self, channels: list[str]) -> None:
        """Unsubscribes from the channels in one command, and waits for the confirmations."""
        raise NotImplementedError

    async def message(self) -> bool:
        """Waits for the next delivery; returns True when it was a published message."""
        raise NotImplementedError

    async def close(self) -> None:
        """Closes the subscription."""
        raise NotImplementedError


class RedisPy(Client):
    name = "redis-py+hiredis"

    async def connect(self, ports: Sequence[int], cluster: bool) -> None:
        import redis.asyncio as aredis
        from redis.utils import HIREDIS_AVAILABLE

        assert HIREDIS_AVAILABLE, "hiredis is not installed"
        self.cluster = cluster
        self.r: Any = (
            aredis.RedisCluster(host="127.0.0.1", port=ports[0], max_connections=2**31)
            if cluster
            else aredis.Redis(host="127.0.0.1", port=ports[0])
        )
        await self.r.ping()

    async def close(self) -> None:
        await self.r.aclose()

    async def evalsha(self, sha: str, keys: list[str], args: list[str]) -> Any:
        return await self.r.evalsha(sha, len(keys), *keys, *args)

    async def pipeline(self, sha: str, calls: list[tuple[list[str], list[str]]]) -> Any:
        async with self.r.pipeline(transaction=False) as pipe:
            for keys, args in calls:
                # A cluster pipeline refuses pipe.evalsha() ("blocked in cluster mode"), not this.
                pipe.execute_command("EVALSHA", sha, len(keys), *keys, *args)
            return await pipe.execute()

    async def subscriber(self, sharded: bool) -> Subscriber:
        if self.cluster:
            raise Unsupported("redis.asyncio.RedisCluster has no pubsub() (only the sync client)")
        if sharded:
            raise Unsupported("redis.asyncio PubSub has no ssubscribe() (only the sync client)")
        return RedisPySubscriber(self.r.pubsub())


class RedisPySubscriber(Subscriber):
    def __init__(self, pubsub: Any) -> None:
        self.p = pubsub
        self.acks = 0

    async def subscribe(self, channels: list[str]) -> None:
        await self.p.subscribe(*channels)
        await self._acks(len(channels))

    async def unsubscribe(self, channels: list[str]) -> None:
        await self.p.unsubscribe(*channels)
        await self._acks(len(channels))

    async def _acks(self, n: int) -> None:
        # redis-py sends (UN)SUBSCRIBE without waiting: read the confirmations, as a store must.
        while self.acks < n:
            message = await self.p.get_message(timeout=5)
            if message is None:
                raise TimeoutError("no (un)subscribe confirmation")
            self.acks += message["type"] in ("subscribe", "unsubscribe")
        self.acks -= n

    async def message(self) -> bool:
        message = await self.p.get_message(timeout=5)
        if message is None:
            raise TimeoutError("no message")
        return bool(message["type"] == "message")

    async def close(self) -> None:
        await self.p.aclose()


class Coredis(Client):
    name = "coredis"

    async def connect(self, ports: Sequence[int], cluster: bool) -> None:
        coredis = _optional("coredis")
        self.cluster = cluster
        self.r: Any = (
            coredis.RedisCluster(host="127.0.0.1", port=ports[0])
            if cluster
            else coredis.Redis(host="127.0.0.1", port=ports[0])
        )
        await self.r.__aenter__()
        await self.r.ping()

    async def close(self) -> None:
        await self.r.__aexit__(None, None, None)

    async def evalsha(self, sha: str, keys: list[str], args: list[str]) -> Any:
        return await self.r.evalsha(sha, keys=keys, args=args)

    async def pipeline(self, sha: str, calls: list[tuple[list[str], list[str]]]) -> Any:
        async with self.r.pipeline(transaction=False) as pipe:
            futures = [pipe.evalsha(sha, keys=keys, args=args) for keys, args in calls]
        return [await future for future in futures]

    async def subscriber(self, sharded: bool) -> Subscriber:
        if sharded and not self.cluster:
            raise Unsupported("coredis.Redis has no sharded_pubsub() (RedisCluster only)")
        pubsub = self.r.sharded_pubsub() if sharded else self.r.pubsub()
        await pubsub.__aenter__()
        return CoredisSubscriber(pubsub)


class CoredisSubscriber(Subscriber):
    def __init__(self, pubsub: Any) -> None:
        self.p = pubsub

    async def subscribe(self, channels: list[str]) -> None:
        await self.p.subscribe(*channels)  # waits for every confirmation

    async def unsubscribe(self, channels: list[str]) -> None:
        await self.p.unsubscribe(*channels)

    async def message(self) -> bool:
        message = await self.p.get_message(timeout=5)
        if message is None:
            raise TimeoutError("no message")
        return bool(message["type"] in ("message", "smessage"))

    async def close(self) -> None:
        await self.p.__aexit__(None, None, None)


class Glide(Client):
    name = "valkey-glide"

    async def _create(self, ports: Sequence[int], cluster: bool) -> Any:
        glide = _optional("glide")
        address = [glide.NodeAddress("127.0.0.1", ports[0])]
        if cluster:
            config = glide.GlideClusterClientConfiguration(address)
            return await glide.GlideClusterClient.create(config)
        return await glide.GlideClient.create(glide.GlideClientConfiguration(address))

    async def connect(self, ports: Sequence[int], cluster: bool) -> None:
        self.ports, self.cluster = ports, cluster
        self.r: Any = await self._create(ports, cluster)
        self.script = _optional("glide").Script(MOVE_SCRIPT)

    async def close(self) -> None:
        await self.r.close()

    async def evalsha(self, sha: str, keys: list[str], args: list[str]) -> Any:
        # invoke_script sends EVALSHA (and loads the script on NOSCRIPT), routed by its keys.
        return await self.r.invoke_script(self.script, keys=keys, args=args)

    async def pipeline(self, sha: str, calls: list[tuple[list[str], list[str]]]) -> Any:
        glide = _optional("glide")
        batch = (glide.ClusterBatch if self.cluster else glide.Batch)(is_atomic=False)
        for keys, args in calls:
            batch.custom_command(["EVALSHA", sha, str(len(keys)), *keys, *args])
        return await self.r.exec(batch, raise_on_error=True)

    async def subscriber(self, sharded: bool) -> Subscriber:
        if sharded and not self.cluster:
            raise Unsupported("GlideClient has no ssubscribe() (GlideClusterClient only)")
        return GlideSubscriber(await self._create(self.ports, self.cluster), sharded)


class GlideSubscriber(Subscriber):
    def __init__(self, client: Any, sharded: bool) -> None:
        self.c, self.sharded = client, sharded

    async def subscribe(self, channels: list[str]) -> None:
        if self.sharded:
            await self.c.ssubscribe(set(channels), timeout_ms=5000)
        else:
            await self.c.subscribe(set(channels), timeout_ms=5000)

    async def unsubscribe(self, channels: list[str]) -> None:
        if self.sharded:
            await self.c.sunsubscribe(set(channels), timeout_ms=5000)
        else:
            await self.c.unsubscribe(set(channels), timeout_ms=5000)

    async def message(self) -> bool:
        await asyncio.wait_for(self.c.get_pubsub_message(), 5)
        return True

    async def close(self) -> None:
        await self.c.close()


CLIENT_CLASSES: dict[str, type[Client]] = {c.name: c for c in (RedisPy, Coredis, Glide)}


# ---------------------------------------------------------------- rows (run in a child process)


@dataclass
class Spec:
    """What a child process measures."""

    client: str
    row: str
    ports: list[int]
    pids: list[int]
    seconds: float
    messages: int


async def _timed(spec: Spec, body: Callable[[], Awaitable[int]]) -> dict[str, Any]:
    cpu, server = time.process_time(), server_cpu_ns(spec.pids)
    ops = await body()
    cpu, server = time.process_time() - cpu, server_cpu_ns(spec.pids) - server
    return {"ops": ops, "client_us": cpu / ops * 1e6, "server_us": server / ops / 1e3}


async def measure(spec: Spec) -> dict[str, Any]:
    """Runs one row of one client; returns its figures."""
    cluster = spec.row.startswith("cluster")
    client = CLIENT_CLASSES[spec.client]()
    await client.connect(spec.ports, cluster)
    sha = str(redis.Redis(host="127.0.0.1", port=spec.ports[0]).script_load(MOVE_SCRIPT))
    result: dict[str, Any]
    try:
        if "EVALSHA" in spec.row:
            result = await _evalsha_row(spec, client, sha)
        elif spec.row.startswith(("receive", "cluster receive")):
            result = await _receive_row(spec, client, sharded="SSUBSCRIBE" in spec.row)
        else:
            result = await _subscribe_row(spec, client, sharded="SSUBSCRIBE" in spec.row)
    finally:
        await client.close()
    return result


async def _evalsha_row(spec: Spec, client: Client, sha: str) -> dict[str, Any]:
    for i in range(200):  # warm up: connections, slot maps, script caches
        await client.evalsha(sha, *_move_call(i))
    conns: list[int] = []

    async def serial() -> int:
        deadline, n = time.monotonic() + spec.seconds, 0
        while time.monotonic() < deadline:
            for _ in range(50):
                await client.evalsha(sha, *_move_call(n))
                n += 1
        return n

    async def concurrent() -> int:
        deadline = time.monotonic() + spec.seconds

        async def task(t: int) -> int:
            n = 0
            while time.monotonic() < deadline:
                await client.evalsha(sha, *_move_call(t + TASKS * n))
                n += 1
            return n

        tasks = [asyncio.create_task(task(t)) for t in range(TASKS)]
        await asyncio.sleep(min(0.2, spec.seconds / 2))
        conns.append(connections(spec.ports))
        return sum(await asyncio.gather(*tasks))

    async def pipelined() -> int:
        deadline, n = time.monotonic() + spec.seconds, 0
        while time.monotonic() < deadline:
            await client.pipeline(sha, [_move_call(n + k) for k in range(BATCH)])
            n += BATCH
        return n

    body = {"one": serial, "100": concurrent, "pip": pipelined}[spec.row.split(", ")[1][:3]]
    result = await _timed(spec, body)
    result["connections"] = conns[0] if conns else connections(spec.ports)
    return result


def _channels() -> list[str]:
    return [f"{{m{i}}}:ch" for i in range(CHANNELS)]


async def _receive_row(spec: Spec, client: Client, sharded: bool) -> dict[str, Any]:
    sub = await client.subscriber(sharded)
    channels = _channels()
    for start in range(0, CHANNELS, BATCH):
        await sub.subscribe(channels[start : start + BATCH])
    publisher = subprocess.Popen(  # noqa: ASYNC220 (it runs beside the measured loop)
        [sys.executable, "-m", "bench.redis_clients", "--publish",
         json.dumps({"ports": spec.ports, "messages": spec.messages, "sharded": sharded})],
        cwd=ROOT,
    )  # fmt: skip

    async def receive() -> int:
        got = 0
        while got < spec.messages:
            got += await sub.message()
        return got

    try:
        result = await _timed(spec, receive)
    finally:
        publisher.wait(30)
    result["connections"] = connections(spec.ports)
    await sub.close()
    return result


async def _subscribe_row(spec: Spec, client: Client, sharded: bool) -> dict[str, Any]:
    sub = await client.subscriber(sharded)
    channels = _channels()

    async def churn() -> int:
        deadline, n = time.monotonic() + spec.seconds, 0
        while time.monotonic() < deadline:
            for start in range(0, CHANNELS, BATCH):
                await sub.subscribe(channels[start : start + BATCH])
            for start in range(0, CHANNELS, BATCH):
                await sub.unsubscribe(channels[start : start + BATCH])
            n += CHANNELS
        return n

    result = await _timed(spec, churn)
    result["connections"] = connections(spec.ports)
    await sub.close()
    return result


def publish(ports: list[int], messages: int, sharded: bool) -> None:
    """Publishes `messages` messages over the channels, in pipelines, to the node owning each."""
    from redis.crc import key_slot

    nodes = {port: redis.Redis(host="127.0.0.1", port=port) for port in ports}
    owner: dict[int, int] = {}
    if len(ports) > 1:
        slots = nodes[ports[0]].execute_command("CLUSTER SLOTS")  # type: ignore[no-untyped-call]
        for start, end, master, *_ in slots:
            for slot in range(start, end + 1):
                owner[slot] = int(master[1])
    channels = _channels()
    pipes = {port: client.pipeline(transaction=False) for port, client in nodes.items()}
    command = "SPUBLISH" if sharded else "PUBLISH"
    for i in range(messages):
        channel = channels[i % CHANNELS]
        port = owner.get(key_slot(channel.encode()), ports[0])
        pipes[port].execute_command(command, channel, f"{i}:a-notification")  # type: ignore[no-untyped-call]
        if i % BATCH == BATCH - 1:
            for pipe in pipes.values():
                pipe.execute()
    for pipe in pipes.values():
        pipe.execute()


# ---------------------------------------------------------------- the table


def run_row(spec: Spec, timeout: float) -> str | dict[str, Any]:
    """Runs one row in a child process; returns its figures, or why there are none."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.redis_clients", "--child", json.dumps(spec.__dict__)],
            capture_output=True, text=True, timeout=timeout,
            cwd=ROOT,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return f"error: timed out after {timeout:.0f} s"
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return "error: " + (done.stderr.strip().splitlines() or ["no output"])[-1][:120]
    answer: str | dict[str, Any] = json.loads(lines[-1])
    return answer


def table(results: dict[tuple[str, str], str | dict[str, Any]]) -> str:
    """Returns the results as one Markdown table, a row per measurement, clients side by side."""
    head = "| row | " + " | ".join(f"{c} client µs | server µs | conns" for c in CLIENTS) + " |"
    lines = [head, "|" + "---|" * (1 + 3 * len(CLIENTS))]
    notes: list[str] = []
    for row in ROWS:
        cells = [row]
        for name in CLIENTS:
            got = results.get((name, row), "error: not run")
            if isinstance(got, dict):
                figures = (f"{got['client_us']:.1f}", f"{got['server_us']:.1f}", got["connections"])
                cells += map(str, figures)
            else:
                notes.append(f"- {name}, {row}: {got}")
                word = "unsupported" if got.startswith("unsupported") else "error"
                cells += [word, "", ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines + (["", *notes] if notes else []))


def main(argv: Sequence[str] | None = None) -> None:
    """Measures every client on every row, and prints the table."""
    parser = argparse.ArgumentParser(prog="python -m bench.redis_clients", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run: rows of 0.2 s")
    parser.add_argument("--seconds", type=float, default=3.0, help="the length of each row")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--publish", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.publish:
        publish(**json.loads(options.publish))
        return
    if options.child:
        spec = Spec(**json.loads(options.child))
        try:
            out: str | dict[str, Any] = asyncio.run(measure(spec))
        except Unsupported as why:
            out = f"unsupported: {why}"
        print(json.dumps(out))
        return
    seconds = 0.2 if options.quick else options.seconds
    messages = 2000 if options.quick else 30000
    results: dict[tuple[str, str], str | dict[str, Any]] = {}
    with servers() as (single, masters):
        for row in ROWS:
            nodes = masters if row.startswith("cluster") else single
            for name in CLIENTS:
                spec = Spec(name, row, [n.port for n in nodes], [n.proc.pid for n in nodes],
                            seconds, messages)  # fmt: skip
                results[name, row] = run_row(spec, timeout=30 + 10 * seconds)
                print(f"{row} / {name}: {results[name, row]}", file=sys.stderr, flush=True)
    print(table(results))
    if options.json:
        rows = [{"client": c, "row": r, "result": v} for (c, r), v in results.items()]
        options.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
