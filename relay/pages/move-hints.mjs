// A brief word when a click or key on the board cannot play: out of turn, a full column, a
// taken square. Shown beside the board and said by screen readers, then gone.

import { State } from "./movewire.mjs";

/** What a move out of turn is told. */
export const NOT_YOUR_TURN = "Not your turn yet.";

/** What a move after the end is told. */
export const GAME_OVER = "The game is over.";

/** How long a hint stays, in milliseconds. */
export const HINT_MS = 3000;

/**
 * Returns why `game` (a BoardGame) cannot play a move now: the end, not this side's turn, or
 * `taken` (the move itself is not legal: "That column is full.").
 */
export function whyNot(game, taken) {
  if (game.board.outcome() !== null) return GAME_OVER;
  if (!game.enabled || game.host?.state !== State.PLAYING_TO_MOVE) return NOT_YOUR_TURN;
  return taken;
}

/** A live line that shows one hint at a time for HINT_MS. */
export class HintLine {
  #timer = null;

  constructor(element, ms = HINT_MS) {
    /** The element the hint is written in (a polite live region). */
    this.element = element;
    this.ms = ms;
  }

  /** Shows `text` now (said again even if it is the same as the last), gone after a while. */
  show(text) {
    clearTimeout(this.#timer);
    // Emptied first, so that a screen reader hears the same hint twice in a row.
    this.element.textContent = "";
    setTimeout(() => {
      this.element.textContent = text;
    }, 30);
    this.#timer = setTimeout(() => this.clear(), this.ms);
  }

  /** Takes the hint away. */
  clear() {
    clearTimeout(this.#timer);
    this.element.textContent = "";
  }
}
