// Machine: a host's event-driven state machine, what is done with each event of the log. The
// twin of sdk/host/machine.py: it drives a Game by the match log's events (the states, the
// cursor, the clocks, the Outcome) and knows nothing of the network. The driver (driver.mjs)
// hands it the log's events in order and posts the writes it leaves pending. No DOM.

import {
  ending,
  localDispute,
  moveNumber,
  NOT_OVER,
  Outcome,
  Reason,
  rejected,
  Result,
  UNCLAIMED_END,
} from "./endings.mjs";
import { cleanReason, ClosedError, MoveRejected, NO_PASS_REASON, NO_REASON, NotYourTurnError, ProtocolError } from "./errors.mjs";
import { Clock } from "./clock.mjs";
import { checkClaim, claimOf } from "./claims.mjs";
import { State, STATE_NAMES } from "./game.mjs";
import { GAP } from "./inbox.mjs";
import { history, sameEvent, splitLog, turnAfter } from "./match-log.mjs";

/** @typedef {import("./game.mjs").Game} Game */
/** @typedef {import("./game.mjs").GameHost} GameHost */
/** @typedef {import("./game.mjs").StateValue} StateValue */
/** @typedef {import("./endings.mjs").ReasonValue} ReasonValue */
/** @typedef {import("./relay-client.mjs").Ticket} Ticket */
/** @typedef {import("./relay-client.mjs").Event} Event */
/** @typedef {import("./relay-client.mjs").UndoEvent} UndoEvent */
/** @typedef {import("./relay-client.mjs").EndedEvent} EndedEvent */
/** @import { Write } from "./match-log.mjs" */

const NOT_YOUR_TURN = (/** @type {string} */ move, /** @type {StateValue} */ state) =>
  `move(${JSON.stringify(move)}) in state ${STATE_NAMES[state]}: a game moves only after enable()`;
const NO_PASS_NOW = (/** @type {StateValue} */ state) =>
  `passTurn() in state ${STATE_NAMES[state]}: a game passes only after enable()`;
const BAD_ANSWER = (/** @type {string} */ name, /** @type {unknown} */ answer, method = "receiveMove") =>
  `${name}.${method}() must return State.PLAYING_TO_MOVE, PLAYING_WAIT_MOVE or GAME_ENDED, not ${answer}`;
/** The ProtocolError of a log that differs from what this side handled. */
export const DIVERGED = (/** @type {Event} */ event, /** @type {unknown} */ known) =>
  `the relay's log has ${JSON.stringify(event)} where this side already handled ${JSON.stringify(known)}`;
/**
 * The dialog of this side's move or pass that a takeback accepted just before it voided: the
 * game, which played it already, takes it back with the moves the takeback names.
 */
export const VOIDED = (/** @type {Write} */ write) =>
  write.kind === "pass"
    ? "Your pass was not played: the takeback was accepted just before it."
    : `Your move ${write.kind === "move" ? write.move : ""} was not played: the takeback was accepted just before it.`;
const NOT_STARTED = (/** @type {Event} */ event) =>
  `the match log does not open with a started event: ${JSON.stringify(event)}`;

const ANSWERS = new Set([State.PLAYING_TO_MOVE, State.PLAYING_WAIT_MOVE, State.GAME_ENDED]);

/**
 * What a machine tells and asks of the host around it.
 * @typedef {object} MachineHooks
 * @property {GameHost} host the GameHost the game is made with, and shows dialogs through
 * @property {(host: any, firstMove: boolean) => Game} createGame makes the game once paired
 * @property {(state: StateValue) => void} [onState] told of each new State
 * @property {(seq: number) => void} turnBegan told of each new turn (a move, pass or undo)
 */

/** Drives a Game by the match log's events: the states, the cursor, the clocks, the Outcome. */
export class Machine {
  /** @type {MachineHooks} */
  #hooks;
  /** @type {StateValue} */
  state = State.NOT_CONNECTED;
  /** This side's seat, once the seek got one (or the ticket a resumed host was given). */
  /** @type {Ticket | null} */
  ticket = null;
  /** @type {Game | null} */
  game = null;
  /** How the match ended, once it has. */
  /** @type {Outcome | null} */
  outcome = null;
  /** The seats' clocks, once a match with a time control started. */
  /** @type {Clock | null} */
  clock = null;
  /** The number of the last event handled. */
  cursor = 0;
  /** Every event handled, by number: what the game was told, to check a healed log by. */
  /** @type {Map<number, Event>} */
  delivered = new Map();
  /** The move, pass or confirm waiting to be posted. */
  /** @type {Write | null} */
  write = null;
  cancelWanted = false;
  resignWanted = false;
  resignSent = false;
  /** Whether close() stopped the host: the game is called no more. */
  closed = false;
  /** Whether the partner's move being handed to the game said the game is over. */
  endClaimed = false;
  /** This side's move or pass the relay refused because a takeback took its place: the game
   * undoes it too. */
  /** @type {Write | null} */
  voided = null;
  /** The event number of this side's move or pass last posted (applied as it arrives). */
  heldSeq = 0;
  /** The event this side's last move or pass (by the game's move() or passTurn()) followed. */
  /** @type {number | null} */
  turnAfter = null;
  /** Whether the relay took that move or pass: answered its post, or held it for the reply. */
  turnTaken = false;
  /** The dialog of this side's own dispute, shown as it was made (null: none). */
  /** @type {string | null} */
  #disputeDialog = null;

