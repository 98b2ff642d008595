// The way back to a match left on (its tab closed, say): for each live match of this browser
// still played, a notice at the top of the lobby, "Your match of X and 0 is on: go back", a link
// to the game page that takes the match up (players.mjs resumeHref: #resume=MATCH&seat=S, never
// a token). Once the relay shows the seat away, the notice counts down the seconds left before
// the seat is ruled to have abandoned ("27 s left to come back"), each second, on this side's clock.
//
// The matches are those of this browser's player key (GET /v1/player/matches: rated ones) and
// those whose tickets this browser keeps (page-links.mjs liveTickets: casual ones too, kept by
// the game page from the match's start to its end), one notice a match. It reads them every few
// seconds: the key's list, each kept match as anyone (GET /v1/matches/{id}: a match ended or
// unknown to the relay is forgotten), and the table of each as a spectator (no token), so that
// reading never shows the seat present. A correspondence match (days a move) never abandons:
// "Your games" lists it, and it has no notice here. Beside the link, the opponent's name, once
// its table is read ("against Ann", "against Anonymous": names.mjs, a long one cut). The words
// are pure functions (node tests them); WayBack puts them on the page, as text, never markup.

import { TimeControl } from "./clock.mjs";
import { nameElement, shownName } from "./names.mjs";
import { forgetLive, liveTickets } from "./page-links.mjs";
import { parsePlayerMatch, playerKey, resumeHref } from "./players.mjs";
import { parseTable } from "./table.mjs";

/** How often the lobby reads the player's matches and their tables again, in milliseconds. */
export const WAY_BACK_EVERY_MS = 5000;

/** How often a countdown is redrawn, in milliseconds (it shows whole seconds). */
const TICK_MS = 250;

/**
 * Returns the matches of a player key to go back to, from its parsed rows
 * (parsePlayerMatch): those being played or ending, but correspondence matches (a deadline a
 * move), which never abandon.
 * @param {readonly any[]} rows
 * @returns {any[]}
 */
export function matchesOn(rows) {
  return rows.filter(
    (row) => (row.status === "playing" || row.status === "ending") && row.timeControl?.kind !== "deadline",
  );
}

/**
 * Returns the row of a kept live ticket (page-links.mjs LiveTicket), as parsePlayerMatch reads
 * a row of the key's, from what the relay says of its match (GET /v1/matches/{id}); with the
 * page that played it.
 * @param {{game: string, match: string, seat: number, page: string}} ticket
 * @param {any} info
 * @returns {any}
 */
export function ticketRow(ticket, info) {
  return Object.freeze({
    match: ticket.match,
    game: typeof info?.game === "string" ? info.game : ticket.game,
    seat: ticket.seat,
    status: String(info?.status),
    timeControl: TimeControl.fromJson(info?.time_control ?? null),
    page: ticket.page,
  });
}

/**
 * Returns whether a refusal of a kept match means it is gone for good: the relay forgot it
 * (404) or it expired (410). Anything else (no answer) may pass.
 * @param {unknown} error
 * @returns {boolean}
 */
export function goneFor(error) {
  const status = /** @type {any} */ (error)?.status;
  return status === 404 || status === 410;
}

/**
 * Returns the key's rows and the kept tickets' rows grouped by match, in order, the key's
 * first; a seat listed twice (a rated match kept too) once, as the key lists it. Each group
 * is one notice: a match one browser plays with itself has both its seats in one.
 * @param {readonly any[]} keyRows
 * @param {readonly any[]} keptRows
 * @returns {any[][]}
 */
export function byMatch(keyRows, keptRows) {
  /** @type {Map<string, any[]>} */
  const rows = new Map();
  for (const row of [...keyRows, ...keptRows]) {
    const same = rows.get(row.match);
    if (same === undefined) rows.set(row.match, [row]);
    else if (!same.some((other) => other.seat === row.seat)) same.push(row);
  }
  return [...rows.values()];
}

/**
 * Returns the seconds a parsed table (parseTable) gives `seat` before it abandons: null when
 * the seat is here, or away but never abandoning.
 * @param {{presence: readonly {here: boolean, abandonIn: number | null}[]} | null} table
 * @param {number} seat
 * @returns {number | null}
 */
export function awaySeconds(table, seat) {
  const presence = table?.presence?.[seat];
  if (!presence || presence.here) return null;
  return presence.abandonIn;
}

/**
 * Returns the words of the time left to come back: "27 s left to come back" (whole seconds,
 * rounded up, never below 0).
 * @param {number} seconds
 * @returns {string}
 */
export function leftWords(seconds) {
  return `${Math.max(0, Math.ceil(seconds))} s left to come back`;
}

/**
 * Returns the words of a match's way back, the link's text: "Your match of X and 0 is on: go back".
 * @param {string} title the game's title
 * @returns {string}
 */
export function wayBackWords(title) {
  return `Your match of ${title} is on: go back`;
}

