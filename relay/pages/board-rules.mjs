// What the pages' board rules share (as examples/board/rules.py): players, marks, the error of
// an illegal move, and the words of an end (as examples/board/words.py). xand0.mjs,
// connect4.mjs and dots.mjs export these again.

import { MoveRejected } from "./errors.mjs";

/** The player who moves first (marks X), and the one who moves second (marks O). */
export const FIRST = 0;
export const SECOND = 1;

/** The mark of each player, indexed by player. */
export const MARKS = Object.freeze(["X", "O"]);

/**
 * Raised when a move string is malformed or a move is not legal in the position, as the SDK's
 * IllegalMoveError: a MoveRejected, so thrown from a game's receiveMove() it is a dispute with
 * its words.
 */
export class IllegalMoveError extends MoveRejected {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "IllegalMoveError";
  }
}

/** How the example boards' draws end, in their referees' words. */
export const BOARD_FULL = "the board is full";

/**
 * Returns a rules module's `endWords(board)`: `won(board)` for a win ("four in a row", as the
 * game's referee says it), `drawn` for a draw, "" while the game goes on (as end_words in
 * examples/board/words.py).
 * @template {{outcome(): {winner: number | null} | null}} B
 * @param {(board: B) => string} won
 * @param {string} [drawn]
 * @returns {(board: B) => string}
 */
export function endWordsFrom(won, drawn = BOARD_FULL) {
  return (board) => {
    const outcome = board.outcome();
    if (outcome === null) return "";
    return outcome.winner === null ? drawn : won(board);
  };
}

/**
 * Returns the outcome of a game of lines (X and 0, Connect Four): {winner, reason: "win",
 * line} for the first line of `lines` one player fills, a draw once all `cells` are played,
 * else null.
 * @param {{pieceAt(col: number, row: number): number | null, ply: number}} board
 * @param {ReadonlyArray<ReadonlyArray<{col: number, row: number}>>} lines
 * @param {number} cells
 */
export function lineOutcome(board, lines, cells) {
  for (const player of [FIRST, SECOND]) {
    for (const line of lines) {
      if (line.every(({ col, row }) => board.pieceAt(col, row) === player)) {
        return { winner: player, reason: "win", line };
      }
    }
  }
  if (board.ply === cells) return { winner: null, reason: "draw", line: [] };
  return null;
}

/**
 * Returns a grid as rows of 'X', 'O', '.' joined by '/' (as write_grid in
 * examples/board/rules.py): `rows` in the order written, `pieceAt(col, row)` naming each cell's.
 * @param {Iterable<number>} rows
 * @param {number} cols
 * @param {(col: number, row: number) => number | null} pieceAt
 */
export function writeGrid(rows, cols, pieceAt) {
  const written = [];
  for (const row of rows) {
    let text = "";
    for (let col = 0; col < cols; col++) {
      const p = pieceAt(col, row);
      text += p === null ? "." : MARKS[p];
    }
    written.push(text);
  }
  return written.join("/");
}
