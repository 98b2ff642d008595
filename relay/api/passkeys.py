"""The endpoints of passkeys and transfer codes: a player key bound to passkeys (WebAuthn,
through py_webauthn) signs in on any device; a signed-in device makes a short single-use code
that signs another in once (docs/protocol.md#passkeys).

Signing in answers the player key itself, which the page keeps where it keeps it today: every
feature that hangs on the key (name, ratings, matches, blocks) comes with it. The store keeps
the key sealed with the host's secret (relay.core.sealing), never in clear."""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import time
from typing import Any

import orjson
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url, options_to_json_dict
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from relay.api.calls import Call, Reply
from relay.api.fields.passkeys import (
    code_field,
    credential_field,
    credential_id_field,
    label_field,
)
from relay.api.fields.request import json_body, require_player
from relay.api.limits import RateLimiter
from relay.config import Config
from relay.core import passkeys as rules
from relay.core.errors import RelayError
from relay.core.model import hash_token
from relay.core.passkeys import Passkey, PasskeySettings
from relay.core.players import last_name
from relay.core.sealing import Sealer
from relay.core.standings import public_id
from relay.store.base import Store

__all__ = ["PasskeyEndpoints"]

GUESSES_PER_MINUTE = 600
"""Transfer codes this process tries a minute for all clients together (a guesser with many
addresses meets this; docs/protocol.md#limits)."""

_UNREADABLE = (WebAuthnException, ValueError, TypeError, KeyError, IndexError, AttributeError)
"""What an answer the library cannot read may raise: the answer is refused, never a 500."""


def _b64(raw: bytes) -> str:
    return bytes_to_base64url(raw)


