// What a game is to its host, and what the host is to its game: the six states, the Game a
// game implements (enabled, disabled, told of the partner's moves, passes, takebacks and
// offers) and the GameHost it calls. The same shape as the Python SDK's sdk/game.py. No DOM,
// no networking: RelayHost (movewire.mjs) is the GameHost that plays through a relay.

import { HostStateError } from "./errors.mjs";

/**
 * One of the six states of a networked game: a number 0 to 5, a value of `State`.
 * @typedef {0 | 1 | 2 | 3 | 4 | 5} StateValue
 */

/**
 * What a game answers to the partner's move or pass: PLAYING_TO_MOVE, PLAYING_WAIT_MOVE or
 * GAME_ENDED, or a Promise of one.
 * @typedef {StateValue | Promise<StateValue>} Answer
 */

/**
 * An offer of the partner's, as Game.considerOffer() is told it (the table's `offer`).
 * @typedef {import("./table.mjs").Offer} Offer
 */

/** The six states of a networked game, numbered as in FMNetGames. */
export const State = Object.freeze({
  /** Not in a match: before seeking, or after a seek that never found a partner. */
  NOT_CONNECTED: 0,
  /** Seeking: waiting for a partner to join. */
  LISTENING: 1,
  /** This side has the turn; the game is enabled and may call host.move(). */
  PLAYING_TO_MOVE: 2,
  /** The partner has the turn; the game is disabled. */
  PLAYING_WAIT_MOVE: 3,
  /** This side moved; the relay has not yet accepted the move. */
  WAITING_SERVER_RESPONSE: 4,
  /** The game is over for this side. */
  GAME_ENDED: 5,
});

/**
 * The name of each state, indexed by its value.
 * @type {readonly string[]}
 */
export const STATE_NAMES = Object.freeze(Object.keys(State));

const NO_PASS = (/** @type {string} */ name) => `${name} cannot pass a turn: it does not implement GameHost.passTurn()`;
const NO_RESTORE = (/** @type {string} */ name) =>
  `${name} cannot be resumed: it does not override Game.restore(history) ` +
  "to rebuild its position from the match log";
const NO_TABLE = (/** @type {string} */ what) => `${what}: this host keeps no table (no match, or not a RelayHost)`;
const NO_KEEP = (/** @type {string} */ name) => `${name} keeps no game data: it does not implement GameHost.keep()`;

/** What a game may call: its link to the partner. The host owns the state machine. */
export class GameHost {
  /**
   * Returns the host's current State.
   * @returns {StateValue}
   */
  get state() {
    throw new Error("GameHost.state is abstract");
  }

  /**
   * Sends this side's move; `endGame` says the game is over with it. Allowed only in
   * PLAYING_TO_MOVE (after enable()); otherwise throws NotYourTurnError and sends nothing.
   * The host calls disable() at once and sends the move in the background.
   * @param {string} move
   * @param {boolean} [endGame]
   * @returns {void}
   */
  move(move, endGame = false) {
    throw new Error("GameHost.move is abstract");
  }

  /**
   * Shows a message to this side's player.
   * @param {string} text
   * @returns {void}
   */
  showDialog(text) {
    throw new Error("GameHost.showDialog is abstract");
  }

  /**
   * Returns the seats' clocks when the match has a time control (`clock.left()`: each seat's
   * seconds left now, [seat 0, seat 1]), else null (this default).
   * @returns {import("./clock.mjs").Clock | null}
   */
  get clock() {
    return null;
  }

  /**
   * Passes this side's turn back to the partner, by choice (as in Go) or for want of a move.
   * Allowed only in PLAYING_TO_MOVE, like move(). A host that cannot pass throws (this
   * default); RelayHost passes.
   * @returns {void}
   */
  passTurn() {
    throw new Error(NO_PASS(this.constructor.name));
  }

  /**
   * Returns, while Game.receiveMove() runs, whether the partner's move said the game is over
   * (sent with endGame); false at any other time (this default: always).
   * @returns {boolean}
   */
  get endClaimed() {
    return false;
  }

  /**
   * Keeps the game's private data for this match (a commitment's salt, a hidden board) with
   * this side's seat, saved where the ticket is kept and handed back as `kept` on resume.
   * A host that keeps nothing throws (this default); RelayHost keeps it.
   * @param {string} text
   * @returns {void}
   */
  keep(text) {
    throw new Error(NO_KEEP(this.constructor.name));
  }

  /**
   * Returns the game data last kept with the seat (keep()), or null (this default).
   * @returns {string | null}
   */
  get kept() {
    return null;
  }

  /**
   * Returns the table around the match (names, presence, offers, chat), or null (this default).
   * @returns {import("./table.mjs").Table | null}
   */
  get table() {
    return null;
  }

  /**
   * Answers the partner's standing offer (a draw, or a takeback): accept true or false.
   * Resolves when the relay has it; a host without a table rejects (this default).
   * @param {boolean} accept
   * @returns {Promise<number | null>}
   */
  async answerOffer(accept) {
    throw new HostStateError(NO_TABLE(`answerOffer(${accept})`));
  }
}