  /** @param {MachineHooks} hooks */
  constructor(hooks) {
    this.#hooks = hooks;
  }

  /**
   * Returns this side's seat number: asked only once seated.
   * @returns {number}
   */
  get seat() {
    return /** @type {Ticket} */ (this.ticket).seat;
  }

  /**
   * Returns the game: asked only once the match has started.
   * @returns {Game}
   */
  get playing() {
    return /** @type {Game} */ (this.game);
  }

  /**
   * Returns the log's last event as this side knows it: the last one handled, or this side's
   * move posted since, which the relay applied as it arrived (its post is held for the reply,
   * so its event is not handed back yet).
   * @returns {number}
   */
  get last() {
    return Math.max(this.cursor, this.heldSeq);
  }

  /**
   * Returns whether this side's last move or pass never reached the relay: the relay neither
   * answered nor held its post, and the log as read has nothing in its place (or the match's
   * end: the relay refused it). While it is being sent, that is so too: asked once the match
   * is over, it names a move the relay refused, or lost with the match.
   * @returns {boolean}
   */
  get turnLost() {
    if (this.turnAfter === null || this.turnTaken) return false;
    const next = this.delivered.get(this.turnAfter + 1);
    return next === undefined || next.type === "ended";
  }

  /**
   * Changes the state, telling onState of a change.
   * @param {StateValue} state
   * @returns {void}
   */
  setState(state) {
    const old = this.state;
    this.state = state;
    if (old !== state) this.#hooks.onState?.(state);
  }

  /**
   * Leaves this side's move or pass pending and disables the game; throws NotYourTurnError
   * outside PLAYING_TO_MOVE. The caller wakes the loop to send it.
   * @param {"move" | "pass"} kind
   * @param {string} move
   * @param {boolean} end
   * @returns {void}
   */
  takeTurn(kind, move = "", end = false) {
    if (this.state !== State.PLAYING_TO_MOVE) {
      throw new NotYourTurnError(kind === "pass" ? NO_PASS_NOW(this.state) : NOT_YOUR_TURN(move, this.state));
    }
    /** @type {Write} */
    const write = kind === "pass" ? { kind, after: this.cursor } : { kind, after: this.cursor, move, end };
    this.write = write;
    this.turnAfter = this.cursor;
    this.turnTaken = false;
    this.clock = this.clock?.sent(this.seat, kind === "move" && end) ?? null;
    this.setState(State.WAITING_SERVER_RESPONSE);
    this.playing.disable();
  }

  /**
   * Returns the write waiting to be posted, and forgets it; a game-ending move carries the
   * result the game tells now (its claim) and its words for the end: asked once move()
   * returned, the move played.
   * @returns {Write | null}
   */
  takeWrite() {
    const write = this.write;
    this.write = null;
    if (write !== null && write.kind === "move" && write.end && write.claim === undefined) {
      const game = this.game;
      return game === null ? { ...write, claim: null } : { ...write, claim: claimOf(game.result()), detail: game.endWords?.() ?? "" };
    }
    return write;
  }

  /**
   * Resigns the match at once (GAME_ENDED, the game disabled), or before the match has
   * started, marks the seek withdrawn; returns what the loop must do about it.
   * @returns {"withdraw" | "resign" | null}
   */
  leave() {
    if (this.outcome !== null || this.resignWanted || this.cancelWanted) return null;
    if (this.game === null) {
      this.cancelWanted = true;
      return "withdraw";
    }
    this.resignWanted = true;
    const wasEnabled = this.state === State.PLAYING_TO_MOVE;
    this.setState(State.GAME_ENDED);
    if (wasEnabled) this.game.disable();
    return "resign";
  }

