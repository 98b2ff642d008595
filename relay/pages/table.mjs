// The table around a match (docs/protocol.md, "The table"): the seats' names, whether each is
// here, the last draw offer or takeback request, the chat, and when a staller may be claimed
// against, as the relay reports them; and TableKeeper, which keeps a reader's latest table with
// the chat gathered once each, in order. Mirrors sdk/table.py. No DOM: node runs it as it is.

import { ProtocolError } from "./errors.mjs";

/**
 * The last offer at the table: `kind` "draw" or "takeback", `by` the offering seat, `at` the
 * event it was made at, `state` where it stands ("offered", "accepted", "declined",
 * "withdrawn" or "lapsed"), `count` a takeback's moves and passes (null for a draw).
 * @typedef {{readonly kind: string, readonly by: number, readonly at: number,
 *   readonly state: string, readonly count: number | null}} Offer
 */
/**
 * One line of the chat: its number `n`, the `seat` that said it, its `text` (show it as text),
 * `at` the log's last event when it was said and `time` when (seconds since the epoch), as the
 * relay gives them.
 * @typedef {{readonly n: number, readonly seat: number, readonly text: string,
 *   readonly at: number, readonly time: number}} ChatLine
 */
/**
 * Whether a seat is here: `since` seconds away and `abandonIn` seconds until it abandons
 * (null when here); `abandonAt` that moment on this side's clock (performance.now()
 * milliseconds), in a table kept by TableKeeper.
 * @typedef {{readonly here: boolean, readonly since: number | null,
 *   readonly abandonIn: number | null, readonly abandonAt?: number | null}} Presence
 */
/**
 * A table as parseTable() reads the relay's answer.
 * @typedef {{readonly version: number, readonly names: readonly (string | null)[],
 *   readonly presence: readonly Presence[], readonly offer: Offer | null,
 *   readonly chat: readonly ChatLine[], readonly claimIn: number | null,
 *   readonly claimAfter: number | null}} ParsedTable
 */
/**
 * The table around a match as a host keeps it (RelayHost.table, onTable): a ParsedTable with
 * every chat line so far, once each and in order (`chat`), the lines the latest read added
 * (`fresh`), and the countdowns as moments on this side's clock (performance.now()
 * milliseconds): `claimAt`, each presence's `abandonAt`; `readAt` when it was read.
 * @typedef {ParsedTable & {readonly fresh: readonly ChatLine[],
 *   readonly claimAt: number | null, readonly readAt: number}} Table
 */
/**
 * A table as the relay answers it (its JSON), before parseTable() reads it.
 * @typedef {{version: number, [key: string]: any}} RawTable
 */

/** What a seat may offer during play: a draw, or to take back its last move. */
export const OFFER_KINDS = Object.freeze(["draw", "takeback"]);

/** Where the last offer stands. */
export const OFFER_STATES = Object.freeze(["offered", "accepted", "declined", "withdrawn", "lapsed"]);

const NOT_A_TABLE = (/** @type {unknown} */ raw) => `the relay's answer about a table is not protocol v1: ${JSON.stringify(raw)}`;

/**
 * @param {unknown} raw
 * @returns {never}
 */
function fail(raw) {
  throw new ProtocolError(NOT_A_TABLE(raw));
}

/**
 * @param {unknown} value
 * @param {unknown} raw
 * @returns {number | null}
 */
function seconds(value, raw) {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !(value >= 0)) fail(raw);
  return value;
}

/**
 * @param {any} entry
 * @param {unknown} raw
 * @returns {Presence}
 */
function presenceOf(entry, raw) {
  if (entry?.here === true) return Object.freeze({ here: true, since: null, abandonIn: null });
  if (entry?.here !== false) fail(raw);
  return Object.freeze({ here: false, since: seconds(entry.since, raw), abandonIn: seconds(entry.abandon_in, raw) });
}

/**
 * @param {any} offer
 * @param {unknown} raw
 * @returns {Offer | null}
 */
function offerOf(offer, raw) {
  if (offer === null || offer === undefined) return null;
  const { kind, by, at, state, count } = offer;
  const seatOk = by === 0 || by === 1;
  if (!OFFER_KINDS.includes(kind) || !seatOk || !Number.isInteger(at) || !OFFER_STATES.includes(state)) fail(raw);
  return Object.freeze({ kind, by, at, state, count: kind === "takeback" ? count : null });
}

