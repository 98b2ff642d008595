// "Play the computer": the computer is a second relay client of the page, seated in the same
// private room as the person, so the match is a real relay match like any other. Its moves
// are thought up in a Web Worker (computer-worker.mjs), so the page stays responsive.

import { Game, RelayHost, Result, State } from "./movewire.mjs";

/** The words for each level, weakest first. */
export const LEVEL_NAMES = Object.freeze({ easy: "Easy", medium: "Medium", strong: "Strong" });

/** The least time the computer takes over a move, so that its reply is seen arriving. */
export const MIN_THINK_MS = 300;

/**
 * The computer's side of a board game: keeps the position from the rules module and, when
 * enabled, asks `think(moves)` (a promise of the move string) for its move. It answers the
 * person's offers: a takeback always (its position steps back), a draw when `judge(moves)` (a
 * promise of how the position stands for the side to move: above 0 ahead) says the computer
 * is not ahead; without a judge it accepts a draw.
 */
export class ComputerGame extends Game {
  #turn = 0;

  constructor(host, firstMove, { rules, think, judge = null, onThinking = () => {} }) {
    super(host, firstMove);
    this.rules = rules;
    this.think = think;
    this.judge = judge;
    this.onThinking = onThinking;
    /** The side the computer plays: 0 moves first, 1 second. */
    this.side = firstMove ? 0 : 1;
    this.board = rules.Board.empty();
    /** Every move of the match so far, as move strings. */
    this.moves = [];
    /** The position after each move and pass of the match, to step back to on a takeback. */
    this.plies = [];
    this.enabled = false;
  }

