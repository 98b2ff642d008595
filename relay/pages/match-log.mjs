// A match's log as a host reads it: what a resumed game restores and what it still handles,
// the moves and passes in play (less those an undo took back), whose turn it is, and what a
// failover of the relay's store lost. Pure functions: no DOM, no networking.

import { Played } from "./game.mjs";

/** @typedef {import("./relay-client.mjs").Event} Event */
/**
 * A write of this side's: a move (a game-ending one with its claim and its game's words), a
 * pass or a confirm of the end, posted after event `after`.
 * @typedef {{kind: "move", after: number, move: string, end: boolean,
 *     claim?: import("./claims.mjs").Claim | null, detail?: string}
 *   | {kind: "pass", after: number}
 *   | {kind: "confirm", after: number, agree: boolean, reason: string}} Write
 */

/** Returns [the events a resumed game restores from, the events the host still handles]. */
export function splitLog(/** @type {readonly Event[]} */ events, /** @type {number} */ seat) {
  const last = events.at(-1);
  if (last?.type === "ended") return [events.slice(0, -1), [last]];
  const played = last?.type === "move" || last?.type === "pass";
  if (played && last.seat !== seat) return [events.slice(0, -1), [last]];
  return [events.slice(), []];
}

/** Returns the moves and passes of `events` as this side sees them (less those taken back). */
export function history(/** @type {readonly Event[]} */ events, /** @type {number} */ seat) {
  const played = [];
  for (const event of events) {
    if (event.type === "move") played.push(new Played(event.seat === seat, event.move, event.end));
    else if (event.type === "pass") played.push(new Played(event.seat === seat, null));
    else if (event.type === "undo") played.splice(Math.max(0, played.length - event.count));
  }
  return played;
}

/** Returns [the seat to move after `events`, whether a game-ending move awaits a confirm]. */
export function turnAfter(/** @type {number} */ first, /** @type {readonly Event[]} */ events) {
  let turn = first;
  let ending = false;
  for (const event of events) {
    if (event.type === "move" || event.type === "pass") {
      turn = 1 - event.seat;
      ending = event.type === "move" && event.end;
    } else if (event.type === "undo") {
      turn = event.seat; // the asker has the turn again
      ending = false;
    }
  }
  return [turn, ending];
}

const EVENT_FIELDS = ["type", "seq", "seat", "move", "end", "first", "reason", "count"];
const WRITE_FIELDS = ["kind", "after", "move", "end", "agree"];

/**
 * Returns an event's or a write's field by name (undefined where it has none).
 * @param {object} item
 * @param {string} key
 * @returns {unknown}
 */
function field(item, key) {
  return /** @type {Record<string, unknown>} */ (item)[key];
}

/** Returns whether `event` is the one handled as `known` (undefined: nothing known there). */
export function sameEvent(/** @type {Event | undefined} */ known, /** @type {Event} */ event) {
  return known === undefined || EVENT_FIELDS.every((key) => field(known, key) === field(event, key));
}

/** Returns whether two writes of this side (moves, passes, confirms) are the same one. */
export function sameWrite(/** @type {Write | null} */ a, /** @type {Write | null} */ b) {
  return a !== null && b !== null && WRITE_FIELDS.every((key) => field(a, key) === field(b, key));
}

/**
 * Returns this side's writes a log that ends at event `last` lost, oldest first: the moves
 * and passes of `seat` handled above `last`, and `pending` (the write the relay just
 * refused) if the log does not reach the event it followed.
 */
export function lostWrites(/** @type {ReadonlyMap<number, Event>} */ delivered, /** @type {number} */ last, /** @type {number} */ seat, /** @type {Write | null} */ pending) {
  /** @type {Write[]} */
  const writes = [];
  for (const [seq, event] of [...delivered].sort((x, y) => x[0] - y[0])) {
    if (seq <= last || !("seat" in event) || event.seat !== seat) continue;
    const after = seq - 1;
    if (event.type === "move") {
      writes.push({ kind: "move", after, move: event.move, end: event.end, claim: event.claim ?? null });
    }
    else if (event.type === "pass") writes.push({ kind: "pass", after });
  }
  if (pending !== null && pending.after >= last && !writes.some((w) => w.after === pending.after)) {
    writes.push(pending);
  }
  return writes.sort((x, y) => x.after - y.after);
}
