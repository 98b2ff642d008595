// The two clocks of a game page: each seat's time left, the seat to move's ticking down, and a
// polite spoken reading of this side's clock at a sensible granularity (not every second).

import { formatLeft, TimeControl } from "./clock.mjs";

/** The controls a page offers when seeking: value (as TimeControl.parse reads it) and label. */
export const CLOCK_CHOICES = Object.freeze([
  ["", "No clock"],
  ["5+3", "5 min + 3 s"],
  ["10", "10 min"],
  ["1d", "1 day a move"],
  ["3d", "3 days a move"],
]);

/** Returns the TimeControl a page's choice names, or null for none (or a value not offered). */
export function chosenControl(value) {
  if (!CLOCK_CHOICES.some(([offered]) => offered === value) || value === "") return null;
  return TimeControl.parse(value);
}

/** Returns the page's choice that names `control` ("" for none, or a control not offered). */
export function choiceOf(control) {
  if (control === null) return "";
  const same = (value) => {
    const offered = chosenControl(value);
    return offered !== null && offered.kind === control.kind && offered.base === control.base && offered.increment === control.increment;
  };
  return CLOCK_CHOICES.find(([value]) => same(value))?.[0] ?? "";
}

/**
 * Returns the true time left, as a screen reader says it: whole minutes from a minute up,
 * else whole seconds ("2 seconds left"); a deadline as formatLeft (days and hours, then hours
 * and minutes).
 */
export function spokenLeft(seconds, control) {
  const whole = Math.max(0, Math.floor(seconds));
  if (control.kind === "deadline") return `${formatLeft(whole, control)} left`;
  if (whole >= 60) {
    const minutes = Math.floor(whole / 60);
    return `${minutes} minute${minutes === 1 ? "" : "s"} left`;
  }
  return `${whole} second${whole === 1 ? "" : "s"} left`;
}

/**
 * Returns the stretch of time a clock is in, which changes only when it is worth saying the
 * time again: each minute, then each ten seconds under a minute, then each second from five.
 * A deadline's stretch is its spoken words.
 */
export function spokenStep(seconds, control) {
  const whole = Math.max(0, Math.floor(seconds));
  if (control.kind === "deadline") return spokenLeft(whole, control);
  if (whole >= 60) return `m${Math.floor(whole / 60)}`;
  if (whole > 10) return `s${Math.ceil(whole / 10) * 10}`;
  return `s${whole > 5 ? 10 : whole}`;
}

/**
 * Shows a host's clocks in `element` (a .clocks block of two .clock rows and a live region)
 * while a match with a control is on; call update() whenever the host's state changes.
 */
export class ClockView {
  #timer = null;

  constructor(element, sides) {
    /** The block holding the clocks. */
    this.element = element;
    /** Each seat's name, e.g. ["X", "O"]. */
    this.sides = sides;
    this.rows = [...element.querySelectorAll(".clock")];
    this.spoken = element.querySelector(".clock-spoken");
    /** What the other side is called on its clock: "Opponent", or "Computer". */
    this.opponent = "Opponent";
    this.host = null;
    this.side = 0;
    this.said = "";
  }

  /**
   * Follows `host` (null: no match), whose player plays `side` (0: the first mover's name in
   * sides); shows its clocks once it has any.
   */
  update(host, side = 0) {
    this.host = host;
    this.side = side;
    this.#paint();
    const clock = host?.clock ?? null;
    const running = clock !== null && clock.turn !== null;
    if (running && this.#timer === null) this.#timer = setInterval(() => this.#paint(), 250);
    if (!running && this.#timer !== null) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }

  #paint() {
    const host = this.host;
    const clock = host?.clock ?? null;
    this.element.hidden = clock === null;
    if (clock === null || host.ticket === null) return;
    const left = clock.left();
    const mine = host.ticket.seat;
    for (const [index, row] of this.rows.entries()) {
      const seat = index === 0 ? mine : 1 - mine;
      const name = this.sides[index === 0 ? this.side : 1 - this.side];
      row.querySelector(".clock-who").textContent = `${index === 0 ? "You" : this.opponent} (${name})`;
      row.querySelector(".clock-time").textContent = formatLeft(left[seat], clock.control);
      row.dataset.running = String(clock.turn === seat);
      row.dataset.low = String(clock.control.kind === "fischer" && left[seat] < 10);
    }
    // Said anew only at a step worth saying (not every second), with the true time then.
    const step = clock.turn === mine ? spokenStep(left[mine], clock.control) : "";
    if (step !== this.said) {
      this.said = step;
      this.spoken.textContent = step ? `Your clock: ${spokenLeft(left[mine], clock.control)}.` : "";
    }
  }
}