  /**
   * Creates the game from the first events (restoring a resumed one: a restore() that
   * returns a Promise is awaited); resolves the events left to handle, in order.
   * @param {Event[]} batch
   * @param {boolean} resumed
   * @returns {Promise<Event[]>}
   */
  async start(batch, resumed) {
    const [started] = batch;
    const seat = this.seat;
    if (started.type !== "started" || started.seq !== 1) {
      throw new ProtocolError(NOT_STARTED(started));
    }
    const [restored, live] = resumed ? splitLog(batch.slice(1), seat) : [[], batch.slice(1)];
    this.cursor = 1;
    this.delivered = new Map([started, ...restored].map((event) => [event.seq, event]));
    if (started.timeControl && started.left) {
      this.clock = new Clock(started.timeControl, started.left, started.first, performance.now());
      for (const event of restored) this.clock = this.clock.after(event);
    }
    const game = (this.game = this.#hooks.createGame(this.#hooks.host, started.first === seat));
    if (restored.length > 0) {
      await game.restore(history(restored, seat));
      if (this.closed) throw new ClosedError();
      this.cursor = /** @type {Event} */ (restored.at(-1)).seq;
    }
    const [turn, ending] = turnAfter(started.first, restored);
    const finished = live.some((/** @type {Event} */ event) => event.type === "ended");
    if (turn === seat && !ending && !finished) {
      this.#giveTurn();
    } else {
      this.setState(ending ? State.GAME_ENDED : State.PLAYING_WAIT_MOVE);
      game.disable();
    }
    return live;
  }

  /**
   * Handles the next event of the log: the only place the game hears of the partner. Resolves
   * once the game has answered (its receiveMove() may return a Promise), so that the next
   * event is handled only then: in log order, one at a time.
   * @param {Event} event
   * @returns {Promise<void>}
   */
  async handle(event) {
    if (event.seq <= this.cursor) {
      const known = this.delivered.get(event.seq);
      if (sameEvent(known, event)) return; // handled already (the partner posted it again)
      if (event.type !== "ended") throw new ProtocolError(DIVERGED(event, known));
    } else if (event.seq !== this.cursor + 1) {
      throw new ProtocolError(GAP(this.cursor, event.seq));
    }
    this.cursor = event.seq;
    this.delivered.set(event.seq, event);
    this.clock = this.clock?.after(event) ?? null;
    if (event.type !== "ended" && event.type !== "started") this.#hooks.turnBegan(event.seq);
    if (event.type === "ended") this.#end(event);
    else if (event.type === "started") throw new ProtocolError(NOT_STARTED(event));
    else if (this.resignWanted) return;
    else if (event.type === "undo") this.#undo(event);
    else if (event.seat === this.seat) return;
    else await this.#receive(event);
  }

  /**
   * Takes back what an accepted takeback names (and this side's move or pass it voided), and
   * gives the turn to the seat that asked for it.
   */
  #undo(/** @type {UndoEvent} */ event) {
    const game = this.playing;
    let voided = this.voided;
    this.voided = null;
    const pending = this.write;
    if (pending !== null && pending.kind !== "confirm") {
      // Taken before the undo was handled, not yet posted: the relay would refuse it.
      voided = pending;
      this.write = null;
      this.turnAfter = null;
    }
    // This side's move or pass the takeback voided goes back too, and its player is told.
    game.undo(event.count + (voided === null ? 0 : 1));
    if (voided !== null) this.#hooks.host.showDialog(VOIDED(voided));
    if (event.seat === this.seat) {
      this.#giveTurn();
    } else {
      this.setState(State.PLAYING_WAIT_MOVE);
      game.disable();
    }
  }

