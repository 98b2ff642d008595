"""The real hosting stack for tests: relay workers as the shipped systemd unit runs them, and
nginx and Apache with the shipped site configs (ports and paths templated to a temp dir)."""

from __future__ import annotations

import contextlib
import http.client
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType

from tests.support.relay_process import free_port
from tests.support.relay_zygote import run
from tests.support.tls import authority

__all__ = [
    "DEPLOY",
    "Apache",
    "Nginx",
    "Workers",
    "make_pages",
    "nginx_stack",
    "render",
    "templated",
    "unit_command",
    "unix_get",
]

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "systemd" / "movewire-relay.service"
RUN_DIR = "/run/movewire/"
"""Where the shipped configs put the relays' sockets; tests put them in a temp dir."""
PAGES = "/opt/movewire/pages"
"""Where the shipped configs find the web pages."""
SNAKEOIL_CERT = "/etc/ssl/certs/ssl-cert-snakeoil.pem"
SNAKEOIL_KEY = "/etc/ssl/private/ssl-cert-snakeoil.key"
"""The certificate the shipped sites serve HTTPS with until certbot installs its own."""


def _temp_dir(prefix: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)  # the web server's workers (www-data) reach the sockets through it
    return path


def make_pages() -> Path:
    """Returns the relay's web pages, its own and its games', copied as a host does (`python -m
    relay --copy-pages DIR`) into a folder that the web server (www-data) can read."""
    pages = _temp_dir("movewire-pages-") / "pages"
    copied = run([sys.executable, "-m", "relay", "--copy-pages", str(pages)], cwd=ROOT, timeout=60)
    copied.check_returncode()
    for path in [pages, *pages.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return pages


def render(kind: str, workers: int = 2, prefix: str = "") -> str:
    """Returns a deploy file as `python3 deploy/configure.py` writes it for a host."""
    args = [sys.executable, str(DEPLOY / "configure.py"), kind, "--workers", str(workers)]
    if prefix:
        args += ["--prefix", prefix]
    done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=True)
    return done.stdout


def templated(text: str, replacements: dict[str, str]) -> str:
    """Returns a deploy file with each text replaced; every one must be there."""
    for old, new in replacements.items():
        assert old in text, f"{old!r} is no longer in the deploy file: update the hosting tests"
        text = text.replace(old, new)
    return text


def unit_command(sockets: Path, redis_url: str, *extra: str, unit: str | None = None) -> list[str]:
    """Returns the ExecStart command of the systemd unit (the shipped one unless given),
    made to run here: this Python, sockets in `sockets`, the test's Redis."""
    text = UNIT.read_text() if unit is None else unit
    lines = text.replace("\\\n", " ").splitlines()
    exec_start = next(line for line in lines if line.startswith("ExecStart="))
    args = shlex.split(exec_start.removeprefix("ExecStart="))
    assert args[1:4] == ["-P", "-m", "relay"], args
    args[0] = sys.executable
    args = [arg.replace(RUN_DIR, f"{sockets}/") for arg in args]
    args[args.index("--store") + 1] = redis_url
    return [*args, *extra]


class _UnixHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection over a unix socket."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self.path)
        except OSError:
            sock.close()
            raise
        self.sock = sock


def unix_get(path: str | Path, target: str, timeout: float = 2.0) -> tuple[int, bytes]:
    """Sends GET target to the relay on a unix socket; returns status and body."""
    connection = _UnixHTTPConnection(str(path), timeout)
    try:
        connection.request("GET", target)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def _wait_for(ready: object, what: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Waits until ready() is true; otherwise stops the process (by PID) and raises."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}: {_tail(log)}")
        assert callable(ready)
        if ready():
            return
        time.sleep(0.05)
    _stop(proc, signal.SIGTERM, 30)
    raise RuntimeError(f"{what} did not come up in 20 s: {_tail(log)}")


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-3000:]
    except OSError:
        return ""


