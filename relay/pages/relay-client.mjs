// RelayClient: protocol v1 calls, each retried through transient faults with backoff. The
// twin of sdk/client.py; the retries are transport.mjs's, the timings timing.mjs's (sdk/timing.py),
// the events events.mjs's (sdk/events.py), a player key's calls player-calls.mjs's. No DOM: node
// runs it as it is.

import { moveBody } from "./claims.mjs";
import { cleanReason, ProtocolError } from "./errors.mjs";
import { ENDED_REASONS, parseEvent } from "./events.mjs";
import { PlayerCalls } from "./player-calls.mjs";
import { ratingRangeJson } from "./ratings.mjs";
/** @import { TimeControl } from "./clock.mjs" */
import { REAL_CLOCK, Timing } from "./timing.mjs";
import { NOT_AN_ANSWER } from "./transport.mjs";

// What this module exported before the events and the timings had modules of their own.
export { ENDED_REASONS, parseEvent, REAL_CLOCK, Timing };

/** @typedef {import("./events.mjs").StartedEvent} StartedEvent */
/** @typedef {import("./events.mjs").MoveEvent} MoveEvent */
/** @typedef {import("./events.mjs").PassEvent} PassEvent */
/** @typedef {import("./events.mjs").UndoEvent} UndoEvent */
/** @typedef {import("./events.mjs").EndedEvent} EndedEvent */
/** @typedef {import("./events.mjs").Event} Event */
/** @typedef {import("./transport.mjs").Watch} Watch */
/** @typedef {import("./player-calls.mjs").Blocked} Blocked */

/**
 * A seat in a match: what a host needs to take it up again (`kept`: the game's data kept with
 * it, RelayHost.keep()).
 * @typedef {{readonly match: string, readonly seat: number, readonly token: string,
 *   readonly kept?: string}} Ticket
 */

/**
 * A reader's place in the table, sent with a poll: the version it has and its last chat line.
 * @typedef {{table: number, chat?: number}} TableCursor
 */
/** @typedef {import("./table.mjs").RawTable} RawTable */
/**
 * What a report is about: the partner's play (cheating, stalling), its name or its chat.
 * @typedef {"play" | "name" | "chat"} ReportAbout
 */

/** What a report may be about (ReportAbout). */
export const REPORT_ABOUT = Object.freeze(/** @type {ReportAbout[]} */ (["play", "name", "chat"]));

/** The most characters of a report's own words (the relay's rule). */
export const REPORT_TEXT_MOST = 500;

/** Returns a fresh seat token: 32 random bytes, base64url (43 characters). */
export function drawToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const text = btoa(String.fromCharCode(...bytes));
  return text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Returns the query naming the table version and chat cursor a reader has ("" without). */
function tableQuery(/** @type {TableCursor | null | undefined} */ at) {
  if (at === null || at === undefined) return "";
  return `&table=${at.table}&chat=${at.chat ?? 0}`;
}

/** Returns a table answer once checked (its version at least); throws ProtocolError else. */
function checkedTable(/** @type {any} */ answer, /** @type {string} */ what) {
  if (!Number.isInteger(answer?.version)) throw new ProtocolError(NOT_AN_ANSWER(what, answer));
  return answer;
}

/** Returns a rematch answer once checked; throws ProtocolError if it is not one. */
function checkedRematch(/** @type {any} */ answer) {
  const states = ["none", "offered", "accepted", "declined", "lapsed"];
  if (!Number.isInteger(answer?.version) || !states.includes(answer.state) || !Array.isArray(answer.offers)) {
    throw new ProtocolError(NOT_AN_ANSWER("rematch", answer));
  }
  return answer;
}

/**
 * Returns each seat's public id as a match's info names them (`players`): [id0, id1], null for
 * a seat taken without a player key (both null from a relay that names none); throws
 * ProtocolError for anything else.
 * @param {any} info
 * @returns {readonly (string | null)[]}
 */
export function playersOf(info) {
  const players = info?.players ?? [null, null];
  const good = (/** @type {unknown} */ id) => id === null || typeof id === "string";
  if (!Array.isArray(players) || players.length !== 2 || !players.every(good)) {
    throw new ProtocolError(NOT_AN_ANSWER("match", info));
  }
  return Object.freeze(/** @type {(string | null)[]} */ ([...players]));
}