/**
 * Returns what a screen reader is told, once, of a match to go back to: "Your match of X and 0
 * is on." when it appears, with the time left when the seat is away ("Your match of X and 0
 * is on: 27 s left to come back.").
 * @param {string} title
 * @param {number | null} seconds
 * @returns {string}
 */
export function wayBackSaid(title, seconds) {
  return seconds === null ? `Your match of ${title} is on.` : `Your match of ${title} is on: ${leftWords(seconds)}.`;
}

/**
 * Returns the words naming a match's opponent in its notice: "against Ann", "against
 * Anonymous" for a player without a name.
 * @param {string | null} name
 * @returns {string}
 */
export function againstWords(name) {
  return `against ${shownName(name)}`;
}

/**
 * What a notice shows of one match: its list item, the opponent's name and the countdown in it,
 * and the moment its seat abandons on this side's clock (performance.now() milliseconds; null:
 * no countdown).
 * @typedef {{item: HTMLLIElement, link: HTMLAnchorElement, who: HTMLElement, left: HTMLElement,
 *   title: string, abandonAt: number | null}} Shown
 */

/**
 * The lobby's notices of the matches to go back to, read again every few seconds.
 *
 * `section` holds a list (`.way-back-list`), is hidden while there is no notice, and has
 * data-state "read" once the matches were read; `said` is a polite live region told of a
 * notice when it appears and when its seat is first shown away (never each second). `client` is the lobby's RelayClient; `titleOf(game)` a game's
 * title; `pageOf(game)` its page (undefined: GAME.html); `key()` the player key (null: none);
 * `storage` where the live tickets are kept (localStorage).
 */
export class WayBack {
  #section;
  #list;
  #said;
  #client;
  #titleOf;
  #pageOf;
  #key;
  #storage;
  #every;
  /** @type {Map<string, Shown>} */
  #shown = new Map();
  /** @type {ReturnType<typeof setInterval> | null} */
  #ticker = null;
  /** @type {(() => void) | null} */
  #wake = null;
  /** Whether to read again as soon as the read under way is done. */
  #again = false;

  /**
   * @param {HTMLElement} section
   * @param {HTMLElement} said
   * @param {{client: any, titleOf: (game: string) => string,
   *   pageOf: (game: string) => string | undefined, key?: () => string | null, storage?: Storage,
   *   every?: number}} options
   */
  constructor(
    section,
    said,
    { client, titleOf, pageOf, key = () => playerKey(), storage = globalThis.localStorage, every = WAY_BACK_EVERY_MS },
  ) {
    this.#section = section;
    this.#list = /** @type {HTMLElement} */ (section.querySelector(".way-back-list"));
    this.#said = said;
    this.#client = client;
    this.#titleOf = titleOf;
    this.#pageOf = pageOf;
    this.#key = key;
    this.#storage = storage;
    this.#every = every;
  }

