// A Game built from a rules module (xand0.mjs, connect4.mjs): it keeps the position and asks
// a view to draw it. No DOM here: a view is any object with update(game, change).

import { Game, MoveRejected, Result, State } from "./movewire.mjs";
import { verdictWords } from "./endings.mjs";

/** The words for each result the game can tell. */
export const RESULTS = Object.freeze({
  [Result.WON]: "You win!",
  [Result.LOST]: "You lose.",
  [Result.DRAWN]: "Draw.",
});

/**
 * Returns the words of whatever the rules threw: an Error's message, or the thrown value as
 * text ("" for nothing, which the host sends as its default reason).
 * @param {unknown} error
 */
function wordsOf(error) {
  if (typeof error === "object" && error !== null && "message" in error) return String(error.message ?? "");
  return error === undefined || error === null ? "" : String(error);
}

/**
 * A board game played through a GameHost.
 *
 * `rules` gives Board (empty, push, legalMoves, outcome, turn), parseMove, formatMove;
 * `view.update(game, {animate})` redraws; `animate` is the move to show arriving, or null.
 * The board's `turn` says who moves next: when a move leaves the turn with its mover (a box
 * closed in Dots and Boxes), the other side passes, and a pass the rules do not call for is
 * disputed. Every move and pass of the match, both sides', is kept as a ply, so that a
 * takeback (undo) steps back exactly the moves and passes the relay's log takes back.
 */
export class BoardGame extends Game {
  constructor(host, firstMove, rules, view) {
    super(host, firstMove);
    this.rules = rules;
    this.view = view;
    /** The side this player plays: 0 moves first, 1 second. */
    this.side = firstMove ? 0 : 1;
    this.board = rules.Board.empty();
    /** The last move played by either side, or null. */
    this.last = null;
    /** The side that played the last move (0 or 1), or null. */
    this.lastBy = null;
    /** Every move so far: {move (its string), mine (played by this side)}. */
    this.moves = [];
    this.enabled = false;
    /** The partner's move this game found illegal (and disputed), or null. */
    this.illegal = null;
    /** Each move and pass of the match, oldest first: the position after it, to step back to. */
    this.plies = [];
    this.view.update(this, { animate: null });
  }

  /** Lets the player move; passes at once when the position leaves the turn with the partner. */
  enable() {
    if (this.board.turn !== this.side && this.board.outcome() === null) {
      // After a takeback that ends on the partner's closed box (Dots and Boxes): this side
      // has the relay's turn but no move to make.
      this.#keep(true);
      this.host.passTurn();
      return;
    }
    this.enabled = true;
    this.view.update(this, { animate: null });
  }

  /** Stops the player from moving. */
  disable() {
    this.enabled = false;
    this.view.update(this, { animate: null });
  }

  /**
   * Applies the partner's move and returns the next State; rejects an illegal one with the
   * rules' reason ("column 3 is full"), which the host tells both sides and the relay keeps.
   * Whatever the rules throw on it (an IllegalMoveError, any Error, even a string) is such a
   * dispute, never a crash; only the rules are asked inside, so a view's failure stays a bug.
   */
  receiveMove(text) {
    let move, board;
    try {
      move = this.rules.parseMove(text);
      board = this.board.push(move);
    } catch (error) {
      this.illegal = text;
      throw new MoveRejected(wordsOf(error));
    }
    this.#apply(text, move, board);
    if (this.board.outcome() !== null) return State.GAME_ENDED;
    if (this.board.turn === this.side) return State.PLAYING_TO_MOVE;
    this.#keep(true); // the host passes for this side: a ply of the log too
    return State.PLAYING_WAIT_MOVE;
  }

  /** Takes the turn after the partner's pass; rejects a pass the rules do not call for. */
  receivePass() {
    if (this.board.turn === this.side) {
      this.#keep(false);
      return State.PLAYING_TO_MOVE;
    }
    this.illegal = "pass";
    throw new MoveRejected(); // the host's default: "there was a move to make"
  }

  /** Rebuilds the position from the log's moves (a reloaded page resuming its match). */
  restore(history) {
    for (const played of history) {
      if (!played.isPass) {
        this.board = this.board.push(this.rules.parseMove(played.move));
        this.last = this.rules.parseMove(played.move);
        this.lastBy = played.mine ? this.side : 1 - this.side;
        this.moves.push({ move: played.move, mine: played.mine });
      }
      this.#keep(played.mine);
    }
    this.view.update(this, { animate: null });
  }

  /**
   * Takes back the last `count` moves and passes (an accepted takeback): the position, the
   * last move and the moves kept are those before them.
   */
  undo(count) {
    if (!Number.isInteger(count) || count < 1 || count > this.plies.length) {
      throw new RangeError(`cannot take back ${count} of ${this.plies.length} moves and passes`);
    }
    this.plies.length -= count;
    const before = this.plies.at(-1) ?? { board: this.rules.Board.empty(), last: null, lastBy: null, moves: 0 };
    this.board = before.board;
    this.last = before.last;
    this.lastBy = before.lastBy;
    this.moves.length = before.moves;
    this.illegal = null;
    this.view.update(this, { animate: null, undone: count });
  }

  /** Returns whether this side has a move or pass in play, so may ask to take one back. */
  get hasPlayed() {
    return this.plies.some((ply) => ply.mine);
  }

  /** Returns whether the player may play this move now. */
  canPlay(move) {
    if (!this.enabled || this.host.state !== State.PLAYING_TO_MOVE) return false;
    try {
      this.board.push(move);
      return true;
    } catch {
      return false;
    }
  }

  /** Plays the player's move and sends it; returns whether it was played. */
  play(move) {
    if (!this.canPlay(move)) return false;
    const next = this.board.push(move);
    this.host.move(this.rules.formatMove(move), next.outcome() !== null);
    this.moves.push({ move: this.rules.formatMove(move), mine: true });
    this.board = next;
    this.last = move;
    this.lastBy = this.side;
    this.#keep(true);
    this.view.update(this, { animate: move });
    return true;
  }

  /** Returns the Result once the position is over (WON, LOST or DRAWN), else null. */
  result() {
    const outcome = this.board.outcome();
    if (outcome === null) return null;
    if (outcome.winner === null) return Result.DRAWN;
    return outcome.winner === this.side ? Result.WON : Result.LOST;
  }

  /** Returns how the game ended in the rules' words (their `endWords`), "" without them. */
  endWords() {
    return this.rules.endWords?.(this.board) ?? "";
  }

  /**
   * Returns the words for the result, with the rules' words for how when they have them ("You
   * win: three in a row.", else "You win!"), or null while the game goes on.
   */
  get resultText() {
    const result = this.result();
    if (result === null) return null;
    const how = this.endWords();
    return how ? verdictWords(result, how) : RESULTS[result];
  }

  #apply(text, move, board) {
    this.board = board;
    this.moves.push({ move: text, mine: false });
    this.last = move;
    this.lastBy = 1 - this.side;
    this.#keep(false);
    this.view.update(this, { animate: move });
  }

  /** Keeps the position after a ply (a move, or a pass when the board is unchanged). */
  #keep(mine) {
    const { board, last, lastBy } = this;
    this.plies.push({ board, last, lastBy, moves: this.moves.length, mine });
  }
}