/**
 * Speaks protocol v1 to one relay; transient faults are retried, 4xx throw RelayRefusedError.
 *
 * Transient: network errors, timeouts, garbled answers, 408, 429 and every 5xx. They are
 * retried with exponential backoff and full jitter (see Timing) until a call has failed for
 * timing.giveUp seconds, which throws ConnectionLostError. Every write of the protocol is
 * safe to repeat: the relay applies it once, and a seek carries a token of its own drawing.
 */
export class RelayClient extends PlayerCalls {
  /**
   * Returns a seat {match, seat, token} in a waiting match of `game`, or in a new one. The
   * seat's token is drawn here: a retried seek (its answer lost) then answers the same seat.
   * `listed`: a public seek, listed in the game's lobby. `timeControl`: a TimeControl (only
   * seekers of the same one meet), or null for no clock. `keys.player`: a player key the seat
   * is listed under (players.mjs); `keys.contact`: the handle your-turn notices name;
   * `keys.name`: the seeker's display name, shown to the partner, spectators and the lobby.
   * `keys.ratingRange`: with a player key and no room, the ratings an opponent may have,
   * {within: N} or {min, max} (either may be left out; ratings.mjs, ratingRangeJson).
   * @param {string} game
   * @param {string} [version]
   * @param {string | null} [room]
   * @param {AbortSignal} [signal]
   * @param {boolean} [listed]
   * @param {TimeControl | null} [timeControl]
   * @param {{player?: string | null, contact?: string | null, name?: string | null,
   *   ratingRange?: {within?: number, min?: number, max?: number} | null}} [keys]
   * @returns {Promise<Ticket>}
   */
  async seek(game, version = "", room = null, signal = undefined, listed = false, timeControl = null, keys = {}) {
    /** @type {Record<string, unknown>} */
    const body = { game, token: drawToken() };
    if (version) body.version = version; // the relay's default is "", which it refuses to be sent
    if (room !== null && room !== undefined) body.room = room;
    if (listed) body.public = true; // listed in the game's lobby
    if (timeControl !== null && timeControl !== undefined) body.time_control = timeControl.toJson();
    if (keys.player) body.player = keys.player;
    if (keys.contact) body.contact = keys.contact;
    if (keys.name) body.name = keys.name;
    if (keys.ratingRange) body.rating_range = ratingRangeJson(keys.ratingRange);
    const answer = await this.call("POST", "/v1/seek", null, body, { signal });
    const { match, seat: s, token } = answer ?? {};
    if (typeof match !== "string" || (s !== 0 && s !== 1) || typeof token !== "string") {
      throw new ProtocolError(NOT_AN_ANSWER("seek", answer));
    }
    return Object.freeze({ match, seat: s, token });
  }

  /**
   * Returns the match's events numbered above `after`, held up to `wait` seconds. A ticket
   * reads as its seat (telling the relay the seat is present); a bare match id as a spectator.
   * @param {Ticket | string} ticket
   * @param {number} after
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @returns {Promise<Event[]>}
   */
  async events(ticket, after, wait = null, signal = undefined) {
    return (await this.poll(ticket, after, wait, signal)).events;
  }

  /**
   * Returns {events, table} like events(), and with `at` ({table: V, chat: C}) the table too:
   * the poll then also answers when the table's version is above V, carrying it (its chat
   * lines above C) as `table`, else table is null. A table-aware poll of a seat is how the
   * relay knows the seat is here.
   * @param {Ticket | string} ticket
   * @param {number} after
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @param {TableCursor | null} [at]
   * @returns {Promise<{events: Event[], table: import("./table.mjs").RawTable | null}>}
   */
  async poll(ticket, after, wait = null, signal = undefined, at = null) {
    const [match, token] = typeof ticket === "string" ? [ticket, null] : [ticket.match, ticket.token];
    const path = `/v1/matches/${encodeURIComponent(match)}/events?after=${after}`;
    const held = this.held(path, "&", wait, tableQuery(at));
    const answer = await this.call("GET", path, token, null, { signal, ...held });
    if (!Array.isArray(answer?.events)) throw new ProtocolError(NOT_AN_ANSWER("events", answer));
    return { events: answer.events.map(parseEvent), table: answer.table ?? null };
  }

