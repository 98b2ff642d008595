// Driver: a host's loop, that seeks, long-polls the match log and sends this side's writes.
// The twin of sdk/host/driver.py: it feeds the log's events to the machine (machine.mjs) in
// order, posts what the machine leaves pending, heals the log after a failover of the relay's
// store, and turns a final failure into the machine's Outcome. It polls only when it has
// nothing else to do: a move is posted held for the reply instead (one request per move), and
// the poll is stopped while it is. No DOM.

import * as endings from "./endings.mjs";
import { Reason } from "./endings.mjs";
import { ClosedError, ConnectionLostError, ProtocolError, RelayRefusedError } from "./errors.mjs";
import { State } from "./game.mjs";
import { BEHIND, WAKE } from "./inbox.mjs";
import { DIVERGED } from "./machine.mjs";
import { lostWrites, sameEvent, sameWrite } from "./match-log.mjs";

/** @typedef {import("./relay-client.mjs").RelayClient} RelayClient */
/** @typedef {import("./relay-client.mjs").Ticket} Ticket */
/** @typedef {import("./relay-client.mjs").Event} Event */
/** @typedef {import("./relay-client.mjs").MoveEvent} MoveEvent */
/** @typedef {import("./endings.mjs").Outcome} Outcome */
/** @typedef {import("./machine.mjs").Machine} Machine */
/** @typedef {import("./inbox.mjs").Inbox} Inbox */
/** @typedef {import("./host-table.mjs").HostTable} HostTable */
/** @import { Write } from "./match-log.mjs" */

/**
 * Milliseconds after which a move post held for the reply counts as accepted: the relay
 * refuses a move at once, so one still unanswered is held, and the partner has the turn.
 */
export const ACCEPTED_AFTER_MS = 250;

/** Returns an error's text without a final full stop, to quote it inside a sentence. */
function sentence(/** @type {unknown} */ error) {
  return String(/** @type {any} */ (error)?.message ?? error).replace(/\.$/, "");
}

/**
 * What a driver is given besides the host's parts.
 * @typedef {object} DriverParts
 * @property {Machine} machine
 * @property {Inbox} inbox
 * @property {HostTable} table
 * @property {RelayClient} client the match's client, stopped with `abort`
 * @property {AbortController} abort aborted once play ends (or by close())
 * @property {() => Promise<Ticket>} seek asks the relay for a seat
 * @property {() => RelayClient} freshClient a client not stopped with the match's
 * @property {(ticket: Ticket) => void} [onTicket] told the seat the seek got
 * @property {number} pollWait whole seconds a poll is held
 * @property {number} requestTimeout seconds a request may take
 */

/** Plays a Machine's match through a relay: one request at a time per seat. */
export class Driver {
  /** @type {DriverParts} */
  #parts;
  /** Whether the seat is taken up again: the log's moves so far restore the game. */
  resumed = false;
  /** @type {AbortController | null} */
  #listenAbort = null;
  #pollFailed = false;
  /** @type {Promise<void> | null} */
  #poller = null;
  /** @type {AbortController | null} */
  #pollAbort = null;
  /** This side's writes a failover lost, to post again when the log reaches them. */
  /** @type {Write[]} */
  #reposts = [];
  /** @type {Write | null} */
  #retried = null;

  /** @param {DriverParts} parts */
  constructor(parts) {
    this.#parts = parts;
  }

  /**
   * Plays the match to its end; resolves the machine's Outcome (null if close() stopped it).
   * A final network failure or refusal ends the match with a dialog; an error thrown by the
   * game's own code rejects.
   * @returns {Promise<Outcome | null>}
   */
  async run() {
    const { machine, inbox, table } = this.#parts;
    try {
      const batch = await this.#listen();
      if (batch !== null) {
        for (const event of await machine.start(batch, this.resumed)) inbox.push(event);
        table.startAt(machine.cursor);
        const last = /** @type {Event} */ (batch.at(-1));
        inbox.fed = last.seq;
        inbox.fedEnded = last.type === "ended";
        inbox.looping = true;
        while (machine.outcome === null) await this.#step();
        inbox.looping = false;
        table.drain(); // read with the end: the last chat lines, the accepted draw
      }
    } catch (error) {
      if (error instanceof ClosedError || machine.closed) return null;
      if (error instanceof ConnectionLostError) {
        machine.breakOff(Reason.CONNECTION_LOST, endings.CONNECTION_LOST(sentence(error)));
      } else if (error instanceof RelayRefusedError || error instanceof ProtocolError) {
        machine.breakOff(Reason.ERROR, endings.REFUSED(sentence(error)));
        await this.#resignQuietly();
      } else {
        throw error;
      }
    } finally {
      this.#parts.abort.abort();
      await this.#poller;
    }
    return machine.outcome;
  }

