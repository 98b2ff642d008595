"""A certificate authority of the tests' own, and a server certificate it signs for
127.0.0.1 and localhost: what the web servers' HTTPS sites are given in the tests, and what
the clients are told to trust (nothing else does)."""

from __future__ import annotations

import functools
import ssl
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.support.components import require_binary

__all__ = ["Authority", "authority"]


@dataclass(frozen=True)
class Authority:
    """The files of the tests' CA and of the server certificate it signed."""

    ca: Path
    """The CA's certificate, for clients to trust."""
    cert: Path
    """The server's certificate (for 127.0.0.1 and localhost)."""
    key: Path
    """The server's private key."""

    def context(self) -> ssl.SSLContext:
        """Returns a client context that trusts this CA alone, and checks the host name."""
        return ssl.create_default_context(cafile=str(self.ca))


def _run(openssl: str, *args: str) -> None:
    subprocess.run([openssl, *args], check=True, capture_output=True, timeout=60)


@functools.cache
def authority() -> Authority:
    """Returns the tests' CA and server certificate, made once per process (a second each)."""
    openssl = require_binary("openssl", "openssl")
    folder = Path(tempfile.mkdtemp(prefix="movewire-ca-"))
    folder.chmod(0o755)  # the web servers' workers read the certificate and key
    ca_key, ca = folder / "ca.key", folder / "ca.pem"
    key, request, cert = folder / "server.key", folder / "server.csr", folder / "server.pem"
    _run(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(ca_key), "-out", str(ca), "-subj", "/CN=movewire test CA",
         "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign")  # fmt: skip
    _run(openssl, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(request), "-subj", "/CN=127.0.0.1")  # fmt: skip
    extensions = folder / "server.ext"
    extensions.write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
        "basicConstraints=CA:FALSE\n"
        "keyUsage=digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=serverAuth\n"
    )
    _run(openssl, "x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
         "-CAcreateserial", "-days", "2", "-out", str(cert),
         "-extfile", str(extensions))  # fmt: skip
    for path in (cert, key, ca):
        path.chmod(0o644)
    return Authority(ca, cert, key)
