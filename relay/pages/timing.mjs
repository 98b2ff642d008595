// How long a host waits: poll holds, request timeouts and the backoff between retries
// (Timing), and the clock it waits by. The twin of sdk/timing.py. No DOM.

import { ClosedError } from "./errors.mjs";

/** The timings of a host's requests, in seconds; the defaults suit the relay's defaults. */
export class Timing {
  /**
   * @param {{pollWait?: number, pollMargin?: number, requestTimeout?: number,
   *   backoffBase?: number, backoffCap?: number, giveUp?: number}} [timing] seconds each
   */
  constructor({
    pollWait = 6,
    pollMargin = 3,
    requestTimeout = 10,
    backoffBase = 0.2,
    backoffCap = 5,
    giveUp = 60,
  } = {}) {
    if (!Number.isInteger(pollWait) || pollWait < 1) {
      throw new RangeError(`pollWait must be a whole number >= 1, not ${pollWait}`);
    }
    const positive = { pollMargin, requestTimeout, backoffBase, backoffCap, giveUp };
    for (const [name, value] of Object.entries(positive)) {
      if (!(value > 0)) throw new RangeError(`${name} must be > 0, not ${value}`);
    }
    /** Whole seconds the relay is asked to hold a poll (`wait=`). */
    this.pollWait = pollWait;
    /**
     * Seconds a held request's answer may come after its hold before the connection is
     * taken for dead and the request retried (the page then says it is reconnecting): with
     * the default hold, a player whose network died silently is told within 10 s.
     */
    this.pollMargin = pollMargin;
    /** Seconds any other request may take before it is retried. */
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
    return this.pollWait + this.pollMargin;
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
