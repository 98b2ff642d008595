"""A software WebAuthn authenticator for the relay's tests: it answers the relay's options as a
browser and a platform authenticator would (attestation 'none', ES256), so the passkey
endpoints are tested through real, verifiable answers, not mocks of py_webauthn."""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass, field
from typing import Any

import cbor2
import orjson
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

__all__ = ["SoftAuthenticator", "b64"]

UP, UV, AT = 0x01, 0x04, 0x40
"""authenticatorData flags: user present, user verified, attested credential data."""


def b64(raw: bytes) -> str:
    """Returns base64url without padding."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class _Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user: bytes
    count: int = 0


@dataclass
class SoftAuthenticator:
    """Makes and uses ES256 passkeys, for one origin."""

    origin: str
    credentials: list[_Credential] = field(default_factory=list)
    counting: bool = True
    """Whether it bumps its signature counter on each use (platform authenticators often
    do not)."""

    def create(self, options: dict[str, Any], again: int | None = None) -> dict[str, Any]:
        """Returns the answer (PublicKeyCredential.toJSON()) to registration options: with a
        new passkey, or one of its own again (which a browser would not do, the options
        excluding it)."""
        rp_id = options["rp"]["id"]
        if again is None:
            made = _Credential(os.urandom(32), ec.generate_private_key(ec.SECP256R1()), rp_id,
                               base64.urlsafe_b64decode(options["user"]["id"] + "=="))  # fmt: skip
            self.credentials.append(made)
        else:
            made = self.credentials[again]
        numbers = made.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big")}  # fmt: skip
        attested = bytes(16) + len(made.id).to_bytes(2, "big") + made.id + cbor2.dumps(cose)
        data = self._data(rp_id, UP | UV | AT, made.count) + attested
        client = self._client("webauthn.create", options["challenge"])
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})
        return {
            "id": b64(made.id), "rawId": b64(made.id), "type": "public-key",
            "response": {"clientDataJSON": b64(client), "attestationObject": b64(attestation),
                         "transports": ["internal"]},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }  # fmt: skip

    def get(self, options: dict[str, Any], which: int = -1) -> dict[str, Any]:
        """Returns the answer of one of its passkeys (the newest by default) to sign-in
        options."""
        used = self.credentials[which]
        if self.counting:
            used.count += 1
        data = self._data(options["rpId"], UP | UV, used.count)
        client = self._client("webauthn.get", options["challenge"])
        signature = used.key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(used.id), "rawId": b64(used.id), "type": "public-key",
            "response": {"clientDataJSON": b64(client), "authenticatorData": b64(data),
                         "signature": b64(signature), "userHandle": b64(used.user)},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }  # fmt: skip

    def _client(self, kind: str, challenge: str) -> bytes:
        return orjson.dumps(
            {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        )

    @staticmethod
    def _data(rp_id: str, flags: int, count: int) -> bytes:
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + count.to_bytes(4, "big")
