// A game page's board (play.mjs): the game's view drawn on each change, the line under it
// that says the last move, and a click or key that cannot play told why (move-hints.mjs).

import { HintLine, whyNot } from "./move-hints.mjs";

/** The board of a game page: `view` is what its BoardGame draws on. */
export class PageBoard {
  /** @type {{update: (g: any, change?: unknown) => void}} the view a BoardGame draws on */
  view;
  #page;
  #last;
  #hints;
  #game;
  #opponent;

  /**
   * @param {any} page the game page's GAME (play.mjs)
   * @param {{board: HTMLElement, last: HTMLElement, hint: HTMLElement}} el the page's elements
   * @param {() => any} game the page's BoardGame now, null before a match starts
   * @param {() => {who: string, label: string}} opponent what the page calls the other side
   */
  constructor(page, el, game, opponent) {
    this.#page = page;
    this.#last = el.last;
    this.#hints = new HintLine(el.hint);
    this.#game = game;
    this.#opponent = opponent;
    const boardView = page.createView(el.board, {
      onPlay: (/** @type {unknown} */ move) => this.#choose(move),
      opponent: () => opponent().label,
    });
    this.view = {
      update: (g, change) => {
        boardView.update(g, change);
        this.#showLastMove(g);
      },
    };
  }

  /** Plays a move chosen on the board, or says why it cannot be played. */
  #choose(/** @type {unknown} */ move) {
    const game = this.#game();
    if (game === null) return;
    if (game.play(move)) this.#hints.clear();
    else this.#hints.show(whyNot(game, this.#page.taken ?? "That move is not possible."));
  }

  /** Says the last move under the board: "You played X at row 2, column 3." */
  #showLastMove(/** @type {any} */ g) {
    if (g.last === null) {
      this.#last.textContent = "";
      return;
    }
    const page = this.#page;
    const mover = g.lastBy ?? 1 - g.board.turn;
    const who = mover === g.side ? "You" : this.#opponent().who;
    this.#last.textContent = page.said
      ? page.said(who, mover, g.last)
      : `${who} played ${page.sides[mover]} ${page.where(g.last)}.`;
  }
}