/** One move or pass of a match's log, as this side sees it (given to Game.restore). */
export class Played {
  /**
   * @param {boolean} mine
   * @param {string | null} move
   * @param {boolean} [end]
   */
  constructor(mine, move, end = false) {
    /** Whether this side played it. */
    this.mine = mine;
    /** The move text, or null for a pass. */
    this.move = move;
    /** Whether the move said the game is over. */
    this.end = end;
    Object.freeze(this);
  }

  /**
   * Returns whether this is a pass rather than a move.
   * @returns {boolean}
   */
  get isPass() {
    return this.move === null;
  }
}

/**
 * What a game implements; the host creates it as createGame(host, firstMove) once paired.
 *
 * The host calls enable() when this side gets the turn and disable() when it loses it (and
 * once at the start when the partner moves first). The partner's moves arrive through
 * receiveMove() and its passes through receivePass(), whose answers decide what happens next.
 */
export class Game {
  /**
   * @param {GameHost} host
   * @param {boolean} firstMove
   */
  constructor(host, firstMove) {
    /** The host this game plays through. */
    this.host = host;
    /** Whether this side moves first. */
    this.firstMove = firstMove;
  }

  /**
   * Lets this side move: a UI accepts input, a bot calls this.host.move(...).
   * @returns {void}
   */
  enable() {
    throw new Error(`${this.constructor.name}.enable is not implemented`);
  }

  /**
   * Stops this side from moving (the partner has the turn, or the game is over).
   * @returns {void}
   */
  disable() {
    throw new Error(`${this.constructor.name}.disable is not implemented`);
  }

  /**
   * Applies the partner's move and returns what follows for this side: PLAYING_TO_MOVE,
   * PLAYING_WAIT_MOVE (no legal move: the host passes) or GAME_ENDED (if the partner's move
   * said so too, the host confirms the end; if it said so and this answer does not, the
   * host disputes it). Throw MoveRejected(reason) for a move it does not accept. It may
   * return a Promise of the State instead (to await WebCrypto, say): the host awaits it and
   * handles nothing else of the log meanwhile. `this.host.endClaimed` says, meanwhile, whether
   * the move said the game is over. Do not call host.move() from here: wait for enable().
   * @param {string} move
   * @returns {Answer}
   */
  receiveMove(move) {
    throw new Error(`${this.constructor.name}.receiveMove is not implemented`);
  }

  /**
   * Learns that the partner passed, and returns what follows for this side: PLAYING_TO_MOVE
   * (the default: the host calls enable()) or PLAYING_WAIT_MOVE (no legal move either: the
   * host passes back). Throw MoveRejected(reason) if the partner had a legal move: the host
   * disputes the pass and the match ends disputed. May return a Promise, as receiveMove().
   * @returns {Answer}
   */
  receivePass() {
    return State.PLAYING_TO_MOVE;
  }

  /**
   * Returns who won once the game is over (a Result), or null; the host asks at the end.
   * @returns {import("./endings.mjs").ResultValue | null}
   */
  result() {
    return null;
  }

  /**
   * Returns how the game ended, in its own words ("three mills"), once it is over; the host
   * sends them with this side's game-ending move, and an agreed end tells them to both sides
   * and keeps them in the record. Optional: the default "" sends none.
   * @returns {string}
   */
  endWords() {
    return "";
  }

  /**
   * Rebuilds the position from the match log when a match is resumed (a reloaded page).
   * `history` holds every move and pass (Played) of the log in order, both sides', except a
   * last partner move or pass this side had not answered: that one still arrives through
   * receiveMove() or receivePass(). Optional: the default refuses to resume. The game's data
   * kept with the ticket is `this.host.kept`. May return a Promise: the host awaits it.
   * @param {readonly Played[]} history
   * @returns {void | Promise<void>}
   */
  restore(history) {
    throw new Error(NO_RESTORE(this.constructor.name));
  }

  /**
   * Takes back the last `count` moves and passes of the match, both sides' (an accepted
   * takeback: the log's `undo` event). The host then enables the game if this side asked for
   * it (it has the turn again) or disables it; a game whose position says it has no move then
   * passes from enable(), as ever. Optional: a game that keeps the default (it throws) never
   * asks for a takeback, and its host declines the partner's requests by itself.
   * @param {number} count
   * @returns {void}
   */
  undo(count) {
    throw new Error(`${this.constructor.name}.undo is not implemented`);
  }

  /**
   * Told of the partner's offer when it is made: `offer` is {kind: "draw" | "takeback", by,
   * at, state, count} (count: the moves and passes a takeback takes back, 1 or 2). Return true
   * to accept it at once, false to decline it, or undefined (this default) to leave it to the
   * player (the page shows it with table.offer; answer with host.answerOffer(accept)). A bot
   * may also answer later, through host.answerOffer(). Never called for a takeback when the
   * game keeps Game.undo's default: the host declines that itself.
   * @param {Offer} offer
   * @returns {boolean | undefined}
   */
  considerOffer(offer) {
    return undefined;
  }
}

/**
 * Returns whether a game takes moves back (overrides Game.undo).
 * @param {Game | null | undefined} game
 * @returns {boolean}
 */
export function canUndo(game) {
  return typeof game?.undo === "function" && game.undo !== Game.prototype.undo;
}
