// Where a game page is and what its tab keeps: the fragment's asks (a room, a match to take up
// again, the computer), room names and links, the relay beside the page, the match saved in
// the tab's sessionStorage (a reload resumes it), and the live matches' tickets this browser
// keeps in localStorage (the lobby's way back to a tab closed on one). No DOM beyond the storage.

import { ticketFromJSON } from "./tickets.mjs";

/** Room names the relay accepts: 1 to 64 letters, digits, '.', '_' or '-'. */
export const ROOM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const ROOM_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Returns a fresh, hard-to-guess private room name. */
export function newRoomName(length = 10) {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ROOM_ALPHABET[b % ROOM_ALPHABET.length]).join("");
}

/**
 * Returns what the fragment asks for: {kind: "room", room, listed, clock} (listed: a public
 * room, shown in the lobby, from #room=NAME&public; clock: the clock choice both seekers name,
 * from &clock=5%2B3, "" for none), {kind: "resume", match, seat} (a match of the player key,
 * from "Your games": #resume=MATCH&seat=S), {kind: "play", within, rated} (within: opponents
 * within that many points of the player's rating, from #play&within=200, null for any; rated:
 * a rated seek, from #play&rated=1 or a `within`),
 * {kind: "computer", level, clock}
 * (from the lobby: #computer&level=strong&clock=5%2B3, each null when not named) or
 * {kind: "none"}.
 */
export function parseFragment(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const room = params.get("room");
  if (room !== null && ROOM_NAME.test(room)) {
    const clock = params.get("clock") ?? "";
    return params.has("public") ? { kind: "room", room, listed: true, clock } : { kind: "room", room, clock };
  }
  const resume = params.get("resume");
  const seatText = params.get("seat");
  if (resume !== null && /^[A-Za-z0-9_-]{1,64}$/.test(resume) && (seatText === "0" || seatText === "1")) {
    return { kind: "resume", match: resume, seat: Number(seatText) };
  }
  if (params.has("play")) {
    const number = Number(params.get("within"));
    const within = Number.isInteger(number) && number >= 1 && number <= 4000 ? number : null;
    return { kind: "play", within, rated: within !== null || params.get("rated") === "1" };
  }
  if (params.has("computer")) return { kind: "computer", level: params.get("level"), clock: params.get("clock") };
  return { kind: "none" };
}

/** Returns a room link's fragment: room=NAME, and the clock both seekers must name. */
export function roomFragment(room, clock = "") {
  return clock ? `room=${room}&clock=${encodeURIComponent(clock)}` : `room=${room}`;
}

/**
 * Returns the relay's URL for a page at `href`: the folder the page is served from, since
 * the pages live beside the relay's /v1/ (at the root, or under its --prefix).
 */
export function relayBeside(href) {
  return new URL(".", href).href.replace(/\/$/, "");
}

/** Returns the sessionStorage key of a game's saved match. */
export function storageKey(gameKey) {
  return `movewire.match.${gameKey}`;
}

/** Returns the sessionStorage key of the computer's seat in a game's saved match. */
export function computerKey(gameKey) {
  return `movewire.computer.${gameKey}`;
}

/** Returns the match a tab keeps for a game (sessionStorage), or null. */
export function loadSaved(gameKey) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey(gameKey)) ?? "null");
    if (saved && typeof saved.match === "string" && typeof saved.token === "string") return saved;
  } catch {
    // A damaged entry is as good as none.
  }
  return null;
}

/** Keeps (or with null forgets) the tab's match of a game. */
export function save(gameKey, saved) {
  if (saved === null) sessionStorage.removeItem(storageKey(gameKey));
  else sessionStorage.setItem(storageKey(gameKey), JSON.stringify(saved));
}

/** Returns whether a saved match answers what the fragment asks for. */
export function shouldResume(saved, want) {
  if (saved === null) return false;
  if (want.kind === "none") return true;
  if (want.kind === "computer") return false; // a new match against the computer
  if (want.kind === "room") return saved.room === want.room;
  if (want.kind === "resume") return saved.match === want.match;
  return saved.room === null && !saved.finished;
}

/** The localStorage key of the live matches' tickets this browser keeps (the way back). */
export const LIVE_TICKETS = "movewire.live";

/** The most live tickets kept: a new one drops the oldest. */
export const LIVE_LIMIT = 20;