  /**
   * Stops the poll that waits for a partner, so that the seek is withdrawn at once.
   * @returns {void}
   */
  stopListening() {
    this.#listenAbort?.abort();
  }

  /** Seeks and polls until the match starts; resolves its first events (null: withdrawn). */
  async #listen() {
    const { machine, client } = this.#parts;
    machine.setState(State.LISTENING);
    for (;;) {
      if (machine.cancelWanted) {
        await this.#withdraw();
        return null;
      }
      if (machine.ticket === null) {
        machine.ticket = await this.#parts.seek();
        this.#parts.onTicket?.(machine.ticket);
        continue;
      }
      this.#listenAbort = new AbortController();
      let batch;
      try {
        batch = await client.events(machine.ticket, 0, this.#parts.pollWait, this.#listenAbort.signal);
      } catch (error) {
        if (error instanceof ClosedError && !machine.closed) continue; // cancel() woke us
        if (error instanceof RelayRefusedError && error.code === "match/expired") {
          if (this.resumed) {
            machine.dropSeek(endings.SEEK_DROPPED(sentence(error)));
            return null;
          }
          machine.ticket = null; // the relay dropped the seek (we could not poll): seek anew
          continue;
        }
        throw error;
      } finally {
        this.#listenAbort = null;
      }
      if (batch.length > 0 && machine.cancelWanted) {
        await this.#withdraw();
        return null;
      }
      if (batch.length > 0) return batch;
    }
  }

