// RelayClient: protocol v1 calls, each retried through transient faults with backoff.
// Mirrors sdk/client.py and sdk/timing.py. No DOM: node runs it as it is.

import {
  cleanReason,
  ClosedError,
  ConnectionLostError,
  ProtocolError,
  RelayRefusedError,
} from "./errors.mjs";
import { TimeControl } from "./clock.mjs";
import { CLAIMS } from "./claims.mjs";
import { ratingRangeJson } from "./ratings.mjs";

const GAVE_UP = (/** @type {string} */ url, /** @type {number} */ seconds, /** @type {string} */ failure) =>
  `no answer from ${url || "this page's relay"} for ${seconds.toFixed(1)} s (${failure})`;
const NOT_AN_ANSWER = (/** @type {string} */ what, /** @type {unknown} */ body) =>
  `the relay's answer to ${what} is not protocol v1: ${JSON.stringify(body)}`;
const BAD_EVENT = (/** @type {unknown} */ event) =>
  `the relay sent an event protocol v1 does not define: ${JSON.stringify(event)}`;

/**
 * The `started` event: the match began, `first` moves first; `timeControl` and both seats'
 * seconds `left` with a clock (null without).
 * @typedef {{readonly type: "started", readonly seq: number, readonly first: number,
 *   readonly timeControl: TimeControl | null, readonly left: readonly number[] | null}} StartedEvent
 */
/**
 * A `move` event: `seat` played `move`, `end` saying the game is over with it (`claim`: the
 * mover's word on its result, with a game-ending move); its mover's seconds `left` with a
 * clock (null without; none in the host's own record of its move).
 * @typedef {{readonly type: "move", readonly seq: number, readonly seat: number,
 *   readonly move: string, readonly end: boolean, readonly left?: number | null,
 *   readonly claim?: import("./claims.mjs").Claim | null}} MoveEvent
 */
/**
 * A `pass` event: `seat` passed the turn back.
 * @typedef {{readonly type: "pass", readonly seq: number, readonly seat: number,
 *   readonly left: number | null}} PassEvent
 */
/**
 * An `undo` event, an accepted takeback: the last `count` moves and passes (1 or 2) are taken
 * back and `seat`, the asker, has the turn; both seats' seconds `left` with a clock.
 * @typedef {{readonly type: "undo", readonly seq: number, readonly seat: number,
 *   readonly count: number, readonly left: readonly number[] | null}} UndoEvent
 */
/**
 * An `ended` event: the match is over for `reason`, about `seat`; `at` the event the end is
 * about (null: none said), `detail` why in words, `winner` a referee's winner (null: a draw or
 * no referee), `refereed` whether a referee decided.
 * @typedef {{readonly type: "ended", readonly seq: number, readonly reason: import("./endings.mjs").ReasonValue,
 *   readonly seat: number, readonly at: number | null, readonly detail: string,
 *   readonly winner: number | null, readonly refereed: boolean}} EndedEvent
 */
/**
 * One event of a match's log, as parseEvent() reads it.
 * @typedef {StartedEvent | MoveEvent | PassEvent | UndoEvent | EndedEvent} Event
 */
/**
 * A seat in a match: what a host needs to take it up again (`kept`: the game's data kept with
 * it, RelayHost.keep()).
 * @typedef {{readonly match: string, readonly seat: number, readonly token: string,
 *   readonly kept?: string}} Ticket
 */

/**
 * A reader's place in the table, sent with a poll: the version it has and its last chat line.
 * @typedef {{table: number, chat?: number}} TableCursor
 */
/**
 * Told as each attempt of a request is sent, and as one fails.
 * @typedef {{sent?: () => void, failed?: (failure: string) => void}} Watch
 */
/** @typedef {import("./table.mjs").RawTable} RawTable */
/**
 * What a report is about: the partner's play (cheating, stalling), its name or its chat.
 * @typedef {"play" | "name" | "chat"} ReportAbout
 */
/**
 * One key a player blocked or muted (GET and POST /v1/player/blocks): its public `id` (12
 * characters), the `name` it had when blocked (null: none), the `kind` ("block": never paired
 * again and its chat hidden; "mute": its chat hidden only), and `at` when (seconds since the
 * epoch).
 * @typedef {{readonly id: string, readonly name: string | null, readonly kind: "block" | "mute",
 *   readonly at: number}} Blocked
 */

/** 4xx answers that mean "try again": request timeout and rate limits (5xx are all retried). */
const RETRIED_STATUSES = new Set([408, 429]);

/** What a report may be about (ReportAbout). */
export const REPORT_ABOUT = Object.freeze(/** @type {ReportAbout[]} */ (["play", "name", "chat"]));

/** The most characters of a report's own words (the relay's rule). */
export const REPORT_TEXT_MOST = 500;

/** The reasons an `ended` event may give. */
export const ENDED_REASONS = Object.freeze([
  "agreed",
  "disputed",
  "unconfirmed",
  "resigned",
  "abandoned",
  "timeout",
  "drawn",
  "stalled",
  "over",
  "illegal",
]);

