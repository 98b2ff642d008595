// Time controls and the seats' clocks, as the relay keeps them and a game reads them. Mirrors
// sdk/clock.py: the host keeps the latest reading and runs the clock of the seat to move down
// from the moment it learned of the turn, with no request of its own.

/** What TimeControl.parse says of text that is not a clock. */
export const BAD_CLOCK = (/** @type {unknown} */ text) =>
  "a clock is 'M+S' (Fischer: M minutes each, S seconds more a move, e.g. 5+3), 'M' " +
  "(minutes each, no increment), or 'Nd' / 'Nh' (correspondence: N days or hours a move, " +
  `e.g. 3d); not ${JSON.stringify(text)}`;

const FISCHER = /^(\d+(?:\.\d+)?)(?:\+(\d+))?$/;
const DEADLINE = /^(\d+)([dh])$/;

/** A match's time control: Fischer (base plus an increment a move) or a deadline a move. */
export class TimeControl {
  /**
   * @param {"fischer" | "deadline"} kind
   * @param {number} base
   * @param {number} [increment]
   */
  constructor(kind, base, increment = 0) {
    /** "fischer" or "deadline". */
    this.kind = kind;
    /** A Fischer seat's starting seconds, or a deadline control's seconds for every move. */
    this.base = base;
    /** Seconds a Fischer seat gains after each of its moves or passes. */
    this.increment = increment;
    Object.freeze(this);
  }

  /**
   * Returns a Fischer control: base seconds each, increment seconds more a move.
   * @param {number} base
   * @param {number} [increment]
   * @returns {TimeControl}
   */
  static fischer(base, increment = 0) {
    return new TimeControl("fischer", base, increment);
  }

  /**
   * Returns a correspondence control: perMove seconds for every move.
   * @param {number} perMove
   * @returns {TimeControl}
   */
  static deadline(perMove) {
    return new TimeControl("deadline", perMove);
  }

  /**
   * Returns the control a player writes: "5+3", "10", "3d", "12h"; throws RangeError else.
   * @param {string} text
   * @returns {TimeControl}
   */
  static parse(text) {
    const clean = String(text).trim().toLowerCase();
    let found = DEADLINE.exec(clean);
    if (found) return TimeControl.deadline(Number(found[1]) * (found[2] === "d" ? 86400 : 3600));
    found = FISCHER.exec(clean);
    if (found) return TimeControl.fischer(Math.round(Number(found[1]) * 60), Number(found[2] ?? 0));
    throw new RangeError(BAD_CLOCK(clean));
  }

  /**
   * Returns the control of a `time_control` field (null for null); throws RangeError else.
   * @param {any} raw
   * @returns {TimeControl | null}
   */
  static fromJson(raw) {
    if (raw === null || raw === undefined) return null;
    if (raw.kind === "fischer" && Number.isInteger(raw.base) && Number.isInteger(raw.increment)) {
      return TimeControl.fischer(raw.base, raw.increment);
    }
    if (raw.kind === "deadline" && Number.isInteger(raw.per_move)) {
      return TimeControl.deadline(raw.per_move);
    }
    throw new RangeError(`not a time control: ${JSON.stringify(raw)}`);
  }

  /**
   * Returns the control as a seek's `time_control` field.
   * @returns {{kind: "fischer", base: number, increment: number} | {kind: "deadline", per_move: number}}
   */
  toJson() {
    if (this.kind === "fischer") return { kind: "fischer", base: this.base, increment: this.increment };
    return { kind: "deadline", per_move: this.base };
  }

  /**
   * Returns the control as a player reads it: "5 min + 3 s", "10 min", "3 days a move".
   * @returns {string}
   */
  toString() {
    if (this.kind === "deadline") return `${formatLeft(this.base, this)} a move`;
    const minutes = Number((this.base / 60).toFixed(6));
    return this.increment ? `${minutes} min + ${this.increment} s` : `${minutes} min`;
  }
}

/**
 * The seats' clocks as last read: seconds left at `at` (performance.now() milliseconds), the
 * seat to move's running from then on.
 */
