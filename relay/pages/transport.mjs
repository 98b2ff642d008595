// Transport: one relay's requests, each sent again through transient faults with backoff (see
// Timing); RelayClient (relay-client.mjs) speaks the protocol over it. No DOM.

import { ClosedError, ConnectionLostError, RelayRefusedError } from "./errors.mjs";
import { REAL_CLOCK, Timing } from "./timing.mjs";

/** The ProtocolError of an answer that is not what protocol v1 says. */
export const NOT_AN_ANSWER = (/** @type {string} */ what, /** @type {unknown} */ body) =>
  `the relay's answer to ${what} is not protocol v1: ${JSON.stringify(body)}`;
const GAVE_UP = (/** @type {string} */ url, /** @type {number} */ seconds, /** @type {string} */ failure) =>
  `no answer from ${url || "this page's relay"} for ${seconds.toFixed(1)} s (${failure})`;

/** 4xx answers that mean "try again": request timeout and rate limits (5xx are all retried). */
const RETRIED_STATUSES = new Set([408, 429]);

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

/**
 * Told as each attempt of a request is sent, and as one fails.
 * @typedef {{sent?: () => void, failed?: (failure: string) => void}} Watch
 */

/**
 * Sends a relay's requests; transient faults are retried, 4xx throw RelayRefusedError.
 *
 * Transient: network errors, timeouts, garbled answers, 408, 429 and every 5xx. They are
 * retried with exponential backoff and full jitter (see Timing) until a call has failed for
 * timing.giveUp seconds, which throws ConnectionLostError.
 */
export class Transport {
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
  held(path, joint, wait, more = "") {
    const quick = `${path}${joint}wait=0${more}`;
    if (wait === null || wait === undefined) {
      const plain = more ? `${path}${joint}${more.slice(1)}` : path;
      return { path: plain, quick, timeout: this.timing.requestTimeout };
    }
    const timeout = this.timing.pollMargin + wait;
    return { path: `${path}${joint}wait=${wait}${more}`, quick, timeout };
  }

  /**
   * Returns the JSON answer to a request, sent again after each transient fault. Options:
   * `timeout` (seconds; default the timing's requestTimeout), `signal`, `quick` (the path to
   * send instead while the relay is not answering, see held()), `watch` (told as each attempt
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
  async call(method, path, token, body, options = {}) {
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
