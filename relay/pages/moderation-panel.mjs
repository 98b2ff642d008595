// A player's own moderation on a game page (docs/protocol.md#moderation): Mute, Block and
// Report beside the opponent, for a seated player whose opponent sat with a player key
// (GET /v1/matches/{id} names each seat's public id); the opponent's chat hidden once this
// browser's player key muted or blocked it (read once as the page starts, GET
// /v1/player/blocks, and again with each change); and a ban the relay answers a seek or a
// rematch with, told in the relay's own words. The words are pure functions; ModerationPanel
// puts them on the page. Names are text: always set with textContent, never as markup.

import { playerKey } from "./players.mjs";
import { REPORT_ABOUT, REPORT_TEXT_MOST } from "./relay-client.mjs";

/** What the page says once a report is filed (a second one of the same is answered the same). */
export const REPORTED = "Reported. Thank you.";

/** What the page says once the opponent is muted, blocked, or either is lifted. */
export const DONE = Object.freeze({
  mute: "Muted: their chat is hidden from you.",
  block: "Blocked: you will not be paired with them again, and their chat is hidden from you.",
  unmute: "Unmuted: their chat shows again.",
  unblock: "Unblocked: their chat shows again, and you may be paired again.",
});

/** Plainer words for the refusals a report, a block or a mute can meet, by error code. */
export const MODERATION_REFUSALS = Object.freeze({
  "report/too_fast": "Too many reports from here in a short time: try again later.",
  "player/not_seated": "This browser's player key did not play this match: only the key that did can mute or block.",
  "block/no_key": "Your opponent played without a player key: there is nobody to mute or block.",
  "block/full": "You mute or block as many players as the relay keeps: lift one first.",
  "match/unknown": "The relay no longer knows this match.",
});

/** The error code of a seek or a rematch refused by a ban of the host's. */
export const BANNED = "player/banned";

/** Returns a number of seconds in plain words: "45 seconds", "10 minutes", "3 hours", "2 days". */
export function durationWords(seconds) {
  const plural = (n, unit) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds < 120) return plural(Math.max(1, Math.round(seconds)), "second");
  if (seconds < 2 * 3600) return plural(Math.round(seconds / 60), "minute");
  if (seconds < 2 * 86400) return plural(Math.round(seconds / 3600), "hour");
  return plural(Math.round(seconds / 86400), "day");
}

/**
 * Returns a ban's message as the page shows it: the relay's words (how long and why), the
 * seconds left said plainly ("for 600 s more" reads "for 10 minutes more").
 */
export function bannedWords(detail) {
  return String(detail).replace(/\bfor (\d+) s more\b/, (_, seconds) => `for ${durationWords(Number(seconds))} more`);
}

/**
 * Returns the words of a ban from a host's dialog ("The relay refused this side's request: 403
 * player/banned: This player key is banned ..."), or null when the dialog tells no ban.
 */
export function bannedNotice(text) {
  const at = String(text).indexOf(`${BANNED}: `);
  return at < 0 ? null : bannedWords(String(text).slice(at + BANNED.length + 2));
}

/** Returns the words of a refusal of a report, a block or a mute. */
export function moderationRefusal(error) {
  return MODERATION_REFUSALS[error?.code] ?? `Not done: ${error?.detail ?? error?.message ?? error}`;
}

/** Returns the kind ("block" or "mute") of a public id among a key's blocks, or null for none. */
export function blockedAs(blocks, id) {
  if (id === null || id === undefined) return null;
  return blocks.find((entry) => entry.id === id)?.kind ?? null;
}

/** Milliseconds before the page reads a match's players again after it could not. */
const PLAYERS_AGAIN_MS = 10_000;

/**
 * Mute, Block and Report on a game page. `elements` are the page's: section (the group, shown
 * only when the opponent sat with a player key), mute, block, report (the buttons), form (the
 * report's form: radio buttons named "report-about", a textarea), reportText, reportCancel,
 * note (a polite live region). `page` says how: {client (a RelayClient), host() (the
 * RelayHost, or null), game() (null before the start), againstComputer(), changed() (told
 * when what is hidden changed: the page draws its chat again)}.
 */
export class ModerationPanel {
  #el;
  #page;
  #blocks = []; // this browser's key's blocks and mutes, as the relay last said
  #match = null; // the match whose players are read (or being read)
  #players = null; // its seats' public ids, [id0, id1], once read
  #busy = false;
  #said = "";

