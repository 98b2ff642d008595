// The pure rules modules the pages play by: X and 0 and Connect Four.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as c4 from "../../examples/connect4/page/connect4.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";

describe("X and 0 rules", () => {
  test("moves are two digits, column then row", () => {
    assert.deepEqual(x0.parseMove("21"), { col: 2, row: 1 });
    assert.equal(x0.formatMove({ col: 0, row: 2 }), "02");
    for (const bad of ["", "3", "123", "a1", "30", " 11"]) {
      assert.throws(() => x0.parseMove(bad), x0.IllegalMoveError, bad);
    }
  });

  test("X moves first, turns alternate, an occupied cell is refused", () => {
    const board = x0.Board.fromMoves(["11", "00"]);
    assert.equal(board.toText(), "O../.X./...");
    assert.equal(board.turn, x0.FIRST);
    assert.throws(() => board.push({ col: 1, row: 1 }), /occupied/);
    assert.equal(board.legalMoves().length, 7);
  });

  test("three in a row wins and ends the game", () => {
    const board = x0.Board.fromMoves(["00", "10", "11", "20", "22"]);
    const outcome = board.outcome();
    assert.equal(outcome.winner, x0.FIRST);
    assert.deepEqual(outcome.line, [
      { col: 0, row: 0 },
      { col: 1, row: 1 },
      { col: 2, row: 2 },
    ]);
    assert.deepEqual(board.legalMoves(), []);
    assert.throws(() => board.push({ col: 0, row: 2 }), /after the game is over/);
  });

  test("a full board without a line is a draw", () => {
    const board = x0.Board.fromMoves(["11", "00", "22", "02", "01", "21", "20", "10", "12"]);
    assert.deepEqual(board.outcome(), { winner: null, reason: "draw", line: [] });
  });
});

describe("Connect Four rules", () => {
  test("moves are one column digit; pieces stack from the bottom", () => {
    assert.equal(c4.parseMove("6"), 6);
    for (const bad of ["7", "", "33", "x", "-1"]) {
      assert.throws(() => c4.parseMove(bad), c4.IllegalMoveError, bad);
    }
    const board = c4.Board.fromMoves("334");
    assert.equal(board.height(3), 2);
    assert.equal(board.pieceAt(3, 0), c4.FIRST);
    assert.equal(board.pieceAt(3, 1), c4.SECOND);
    assert.equal(board.toText().split("/").at(-1), "...XX..");
  });

  test("a full column is refused", () => {
    const board = c4.Board.fromMoves("000000");
    assert.throws(() => board.push(0), /full/);
    assert.deepEqual(board.legalMoves(), [1, 2, 3, 4, 5, 6]);
  });

  test("four in a row wins in every direction", () => {
    const cases = {
      horizontal: "3344556",
      vertical: "3435363",
      diagonal: "01122323353",
      antidiagonal: "65544343313",
    };
    for (const [name, moves] of Object.entries(cases)) {
      const outcome = c4.Board.fromMoves(moves).outcome();
      assert.equal(outcome?.winner, c4.FIRST, name);
      assert.equal(outcome.line.length, 4, name);
    }
    assert.equal(c4.LINES.length, 69);
  });

  test("a full board without four is a draw", () => {
    const draw = "532315310141250566206042303423260411544566";
    const board = c4.Board.fromMoves(draw);
    assert.equal(board.ply, 42);
    assert.deepEqual(board.outcome(), { winner: null, reason: "draw", line: [] });
  });
});
