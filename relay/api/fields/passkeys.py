"""Passkeys' fields: an authenticator's answer (a PublicKeyCredential as JSON), a passkey's
label and id, and a transfer code."""

from __future__ import annotations

from typing import Any

from relay.core.errors import RelayError
from relay.core.passkeys import CODE_ALPHABET, CODE_LENGTH, CREDENTIAL, LABEL_MOST
from relay.core.text_policy import clean_text

__all__ = ["code_field", "credential_field", "credential_id_field", "label_field"]

BAD_CREDENTIAL = (
    "The field 'credential' must be the authenticator's answer as JSON (PublicKeyCredential's "
    "toJSON(): id, rawId, type 'public-key', response), not {!r}."
)
BAD_ID = "The field 'id' must be a passkey's id (base64url, as the list gives it), not {!r}."
BAD_CODE = (
    "The field 'code' must be a transfer code: {length} characters from {alphabet} (spaces "
    "and dashes are ignored, case too), not {value!r}."
)


def credential_field(body: dict[str, Any]) -> dict[str, Any]:
    """Returns the body's 'credential': an object with an id of the credential's form, the
    type 'public-key' and an object 'response' (the library checks the rest)."""
    value = body.get("credential")
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("id"), str)
        or CREDENTIAL.fullmatch(value["id"]) is None
        or value.get("rawId", value["id"]) != value["id"]
        or value.get("type") != "public-key"
        or not isinstance(value.get("response"), dict)
    ):
        shown = value if not isinstance(value, dict) else {"id": value.get("id")}
        raise RelayError("request/invalid", BAD_CREDENTIAL.format(shown))
    return value


def credential_id_field(body: dict[str, Any]) -> str:
    """Returns the body's 'id': a credential id."""
    value = body.get("id")
    if not isinstance(value, str) or CREDENTIAL.fullmatch(value) is None:
        raise RelayError("request/invalid", BAD_ID.format(value))
    return value


def label_field(body: dict[str, Any]) -> str:
    """Returns the body's 'label' (the player's word for the device), clean; '' without one."""
    value = body.get("label")
    if value is None or value == "":
        return ""
    return clean_text(value, "label", LABEL_MOST)


def code_field(body: dict[str, Any]) -> str:
    """Returns the body's 'code', canonical: upper case, without spaces or dashes."""
    value = body.get("code")
    if isinstance(value, str):
        code = value.replace(" ", "").replace("-", "").upper()
        if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code):
            return code
    raise RelayError(
        "request/invalid",
        BAD_CODE.format(length=CODE_LENGTH, alphabet=CODE_ALPHABET, value=value),
    )
