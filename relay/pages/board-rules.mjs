// What the pages' board rules share (as examples/board/rules.py): players, marks, and the
// error of an illegal move. xand0.mjs, connect4.mjs and dots.mjs export these again.

/** The player who moves first (marks X), and the one who moves second (marks O). */
export const FIRST = 0;
export const SECOND = 1;

/** The mark of each player, indexed by player. */
export const MARKS = Object.freeze(["X", "O"]);

/** Raised when a move string is malformed or a move is not legal in the position. */
export class IllegalMoveError extends Error {
  constructor(message) {
    super(message);
    this.name = "IllegalMoveError";
  }
}
