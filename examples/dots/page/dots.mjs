// Rules of Dots and Boxes on 3x3 boxes, as examples/dots/rules.py: pure, no DOM.
// The 16 dots are at (row, col), 0..3. A move draws a line: "hRC" from dot (R, C) to
// (R, C+1), "vRC" from (R, C) to (R+1, C). Whoever closes a box owns it and moves again.

import { FIRST, IllegalMoveError, MARKS, SECOND, endWordsFrom } from "./board-rules.mjs";

export { FIRST, IllegalMoveError, MARKS, SECOND };

/** Boxes on a side, and dots on a side. */
export const BOXES = 3;
export const DOTS = BOXES + 1;

function onBoard({ kind, row, col }) {
  const [rows, cols] = kind === "h" ? [DOTS, BOXES] : [BOXES, DOTS];
  return row >= 0 && row < rows && col >= 0 && col < cols;
}

/** Every line of the board: 12 horizontal, then 12 vertical (the order of LINES in Python). */
export const LINES = Object.freeze(
  ["h", "v"].flatMap((kind) =>
    Array.from({ length: DOTS * DOTS }, (_, i) => ({ kind, row: Math.floor(i / DOTS), col: i % DOTS }))
      .filter(onBoard),
  ),
);

const indexOf = (line) => LINES.findIndex((l) => sameMove(l, line));

/** Returns the four sides of a box: top, bottom, left, right. */
export function boxSides(row, col) {
  return [
    { kind: "h", row, col },
    { kind: "h", row: row + 1, col },
    { kind: "v", row, col },
    { kind: "v", row, col: col + 1 },
  ];
}

const BOX_SIDES = Array.from({ length: BOXES * BOXES }, (_, b) =>
  boxSides(Math.floor(b / BOXES), b % BOXES).map(indexOf),
);

/** Returns whether two moves name the same line. */
export function sameMove(a, b) {
  return a !== null && b !== null && a.kind === b.kind && a.row === b.row && a.col === b.col;
}

/** Returns the line a move string names ("h01"); throws IllegalMoveError. */
export function parseMove(text) {
  if (typeof text !== "string" || !/^[hv][0-9][0-9]$/.test(text)) {
    throw new IllegalMoveError(`move ${JSON.stringify(text)} is not a line: h or v, then row and column digits (h01, v12)`);
  }
  const line = { kind: text[0], row: Number(text[1]), col: Number(text[2]) };
  if (!onBoard(line)) throw new IllegalMoveError(`line ${JSON.stringify(text)} is off the board`);
  return line;
}

/** Returns the move string of a line: "h01" or "v12". */
export function formatMove(move) {
  return `${move.kind}${move.row}${move.col}`;
}

/** An immutable position: the lines drawn, each box's owner (or null), the player to move. */
export class Board {
  constructor(drawn = new Array(LINES.length).fill(false), owners = new Array(BOXES * BOXES).fill(null), turn = FIRST) {
    this.drawn = drawn;
    this.owners = owners;
    this.turn = turn;
    Object.freeze(this);
  }

  /** Returns the starting position. */
  static empty() {
    return new Board();
  }

  /** Returns the position reached by drawing the lines (strings or lines) in order. */
  static fromMoves(moves) {
    let board = new Board();
    for (const move of moves) board = board.push(typeof move === "string" ? parseMove(move) : move);
    return board;
  }

  /** Returns the number of lines drawn. */
  get ply() {
    return this.drawn.filter(Boolean).length;
  }

  /** Returns whether a line is drawn. */
  isDrawn(line) {
    return this.drawn[indexOf(line)];
  }

  /** Returns the player who closed a box, or null while it is open. */
  boxOwner(row, col) {
    return this.owners[row * BOXES + col];
  }

  /** Returns how many boxes each player owns. */
  score() {
    return [FIRST, SECOND].map((p) => this.owners.filter((o) => o === p).length);
  }

  /** Returns the lines not yet drawn (none once the game is over). */
  legalMoves() {
    return LINES.filter((_, i) => !this.drawn[i]);
  }

  /** Returns the position after the player to move draws a line; throws IllegalMoveError. */
  push(move) {
    const i = onBoard(move) ? indexOf(move) : -1;
    if (i < 0) throw new IllegalMoveError(`line ${JSON.stringify(formatMove(move))} is off the board`);
    if (this.isGameOver()) throw new IllegalMoveError(`line ${formatMove(move)} drawn after the game is over`);
    if (this.drawn[i]) throw new IllegalMoveError(`line ${JSON.stringify(formatMove(move))} is drawn already`);
    const drawn = this.drawn.slice();
    drawn[i] = true;
    const owners = this.owners.slice();
    let closed = false;
    BOX_SIDES.forEach((sides, b) => {
      if (sides.includes(i) && sides.every((s) => drawn[s])) {
        owners[b] = this.turn;
        closed = true;
      }
    });
    return new Board(drawn, owners, closed ? this.turn : 1 - this.turn);
  }

  /** Returns {winner} once every line is drawn (who owns more boxes), else null. */
  outcome() {
    if (!this.isGameOver()) return null;
    const [first, second] = this.score();
    return { winner: first > second ? FIRST : SECOND, reason: "win", line: [] };
  }

  /** Returns whether every line is drawn. */
  isGameOver() {
    return this.drawn.every(Boolean);
  }

  /** Returns the position as Python's Board.to_text() writes it. */
  toText() {
    const lines = this.drawn.map((d) => (d ? "1" : "0")).join("");
    const rows = Array.from({ length: BOXES }, (_, r) =>
      Array.from({ length: BOXES }, (_, c) => {
        const owner = this.boxOwner(r, c);
        return owner === null ? "." : MARKS[owner];
      }).join(""),
    );
    return `${lines}/${rows.join("/")}/${MARKS[this.turn]}`;
  }
}

/** Returns how a finished position ended, in its referee's words; "" while the game goes on. */
export const endWords = endWordsFrom((/** @type {Board} */ board) => {
  const [first, second] = board.score();
  return `more boxes: ${Math.max(first, second)} to ${Math.min(first, second)}`;
});
