// Passkeys and transfer codes in the browser (docs/protocol.md#passkeys): the relay's calls,
// and the WebAuthn options and answers turned between JSON (base64url) and the ArrayBuffers
// navigator.credentials takes and gives. Signing in answers the player key itself, which the
// page keeps where it keeps its key (players.mjs), so every game of the key comes with it.

import { newPlayerKey } from "./players.mjs";

/** Plain words for the refusals of passkey and code calls, by error code. */
export const PASSKEY_REFUSALS = Object.freeze({
  "passkey/off": "This relay does not offer passkeys.",
  "passkey/challenge": "That took too long: try again.",
  "passkey/refused": "That passkey is not one of this relay's players (removed, or from another site).",
  "passkey/exists": "This passkey is already in use.",
  "passkey/full": "You have as many passkeys as the relay keeps: remove one first.",
  "passkey/busy": "Too many sign-ins in progress: try again in a few minutes.",
  "code/unknown": "That code is not valid: mistyped, used already, or expired.",
  "code/too_many": "You made several codes just now: use one, or wait a few minutes.",
  "limit/signins": "Too many tries from here: wait a minute and try again.",
});

/** Returns the bytes of base64url text. */
export function fromBase64url(text) {
  const plain = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Returns base64url text (no padding) of an ArrayBuffer or a view of one. */
export function toBase64url(buffer) {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer instanceof ArrayBuffer ? buffer : buffer.buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Returns the relay's creation options (JSON) as navigator.credentials.create takes them. */
export function creationOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials ?? []).map((entry) => ({ ...entry, id: fromBase64url(entry.id) })),
  };
}

/** Returns the relay's request options (JSON) as navigator.credentials.get takes them. */
export function requestOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    allowCredentials: (json.allowCredentials ?? []).map((entry) => ({ ...entry, id: fromBase64url(entry.id) })),
  };
}

/** Returns a PublicKeyCredential as the relay reads it, its response's fields as given. */
function credentialJson(credential, response) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: { clientDataJSON: toBase64url(credential.response.clientDataJSON), ...response },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** Returns a new passkey (a PublicKeyCredential from create) as the relay reads it. */
export function createdJson(credential) {
  const response = credential.response;
  return credentialJson(credential, {
    attestationObject: toBase64url(response.attestationObject),
    transports: typeof response.getTransports === "function" ? response.getTransports() : [],
  });
}

/** Returns a passkey's answer (a PublicKeyCredential from get) as the relay reads it. */
export function assertedJson(credential) {
  const response = credential.response;
  return credentialJson(credential, {
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    userHandle: response.userHandle ? toBase64url(response.userHandle) : undefined,
  });
}

/** A refusal of the relay's: its code and its words. */
export class PasskeyError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "PasskeyError";
    this.code = code;
  }

  /** Returns the page's words for it: plain ones for a known code, else the relay's. */
  get words() {
    return PASSKEY_REFUSALS[this.code] ?? this.message;
  }
}

/**
 * Sends one call of the Your devices page to the relay (its base URL), with a player key as the
 * bearer when given and a JSON body when given; returns the answer and its JSON ({} for none).
 * @param {typeof fetch} fetcher @param {string} relay @param {string} method @param {string} path
 * @param {string | null} key @param {unknown} [body]
 */
export async function devicesCall(fetcher, relay, method, path, key, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const answer = await fetcher(`${relay}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { answer, found: await answer.json().catch(() => ({})) };
}

/** The relay's passkey and transfer-code calls, for one relay (its base URL). */
export class PasskeyCalls {
  constructor(relay, fetcher = globalThis.fetch.bind(globalThis)) {
    this.relay = relay;
    this.fetcher = fetcher;
  }

  async call(method, path, { key = null, body = undefined } = {}) {
    const { answer, found } = await devicesCall(this.fetcher, this.relay, method, path, key, body);
    if (!answer.ok) {
      const error = found.error ?? {};
      throw new PasskeyError(String(error.code ?? "http/error"), String(error.message ?? `HTTP ${answer.status}`));
    }
    return found;
  }

  /**
   * Returns whether the relay offers passkeys: it lists the passkeys of a key (this browser's,
   * or one drawn at random and kept nowhere, which has none), so no state is made; a relay
   * without them answers the list too, with offered: false.
   */
  async offered(key = newPlayerKey()) {
    return (await this.call("GET", "/v1/player/passkeys", { key })).offered === true;
  }

  /** Returns the key's passkeys: [{id, label, created}], oldest first. */
  async list(key) {
    return (await this.call("GET", "/v1/player/passkeys", { key })).passkeys;
  }

  /** Makes a new passkey on this device's authenticator and binds it to the key. */
  async add(key, label, credentials = globalThis.navigator.credentials) {
    const { options } = await this.call("POST", "/v1/player/passkeys/options", { key });
    const made = await credentials.create({ publicKey: creationOptions(options) });
    const body = { credential: createdJson(made), label };
    return (await this.call("POST", "/v1/player/passkeys", { key, body })).passkeys;
  }

  /** Unbinds one of the key's passkeys. */
  async remove(key, id) {
    return (await this.call("POST", "/v1/player/passkeys/remove", { key, body: { id } })).passkeys;
  }

  /** Returns a transfer code for the key: {code, until}. */
  async makeCode(key) {
    return await this.call("POST", "/v1/player/code", { key });
  }

  /** Signs in with a passkey this device's authenticators hold: returns {player, name}, its
   * player key and the name the key last sought under (null for none). */
  async signIn(credentials = globalThis.navigator.credentials) {
    const { options } = await this.call("POST", "/v1/signin/options");
    const answered = await credentials.get({ publicKey: requestOptions(options) });
    return await this.call("POST", "/v1/signin/passkey", { body: { credential: assertedJson(answered) } });
  }

  /** Signs in with a transfer code: returns {player, name}, as signIn does. */
  async redeem(code) {
    return await this.call("POST", "/v1/signin/code", { body: { code } });
  }
}
