// How the pages speak of their way to the relay: the timing they retry with (a long, bounded
// effort before a connection is called lost), the words while they reconnect, and a notice with
// a Retry button for the pages that have no status line of a match (the lobby, the replay page).

import { Timing } from "./relay-client.mjs";

/**
 * The pages' timing: a failed request is sent again with backoff, at most 5 s apart, for five
 * minutes before the connection is called lost (a relay restart takes seconds).
 */
export const PAGE_TIMING = new Timing({ giveUp: 300 });

/** The status line while requests fail and are sent again. */
export const RECONNECTING = "Reconnecting to the relay...";

/** The status line while this side's move waits for the relay to come back. */
export const SENDING_OFFLINE = "Sending your move... (reconnecting to the relay)";

/** What a page says of a match the relay no longer knows though it was not over. */
export const FORGOTTEN = "The relay restarted and no longer knows this match; it cannot go on.";

/** Returns what a page says once the relay has not answered for the whole give-up time. */
export function lostFor(timing = PAGE_TIMING) {
  const minutes = Math.round(timing.giveUp / 60);
  const span = minutes >= 2 ? `${minutes} minutes` : `${Math.round(timing.giveUp)} seconds`;
  return `Lost the connection to the relay: it has not answered for ${span}.`;
}

/**
 * A notice at the top of a page's <main>: "Reconnecting to the relay..." while requests fail,
 * and, once they are given up, what was lost with a Retry button. Hidden while all is well.
 */
export class ConnectionNotice {
  #element;
  #text;
  #retry;
  #retries = [];
  #down = false;

  /** Creates the notice as the first child of `place` (a page's <main>). */
  constructor(place) {
    const document = place.ownerDocument;
    this.#element = document.createElement("div");
    this.#element.className = "connection";
    this.#element.setAttribute("role", "status");
    this.#element.hidden = true;
    this.#text = document.createElement("span");
    this.#text.className = "connection-text";
    this.#retry = document.createElement("button");
    this.#retry.type = "button";
    this.#retry.textContent = "Retry";
    this.#retry.hidden = true;
    this.#retry.addEventListener("click", () => this.#retryAll());
    this.#element.append(this.#text, " ", this.#retry);
    place.prepend(this.#element);
  }

  /** Shows or clears "Reconnecting to the relay..." (a lost connection stays shown). */
  reconnecting(down) {
    this.#down = down;
    if (this.#retries.length === 0) this.#show(down ? RECONNECTING : null);
  }

  /** Shows `text` with a Retry button; pressing it calls every `retry` given since. */
  lost(text, retry) {
    this.#retries.push(retry);
    this.#show(text);
    this.#retry.hidden = false;
  }

  #retryAll() {
    const retries = this.#retries;
    this.#retries = [];
    this.#retry.hidden = true;
    this.#show(this.#down ? RECONNECTING : null);
    for (const retry of retries) retry();
  }

  #show(text) {
    this.#element.hidden = text === null;
    this.#text.textContent = text ?? "";
  }
}
