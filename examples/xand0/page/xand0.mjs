// Rules of X and 0 (3x3 tic-tac-toe), as examples/xand0/rules.py: pure, no DOM.
// A move is two digits "ij": column i, row j, each 0..2; row 0 is the top row.

import { FIRST, IllegalMoveError, MARKS, SECOND, endWordsFrom, lineOutcome, writeGrid } from "./board-rules.mjs";

export { FIRST, IllegalMoveError, MARKS, SECOND };

/** The number of columns and of rows. */
export const SIZE = 3;

/** The eight lines of three cells, each cell {col, row}: rows, columns, then diagonals. */
export const LINES = Object.freeze([
  ...[0, 1, 2].map((r) => [0, 1, 2].map((c) => ({ col: c, row: r }))),
  ...[0, 1, 2].map((c) => [0, 1, 2].map((r) => ({ col: c, row: r }))),
  [0, 1, 2].map((i) => ({ col: i, row: i })),
  [0, 1, 2].map((i) => ({ col: SIZE - 1 - i, row: i })),
]);

/** Returns the move {col, row} written as two digits "ij"; throws IllegalMoveError. */
export function parseMove(text) {
  if (typeof text !== "string" || !/^[0-2][0-2]$/.test(text)) {
    throw new IllegalMoveError(`move ${JSON.stringify(text)} is not two digits 'ij' (0..2)`);
  }
  return { col: Number(text[0]), row: Number(text[1]) };
}

/** Returns the two-digit string "ij" of a move. */
export function formatMove(move) {
  return `${move.col}${move.row}`;
}

/** Returns whether two moves name the same cell. */
export function sameMove(a, b) {
  return a !== null && b !== null && a.col === b.col && a.row === b.row;
}

/** An immutable position: the player on each cell (null when empty), row by row. */
export class Board {
  #cells;

  constructor(cells = new Array(SIZE * SIZE).fill(null)) {
    this.#cells = Object.freeze([...cells]);
  }

  /** Returns the starting position. */
  static empty() {
    return new Board();
  }

  /** Returns the position reached by playing the moves (strings or {col,row}) in order. */
  static fromMoves(moves) {
    let board = Board.empty();
    for (const move of moves) board = board.push(typeof move === "string" ? parseMove(move) : move);
    return board;
  }

  /** Returns the number of moves played so far. */
  get ply() {
    return this.#cells.filter((p) => p !== null).length;
  }

  /** Returns the player to move. */
  get turn() {
    return this.ply % 2 === 0 ? FIRST : SECOND;
  }

  /** Returns the player on a cell, or null when it is empty. */
  pieceAt(col, row) {
    return this.#cells[row * SIZE + col];
  }

  /** Returns the moves legal for the side to move (none once the game is over). */
  legalMoves() {
    if (this.isGameOver()) return [];
    const moves = [];
    for (let row = 0; row < SIZE; row++) {
      for (let col = 0; col < SIZE; col++) {
        if (this.pieceAt(col, row) === null) moves.push({ col, row });
      }
    }
    return moves;
  }

  /** Returns the position after the side to move plays a move; throws IllegalMoveError. */
  push(move) {
    const { col, row } = move;
    const text = `${col}${row}`;
    if (!(Number.isInteger(col) && Number.isInteger(row))) {
      throw new IllegalMoveError(`move ${JSON.stringify(move)} is not a cell`);
    }
    if (col < 0 || col >= SIZE || row < 0 || row >= SIZE) {
      throw new IllegalMoveError(`move '${text}' is off the board`);
    }
    if (this.isGameOver()) throw new IllegalMoveError(`move '${text}' played after the game is over`);
    if (this.pieceAt(col, row) !== null) {
      throw new IllegalMoveError(`cell '${text}' is already occupied`);
    }
    const cells = [...this.#cells];
    cells[row * SIZE + col] = this.turn;
    return new Board(cells);
  }

  /** Returns {winner, reason: "win" | "draw", line} once the game is over, else null. */
  outcome() {
    return lineOutcome(this, LINES, SIZE * SIZE);
  }

  /** Returns whether the game has ended (a line of three, or a full board). */
  isGameOver() {
    return this.outcome() !== null;
  }

  /** Returns the position as rows (row 0 first) of 'X', 'O', '.' joined by '/'. */
  toText() {
    return writeGrid([...Array(SIZE).keys()], SIZE, (col, row) => this.pieceAt(col, row));
  }
}

/** Returns how a finished position ended, in its referee's words; "" while the game goes on. */
export const endWords = endWordsFrom(() => "three in a row");
