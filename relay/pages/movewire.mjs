// movewire: the JavaScript host of two-player turn-based games played through a relay.
//
// The same shape and semantics as the Python SDK (sdk/): a Game is enabled, disabled and
// handed the partner's moves; it calls host.move(text, endGame) and host.showDialog(text).
// RelayHost is the GameHost that long-polls a relay: it owns the state machine and the
// event cursor, calls the game only from its own loop, one call at a time and in log order,
// retries transient faults (see Timing), and never hands the game an event twice or skips
// one. Around the match it keeps the table (names, presence, offers, chat: table.mjs), read in
// the same polls, and carries the players' offers, answers, claims and chat lines to the relay.
// RelayHost is a facade over small parts, as sdk/relay_host.py is over sdk/host/: the state
// machine (machine.mjs), the loop that polls and sends (driver.mjs), the inbox the loop reads
// (inbox.mjs) and the table kept around the match (host-table.mjs).
// No DOM here: node runs this module as it is.

import { Outcome, Reason, Result } from "./endings.mjs";
import {
  cleanReason,
  isWellFormed,
  ClosedError,
  ConnectionLostError,
  HostStateError,
  MoveRejected,
  NO_PASS_REASON,
  NO_REASON,
  NotYourTurnError,
  ProtocolError,
  REASON_LIMIT,
  RelayRefusedError,
} from "./errors.mjs";
import { BAD_CLOCK, Clock, formatLeft, TimeControl } from "./clock.mjs";
import { parseEvent, RelayClient, Timing } from "./relay-client.mjs";
import { OFFER_KINDS, OFFER_STATES, parseTable, TableKeeper } from "./table.mjs";
import { checkClaim, CLAIMS, claimOf, WRONG_CLAIM } from "./claims.mjs";
import { BAD_RANGE, changeWords, ratingRangeJson, scoreWords } from "./ratings.mjs";
import { checkKept, forgetTicket, KEPT_LIMIT, loadTicket, saveTicket, ticketFromJSON, ticketToJSON } from "./tickets.mjs";
import { canUndo, Game, GameHost, Played, State, STATE_NAMES } from "./game.mjs";
import { history, lostWrites, sameEvent, splitLog, turnAfter } from "./match-log.mjs";
import { Driver } from "./driver.mjs";
import { HostTable } from "./host-table.mjs";
import { Inbox, WAKE } from "./inbox.mjs";
import { Machine } from "./machine.mjs";
import { offerSettled } from "./offering.mjs";

// What a game imports (docs/javascript.md lists it; tests/js/docs-example.test.mjs checks the list).
// Exported here rather than `export ... from`, so that the generated types import what they name.
export {
  // the host (RelayHost, exported where it is declared) and what a game is
  Game, GameHost, Played, State, STATE_NAMES, canUndo,
  // how a match ends
  Outcome, Result, Reason,
  // errors and reasons
  MoveRejected, NotYourTurnError, HostStateError, RelayRefusedError, ConnectionLostError,
  ProtocolError, ClosedError, cleanReason, NO_REASON, NO_PASS_REASON, REASON_LIMIT,
  // the protocol calls
  RelayClient, Timing, parseEvent,
  // clocks
  Clock, TimeControl, formatLeft, BAD_CLOCK,
  // the table
  TableKeeper, parseTable, OFFER_KINDS, OFFER_STATES,
  // the log as a host reads it
  history, splitLog, turnAfter, sameEvent, lostWrites,
  // claims and ratings
  checkClaim, claimOf, CLAIMS, WRONG_CLAIM, ratingRangeJson, BAD_RANGE, changeWords, scoreWords,
  // tickets
  saveTicket, loadTicket, forgetTicket, ticketToJSON, ticketFromJSON, KEPT_LIMIT,
};

const NOT_TEXT = (/** @type {unknown} */ move) => `a move must be a well-formed string, not ${String(move)}`;
const PLAYED_TWICE = "a RelayHost plays one match; make another (or use RelayHost.resume)";
const NO_UNDO = (/** @type {string} */ name) =>
  `${name} cannot take a move back: it does not override Game.undo(count), so this side ` +
  "neither asks for nor accepts a takeback";
