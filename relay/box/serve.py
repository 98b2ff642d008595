"""The supervisor's HTTP server of the box's /metrics: each scrape asks every worker at once
(on its socket or port) and answers the sum (relay/box/totals.py)."""

from __future__ import annotations

import http.client
import logging
import os
import socket
import socketserver
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from relay.box.totals import BoxTotals, Family, parse

__all__ = ["ASK_TIMEOUT", "CONTENT_TYPE", "Address", "BoxServer", "ask"]

log = logging.getLogger("relay.box")

Address = str | tuple[str, int]
"""A unix socket's path, or a host and TCP port."""

ASK_TIMEOUT = 3.0
"""Seconds a worker has to answer the box's scrape (Prometheus waits 10 s by default)."""

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class _UnixHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection over a unix socket."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self) -> None:
        """Connects to the unix socket."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self.unix_path)
        except OSError:
            sock.close()
            raise
        self.sock = sock


def ask(address: Address, path: str) -> dict[str, Family] | None:
    """Returns the metrics families the worker at address answers at path, or None when it
    does not answer 200 with Prometheus text in time."""
    if isinstance(address, str):
        connection: http.client.HTTPConnection = _UnixHTTPConnection(address, ASK_TIMEOUT)
    else:
        connection = http.client.HTTPConnection(*address, timeout=ASK_TIMEOUT)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        body = answer.read()
        if answer.status != 200:
            log.warning("worker at %s answered %d to %s", address, answer.status, path)
            return None
        return parse(body.decode())
    except (OSError, http.client.HTTPException, ValueError) as exc:
        log.warning("worker at %s did not answer %s: %s", address, path, exc)
        return None
    finally:
        connection.close()


class _Handler(BaseHTTPRequestHandler):
    """Answers GET of the box's metrics path; 404 to anything else."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        """Answers the box's metrics, or 503 when no worker answers."""
        box = getattr(self.server, "box", None)
        assert isinstance(box, BoxServer)
        if self.path.partition("?")[0] != box.path:
            self._answer(404, b"Not found: the supervisor serves only the box's metrics.\n")
            return
        body = box.scrape()
        if body is None:
            self._answer(503, b"No relay worker answered.\n")
        else:
            self._answer(200, body, CONTENT_TYPE)

    def _answer(self, status: int, body: bytes, content_type: str = "text/plain") -> None:
        self.send_response_only(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Logs nothing: the web server in front keeps the access log."""


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    box: BoxServer


class _TCPServer(ThreadingHTTPServer):
    daemon_threads = True
    box: BoxServer

    def server_bind(self) -> None:
        """Binds without looking the host's name up (HTTPServer's getfqdn may hang)."""
        socketserver.TCPServer.server_bind(self)


class _TCP6Server(_TCPServer):
    address_family = socket.AF_INET6


class BoxServer:
    """Serves the box's metrics at `path` on `listen`, from the workers at `targets` (by
    number, 1..N), in a thread of its own."""

    def __init__(self, listen: Address, targets: dict[int, Address], path: str) -> None:
        self.listen = listen
        self.targets = targets
        self.path = path
        self.totals = BoxTotals(len(targets))
        self._pool = ThreadPoolExecutor(len(targets), thread_name_prefix="relay-box")
        self._server: socketserver.BaseServer | None = None

    def scrape(self) -> bytes | None:
        """Returns the box's metrics, or None when no worker answers."""
        return self.totals.scrape(self._ask_all)

    def exited(self, number: int) -> None:
        """Keeps the last totals of worker `number`, which exited (before it starts again)."""
        self.totals.exited(number)

    def _ask_all(self) -> dict[int, dict[str, Family]]:
        asked = {n: self._pool.submit(ask, where, self.path) for n, where in self.targets.items()}
        answers = {number: future.result() for number, future in asked.items()}
        return {number: families for number, families in answers.items() if families is not None}

    def start(self) -> None:
        """Listens (a stale socket file is replaced) and serves in a daemon thread; raises
        OSError when it cannot listen."""
        server: socketserver.BaseServer
        if isinstance(self.listen, str):
            _remove_socket(self.listen)
            unix = _UnixServer(self.listen, _Handler)
            unix.box = self
            server = unix
        else:
            tcp = (_TCP6Server if ":" in self.listen[0] else _TCPServer)(self.listen, _Handler)
            tcp.box = self
            server = tcp
        self._server = server
        threading.Thread(target=server.serve_forever, name="relay-box", daemon=True).start()

    def stop(self) -> None:
        """Stops serving and removes the socket file."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
            if isinstance(self.listen, str):
                _remove_socket(self.listen)
        self._pool.shutdown(wait=False, cancel_futures=True)


def _remove_socket(path: str) -> None:
    try:
        if stat.S_ISSOCK(os.stat(path).st_mode):
            os.unlink(path)
    except FileNotFoundError:
        pass
