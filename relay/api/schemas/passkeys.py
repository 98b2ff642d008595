"""The schemas of passkeys and transfer codes (relay.api.passkeys): a player key's passkeys,
the WebAuthn options and answers, and the key a sign-in brings back."""

from __future__ import annotations

from typing import Any

from relay.core.passkeys import CODE_ALPHABET, CODE_LENGTH, LABEL_MOST
from relay.core.patterns import CREDENTIAL_TEXT, KEY_TEXT, anchored

__all__ = ["REPLIES", "SCHEMAS"]

_ID = {"type": "string", "pattern": anchored(CREDENTIAL_TEXT)}
_CREDENTIAL = {
    "type": "object",
    "required": ["id", "type", "response"],
    "properties": {
        "id": _ID,
        "rawId": _ID,
        "type": {"const": "public-key"},
        "response": {"type": "object"},
    },
    "description": "The authenticator's answer as PublicKeyCredential.toJSON() gives it "
    "(base64url fields); py_webauthn reads and verifies it.",
}
_HALF = CODE_LENGTH // 2
_CODE = {
    "type": "string",
    "pattern": f"^[{CODE_ALPHABET}]{{{_HALF}}}-[{CODE_ALPHABET}]{{{CODE_LENGTH - _HALF}}}$",
}

SCHEMAS: dict[str, Any] = {
    "Passkeys": {
        "type": "object",
        "required": ["passkeys", "offered"],
        "properties": {
            "offered": {
                "type": "boolean",
                "description": "Whether the relay offers passkeys (false: only GET answers, "
                "with no passkeys).",
            },
            "passkeys": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "label", "created"],
                    "properties": {
                        "id": _ID,
                        "label": {"type": "string", "maxLength": LABEL_MOST},
                        "created": {"type": "number"},
                    },
                },
            },
        },
    },
    "PasskeyOptions": {
        "type": "object",
        "required": ["options"],
        "properties": {
            "options": {
                "type": "object",
                "required": ["challenge"],
                "properties": {"challenge": {"type": "string"}},
                "description": "For navigator.credentials.create() or .get(), as "
                "PublicKeyCredential.parseCreationOptionsFromJSON() / "
                "parseRequestOptionsFromJSON() take them.",
            }
        },
    },
    "PasskeyBody": {
        "type": "object",
        "required": ["credential"],
        "properties": {
            "credential": _CREDENTIAL,
            "label": {"type": "string", "maxLength": LABEL_MOST},
        },
    },
    "PasskeyIdBody": {"type": "object", "required": ["id"], "properties": {"id": _ID}},
    "SigninBody": {
        "type": "object",
        "required": ["credential"],
        "properties": {"credential": _CREDENTIAL},
    },
    "CodeBody": {
        "type": "object",
        "required": ["code"],
        "properties": {
            "code": {
                "type": "string",
                "description": f"{CODE_LENGTH} characters from {CODE_ALPHABET}; spaces, "
                "dashes and case are ignored.",
            }
        },
    },
    "TransferCode": {
        "type": "object",
        "required": ["code", "until"],
        "properties": {"code": _CODE, "until": {"type": "number"}},
    },
    "SignedIn": {
        "type": "object",
        "required": ["player", "name"],
        "properties": {
            "player": {"type": "string", "pattern": anchored(KEY_TEXT)},
            "name": {"type": ["string", "null"]},
        },
    },
}

REPLIES = {
    "Passkeys": "The player key's passkeys, oldest first.",
    "PasskeyOptions": "The options for the browser's WebAuthn call, with a fresh challenge.",
    "TransferCode": "A single-use code, valid until the given time.",
    "SignedIn": "The player key, to keep where the client keeps its key, and the name it last "
    "sought under (null for none).",
}
"""What a successful answer of each passkey reply says."""
