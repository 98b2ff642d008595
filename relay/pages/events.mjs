// The match log's events as a host reads them: each event of protocol v1 (docs/protocol.md,
// "Events"), typed, and parseEvent(), which checks one JSON object of an events answer. The
// twin of sdk/events.py. No DOM, no networking.

import { ProtocolError } from "./errors.mjs";
import { TimeControl } from "./clock.mjs";
import { CLAIMS } from "./claims.mjs";

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