/**
 * @param {any} line
 * @param {unknown} raw
 * @returns {ChatLine}
 */
function lineOf(line, raw) {
  const { n, seat, text, at, time } = line ?? {};
  if (!Number.isInteger(n) || (seat !== 0 && seat !== 1) || typeof text !== "string") fail(raw);
  return Object.freeze({ n, seat, text, at, time });
}

/**
 * Returns a table as the relay answers it, read: {version, names: [name or null, ...],
 * presence: [{here, since, abandonIn}, ...], offer: {kind, by, at, state, count} or null,
 * chat: [{n, seat, text, at, time}, ...] (the lines the answer carried), claimIn}; throws
 * ProtocolError for anything else. Names and chat text are text: show them as text.
 * @param {any} raw
 * @returns {ParsedTable}
 */
export function parseTable(raw) {
  if (raw === null || typeof raw !== "object" || !Number.isInteger(raw.version)) fail(raw);
  const names = Array.isArray(raw.names) ? raw.names : [null, null];
  const presence = Array.isArray(raw.presence) ? raw.presence : [{ here: true }, { here: true }];
  if (names.length !== 2 || presence.length !== 2 || !Array.isArray(raw.chat ?? [])) fail(raw);
  return Object.freeze({
    version: raw.version,
    names: Object.freeze(names.map((/** @type {unknown} */ name) => (typeof name === "string" ? name : null))),
    presence: Object.freeze(presence.map((/** @type {unknown} */ entry) => presenceOf(entry, raw))),
    offer: offerOf(raw.offer, raw),
    chat: Object.freeze((raw.chat ?? []).map((/** @type {unknown} */ line) => lineOf(line, raw))),
    claimIn: seconds(raw.claim_in, raw),
    claimAfter: seconds(raw.claim_after, raw),
  });
}

/**
 * Keeps a reader's latest table: an answer older than the one kept is dropped (by version,
 * never by time), the chat lines are gathered once each and in order, and the countdowns
 * (`abandonIn`, `claimIn`) are turned into moments on this side's clock (performance.now()
 * milliseconds: `abandonAt`, `claimAt`), from which a page counts down without asking again.
 */
export class TableKeeper {
  /** @type {Table | null} */
  #current = null;
  /** @type {ChatLine[]} */
  #chat = [];

  /**
   * Returns the version of the table kept (0 before any): a poll sends it as `table=`.
   * @returns {number}
   */
  get version() {
    return this.#current?.version ?? 0;
  }

  /**
   * Returns the number of the last chat line kept (0 before any): a poll sends it as `chat=`.
   * @returns {number}
   */
  get chatSeen() {
    return this.#chat.at(-1)?.n ?? 0;
  }

  /**
   * Returns the table kept (see take()), or null before any.
   * @returns {Table | null}
   */
  get current() {
    return this.#current;
  }

  /**
   * Takes a table the relay answered (its JSON) at `at` (performance.now() milliseconds) and
   * returns the table kept now: {...parseTable(raw), chat: every line so far, fresh: the lines
   * this answer added, presence entries with `abandonAt`, `claimAt`, `readAt`}; returns null
   * when the answer is older than the table kept (which stays). An answer of the same version
   * is taken: it refreshes the countdowns, read anew.
   * @param {RawTable} raw
   * @param {number} [at]
   * @returns {Table | null}
   */
  take(raw, at = performance.now()) {
    const table = parseTable(raw);
    if (this.#current !== null && table.version < this.#current.version) return null;
    const seen = this.chatSeen;
    const fresh = table.chat.filter((line) => line.n > seen).sort((a, b) => a.n - b.n);
    const added = [];
    for (const line of fresh) {
      if (line.n > (added.at(-1)?.n ?? seen)) added.push(line);
    }
    this.#chat = [...this.#chat, ...added];
    const moment = (/** @type {number | null} */ inSeconds) => (inSeconds === null ? null : at + inSeconds * 1000);
    this.#current = Object.freeze({
      ...table,
      presence: Object.freeze(
        table.presence.map((entry) => Object.freeze({ ...entry, abandonAt: moment(entry.abandonIn) })),
      ),
      chat: Object.freeze([...this.#chat]),
      fresh: Object.freeze(added),
      claimAt: moment(table.claimIn),
      readAt: at,
    });
    return this.#current;
  }
}