/** How long a live ticket is kept at most, in milliseconds: a day. */
export const LIVE_FOR_MS = 24 * 60 * 60 * 1000;

/** A page's name beside the relay, as a link from the lobby names it ("xand0.html"). */
const PAGE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * A live match's ticket kept in localStorage: the game, the seat, its token, the page that
 * plays it, the room and clock it was sought with, and when it was kept (Date.now()).
 * @typedef {{game: string, match: string, seat: number, token: string, page: string,
 *   room: string | null, clock: string, at: number}} LiveTicket
 */

/** Returns the name of the page at `pathname` beside the relay ("xand0.html"), or null. */
export function pageName(pathname) {
  const name = pathname.slice(pathname.lastIndexOf("/") + 1);
  return PAGE_NAME.test(name) ? name : null;
}

/** Returns the live ticket `raw` (read from storage) as kept, or null when it is not one. */
function liveTicketFrom(raw) {
  if (raw === null || typeof raw !== "object") return null;
  let ticket;
  try {
    ticket = ticketFromJSON(JSON.stringify({ match: raw.match, seat: raw.seat, token: raw.token }));
  } catch {
    return null;
  }
  const { game, page, room = null, clock = "", at } = raw;
  if (typeof game !== "string" || game === "" || typeof page !== "string" || !PAGE_NAME.test(page)) return null;
  if ((room !== null && !ROOM_NAME.test(room)) || typeof clock !== "string" || !Number.isFinite(at)) return null;
  return { game, match: ticket.match, seat: ticket.seat, token: ticket.token, page, room, clock, at };
}

/** Writes the live tickets; a storage that refuses (full, or off) keeps what it had. */
function writeLive(tickets, storage) {
  try {
    if (tickets.length === 0) storage.removeItem(LIVE_TICKETS);
    else storage.setItem(LIVE_TICKETS, JSON.stringify(tickets));
  } catch {
    // No way back then: the match itself plays on.
  }
}

/**
 * Returns the live tickets kept (oldest first), but those older than a day; what is no
 * longer kept (too old, or damaged) is removed from `storage` (localStorage unless given).
 * @param {Storage} [storage]
 * @param {number} [now] Date.now()
 * @returns {LiveTicket[]}
 */
export function liveTickets(storage = globalThis.localStorage, now = Date.now()) {
  let raw;
  try {
    raw = JSON.parse(storage.getItem(LIVE_TICKETS) ?? "[]");
  } catch {
    raw = null; // damaged: as good as none
  }
  const all = Array.isArray(raw) ? raw : [];
  const kept = all.map(liveTicketFrom).filter((ticket) => ticket !== null && now - ticket.at < LIVE_FOR_MS);
  if (kept.length !== all.length || !Array.isArray(raw)) writeLive(kept, storage);
  return kept;
}

/**
 * Keeps a live match's ticket (given without `at`: kept now), in place of one of the same
 * match and seat; the oldest go beyond LIVE_LIMIT.
 * @param {Omit<LiveTicket, "at">} ticket
 * @param {Storage} [storage]
 * @param {number} [now]
 */
export function keepLive(ticket, storage = globalThis.localStorage, now = Date.now()) {
  const entry = liveTicketFrom({ ...ticket, at: now });
  if (entry === null) return;
  const others = liveTickets(storage, now).filter((kept) => kept.match !== entry.match || kept.seat !== entry.seat);
  writeLive([...others, entry].slice(-LIVE_LIMIT), storage);
}

/**
 * Returns the live ticket kept for a match's seat (any seat when `seat` is null), or null.
 * @param {string} match
 * @param {number | null} [seat]
 * @param {Storage} [storage]
 * @returns {LiveTicket | null}
 */
export function liveTicket(match, seat = null, storage = globalThis.localStorage) {
  return liveTickets(storage).find((kept) => kept.match === match && (seat === null || kept.seat === seat)) ?? null;
}

/**
 * Forgets the live tickets of a match (of one seat, when given): it ended, or the relay no
 * longer knows it.
 * @param {string} match
 * @param {number | null} [seat]
 * @param {Storage} [storage]
 */
export function forgetLive(match, seat = null, storage = globalThis.localStorage) {
  const kept = liveTickets(storage);
  const left = kept.filter((ticket) => ticket.match !== match || (seat !== null && ticket.seat !== seat));
  if (left.length !== kept.length) writeLive(left, storage);
}