def _stop(proc: subprocess.Popen[bytes] | None, sig: int, timeout: float) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class Workers:
    """`python -m relay --workers N` as the systemd unit runs it, on sockets in a temp dir."""

    def __init__(self, redis_url: str, *extra: str, unit: str | None = None) -> None:
        self.dir = _temp_dir("movewire-run-")
        self.command = unit_command(self.dir, redis_url, *extra, unit=unit)
        self.count = int(self.command[self.command.index("--workers") + 1])
        given = [i for i, arg in enumerate(self.command) if arg == "--prefix"]
        self.prefix = self.command[given[-1] + 1] if given else ""
        self.log_path = self.dir / "relay.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def sockets(self) -> list[Path]:
        """Returns each worker's socket, worker 1 first."""
        return [self.dir / f"relay-{number}.sock" for number in range(1, self.count + 1)]

    def healthy(self) -> bool:
        """Returns whether every worker answers /healthz."""
        try:
            healthz = f"{self.prefix}/healthz"
            return all(unix_get(path, healthz)[0] == 200 for path in self.sockets)
        except OSError:
            return False

    def start(self) -> Workers:
        """Starts the supervisor (sockets open to all, as www-data must reach them here).

        The unit's `python -P` keeps the working folder off the path, so PYTHONPATH names
        this checkout: the relay under test is its sources, whatever else is installed (an
        editable install of another checkout, say)."""
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": path},
                stdout=log,
                stderr=subprocess.STDOUT,
                umask=0,
            )
        _wait_for(self.healthy, "relay workers", self.proc, self.log_path)
        return self

    def pids(self) -> dict[Path, int]:
        """Returns the PID of the worker on each socket (from /proc)."""
        assert self.proc is not None
        found: dict[Path, int] = {}
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        for pid in map(int, children.split()):
            try:
                args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"--unix" not in args:
                continue  # forked and not yet running the relay (it has its parent's args)
            where = len(args) - 1 - args[::-1].index(b"--unix")
            found[Path(args[where + 1].decode())] = pid
        return found

    def wait_restarted(self, socket_path: Path, old_pid: int, timeout: float = 15.0) -> int:
        """Returns the PID of the worker on socket_path once it is not old_pid and answers."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.pids().get(socket_path)
            if pid not in (None, old_pid) and self.healthy():
                assert pid is not None
                return pid
            time.sleep(0.1)
        raise AssertionError(f"worker on {socket_path} was not restarted: {self.log()}")

    def moves_by_worker(self) -> list[float]:
        """Returns the moves each worker accepted (its relay_moves_relayed_total)."""
        counts = []
        for path in self.sockets:
            status, body = unix_get(path, f"{self.prefix}/metrics")
            assert status == 200
            line = next(
                line
                for line in body.decode().splitlines()
                if line.startswith("relay_moves_relayed_total ")
            )
            counts.append(float(line.split()[1]))
        return counts

    def log(self) -> str:
        """Returns what the supervisor and workers printed."""
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        """Stops the supervisor by PID (it stops its workers) and removes the temp dir."""
        _stop(self.proc, signal.SIGTERM, 40)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Workers:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def _certificate(folder: Path, present: bool) -> tuple[str, str]:
    """Returns the certificate and key files a site names: the tests' CA's, or, when not
    present, files in folder that do not exist."""
    if not present:
        return str(folder / "missing-cert.pem"), str(folder / "missing-key.pem")
    tls = authority()
    return str(tls.cert), str(tls.key)


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _unix_open(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(0.5)
        try:
            sock.connect(str(path))
        except OSError:
            return False
        return True


class Nginx:
    """nginx running the shipped site on a free port, proxying to `workers`' sockets (or a
    site of the test's own, listening on port 80, which becomes the free port, or with
    `inside`, a unix socket: `socket`)."""

    def __init__(
        self,
        binary: str,
        workers: Workers | None,
        pages: Path,
        *,
        site: str | None = None,
        certificate: bool = True,
        inside: Sequence[str] = (),
    ) -> None:
        """certificate: False names certificate files that do not exist. inside: a command
        prefix that runs nginx elsewhere (another network namespace); nginx then listens on
        `socket`, which the test reaches from its own namespace."""
        self.binary = binary
        self.inside = list(inside)
        self.pages = pages
        """The pages folder nginx serves."""
        self.dir = _temp_dir("movewire-nginx-")
        self.port = free_port()
        self.tls_port = free_port()
        self.socket = self.dir / "nginx.sock"
        """The unix socket nginx listens on, with `inside`."""
        here = f"unix:{self.socket}" if self.inside else f"127.0.0.1:{self.port}"
        replacements = {
            "listen 80;": f"listen {here};",
            "listen [::]:80;": "",
            PAGES: str(pages),
        }
        if workers is not None:
            replacements[RUN_DIR] = f"{workers.dir}/"
        site = site or (DEPLOY / "nginx" / "movewire.conf").read_text()
        if "listen 443 ssl http2;" in site:  # the shipped site: HTTPS with the tests' CA
            cert, key = _certificate(self.dir, certificate)
            replacements |= {
                "listen 443 ssl http2;": f"listen 127.0.0.1:{self.tls_port} ssl http2;",
                "listen [::]:443 ssl http2;": "",
                SNAKEOIL_CERT: cert,
                SNAKEOIL_KEY: key,
            }
        site = templated(site, replacements)
        (self.dir / "site.conf").write_text(site)
        user = "user root;" if os.geteuid() == 0 else ""
        temp = "\n".join(
            f"    {kind}_temp_path {self.dir}/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.dir / "nginx.conf").write_text(
            f"""{user}
