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
 * enabled, asks `think(moves)` (a promise of the move string) for its move.
 */
export class ComputerGame extends Game {
  #turn = 0;

  constructor(host, firstMove, { rules, think, onThinking = () => {} }) {
    super(host, firstMove);
    this.rules = rules;
    this.think = think;
    this.onThinking = onThinking;
    /** The side the computer plays: 0 moves first, 1 second. */
    this.side = firstMove ? 0 : 1;
    this.board = rules.Board.empty();
    /** Every move of the match so far, as move strings. */
    this.moves = [];
    this.enabled = false;
  }

  /** Asks for a move and plays it, unless the turn has passed meanwhile (a resignation). */
  enable() {
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
    if (this.board.outcome() !== null) return State.GAME_ENDED;
    return this.board.legalMoves().length > 0 ? State.PLAYING_TO_MOVE : State.PLAYING_WAIT_MOVE;
  }

  /** Rebuilds the position from the match log (the page reloaded mid-match). */
  restore(history) {
    for (const played of history) {
      if (played.isPass) continue;
      this.board = this.board.push(this.rules.parseMove(played.move));
      this.moves.push(played.move);
    }
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

/** Returns a new Worker running the computer's engines (a module worker beside this file). */
export function createComputerWorker() {
  return new Worker(new URL("./computer-worker.mjs", import.meta.url), { type: "module", name: "computer" });
}

/**
 * Seats the computer in a private room and plays the match; returns {host, done, close()}.
 * `resumeFrom` is a saved seat ticket to take up again; `onTicket(ticket)` is told the seat;
 * `timing` (a Timing) is how long its requests are retried; `timeControl` is the clock the
 * person sought (null for none).
 */
export function startComputer(options) {
  const { relay, gameKey, version, room, level, rules, onThinking, onTicket } = options;
  const { resumeFrom = null, think = null, timing, timeControl = null } = options;
  const worker = think === null ? createComputerWorker() : null;
  const thinker = think ?? workerThinker(worker, gameKey, level);
  const settings = {
    relay,
    gameKey,
    version,
    room,
    timing,
    timeControl, // a room's two seekers name the same clock
    createGame: (host, firstMove) =>
      new ComputerGame(host, firstMove, { rules, think: thinker, onThinking }),
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
