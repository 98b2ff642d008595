// movewire: the JavaScript host of two-player turn-based games played through a relay.
//
// The same shape and semantics as the Python SDK (sdk/): a Game is enabled, disabled and
// handed the partner's moves; it calls host.move(text, endGame) and host.showDialog(text).
// RelayHost is the GameHost that long-polls a relay: it owns the state machine and the
// event cursor, calls the game only from its own loop, one call at a time and in log order,
// retries transient faults (see Timing), and never hands the game an event twice or skips
// one. Around the match it keeps the table (names, presence, offers, chat: table.mjs), read in
// the same polls, and carries the players' offers, answers, claims and chat lines to the relay.
// No DOM here: node runs this module as it is.

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
import * as endings from "./endings.mjs";
import {
  cleanReason,
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
import {
  forgetTicket,
  KEPT_LIMIT,
  loadTicket,
  saveTicket,
  ticketFromJSON,
  ticketToJSON,
} from "./tickets.mjs";
import { canUndo, Game, GameHost, Played, State, STATE_NAMES } from "./game.mjs";
import { history, lostWrites, sameEvent, sameWrite, splitLog, turnAfter } from "./match-log.mjs";

// What a game imports (docs/javascript.md lists it; tests/js/docs-example.test.mjs checks the list).
// Exported here rather than `export ... from`, so that the generated types import what they name.
export {
  // the host (RelayHost, exported where it is declared) and what a game is
  Game,
  GameHost,
  Played,
  State,
  STATE_NAMES,
  canUndo,
  // how a match ends
  Outcome,
  Result,
  Reason,
  // errors and reasons
  MoveRejected,
  NotYourTurnError,
  HostStateError,
  RelayRefusedError,
  ConnectionLostError,
  ProtocolError,
  ClosedError,
  cleanReason,
  NO_REASON,
  NO_PASS_REASON,
  REASON_LIMIT,
  // the protocol calls
  RelayClient,
  Timing,
  parseEvent,
  // clocks
  Clock,
  TimeControl,
  formatLeft,
  BAD_CLOCK,
  // the table
  TableKeeper,
  parseTable,
  OFFER_KINDS,
  OFFER_STATES,
  // the log as a host reads it
  history,
  splitLog,
  turnAfter,
  sameEvent,
  lostWrites,
  // claims and ratings
  checkClaim,
  claimOf,
  CLAIMS,
  WRONG_CLAIM,
  ratingRangeJson,
  BAD_RANGE,
  changeWords,
  scoreWords,
  // tickets
  saveTicket,
  loadTicket,
  forgetTicket,
  ticketToJSON,
  ticketFromJSON,
  KEPT_LIMIT,
};


const NOT_YOUR_TURN = (/** @type {string} */ move, /** @type {StateValue} */ state) =>
  `move(${JSON.stringify(move)}) in state ${STATE_NAMES[state]}: a game moves only after enable()`;
const NOT_TEXT = (/** @type {unknown} */ move) => `a move must be a well-formed string, not ${String(move)}`;
const PLAYED_TWICE = "a RelayHost plays one match; make another (or use RelayHost.resume)";
const NO_PASS_NOW = (/** @type {StateValue} */ state) =>
  `passTurn() in state ${STATE_NAMES[state]}: a game passes only after enable()`;
const BAD_ANSWER = (/** @type {string} */ name, /** @type {unknown} */ answer, method = "receiveMove") =>
  `${name}.${method}() must return State.PLAYING_TO_MOVE, PLAYING_WAIT_MOVE or GAME_ENDED, not ${answer}`;
const GAP = (/** @type {number} */ cursor, /** @type {number} */ seq) => `the relay skipped from event ${cursor} to event ${seq}`;
const DIVERGED = (/** @type {Event} */ event, /** @type {unknown} */ known) =>
  `the relay's log has ${JSON.stringify(event)} where this side already handled ${JSON.stringify(known)}`;
const NOT_STARTED = (/** @type {Event} */ event) =>
  `the match log does not open with a started event: ${JSON.stringify(event)}`;
const NO_UNDO = (/** @type {string} */ name) =>
  `${name} cannot take a move back: it does not override Game.undo(count), so this side ` +
  "neither asks for nor accepts a takeback";
const NOT_SEATED = (/** @type {string} */ what) => `${what} before the match has started`;
const NO_OFFER = "answerOffer(): no offer of the partner stands";
const NOT_KEPT = (/** @type {unknown} */ text) => `the game data kept must be a string, not ${String(text)}`;
const TOO_MUCH = (/** @type {number} */ size) => `a ticket keeps at most ${KEPT_LIMIT} characters of game data, not ${size}`;

/**
 * Milliseconds after which a move post held for the reply counts as accepted: the relay
 * refuses a move at once, so one still unanswered is held, and the partner has the turn.
 */
const ACCEPTED_AFTER_MS = 250;

const ANSWERS = new Set([State.PLAYING_TO_MOVE, State.PLAYING_WAIT_MOVE, State.GAME_ENDED]);



function isWellFormed(/** @type {string} */ text) {
  const wellFormed = /** @type {{isWellFormed?: () => boolean}} */ (/** @type {unknown} */ (text)).isWellFormed;
  if (typeof wellFormed === "function") return wellFormed.call(text);
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

function sentence(/** @type {unknown} */ error) {
  return String(/** @type {any} */ (error)?.message ?? error).replace(/\.$/, "");
}

/**
 * What RelayHost's options hold: new RelayHost(options), RelayHost.resume(ticket, options).
 * @typedef {object} HostOptions
 * @property {(host: RelayHost, firstMove: boolean) => Game} createGame makes the game once
 *   paired (firstMove: whether this side moves first)
 * @property {string} [relay] the relay's base URL; "" (the default) is the page's own origin
 * @property {string} [gameKey] the game key sought
 * @property {string} [version] the version of the move strings the game speaks
 * @property {string | null} [room] a private room's name (null: meet any seeker)
 * @property {boolean} [public] whether the seek is listed in the game's lobby
 * @property {string | null} [name] this side's display name, sent with the seek
 * @property {TimeControl | null} [timeControl] the clock sought (null: none)
 * @property {string | null} [player] a player key the seat is listed under (correspondence)
 * @property {string | null} [contact] the handle the relay's your-turn notices name
 * @property {import("./ratings.mjs").RatingRange | null} [ratingRange] with a player key and no
 *   room, the ratings an opponent may have
 * @property {Timing} [timing] poll holds, request timeouts, backoff and give-up time
 * @property {(text: string) => void} [onDialog] shows a message (default: the console)
 * @property {(state: StateValue) => void} [onState] told of each new State
 * @property {(ticket: Ticket) => void} [onTicket] told of the seat once seated (and of each
 *   keep()), to save it and resume later
 * @property {(reachable: boolean, failure: string | null) => void} [onReachable] told when the
 *   relay stops answering and when it answers again
 * @property {(table: Table) => void} [onTable] told of each newer table
 * @property {typeof fetch} [fetch] for tests: the fetch to use
 * @property {() => number} [random] for tests: the random numbers of the jitter, in [0, 1)
 * @property {{now(): number, sleep(ms: number, signal?: AbortSignal): Promise<void>}} [clock]
 *   for tests: the clock
 */

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

/** @import { Write } from "./match-log.mjs" */
/** @import { RawTable } from "./table.mjs" */

const WAKE = Symbol("wake");
/** The poll found the log shorter than what it read: a failover of the relay's store. */
const BEHIND = Symbol("behind");


/**
 * Plays one match through a relay: seeks, long-polls the match log, and drives a Game.
 *
 * Options: relay (base URL; "" is the page's own origin), gameKey, createGame(host,
 * firstMove), version, room, name (this side's display name, sent with the seek), player
 * and contact (see players.mjs), ratingRange (with a player key: {within: N} or {min, max}, the
 * ratings an opponent may have; see docs/ratings.md), timing (a
 * Timing), onDialog(text), onState(state), onTicket(ticket), onReachable(reachable, failure)
 * (told when the relay stops answering, and when it answers again), onTable(table) (told of
 * each newer table: see the `table` getter); for tests: fetch, random, clock.
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
  /** @type {AbortController | null} */
  #listenAbort = null;
  /** @type {Ticket | null} */
  #ticket = null;
  #resumed = false;
  /** @type {Game | null} */
  #game = null;
  /** @type {Outcome | null} */
  #outcome = null;
  /** @type {StateValue} */
  #state = State.NOT_CONNECTED;
  #cursor = 0;
  /** @type {Write | null} */
  #write = null;
  #cancelWanted = false;
  #resignWanted = false;
  #resignSent = false;
  /** The dialog of this side's own dispute, shown as it was made (null: none). */
  /** @type {string | null} */
  #disputeDialog = null;
  /** Whether the partner's move being handed to the game said the game is over. */
  #endClaimed = false;
  #played = false;
  #closed = false;
  /**
   * What the host's loop takes from its queue: an event, a table read, a failure, or a signal.
   * @typedef {Event | {table: Table, asOf: number | null} | {failure: unknown} | typeof WAKE
   *   | typeof BEHIND} Item
   */
  /** @type {Item[]} */
  #queue = [];
  /** @type {((value: void) => void) | null} */
  #waiting = null;
  /** The number of the last event queued (by a poll or a held move post's answer). */
  #fed = 0;
  #fedEnded = false;
  #pollFailed = false;
  /** @type {Promise<void> | null} */
  #poller = null;
  /** @type {AbortController | null} */
  #pollAbort = null;
  /** Every event handled, by number: what the game was told, to check a healed log by. */
  /** @type {Map<number, Event>} */
  #delivered = new Map();
  /** This side's writes a failover lost, to post again when the log reaches them. */
  /** @type {Write[]} */
  #reposts = [];
  /** @type {Write | null} */
  #retried = null;
  /** @type {Clock | null} */
  #clock = null;
  /** The table as read at receipt (its version and chat cursor are what polls send). */
  #keeper = new TableKeeper();
  /** The table as the host last told it (null before the first). */
  /** @type {Table | null} */
  #table = null;
  /** The log's last event when #table was read (null: not known), to date its claim. */
  /** @type {number | null} */
  #tableAsOf = null;
  /** The event that began the current turn: a claim read before it is about another turn. */
  #turnSeq = 0;
  /** The relay's claim time in this match, in seconds (null: no claim in this match). */
  /** @type {number | null} */
  #claimAfter = null;
  /** A turn of the partner's, begun at this event, whose claim time is to be read. */
  /** @type {number | null} */
  #claimWanted = null;
  #claimRead = 0;
  /** The partner's standing offer last handed to the game, so that it is handed once. */
  /** @type {string | null} */
  #considered = null;
  /** A write the relay refused because a takeback took its place: the game undoes it too. */
  #voided = false;
  #looping = false;
  /** The event number of this side's move or pass last posted (applied as it arrives). */
  #heldSeq = 0;

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
    // options.player: a player key the seat is listed under; options.contact: the handle the
    // relay's your-turn notices name (both for correspondence; see players.mjs);
    // options.ratingRange: with a player key, the ratings an opponent may have ({within: N}
    // or {min, max}; see ratings.mjs), else any.
    /** Poll holds, request timeouts, backoff and give-up time. */
    this.timing = options.timing ?? new Timing();
    this.#client = new RelayClient({ ...options, timing: this.timing, signal: this.#abort.signal });
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
    host.#ticket = Object.freeze(kept === null ? { match, seat, token } : { match, seat, token, kept });
    host.#resumed = true;
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
    if (typeof text !== "string") throw new TypeError(NOT_KEPT(text));
    if (text.length > KEPT_LIMIT) throw new RangeError(TOO_MUCH(text.length));
    if (this.#ticket === null) throw new HostStateError(NOT_SEATED("keep()"));
    const { match, seat, token } = this.#ticket;
    this.#ticket = Object.freeze({ match, seat, token, kept: text });
    this.#options.onTicket?.(this.#ticket);
  }

  /**
   * Returns the game data last kept with this side's seat (keep(); after a resume, the
   * ticket's), or null.
   * @returns {string | null}
   */
  get kept() {
    return this.#ticket?.kept ?? null;
  }

  /**
   * Returns, while the game's receiveMove() runs (until its Promise settles), whether the
   * partner's move said the game is over (sent with endGame); false at any other time.
   * @returns {boolean}
   */
  get endClaimed() {
    return this.#endClaimed;
  }

  /**
   * Returns the host's current State.
   * @returns {StateValue}
   */
  get state() {
    return this.#state;
  }

  /**
   * Returns the seats' clocks once a match with a time control started (`clock.left()`: each
   * seat's seconds left now, [seat 0, seat 1], the seat to move's running down), else null.
   * @returns {Clock | null}
   */
  get clock() {
    return this.#clock;
  }

  /**
   * Returns the game, once the match has started.
   * @returns {Game | null}
   */
  get game() {
    return this.#game;
  }

  /**
   * Returns this side's seat {match, seat, token} once seated; keep it to resume.
   * @returns {Ticket | null}
   */
  get ticket() {
    return this.#ticket;
  }

  /**
   * Returns how the match ended, once it has.
   * @returns {Outcome | null}
   */
  get outcome() {
    return this.#outcome;
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
    return this.#cursor;
  }

  /**
   * Returns the table around the match as last read, or null before the first: {version,
   * names: [seat 0's, seat 1's] (null for none), presence: [{here, since, abandonIn, abandonAt},
   * ...], offer: {kind, by, at, state, count} or null (the last offer), chat: every line read
   * so far, in order, once each ({n, seat, text, at, time}), fresh: the lines the latest read
   * added, claimIn and claimAt (when the seat not to move may claim the win from a staller:
   * seconds at the read, and the performance.now() moment; null when it may not, or when the
   * turn changed since the read), readAt}. `abandonAt` is the moment an away seat abandons.
   * @returns {Table | null}
   */
  get table() {
    return this.#table;
  }

  /**
   * Returns whether this side's game takes moves back (Game.undo), so may ask or accept one.
   * @returns {boolean}
   */
  get canUndo() {
    return this.#game !== null && canUndo(this.#game);
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
    if (!this.canUndo) throw new HostStateError(NO_UNDO(this.#game?.constructor.name ?? "the game"));
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
    const offer = this.#table?.offer ?? null;
    if (accept && offer?.kind === "takeback" && !this.canUndo) {
      throw new HostStateError(NO_UNDO(this.#playing.constructor.name));
    }
    if (accept && (offer === null || offer.state !== "offered")) throw new HostStateError(NO_OFFER);
    const { seq, table } = await this.#client.answerOffer(ticket, Boolean(accept), this.#last());
    this.#tableRead(table, accept ? seq : null);
    return seq;
  }

  /**
   * Claims the win from a partner that stalls on its turn (a match without a clock, once the
   * table's claimIn reached 0); resolves with the `ended` event's number, or rejects with the
   * relay's refusal (claim/not_stalled, whose message says how long is left).
   * @returns {Promise<number>}
   */
  async claim() {
    return this.#client.claim(this.#seated("claim()"), this.#last());
  }

  async #offer(/** @type {"draw" | "takeback"} */ kind) {
    const ticket = this.#seated(kind === "draw" ? "offerDraw()" : "askTakeback()");
    const after = this.#last();
    return this.#tableRead(await this.#client.offer(ticket, kind, after), after);
  }

  /**
   * Returns the log's last event as this side knows it: the last one handled, or this side's
   * move posted since, which the relay applied as it arrived (its post is held for the reply,
   * so its event is not handed back yet).
   */
  #last() {
    return Math.max(this.#cursor, this.#heldSeq);
  }

  /** Returns the seat's ticket: asked only once seated. */
  get #seatTicket() {
    return /** @type {Ticket} */ (this.#ticket);
  }

  /** Returns this side's seat number: asked only once seated. */
  get #seat() {
    return this.#seatTicket.seat;
  }

  /** Returns the game: asked only once the match has started. */
  get #playing() {
    return /** @type {Game} */ (this.#game);
  }

  /** Returns the ticket of a match that has started; throws HostStateError before. */
  #seated(/** @type {string} */ what) {
    if (this.#ticket === null || this.#game === null) throw new HostStateError(NOT_SEATED(what));
    return this.#ticket;
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
    if (this.#state !== State.PLAYING_TO_MOVE) {
      throw new NotYourTurnError(NOT_YOUR_TURN(move, this.#state));
    }
    this.#takeTurn({ kind: "move", after: this.#cursor, move, end: Boolean(endGame) });
  }

  /**
   * Passes this side's turn back to the partner: by choice, or for want of a legal move.
   * Allowed only in PLAYING_TO_MOVE, like move(): otherwise throws NotYourTurnError and sends
   * nothing. The game is disabled at once and the pass posted: then PLAYING_WAIT_MOVE. The
   * partner's game may dispute it.
   */
  passTurn() {
    if (this.#state !== State.PLAYING_TO_MOVE) throw new NotYourTurnError(NO_PASS_NOW(this.#state));
    this.#takeTurn({ kind: "pass", after: this.#cursor });
  }

  #takeTurn(/** @type {Write} */ write) {
    this.#write = write;
    this.#clock = this.#clock?.sent(this.#seat, write.kind === "move" && write.end) ?? null;
    this.#setState(State.WAITING_SERVER_RESPONSE);
    this.#playing.disable();
    this.#push(WAKE);
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
    if (this.#outcome !== null || this.#resignWanted || this.#cancelWanted) return;
    if (this.#game === null) {
      this.#cancelWanted = true;
      this.#listenAbort?.abort();
      return;
    }
    this.#resignWanted = true;
    const wasEnabled = this.#state === State.PLAYING_TO_MOVE;
    this.#setState(State.GAME_ENDED);
    if (wasEnabled) this.#game.disable();
    this.#push(WAKE);
  }

  /**
   * Stops the host where it is (a page going away, or starting another match): requests in
   * flight are dropped, the game is called no more, and play() resolves with null. The seat
   * stays valid, so RelayHost.resume() can take the match up again.
   */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort();
    this.#push({ failure: new ClosedError() });
  }

  /**
   * Resolves how the finished match moved this side's rating, {before, after}, waiting up to
   * `waitMs` while the relay rates it; null when the match is not rated (a seat without a
   * player key, a result nobody can trust, a relay without ratings) or not over.
   * @param {number} [waitMs]
   * @returns {Promise<{before: number, after: number} | null>}
   */
  async ratingChange(waitMs = 3000) {
    const ticket = this.#ticket;
    if (ticket === null || this.#outcome === null || !this.#outcome.isFinished) return null;
    // The match's own client stopped with play(): a fresh one, with the same relay and fetch.
    const client = new RelayClient({ ...this.#options, timing: this.timing });
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { rated, ratings } = await client.matchRatings(ticket.match);
      if (rated === true && Array.isArray(ratings)) return ratings[ticket.seat] ?? null;
      if (rated !== "pending" || Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
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
    try {
      const batch = await this.#listen();
      if (batch !== null) {
        await this.#start(batch);
        const last = /** @type {Event} */ (batch.at(-1));
        this.#fed = last.seq;
        this.#fedEnded = last.type === "ended";
        this.#looping = true;
        while (this.#outcome === null) await this.#step();
        this.#looping = false;
        this.#drainTables(); // read with the end: the last chat lines, the accepted draw
      }
    } catch (error) {
      if (error instanceof ClosedError || this.#closed) return null;
      if (error instanceof ConnectionLostError) {
        this.#breakOff(Reason.CONNECTION_LOST, endings.CONNECTION_LOST(sentence(error)));
      } else if (error instanceof RelayRefusedError || error instanceof ProtocolError) {
        this.#breakOff(Reason.ERROR, endings.REFUSED(sentence(error)));
        await this.#resignQuietly();
      } else {
        throw error;
      }
    } finally {
      this.#abort.abort();
      await this.#poller;
    }
    return this.#outcome;
  }

  // -- the match ---------------------------------------------------------------------------

  async #listen() {
    this.#setState(State.LISTENING);
    for (;;) {
      if (this.#cancelWanted) {
        await this.#withdraw();
        return null;
      }
      if (this.#ticket === null) {
        this.#ticket = await this.#client.seek(
          this.gameKey,
          this.version,
          this.room,
          undefined,
          this.#options.public === true,
          this.timeControl,
          {
            player: this.#options.player ?? null,
            contact: this.#options.contact ?? null,
            name: this.#options.name ?? null,
            ratingRange: this.#options.ratingRange ?? null,
          },
        );
        this.#options.onTicket?.(this.#ticket);
        continue;
      }
      this.#listenAbort = new AbortController();
      let batch;
      try {
        batch = await this.#client.events(
          this.#ticket,
          0,
          this.timing.pollWait,
          this.#listenAbort.signal,
        );
      } catch (error) {
        if (error instanceof ClosedError && !this.#closed) continue; // cancel() woke us
        if (error instanceof RelayRefusedError && error.code === "match/expired") {
          if (this.#resumed) {
            this.#dropSeek(endings.SEEK_DROPPED(sentence(error)));
            return null;
          }
          this.#ticket = null; // the relay dropped the seek (we could not poll): seek anew
          continue;
        }
        throw error;
      } finally {
        this.#listenAbort = null;
      }
      if (batch.length > 0 && this.#cancelWanted) {
        await this.#withdraw();
        return null;
      }
      if (batch.length > 0) return batch;
    }
  }

  async #withdraw() {
    const ticket = this.#ticket;
    if (ticket !== null) {
      try {
        await this.#client.cancel(ticket);
      } catch (error) {
        if (!(error instanceof RelayRefusedError) || error.code !== "match/started") throw error;
        // The partner came just before the withdrawal: leave the new match at once.
        await this.#client.resign(ticket);
        this.#setState(State.GAME_ENDED);
        this.#outcome = new Outcome(
          Result.LOST,
          Reason.RESIGNED,
          ticket.match,
          ticket.seat,
          ticket.seat,
        );
        return;
      }
    }
    this.#dropSeek("");
  }

  #dropSeek(/** @type {string} */ message) {
    this.#setState(State.NOT_CONNECTED);
    if (message) this.showDialog(message);
    const ticket = this.#ticket;
    this.#outcome = new Outcome(
      Result.UNKNOWN,
      Reason.CANCELLED,
      ticket?.match ?? null,
      ticket?.seat ?? null,
      null,
      message,
    );
  }

  /**
   * Creates the game from the first events (restoring a resumed one: a restore() that
   * returns a Promise is awaited) and queues the rest.
   */
  async #start(/** @type {Event[]} */ batch) {
    const [started] = batch;
    const seat = this.#seat;
    if (started.type !== "started" || started.seq !== 1) {
      throw new ProtocolError(NOT_STARTED(started));
    }
    const [restored, live] = this.#resumed ? splitLog(batch.slice(1), seat) : [[], batch.slice(1)];
    this.#cursor = 1;
    this.#delivered = new Map([started, ...restored].map((event) => [event.seq, event]));
    if (started.timeControl && started.left) {
      this.#clock = new Clock(started.timeControl, started.left, started.first, performance.now());
      for (const event of restored) this.#clock = this.#clock.after(event);
    }
    const game = (this.#game = this.#options.createGame(this, started.first === seat));
    if (restored.length > 0) {
      await game.restore(history(restored, seat));
      if (this.#closed) throw new ClosedError();
      this.#cursor = /** @type {Event} */ (restored.at(-1)).seq;
    }
    this.#turnSeq = this.#cursor;
    const [turn, ending] = turnAfter(started.first, restored);
    const finished = live.some((/** @type {Event} */ event) => event.type === "ended");
    if (turn === seat && !ending && !finished) {
      this.#giveTurn();
    } else {
      this.#setState(ending ? State.GAME_ENDED : State.PLAYING_WAIT_MOVE);
      game.disable();
    }
    for (const event of live) this.#push(event);
  }

  /** Queues the events above the last one queued, once each and in order; throws on a gap. */
  #feed(/** @type {readonly Event[]} */ events) {
    for (const event of events) {
      if (event.seq <= this.#fed || this.#fedEnded) continue;
      if (event.seq !== this.#fed + 1) throw new ProtocolError(GAP(this.#fed, event.seq));
      this.#push(event);
      this.#fed = event.seq;
      this.#fedEnded = event.type === "ended";
    }
  }

  /**
   * Polls the log, unless a poll is under way or the log is read to its end. The host polls
   * only when it has nothing else to do: a move is posted held for the reply instead (one
   * request per move), and the poll is stopped while it is.
   */
  #pollIfIdle() {
    if (this.#poller !== null || this.#fedEnded || this.#pollFailed || this.#closed) return;
    const stop = (this.#pollAbort = new AbortController());
    this.#poller = this.#pollOnce(stop.signal).finally(() => {
      if (this.#pollAbort === stop) {
        this.#poller = null;
        this.#pollAbort = null;
      }
    });
  }

  /**
   * Long-polls until new events are queued, then stops. Stopping it loses nothing: events
   * are queued only between polls, and the next poll starts from the last one queued.
   */
  async #pollOnce(/** @type {AbortSignal} */ signal) {
    try {
      while (!this.#fedEnded) {
        const start = this.#fed;
        const at = { table: this.#keeper.version, chat: this.#keeper.chatSeen };
        const { events, table } = await this.#client.poll(this.#seatTicket, start, this.timing.pollWait, signal, at);
        this.#feed(events);
        if (table !== null) this.#tableRead(table, events.at(-1)?.seq ?? start);
        if (this.#fed !== start) return;
      }
    } catch (error) {
      if (error instanceof ClosedError && signal.aborted && !this.#closed) return; // stopped
      if (error instanceof RelayRefusedError && error.code === "match/behind") {
        this.#push(BEHIND); // the main loop heals, after the events before it
        return;
      }
      this.#pollFailed = true;
      this.#push({ failure: error }); // the main loop ends the match with it, in order
    }
  }

  /** Stops the poll under way, so that the seat holds one request at a time. */
  async #stopPolling() {
    const poller = this.#poller;
    if (poller === null) return;
    this.#pollAbort?.abort();
    this.#poller = null;
    this.#pollAbort = null;
    await poller;
  }

  /** Sends what is pending, else handles the next queued event. */
  async #step() {
    if (this.#resignWanted) {
      if (!this.#resignSent) {
        this.#resignSent = true;
        await this.#send(null);
        return;
      }
    } else {
      let write = this.#write;
      this.#write = null;
      if (write !== null && write.kind === "move" && write.end && write.claim === undefined) {
        // Asked here, once move() returned: the game has played its move. Its claim.
        write = { ...write, claim: this.#game === null ? null : claimOf(this.#game.result()) };
      }
      if (write === null) write = this.#repost();
      if (write !== null) {
        await this.#send(write);
        return;
      }
    }
    if (this.#queue.length === 0) {
      this.#readClaim();
      this.#pollIfIdle();
    }
    const item = await this.#next();
    if (item === BEHIND) {
      await this.#heal(await this.#client.events(this.#seatTicket, 0, 0), null, true);
    } else if (item !== WAKE) {
      if ("failure" in item) throw item.failure;
      if ("table" in item) this.#takeTable(item.table, item.asOf);
      else await this.#handle(item);
    }
  }

  /** Returns the next write a failover lost, once the log reaches the event it followed. */
  #repost() {
    const reposts = this.#reposts;
    // Gone past: the log has the event, which was handled and checked.
    while (reposts.length > 0 && reposts[0].after < this.#fed) reposts.shift();
    if (reposts.length > 0 && reposts[0].after === this.#fed && this.#queue.length === 0) {
      return /** @type {Write} */ (reposts.shift());
    }
    return null;
  }

  /**
   * Takes up a log that lost events this side handled or wrote; resolves false if it did
   * not. `behind`: the relay said so (match/behind); else the log says whether it lost
   * events. The events left must be those the game saw; the host reads on from the log's
   * end, skips the partner's lost moves posted again, and posts its own again in turn.
   */
  async #heal(/** @type {readonly Event[]} */ log, /** @type {Write | null} */ pending, /** @type {boolean} */ behind) {
    const last = log.at(-1)?.seq ?? 0;
    if (!behind) {
      if (pending !== null && pending.after === last) {
        // Refused at the log's end: the log reached the write's place since the refusal (the
        // partner posted a lost move again). Post it once more; refused there again, give up.
        if (sameWrite(this.#retried, pending)) return false;
        this.#retried = pending;
      } else if (last >= this.#cursor && (pending === null || last > pending.after)) {
        return false; // the log is whole: the refusal has another cause
      }
    }
    await this.#stopPolling();
    for (const event of log) {
      const known = this.#delivered.get(event.seq);
      if (!sameEvent(known, event)) throw new ProtocolError(DIVERGED(event, known));
    }
    this.#reposts = lostWrites(this.#delivered, last, this.#seat, pending);
    this.#fed = Math.min(last, this.#fed);
    this.#fedEnded = false;
    return true;
  }

  /** Posts a write (null: the resignation); a 409 is explained by the log or thrown. */
  async #send(/** @type {Write | null} */ write) {
    const ticket = this.#seatTicket;
    try {
      if (write === null) await this.#client.resign(ticket);
      else if (write.kind === "move") {
        await this.#stopPolling();
        const [seq, replies, table] = await this.#postHeld(write);
        /** @type {MoveEvent} */
        const own = { type: "move", seq, seat: ticket.seat, move: write.move, end: write.end, claim: write.claim ?? null };
        this.#feed([own, ...replies]);
        // Read before the replies it came with, maybe: dated by the move.
        if (table !== null) this.#tableRead(table, seq);
      } else if (write.kind === "pass") {
        this.#heldSeq = write.after + 1;
        await this.#client.passTurn(ticket, write.after);
      }
      else await this.#client.confirm(ticket, write.after, write.agree, write.reason ?? "");
    } catch (error) {
      if (!(error instanceof RelayRefusedError) || error.status !== 409) throw error;
      // Refused as the match moved on (the partner resigned or left), or as the log fell
      // behind what this side saw (a failover): the log says which.
      const log = await this.#client.events(ticket, 0, 0);
      if (write !== null && (await this.#heal(log, write, error.code === "match/behind"))) return;
      // A takeback accepted just before this move or pass took its place: the game, which
      // played it already, takes it back with the moves the takeback names.
      const played = write !== null && (write.kind === "move" || write.kind === "pass");
      const voided = played && log.some((event) => event.type === "undo" && event.seq === write.after + 1);
      this.#voided = voided;
      try {
        for (const event of log) await this.#handle(event);
      } finally {
        this.#voided = false;
      }
      this.#fed = Math.max(this.#fed, this.#cursor);
      if (this.#outcome === null && !voided) throw error;
      return;
    }
    const played = write !== null && (write.kind === "move" || write.kind === "pass");
    if (played && this.#state === State.WAITING_SERVER_RESPONSE) {
      this.#setState(write.kind === "move" && write.end ? State.GAME_ENDED : State.PLAYING_WAIT_MOVE);
    }
  }

  /**
   * Posts a move held for the reply; the partner has the turn once the relay holds it: once
   * an attempt to post it has been neither answered nor failed for ACCEPTED_AFTER_MS. While
   * the attempts fail (the relay away), the move stays WAITING_SERVER_RESPONSE.
   */
  async #postHeld(/** @type {Extract<Write, {kind: "move"}>} */ write) {
    const { after, move, end } = write;
    const claim = write.claim ?? null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const held = () => {
      if (this.#state === State.WAITING_SERVER_RESPONSE) {
        this.#setState(end ? State.GAME_ENDED : State.PLAYING_WAIT_MOVE);
        // The partner's turn began with this move: when may it be claimed against?
        if (!end) this.#readClaim(after + 1);
      }
    };
    const watch = {
      sent: () => {
        this.#heldSeq = after + 1;
        clearTimeout(timer);
        timer = setTimeout(held, ACCEPTED_AFTER_MS);
      },
      failed: () => clearTimeout(timer),
    };
    const wait = this.timing.pollWait;
    const at = { table: this.#keeper.version, chat: this.#keeper.chatSeen };
    try {
      return await this.#client.moveAndWait(this.#seatTicket, after, move, end, wait, undefined, watch, at, claim);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Handles the next event of the log: the only place the game hears of the partner. Resolves
   * once the game has answered (its receiveMove() may return a Promise), so that the next
   * event is handled only then: in log order, one at a time.
   */
  async #handle(/** @type {Event} */ event) {
    if (event.seq <= this.#cursor) {
      const known = this.#delivered.get(event.seq);
      if (sameEvent(known, event)) return; // handled already (the partner posted it again)
      if (event.type !== "ended") throw new ProtocolError(DIVERGED(event, known));
    } else if (event.seq !== this.#cursor + 1) {
      throw new ProtocolError(GAP(this.#cursor, event.seq));
    }
    this.#cursor = event.seq;
    this.#delivered.set(event.seq, event);
    this.#clock = this.#clock?.after(event) ?? null;
    if (event.type !== "ended" && event.type !== "started") this.#turnBegan(event.seq);
    if (event.type === "ended") this.#end(event);
    else if (event.type === "started") throw new ProtocolError(NOT_STARTED(event));
    else if (this.#resignWanted) return;
    else if (event.type === "undo") this.#undo(event);
    else if (event.seat === this.#seat) return;
    else await this.#receive(event);
  }

  /**
   * Takes back what an accepted takeback names (and this side's move or pass it voided), and
   * gives the turn to the seat that asked for it.
   */
  #undo(/** @type {UndoEvent} */ event) {
    const game = this.#playing;
    game.undo(event.count + (this.#voided ? 1 : 0));
    this.#voided = false;
    if (event.seat === this.#seat) {
      this.#giveTurn();
    } else {
      this.#setState(State.PLAYING_WAIT_MOVE);
      game.disable();
    }
  }

  /** Notes a new turn (a move, pass or undo at `seq`): a claim time read before is stale. */
  #turnBegan(/** @type {number} */ seq) {
    this.#turnSeq = seq;
    this.#claimWanted = seq;
    const table = this.#table;
    if (table !== null && table.claimAt !== null && (this.#tableAsOf ?? -1) < seq) {
      this.#table = Object.freeze({ ...table, claimIn: null, claimAt: null });
      this.#options.onTable?.(this.#table);
    }
  }

  /**
   * Counts when the partner's turn, begun at event `seq` (default: the last turn noted), may be
   * claimed against, from the relay's claim time (the table's `claim_after`), with no request:
   * the table's version does not change with each turn. The turn is taken to begin when this
   * side learnt of it, a little after the relay counts from, so a claim is never early.
   */
  #readClaim(seq = this.#claimWanted) {
    if (seq === null || this.#claimAfter === null || this.#clock !== null || this.#closed) return;
    if (this.#state !== State.PLAYING_WAIT_MOVE || seq <= this.#claimRead) return;
    if ((this.#tableAsOf ?? -1) >= seq && this.#table?.claimAt !== null) return;
    this.#claimRead = seq;
    this.#claimWanted = null;
    const table = this.#table;
    if (table === null) return;
    const now = performance.now();
    this.#table = Object.freeze({ ...table, claimIn: this.#claimAfter, claimAt: now + this.#claimAfter * 1000 });
    this.#tableAsOf = seq;
    this.#options.onTable?.(this.#table);
  }

  /**
   * Takes a table the relay answered, read with the log at event `asOf` (null: not known): kept
   * at once (polls send its version), handed to the page and the game in log order.
   */
  #tableRead(/** @type {RawTable} */ raw, /** @type {number | null} */ asOf) {
    const table = this.#keeper.take(raw, performance.now());
    if (table === null || this.#closed) return this.#keeper.current;
    if (this.#looping) this.#push({ table, asOf });
    else if (this.#outcome !== null) this.#takeTable(table, asOf);
    else this.#queue.push({ table, asOf }); // before the loop: handled once it runs
    return table;
  }

  /** Handles remaining tables once the match is over (read with its end). */
  #drainTables() {
    const tables = this.#queue.filter((item) => typeof item === "object" && item !== null && "table" in item);
    this.#queue = this.#queue.filter((item) => !tables.some((table) => table === item));
    for (const item of tables) this.#takeTable(item.table, item.asOf);
  }

  /** Tells the page of a newer table, and hands a new offer of the partner's to the game. */
  #takeTable(/** @type {Table} */ read, /** @type {number | null} */ asOf) {
    let table = read;
    if (table.claimAfter !== null && table.claimAfter !== undefined) this.#claimAfter = table.claimAfter;
    if (asOf === null) {
      // Not dated (a decline's answer): the claim time known stays.
      const known = this.#table;
      table = Object.freeze({ ...table, claimIn: known?.claimIn ?? null, claimAt: known?.claimAt ?? null });
      asOf = this.#tableAsOf;
    } else if (asOf < this.#turnSeq) {
      table = Object.freeze({ ...table, claimIn: null, claimAt: null }); // of a turn gone
    }
    if (this.#table !== null && table.version < this.#table.version) return;
    this.#table = table;
    this.#tableAsOf = asOf;
    this.#options.onTable?.(table);
    if (this.#outcome === null) this.#consider(table.offer);
  }

  /** Hands the partner's new standing offer to the game once; declines a takeback it cannot. */
  #consider(/** @type {Offer | null} */ offer) {
    const seat = this.#seat;
    const standing = offer !== null && offer.state === "offered" && offer.by !== seat;
    if (!standing) {
      this.#considered = null;
      return;
    }
    const key = `${offer.kind}@${offer.at}`;
    const inPlay = this.#state === State.PLAYING_TO_MOVE || this.#state === State.PLAYING_WAIT_MOVE;
    if (key === this.#considered || offer.at !== this.#last() || !inPlay || this.#resignWanted) return;
    this.#considered = key;
    let answer;
    if (offer.kind === "takeback" && !this.canUndo) answer = false;
    else answer = this.#playing.considerOffer(offer);
    if (answer === true || answer === false) {
      this.answerOffer(answer).catch(() => {}); // lapsed meanwhile: the table tells
    }
  }

  /**
   * Hands the partner's move or pass to the game, and acts on its answer. The game may answer
   * with a Promise of it (a receiveMove() that awaits WebCrypto, say): the host awaits it,
   * handling nothing else of the log meanwhile; a close() or resign() meanwhile wins.
   */
  async #receive(/** @type {Event} */ event) {
    const game = this.#playing;
    const moved = event.type === "move";
    const number = moveNumber(this.#delivered, event.seq);
    /** @type {any} the game's State, or a Promise of it */
    let answer;
    this.#endClaimed = moved && event.end;
    try {
      answer = moved ? game.receiveMove(event.move) : game.receivePass();
      if (typeof answer?.then === "function") answer = await answer;
    } catch (error) {
      if (!(error instanceof MoveRejected)) throw error;
      if (this.#closed || this.#resignWanted) return;
      // The game does not accept the move (a claimed end or not) or the pass: dispute it.
      let reason = cleanReason(error.given);
      // None given (games before reasons threw MoveRejected(move), or ("pass")): the default.
      if (!reason || error.given === (moved ? event.move : "pass")) reason = moved ? NO_REASON : NO_PASS_REASON;
      this.#dispute(event, rejected(number, !moved, reason), reason);
      return;
    } finally {
      this.#endClaimed = false;
    }
    if (this.#closed || this.#resignWanted) return;
    if (!ANSWERS.has(answer)) {
      const method = moved ? "receiveMove" : "receivePass";
      throw new TypeError(BAD_ANSWER(game.constructor.name, answer, method));
    }
    if (moved && event.end) {
      let reason = answer === State.GAME_ENDED ? "" : NOT_OVER;
      // A claimed result this side's game finds wrong (not the claim's mirror) is disputed;
      // asked before the state changes, as the Python host does.
      if (!reason && event.claim) reason = checkClaim(event.claim, game.result());
      this.#setState(State.GAME_ENDED);
      this.#write = { kind: "confirm", after: event.seq, agree: !reason, reason };
    } else if (answer === State.PLAYING_TO_MOVE) {
      this.#giveTurn();
    } else if (answer === State.PLAYING_WAIT_MOVE) {
      this.#write = { kind: "pass", after: event.seq };
    } else {
      // The game says it is over but the partner's move did not say so: this side disputes
      // that move, and the match ends disputed for both (a referee, if any, decides).
      this.#dispute(event, localDispute(number), UNCLAIMED_END);
    }
  }

  /** Disputes the partner's last move or pass, with a reason: the match ends disputed for both. */
  #dispute(/** @type {Event} */ event, /** @type {string} */ dialog, /** @type {string} */ reason) {
    this.#disputeDialog = dialog;
    this.#setState(State.GAME_ENDED);
    this.#write = { kind: "confirm", after: event.seq, agree: false, reason };
    this.showDialog(dialog);
  }

  #giveTurn() {
    this.#setState(State.PLAYING_TO_MOVE);
    this.#playing.enable();
  }

  #end(/** @type {EndedEvent} */ event) {
    const game = this.#playing;
    const ticket = this.#seatTicket;
    const wasEnabled = this.#state === State.PLAYING_TO_MOVE;
    this.#setState(State.GAME_ENDED);
    if (wasEnabled) game.disable();
    const about = event.at === null || event.at === undefined ? null : this.#delivered.get(event.at) ?? null;
    const number = moveNumber(this.#delivered, event.at);
    let [result, reason, dialog] = ending(event, ticket.seat, () => game.result(), about, number);
    let message = dialog ?? "";
    const own = this.#disputeDialog;
    if (own !== null && reason === Reason.DISPUTED && event.seat === ticket.seat && !event.refereed) {
      [dialog, message] = [null, own]; // this side's dispute was told as it was made
    }
    if (dialog !== null) this.showDialog(dialog);
    this.#outcome = new Outcome(result, reason, ticket.match, ticket.seat, event.seat, message, event);
  }

  /** Ends the match for this side after a failure that retrying could not fix. */
  #breakOff(/** @type {ReasonValue} */ reason, /** @type {string} */ message) {
    const game = this.#game;
    const ticket = this.#ticket;
    const wasEnabled = this.#state === State.PLAYING_TO_MOVE;
    this.#setState(game !== null ? State.GAME_ENDED : State.NOT_CONNECTED);
    if (wasEnabled && game !== null) game.disable();
    this.showDialog(message);
    this.#outcome = new Outcome(
      Result.UNKNOWN,
      reason,
      ticket?.match ?? null,
      ticket?.seat ?? null,
      null,
      message,
    );
  }

  /** Tries once, briefly, to free the partner of a match this side cannot go on with. */
  async #resignQuietly() {
    if (this.#game === null || this.#ticket === null) return;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), this.timing.requestTimeout * 1000);
    try {
      const client = new RelayClient({ ...this.#options, timing: this.timing });
      await client.resign(this.#ticket, stop.signal);
    } catch {
      // Best effort: the relay ends the match by abandonment anyway.
    } finally {
      clearTimeout(timer);
    }
  }

  // -- plumbing ----------------------------------------------------------------------------

  #setState(/** @type {StateValue} */ state) {
    const old = this.#state;
    this.#state = state;
    if (old !== state) this.#options.onState?.(state);
  }

  #push(/** @type {Item} */ item) {
    this.#queue.push(item);
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.();
  }

  async #next() {
    while (this.#queue.length === 0) {
      await new Promise((resolve) => {
        this.#waiting = resolve;
      });
    }
    return /** @type {Item} */ (this.#queue.shift());
  }
}
