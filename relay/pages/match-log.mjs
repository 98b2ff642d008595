// A match's log as a host reads it: what a resumed game restores and what it still handles,
// the moves and passes in play (less those an undo took back), whose turn it is, and what a
// failover of the relay's store lost. Pure functions: no DOM, no networking.

import { Played } from "./game.mjs";

/** Returns [the events a resumed game restores from, the events the host still handles]. */
export function splitLog(events, seat) {
  const last = events.at(-1);
  if (last?.type === "ended") return [events.slice(0, -1), [last]];
  const played = last?.type === "move" || last?.type === "pass";
  if (played && last.seat !== seat) return [events.slice(0, -1), [last]];
  return [events.slice(), []];
}

/** Returns the moves and passes of `events` as this side sees them (less those taken back). */
export function history(events, seat) {
  const played = [];
  for (const event of events) {
    if (event.type === "move") played.push(new Played(event.seat === seat, event.move, event.end));
    else if (event.type === "pass") played.push(new Played(event.seat === seat, null));
    else if (event.type === "undo") played.splice(Math.max(0, played.length - event.count));
  }
  return played;
}

/** Returns [the seat to move after `events`, whether a game-ending move awaits a confirm]. */
export function turnAfter(first, events) {
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

/** Returns whether `event` is the one handled as `known` (undefined: nothing known there). */
export function sameEvent(known, event) {
  return known === undefined || EVENT_FIELDS.every((key) => known[key] === event[key]);
}

/** Returns whether two writes of this side (moves, passes, confirms) are the same one. */
export function sameWrite(a, b) {
  return a !== null && b !== null && WRITE_FIELDS.every((key) => a[key] === b[key]);
}

/**
 * Returns this side's writes a log that ends at event `last` lost, oldest first: the moves
 * and passes of `seat` handled above `last`, and `pending` (the write the relay just
 * refused) if the log does not reach the event it followed.
 */
export function lostWrites(delivered, last, seat, pending) {
  const writes = [];
  for (const [seq, event] of [...delivered].sort((x, y) => x[0] - y[0])) {
    if (seq <= last || event.seat !== seat) continue;
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