  constructor(elements, page) {
    this.#el = elements;
    this.#page = page;
    elements.mute.addEventListener("click", () => this.#toggle("mute"));
    elements.block.addEventListener("click", () => this.#toggle("block"));
    elements.report.addEventListener("click", () => this.#openReport(elements.form.hidden));
    elements.reportCancel.addEventListener("click", () => {
      this.#openReport(false);
      elements.report.focus();
    });
    elements.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#sendReport();
    });
    elements.reportText.maxLength = REPORT_TEXT_MOST;
  }

  /** Returns the panel of a page filled by page-shell.mjs (its elements found by id). */
  static inPage(document, page) {
    const ids = {
      section: "moderation",
      mute: "mute",
      block: "block",
      report: "report",
      form: "report-form",
      reportText: "report-text",
      reportCancel: "report-cancel",
      note: "moderation-note",
    };
    const elements = Object.fromEntries(Object.entries(ids).map(([key, id]) => [key, document.getElementById(id)]));
    return new ModerationPanel(elements, page);
  }

  /** Reads this browser's player key's blocks and mutes (once, as the page starts). */
  async load() {
    const key = playerKey();
    if (key === null) return;
    try {
      this.#blocks = await this.#page.client.blocks(key);
    } catch {
      return; // nothing hidden: the player can still mute from the page
    }
    this.#page.changed();
  }

  /**
   * Returns whose chat lines the page hides and why: {seat, why: "muted" | "blocked"} for an
   * opponent this key muted or blocked, {seat, why: null} while the match's players are being
   * read and this key mutes or blocks anybody (nothing said before it is known), else null.
   */
  get hiding() {
    const seat = this.#seat();
    if (seat === null || this.#blocks.length === 0) return null;
    if (this.#players === null) return this.#match === null ? null : { seat: 1 - seat, why: null };
    const kind = blockedAs(this.#blocks, this.#players[1 - seat]);
    if (kind === null) return null;
    return { seat: 1 - seat, why: kind === "mute" ? "muted" : "blocked" };
  }

  /** Redraws the buttons, and reads the players of a match the page has not read yet. */
  update() {
    const el = this.#el;
    const host = this.#page.host();
    const ticket = host?.ticket ?? null;
    const started = this.#page.game() !== null && ticket !== null && !this.#page.againstComputer();
    if (started && ticket.match !== this.#match) this.#readPlayers(ticket.match);
    const seat = this.#seat();
    const theirs = seat === null ? null : (this.#players?.[1 - seat] ?? null);
    const mine = seat === null ? null : (this.#players?.[seat] ?? null);
    el.section.hidden = theirs === null;
    // Muting and blocking are the player key's, which must be the one that sat in this match.
    const keyed = mine !== null && playerKey() !== null;
    const kind = blockedAs(this.#blocks, theirs);
    el.mute.hidden = !keyed || kind === "block";
    el.mute.textContent = kind === "mute" ? "Unmute" : "Mute";
    el.block.hidden = !keyed;
    el.block.textContent = kind === "block" ? "Unblock" : "Block";
    for (const button of [el.mute, el.block]) button.disabled = this.#busy;
    el.report.setAttribute("aria-expanded", String(!el.form.hidden));
    // A live region: its words are set when they change only, so that each is said once.
    if (el.note.textContent !== this.#said) el.note.textContent = this.#said;
  }

  /** Starts afresh for a new match: its players unknown, nothing said, the report closed. */
  reset() {
    this.#match = null;
    this.#players = null;
    this.#said = "";
    this.#el.form.hidden = true;
    this.#el.reportText.value = "";
  }

  /** Returns this side's seat in the match shown, or null when none is played. */
  #seat() {
    const host = this.#page.host();
    if (this.#page.game() === null || this.#page.againstComputer()) return null;
    return host?.ticket?.seat ?? null;
  }

  #readPlayers(match) {
    this.#match = match;
    this.#players = null;
    this.#page.client.players(match).then(
      (players) => {
        if (this.#match !== match) return;
        this.#players = players;
        this.#page.changed();
      },
      (error) => {
        if (this.#match !== match) return;
        // Unknown, nothing is hidden and nothing offered; a fault of the network is tried again.
        this.#players = Object.freeze([null, null]);
        this.#page.changed();
        if (error?.code === undefined) {
          setTimeout(() => {
            if (this.#match === match) this.#match = null;
            this.#page.changed();
          }, PLAYERS_AGAIN_MS);
        }
      },
    );
  }

  /** Mutes or blocks the opponent, or lifts the mute or block standing. */
  async #toggle(kind) {
    const key = playerKey();
    const seat = this.#seat();
    const id = seat === null ? null : (this.#players?.[1 - seat] ?? null);
    if (key === null || id === null || this.#busy) return;
    const lift = blockedAs(this.#blocks, id) === kind;
    this.#busy = true;
    this.#said = "";
    this.#page.changed();
    try {
      this.#blocks = lift
        ? await this.#page.client.unblock(key, id)
        : await this.#page.client.block(key, this.#match, kind);
      this.#said = DONE[lift ? `un${kind}` : kind];
    } catch (error) {
      this.#said = moderationRefusal(error);
    } finally {
      this.#busy = false;
      this.#page.changed();
    }
  }

  #openReport(open) {
    const el = this.#el;
    el.form.hidden = !open;
    el.report.setAttribute("aria-expanded", String(open));
    if (open) {
      this.#said = "";
      el.note.textContent = "";
      el.form.querySelector("input[name='report-about']:checked")?.focus();
    }
  }

  async #sendReport() {
    const el = this.#el;
    const ticket = this.#page.host()?.ticket ?? null;
    if (ticket === null || this.#busy) return;
    const chosen = el.form.querySelector("input[name='report-about']:checked")?.value;
    const about = REPORT_ABOUT.includes(chosen) ? chosen : "play";
    const send = el.form.querySelector("button[type='submit']");
    this.#busy = send.disabled = true;
    try {
      await this.#page.client.report(ticket, about, el.reportText.value);
      this.#said = REPORTED;
      el.reportText.value = "";
      this.#openReport(false);
      el.report.focus();
    } catch (error) {
      this.#said = moderationRefusal(error);
    } finally {
      this.#busy = send.disabled = false;
      this.#page.changed();
    }
  }
}
