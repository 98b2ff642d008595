// BoardGame: the Game the pages play, built from a rules module and drawn by a view.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BoardGame, RESULTS } from "../../relay/pages/board-game.mjs";
import * as c4 from "../../examples/connect4/page/connect4.mjs";
import { MoveRejected, Played, Result, State } from "../../relay/pages/movewire.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";

class FakeHost {
  constructor() {
    this.state = State.PLAYING_WAIT_MOVE;
    this.sent = [];
  }

  move(text, end) {
    this.sent.push([text, end]);
    this.state = State.WAITING_SERVER_RESPONSE;
  }

  showDialog() {}
}

function game(rules, firstMove) {
  const host = new FakeHost();
  const updates = [];
  const g = new BoardGame(host, firstMove, rules, { update: (_, change) => updates.push(change) });
  return { host, g, updates };
}

describe("BoardGame", () => {
  test("plays only when enabled and to move, and sends the move with the end flag", () => {
    const { host, g } = game(x0, true);
    assert.equal(g.play({ col: 1, row: 1 }), false);
    host.state = State.PLAYING_TO_MOVE;
    g.enable();
    assert.equal(g.play({ col: 1, row: 1 }), true);
    assert.deepEqual(host.sent, [["11", false]]);
    assert.equal(g.play({ col: 0, row: 0 }), false, "not to move while the relay answers");
  });

  test("an occupied cell or full column is not played", () => {
    const { host, g } = game(c4, true);
    for (let i = 0; i < 6; i++) g.board = g.board.push(0);
    host.state = State.PLAYING_TO_MOVE;
    g.enable();
    assert.equal(g.canPlay(0), false);
    assert.equal(g.play(0), false);
    assert.deepEqual(host.sent, []);
  });

  test("receiveMove answers PLAYING_TO_MOVE, then GAME_ENDED on the partner's win", () => {
    const { g, updates } = game(x0, false);
    assert.equal(g.receiveMove("00"), State.PLAYING_TO_MOVE);
    assert.deepEqual(updates.at(-1), { animate: { col: 0, row: 0 } });
    g.board = g.board.push(x0.parseMove("10"));
    g.receiveMove("11");
    g.board = g.board.push(x0.parseMove("20"));
    assert.equal(g.receiveMove("22"), State.GAME_ENDED);
    assert.equal(g.result(), Result.LOST);
    assert.equal(g.endWords(), "three in a row");
    assert.equal(g.resultText, "You lose: three in a row.");
  });

  test("rules without endWords tell the result alone, and a game over sends nothing more", () => {
    const { endWords, ...plain } = x0;
    const { g } = game(plain, false);
    for (const text of ["00", "10", "11", "20"]) g.board = g.board.push(x0.parseMove(text));
    assert.equal(g.receiveMove("22"), State.GAME_ENDED);
    assert.equal(typeof endWords, "function");
    assert.equal(g.endWords(), "");
    assert.equal(g.resultText, RESULTS[Result.LOST]);
  });

  test("restore rebuilds the position from the log without animating", () => {
    const { g, updates } = game(c4, true);
    g.restore([new Played(true, "3"), new Played(false, "3"), new Played(true, "4")]);
    assert.equal(g.board.toText().split("/").slice(-2).join("/"), "...O.../...XX..");
    assert.equal(g.last, 4);
    assert.deepEqual(updates.at(-1), { animate: null });
    assert.equal(g.result(), null);
  });

  test("a winning move is sent as the end of the game", () => {
    const { host, g } = game(c4, true);
    for (const text of ["3", "3", "4", "4", "5", "5"]) {
      g.board = g.board.push(c4.parseMove(text));
    }
    host.state = State.PLAYING_TO_MOVE;
    g.enable();
    g.play(6);
    assert.deepEqual(host.sent, [["6", true]]);
    assert.equal(g.resultText, "You win: four in a row.");
  });

  test("an illegal move from the partner is rejected with the rules' reason: the host disputes it", () => {
    const { g } = game(c4, false);
    assert.throws(() => g.receiveMove("9"), (error) => error instanceof MoveRejected && /not one column digit/.test(error.reason));
    assert.equal(g.illegal, "9");
    for (const move of ["3", "3", "3", "3", "3", "3"]) g.receiveMove(move);
    assert.throws(() => g.receiveMove("3"), (error) => error.reason === "column 3 is full");
    assert.equal(g.result(), null);
  });

  for (const [kind, thrown] of [
    ["a plain Error", new Error("no such square: '44'")],
    ["a TypeError", new TypeError("no such square: '44'")],
    ["a string", "no such square: '44'"],
    ["an object with a message", { message: "no such square: '44'" }],
  ]) {
    test(`${kind} the rules throw on the partner's move is a dispute with its words`, () => {
      const rules = { ...x0, parseMove: () => { throw thrown; } };
      const { g } = game(rules, false);
      assert.throws(() => g.receiveMove("44"), (error) => error instanceof MoveRejected && error.reason === "no such square: '44'");
      assert.equal(g.illegal, "44");
      assert.deepEqual([g.moves, g.plies, g.last], [[], [], null]);
    });
  }

  test("the rules' IllegalMoveError is a MoveRejected, as the SDK's is", () => {
    assert.throws(() => x0.parseMove("44"), (error) => error instanceof x0.IllegalMoveError && error instanceof MoveRejected && error.reason === error.message);
  });

  test("a view that fails on a legal move is a bug of the page, not the partner's illegal move", () => {
    let fail = false;
    const host = new FakeHost();
    const view = { update: () => { if (fail) throw new RangeError("the view broke"); } };
    const g = new BoardGame(host, false, x0, view);
    fail = true;
    assert.throws(() => g.receiveMove("00"), (error) => error instanceof RangeError && !(error instanceof MoveRejected));
    assert.equal(g.illegal, null);
    assert.deepEqual(g.moves, [{ move: "00", mine: false }], "the move stands: the board took it");
  });

  test("a pass the rules do not call for is rejected; one they call for gives the turn", () => {
    const { g } = game(x0, true);
    assert.equal(g.receivePass(), State.PLAYING_TO_MOVE); // X to move: O may pass to X
    g.receiveMove("11"); // as if X's own move: now O is to move by the rules
    assert.throws(() => g.receivePass(), MoveRejected);
    assert.equal(g.illegal, "pass");
  });
});
