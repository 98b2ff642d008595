// Your games, in the lobby: the matches of this browser's player key as the relay lists them
// (GET /v1/player/matches: the key's turn first, least time left first, each with its time
// left; then the partner's turn, waiting seeks, finished matches), each opened in one click,
// and the key's ratings. The app's badge counts the matches on the player's turn (where the
// browser has one: an installed page), set each time the list is read. The last list read is
// kept (kept.mjs), and shown offline with the time it was read. A finished match whose opponent
// played with a player key has a "Challenge" button for it (challenge-dialog.mjs).

import { challengeButton } from "./challenge-dialog.mjs";
import { keepMine, keptMine } from "./kept.mjs";
import { describeMatch, parsePlayerMatch, playerKey, resumeHref, sidesOf } from "./players.mjs";
import { changeWords } from "./ratings.mjs";
import { showRatings } from "./ratings-view.mjs";

/** Returns how many of a list's matches (parsed rows) wait on the player's move. */
export function yourTurnCount(rows) {
  return rows.filter((row) => row.yourTurn).length;
}

/**
 * Shows `count` on the app's badge (navigator.setAppBadge; cleared at 0) where the browser has
 * one; does nothing elsewhere, and never fails.
 * @param {number} count
 */
export function showBadge(count, nav = globalThis.navigator) {
  try {
    const done = count > 0 ? nav?.setAppBadge?.(count) : nav?.clearAppBadge?.();
    done?.catch(() => {});
  } catch {
    // No badge here.
  }
}

/** Returns a time as hours and minutes, e.g. "14:05". */
export function clockAt(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * Returns relay rows read `elapsed` seconds ago as they stand now: the clock of the seat to
 * move has run down by as much (never below 0).
 */
export function agedRows(rows, elapsed) {
  return rows.map((row) => {
    if (row?.status !== "playing" || !Array.isArray(row.left) || !Number.isInteger(row.turn)) return row;
    const left = [...row.left];
    left[row.turn] = Math.max(0, left[row.turn] - elapsed);
    return { ...row, left };
  });
}

/** Returns the list items of a list, or one saying it is empty. */
function items(list, entries, make) {
  if (entries.length === 0) {
    const empty = list.ownerDocument.createElement("li");
    empty.className = "empty";
    empty.textContent = "None right now.";
    list.replaceChildren(empty);
  } else {
    list.replaceChildren(...entries.map(make));
  }
}

/**
 * The Your games section of the lobby.
 * `lobby` gives a game's title (`titleOf`), page (`pageOf`, undefined: GAME.html) and view
 * module's URL (`viewOf`), what to do when the list cannot be read (`failed`, given the
 * error and a retry), and the challenge dialog (`dialog`, none: no "Challenge" buttons).
 */
export class YourGames {
  #section;
  #client;
  #lobby;
  #read;
  #fresh = false;

  /**
   * @param {HTMLElement} section
   * @param {any} client the lobby's RelayClient
   * @param {{titleOf: (game: string) => string, pageOf: (game: string) => string | undefined,
   *   viewOf: (game: string) => string | null | undefined,
   *   failed: (error: Error, retry: () => void) => void,
   *   dialog?: import("./challenge-dialog.mjs").ChallengeDialog}} lobby
   */
  constructor(section, client, lobby) {
    this.#section = section;
    this.#client = client;
    this.#lobby = lobby;
    this.#read = section.ownerDocument.createElement("p");
    this.#read.className = "mine-read";
    this.#read.hidden = true;
    section.querySelector(".mine-list")?.before(this.#read);
  }

  /** Returns the list item of one of the player's matches; `sides` by game key. */
  #item(entry, sides) {
    const document = this.#section.ownerDocument;
    const li = document.createElement("li");
    li.dataset.match = entry.match;
    if (entry.yourTurn) li.dataset.yourTurn = "true";
    const summary = `${this.#lobby.titleOf(entry.game)}: ${describeMatch(entry, sides.get(entry.game))}`;
    if (entry.status === "waiting") {
      li.append(summary);
      return li;
    }
    const link = document.createElement("a");
    link.className = "button";
    const finished = entry.status === "finished";
    // A rated match's change of this key's rating: "1500 → 1742 (+242)".
    const rated = entry.rating ? ` · Rating ${changeWords(entry.rating.before, entry.rating.after)}` : "";
    const what = `${summary}${rated}`;
    const page = this.#lobby.pageOf(entry.game);
    link.href = finished ? `replay.html#match=${encodeURIComponent(entry.match)}` : resumeHref(entry, page);
    link.textContent = finished ? "Replay" : "Open";
    link.setAttribute("aria-label", `${link.textContent} ${what}`);
    li.append(`${what} `, link);
    const other = 1 - entry.seat;
    const opponent = entry.players?.[other];
    if (finished && typeof opponent === "string" && this.#lobby.dialog !== undefined) {
      const to = { id: opponent, name: entry.names?.[other] ?? null };
      li.append(" ", challengeButton(document, this.#lobby.dialog, to, entry.game));
    }
    return li;
  }

  /**
   * Shows relay rows (as GET /v1/player/matches lists them) and sets the badge; a kept list
   * never replaces one read from the relay. Returns whether it showed them.
   */
  async #show(raw, kept = false) {
    const rows = raw.map(parsePlayerMatch);
    const finished = rows.filter((row) => row.status === "finished").map((row) => row.game);
    const sides = await sidesOf(finished, this.#lobby.viewOf);
    if (kept && this.#fresh) return false;
    const list = this.#section.querySelector(".mine-list");
    items(list, rows, (entry) => this.#item(entry, sides));
    const count = yourTurnCount(rows);
    this.#section.dataset.yourTurn = String(count);
    showBadge(count);
    return true;
  }

  /**
   * Reads the player key's matches and ratings and shows them, keeping the list for offline
   * use; a key without any shows none (and clears the badge).
   */
  async show() {
    const key = playerKey();
    this.#section.querySelector(".key-value").textContent = key ?? "none yet";
    const ratings = this.#section.querySelector(".ratings-list");
    if (ratings !== null) showRatings(this.#client, ratings, key, this.#lobby.titleOf);
    if (key === null) {
      await this.#show([]);
      return;
    }
    try {
      const raw = await this.#client.playerMatches(key);
      keepMine(key, raw);
      this.#fresh = true;
      await this.#show(raw);
      this.#read.hidden = true;
      this.#section.dataset.state = "listed";
    } catch (error) {
      this.#section.dataset.state = "offline";
      this.#lobby.failed(error, () => this.show());
    }
  }

  /**
   * Shows the last list kept for the player key, as it stands now (the clocks run down since),
   * with the time it was read; returns that time (ms), or null when nothing was kept.
   */
  async showKept(now = Date.now()) {
    const key = playerKey();
    this.#section.querySelector(".key-value").textContent = key ?? "none yet";
    const kept = key === null ? null : keptMine(key);
    if (kept === null) return null;
    if (!(await this.#show(agedRows(kept.rows, Math.max(0, (now - kept.at) / 1000)), true))) return null;
    this.#read.textContent = `Last read at ${clockAt(kept.at)}, while online.`;
    this.#read.hidden = false;
    this.#section.dataset.state = "kept";
    return kept.at;
  }
}
