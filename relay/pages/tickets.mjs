// Tickets that save: a seat {match, seat, token} (and the game's data kept with it, `kept`)
// as JSON text, and in a Web Storage (localStorage by default) under a key. The same text as
// the Python SDK's Ticket.to_json().

/** @typedef {import("./relay-client.mjs").Ticket} Ticket */

const NOT_A_TICKET = (/** @type {string} */ why, /** @type {unknown} */ text) => `not a saved ticket (${why}): ${JSON.stringify(text)}`;

/** The most characters of private game data a ticket keeps (RelayHost.keep). */
export const KEPT_LIMIT = 65536;

const NOT_KEPT = (/** @type {unknown} */ text) => `the game data kept must be a string, not ${String(text)}`;
const TOO_MUCH = (/** @type {number} */ size) => `a ticket keeps at most ${KEPT_LIMIT} characters of game data, not ${size}`;

/**
 * Returns text as the game data a ticket may keep (RelayHost.keep); throws TypeError for
 * anything but a string, RangeError for one over KEPT_LIMIT characters.
 * @param {unknown} text
 * @returns {string}
 */
export function checkKept(text) {
  if (typeof text !== "string") throw new TypeError(NOT_KEPT(text));
  if (text.length > KEPT_LIMIT) throw new RangeError(TOO_MUCH(text.length));
  return text;
}

/**
 * Returns the ticket as JSON text: {"match": ..., "seat": ..., "token": ...}, and "kept": ...
 * when the game keeps data with it (RelayHost.keep).
 * @param {Ticket} ticket
 * @returns {string}
 */
export function ticketToJSON(ticket) {
  const { match, seat, token } = ticket;
  const kept = typeof ticket.kept === "string" ? ticket.kept : null;
  return JSON.stringify(kept === null ? { match, seat, token } : { match, seat, token, kept });
}

/**
 * Returns the frozen ticket that ticketToJSON() wrote; throws TypeError for anything else.
 * @param {string} text
 * @returns {Ticket}
 */
export function ticketFromJSON(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TypeError(NOT_A_TICKET(`not JSON: ${/** @type {Error} */ (error).message}`, text));
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new TypeError(NOT_A_TICKET("not a JSON object", text));
  }
  const { match, seat, token } = data;
  if (typeof match !== "string" || match === "") {
    throw new TypeError(NOT_A_TICKET("'match' is not a match id", text));
  }
  if (seat !== 0 && seat !== 1) throw new TypeError(NOT_A_TICKET("'seat' is not 0 or 1", text));
  if (typeof token !== "string" || token === "") {
    throw new TypeError(NOT_A_TICKET("'token' is not a token", text));
  }
  const kept = data.kept ?? null;
  if (kept === null) return Object.freeze({ match, seat, token });
  if (typeof kept !== "string") throw new TypeError(NOT_A_TICKET("'kept' is not text", text));
  return Object.freeze({ match, seat, token, kept });
}

/**
 * Keeps a ticket in `storage` (localStorage unless given) under `key`, to resume later, with
 * the game's data kept with it. Call it again from onTicket when the game keeps new data.
 * @param {string} key
 * @param {Ticket} ticket
 * @param {Storage} [storage]
 * @returns {void}
 */
export function saveTicket(key, ticket, storage = globalThis.localStorage) {
  storage.setItem(key, ticketToJSON(ticket));
}

/**
 * Returns the ticket kept under `key` in `storage` (localStorage unless given), or null when
 * there is none. A value that is not a ticket is removed, and null returned.
 * @param {string} key
 * @param {Storage} [storage]
 * @returns {Ticket | null}
 */
export function loadTicket(key, storage = globalThis.localStorage) {
  const text = storage.getItem(key);
  if (text === null) return null;
  try {
    return ticketFromJSON(text);
  } catch {
    storage.removeItem(key);
    return null;
  }
}

/**
 * Forgets the ticket kept under `key` (once its match is over).
 * @param {string} key
 * @param {Storage} [storage]
 * @returns {void}
 */
export function forgetTicket(key, storage = globalThis.localStorage) {
  storage.removeItem(key);
}
