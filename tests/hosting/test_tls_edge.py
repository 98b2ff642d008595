"""TLS at the edge: the shipped nginx and Apache sites serve HTTPS (HTTP/2 to clients that
offer it) beside plain HTTP on port 80, with a certificate from a CA the test makes; both
SDKs check that certificate, and play a match over HTTPS once told to trust the CA."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from sdk import Reason, RelayHost, State, Timing
from tests.hosting.players import check_logs, play_matches
from tests.hosting.stack import Apache, Nginx, Workers, nginx_stack
from tests.support.components import require_binary
from tests.support.idle_game import Idle
from tests.support.tls import authority

pytestmark = pytest.mark.timeout(150)

ROOT = Path(__file__).resolve().parents[2]
MATCH_SCRIPT = ROOT / "tests" / "js" / "tls_match.mjs"


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[Workers, Nginx]]:
    """Returns two relay workers with nginx and the shipped site in front of them."""
    with nginx_stack() as found:
        yield found


@pytest.fixture(scope="module")
def edges(stack: tuple[Workers, Nginx]) -> Iterator[dict[str, tuple[str, str]]]:
    """Returns, for nginx and Apache with the shipped sites in front of two relay workers,
    their plain and HTTPS base URLs."""
    workers, nginx = stack
    apache = Apache(require_binary("apache2", "apache2"), workers, nginx.pages)
    checked = apache.check(require_binary("apache2ctl", "apache2"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with apache:
        yield {
            "nginx": (nginx.url, nginx.https_url),
            "apache": (apache.url, apache.https_url),
        }


def _curl(*args: str) -> str:
    curl = require_binary("curl", "curl")
    done = subprocess.run(
        [curl, "-s", "-o", "/dev/null", "-w", "%{http_code} %{http_version}", *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return done.stdout


@pytest.mark.parametrize("edge", ["nginx", "apache"])
def test_https_with_http2_beside_plain_http(edge: str, edges: dict[str, tuple[str, str]]) -> None:
    plain, secure = edges[edge]
    ca = str(authority().ca)
    assert _curl("--http2", "--cacert", ca, secure + "/") == "200 2"
    assert _curl("--http1.1", "--cacert", ca, secure + "/healthz") == "200 1.1"
    assert _curl(plain + "/healthz") == "200 1.1"  # plain HTTP on the other port
    # A client that does not trust the CA gets no answer at all (curl's 000).
    assert _curl(secure + "/healthz").startswith("000")


@pytest.mark.parametrize("edge", ["nginx", "apache"])
def test_port_80_stands_without_the_certificate_files(
    edge: str, stack: tuple[Workers, Nginx]
) -> None:
    workers, nginx = stack
    server: Nginx | Apache
    if edge == "nginx":
        server = Nginx(nginx.binary, workers, nginx.pages, certificate=False)
    else:
        server = Apache(
            require_binary("apache2", "apache2"), workers, nginx.pages, certificate=False
        )
    try:
        checked = (
            server.check()
            if isinstance(server, Nginx)
            else server.check(require_binary("apache2ctl", "apache2"))
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        with server:
            assert _curl(server.url + "/healthz") == "200 1.1"
            assert _curl("--insecure", server.https_url + "/healthz").startswith("000")
    finally:
        server.stop()


@pytest.mark.parametrize("edge", ["nginx", "apache"])
def test_weak_tls_1_2_suites_are_refused(edge: str, edges: dict[str, tuple[str, str]]) -> None:
    _, secure = edges[edge]
    ca = str(authority().ca)
    tls12 = ("--http1.1", "--tlsv1.2", "--tls-max", "1.2", "--cacert", ca)
    assert _curl(*tls12, "--ciphers", "ECDHE-RSA-AES128-GCM-SHA256", secure + "/healthz") == (
        "200 1.1"
    )
    # CBC suites without forward secrecy, and CBC with SHA-1, are no longer offered.
    for weak in ("AES128-SHA", "AES256-SHA256", "ECDHE-RSA-AES128-SHA", "AES128-GCM-SHA256"):
        assert _curl(*tls12, "--ciphers", weak, secure + "/healthz").startswith("000"), weak


@pytest.mark.parametrize("edge", ["nginx", "apache"])
async def test_the_python_sdk_checks_the_certificate_and_plays_over_https(
    edge: str, edges: dict[str, tuple[str, str]]
) -> None:
    plain, secure = edges[edge]
    # Not told to trust the test's CA, the host refuses the relay's certificate.
    brief = Timing(request_timeout=2.0, backoff_base=0.05, backoff_cap=0.2, first_contact=1.0)
    host = RelayHost(secure, "tls-refused", Idle, timing=brief, dialog=lambda _: None)
    outcome = await host.play()
    assert outcome.reason is Reason.CONNECTION_LOST
    assert "ClientConnectorCertificateError" in outcome.message, outcome.message
    assert host.state is State.NOT_CONNECTED
    # Trusting it, ten matches are played over HTTPS, every move delivered once.
    run = await play_matches(secure, 10, f"tls-{edge}", tls=authority().context())
    await check_logs(plain, run, 10)


@pytest.mark.parametrize("edge", ["nginx", "apache"])
def test_the_javascript_host_checks_the_certificate_and_plays_over_https(
    edge: str, edges: dict[str, tuple[str, str]]
) -> None:
    node = require_binary("node", "nodejs")
    _, secure = edges[edge]

    def play(extra: dict[str, str]) -> dict[str, object]:
        env = {key: value for key, value in os.environ.items() if key != "NODE_EXTRA_CA_CERTS"}
        done = subprocess.run(
            [node, "--import", "./tests/js/served.mjs", str(MATCH_SCRIPT)],
            cwd=ROOT,
            env={**env, "MOVEWIRE_RELAY": secure, **extra},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.stdout.strip(), done.stderr
        found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        return found

    refused = play({})
    assert refused.get("started") is False, refused
    # Node's fetch (the host's) names why: the certificate is signed by a CA it does not know.
    assert refused["refusal"] == "UNABLE_TO_VERIFY_LEAF_SIGNATURE", refused
    played = play({"NODE_EXTRA_CA_CERTS": str(authority().ca)})
    assert played.get("started") is True and played["refusal"] == "", played
    outcomes = played["outcomes"]
    assert isinstance(outcomes, list)
    assert sorted(o["result"] for o in outcomes) == ["lost", "won"], played
    assert {o["reason"] for o in outcomes} == {"agreed"}, played
