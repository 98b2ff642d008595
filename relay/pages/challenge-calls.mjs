// The calls of challenges (docs/protocol.md, "Challenges"): a player key challenges another by
// its public id, lists the challenges made to it and by it (long-polled), answers one; the ids
// it follows and its recent opponents. Each takes the page's RelayClient (a Transport), whose
// retries every call has. No DOM.

import { ProtocolError } from "./errors.mjs";
import { NOT_AN_ANSWER } from "./transport.mjs";

/**
 * One challenge as the relay answers it.
 * @typedef {{id: string, from: {id: string, name: string | null}, to: {id: string,
 *   name: string | null}, game: string, version: string, time_control: any, colour: string,
 *   rated: boolean, at: number, until: number,
 *   state: "open" | "accepted" | "declined" | "withdrawn" | "lapsed", match: string | null}} Challenge
 */

/**
 * The terms of a challenge: to a public id, a game, a clock (null: none), the challenger's
 * colour, rated or not, and the challenger's name (null: none).
 * @typedef {{to: string, game: string, time_control: any, colour: "first" | "second" | "random",
 *   rated: boolean, name: string | null}} Terms
 */

/** @typedef {import("./transport.mjs").Transport} Transport */

/** Returns a challenge of an answer, or throws ProtocolError. @param {any} found */
function checked(found) {
  if (typeof found?.id !== "string" || typeof found?.state !== "string" || typeof found?.game !== "string") {
    throw new ProtocolError(NOT_AN_ANSWER("challenge", found));
  }
  return /** @type {Challenge} */ (found);
}

/**
 * Returns the key's challenges, made to it (`incoming`) and by it (`outgoing`), with their
 * version; with `after`, held up to `wait` seconds (null: the relay's hold) until the version
 * is above it (GET /v1/player/challenges).
 * @param {Transport} client @param {string} player the player key
 * @param {number | null} [after] @param {number | null} [wait] @param {AbortSignal} [signal]
 * @returns {Promise<{version: number, incoming: Challenge[], outgoing: Challenge[]}>}
 */
export async function challenges(client, player, after = null, wait = null, signal = undefined) {
  let path = "/v1/player/challenges";
  if (after !== null) path += `?after=${after}`;
  const held = after === null ? {} : client.held(path, "&", wait);
  const answer = await client.call("GET", path, player, null, { signal, ...held });
  if (!Number.isInteger(answer?.version) || !Array.isArray(answer.incoming) || !Array.isArray(answer.outgoing)) {
    throw new ProtocolError(NOT_AN_ANSWER("challenges", answer));
  }
  return { version: answer.version, incoming: answer.incoming.map(checked), outgoing: answer.outgoing.map(checked) };
}

/**
 * Challenges a public id on these terms (POST /v1/player/challenges); a refusal is thrown at
 * once (RelayRefusedError), a rate limit's too.
 * @param {Transport} client @param {string} player @param {Terms} terms
 * @returns {Promise<Challenge>}
 */
export async function challenge(client, player, terms) {
  const body = { ...terms };
  if (body.name === null) delete (/** @type {any} */ (body)).name;
  return checked(await client.call("POST", "/v1/player/challenges", player, body, { final: true }));
}

/**
 * Accepts or declines a challenge made to the key, or withdraws one it made (POST
 * /v1/player/challenges/answer); an accept names the new match.
 * @param {Transport} client @param {string} player @param {string} id
 * @param {"accept" | "decline" | "withdraw"} action @param {string | null} [name]
 * @param {boolean} [block] with a decline: block the challenger too
 * @returns {Promise<Challenge>}
 */
export async function answerChallenge(client, player, id, action, name = null, block = false) {
  /** @type {Record<string, string | boolean>} */
  const body = { id, action };
  if (name !== null && action === "accept") body.name = name;
  if (block && action === "decline") body.block = true;
  return checked(await client.call("POST", "/v1/player/challenges/answer", player, body, { final: true }));
}

/**
 * One public id a key follows, or one of its recent opponents.
 * @typedef {{id: string, name: string | null, at: number, game?: string, match?: string}} Someone
 */

/** Returns the list `key` of an answer, or throws ProtocolError. */
function people(/** @type {any} */ answer, /** @type {string} */ key) {
  const found = answer?.[key];
  if (!Array.isArray(found) || !found.every((entry) => typeof entry?.id === "string")) {
    throw new ProtocolError(NOT_AN_ANSWER(key, answer));
  }
  return /** @type {Someone[]} */ (found);
}

/**
 * Returns the ids the key follows, newest first (GET /v1/player/follows).
 * @param {Transport} client @param {string} player @returns {Promise<Someone[]>}
 */
export async function follows(client, player) {
  return people(await client.call("GET", "/v1/player/follows", player, null), "follows");
}

/**
 * Follows a public id (with the name to show for it), or stops following it (`follow` false);
 * returns the key's follows (POST /v1/player/follows).
 * @param {Transport} client @param {string} player @param {string} id @param {boolean} follow
 * @param {string | null} [name] @returns {Promise<Someone[]>}
 */
export async function follow(client, player, id, follow, name = null) {
  /** @type {Record<string, any>} */
  const body = { id, follow };
  if (follow && name !== null) body.name = name;
  return people(await client.call("POST", "/v1/player/follows", player, body, { final: true }), "follows");
}

/**
 * Returns the key's recent opponents that had player keys, newest first (GET
 * /v1/player/opponents).
 * @param {Transport} client @param {string} player @returns {Promise<Someone[]>}
 */
export async function opponents(client, player) {
  return people(await client.call("GET", "/v1/player/opponents", player, null), "opponents");
}