/** The timings of a host's requests, in seconds; the defaults suit the relay's defaults. */
export class Timing {
  /**
   * @param {{pollWait?: number, requestTimeout?: number, backoffBase?: number,
   *   backoffCap?: number, giveUp?: number}} [timing] seconds each
   */
  constructor({
    pollWait = 20,
    requestTimeout = 10,
    backoffBase = 0.2,
    backoffCap = 5,
    giveUp = 60,
  } = {}) {
    if (!Number.isInteger(pollWait) || pollWait < 1) {
      throw new RangeError(`pollWait must be a whole number >= 1, not ${pollWait}`);
    }
    for (const [name, value] of Object.entries({ requestTimeout, backoffBase, backoffCap, giveUp })) {
      if (!(value > 0)) throw new RangeError(`${name} must be > 0, not ${value}`);
    }
    /** Whole seconds the relay is asked to hold a poll (`wait=`). */
    this.pollWait = pollWait;
    /** Seconds a request may take (a poll: this beyond pollWait) before it is retried. */
    this.requestTimeout = requestTimeout;
    /** Seconds: the ceiling of the first retry's random delay; it doubles with each retry. */
    this.backoffBase = backoffBase;
    /** Seconds: the largest ceiling a retry's random delay can reach. */
    this.backoffCap = backoffCap;
    /** Seconds a request may keep failing before the host gives the connection up for lost. */
    this.giveUp = giveUp;
    Object.freeze(this);
  }

  /**
   * Returns the seconds a poll may take before it is abandoned and retried.
   * @returns {number}
   */
  get pollTimeout() {
    return this.pollWait + this.requestTimeout;
  }

  /**
   * Returns the seconds to wait before retry number `attempt` (0 for the first): full jitter,
   * a uniform delay up to backoffBase * 2**attempt capped at backoffCap; a relay's
   * Retry-After is honoured (the delay is then at least that long).
   * @param {number} attempt
   * @param {() => number} [random]
   * @param {number | null} [retryAfter]
   * @returns {number}
   */
  backoff(attempt, random = Math.random, retryAfter = null) {
    const ceiling = Math.min(this.backoffCap, this.backoffBase * 2 ** Math.min(attempt, 64));
    let delay = random() * ceiling;
    if (retryAfter !== null) delay = Math.max(delay, retryAfter + random() * this.backoffBase);
    return delay;
  }
}

/** Returns a fresh seat token: 32 random bytes, base64url (43 characters). */
export function drawToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const text = btoa(String.fromCharCode(...bytes));
  return text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The real clock: milliseconds now, and an abortable sleep. */
export const REAL_CLOCK = Object.freeze({
  now: () => performance.now(),
  sleep: (/** @type {number} */ ms, /** @type {AbortSignal | undefined} */ signal) =>
    /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new ClosedError());
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(new ClosedError());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    })),
});

function seat(/** @type {any} */ value, /** @type {unknown} */ raw) {
  if (value !== 0 && value !== 1) throw new ProtocolError(BAD_EVENT(raw));
  return value;
}

/** Returns a `time_control` field's TimeControl, or null without one. */
function control(/** @type {any} */ value, /** @type {unknown} */ raw) {
  try {
    return TimeControl.fromJson(value);
  } catch {
    throw new ProtocolError(BAD_EVENT(raw));
  }
}

/** Returns a seat's seconds `left`, or null when the event has none (no clock). */
function left(/** @type {any} */ value, /** @type {unknown} */ raw) {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !(value >= 0)) throw new ProtocolError(BAD_EVENT(raw));
  return value;
}

function lefts(/** @type {any} */ value, /** @type {unknown} */ raw) {
  if (!Array.isArray(value) || value.length !== 2) throw new ProtocolError(BAD_EVENT(raw));
  const both = value.map((one) => left(one, raw));
  if (both.includes(null)) throw new ProtocolError(BAD_EVENT(raw));
  return Object.freeze(/** @type {number[]} */ (both));
}

/**
 * Returns the event for one JSON object of an events answer; throws ProtocolError.
 * @param {any} raw
 * @returns {Event}
 */
export function parseEvent(raw) {
  if (raw === null || typeof raw !== "object") throw new ProtocolError(BAD_EVENT(raw));
  const { type, seq } = raw;
  if (!Number.isInteger(seq) || seq < 1) throw new ProtocolError(BAD_EVENT(raw));
  if (type === "started") {
    const timeControl = control(raw.time_control, raw);
    const left = timeControl === null ? null : lefts(raw.left, raw);
    return Object.freeze({ type, seq, first: seat(raw.first, raw), timeControl, left });
  }
  if (type === "move" && typeof raw.move === "string" && typeof raw.end === "boolean") {
    const { move, end } = raw;
    // With end, the mover's own result as it claimed it (null: none claimed).
    const claim = raw.claim ?? null;
    if (claim !== null && !CLAIMS.includes(claim)) throw new ProtocolError(BAD_EVENT(raw));
    return Object.freeze({ type, seq, seat: seat(raw.seat, raw), move, end, left: left(raw.left, raw), claim });
  }
  if (type === "pass") return Object.freeze({ type, seq, seat: seat(raw.seat, raw), left: left(raw.left, raw) });
  if (type === "undo" && (raw.count === 1 || raw.count === 2)) {
    // An accepted takeback: the last `count` moves and passes are taken back, `seat` moves.
    const both = raw.left === undefined || raw.left === null ? null : lefts(raw.left, raw);
    return Object.freeze({ type, seq, seat: seat(raw.seat, raw), count: raw.count, left: both });
  }
  if (type === "ended" && ENDED_REASONS.includes(raw.reason)) return ended(seq, raw);
  throw new ProtocolError(BAD_EVENT(raw));
}

