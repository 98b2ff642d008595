// The table as a host keeps it around its match: read in the same polls as the log (every
// poll sends the table's version and chat cursor), handed to the page and to the game in log
// order, each partner's offer handed to the game once, and each turn's claim time counted
// without a request. The twin of the table part of sdk/host/machine.py. No DOM.

import { canUndo, State } from "./game.mjs";
import { TableKeeper } from "./table.mjs";

/** @typedef {import("./table.mjs").Table} Table */
/** @typedef {import("./table.mjs").Offer} Offer */
/** @typedef {import("./relay-client.mjs").TableCursor} TableCursor */
/** @typedef {import("./machine.mjs").Machine} Machine */
/** @typedef {import("./inbox.mjs").Inbox} Inbox */
/** @import { RawTable } from "./table.mjs" */

/**
 * What a host's table tells and asks of the host around it.
 * @typedef {object} TableHooks
 * @property {(table: Table) => void} [onTable] told of each newer table
 * @property {(accept: boolean) => Promise<unknown>} answerOffer answers the partner's offer
 */

/** Keeps the table of a host's match, and tells the page and the game of it in log order. */
export class HostTable {
  /** @type {Machine} */
  #machine;
  /** @type {Inbox} */
  #inbox;
  /** @type {TableHooks} */
  #hooks;
  /** The table as read at receipt (its version and chat cursor are what polls send). */
  #keeper = new TableKeeper();
  /** The table as the host last told it (null before the first). */
  /** @type {Table | null} */
  #table = null;
  /** The log's last event when #table was read (null: not known), to date its claim. */
  /** @type {number | null} */
  #asOf = null;
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

  /**
   * @param {Machine} machine
   * @param {Inbox} inbox
   * @param {TableHooks} hooks
   */
  constructor(machine, inbox, hooks) {
    this.#machine = machine;
    this.#inbox = inbox;
    this.#hooks = hooks;
  }

  /**
   * Returns the table as last told (see RelayHost.table), or null before the first.
   * @returns {Table | null}
   */
  get current() {
    return this.#table;
  }

  /**
   * Returns the reader's place a poll sends: the table's version and the last chat line read.
   * @returns {TableCursor}
   */
  get cursor() {
    return { table: this.#keeper.version, chat: this.#keeper.chatSeen };
  }

  /**
   * Notes the turn the match starts at (after a resumed game's restore: the log's last event).
   * @param {number} seq
   * @returns {void}
   */
  startAt(seq) {
    this.#turnSeq = seq;
  }

  /**
   * Notes a new turn (a move, pass or undo at `seq`): a claim time read before is stale.
   * @param {number} seq
   * @returns {void}
   */
  turnBegan(seq) {
    this.#turnSeq = seq;
    this.#claimWanted = seq;
    const table = this.#table;
    if (table !== null && table.claimAt !== null && (this.#asOf ?? -1) < seq) {
      this.#tell(Object.freeze({ ...table, claimIn: null, claimAt: null }));
    }
  }

  /**
   * Counts when the partner's turn, begun at event `seq` (default: the last turn noted), may be
   * claimed against, from the relay's claim time (the table's `claim_after`), with no request:
   * the table's version does not change with each turn. The turn is taken to begin when this
   * side learnt of it, a little after the relay counts from, so a claim is never early.
   * @param {number | null} [seq]
   * @returns {void}
   */
  readClaim(seq = this.#claimWanted) {
    const machine = this.#machine;
    if (seq === null || this.#claimAfter === null || machine.clock !== null || machine.closed) return;
    if (machine.state !== State.PLAYING_WAIT_MOVE || seq <= this.#claimRead) return;
    if ((this.#asOf ?? -1) >= seq && this.#table?.claimAt !== null) return;
    this.#claimRead = seq;
    this.#claimWanted = null;
    const table = this.#table;
    if (table === null) return;
    const now = performance.now();
    this.#asOf = seq;
    this.#tell(Object.freeze({ ...table, claimIn: this.#claimAfter, claimAt: now + this.#claimAfter * 1000 }));
  }

  /**
   * Takes a table the relay answered, read with the log at event `asOf` (null: not known): kept
   * at once (polls send its version), handed to the page and the game in log order. Returns
   * the table kept.
   * @param {RawTable} raw
   * @param {number | null} asOf
   * @returns {Table | null}
   */
  read(raw, asOf) {
    const table = this.#keeper.take(raw, performance.now());
    if (table === null || this.#machine.closed) return this.#keeper.current;
    if (this.#inbox.looping) this.#inbox.push({ table, asOf });
    else if (this.#machine.outcome !== null) this.take(table, asOf);
    else this.#inbox.push({ table, asOf }); // before the loop: handled once it runs
    return table;
  }

  /**
   * Handles the tables left in the inbox once the match is over (read with its end).
   * @returns {void}
   */
  drain() {
    for (const item of this.#inbox.takeTables()) this.take(item.table, item.asOf);
  }

  /**
   * Tells the page of a newer table, and hands a new offer of the partner's to the game.
   * @param {Table} read
   * @param {number | null} asOf
   * @returns {void}
   */
  take(read, asOf) {
    let table = read;
    if (table.claimAfter !== null && table.claimAfter !== undefined) this.#claimAfter = table.claimAfter;
    if (asOf === null) {
      // Not dated (a decline's answer): the claim time known stays.
      const known = this.#table;
      table = Object.freeze({ ...table, claimIn: known?.claimIn ?? null, claimAt: known?.claimAt ?? null });
      asOf = this.#asOf;
    } else if (asOf < this.#turnSeq) {
      table = Object.freeze({ ...table, claimIn: null, claimAt: null }); // of a turn gone
    }
    if (this.#table !== null && table.version < this.#table.version) return;
    this.#asOf = asOf;
    this.#tell(table);
    if (this.#machine.outcome === null) this.#consider(table.offer);
  }

  /** Keeps `table` as the one told, and tells the page. */
  #tell(/** @type {Table} */ table) {
    this.#table = table;
    this.#hooks.onTable?.(table);
  }

  /** Hands the partner's new standing offer to the game once; declines a takeback it cannot. */
  #consider(/** @type {Offer | null} */ offer) {
    const machine = this.#machine;
    const standing = offer !== null && offer.state === "offered" && offer.by !== machine.seat;
    if (!standing) {
      this.#considered = null;
      return;
    }
    const key = `${offer.kind}@${offer.at}`;
    const inPlay = machine.state === State.PLAYING_TO_MOVE || machine.state === State.PLAYING_WAIT_MOVE;
    if (key === this.#considered || offer.at !== machine.last || !inPlay || machine.resignWanted) return;
    this.#considered = key;
    const game = machine.playing;
    const answer = offer.kind === "takeback" && !canUndo(game) ? false : game.considerOffer(offer);
    if (answer === true || answer === false) {
      this.#hooks.answerOffer(answer).catch(() => {}); // lapsed meanwhile: the table tells
    }
  }
}
