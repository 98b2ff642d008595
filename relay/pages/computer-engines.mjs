// The computer's engines, and the one call the worker answers. Pure, no DOM: node runs it as
// it is, which is how tests/js checks it.
//
// A game's engine is a module of its own package's page folder, served at the relay's root
// beside this one as `<game>-engine.mjs`, and imported by URL when the computer first plays
// that game. It exports `rules` (the game's rules module: Board.fromMoves, formatMove),
// `LEVELS`, `chooseMove(board, level, {budget})` and `positionValue(board)`.

/** The levels every game offers, weakest first (each engine's LEVELS). */
export const LEVELS = Object.freeze(["easy", "medium", "strong"]);

const GAME_KEY = /^[a-z][a-z0-9_]{0,31}$/;

/** Returns the URL of a game's engine module: `<game>-engine.mjs` beside this module. */
export function engineUrl(game, base = import.meta.url) {
  if (typeof game !== "string" || !GAME_KEY.test(game)) {
    throw new RangeError(`the computer does not play ${JSON.stringify(game)}`);
  }
  return new URL(`./${game}-engine.mjs`, base).href;
}

const engines = new Map();

/**
 * Returns a promise of the engine module of a game (imported once, from `url`, by default
 * `engineUrl(game)`); rejects with a RangeError when the game has no engine there.
 */
export function loadEngine(game, url = engineUrl(game)) {
  if (!engines.has(url)) {
    const loading = import(url).then(
      (engine) => {
        if (typeof engine.chooseMove !== "function" || typeof engine.rules?.Board !== "function") {
          throw new TypeError(`${url} is not an engine: it must export rules and chooseMove`);
        }
        return engine;
      },
      () => {
        throw new RangeError(`the computer does not play ${JSON.stringify(game)}`);
      },
    );
    engines.set(url, loading);
    loading.catch(() => engines.delete(url)); // a later request tries again
  }
  return engines.get(url);
}

/**
 * Resolves with the answer to one request {id, game, level, moves[, budget, engine]}: {id,
 * move} with the computer's move string in the position the moves reach, or {id, error} with
 * why not. `engine` is the URL of the game's engine module (default `engineUrl(game)`). With
 * `ask: "value"`, answers {id, value}: how that position stands for the side to move (above 0
 * ahead, 0 even, below 0 behind; the engine's positionValue), to judge a draw offer by.
 */
export async function answer({ id, game, engine, level, moves, budget, ask }) {
  try {
    const found = await loadEngine(game, engine ?? engineUrl(game));
    const board = found.rules.Board.fromMoves(moves);
    if (ask === "value") return { id, value: found.positionValue(board) };
    const options = budget === undefined ? {} : { budget };
    return { id, move: found.rules.formatMove(found.chooseMove(board, level, options)) };
  } catch (error) {
    return { id, error: String(error?.message ?? error) };
  }
}