const NOT_SEATED = (/** @type {string} */ what) => `${what} before the match has started`;
const NO_OFFER = "answerOffer(): no offer of the partner stands";

/** @typedef {import("./host-options.mjs").HostOptions} HostOptions */
/** @typedef {import("./game.mjs").StateValue} StateValue */
/** @typedef {import("./game.mjs").Answer} Answer */
/** @typedef {import("./endings.mjs").ResultValue} ResultValue */
/** @typedef {import("./endings.mjs").ReasonValue} ReasonValue */
/** @typedef {import("./relay-client.mjs").Ticket} Ticket */
/** @typedef {import("./relay-client.mjs").Event} Event */
/** @typedef {import("./relay-client.mjs").StartedEvent} StartedEvent */
/** @typedef {import("./relay-client.mjs").MoveEvent} MoveEvent */
/** @typedef {import("./relay-client.mjs").PassEvent} PassEvent */
/** @typedef {import("./relay-client.mjs").UndoEvent} UndoEvent */
/** @typedef {import("./relay-client.mjs").EndedEvent} EndedEvent */
/** @typedef {import("./table.mjs").Table} Table */
/** @typedef {import("./table.mjs").Offer} Offer */
/** @typedef {import("./table.mjs").Presence} Presence */
/** @typedef {import("./table.mjs").ChatLine} ChatLine */

/**
 * Plays one match through a relay: seeks, long-polls the match log, and drives a Game. Its
 * options are HostOptions; for tests also fetch, random and clock.
 *
 * The table comes in the same requests as the log: every poll of the events sends `table=V`
 * (and `chat=C`), and every move post held for the reply `?wait=S&table=V`, so that a change
 * of the table (a chat line, an offer, a seat away or back) answers them too. The game hears
 * of the partner's offers through Game.considerOffer(), and of an accepted takeback through
 * Game.undo(count); the player's side speaks through say(), offerDraw(), askTakeback(),
 * answerOffer() and claim().
 */
export class RelayHost extends GameHost {
  /** @type {HostOptions} */
  #options;
  /** @type {RelayClient} */
  #client;
  #abort = new AbortController();
  #played = false;
  /** @type {Machine} */
  #machine;
  #inbox = new Inbox();
  /** @type {HostTable} */
  #table;
  /** @type {Driver} */
  #driver;

