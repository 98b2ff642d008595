// A host's inbox: the match log's events in order, the tables read with them, the poll's
// failure and wake-ups, read one at a time by the host's loop. The twin of sdk/host/inbox.py.
// No DOM, no networking.

import { ProtocolError } from "./errors.mjs";

/** @typedef {import("./relay-client.mjs").Event} Event */
/** @typedef {import("./table.mjs").Table} Table */

/** Wakes the loop to look at what it has to send. */
export const WAKE = Symbol("wake");
/** The poll found the log shorter than what it read: a failover of the relay's store. */
export const BEHIND = Symbol("behind");

/**
 * What the host's loop takes from its inbox: an event, a table read (with the log's last event
 * when it was read, null: not known), a failure, or a signal.
 * @typedef {Event | {table: Table, asOf: number | null} | {failure: unknown} | typeof WAKE
 *   | typeof BEHIND} Item
 */

/** The ProtocolError of a log that skips events. */
export const GAP = (/** @type {number} */ cursor, /** @type {number} */ seq) =>
  `the relay skipped from event ${cursor} to event ${seq}`;

/** Holds what the loop is to handle, in order, and queues the log's events once each. */
export class Inbox {
  /** @type {Item[]} */
  #queue = [];
  /** @type {((value: void) => void) | null} */
  #waiting = null;
  /** The number of the last event queued (by a poll or a held move post's answer). */
  fed = 0;
  /** Whether the last event queued is `ended`: the log is read to its end. */
  fedEnded = false;
  /** Whether the loop is reading the inbox (the match is under way). */
  looping = false;

  /**
   * Returns whether nothing waits to be handled.
   * @returns {boolean}
   */
  get empty() {
    return this.#queue.length === 0;
  }

  /**
   * Queues an item and wakes the loop if it waits for one.
   * @param {Item} item
   * @returns {void}
   */
  push(item) {
    this.#queue.push(item);
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.();
  }

  /**
   * Resolves the next item, waiting for one.
   * @returns {Promise<Item>}
   */
  async next() {
    while (this.#queue.length === 0) {
      await new Promise((resolve) => {
        this.#waiting = resolve;
      });
    }
    return /** @type {Item} */ (this.#queue.shift());
  }

  /**
   * Queues the events above the last one queued, once each and in order; throws on a gap.
   * @param {readonly Event[]} events
   * @returns {void}
   */
  feed(events) {
    for (const event of events) {
      if (event.seq <= this.fed || this.fedEnded) continue;
      if (event.seq !== this.fed + 1) throw new ProtocolError(GAP(this.fed, event.seq));
      this.push(event);
      this.fed = event.seq;
      this.fedEnded = event.type === "ended";
    }
  }

  /**
   * Takes the tables left queued out of the inbox, in order (read with the match's end).
   * @returns {{table: Table, asOf: number | null}[]}
   */
  takeTables() {
    /** @type {{table: Table, asOf: number | null}[]} */
    const tables = [];
    for (const item of this.#queue) {
      if (typeof item === "object" && item !== null && "table" in item) tables.push(item);
    }
    this.#queue = this.#queue.filter((item) => !tables.some((table) => table === item));
    return tables;
  }
}