def _raw(text: str) -> bytes:
    """Returns the bytes of base64url text, padded or not."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _challenge_of(credential: dict[str, Any]) -> str:
    """Returns the challenge an authenticator's answer signed (its clientDataJSON's), to find
    the pending one; the library checks it again."""
    try:
        challenge = orjson.loads(_raw(credential["response"]["clientDataJSON"]))["challenge"]
    except (*_UNREADABLE, orjson.JSONDecodeError):
        raise RelayError("passkey/challenge") from None
    if not isinstance(challenge, str) or not 16 <= len(challenge) <= 128:
        raise RelayError("passkey/challenge")
    return challenge


def _bucket(item: str) -> int:
    return hashlib.sha256(item.encode()).digest()[0] % rules.HOLD_BUCKETS


class PasskeyEndpoints:
    """Passkeys and transfer codes, over one store, with this process's sign-in rates."""

    def __init__(self, config: Config, store: Store) -> None:
        self.settings = config.passkeys
        self.sealer = None if self.settings is None else Sealer(self.settings.secret)
        self.store = store
        self.names = config.names
        self.tries = RateLimiter.per_minute(rules.TRIES_PER_MINUTE)
        """Per client: options, sign-ins and codes made or tried."""
        self.guesses = RateLimiter.per_minute(GUESSES_PER_MINUTE)
        """For the whole process: transfer codes tried."""

    def _on(self) -> tuple[PasskeySettings, Sealer]:
        if self.settings is None or self.sealer is None:
            raise RelayError("passkey/off")
        return self.settings, self.sealer

    @staticmethod
    def _player(call: Call) -> str:
        """Returns the bearer's player key, checked before any other work."""
        return require_player(call.authorization)

    def _try(self, call: Call, now: float) -> None:
        wait = self.tries.take(call.client, now)
        if wait:
            raise RelayError("limit/signins", retry_after=wait)

    # -- a signed-in device's own --------------------------------------------------------

    async def register_options(self, call: Call) -> Reply:
        """POST /v1/player/passkeys/options: a challenge to bind a new passkey to the key."""
        settings, _ = self._on()
        player = self._player(call)
        now = time.time()
        self._try(call, now)
        owner = hash_token(player)
        owned = await self.store.passkeys.listed(owner)
        if len(owned) >= rules.PASSKEYS_PER_PLAYER:
            raise RelayError("passkey/full")
        challenge = os.urandom(32)
        until = now + rules.CHALLENGE_SECONDS
        held = await self.store.passkeys.hold(
            f"r:{owner}", _b64(challenge), "", until, now, rules.PENDING_PER_PLAYER
        )
        if not held:
            raise RelayError("passkey/busy", retry_after=rules.CHALLENGE_SECONDS)
        handle = hashlib.sha256(b"user:" + owner.encode()).digest()[:16]
        options = generate_registration_options(
            rp_id=settings.rp_id,
            rp_name=settings.rp_name,
            user_name=f"player {public_id(owner)}",
            user_id=handle,
            challenge=challenge,
            timeout=round(rules.CHALLENGE_SECONDS * 500),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=_raw(p.id)) for p in owned],
        )
        return 200, orjson.dumps({"options": options_to_json_dict(options)})

    async def register(self, call: Call) -> Reply:
        """POST /v1/player/passkeys: binds the authenticator's new passkey to the key."""
        settings, sealer = self._on()
        player = self._player(call)
        body = json_body(call.content_type, call.body)
        credential = credential_field(body)
        label = label_field(body)
        now = time.time()
        owner = hash_token(player)
        challenge = _challenge_of(credential)
        if await self.store.passkeys.take(f"r:{owner}", challenge, now) is None:
            raise RelayError("passkey/challenge")
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=_raw(challenge),
                expected_rp_id=settings.rp_id,
                expected_origin=list(settings.origins),
            )
        except _UNREADABLE:
            raise RelayError("passkey/refused") from None
        passkey = Passkey(
            _b64(verified.credential_id), owner, sealer.seal(player),
            _b64(verified.credential_public_key), verified.sign_count, label, now,
        )  # fmt: skip
        if passkey.id != credential["id"]:
            raise RelayError("passkey/refused")
        added = await self.store.passkeys.add(
            passkey, rules.PASSKEYS_PER_PLAYER, rules.PASSKEYS_MOST
        )
        if not added:
            raise RelayError("passkey/exists")
        return 201, await self._listing(owner)

    async def passkeys(self, call: Call) -> Reply:
        """GET /v1/player/passkeys: the key's passkeys, oldest first; on a relay without
        passkeys, none and offered: false (a page learns it without a refusal)."""
        player = self._player(call)
        if self.settings is None:
            return 200, orjson.dumps({"passkeys": [], "offered": False})
        return 200, await self._listing(hash_token(player))

    async def remove(self, call: Call) -> Reply:
        """POST /v1/player/passkeys/remove: unbinds one of the key's passkeys (by its id)."""
        self._on()
        player = self._player(call)
        credential = credential_id_field(json_body(call.content_type, call.body))
        owner = hash_token(player)
        await self.store.passkeys.remove(owner, credential)
        return 200, await self._listing(owner)

    async def _listing(self, owner: str) -> bytes:
        found = await self.store.passkeys.listed(owner)
        return orjson.dumps({"passkeys": [passkey.listing() for passkey in found], "offered": True})

    async def make_code(self, call: Call) -> Reply:
        """POST /v1/player/code: a transfer code that signs another device in as the key once."""
        _, sealer = self._on()
        player = self._player(call)
        now = time.time()
        self._try(call, now)
        code = "".join(secrets.choice(rules.CODE_ALPHABET) for _ in range(rules.CODE_LENGTH))
        digest = hash_token(code)
        until = now + rules.CODE_SECONDS
        store = self.store.passkeys
        mine = await store.hold(
            f"cp:{hash_token(player)}", digest, "", until, now, rules.CODES_PER_PLAYER
        )
        share = rules.CODES_MOST // rules.HOLD_BUCKETS
        if not mine or not await store.hold(
            f"c:{_bucket(digest)}", digest, sealer.seal(player), until, now, share
        ):
            raise RelayError("code/too_many", retry_after=rules.CODE_SECONDS)
        half = rules.CODE_LENGTH // 2
        return 201, orjson.dumps({"code": f"{code[:half]}-{code[half:]}", "until": until})

    # -- a new device's ------------------------------------------------------------------

    async def signin_options(self, call: Call) -> Reply:
        """POST /v1/signin/options: a challenge for any passkey of this relay to answer."""
        settings, _ = self._on()
        now = time.time()
        self._try(call, now)
        challenge = _b64(os.urandom(32))
        share = rules.SIGNINS_MOST // rules.HOLD_BUCKETS
        held = await self.store.passkeys.hold(
            f"a:{_bucket(challenge)}", challenge, "", now + rules.CHALLENGE_SECONDS, now, share
        )
        if not held:
            raise RelayError("passkey/busy", retry_after=rules.CHALLENGE_SECONDS)
        options = generate_authentication_options(
            rp_id=settings.rp_id,
            challenge=_raw(challenge),
            timeout=round(rules.CHALLENGE_SECONDS * 500),
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return 200, orjson.dumps({"options": options_to_json_dict(options)})

    async def signin(self, call: Call) -> Reply:
        """POST /v1/signin/passkey: the player key of the passkey that answered the challenge."""
        settings, sealer = self._on()
        now = time.time()
        self._try(call, now)
        credential = credential_field(json_body(call.content_type, call.body))
        challenge = _challenge_of(credential)
        if await self.store.passkeys.take(f"a:{_bucket(challenge)}", challenge, now) is None:
            raise RelayError("passkey/challenge")
        passkey = await self.store.passkeys.find(credential["id"])
        if passkey is None:
            raise RelayError("passkey/refused")
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=_raw(challenge),
                expected_rp_id=settings.rp_id,
                expected_origin=list(settings.origins),
                credential_public_key=_raw(passkey.public_key),
                credential_current_sign_count=passkey.sign_count,
            )
        except _UNREADABLE:
            raise RelayError("passkey/refused") from None
        player = sealer.open(passkey.sealed)
        if player is None:
            raise RelayError("passkey/refused")
        if verified.new_sign_count != passkey.sign_count:
            await self.store.passkeys.used(passkey, verified.new_sign_count)
        return await self._signed_in(player, now)

    async def redeem(self, call: Call) -> Reply:
        """POST /v1/signin/code: the player key a transfer code was made for, once."""
        _, sealer = self._on()
        now = time.time()
        self._try(call, now)
        wait = self.guesses.take("", now)
        if wait:
            raise RelayError("limit/signins", retry_after=wait)
        code = code_field(json_body(call.content_type, call.body))
        digest = hash_token(code)
        sealed = await self.store.passkeys.take(f"c:{_bucket(digest)}", digest, now)
        player = None if sealed is None else sealer.open(sealed)
        if player is None:
            raise RelayError("code/unknown")
        return await self._signed_in(player, now)

    async def _signed_in(self, player: str, now: float) -> Reply:
        """Answers a sign-in: the player key, and the name it last sought under (null on a
        relay that keeps no names), which the new device then shows and seeks with."""
        name = None
        if self.names:
            name = last_name(await self.store.players.matches(player, now))
        return 200, orjson.dumps({"player": player, "name": name})
