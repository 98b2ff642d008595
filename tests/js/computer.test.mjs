// The computer: its engines (pure), the answer the worker gives, and ComputerGame seated in a
// private room of a real relay (MOVEWIRE_RELAY, set by test_node_suite.py) against a person.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import { BoardGame } from "../../relay/pages/board-game.mjs";
import { ComputerGame, startComputer } from "../../relay/pages/computer.mjs";
import { answer, engineUrl, LEVELS } from "../../relay/pages/computer-engines.mjs";
import * as c4 from "../../examples/connect4/page/connect4.mjs";
import * as c4engine from "../../examples/connect4/page/connect4-engine.mjs";
import { RelayHost, Result, State, Timing } from "../../relay/pages/movewire.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";
import * as x0engine from "../../examples/xand0/page/xand0-engine.mjs";
import { until } from "./helpers.mjs";

const RELAY = process.env.MOVEWIRE_RELAY;
const skip = RELAY ? false : "MOVEWIRE_RELAY names no relay (pytest runs this suite with one)";

/** Returns a seeded random() in [0, 1) (mulberry32), so that games repeat. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Returns the winner (0, 1, or null for a draw) of the strong X and 0 computer's worst game. */
function worstForComputer(board, computer) {
  const outcome = board.outcome();
  if (outcome !== null) return outcome.winner;
  if (board.turn === computer) {
    return worstForComputer(board.push(x0engine.chooseMove(board, "strong")), computer);
  }
  // The person tries every move: the result is the worst the computer meets.
  const results = board.legalMoves().map((move) => worstForComputer(board.push(move), computer));
  if (results.includes(1 - computer)) return 1 - computer;
  return results.includes(null) ? null : computer;
}

describe("the X and 0 engine", () => {
  test("the strong level never loses, whoever moves first and whatever the person plays", () => {
    for (const computer of [x0.FIRST, x0.SECOND]) {
      assert.notEqual(worstForComputer(x0.Board.empty(), computer), 1 - computer, `side ${computer}`);
    }
  });

  test("the medium level wins in one, else blocks a line, else plays at random", () => {
    const win = x0.Board.fromMoves(["00", "11", "10", "22"]); // X to move, 20 wins
    assert.deepEqual(x0engine.chooseMove(win, "medium"), { col: 2, row: 0 });
    const block = x0.Board.fromMoves(["00", "11", "22", "10"]); // X must block at 12
    assert.deepEqual(x0engine.chooseMove(block, "medium"), { col: 1, row: 2 });
    const seen = new Set();
    const random = seeded(3);
    for (let i = 0; i < 40; i++) {
      seen.add(x0.formatMove(x0engine.chooseMove(x0.Board.empty(), "medium", { random })));
    }
    assert.equal(seen.size, 9, "every cell of an empty board is chosen at some point");
  });

  test("the easy level errs: it misses a win in one sometimes", () => {
    const win = x0.Board.fromMoves(["00", "11", "10", "22"]);
    const random = seeded(5);
    const moves = Array.from({ length: 30 }, () =>
      x0.formatMove(x0engine.chooseMove(win, "easy", { random })),
    );
    assert.ok(moves.includes("20") && moves.some((m) => m !== "20"), moves.join(" "));
  });
});

describe("the Connect Four engine", () => {
  test("every level takes a win in one and blocks the opponent's", () => {
    const win = c4.Board.fromMoves([..."343434"]); // Red has three in column 3
    const block = c4.Board.fromMoves([..."34343"]); // Yellow must block column 3
    for (const level of LEVELS) {
      assert.equal(c4engine.chooseMove(win, level, { budget: 0.2 }), 3, level);
      assert.equal(c4engine.chooseMove(block, level, { budget: 0.2 }), 3, level);
    }
  });

  test("the strong level solves a late position exactly and plays the winning move", () => {
    // 20 cells empty: the strong level proves its move (the exact solver agrees).
    const board = c4.Board.fromMoves([..."1060161161221566226243"]);
    const column = c4engine.chooseMove(board, "strong", { budget: 1 });
    const after = board.push(column);
    assert.ok(c4engine.solve(board) > 0, "the side to move wins this position");
    assert.ok(c4engine.solve(after) < 0, `column ${column} keeps the win`);
  });

  test("the strong level keeps within its time budget on an open board", () => {
    const started = performance.now();
    const column = c4engine.chooseMove(c4.Board.empty(), "strong", { budget: 0.3 });
    assert.ok(performance.now() - started < 1000);
    assert.equal(column, 3, "the centre is the only winning first move");
  });

  test("a level that is not one of the three is refused", () => {
    assert.throws(() => c4engine.chooseMove(c4.Board.empty(), "perfect"), RangeError);
    assert.throws(() => x0engine.chooseMove(x0.Board.empty(), 3), RangeError);
  });
});

