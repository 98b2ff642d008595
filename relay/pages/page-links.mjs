// Where a game page is and what its tab keeps: the fragment's asks (a room, a match to take up
// again, the computer), room names and links, the relay beside the page, and the match saved
// in the tab's sessionStorage (a reload resumes it). No DOM beyond the storage.

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
