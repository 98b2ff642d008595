// What the pages keep in localStorage to show offline: the relay's list of games, the records of
// finished matches replayed (a finished match's record never changes) and the last list of Your
// games, with when it was read. The protocol's answers are never kept by the service worker;
// the pages keep these few themselves. Each is read from the relay first while online.

/** The localStorage keys. */
export const KEPT_GAMES = "movewire.kept.games";
export const KEPT_RECORDS = "movewire.kept.records";
export const KEPT_MINE = "movewire.kept.mine";

/** The most records kept: the latest replayed are kept, the oldest go first. */
export const RECORDS_KEPT = 20;

/** The longest record kept, in characters: a longer one is replayed online only. */
export const RECORD_MAX = 100_000;

/** Returns what is kept under `key`, or null (nothing, or not JSON). */
function read(storage, key) {
  try {
    return JSON.parse(storage?.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`; a full or missing storage keeps nothing. */
function write(storage, key, value) {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Not kept: the page works online as before.
  }
}

/** Returns whether an error is a fetch that never reached the relay (offline, refused). */
export function unreachable(error) {
  return error instanceof TypeError;
}

/**
 * Returns the games the relay hosts (GET /v1/games, as its `games` list), kept for offline use;
 * offline, the list kept last, or throws when there is none.
 * @param {string} relay the relay's URL
 */
export async function readGames(relay, storage = globalThis.localStorage, fetcher = globalThis.fetch) {
  try {
    const answer = await fetcher(`${relay}/v1/games`);
    if (!answer.ok) throw new Error(`the relay answered ${answer.status} for its games`);
    const { games } = await answer.json();
    keepGames(games, storage);
    return games;
  } catch (error) {
    const kept = read(storage, KEPT_GAMES);
    if (unreachable(error) && Array.isArray(kept)) return kept;
    throw error;
  }
}

/** Keeps the relay's list of games (GET /v1/games' `games`), read by a page. */
export function keepGames(games, storage = globalThis.localStorage) {
  write(storage, KEPT_GAMES, games);
}

/** Returns the games kept last (GET /v1/games' list), or [] when none were. */
export function keptGames(storage = globalThis.localStorage) {
  const kept = read(storage, KEPT_GAMES);
  return Array.isArray(kept) ? kept : [];
}

/** Returns whether a record (JSON Lines) is of a finished match: its header has a result. */
function finished(text) {
  try {
    const end = text.indexOf("\n");
    const header = JSON.parse(end < 0 ? text : text.slice(0, end));
    return header?.result !== null && header?.result !== undefined;
  } catch {
    return false;
  }
}

/**
 * Reads a match's record (GET /v1/matches/{id}/record): {text} from the relay, and keeps it
 * when the match is finished; {text, keptAt} from what was kept when the relay cannot be
 * reached; {refused} with the relay's words when it refuses. Throws when the relay cannot be
 * reached and the record was never kept.
 * @param {string} relay @param {string} match
 * @returns {Promise<{text: string, keptAt?: number} | {refused: string}>}
 */
export async function readRecord(relay, match, storage = globalThis.localStorage, fetcher = globalThis.fetch) {
  let answer;
  try {
    answer = await fetcher(`${relay}/v1/matches/${encodeURIComponent(match)}/record`);
  } catch (error) {
    const kept = read(storage, KEPT_RECORDS)?.[match];
    if (unreachable(error) && typeof kept?.text === "string") return { text: kept.text, keptAt: kept.at };
    throw error;
  }
  if (!answer.ok) {
    const body = await answer.json().catch(() => null);
    return { refused: body?.error?.message ?? `The relay answered ${answer.status}.` };
  }
  const text = await answer.text();
  if (finished(text) && text.length <= RECORD_MAX) {
    const records = read(storage, KEPT_RECORDS) ?? {};
    delete records[match];
    records[match] = { text, at: Date.now() };
    const names = Object.keys(records);
    for (const old of names.slice(0, Math.max(0, names.length - RECORDS_KEPT))) delete records[old];
    write(storage, KEPT_RECORDS, records);
  }
  return { text };
}

/**
 * Keeps the last list of Your games read: the relay's rows (GET /v1/player/matches) for the
 * player key, with when they were read (ms since the epoch).
 * @param {string} key the player key @param {any[]} rows @param {number} [at]
 */
export function keepMine(key, rows, at = Date.now(), storage = globalThis.localStorage) {
  write(storage, KEPT_MINE, { key, rows, at });
}

/**
 * Returns the last list of Your games kept for the player key ({rows, at}), or null.
 * @param {string} key
 * @returns {{rows: any[], at: number} | null}
 */
export function keptMine(key, storage = globalThis.localStorage) {
  const kept = read(storage, KEPT_MINE);
  if (kept?.key !== key || !Array.isArray(kept.rows) || typeof kept.at !== "number") return null;
  return { rows: kept.rows, at: kept.at };
}
