// A finished match as the tab keeps it: the words of its end and its moves, so that a reload
// shows the result and the final board at once, with nothing seated and nothing polling, and
// the buttons to play again.

import { BoardGame } from "./board-game.mjs";
import { State } from "./movewire.mjs";

/** Returns what the tab keeps of a finished match beside its seat: the end's words, the moves. */
export function finishedRecord(game, ended) {
  return { finished: true, ended, side: game?.side ?? null, moves: game?.moves ?? [] };
}

/** Returns whether a saved match is a finished one the tab can show without the relay. */
export function isShownFinished(saved) {
  return saved?.finished === true && typeof saved.ended === "string" && Array.isArray(saved.moves);
}

/**
 * Returns a stand-in for the host of a finished match: over, with the seat (for a rematch) and
 * no clock; closing it does nothing.
 */
export function endedHost(saved) {
  return {
    state: State.GAME_ENDED,
    outcome: null,
    ticket: Object.freeze({ match: saved.match, seat: saved.seat, token: saved.token }),
    clock: null,
    close() {},
    cancel() {},
    resign() {},
  };
}

/** Returns the finished match's game, its final position rebuilt from the kept moves. */
export function finishedGame(saved, host, rules, view) {
  const game = new BoardGame(host, saved.side === 0, rules, view);
  game.restore(saved.moves.map(({ move, mine }) => ({ move, mine, isPass: false })));
  return game;
}
