// Player keys in the browser: one secret a correspondence player keeps (in localStorage),
// given at each correspondence seek; it lists the player's matches (GET /v1/player/matches)
// and takes any of them up again, the key being the seat's bearer. Mirrors sdk/players.py.

import { TimeControl, formatLeft } from "./clock.mjs";
import { endedWords, seatWords } from "./endings.mjs";
import { shownName } from "./names.mjs";

/** The localStorage key under which the page keeps the player key. */
export const PLAYER_STORAGE = "movewire.player";

/** A player key: 32 to 128 URL-safe characters (the relay's rule). */
export const PLAYER_KEY = /^[A-Za-z0-9_-]{32,128}$/;

/** Returns a fresh player key: 43 random URL-safe characters (32 random bytes). */
export function newPlayerKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Returns the player key kept in storage (localStorage unless given), or null. */
export function playerKey(storage = globalThis.localStorage) {
  const key = storage.getItem(PLAYER_STORAGE);
  return key !== null && PLAYER_KEY.test(key) ? key : null;
}

/** Returns the kept player key, drawing and keeping one first if there is none. */
export function ensurePlayerKey(storage = globalThis.localStorage) {
  let key = playerKey(storage);
  if (key === null) {
    key = newPlayerKey();
    storage.setItem(PLAYER_STORAGE, key);
  }
  return key;
}

/** Keeps a player key brought from another device; throws RangeError for one that is not. */
export function usePlayerKey(text, storage = globalThis.localStorage) {
  const key = String(text).trim();
  if (!PLAYER_KEY.test(key)) {
    throw new RangeError("A player key is 32 to 128 letters, digits, '-' or '_'.");
  }
  storage.setItem(PLAYER_STORAGE, key);
  return key;
}

/** Returns one row of GET /v1/player/matches as read by the page (time control parsed). */
export function parsePlayerMatch(raw) {
  return Object.freeze({
    match: String(raw.match),
    game: String(raw.game),
    seat: raw.seat,
    status: String(raw.status),
    turn: raw.turn,
    yourTurn: raw.your_turn === true,
    timeControl: TimeControl.fromJson(raw.time_control ?? null),
    left: Array.isArray(raw.left) ? raw.left : null,
    result: raw.result ?? null,
    // Who moved first, and each seat's name: to say who won, by side and name.
    first: Number.isInteger(raw.first) ? raw.first : null,
    names: Array.isArray(raw.names) ? raw.names : [null, null],
    // Each seat's public id (null: no player key): the opponent's is the one to challenge.
    players: Array.isArray(raw.players) ? raw.players : [null, null],
    // Once rated, the key's rating before and after the match ({before, after}).
    rating: raw.rating ?? null,
  });
}

/** The sides a finished match is told with when its game's are not known. */
export const UNKNOWN_SIDES = Object.freeze(["First player", "Second player"]);

/**
 * Returns what a player reads of one of its matches: "Your turn · 2 days 4 hours left"; a
 * finished one says who won and how, by the game's `sides`: "Finished · X (you) won: 0 (Bob)
 * resigned" (endings.mjs endedWords, as the replay says it).
 */
export function describeMatch(entry, sides = UNKNOWN_SIDES) {
  if (entry.status === "waiting") return "Waiting for an opponent";
  if (entry.status === "finished") {
    if (!entry.result) return "Finished";
    const who = seatWords(sides, entry.first ?? 0, entry.names, shownName, entry.seat);
    return `Finished · ${endedWords(entry.result, who).replace(/\.$/, "")}`;
  }
  let text = entry.yourTurn ? "Your turn" : "Their turn";
  if (entry.status === "ending") text = entry.yourTurn ? "Confirm the end" : "Waiting for a confirm";
  if (entry.timeControl !== null && entry.left !== null && entry.turn !== null) {
    text += ` · ${formatLeft(entry.left[entry.turn], entry.timeControl)} left`;
  }
  return text;
}

/**
 * Returns the page that takes a listed match up again: PAGE#resume=MATCH&seat=S, on the
 * game's page (as GET /v1/games names it; by default GAME.html).
 */
export function resumeHref(entry, page = `${encodeURIComponent(entry.game)}.html`) {
  const match = encodeURIComponent(entry.match);
  return `${page}#resume=${match}&seat=${entry.seat}`;
}

/**
 * Returns the sides of each of `games` (["X", "0"]) as its package's view module says them
 * (GET /v1/games names it; the replay page imports the same module), by game key; a game
 * whose view cannot be read is left out (its matches are told with UNKNOWN_SIDES).
 * @param {Iterable<string>} games
 * @param {(game: string) => string | null | undefined} viewOf the view module's URL, or none
 */
export async function sidesOf(games, viewOf) {
  const found = new Map();
  const read = [...new Set(games)].map(async (game) => {
    const view = viewOf(game);
    if (!view) return;
    try {
      const { GAME } = await import(view);
      if (Array.isArray(GAME?.sides)) found.set(game, GAME.sides);
    } catch {
      // Told with UNKNOWN_SIDES.
    }
  });
  await Promise.all(read);
  return found;
}