  /** @param {HostOptions} options */
  constructor(options) {
    super();
    if (typeof options?.createGame !== "function") {
      throw new TypeError("RelayHost needs createGame(host, firstMove)");
    }
    this.#options = options;
    /** The relay's base URL. */
    this.relay = options.relay ?? "";
    /** The game key sought (empty for a resumed host, which never seeks). */
    this.gameKey = options.gameKey ?? "";
    /** The version of the move strings this game speaks. */
    this.version = options.version ?? "";
    /** A private room name, or null to meet any seeker of the game and version. */
    this.room = options.room ?? null;
    /** The TimeControl sought (null: no clock); only seekers of the same one meet. */
    this.timeControl = options.timeControl ?? null;
    /** Poll holds, request timeouts, backoff and give-up time. */
    this.timing = options.timing ?? new Timing();
    this.#client = new RelayClient({ ...options, timing: this.timing, signal: this.#abort.signal });
    this.#machine = new Machine({
      host: this,
      createGame: options.createGame,
      onState: (state) => this.#options.onState?.(state),
      turnBegan: (seq) => this.#table.turnBegan(seq),
    });
    this.#table = new HostTable(this.#machine, this.#inbox, {
      onTable: (table) => this.#options.onTable?.(table),
      answerOffer: (accept) => this.answerOffer(accept),
    });
    this.#driver = new Driver({
      machine: this.#machine,
      inbox: this.#inbox,
      table: this.#table,
      client: this.#client,
      abort: this.#abort,
      seek: () => this.#seek(),
      // The match's own client stops with play(): a fresh one, with the same relay and fetch.
      freshClient: () => new RelayClient({ ...this.#options, timing: this.timing }),
      onTicket: (ticket) => this.#options.onTicket?.(ticket),
      pollWait: this.timing.pollWait,
      requestTimeout: this.timing.requestTimeout,
    });
  }

  /**
   * Returns a host that takes up the seat `ticket` again (after a reload) when it plays; the
   * game data kept with the ticket (`ticket.kept`, see keep()) is `host.kept`.
   * @param {Ticket} ticket
   * @param {Omit<HostOptions, "gameKey">} options
   * @returns {RelayHost}
   */
  static resume(ticket, options) {
    const host = new RelayHost({ ...options, gameKey: "" });
    const { match, seat, token } = ticket;
    const kept = typeof ticket.kept === "string" ? ticket.kept : null;
    host.#machine.ticket = Object.freeze(kept === null ? { match, seat, token } : { match, seat, token, kept });
    host.#driver.resumed = true;
    return host;
  }

  /**
   * Keeps the game's private data for this match (a commitment's salt, a hidden board) with
   * this side's seat, replacing what was kept: the ticket becomes one with `kept: text`, and
   * onTicket(ticket) is told it, to save it where the ticket is kept (saveTicket() writes
   * it too). Never sent to the relay or the partner; handed back as `host.kept` when the
   * match is resumed. Throws HostStateError before the seek has a seat.
   * @param {string} text
   * @returns {void}
   */
  keep(text) {
    const kept = checkKept(text);
    const machine = this.#machine;
    if (machine.ticket === null) throw new HostStateError(NOT_SEATED("keep()"));
    const { match, seat, token } = machine.ticket;
    machine.ticket = Object.freeze({ match, seat, token, kept });
    this.#options.onTicket?.(machine.ticket);
  }

  /**
   * Returns the game data last kept with this side's seat (keep(); after a resume, the
   * ticket's), or null. @returns {string | null}
   */
  get kept() {
    return this.#machine.ticket?.kept ?? null;
  }

  /**
   * Returns, while the game's receiveMove() runs (until its Promise settles), whether the
   * partner's move said the game is over (sent with endGame); false at any other time.
   * @returns {boolean}
   */
  get endClaimed() {
    return this.#machine.endClaimed;
  }

  /**
   * Returns the host's current State.
   * @returns {StateValue}
   */
  get state() {
    return this.#machine.state;
  }

  /**
   * Returns the seats' clocks once a match with a time control started (`clock.left()`: each
   * seat's seconds left now, [seat 0, seat 1], the seat to move's running down), else null.
   * @returns {Clock | null}
   */
  get clock() {
    return this.#machine.clock;
  }

  /**
   * Returns the game, once the match has started.
   * @returns {Game | null}
   */
  get game() {
    return this.#machine.game;
  }

  /**
   * Returns this side's seat {match, seat, token} once seated; keep it to resume.
   * @returns {Ticket | null}
   */
  get ticket() {
    return this.#machine.ticket;
  }

  /**
   * Returns how the match ended, once it has.
   * @returns {Outcome | null}
   */
  get outcome() {
    return this.#machine.outcome;
  }

  /**
   * Returns how many requests were sent again after a transient fault.
   * @returns {number}
   */
  get retries() {
    return this.#client.retries;
  }

  /**
   * Returns whether the relay answered the host's latest request: false from a failed
   * request (the host retries it, with backoff) until the relay answers again.
   * @returns {boolean}
   */
  get reachable() {
    return this.#client.reachable;
  }

  /**
   * Returns the number of the last event handled.
   * @returns {number}
   */
  get cursor() {
    return this.#machine.cursor;
  }

  /**
   * Returns whether this side's last move or pass never reached the relay (true as well while
   * it is sent), once play() has resolved: refused, or the match lost before the relay took it
   * (a relay restarted on its memory store answers match/unknown). A page takes it off its
   * board (the game's undo(1)) and says so. @returns {boolean}
   */
  get turnLost() {
    return this.#machine.turnLost;
  }

  /**
   * Returns the table around the match as last read (table.mjs's Table: names, presence, the
   * last offer, every chat line read so far, claimIn and claimAt: when the seat not to move
   * may claim the win from a staller, null when it may not or the turn changed since the
   * read), or null before the first.
   * @returns {Table | null}
   */
  get table() {
    return this.#table.current;
  }

  /**
   * Returns whether this side's game takes moves back (Game.undo), so may ask or accept one.
   * @returns {boolean}
   */
  get canUndo() {
    return this.#machine.game !== null && canUndo(this.#machine.game);
  }

  /**
   * Says a line in the match's chat (1 to 300 characters); resolves with its number, or rejects
   * with the relay's refusal (RelayRefusedError: chat/off, chat/too_fast, ...). The line comes
   * back with the table, to both seats.
   * @param {string} text
   * @returns {Promise<number>}
   */
  async say(text) {
    return this.#client.chat(this.#seated("say()"), String(text));
  }

  /**
   * Offers the partner a draw at the position this side has; resolves with the table read.
   * @returns {Promise<Table | null>}
   */
  async offerDraw() {
    return this.#offer("draw");
  }

  /**
   * Asks the partner to take back this side's last move (and the partner's reply, if it made
   * one); resolves with the table read. Rejects with HostStateError for a game without undo.
   * @returns {Promise<Table | null>}
   */
  async askTakeback() {
    if (!this.canUndo) throw new HostStateError(NO_UNDO(this.#machine.game?.constructor.name ?? "the game"));
    return this.#offer("takeback");
  }

  /**
   * Accepts (true) or declines (false) the partner's standing offer; the offerer's own decline
   * withdraws its offer. Resolves with the acceptance's event number (null for a decline): an
   * accepted draw ends the match (`drawn`), an accepted takeback comes as an `undo` event.
   * Rejects with HostStateError when accepting a takeback for a game without undo, and with the
   * relay's refusal (offer/none: it lapsed, or was withdrawn).
   * @param {boolean} accept
   * @returns {Promise<number | null>}
   */
  async answerOffer(accept) {
    const ticket = this.#seated("answerOffer()");
    const offer = this.#table.current?.offer ?? null;
    if (accept && offer?.kind === "takeback" && !this.canUndo) {
      throw new HostStateError(NO_UNDO(this.#machine.playing.constructor.name));
    }
    if (accept && (offer === null || offer.state !== "offered")) throw new HostStateError(NO_OFFER);
    const { seq, table } = await this.#client.answerOffer(ticket, Boolean(accept), this.#machine.last);
    this.#table.read(table, accept ? seq : null);
    return seq;
  }

  /**
   * Claims the win from a partner that stalls on its turn (a match without a clock, once the
   * table's claimIn reached 0); resolves with the `ended` event's number, or rejects with the
   * relay's refusal (claim/not_stalled, whose message says how long is left).
   * @returns {Promise<number>}
   */
  async claim() {
    return this.#client.claim(this.#seated("claim()"), this.#machine.last);
  }

  async #offer(/** @type {"draw" | "takeback"} */ kind) {
    const ticket = this.#seated(kind === "draw" ? "offerDraw()" : "askTakeback()");
    const { table, after } = await offerSettled(this.#client, ticket, kind, this.#machine);
    return this.#table.read(table, after);
  }

  /** Returns the ticket of a match that has started; throws HostStateError before. */
  #seated(/** @type {string} */ what) {
    const { ticket, game } = this.#machine;
    if (ticket === null || game === null) throw new HostStateError(NOT_SEATED(what));
    return ticket;
  }

  /**
   * Sends this side's move; `endGame` says the game is over with it. Allowed only in
   * PLAYING_TO_MOVE: otherwise throws NotYourTurnError and sends nothing. The state becomes
   * WAITING_SERVER_RESPONSE, the game is disabled at once, and the move is posted (retried
   * until the relay accepts it): then PLAYING_WAIT_MOVE, or GAME_ENDED.
   * @param {string} move
   * @param {boolean} [endGame]
   * @returns {void}
   */
  move(move, endGame = false) {
    if (typeof move !== "string") throw new TypeError(NOT_TEXT(move));
    if (!isWellFormed(move)) throw new RangeError(NOT_TEXT(move));
    this.#machine.takeTurn("move", move, Boolean(endGame));
    this.#inbox.push(WAKE);
  }

  /**
   * Passes this side's turn back to the partner: by choice, or for want of a legal move.
   * Allowed only in PLAYING_TO_MOVE, like move(): otherwise throws NotYourTurnError and sends
   * nothing. The game is disabled at once and the pass posted: then PLAYING_WAIT_MOVE. The
   * partner's game may dispute it.
   */
  passTurn() {
    this.#machine.takeTurn("pass");
    this.#inbox.push(WAKE);
  }

  /**
   * Shows a message to this side's player, through onDialog (default: the console).
   * @param {string} text
   * @returns {void}
   */
  showDialog(text) {
    (this.#options.onDialog ?? console.log)(text);
  }

  /**
   * Resigns the match (the partner wins); while seeking, withdraws the seek instead. Takes
   * effect at once: the state becomes GAME_ENDED and the game is disabled; play() resolves
   * when the relay has recorded it. Does nothing once the match is over.
   */
  resign() {
    this.#leave();
  }

  /**
   * Withdraws the seek (before play() or while LISTENING): play() resolves with CANCELLED.
   * If a partner has joined already, the new match is resigned instead, just as when the
   * partner joins before the withdrawal reaches the relay. Does nothing once it is over.
   */
  cancel() {
    this.#leave();
  }

  #leave() {
    const leaving = this.#machine.leave();
    if (leaving === "withdraw") this.#driver.stopListening();
    else if (leaving === "resign") this.#inbox.push(WAKE);
  }

  /**
   * Stops the host where it is (a page going away, or starting another match): requests in
   * flight are dropped, the game is called no more, and play() resolves with null. The seat
   * stays valid, so RelayHost.resume() can take the match up again.
   */
  close() {
    if (this.#machine.closed) return;
    this.#machine.closed = true;
    this.#abort.abort();
    this.#inbox.push({ failure: new ClosedError() });
  }

  /**
   * Resolves how the finished match moved this side's rating, {before, after}, waiting up to
   * `waitMs` while the relay rates it; null when the match is not rated (a seat without a
   * player key, a result nobody can trust, a relay without ratings) or not over.
   * @param {number} [waitMs]
   * @returns {Promise<{before: number, after: number} | null>}
   */
  async ratingChange(waitMs = 3000) {
    const { ticket, outcome } = this.#machine;
    if (ticket === null || outcome === null || !outcome.isFinished) return null;
    // The match's own client stopped with play(): a fresh one, with the same relay and fetch.
    const client = new RelayClient({ ...this.#options, timing: this.timing });
    return client.ratingChange(ticket.match, ticket.seat, waitMs);
  }

  /**
   * Plays the match to its end and resolves with the Outcome (null if close() stopped it);
   * one call per host. Network faults are retried (see Timing); a final failure ends the
   * match with a dialog and an Outcome (CONNECTION_LOST or ERROR), never a rejection. An
   * error thrown by the game's own code rejects (the seat can then be resumed).
   * @returns {Promise<Outcome | null>}
   */
  async play() {
    if (this.#played) throw new HostStateError(PLAYED_TWICE);
    this.#played = true;
    return this.#driver.run();
  }

  /** Seeks a seat with the host's game, version, room, clock and keys. */
  #seek() {
    const options = this.#options;
    return this.#client.seek(this.gameKey, this.version, this.room, undefined, options.public === true, this.timeControl, {
      player: options.player ?? null,
      contact: options.contact ?? null,
      name: options.name ?? null,
      ratingRange: options.ratingRange ?? null,
    });
  }
}