  /**
   * Hands the partner's move or pass to the game, and acts on its answer. The game may answer
   * with a Promise of it (a receiveMove() that awaits WebCrypto, say): the machine awaits it,
   * handling nothing else of the log meanwhile; a close() or resign() meanwhile wins.
   */
  async #receive(/** @type {Event} */ event) {
    const game = this.playing;
    const moved = event.type === "move";
    const number = moveNumber(this.delivered, event.seq);
    /** @type {any} the game's State, or a Promise of it */
    let answer;
    this.endClaimed = moved && event.end;
    try {
      answer = moved ? game.receiveMove(event.move) : game.receivePass();
      if (typeof answer?.then === "function") answer = await answer;
    } catch (error) {
      if (!(error instanceof MoveRejected)) throw error;
      if (this.closed || this.resignWanted) return;
      // The game does not accept the move (a claimed end or not) or the pass: dispute it.
      let reason = cleanReason(error.given);
      // None given (games before reasons threw MoveRejected(move), or ("pass")): the default.
      if (!reason || error.given === (moved ? event.move : "pass")) reason = moved ? NO_REASON : NO_PASS_REASON;
      this.#dispute(event, rejected(number, !moved, reason), reason);
      return;
    } finally {
      this.endClaimed = false;
    }
    if (this.closed || this.resignWanted) return;
    if (!ANSWERS.has(answer)) {
      const method = moved ? "receiveMove" : "receivePass";
      throw new TypeError(BAD_ANSWER(game.constructor.name, answer, method));
    }
    if (moved && event.end) {
      let reason = answer === State.GAME_ENDED ? "" : NOT_OVER;
      // A claimed result this side's game finds wrong (not the claim's mirror) is disputed;
      // asked before the state changes, as the Python host does.
      if (!reason && event.claim) reason = checkClaim(event.claim, game.result());
      this.setState(State.GAME_ENDED);
      this.write = { kind: "confirm", after: event.seq, agree: !reason, reason };
    } else if (answer === State.PLAYING_TO_MOVE) {
      this.#giveTurn();
    } else if (answer === State.PLAYING_WAIT_MOVE) {
      this.write = { kind: "pass", after: event.seq };
    } else {
      // The game says it is over but the partner's move did not say so: this side disputes
      // that move, and the match ends disputed for both (a referee, if any, decides).
      this.#dispute(event, localDispute(number), UNCLAIMED_END);
    }
  }

  /** Disputes the partner's last move or pass, with a reason: the match ends disputed for both. */
  #dispute(/** @type {Event} */ event, /** @type {string} */ dialog, /** @type {string} */ reason) {
    this.#disputeDialog = dialog;
    this.setState(State.GAME_ENDED);
    this.write = { kind: "confirm", after: event.seq, agree: false, reason };
    this.#hooks.host.showDialog(dialog);
  }

  /** Gives this side the turn: PLAYING_TO_MOVE, and the game enabled. */
  #giveTurn() {
    this.setState(State.PLAYING_TO_MOVE);
    this.playing.enable();
  }

  /** Ends the match by the log's `ended` event: the Outcome, and the dialog about it. */
  #end(/** @type {EndedEvent} */ event) {
    const game = this.playing;
    const ticket = /** @type {Ticket} */ (this.ticket);
    const wasEnabled = this.state === State.PLAYING_TO_MOVE;
    this.setState(State.GAME_ENDED);
    if (wasEnabled) game.disable();
    const about = event.at === null || event.at === undefined ? null : this.delivered.get(event.at) ?? null;
    const number = moveNumber(this.delivered, event.at);
    let [result, reason, dialog] = ending(event, ticket.seat, () => game.result(), about, number);
    let message = dialog ?? "";
    const own = this.#disputeDialog;
    if (own !== null && reason === Reason.DISPUTED && event.seat === ticket.seat && !event.refereed) {
      [dialog, message] = [null, own]; // this side's dispute was told as it was made
    }
    if (dialog !== null) this.#hooks.host.showDialog(dialog);
    this.outcome = new Outcome(result, reason, ticket.match, ticket.seat, event.seat, message, event);
  }

  /**
   * Ends the match for this side after a failure that retrying could not fix.
   * @param {ReasonValue} reason
   * @param {string} message
   * @returns {void}
   */
  breakOff(reason, message) {
    const game = this.game;
    const ticket = this.ticket;
    const wasEnabled = this.state === State.PLAYING_TO_MOVE;
    this.setState(game !== null ? State.GAME_ENDED : State.NOT_CONNECTED);
    if (wasEnabled && game !== null) game.disable();
    this.#hooks.host.showDialog(message);
    this.outcome = new Outcome(Result.UNKNOWN, reason, ticket?.match ?? null, ticket?.seat ?? null, null, message);
  }

  /**
   * Ends a seek that was withdrawn (or dropped by the relay) before a partner came.
   * @param {string} message
   * @returns {void}
   */
  dropSeek(message) {
    this.setState(State.NOT_CONNECTED);
    if (message) this.#hooks.host.showDialog(message);
    const ticket = this.ticket;
    this.outcome = new Outcome(Result.UNKNOWN, Reason.CANCELLED, ticket?.match ?? null, ticket?.seat ?? null, null, message);
  }

  /**
   * Ends a match this side resigned as it started: the partner came just before the seek's
   * withdrawal reached the relay.
   * @returns {void}
   */
  resignedAtOnce() {
    const ticket = /** @type {Ticket} */ (this.ticket);
    this.setState(State.GAME_ENDED);
    this.outcome = new Outcome(Result.LOST, Reason.RESIGNED, ticket.match, ticket.seat, ticket.seat);
  }
}