  /** Reads the player's matches now, then every few seconds, for as long as the page lives. */
  async start() {
    for (;;) {
      this.#again = false;
      await this.#read();
      if (this.#again) continue;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, this.#every);
        this.#wake = () => {
          clearTimeout(timer);
          resolve(undefined);
        };
      });
      this.#wake = null;
    }
  }

  /** Reads again at once (another player key was taken, say). */
  refresh() {
    if (this.#wake === null) this.#again = true;
    else this.#wake();
  }

  /**
   * Reads the key's matches, the kept ones and their tables, and shows them; a failed read
   * changes nothing.
   */
  async #read() {
    const key = this.#key();
    const kept = liveTickets(this.#storage);
    let keyRows = [];
    let keptRows;
    try {
      [keyRows, keptRows] = await Promise.all([
        key === null ? [] : this.#client.playerMatches(key).then((/** @type {any[]} */ raw) => raw.map(parsePlayerMatch)),
        Promise.all(kept.map((ticket) => this.#keptRow(ticket))),
      ]);
    } catch {
      // The relay did not answer (the lobby's notice says so) or refused the key: the
      // notices stay as they were until the next read.
      return;
    }
    const groups = byMatch(matchesOn(keyRows), matchesOn(keptRows.filter((row) => row !== null)));
    // As a spectator: a read with the key would be the seat's, and the relay must not take
    // the lobby for the player come back.
    const tables = await Promise.all(
      groups.map(([row]) =>
        this.#client.table(row.match).then(
          (/** @type {any} */ raw) => parseTable(raw),
          () => null,
        ),
      ),
    );
    const at = performance.now();
    this.#show(
      groups.map((rows, index) => {
        // Of a match kept for both its seats (one browser playing itself), the seat away.
        const row = rows.find((each) => awaySeconds(tables[index], each.seat) !== null) ?? rows[0];
        return { row, seconds: awaySeconds(tables[index], row.seat), names: tables[index]?.names ?? null };
      }),
      at,
    );
    this.#section.dataset.state = "read"; // read at least once (the tests wait for it)
  }

  /**
   * Returns the row of a kept ticket's match as the relay says it, or null when it has ended
   * or is gone (the ticket is forgotten then); throws when the relay did not answer.
   * @param {import("./page-links.mjs").LiveTicket} ticket
   * @returns {Promise<any>}
   */
  async #keptRow(ticket) {
    let info;
    try {
      info = await this.#client.matchInfo(ticket.match);
    } catch (error) {
      if (!goneFor(error)) throw error;
      info = null;
    }
    if (info === null || info.status === "finished") {
      forgetLive(ticket.match, null, this.#storage);
      return null;
    }
    return ticketRow(ticket, info);
  }

  /**
   * Shows a notice for each match given (its row, the seconds its seat has left, null for no
   * countdown, and its seats' names, null while unread), read at `at`; a notice already shown
   * is kept (and its focus with it).
   * @param {{row: any, seconds: number | null, names: readonly (string | null)[] | null}[]} entries
   * @param {number} at
   */
  #show(entries, at) {
    const listed = new Set();
    /** @type {string[]} */
    const news = [];
    for (const { row, seconds, names } of entries) {
      listed.add(row.match);
      const abandonAt = seconds === null ? null : at + seconds * 1000;
      let shown = this.#shown.get(row.match);
      if (shown !== undefined && names !== null) this.#against(shown, names[1 - row.seat] ?? null);
      if (shown === undefined) {
        shown = this.#notice(row, abandonAt);
        if (names !== null) this.#against(shown, names[1 - row.seat] ?? null);
        this.#shown.set(row.match, shown);
        this.#list.append(shown.item);
        news.push(wayBackSaid(shown.title, seconds));
        continue;
      }
      if (shown.abandonAt === null && abandonAt !== null) news.push(wayBackSaid(shown.title, seconds));
      shown.abandonAt = abandonAt;
      // Another seat of the match may be the one away now (a browser playing itself).
      const href = this.#href(row);
      if (shown.link.getAttribute("href") !== href) shown.link.href = href;
    }
    for (const [match, shown] of this.#shown) {
      if (!listed.has(match)) {
        shown.item.remove();
        this.#shown.delete(match);
      }
    }
    this.#section.hidden = this.#shown.size === 0;
    // Said once, all together (politely: after what the reader is saying), never each second.
    if (news.length > 0) this.#said.textContent = news.join(" ");
    this.#tick();
    const counting = [...this.#shown.values()].some((shown) => shown.abandonAt !== null);
    if (counting && this.#ticker === null) this.#ticker = setInterval(() => this.#tick(), TICK_MS);
    if (!counting && this.#ticker !== null) {
      clearInterval(this.#ticker);
      this.#ticker = null;
    }
  }

  /**
   * Returns the notice of one match: its link back, and its countdown beside it.
   * @param {any} row
   * @param {number | null} abandonAt
   * @returns {Shown}
   */
  #notice(row, abandonAt) {
    const document = this.#list.ownerDocument;
    const title = this.#titleOf(row.game);
    const item = document.createElement("li");
    item.dataset.match = row.match;
    const link = document.createElement("a");
    link.className = "button primary";
    link.href = this.#href(row);
    // Titles come from the network: text, never markup.
    link.textContent = wayBackWords(title);
    // The opponent, once the match's table is read: "against Ann".
    const who = document.createElement("span");
    who.className = "way-back-who";
    who.id = `way-back-who-${row.match}`;
    who.hidden = true;
    const left = document.createElement("span");
    left.className = "way-back-left";
    // A timer is never read out by itself: the live region says the time left once.
    left.setAttribute("role", "timer");
    left.id = `way-back-left-${row.match}`;
    link.setAttribute("aria-describedby", `${who.id} ${left.id}`);
    item.append(link, " ", who, " ", left);
    return { item, link, who, left, title, abandonAt };
  }

  /**
   * Names a notice's opponent: "against Ann", the name cut when long and whole in its title.
   * @param {Shown} shown
   * @param {string | null} name
   */
  #against(shown, name) {
    const words = againstWords(name);
    if (shown.who.textContent === words) return;
    shown.who.replaceChildren("against ", nameElement(shown.who.ownerDocument, name));
    shown.who.hidden = false;
  }

  /**
   * Returns the link that takes a match's seat up: on a kept ticket's own page, else on the
   * page the relay names for the game.
   * @param {any} row
   * @returns {string}
   */
  #href(row) {
    return resumeHref(row, row.page ?? this.#pageOf(row.game));
  }

  /** Redraws each countdown (whole seconds), and hides those of seats not shown away. */
  #tick() {
    const now = performance.now();
    for (const shown of this.#shown.values()) {
      const text = shown.abandonAt === null ? "" : leftWords((shown.abandonAt - now) / 1000);
      if (shown.left.textContent !== text) shown.left.textContent = text;
      shown.left.hidden = text === "";
    }
  }
}