  /**
   * Posts a move on the position after event `after`; returns the move's event number. A
   * game-ending move may claim the mover's result ("win", "draw", "loss"): an agreed end is
   * rated by it. It may say how the game ended in `detail`, its game's words, which an agreed
   * end carries.
   * @param {Ticket} ticket
   * @param {number} after
   * @param {string} move
   * @param {boolean} [end]
   * @param {import("./claims.mjs").Claim | null} [claim]
   * @param {string} [detail]
   * @returns {Promise<number>}
   */
  move(ticket, after, move, end = false, claim = null, detail = "") {
    return this.#seq(ticket, "moves", moveBody(after, move, end, claim, detail));
  }

  /**
   * Posts a move held up to `wait` seconds for the reply (`?wait=`): one request per move.
   * Resolves [the move's event number, the events above it, the table or null] (no events
   * when the wait ran out); a retry of a lost answer is answered the same number, with the
   * events above it then. With `at` ({table: V, chat: C}) the post is also answered at a
   * change of the table, which it then carries. `watch.sent()` is told as each attempt is
   * sent, `watch.failed()` as one fails. `claim`, `detail`: a game-ending move's claim and
   * words, as move() sends them.
   * @param {Ticket} ticket
   * @param {number} after
   * @param {string} move
   * @param {boolean} end
   * @param {number | null} wait
   * @param {AbortSignal} [signal]
   * @param {Watch | null} [watch]
   * @param {TableCursor | null} [at]
   * @param {import("./claims.mjs").Claim | null} [claim]
   * @param {string} [detail]
   * @returns {Promise<[number, Event[], import("./table.mjs").RawTable | null]>}
   */
  async moveAndWait(ticket, after, move, end, wait, signal = undefined, watch = null, at = null, claim = null, detail = "") {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/moves`;
    const body = moveBody(after, move, end, claim, detail);
    const held = this.held(path, "?", wait, tableQuery(at));
    const answer = await this.call("POST", path, ticket.token, body, { signal, watch, ...held });
    if (!Number.isInteger(answer?.seq) || !Array.isArray(answer?.events)) {
      throw new ProtocolError(NOT_AN_ANSWER("moves", answer));
    }
    return [answer.seq, answer.events.map(parseEvent), answer.table ?? null];
  }

  /**
   * Posts a pass (no legal move) after event `after`; returns the pass's event number.
   * @param {Ticket} ticket
   * @param {number} after
   * @returns {Promise<number>}
   */
  passTurn(ticket, after) {
    return this.#seq(ticket, "pass", { after });
  }

  /**
   * Agrees with (or disputes) the game-ending move `after`, or disputes the partner's move or
   * pass `after`; returns the `ended` number. A dispute's `reason` (a line of at most 200
   * characters: cut and cleaned here) reaches the partner and the record.
   * @param {Ticket} ticket
   * @param {number} after
   * @param {boolean} agree
   * @param {string} [reason]
   * @returns {Promise<number>}
   */
  confirm(ticket, after, agree, reason = "") {
    const why = cleanReason(reason);
    return this.#seq(ticket, "confirm", !agree && why ? { after, agree, reason: why } : { after, agree });
  }

  /**
   * Resigns the match; returns the number of the `ended` event.
   * @param {Ticket} ticket
   * @param {AbortSignal} [signal]
   * @returns {Promise<number>}
   */
  resign(ticket, signal = undefined) {
    return this.#seq(ticket, "resign", {}, signal);
  }

  /**
   * Withdraws a seek nobody has joined yet (repeating it is harmless).
   * @param {Ticket} ticket
   * @returns {Promise<void>}
   */
  async cancel(ticket) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/cancel`;
    await this.call("POST", path, ticket.token, {});
  }