  /** Asks for a move and plays it, unless the turn has passed meanwhile (a resignation). */
  enable() {
    if (this.board.turn !== this.side && this.board.outcome() === null) {
      this.#keep(); // a takeback left the turn with the person: pass
      this.host.passTurn();
      return;
    }
    this.enabled = true;
    const turn = ++this.#turn;
    this.onThinking(true);
    this.think([...this.moves]).then(
      (text) => {
        if (turn !== this.#turn) return;
        this.onThinking(false);
        if (!this.enabled || this.host.state !== State.PLAYING_TO_MOVE) return;
        const next = this.board.push(this.rules.parseMove(text));
        this.board = next;
        this.moves.push(text);
        this.#keep();
        this.host.move(text, next.outcome() !== null);
      },
      (error) => {
        if (turn !== this.#turn) return;
        this.onThinking(false);
        this.host.showDialog(`The computer cannot move: ${error.message}`);
        this.host.resign();
      },
    );
  }

  /** Stops the computer from moving: a move still being thought up is dropped. */
  disable() {
    if (this.enabled) {
      this.enabled = false;
      this.#turn++;
      this.onThinking(false);
    }
  }

  /** Applies the person's move; returns the next State (GAME_ENDED disputes an illegal one). */
  receiveMove(text) {
    try {
      this.board = this.board.push(this.rules.parseMove(text));
    } catch (error) {
      this.host.showDialog(`The move ${JSON.stringify(text)} is not legal: ${error.message}.`);
      return State.GAME_ENDED;
    }
    this.moves.push(text);
    this.#keep();
    if (this.board.outcome() !== null) return State.GAME_ENDED;
    if (this.board.turn === this.side && this.board.legalMoves().length > 0) return State.PLAYING_TO_MOVE;
    this.#keep(); // the host passes for the computer
    return State.PLAYING_WAIT_MOVE;
  }

  /** Takes the turn after the person's pass. */
  receivePass() {
    this.#keep();
    return State.PLAYING_TO_MOVE;
  }

  /** Rebuilds the position from the match log (the page reloaded mid-match). */
  restore(history) {
    for (const played of history) {
      if (!played.isPass) {
        this.board = this.board.push(this.rules.parseMove(played.move));
        this.moves.push(played.move);
      }
      this.#keep();
    }
  }

  /** Takes back the last `count` moves and passes (the person's takeback, accepted). */
  undo(count) {
    if (!Number.isInteger(count) || count < 1 || count > this.plies.length) {
      throw new RangeError(`cannot take back ${count} of ${this.plies.length} moves and passes`);
    }
    this.plies.length -= count;
    const before = this.plies.at(-1) ?? { board: this.rules.Board.empty(), moves: 0 };
    this.board = before.board;
    this.moves.length = before.moves;
  }

  /**
   * Answers the person's offer: a takeback yes at once; a draw once judged (yes unless the
   * computer is ahead), through host.answerOffer(). An offer gone meanwhile is not answered.
   */
  considerOffer(offer) {
    if (offer.kind === "takeback") return true;
    if (this.judge === null) return true;
    const answer = (accept) => {
      const now = this.host.table?.offer;
      if (now?.state !== "offered" || now.at !== offer.at || now.kind !== offer.kind) return;
      this.host.answerOffer(accept).catch(() => {}); // lapsed meanwhile: nothing to answer
    };
    const toMove = this.board.turn;
    this.judge([...this.moves]).then(
      (value) => answer(Number.isFinite(value) && (toMove === this.side ? value : -value) <= 0),
      () => answer(false), // no judgement: the game goes on
    );
    return undefined;
  }

  #keep() {
    this.plies.push({ board: this.board, moves: this.moves.length });
  }

  /** Returns the Result once the position is over, else null. */
  result() {
    const outcome = this.board.outcome();
    if (outcome === null) return null;
    if (outcome.winner === null) return Result.DRAWN;
    return outcome.winner === this.side ? Result.WON : Result.LOST;
  }
}

/**
 * Returns think(moves) for a game and level: each call asks the worker and resolves with its
 * move string, after MIN_THINK_MS at least. `worker` is a Worker running computer-worker.mjs.
 */
export function workerThinker(worker, gameKey, level, { minMs = MIN_THINK_MS, budget } = {}) {
  let next = 0;
  const pending = new Map();
  worker.addEventListener("message", ({ data }) => {
    const settle = pending.get(data.id);
    if (settle === undefined) return;
    pending.delete(data.id);
    settle(data);
  });
  return (moves) => {
    const id = ++next;
    const asked = performance.now();
    return new Promise((resolve, reject) => {
      pending.set(id, (data) => {
        const wait = Math.max(0, minMs - (performance.now() - asked));
        const settle = () => (data.error === undefined ? resolve(data.move) : reject(new Error(data.error)));
        setTimeout(settle, wait);
      });
      worker.postMessage({ id, game: gameKey, level, moves, budget });
    });
  };
}

/**
 * Returns judge(moves) for a game: each call asks the worker how the position the moves reach
 * stands for the side to move, and resolves with the value (above 0: ahead).
 */
export function workerJudge(worker, gameKey) {
  let next = 0;
  const pending = new Map();
  worker.addEventListener("message", ({ data }) => {
    const settle = pending.get(data.id);
    if (settle === undefined) return;
    pending.delete(data.id);
    settle(data);
  });
  return (moves) =>
    new Promise((resolve, reject) => {
      const id = `value-${++next}`; // apart from the thinker's numbers
      pending.set(id, (data) => (data.error === undefined ? resolve(data.value) : reject(new Error(data.error))));
      worker.postMessage({ id, game: gameKey, level: "medium", moves, ask: "value" });
    });
}

/** Returns a new Worker running the computer's engines (a module worker beside this file). */
export function createComputerWorker() {
  return new Worker(new URL("./computer-worker.mjs", import.meta.url), { type: "module", name: "computer" });
}

/**
 * Seats the computer in a private room and plays the match; returns {host, done, close()}.
 * `resumeFrom` is a saved seat ticket to take up again; `onTicket(ticket)` is told the seat;
 * `timing` (a Timing) is how long its requests are retried; `timeControl` is the clock the
 * person sought (null for none); `think` and `judge` stand in for the worker's (tests).
 */
export function startComputer(options) {
  const { relay, gameKey, version, room, level, rules, onThinking, onTicket } = options;
  const { resumeFrom = null, think = null, judge = null, timing, timeControl = null } = options;
  const worker = think === null ? createComputerWorker() : null;
  const thinker = think ?? workerThinker(worker, gameKey, level);
  const judging = judge ?? (worker === null ? null : workerJudge(worker, gameKey));
  const settings = {
    relay,
    gameKey,
    version,
    room,
    timing,
    timeControl, // a room's two seekers name the same clock
    name: `Computer (${LEVEL_NAMES[level] ?? level})`,
    createGame: (host, firstMove) =>
      new ComputerGame(host, firstMove, { rules, think: thinker, judge: judging, onThinking }),
    onTicket,
    onDialog: () => {}, // the person's page tells the person what happened
  };
  const host = resumeFrom === null ? new RelayHost(settings) : RelayHost.resume(resumeFrom, settings);
  // ComputerGame throws nothing (an engine error resigns), so a rejection cannot happen; a
  // settled play() ends the worker.
  const done = host.play().finally(() => worker?.terminate());
  return {
    host,
    done,
    close() {
      host.close();
      worker?.terminate();
    },
  };
}