/**
 * Returns an `ended` event: {type, seq, reason, seat, at (the event the end is about, or
 * null), detail (why, in words: the disputer's reason or the referee's; "" for none), winner
 * (a referee's winner seat, null for a draw or no referee), refereed (whether a referee
 * decided)}.
 */
function ended(/** @type {number} */ seq, /** @type {any} */ raw) {
  const at = raw.at ?? null;
  if (at !== null && (!Number.isInteger(at) || at < 1 || at >= seq)) throw new ProtocolError(BAD_EVENT(raw));
  const detail = raw.detail ?? "";
  if (typeof detail !== "string") throw new ProtocolError(BAD_EVENT(raw));
  const refereed = "winner" in raw;
  const winner = raw.winner === null || raw.winner === undefined ? null : seat(raw.winner, raw);
  return Object.freeze({ type: "ended", seq, reason: raw.reason, seat: seat(raw.seat, raw), at, detail, winner, refereed });
}

/**
 * Returns a move's body: the claim only with a game-ending move.
 * @param {number} after @param {string} move @param {boolean} end
 * @param {import("./claims.mjs").Claim | null} claim
 * @returns {{after: number, move: string, end: boolean, claim?: import("./claims.mjs").Claim}}
 */
function moveBody(after, move, end, claim) {
  return end && claim ? { after, move, end, claim } : { after, move, end };
}