  /**
   * Withdraws a seek as its page goes away (on `pagehide`): one request the browser sends
   * even after the page is gone (`keepalive`), never retried, never awaited. sendBeacon
   * would not do: it cannot carry the seat's Authorization header.
   * @param {Ticket} ticket
   * @returns {void}
   */
  leave(ticket) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/cancel`;
    const init = { method: "POST", keepalive: true, headers: { Authorization: `Bearer ${ticket.token}` } };
    this.fetch(this.relay + path, init).catch(() => {}); // the relay drops a silent seek anyway
  }

  /**
   * Returns what the relay says of a match (GET /v1/matches/{id}): {match, game, status,
   * turn, ..., rated, ratings (docs/ratings.md), players (each seat's public id, players())};
   * a cancelled seek throws RelayRefusedError match/expired, a forgotten match match/unknown.
   * @param {string} match
   * @param {AbortSignal} [signal]
   * @returns {Promise<any>}
   */
  async matchInfo(match, signal = undefined) {
    const path = `/v1/matches/${encodeURIComponent(match)}`;
    const answer = await this.call("GET", path, null, null, { signal });
    if (typeof answer?.status !== "string") throw new ProtocolError(NOT_AN_ANSWER("match", answer));
    return answer;
  }

  /**
   * Returns the rematch {version, state, offers, by, match, first} of a finished match; with
   * `after`, held up to `wait` seconds until its version is above `after`.
   * @param {Ticket | string} ticket
   * @param {number | null} [after]
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @returns {Promise<import("./rematch.mjs").Rematch>}
   */
  async rematch(ticket, after = null, wait = null, signal = undefined) {
    const [match, token] = typeof ticket === "string" ? [ticket, null] : [ticket.match, ticket.token];
    const path = `/v1/matches/${encodeURIComponent(match)}/rematch`;
    if (after === null) return checkedRematch(await this.call("GET", path, token, null, { signal }));
    const held = this.held(`${path}?after=${after}`, "&", wait);
    return checkedRematch(await this.call("GET", path, token, null, { signal, ...held }));
  }

  /**
   * Offers (or accepts) a rematch of the finished match; offer=false declines.
   * @param {Ticket} ticket
   * @param {boolean} [offer]
   * @param {AbortSignal} [signal]
   * @returns {Promise<import("./rematch.mjs").Rematch>}
   */
  async offerRematch(ticket, offer = true, signal = undefined) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/rematch`;
    return checkedRematch(await this.call("POST", path, ticket.token, { offer }, { signal }));
  }

  /**
   * Returns a game's lobby {game, version, open, live, recent}; with `after`, held up to
   * `wait` seconds until its version is above `after`.
   * @param {string} game
   * @param {number | null} [after]
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @returns {Promise<any>}
   */
  async lobby(game, after = null, wait = null, signal = undefined) {
    let path = `/v1/lobby?game=${encodeURIComponent(game)}`;
    if (after !== null) path += `&after=${after}`;
    const held = after === null ? {} : this.held(path, "&", wait);
    const answer = await this.call("GET", path, null, null, { signal, ...held });
    if (!Number.isInteger(answer?.version) || !["open", "live", "recent"].every((k) => Array.isArray(answer[k]))) {
      throw new ProtocolError(NOT_AN_ANSWER("lobby", answer));
    }
    return answer;
  }

  /**
   * Returns the match's table (names, presence, the last offer, the chat above `chat`, when a
   * staller may be claimed against); with `after`, held up to `wait` seconds until its version
   * is above `after`. A ticket reads as its seat, a bare match id as a spectator.
   * @param {Ticket | string} ticket
   * @param {number | null} [after]
   * @param {number | null} [wait]
   * @param {AbortSignal} [signal]
   * @param {number} [chat]
   * @returns {Promise<import("./table.mjs").RawTable>}
   */
  async table(ticket, after = null, wait = null, signal = undefined, chat = 0) {
    const [match, token] = typeof ticket === "string" ? [ticket, null] : [ticket.match, ticket.token];
    let path = `/v1/matches/${encodeURIComponent(match)}/table?chat=${chat}`;
    if (after !== null) path += `&after=${after}`;
    const held = after === null ? {} : this.held(path, "&", wait);
    return checkedTable(await this.call("GET", path, token, null, { signal, ...held }), "table");
  }

  /**
   * Offers a draw (`kind` "draw") or asks a takeback ("takeback") at event `after`; returns the table.
   * @param {Ticket} ticket
   * @param {"draw" | "takeback"} kind
   * @param {number} after
   * @returns {Promise<import("./table.mjs").RawTable>}
   */
  async offer(ticket, kind, after) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/offer`;
    return checkedTable(await this.call("POST", path, ticket.token, { kind, after }), "offer");
  }

  /**
   * Accepts the partner's offer standing at event `after`, or declines it (the offerer's
   * decline withdraws its own); returns {seq (the acceptance's event, null for a decline), table}.
   * @param {Ticket} ticket
   * @param {boolean} accept
   * @param {number} after
   * @returns {Promise<{seq: number | null, table: import("./table.mjs").RawTable}>}
   */
  async answerOffer(ticket, accept, after) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/answer`;
    const body = accept ? { accept: true, after } : { accept: false };
    const answer = await this.call("POST", path, ticket.token, body);
    checkedTable(answer?.table, "answer");
    if (!(answer.seq === null || Number.isInteger(answer.seq))) {
      throw new ProtocolError(NOT_AN_ANSWER("answer", answer));
    }
    return { seq: answer.seq, table: answer.table };
  }

  /**
   * Claims the win from a partner that stalls on its turn (at event `after`); returns the `ended` number.
   * @param {Ticket} ticket
   * @param {number} after
   * @returns {Promise<number>}
   */
  claim(ticket, after) {
    return this.#seq(ticket, "claim", { after });
  }

  /**
   * Says a line in the match's chat; returns its number.
   * @param {Ticket} ticket
   * @param {string} text
   * @returns {Promise<number>}
   */
  async chat(ticket, text) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/chat`;
    const answer = await this.call("POST", path, ticket.token, { text });
    if (!Number.isInteger(answer?.n)) throw new ProtocolError(NOT_AN_ANSWER("chat", answer));
    return answer.n;
  }

  /**
   * Returns whether a match was rated, from matchInfo(): {rated: true, false, "pending" or
   * "voided" (the host took its rating back; false from a relay without ratings), ratings:
   * null, or once rated [{before, after}, {before, after}] by seat}.
   * @param {string} match @param {AbortSignal} [signal]
   * @returns {Promise<{rated: boolean | "pending" | "voided", ratings: {before: number, after: number}[] | null}>}
   */
  async matchRatings(match, signal = undefined) {
    const info = await this.matchInfo(match, signal);
    const rated = info.rated ?? false;
    if (rated !== true && rated !== false && rated !== "pending" && rated !== "voided") {
      throw new ProtocolError(NOT_AN_ANSWER("match", info));
    }
    return { rated, ratings: rated === true ? (info.ratings ?? null) : null };
  }

  /**
   * Resolves how a finished match moved one seat's rating, {before, after}, reading
   * matchRatings() every 200 ms for up to `waitMs` while the relay rates it; null when the
   * match is not rated, or not yet at the end of the wait.
   * @param {string} match @param {number} seat @param {number} waitMs
   * @returns {Promise<{before: number, after: number} | null>}
   */
  async ratingChange(match, seat, waitMs) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { rated, ratings } = await this.matchRatings(match);
      if (rated === true && Array.isArray(ratings)) return ratings[seat] ?? null;
      if (rated !== "pending" || Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * Returns each seat's public id in a match (GET /v1/matches/{id}, `players`): [id0, id1],
   * null for a seat taken without a player key. Only a seat with a key can be blocked or muted.
   * @param {string} match @param {AbortSignal} [signal]
   * @returns {Promise<readonly (string | null)[]>}
   */
  async players(match, signal = undefined) {
    return playersOf(await this.matchInfo(match, signal));
  }

  /**
   * Reports the seat's partner to the relay's host (POST /v1/matches/{id}/report): `about` its
   * play, its name or its chat, with the player's own words (`text`, at most REPORT_TEXT_MOST
   * characters; "" for none); returns the report's number. The same seat reporting the same
   * match about the same thing again is answered the same number. Too many reports from this
   * address is thrown at once (RelayRefusedError report/too_fast), not waited out.
   * @param {Ticket} ticket
   * @param {ReportAbout} about
   * @param {string} [text]
   * @returns {Promise<number>}
   */
  async report(ticket, about, text = "") {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/report`;
    const words = text.trim();
    const body = words === "" ? { about } : { about, text: words };
    const answer = await this.call("POST", path, ticket.token, body, { final: true });
    if (!Number.isInteger(answer?.report)) throw new ProtocolError(NOT_AN_ANSWER("report", answer));
    return answer.report;
  }

  /**
   * @param {Ticket} ticket
   * @param {string} action
   * @param {object} body
   * @param {AbortSignal} [signal]
   * @returns {Promise<number>}
   */
  async #seq(ticket, action, body, signal = undefined) {
    const path = `/v1/matches/${encodeURIComponent(ticket.match)}/${action}`;
    const answer = await this.call("POST", path, ticket.token, body, { signal });
    if (!Number.isInteger(answer?.seq)) throw new ProtocolError(NOT_AN_ANSWER(action, answer));
    return answer.seq;
  }

}