  /** Withdraws the seek; a partner who came just before gets a resignation. */
  async #withdraw() {
    const { machine, client } = this.#parts;
    const ticket = machine.ticket;
    if (ticket !== null) {
      try {
        await client.cancel(ticket);
      } catch (error) {
        if (!(error instanceof RelayRefusedError) || error.code !== "match/started") throw error;
        // The partner came just before the withdrawal: leave the new match at once.
        await client.resign(ticket);
        machine.resignedAtOnce();
        return;
      }
    }
    machine.dropSeek("");
  }

  /** Polls the log, unless a poll is under way or the log is read to its end. */
  #pollIfIdle() {
    if (this.#poller !== null || this.#parts.inbox.fedEnded || this.#pollFailed || this.#parts.machine.closed) return;
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
    const { machine, inbox, table, client } = this.#parts;
    try {
      while (!inbox.fedEnded) {
        const start = inbox.fed;
        const ticket = /** @type {Ticket} */ (machine.ticket);
        const { events, table: raw } = await client.poll(ticket, start, this.#parts.pollWait, signal, table.cursor);
        inbox.feed(events);
        if (raw !== null) table.read(raw, events.at(-1)?.seq ?? start);
        if (inbox.fed !== start) return;
      }
    } catch (error) {
      if (error instanceof ClosedError && signal.aborted && !machine.closed) return; // stopped
      if (error instanceof RelayRefusedError && error.code === "match/behind") {
        inbox.push(BEHIND); // the main loop heals, after the events before it
        return;
      }
      this.#pollFailed = true;
      inbox.push({ failure: error }); // the main loop ends the match with it, in order
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

  /** Sends what is pending, else hands the next queued item to the machine. */
  async #step() {
    const { machine, inbox, table, client } = this.#parts;
    if (machine.resignWanted) {
      if (!machine.resignSent) {
        machine.resignSent = true;
        await this.#send(null);
        return;
      }
    } else {
      const write = machine.takeWrite() ?? this.#repost();
      // An agreeing confirm of a match whose end is queued already (a referee's verdict came
      // with the move it judged) would be refused, 409 match/finished: the end is read
      // instead. A dispute is sent all the same: its reason is this side's word.
      if (write !== null && !(write.kind === "confirm" && write.agree && inbox.fedEnded)) {
        await this.#send(write);
        return;
      }
    }
    if (inbox.empty) {
      table.readClaim();
      this.#pollIfIdle();
    }
    const item = await inbox.next();
    if (item === BEHIND) {
      await this.#heal(await client.events(/** @type {Ticket} */ (machine.ticket), 0, 0), null, true);
    } else if (item !== WAKE) {
      if ("failure" in item) throw item.failure;
      if ("table" in item) table.take(item.table, item.asOf);
      else await machine.handle(item);
    }
  }

  /** Returns the next write a failover lost, once the log reaches the event it followed. */
  #repost() {
    const reposts = this.#reposts;
    const fed = this.#parts.inbox.fed;
    // Gone past: the log has the event, which was handled and checked.
    while (reposts.length > 0 && reposts[0].after < fed) reposts.shift();
    if (reposts.length > 0 && reposts[0].after === fed && this.#parts.inbox.empty) {
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
    const { machine, inbox } = this.#parts;
    const last = log.at(-1)?.seq ?? 0;
    if (!behind) {
      if (pending !== null && pending.after === last) {
        // Refused at the log's end: the log reached the write's place since the refusal (the
        // partner posted a lost move again). Post it once more; refused there again, give up.
        if (sameWrite(this.#retried, pending)) return false;
        this.#retried = pending;
      } else if (last >= machine.cursor && (pending === null || last > pending.after)) {
        return false; // the log is whole: the refusal has another cause
      }
    }
    await this.#stopPolling();
    for (const event of log) {
      const known = machine.delivered.get(event.seq);
      if (!sameEvent(known, event)) throw new ProtocolError(DIVERGED(event, known));
    }
    this.#reposts = lostWrites(machine.delivered, last, machine.seat, pending);
    inbox.fed = Math.min(last, inbox.fed);
    inbox.fedEnded = false;
    return true;
  }

  /** Posts a write (null: the resignation); a 409 is explained by the log or thrown. */
  async #send(/** @type {Write | null} */ write) {
    const { machine, inbox, table, client } = this.#parts;
    const ticket = /** @type {Ticket} */ (machine.ticket);
    try {
      if (write === null) await client.resign(ticket);
      else if (write.kind === "move") {
        await this.#stopPolling();
        const [seq, replies, raw] = await this.#postHeld(write);
        machine.turnTaken = true;
        /** @type {MoveEvent} */
        const own = { type: "move", seq, seat: ticket.seat, move: write.move, end: write.end, claim: write.claim ?? null };
        inbox.feed([own, ...replies]);
        // Read before the replies it came with, maybe: dated by the move.
        if (raw !== null) table.read(raw, seq);
      } else if (write.kind === "pass") {
        machine.heldSeq = write.after + 1;
        await client.passTurn(ticket, write.after);
        machine.turnTaken = true;
      } else await client.confirm(ticket, write.after, write.agree, write.reason ?? "");
    } catch (error) {
      if (!(error instanceof RelayRefusedError) || error.status !== 409) throw error;
      // Refused as the match moved on (the partner resigned or left), or as the log fell
      // behind what this side saw (a failover): the log says which.
      const log = await client.events(ticket, 0, 0);
      if (write !== null && (await this.#heal(log, write, error.code === "match/behind"))) return;
      // A takeback accepted just before this move or pass took its place: the game, which
      // played it already, takes it back with the moves the takeback names.
      const played = write !== null && (write.kind === "move" || write.kind === "pass");
      const voided = played && log.some((event) => event.type === "undo" && event.seq === write.after + 1);
      machine.voided = voided ? write : null;
      try {
        for (const event of log) await machine.handle(event);
      } finally {
        machine.voided = null;
      }
      inbox.fed = Math.max(inbox.fed, machine.cursor);
      if (machine.outcome === null && !voided) throw error;
      return;
    }
    const played = write !== null && (write.kind === "move" || write.kind === "pass");
    if (played && machine.state === State.WAITING_SERVER_RESPONSE) {
      machine.setState(write.kind === "move" && write.end ? State.GAME_ENDED : State.PLAYING_WAIT_MOVE);
    }
  }

  /**
   * Posts a move held for the reply; the partner has the turn once the relay holds it: once
   * an attempt to post it has been neither answered nor failed for ACCEPTED_AFTER_MS. While
   * the attempts fail (the relay away), the move stays WAITING_SERVER_RESPONSE.
   */
  async #postHeld(/** @type {Extract<Write, {kind: "move"}>} */ write) {
    const { machine, table, client } = this.#parts;
    const { after, move, end } = write;
    const claim = write.claim ?? null;
    const detail = write.detail ?? "";
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const held = () => {
      machine.turnTaken = true; // the relay holds the post: it has the move
      if (machine.state === State.WAITING_SERVER_RESPONSE) {
        machine.setState(end ? State.GAME_ENDED : State.PLAYING_WAIT_MOVE);
        // The partner's turn began with this move: when may it be claimed against?
        if (!end) table.readClaim(after + 1);
      }
    };
    const watch = {
      sent: () => {
        machine.heldSeq = after + 1;
        clearTimeout(timer);
        timer = setTimeout(held, ACCEPTED_AFTER_MS);
      },
      failed: () => clearTimeout(timer),
    };
    const ticket = /** @type {Ticket} */ (machine.ticket);
    try {
      return await client.moveAndWait(ticket, after, move, end, this.#parts.pollWait, undefined, watch, table.cursor, claim, detail);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Tries once, briefly, to free the partner of a match this side cannot go on with. */
  async #resignQuietly() {
    const { machine } = this.#parts;
    if (machine.game === null || machine.ticket === null) return;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), this.#parts.requestTimeout * 1000);
    try {
      await this.#parts.freshClient().resign(machine.ticket, stop.signal);
    } catch {
      // Best effort: the relay ends the match by abandonment anyway.
    } finally {
      clearTimeout(timer);
    }
  }
}