describe("the worker's answer", () => {
  test("loads each game's engine by URL and answers its move string, or says why it cannot", async () => {
    const ask = (id, game, moves) => answer({ id, game, level: "easy", moves });
    assert.deepEqual(await ask(1, "connect4", [..."343434"]), { id: 1, move: "3" });
    assert.deepEqual(await answer({ id: 2, game: "xand0", level: "strong", moves: ["00", "11", "10", "22"] }), {
      id: 2,
      move: "20",
    });
    assert.match((await ask(3, "chess", [])).error, /does not play "chess"/);
    assert.match((await ask(4, "connect4", ["9"])).error, /not one column digit/);
    assert.match((await ask(5, "xand0", ["00", "10", "11", "20", "22"])).error, /no legal moves/);
    assert.match((await ask(6, "../x", [])).error, /does not play/);
    // The engine is the game package's module served beside the page kit, named by the game.
    assert.match(engineUrl("connect4"), /\/connect4-engine\.mjs$/);
    const named = { id: 7, game: "xand0", engine: engineUrl("xand0"), level: "easy", moves: [] };
    assert.match((await answer(named)).move, /^[0-2][0-2]$/);
  });
});

describe("ComputerGame", () => {
  class FakeHost {
    constructor() {
      this.state = State.PLAYING_TO_MOVE;
      this.sent = [];
    }

    move(text, end) {
      this.sent.push([text, end]);
    }

    showDialog() {}

    resign() {
      this.resigned = true;
    }
  }

  test("plays the move thought up, with the end flag, and drops one thought up too late", async () => {
    const host = new FakeHost();
    const thinking = [];
    let release = null;
    const think = () => new Promise((resolve) => (release = resolve));
    const game = new ComputerGame(host, true, { rules: x0, think, onThinking: (now) => thinking.push(now) });
    game.enable();
    game.disable(); // the person resigned meanwhile
    release("11");
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(host.sent, []);
    game.enable();
    release("11");
    await until(() => host.sent.length === 1, "the move");
    assert.deepEqual(host.sent, [["11", false]]);
    assert.deepEqual(thinking, [true, false, true, false]);
    assert.equal(game.receiveMove("00"), State.PLAYING_TO_MOVE);
    assert.equal(game.receiveMove("00"), State.GAME_ENDED, "an occupied cell is disputed");
  });

  test("resigns when the engine cannot move", async () => {
    const host = new FakeHost();
    const think = () => Promise.reject(new Error("broken"));
    const game = new ComputerGame(host, true, { rules: c4, think });
    game.enable();
    await until(() => host.resigned === true, "the resignation");
  });
});

describe("the computer in a private room of a real relay", { skip }, () => {
  test("plays X and 0 against a person to an end both sides agree on; the person never wins", async () => {
    const room = randomUUID();
    const timing = new Timing({ pollWait: 5 });
    const random = seeded(11);
    const person = new RelayHost({
      relay: RELAY,
      gameKey: "js-computer-xand0",
      version: "1",
      room,
      timing,
      createGame: (host, first) => new BoardGame(host, first, x0, { update() {} }),
      onDialog: () => {},
    });
    const personDone = person.play();
    const computer = startComputer({
      relay: RELAY,
      gameKey: "js-computer-xand0",
      version: "1",
      room,
      level: "strong",
      rules: x0,
      think: async (moves) => (await answer({ id: 0, game: "xand0", level: "strong", moves })).move,
    });
    // The person plays at random, as fast as it may.
    while (![State.GAME_ENDED, State.NOT_CONNECTED].includes(person.state)) {
      const waiting = () => [State.PLAYING_TO_MOVE, State.GAME_ENDED].includes(person.state);
      await until(waiting, "the person's turn", 10000);
      if (person.state !== State.PLAYING_TO_MOVE) break;
      const moves = person.game.board.legalMoves();
      assert.equal(person.game.play(moves[Math.floor(random() * moves.length)]), true);
    }
    const [mine, its] = await Promise.all([personDone, computer.done]);
    assert.notEqual(mine.result, Result.WON);
    assert.equal(its.result, mine.result === Result.DRAWN ? Result.DRAWN : Result.WON);
    assert.equal(computer.host.game.board.toText(), person.game.board.toText());
  });
});