function retryAfterSeconds(/** @type {string | null} */ header) {
  if (header === null || header === undefined || header.trim() === "") return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

function errorOf(/** @type {string} */ text) {
  try {
    const { error } = JSON.parse(text);
    if (typeof error.code === "string") return [error.code, String(error.message)];
  } catch {
    // A foreign answer: a proxy's own error page, say.
  }
  return ["http/error", text.slice(0, 200)];
}

/** Returns the query naming the table version and chat cursor a reader has ("" without). */
function tableQuery(/** @type {TableCursor | null | undefined} */ at) {
  if (at === null || at === undefined) return "";
  return `&table=${at.table}&chat=${at.chat ?? 0}`;
}

/** Returns a table answer once checked (its version at least); throws ProtocolError else. */
function checkedTable(/** @type {any} */ answer, /** @type {string} */ what) {
  if (!Number.isInteger(answer?.version)) throw new ProtocolError(NOT_AN_ANSWER(what, answer));
  return answer;
}

/** Returns a rematch answer once checked; throws ProtocolError if it is not one. */
function checkedRematch(/** @type {any} */ answer) {
  const states = ["none", "offered", "accepted", "declined", "lapsed"];
  if (!Number.isInteger(answer?.version) || !states.includes(answer.state) || !Array.isArray(answer.offers)) {
    throw new ProtocolError(NOT_AN_ANSWER("rematch", answer));
  }
  return answer;
}

/**
 * Returns a blocks answer's list, each entry checked; throws ProtocolError if it is not one.
 * @param {any} answer
 * @returns {readonly Blocked[]}
 */
function checkedBlocks(answer) {
  const entries = answer?.blocks;
  const good = (/** @type {any} */ entry) =>
    typeof entry?.id === "string" &&
    (entry.name === null || typeof entry.name === "string") &&
    (entry.kind === "block" || entry.kind === "mute") &&
    typeof entry.at === "number";
  if (!Array.isArray(entries) || !entries.every(good)) throw new ProtocolError(NOT_AN_ANSWER("blocks", answer));
  return Object.freeze(
    entries.map((/** @type {any} */ entry) =>
      Object.freeze({ id: entry.id, name: entry.name, kind: entry.kind, at: entry.at }),
    ),
  );
}

/**
 * Returns each seat's public id as a match's info names them (`players`): [id0, id1], null for
 * a seat taken without a player key (both null from a relay that names none); throws
 * ProtocolError for anything else.
 * @param {any} info
 * @returns {readonly (string | null)[]}
 */
export function playersOf(info) {
  const players = info?.players ?? [null, null];
  const good = (/** @type {unknown} */ id) => id === null || typeof id === "string";
  if (!Array.isArray(players) || players.length !== 2 || !players.every(good)) {
    throw new ProtocolError(NOT_AN_ANSWER("match", info));
  }
  return Object.freeze(/** @type {(string | null)[]} */ ([...players]));
}

/**
 * Speaks protocol v1 to one relay; transient faults are retried, 4xx throw RelayRefusedError.
 *
 * Transient: network errors, timeouts, garbled answers, 408, 429 and every 5xx. They are
 * retried with exponential backoff and full jitter (see Timing) until a call has failed for
 * timing.giveUp seconds, which throws ConnectionLostError. Every write of the protocol is
 * safe to repeat: the relay applies it once, and a seek carries a token of its own drawing.
 */
export class RelayClient {
  /**
   * @param {object} [options]
   * @param {string} [options.relay] the relay's base URL; "" is the page's own origin
   * @param {Timing} [options.timing]
   * @param {typeof fetch} [options.fetch] the fetch to use (tests pass a fake)
   * @param {() => number} [options.random] in [0, 1), for jitter
   * @param {{now(): number, sleep(ms: number, signal?: AbortSignal): Promise<void>}} [options.clock]
   * @param {AbortSignal} [options.signal] aborting it stops every call with ClosedError
   * @param {(reachable: boolean, failure: string | null) => void} [options.onReachable] told
   *   when the relay stops answering (a request failed and is being retried: false, with the
   *   failure) and when it answers again (true)
   */
  constructor(options = {}) {
    this.relay = (options.relay ?? "").replace(/\/+$/, "");
    this.timing = options.timing ?? new Timing();
    const fetchFn = options.fetch ?? globalThis.fetch;
    /** @type {typeof fetch} */
    this.fetch = (input, init) => fetchFn(input, init);
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? REAL_CLOCK;
    this.signal = options.signal ?? null;
    /** How many times a request was sent again after a transient fault. */
    this.retries = 0;
    this.onReachable = options.onReachable ?? null;
    /** Whether the relay answered the latest request (false while one is retried). */
    this.reachable = true;
  }

  /**
   * Returns a seat {match, seat, token} in a waiting match of `game`, or in a new one. The
   * seat's token is drawn here: a retried seek (its answer lost) then answers the same seat.
   * `listed`: a public seek, listed in the game's lobby. `timeControl`: a TimeControl (only
   * seekers of the same one meet), or null for no clock. `keys.player`: a player key the seat
   * is listed under (players.mjs); `keys.contact`: the handle your-turn notices name;
   * `keys.name`: the seeker's display name, shown to the partner, spectators and the lobby.
   * `keys.ratingRange`: with a player key and no room, the ratings an opponent may have,
   * {within: N} or {min, max} (either may be left out; ratings.mjs, ratingRangeJson).
   * @param {string} game
   * @param {string} [version]
   * @param {string | null} [room]
   * @param {AbortSignal} [signal]
   * @param {boolean} [listed]
   * @param {TimeControl | null} [timeControl]
   * @param {{player?: string | null, contact?: string | null, name?: string | null,
   *   ratingRange?: {within?: number, min?: number, max?: number} | null}} [keys]
   * @returns {Promise<Ticket>}
   */
  async seek(game, version = "", room = null, signal = undefined, listed = false, timeControl = null, keys = {}) {
    /** @type {Record<string, unknown>} */
    const body = { game, token: drawToken() };
    if (version) body.version = version; // the relay's default is "", which it refuses to be sent
    if (room !== null && room !== undefined) body.room = room;
    if (listed) body.public = true; // listed in the game's lobby
    if (timeControl !== null && timeControl !== undefined) body.time_control = timeControl.toJson();
    if (keys.player) body.player = keys.player;
    if (keys.contact) body.contact = keys.contact;
    if (keys.name) body.name = keys.name;
    if (keys.ratingRange) body.rating_range = ratingRangeJson(keys.ratingRange);
    const answer = await this.#call("POST", "/v1/seek", null, body, { signal });
    const { match, seat: s, token } = answer ?? {};
    if (typeof match !== "string" || (s !== 0 && s !== 1) || typeof token !== "string") {
      throw new ProtocolError(NOT_AN_ANSWER("seek", answer));
    }
    return Object.freeze({ match, seat: s, token });
  }

  /**
   * Returns the match's events numbered above `after`, held up to `wait` seconds. A ticket
   * reads as its seat (telling the relay the seat is present); a bare match id as a spectator.
   * @param {Ticket | string} ticket
   * @param {number} after
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @returns {Promise<Event[]>}
   */
  async events(ticket, after, wait = null, signal = undefined) {
    return (await this.poll(ticket, after, wait, signal)).events;
  }

  /**
   * Returns {events, table} like events(), and with `at` ({table: V, chat: C}) the table too:
   * the poll then also answers when the table's version is above V, carrying it (its chat
   * lines above C) as `table`, else table is null. A table-aware poll of a seat is how the
   * relay knows the seat is here.
   * @param {Ticket | string} ticket
   * @param {number} after
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @param {TableCursor | null} [at]
   * @returns {Promise<{events: Event[], table: import("./table.mjs").RawTable | null}>}
   */
  async poll(ticket, after, wait = null, signal = undefined, at = null) {
    const [match, token] = typeof ticket === "string" ? [ticket, null] : [ticket.match, ticket.token];
    const path = `/v1/matches/${encodeURIComponent(match)}/events?after=${after}`;
    const held = this.#held(path, "&", wait, tableQuery(at));
    const answer = await this.#call("GET", path, token, null, { signal, ...held });
    if (!Array.isArray(answer?.events)) throw new ProtocolError(NOT_AN_ANSWER("events", answer));
    return { events: answer.events.map(parseEvent), table: answer.table ?? null };
  }

  /**
   * Posts a move on the position after event `after`; returns the move's event number. A
   * game-ending move may claim the mover's result ("win", "draw", "loss"): an agreed end is
   * rated by it.
   * @param {Ticket} ticket
   * @param {number} after
   * @param {string} move
   * @param {boolean} [end]
   * @param {import("./claims.mjs").Claim | null} [claim]
   * @returns {Promise<number>}
   */
  move(ticket, after, move, end = false, claim = null) {
    return this.#seq(ticket, "moves", moveBody(after, move, end, claim));
  }

  /**
   * Posts a move held up to `wait` seconds for the reply (`?wait=`): one request per move.
   * Resolves [the move's event number, the events above it, the table or null] (no events
   * when the wait ran out); a retry of a lost answer is answered the same number, with the
   * events above it then. With `at` ({table: V, chat: C}) the post is also answered at a
   * change of the table, which it then carries. `watch.sent()` is told as each attempt is
   * sent, `watch.failed()` as one fails. `claim`: a game-ending move's claim, as move() sends.
   * @param {Ticket} ticket
   * @param {number} after
   * @param {string} move
   * @param {boolean} end
   * @param {number | null} wait
   * @param {AbortSignal} [signal]
   * @param {Watch | null} [watch]
   * @param {TableCursor | null} [at]
   * @param {import("./claims.mjs").Claim | null} [claim]
   * @returns {Promise<[number, Event[], import("./table.mjs").RawTable | null]>}
   */
  async moveAndWait(ticket, after, move, end, wait, signal = undefined, watch = null, at = null, claim = null) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/moves`;
    const body = moveBody(after, move, end, claim);
    const held = this.#held(path, "?", wait, tableQuery(at));
    const answer = await this.#call("POST", path, ticket.token, body, { signal, watch, ...held });
    if (!Number.isInteger(answer?.seq) || !Array.isArray(answer?.events)) {
      throw new ProtocolError(NOT_AN_ANSWER("moves", answer));
    }
    return [answer.seq, answer.events.map(parseEvent), answer.table ?? null];
  }

  /**
   * Posts a pass (no legal move) after event `after`; returns the pass's event number.
   * @param {Ticket} ticket
   * @param {number} after
   * @returns {Promise<number>}
   */
  passTurn(ticket, after) {
    return this.#seq(ticket, "pass", { after });
  }

  /**
   * Agrees with (or disputes) the game-ending move `after`, or disputes the partner's move or
   * pass `after`; returns the `ended` number. A dispute's `reason` (a line of at most 200
   * characters: cut and cleaned here) reaches the partner and the record.
   * @param {Ticket} ticket
   * @param {number} after
   * @param {boolean} agree
   * @param {string} [reason]
   * @returns {Promise<number>}
   */
  confirm(ticket, after, agree, reason = "") {
    const why = cleanReason(reason);
    return this.#seq(ticket, "confirm", !agree && why ? { after, agree, reason: why } : { after, agree });
  }

  /**
   * Resigns the match; returns the number of the `ended` event.
   * @param {Ticket} ticket
   * @param {AbortSignal} [signal]
   * @returns {Promise<number>}
   */
  resign(ticket, signal = undefined) {
    return this.#seq(ticket, "resign", {}, signal);
  }

  /**
   * Withdraws a seek nobody has joined yet (repeating it is harmless).
   * @param {Ticket} ticket
   * @returns {Promise<void>}
   */
  async cancel(ticket) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/cancel`;
    await this.#call("POST", path, ticket.token, {});
  }

  /**
   * Withdraws a seek as its page goes away (on `pagehide`): one request the browser sends
   * even after the page is gone (`keepalive`), never retried, never awaited. sendBeacon
   * would not do: it cannot carry the seat's Authorization header.
   * @param {Ticket} ticket
   * @returns {void}
   */
  leave(ticket) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/cancel`;
    const init = { method: "POST", keepalive: true, headers: { Authorization: `Bearer ${ticket.token}` } };
    this.fetch(this.relay + path, init).catch(() => {}); // the relay drops a silent seek anyway
  }

  /**
   * Returns what the relay says of a match (GET /v1/matches/{id}): {match, game, status,
   * turn, ..., rated, ratings (docs/ratings.md), players (each seat's public id, players())};
   * a cancelled seek throws RelayRefusedError match/expired, a forgotten match match/unknown.
   * @param {string} match
   * @param {AbortSignal} [signal]
   * @returns {Promise<any>}
   */
  async matchInfo(match, signal = undefined) {
    const path = `/v1/matches/${encodeURIComponent(match)}`;
    const answer = await this.#call("GET", path, null, null, { signal });
    if (typeof answer?.status !== "string") throw new ProtocolError(NOT_AN_ANSWER("match", answer));
    return answer;
  }

  /**
   * Returns the rematch {version, state, offers, by, match, first} of a finished match; with
   * `after`, held up to `wait` seconds until its version is above `after`.
   * @param {Ticket | string} ticket
   * @param {number | null} [after]
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @returns {Promise<import("./rematch.mjs").Rematch>}
   */
  async rematch(ticket, after = null, wait = null, signal = undefined) {
    const [match, token] = typeof ticket === "string" ? [ticket, null] : [ticket.match, ticket.token];
    const path = `/v1/matches/${encodeURIComponent(match)}/rematch`;
    if (after === null) return checkedRematch(await this.#call("GET", path, token, null, { signal }));
    const held = this.#held(`${path}?after=${after}`, "&", wait);
    return checkedRematch(await this.#call("GET", path, token, null, { signal, ...held }));
  }

  /**
   * Offers (or accepts) a rematch of the finished match; offer=false declines.
   * @param {Ticket} ticket
   * @param {boolean} [offer]
   * @param {AbortSignal} [signal]
   * @returns {Promise<import("./rematch.mjs").Rematch>}
   */
  async offerRematch(ticket, offer = true, signal = undefined) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/rematch`;
    return checkedRematch(await this.#call("POST", path, ticket.token, { offer }, { signal }));
  }

  /**
   * Returns a game's lobby {game, version, open, live, recent}; with `after`, held up to
   * `wait` seconds until its version is above `after`.
   * @param {string} game
   * @param {number | null} [after]
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @returns {Promise<any>}
   */
  async lobby(game, after = null, wait = null, signal = undefined) {
    let path = `/v1/lobby?game=${encodeURIComponent(game)}`;
    if (after !== null) path += `&after=${after}`;
    const held = after === null ? {} : this.#held(path, "&", wait);
    const answer = await this.#call("GET", path, null, null, { signal, ...held });
    if (!Number.isInteger(answer?.version) || !["open", "live", "recent"].every((k) => Array.isArray(answer[k]))) {
      throw new ProtocolError(NOT_AN_ANSWER("lobby", answer));
    }
    return answer;
  }

  /**
   * Returns the match's table (names, presence, the last offer, the chat above `chat`, when a
   * staller may be claimed against); with `after`, held up to `wait` seconds until its version
   * is above `after`. A ticket reads as its seat, a bare match id as a spectator.
   * @param {Ticket | string} ticket
   * @param {number | null} [after]
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @param {number} [chat]
   * @returns {Promise<import("./table.mjs").RawTable>}
   */
  async table(ticket, after = null, wait = null, signal = undefined, chat = 0) {
    const [match, token] = typeof ticket === "string" ? [ticket, null] : [ticket.match, ticket.token];
    let path = `/v1/matches/${encodeURIComponent(match)}/table?chat=${chat}`;
    if (after !== null) path += `&after=${after}`;
    const held = after === null ? {} : this.#held(path, "&", wait);
    return checkedTable(await this.#call("GET", path, token, null, { signal, ...held }), "table");
  }

  /**
   * Offers a draw (`kind` "draw") or asks a takeback ("takeback") at event `after`; returns the table.
   * @param {Ticket} ticket
   * @param {"draw" | "takeback"} kind
   * @param {number} after
   * @returns {Promise<import("./table.mjs").RawTable>}
   */
  async offer(ticket, kind, after) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/offer`;
    return checkedTable(await this.#call("POST", path, ticket.token, { kind, after }), "offer");
  }

  /**
   * Accepts the partner's offer standing at event `after`, or declines it (the offerer's
   * decline withdraws its own); returns {seq (the acceptance's event, null for a decline), table}.
   * @param {Ticket} ticket
   * @param {boolean} accept
   * @param {number} after
   * @returns {Promise<{seq: number | null, table: import("./table.mjs").RawTable}>}
   */
  async answerOffer(ticket, accept, after) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/answer`;
    const body = accept ? { accept: true, after } : { accept: false };
    const answer = await this.#call("POST", path, ticket.token, body);
    checkedTable(answer?.table, "answer");
    if (!(answer.seq === null || Number.isInteger(answer.seq))) {
      throw new ProtocolError(NOT_AN_ANSWER("answer", answer));
    }
    return { seq: answer.seq, table: answer.table };
  }

  /**
   * Claims the win from a partner that stalls on its turn (at event `after`); returns the `ended` number.
   * @param {Ticket} ticket
   * @param {number} after
   * @returns {Promise<number>}
   */
  claim(ticket, after) {
    return this.#seq(ticket, "claim", { after });
  }

  /**
   * Says a line in the match's chat; returns its number.
   * @param {Ticket} ticket
   * @param {string} text
   * @returns {Promise<number>}
   */
  async chat(ticket, text) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/chat`;
    const answer = await this.#call("POST", path, ticket.token, { text });
    if (!Number.isInteger(answer?.n)) throw new ProtocolError(NOT_AN_ANSWER("chat", answer));
    return answer.n;
  }

  /**
   * Returns the matches a player key seated that the relay still holds, as it lists them
   * (GET /v1/player/matches): the key's turn first, then the partner's, waiting, finished.
   * @param {string} player
   * @param {AbortSignal} [signal]
   * @returns {Promise<any[]>}
   */
  async playerMatches(player, signal = undefined) {
    const answer = await this.#call("GET", "/v1/player/matches", player, null, { signal });
    if (!Array.isArray(answer?.matches)) {
      throw new ProtocolError(NOT_AN_ANSWER("player matches", answer));
    }
    return answer.matches;
  }

  /**
   * Returns the game's leaderboard (GET /v1/games/{game}/leaderboard): {game, players: [{rank,
   * id, name, rating, deviation, games, shown}]}, established ratings only, best first (at
   * most `limit`; the relay's default when null).
   * @param {string} game @param {number | null} [limit] @param {AbortSignal} [signal]
   * @returns {Promise<{game: string, players: {rank: number, id: string, name: string | null,
   *   rating: number, deviation: number, games: number, shown: string}[]}>}
   */
  async leaderboard(game, limit = null, signal = undefined) {
    let path = `/v1/games/${encodeURIComponent(game)}/leaderboard`;
    if (limit !== null && limit !== undefined) path += `?limit=${limit}`;
    const answer = await this.#call("GET", path, null, null, { signal });
    if (!Array.isArray(answer?.players)) throw new ProtocolError(NOT_AN_ANSWER("leaderboard", answer));
    return answer;
  }

  /**
   * Returns a player key's ratings (GET /v1/player/ratings): one per game it played rated
   * (`game` only, when given), each {game, rating, deviation, games, provisional, shown, at,
   * history: [{match, at, score, before, after, opponent}], newest first}; [] for an unknown key.
   * @param {string} player @param {string | null} [game] @param {AbortSignal} [signal]
   * @returns {Promise<{game: string, rating: number, deviation: number, games: number,
   *   provisional: boolean, shown: string, at: number, history: {match: string, at: number,
   *   score: number, before: number, after: number, opponent: number}[]}[]>}
   */
  async ratings(player, game = null, signal = undefined) {
    let path = "/v1/player/ratings";
    if (game !== null && game !== undefined) path += `?game=${encodeURIComponent(game)}`;
    const answer = await this.#call("GET", path, player, null, { signal });
    if (!Array.isArray(answer?.ratings)) throw new ProtocolError(NOT_AN_ANSWER("ratings", answer));
    return answer.ratings;
  }

  /**
   * Returns whether a match was rated, from matchInfo(): {rated: true, false, "pending" or
   * "voided" (the host took its rating back; false from a relay without ratings), ratings:
   * null, or once rated [{before, after}, {before, after}] by seat}.
   * @param {string} match @param {AbortSignal} [signal]
   * @returns {Promise<{rated: boolean | "pending" | "voided", ratings: {before: number, after: number}[] | null}>}
   */
  async matchRatings(match, signal = undefined) {
    const info = await this.matchInfo(match, signal);
    const rated = info.rated ?? false;
    if (rated !== true && rated !== false && rated !== "pending" && rated !== "voided") {
      throw new ProtocolError(NOT_AN_ANSWER("match", info));
    }
    return { rated, ratings: rated === true ? (info.ratings ?? null) : null };
  }

  /**
   * Returns each seat's public id in a match (GET /v1/matches/{id}, `players`): [id0, id1],
   * null for a seat taken without a player key. Only a seat with a key can be blocked or muted.
   * @param {string} match @param {AbortSignal} [signal]
   * @returns {Promise<readonly (string | null)[]>}
   */
  async players(match, signal = undefined) {
    return playersOf(await this.matchInfo(match, signal));
  }

  /**
   * Reports the seat's partner to the relay's host (POST /v1/matches/{id}/report): `about` its
   * play, its name or its chat, with the player's own words (`text`, at most REPORT_TEXT_MOST
   * characters; "" for none); returns the report's number. The same seat reporting the same
   * match about the same thing again is answered the same number. Too many reports from this
   * address is thrown at once (RelayRefusedError report/too_fast), not waited out.
   * @param {Ticket} ticket
   * @param {ReportAbout} about
   * @param {string} [text]
   * @returns {Promise<number>}
   */
  async report(ticket, about, text = "") {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/report`;
    const words = text.trim();
    const body = words === "" ? { about } : { about, text: words };
    const answer = await this.#call("POST", path, ticket.token, body, { final: true });
    if (!Number.isInteger(answer?.report)) throw new ProtocolError(NOT_AN_ANSWER("report", answer));
    return answer.report;
  }

  /**
   * Returns the keys a player key blocked or muted (GET /v1/player/blocks), newest first.
   * @param {string} player the player key
   * @param {AbortSignal} [signal]
   * @returns {Promise<readonly Blocked[]>}
   */
  async blocks(player, signal = undefined) {
    return checkedBlocks(await this.#call("GET", "/v1/player/blocks", player, null, { signal }));
  }

  /**
   * Blocks (`kind` "block": never paired again, its chat hidden) or mutes ("mute": its chat
   * hidden only) the key that sat opposite the player key in `match` (POST /v1/player/blocks);
   * a block replaces a mute and the other way round. Returns the key's blocks and mutes now.
   * The key must have sat in the match (player/not_seated), the partner with a key of its own
   * (block/no_key).
   * @param {string} player the player key
   * @param {string} match
   * @param {"block" | "mute"} kind
   * @returns {Promise<readonly Blocked[]>}
   */
  async block(player, match, kind) {
    return checkedBlocks(await this.#call("POST", "/v1/player/blocks", player, { kind, match }));
  }

  /**
   * Lifts the player key's block or mute of the public `id`; returns its blocks and mutes now.
   * @param {string} player the player key
   * @param {string} id the public id blocked or muted
   * @returns {Promise<readonly Blocked[]>}
   */
  async unblock(player, id) {
    return checkedBlocks(await this.#call("POST", "/v1/player/blocks", player, { kind: "none", id }));
  }

  /**
   * @param {Ticket} ticket
   * @param {string} action
   * @param {object} body
   * @param {AbortSignal} [signal]
   * @returns {Promise<number>}
   */
  async #seq(ticket, action, body, signal = undefined) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/${action}`;
    const answer = await this.#call("POST", path, ticket.token, body, { signal });
    if (!Number.isInteger(answer?.seq)) throw new ProtocolError(NOT_AN_ANSWER(action, answer));
    return answer.seq;
  }

  /**
   * Returns the {path, quick, timeout} of a request held up to `wait` seconds (`wait=` joined
   * to `path` by `joint`, then `more`, the rest of the query; null: the relay's hold): `quick`
   * is the same request answered at once, sent while the relay is not known to answer, so
   * that its answer says at once that the relay is back (a held one says nothing until its
   * hold ends).
   * @param {string} path
   * @param {string} joint
   * @param {number | null | undefined} wait
   * @param {string} [more]
   */
  #held(path, joint, wait, more = "") {
    const quick = `${path}${joint}wait=0${more}`;
    if (wait === null || wait === undefined) {
      const plain = more ? `${path}${joint}${more.slice(1)}` : path;
      return { path: plain, quick, timeout: this.timing.requestTimeout };
    }
    const timeout = this.timing.requestTimeout + wait;
    return { path: `${path}${joint}wait=${wait}${more}`, quick, timeout };
  }

  /**
   * Returns the JSON answer to a request, sent again after each transient fault. Options:
   * `timeout` (seconds; default the timing's requestTimeout), `signal`, `quick` (the path to
   * send instead while the relay is not answering, see #held), `watch` (told as each attempt
   * is sent, `watch.sent()`, and as one fails, `watch.failed(failure)`), `final` (a rate
   * limit's 429 is the answer, thrown as RelayRefusedError, not waited out).
   * @param {string} method
   * @param {string} path
   * @param {string | null} token
   * @param {object | null} body
   * @param {{timeout?: number, signal?: AbortSignal, watch?: Watch | null, quick?: string | null,
   *   path?: string, final?: boolean}} [options]
   * @returns {Promise<any>}
   */
  async #call(method, path, token, body, options = {}) {
    const { timeout, signal, watch = null, quick = null, final = false } = options;
    path = options.path ?? path;
    /** @type {Record<string, string>} */
    const headers = token === null ? {} : { Authorization: `Bearer ${token}` };
    let data;
    if (body !== null) {
      headers["Content-Type"] = "application/json";
      data = JSON.stringify(body);
    }
    const started = this.clock.now();
    for (let attempt = 0; ; attempt++) {
      let retryAfter = null;
      let failure;
      let limited = false; // a rate limit: the relay answered, and asks for patience
      const hurried = quick !== null && !this.reachable;
      const limitMs = (hurried ? this.timing.requestTimeout : (timeout ?? this.timing.requestTimeout)) * 1000;
      watch?.sent?.();
      try {
        const answer = await this.#once(method, hurried ? quick : path, headers, data, limitMs, signal);
        retryAfter = retryAfterSeconds(answer.headers.get("Retry-After"));
        if (answer.status < 400) {
          try {
            const parsed = JSON.parse(answer.text);
            this.#heard(true, null);
            return parsed;
          } catch {
            failure = `${answer.status} with a garbled body`;
          }
        } else {
          const [code, message] = errorOf(answer.text);
          const refused = !RETRIED_STATUSES.has(answer.status) || (final && answer.status === 429);
          if (answer.status < 500 && refused) {
            this.#heard(true, null);
            throw new RelayRefusedError(answer.status, code, message);
          }
          failure = `${answer.status} ${code}`;
          limited = answer.status === 429;
        }
      } catch (error) {
        if (error instanceof RelayRefusedError || error instanceof ClosedError) throw error;
        const thrown = /** @type {any} */ (error);
        failure = `${thrown?.name ?? "Error"}: ${thrown?.message ?? thrown}`;
      }
      watch?.failed?.(failure);
      this.#heard(limited, limited ? null : failure);
      const delay = this.timing.backoff(attempt, this.random, retryAfter);
      const waited = (this.clock.now() - started) / 1000;
      if (waited + delay > this.timing.giveUp) {
        throw new ConnectionLostError(GAVE_UP(this.relay, waited, failure));
      }
      this.retries += 1;
      await this.clock.sleep(delay * 1000, this.#combined(signal));
    }
  }

  /**
   * Notes whether the relay answered, telling onReachable of each change.
   * @param {boolean} reachable
   * @param {string | null} failure
   */
  #heard(reachable, failure) {
    if (reachable === this.reachable) return;
    this.reachable = reachable;
    this.onReachable?.(reachable, failure);
  }

  #combined(/** @type {AbortSignal | undefined} */ signal) {
    if (!signal) return this.signal ?? undefined;
    if (!this.signal) return signal;
    if (typeof AbortSignal.any === "function") return AbortSignal.any([signal, this.signal]);
    const both = new AbortController();
    for (const s of [signal, this.signal]) {
      if (s.aborted) both.abort();
      else s.addEventListener("abort", () => both.abort(), { once: true });
    }
    return both.signal;
  }

  /**
   * Sends one request; resolves {status, headers, text} or throws (network, timeout, closed).
   * @param {string} method
   * @param {string} path
   * @param {Record<string, string>} headers
   * @param {string | undefined} data
   * @param {number} limitMs
   * @param {AbortSignal | undefined} signal
   */
  async #once(method, path, headers, data, limitMs, signal) {
    const outer = this.#combined(signal);
    if (outer?.aborted) throw new ClosedError();
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    outer?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(), limitMs);
    try {
      /** @type {RequestInit} */
      const init = { method, headers, signal: controller.signal, cache: "no-store" };
      if (data !== undefined) init.body = data;
      const response = await this.fetch(this.relay + path, init);
      // The body is read under the same timeout, so a stalled answer counts as lost.
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (outer?.aborted) throw new ClosedError();
      if (controller.signal.aborted) throw new Error(`timed out after ${limitMs / 1000} s`);
      throw error;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    }
  }
}
