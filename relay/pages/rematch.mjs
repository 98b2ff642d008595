// Rematches in the browser: follow the rematch of a finished match, offer, accept, decline.
//
// The relay keeps the rematch beside the finished match (docs/protocol.md, "Rematch"); a
// RematchWatch long-polls it, so each side learns of the other's offer or answer without a
// reload. Once both offered, `accepted.match` is the new match: each side plays it from the
// same seat, with the same token (RelayHost.resume), the first move swapped.

import { ClosedError } from "./errors.mjs";
import { RelayClient, Timing } from "./relay-client.mjs";

/** @typedef {import("./relay-client.mjs").Ticket} Ticket */
/**
 * A rematch as the relay reports it: its `version`, `state` ("none", "offered", "accepted",
 * "declined" or "lapsed"), `offers` (whether each seat offered), `by` (the seat that declined),
 * `match` (the new match, once accepted) and `first` (who moves first in it).
 * @typedef {{version: number, state: string, offers: boolean[], by?: number | null,
 *   match?: string | null, first?: number | null}} Rematch
 */

/** Follows the rematch of one finished match, as one seat. */
export class RematchWatch {
  /** @type {RelayClient} */
  #client;
  /** @type {Ticket} */
  #ticket;
  /** @type {(rematch: Rematch) => void} */
  #onChange;
  /** @type {(error: unknown) => void} */
  #onError;
  #abort = new AbortController();
  #version = -1;

  /**
   * @param {object} options
   * @param {string} options.relay the relay's base URL
   * @param {Ticket} options.ticket the seat of the old match
   * @param {(rematch: Rematch) => void} options.onChange told each new state of the rematch
   * @param {(error: unknown) => void} [options.onError] told when following it fails for good
   * @param {Timing} [options.timing]
   * @param {typeof fetch} [options.fetch]
   */
  constructor(options) {
    this.#ticket = options.ticket;
    this.#onChange = options.onChange;
    this.#onError = options.onError ?? (() => {});
    this.#client = new RelayClient({
      relay: options.relay,
      timing: options.timing ?? new Timing(),
      fetch: options.fetch,
      signal: this.#abort.signal,
    });
    /** The rematch as last heard, or null before the first answer. */
    this.current = null;
  }

  /** Returns this side's seat. */
  get seat() {
    return this.#ticket.seat;
  }

  /** Returns the finished match's id. */
  get match() {
    return this.#ticket.match;
  }

  /** Starts following: onChange is told the state now, then each change, until closed. */
  async follow() {
    try {
      for (;;) {
        const after = this.#version < 0 ? null : this.#version;
        const found = await this.#client.rematch(this.#ticket, after, this.#client.timing.pollWait);
        this.#seen(found);
        if (found.state === "accepted") return;
      }
    } catch (error) {
      if (!(error instanceof ClosedError)) this.#onError(error);
    }
  }

  /** Offers a rematch, or accepts the partner's offer. */
  async offer() {
    this.#seen(await this.#client.offerRematch(this.#ticket, true));
  }

  /** Declines the partner's offer (or withdraws this side's). */
  async decline() {
    this.#seen(await this.#client.offerRematch(this.#ticket, false));
  }

  /** Stops following. */
  close() {
    this.#abort.abort();
  }

  /** Returns the ticket of this side in the accepted rematch's new match. */
  ticketIn(/** @type {Rematch} */ accepted) {
    return Object.freeze({ match: accepted.match, seat: this.#ticket.seat, token: this.#ticket.token });
  }

  #seen(/** @type {Rematch} */ found) {
    if (found.version <= this.#version) return;
    this.#version = found.version;
    this.current = found;
    this.#onChange(found);
  }
}

/**
 * Returns the words for where a rematch stands, as `seat` sees it, and which buttons to show:
 * {text, offer, accept, decline}.
 */
export function rematchView(/** @type {Rematch | null} */ rematch, /** @type {number} */ seat) {
  const partner = 1 - seat;
  const state = rematch?.state ?? "none";
  if (state === "offered" && rematch?.offers[seat]) {
    return { text: "Rematch offered: waiting for your opponent...", offer: false, accept: false, decline: false };
  }
  if (state === "offered" && rematch?.offers[partner]) {
    return { text: "Your opponent offers a rematch.", offer: false, accept: true, decline: true };
  }
  if (state === "accepted") return { text: "Rematch accepted: starting...", offer: false, accept: false, decline: false };
  if (state === "declined" && rematch?.by === partner) {
    return { text: "Your opponent declined a rematch.", offer: true, accept: false, decline: false };
  }
  if (state === "lapsed") return { text: "The rematch offer lapsed.", offer: true, accept: false, decline: false };
  return { text: "", offer: true, accept: false, decline: false };
}
