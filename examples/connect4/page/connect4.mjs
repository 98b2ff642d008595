// Rules of Connect Four on a 7x6 board, as examples/connect4/rules.py: pure, no DOM.
// A move is one digit "0".."6": the column a piece is dropped into; row 0 is the bottom.

import { FIRST, IllegalMoveError, MARKS, SECOND, endWordsFrom, lineOutcome, writeGrid } from "./board-rules.mjs";

export { FIRST, IllegalMoveError, MARKS, SECOND };

/** The number of columns and of rows. */
export const WIDTH = 7;
export const HEIGHT = 6;

function lines() {
  const found = [];
  const directions = [
    [1, 0],
    [0, 1],
    [1, 1],
    [-1, 1],
  ];
  for (const [dc, dr] of directions) {
    for (let row = 0; row < HEIGHT; row++) {
      for (let col = 0; col < WIDTH; col++) {
        const endCol = col + 3 * dc;
        const endRow = row + 3 * dr;
        if (endCol < 0 || endCol >= WIDTH || endRow >= HEIGHT) continue;
        found.push([0, 1, 2, 3].map((k) => ({ col: col + k * dc, row: row + k * dr })));
      }
    }
  }
  return found;
}

/** The 69 lines of four cells, each cell {col, row}. */
export const LINES = Object.freeze(lines());

/** Returns the column written as one digit "0".."6"; throws IllegalMoveError. */
export function parseMove(text) {
  if (typeof text !== "string" || !/^[0-6]$/.test(text)) {
    throw new IllegalMoveError(`move ${JSON.stringify(text)} is not one column digit 0..6`);
  }
  return Number(text);
}

/** Returns the one-digit string of a column. */
export function formatMove(column) {
  return String(column);
}

/** Returns whether two moves name the same column. */
export function sameMove(a, b) {
  return a !== null && a === b;
}

/** An immutable position: each column's pieces, bottom first. */
export class Board {
  #columns;

  constructor(columns = Array.from({ length: WIDTH }, () => [])) {
    this.#columns = Object.freeze(columns.map((pieces) => Object.freeze([...pieces])));
  }

  /** Returns the starting position. */
  static empty() {
    return new Board();
  }

  /** Returns the position reached by playing the columns (digits or numbers) in order. */
  static fromMoves(moves) {
    let board = Board.empty();
    for (const move of moves) board = board.push(typeof move === "string" ? parseMove(move) : move);
    return board;
  }

  /** Returns the number of moves played so far. */
  get ply() {
    return this.#columns.reduce((sum, pieces) => sum + pieces.length, 0);
  }

  /** Returns the player to move. */
  get turn() {
    return this.ply % 2 === 0 ? FIRST : SECOND;
  }

  /** Returns the number of pieces in a column. */
  height(col) {
    return this.#columns[col].length;
  }

  /** Returns the player holding a cell, or null when it is empty. */
  pieceAt(col, row) {
    return this.#columns[col][row] ?? null;
  }

  /** Returns the columns the side to move may play (none once the game is over). */
  legalMoves() {
    if (this.isGameOver()) return [];
    return [...Array(WIDTH).keys()].filter((col) => this.height(col) < HEIGHT);
  }

  /** Returns the position after the side to move plays a column; throws IllegalMoveError. */
  push(col) {
    if (!Number.isInteger(col) || col < 0 || col >= WIDTH) {
      throw new IllegalMoveError(`move ${JSON.stringify(col)} is not a column 0..6`);
    }
    if (this.isGameOver()) throw new IllegalMoveError(`move ${col} played after the game is over`);
    if (this.height(col) === HEIGHT) throw new IllegalMoveError(`column ${col} is full`);
    const columns = this.#columns.map((pieces) => [...pieces]);
    columns[col].push(this.turn);
    return new Board(columns);
  }

  /** Returns {winner, reason: "win" | "draw", line} once the game is over, else null. */
  outcome() {
    return lineOutcome(this, LINES, WIDTH * HEIGHT);
  }

  /** Returns whether the game has ended (four in a row, or a full board). */
  isGameOver() {
    return this.outcome() !== null;
  }

  /** Returns the position as rows (top row first) of 'X', 'O', '.' joined by '/'. */
  toText() {
    return writeGrid([...Array(HEIGHT).keys()].reverse(), WIDTH, (col, row) => this.pieceAt(col, row));
  }
}

/** Returns how a finished position ended, in its referee's words; "" while the game goes on. */
export const endWords = endWordsFrom(() => "four in a row", "a draw: the board is full");
