// The chat lines a player said that the match's table does not show yet: sent one at a time, in
// the order said, each kept until the table carries it. The relay paces each seat's chat
// (--chat-per-minute: 429 chat/too_fast with Retry-After); the transport sends a paced line
// again once the relay lets it through, so a line waits here rather than being lost, and the
// chat panel shows it waiting ("sending…"), then sent. One at a time: lines retried side by
// side could reach the relay out of order. No DOM (node tests it).

/** How long a line waits (milliseconds) before the panel says that lines are waiting. */
export const WAITING_SHOWN_MS = 1000;

/** Returns the words of the lines waiting: "1 line waiting to send…", "3 lines waiting to send…". */
export function waitingWords(count) {
  return `${count} ${count === 1 ? "line" : "lines"} waiting to send…`;
}

/**
 * A line not yet shown by the table: `state` "waiting" (not answered yet), "sent" (the relay
 * numbered it `n`; the table shows it at its next read) or "unsent" (refused, or the relay never
 * answered: its words stay shown, and go back to the field).
 * @typedef {{id: number, text: string, state: "waiting" | "sent" | "unsent", n: number | null,
 *   since: number}} OutLine
 */

/**
 * The lines a player said, sent through `send(text)` (a Promise of the line's number), in order.
 * `changed()` is called whenever the lines change; `failed(error, line)` when a line is refused
 * (the lines behind it are then not sent: unsent, as it is); `now()` reads the clock.
 */
export class ChatOutbox {
  #send;
  #changed;
  #failed;
  #now;
  /** @type {OutLine[]} */
  #lines = [];
  #id = 0;
  #seen = 0; // the highest line number the table shows
  #epoch = 0; // raised by clear(): an answer to a line of an earlier match is dropped
  #sending = false;

  constructor(send, { changed = () => {}, failed = () => {}, now = () => performance.now() } = {}) {
    this.#send = send;
    this.#changed = changed;
    this.#failed = failed;
    this.#now = now;
  }

  /** Returns the lines not shown by the table yet, in the order said (copies). */
  get lines() {
    return this.#lines.map((line) => ({ ...line }));
  }

  /** Returns how many lines the relay has not answered yet. */
  get waiting() {
    return this.#lines.filter((line) => line.state === "waiting").length;
  }

  /**
   * Returns how many lines are waiting when the oldest has waited WAITING_SHOWN_MS or more at
   * `now` (the panel then says so), else 0: a line answered at once is never said to wait.
   */
  overdue(now = this.#now()) {
    const oldest = this.#lines.find((line) => line.state === "waiting");
    return oldest !== undefined && now - oldest.since >= WAITING_SHOWN_MS ? this.waiting : 0;
  }

  /** Says a line: it waits behind those said before it. Lines not sent before are dropped. */
  add(text) {
    this.#lines = this.#lines.filter((line) => line.state !== "unsent");
    this.#id += 1;
    this.#lines.push({ id: this.#id, text, state: "waiting", n: null, since: this.#now() });
    this.#changed();
    this.#pump();
  }

  /** Notes that the table shows its lines up to number `n`: the lines sent up to it are dropped. */
  shown(n) {
    if (n <= this.#seen) return;
    this.#seen = n;
    this.#drop();
  }

  /** Starts afresh (a new match): nothing waits, and answers still to come are dropped. */
  clear() {
    this.#epoch += 1;
    this.#sending = false;
    this.#lines = [];
    this.#seen = 0;
    this.#changed();
  }

  /** Drops the lines the table shows; tells `changed` when some went. */
  #drop() {
    const kept = this.#lines.filter((line) => line.n === null || line.n > this.#seen);
    if (kept.length === this.#lines.length) return;
    this.#lines = kept;
    this.#changed();
  }

  /** Sends the waiting lines one at a time, oldest first, until none waits or one fails. */
  async #pump() {
    if (this.#sending) return;
    this.#sending = true;
    const epoch = this.#epoch;
    for (;;) {
      const line = this.#lines.find((each) => each.state === "waiting");
      if (line === undefined) break;
      try {
        const n = await this.#send(line.text);
        if (epoch !== this.#epoch) return;
        line.state = "sent";
        line.n = n;
        this.#changed();
        this.#drop();
      } catch (error) {
        if (epoch !== this.#epoch) return;
        // Not sent, nor those behind it: their words stay shown, to be said again.
        for (const each of this.#lines) if (each.state === "waiting") each.state = "unsent";
        this.#changed();
        this.#failed(error, { ...line });
        break;
      }
    }
    this.#sending = false;
  }
}