worker_processes 2;
daemon off;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {self.dir}/access.log;
    log_format forwarded '$status "$upstream_addr" "$upstream_http_content_type" "$request"';
    access_log {self.dir}/forwarded.log forwarded;
{temp}
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    include {self.dir}/site.conf;
}}
"""
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Returns nginx's base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def https_url(self) -> str:
        """Returns nginx's HTTPS base URL (the shipped site only)."""
        return f"https://127.0.0.1:{self.tls_port}"

    def check(self) -> subprocess.CompletedProcess[str]:
        """Returns `nginx -t` run on the config."""
        return subprocess.run(
            [self.binary, "-t", "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )

    def start(self) -> Nginx:
        """Starts nginx in the foreground and waits for its port."""
        log = self.dir / "stderr.log"
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [
                    *self.inside,
                    self.binary,
                    "-p",
                    str(self.dir),
                    "-c",
                    str(self.dir / "nginx.conf"),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        if self.inside:
            _wait_for(lambda: _unix_open(self.socket), "nginx", self.proc, log)
        else:
            _wait_for(lambda: _port_open(self.port), "nginx", self.proc, log)
        return self

    def error_log(self) -> str:
        """Returns nginx's error log."""
        return _tail(self.dir / "error.log")

    @property
    def forwarded_log(self) -> Path:
        """Returns the log of every request: status, the relay sockets it went to, the
        relay's Content-Type (when one answered), request line."""
        return self.dir / "forwarded.log"

    def stop(self) -> None:
        """Stops nginx by PID and removes its temp dir."""
        _stop(self.proc, signal.SIGTERM, 10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Nginx:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


APACHE_MODULES = [
    "mpm_event",
    "authz_core",
    "authz_host",
    "log_config",
    "mime",
    "dir",
    "headers",
    "proxy",
    "proxy_http",
    "proxy_balancer",
    "lbmethod_byrequests",
    "slotmem_shm",
    "filter",
    "deflate",
    "macro",
    "ssl",
    "socache_shmcb",
    "http2",
]
"""The modules the shipped Apache site needs (docs/hosting.md says which to a2enmod)."""


class Apache:
    """Apache httpd running the shipped site on a free port, proxying to `workers`' sockets."""

    def __init__(
        self,
        binary: str,
        workers: Workers,
        pages: Path,
        *,
        site: str | None = None,
        certificate: bool = True,
        inside: Sequence[str] = (),
    ) -> None:
        """certificate: False names certificate files that do not exist. inside: a command
        prefix that runs nginx elsewhere (another network namespace); nginx then listens on
        `socket`, which the test reaches from its own namespace."""
        self.binary = binary
        self.inside = list(inside)
        self.dir = _temp_dir("movewire-apache-")
        self.port = free_port()
        self.tls_port = free_port()
        cert, key = _certificate(self.dir, certificate)
        site = templated(
            site or (DEPLOY / "apache" / "movewire.conf").read_text(),
            {
                "<VirtualHost *:80>": f"<VirtualHost *:{self.port}>",
                "<VirtualHost *:443>": f"<VirtualHost *:{self.tls_port}>",
                SNAKEOIL_CERT: cert,
                SNAKEOIL_KEY: key,
                RUN_DIR: f"{workers.dir}/",
                PAGES: str(pages),
            },
        )
        (self.dir / "site.conf").write_text(site)
        modules = "\n".join(
            f"<IfModule !{name}_module>\n"
            f"    LoadModule {name}_module /usr/lib/apache2/modules/mod_{name}.so\n"
            "</IfModule>"
            for name in APACHE_MODULES
        )
        user = "User www-data\nGroup www-data" if os.geteuid() == 0 else ""
        (self.dir / "httpd.conf").write_text(
            f"""ServerRoot {self.dir}
{modules}
{user}
ServerName localhost
Listen 127.0.0.1:{self.port}
Listen 127.0.0.1:{self.tls_port}
PidFile {self.dir}/httpd.pid
DefaultRuntimeDir {self.dir}
ErrorLog {self.dir}/error.log
LogLevel warn
TypesConfig /etc/mime.types
Define APACHE_LOG_DIR {self.dir}
LogFormat "%>s \\"%{{BALANCER_WORKER_NAME}}e\\" \\"%{{Content-Type}}o\\" \\"%r\\"" forwarded
GlobalLog {self.dir}/forwarded.log forwarded
Include {self.dir}/site.conf
"""
        )
        (self.dir / "httpd.conf").chmod(0o644)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Returns Apache's base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def https_url(self) -> str:
        """Returns Apache's HTTPS base URL."""
        return f"https://127.0.0.1:{self.tls_port}"

    def check(self, apache2ctl: str) -> subprocess.CompletedProcess[str]:
        """Returns `apache2ctl -t` run on the config."""
        return subprocess.run(
            [apache2ctl, "-t", "-f", str(self.dir / "httpd.conf")],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )

    def start(self) -> Apache:
        """Starts httpd in the foreground and waits for its port."""
        log = self.dir / "stderr.log"
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [self.binary, "-f", str(self.dir / "httpd.conf"), "-DFOREGROUND"],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        _wait_for(lambda: _port_open(self.port), "apache2", self.proc, log)
        return self

    def error_log(self) -> str:
        """Returns Apache's error log."""
        return _tail(self.dir / "error.log")

    @property
    def forwarded_log(self) -> Path:
        """Returns the log of every request: status, the balancer member it went to (or -),
        the answer's Content-Type, request line."""
        return self.dir / "forwarded.log"

    def stop(self) -> None:
        """Stops httpd by PID and removes its temp dir."""
        _stop(self.proc, signal.SIGTERM, 10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Apache:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


@contextlib.contextmanager
def nginx_stack(*relay_options: str) -> Iterator[tuple[Workers, Nginx]]:
    """Runs a redis-server, the systemd unit's relay workers on it (with relay_options, the
    tests' quick ones by default), and nginx with the shipped site in front of them, on a
    copy of the pages; yields the workers and nginx, and stops all three."""
    from tests.support.components import require_binary
    from tests.support.redis_server import RedisServer, redis_binary
    from tests.support.relay_process import quick_flags

    pages = make_pages()
    try:
        with (
            RedisServer(redis_binary()) as redis_server,
            Workers(redis_server.url, *(relay_options or quick_flags())) as workers,
            Nginx(require_binary("nginx", "nginx"), workers, pages) as nginx,
        ):
            yield workers, nginx
    finally:
        shutil.rmtree(pages.parent, ignore_errors=True)