export class Clock {
  /**
   * @param {TimeControl} control
   * @param {readonly number[]} read each seat's seconds left at `at`
   * @param {number | null} turn the seat whose clock runs
   * @param {number} at performance.now() milliseconds
   */
  constructor(control, read, turn, at) {
    /** The match's TimeControl. */
    this.control = control;
    /** Each seat's seconds left at `at`, [seat 0, seat 1]. */
    this.read = Object.freeze([read[0], read[1]]);
    /** The seat whose clock runs (null: none runs, the match is not in play). */
    this.turn = turn;
    /** When it was read, in performance.now() milliseconds. */
    this.at = at;
    Object.freeze(this);
  }

  /**
   * Returns each seat's seconds left now (or at `now`, performance.now() milliseconds).
   * @param {number} [now]
   * @returns {number[]}
   */
  left(now = performance.now()) {
    const left = [...this.read];
    if (this.turn !== null) left[this.turn] = Math.max(0, left[this.turn] - (now - this.at) / 1000);
    return left;
  }

  /**
   * Returns the clocks after an event of the log, read at `now`: the mover's time as the
   * relay gave it, the turn (and with a deadline control, a full turn's time) to the other
   * seat; none runs once a game-ending move waits for its confirm or the match is over; an
   * `undo` sets both seats' time and runs the asker's. A move or pass without `left` (this
   * side's own, counted when sent) changes nothing.
   * @param {import("./relay-client.mjs").Event} event
   * @param {number} [now]
   * @returns {Clock}
   */
  after(event, now = performance.now()) {
    const left = this.left(now);
    if (event.type === "ended") return new Clock(this.control, left, null, now);
    // An accepted takeback: the relay gives both seats' time, and the asker's clock runs.
    if (event.type === "undo") return new Clock(this.control, event.left ?? left, event.seat, now);
    if (event.type === "started" || typeof event.left !== "number") return this;
    left[event.seat] = event.left;
    const other = 1 - event.seat;
    if (this.control.kind === "deadline") left[other] = this.control.base;
    const ending = event.type === "move" && event.end;
    return new Clock(this.control, left, ending ? null : other, now);
  }

  /**
   * Returns the clocks as `seat` sends its move or pass (the relay charges it on arrival):
   * Fischer adds the increment; the partner's clock starts (afresh with a deadline control);
   * none runs after a game-ending move.
   * @param {number} seat
   * @param {boolean} end
   * @param {number} [now]
   * @returns {Clock}
   */
  sent(seat, end, now = performance.now()) {
    const left = this.left(now);
    if (this.control.kind === "fischer") left[seat] += this.control.increment;
    else left[1 - seat] = this.control.base;
    return new Clock(this.control, left, end ? null : 1 - seat, now);
  }
}

/**
 * Returns time left as a player reads it: "4:53" (or "1:02:03") for Fischer, "2 days 4 hours"
 * / "5 hours 12 minutes" / "12 minutes" for a correspondence deadline. Same as sdk/clock.py.
 * @param {number} seconds
 * @param {TimeControl} control
 * @returns {string}
 */
export function formatLeft(seconds, control) {
  const whole = Math.max(0, Math.floor(seconds));
  if (control.kind === "fischer") {
    const hours = Math.floor(whole / 3600);
    const minutes = Math.floor((whole % 3600) / 60);
    const secs = String(whole % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
  }
  const days = Math.floor(whole / 86400);
  const hours = Math.floor((whole % 86400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  if (days) return units(days, "day", hours, "hour");
  if (hours) return units(hours, "hour", minutes, "minute");
  return minutes ? units(minutes, "minute", 0, "") : units(whole, "second", 0, "");
}

/**
 * @param {number} big
 * @param {string} bigName
 * @param {number} small
 * @param {string} smallName
 */
function units(big, bigName, small, smallName) {
  let text = `${big} ${bigName}${big !== 1 ? "s" : ""}`;
  if (small) text += ` ${small} ${smallName}${small !== 1 ? "s" : ""}`;
  return text;
}
