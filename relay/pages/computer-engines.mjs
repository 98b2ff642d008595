// The computer's engines by game key, and the one call the worker answers. Pure, no DOM:
// node runs it as it is, which is how tests/js checks it.

import * as connect4 from "./connect4.mjs";
import * as connect4Engine from "./connect4-engine.mjs";
import * as xand0 from "./xand0.mjs";
import * as xand0Engine from "./xand0-engine.mjs";

/** The rules and engine of each game the computer plays, by game key. */
export const ENGINES = Object.freeze({
  connect4: { rules: connect4, engine: connect4Engine },
  xand0: { rules: xand0, engine: xand0Engine },
});

/** The levels every game offers, weakest first (each engine's LEVELS). */
export const LEVELS = Object.freeze(["easy", "medium", "strong"]);

/**
 * Returns the answer to one request {id, game, level, moves[, budget]}: {id, move} with the
 * computer's move string in the position the moves reach, or {id, error} with why not. With
 * `ask: "value"`, answers {id, value}: how that position stands for the side to move (above 0
 * ahead, 0 even, below 0 behind; the engine's positionValue), to judge a draw offer by.
 */
export function answer({ id, game, level, moves, budget, ask }) {
  try {
    const found = ENGINES[game];
    if (found === undefined) throw new RangeError(`the computer does not play ${JSON.stringify(game)}`);
    const board = found.rules.Board.fromMoves(moves);
    if (ask === "value") return { id, value: found.engine.positionValue(board) };
    const options = budget === undefined ? {} : { budget };
    return { id, move: found.rules.formatMove(found.engine.chooseMove(board, level, options)) };
  } catch (error) {
    return { id, error: String(error?.message ?? error) };
  }
}
