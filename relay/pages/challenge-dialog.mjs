// The challenge dialog: challenge a player, by its public id, to a match on your terms (the
// game, the clock, who moves first, rated or not), from the lobby's leaderboards, followed
// players and recent opponents, a game page's finished match and the replay page's players
// (docs/protocol.md, "Challenges"). The challenged player sees it in its lobby.

import { challenge } from "./challenge-calls.mjs";
import { publicId } from "./devices.mjs";
import { loadName, shownName } from "./names.mjs";
import { ensurePlayerKey, playerKey } from "./players.mjs";

/** The clocks a challenge offers: [value, words]; "" is none. */
export const CLOCKS = Object.freeze([
  ["", "No clock"],
  ["fischer:180:2", "3 min + 2 s"],
  ["fischer:300:3", "5 min + 3 s"],
  ["fischer:600:5", "10 min + 5 s"],
  ["deadline:86400", "1 day a move"],
  ["deadline:259200", "3 days a move"],
]);

/** The challenger's colours: [value, words]. */
export const COLOURS = Object.freeze([
  ["random", "Decided at random"],
  ["first", "You move first"],
  ["second", "They move first"],
]);

/**
 * Returns the time control a clock's value names, as the relay takes it (null: none).
 * @param {string} value
 */
export function controlOf(value) {
  const [kind, base, increment] = value.split(":");
  if (kind === "fischer") return { kind, base: Number(base), increment: Number(increment) };
  if (kind === "deadline") return { kind, per_move: Number(base) };
  return null;
}

/** Returns a time as hours and minutes, e.g. "14:05". @param {number} seconds */
export function clockAt(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** Returns an element of a tag with attributes and children. */
function make(/** @type {Document} */ document, /** @type {string} */ tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** Returns a select of choices ([value, words]) with its label. */
function choice(/** @type {Document} */ document, /** @type {string} */ id, /** @type {string} */ words,
  /** @type {readonly (readonly [string, string])[]} */ choices) {
  const select = /** @type {HTMLSelectElement} */ (make(document, "select", { id, name: id }));
  for (const [value, text] of choices) select.append(make(document, "option", { value }, text));
  return [make(document, "label", { for: id }, words), select];
}

/**
 * The dialog of a page: made on its first use, opened for one player at a time.
 * `games()` gives the games to offer ({name, title}: GET /v1/games' list).
 */
export class ChallengeDialog {
  #document;
  #client;
  #games;
  /** @type {HTMLDialogElement | null} */
  #dialog = null;
  /** @type {{id: string, name: string | null} | null} */
  #to = null;
  /** Called after each challenge sent (the lobby then follows its lists). @type {() => void} */
  sent = () => {};

  /**
   * @param {Document} document
   * @param {any} client the page's RelayClient
   * @param {() => Promise<{name: string, title: string}[]>} games
   */
  constructor(document, client, games) {
    this.#document = document;
    this.#client = client;
    this.#games = games;
  }

  /** Builds the dialog, once. @returns {HTMLDialogElement} */
  #built() {
    if (this.#dialog !== null) return this.#dialog;
    const document = this.#document;
    const dialog = /** @type {HTMLDialogElement} */ (make(document, "dialog", { class: "challenge-dialog", "aria-labelledby": "challenge-title" }));
    const form = make(document, "form", { method: "dialog" });
    const rated = make(document, "input", { type: "checkbox", id: "challenge-rated", name: "rated" });
    form.append(
      make(document, "h2", { id: "challenge-title" }, "Challenge"),
      make(document, "div", { class: "name-row" }, ...choice(document, "challenge-game", "Game", [])),
      make(document, "div", { class: "name-row" }, ...choice(document, "challenge-clock", "Clock", CLOCKS)),
      make(document, "div", { class: "name-row" }, ...choice(document, "challenge-colour", "Who moves first", COLOURS)),
      make(document, "div", { class: "name-row" }, rated, make(document, "label", { for: "challenge-rated" }, "Rated")),
      make(document, "p", { class: "challenge-said", role: "status" }),
      make(document, "div", { class: "challenge-buttons" },
        make(document, "button", { type: "submit", class: "primary", value: "send" }, "Send the challenge"),
        make(document, "button", { type: "button", value: "close", "data-close": "" }, "Close")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#send();
    });
    form.querySelector("[data-close]")?.addEventListener("click", () => dialog.close());
    dialog.append(form);
    document.body.append(dialog);
    this.#dialog = dialog;
    return dialog;
  }

  /**
   * Opens the dialog to challenge a player (its public id, its name), with `game` chosen.
   * @param {{id: string, name: string | null}} to @param {string | null} [game]
   */
  async open(to, game = null) {
    const dialog = this.#built();
    this.#to = to;
    const heading = dialog.querySelector("h2");
    if (heading !== null) heading.textContent = `Challenge ${shownName(to.name)}`;
    const said = dialog.querySelector(".challenge-said");
    if (said !== null) said.textContent = "";
    const select = /** @type {HTMLSelectElement} */ (dialog.querySelector("#challenge-game"));
    let games = [];
    try {
      games = await this.#games();
    } catch {
      games = game === null ? [] : [{ name: game, title: game }];
    }
    select.replaceChildren(...games.map((g) => make(this.#document, "option", { value: g.name }, g.title)));
    if (game !== null) select.value = game;
    const button = /** @type {HTMLButtonElement} */ (dialog.querySelector("button[type=submit]"));
    button.disabled = false;
    if (!dialog.open) dialog.showModal();
  }

  /** Sends the challenge the dialog shows, and says what became of it. */
  async #send() {
    const dialog = this.#dialog;
    const to = this.#to;
    if (dialog === null || to === null) return;
    const value = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ (dialog.querySelector(`#${id}`)).value;
    const said = /** @type {HTMLElement} */ (dialog.querySelector(".challenge-said"));
    const button = /** @type {HTMLButtonElement} */ (dialog.querySelector("button[type=submit]"));
    const terms = {
      to: to.id,
      game: value("challenge-game"),
      time_control: controlOf(value("challenge-clock")),
      colour: /** @type {"first" | "second" | "random"} */ (value("challenge-colour")),
      rated: /** @type {HTMLInputElement} */ (dialog.querySelector("#challenge-rated")).checked,
      name: loadName(),
    };
    button.disabled = true;
    said.textContent = "Sending…";
    try {
      const made = await challenge(this.#client, ensurePlayerKey(), terms);
      said.textContent = `Challenge sent to ${shownName(to.name)}: it waits for an answer until ${clockAt(made.until)}. Your lobby shows it.`;
      dialog.dataset.sent = made.id;
      this.sent();
    } catch (/** @type {any} */ error) {
      said.textContent = `Not sent: ${error?.detail ?? error?.message ?? error}`;
      button.disabled = false;
    }
  }
}

/**
 * Returns a "Challenge" button that opens the dialog for a player (`named`: its words name the
 * player too, where no name is beside it).
 * @param {Document} document @param {ChallengeDialog} dialog
 * @param {{id: string, name: string | null}} to @param {string | null} [game]
 */
export function challengeButton(document, dialog, to, game = null, named = false) {
  const words = named ? `Challenge ${shownName(to.name)}` : "Challenge";
  const button = make(document, "button", { type: "button", class: "challenge-button", "data-challenge": to.id }, words);
  if (!named) button.setAttribute("aria-label", `Challenge ${shownName(to.name)}`);
  button.addEventListener("click", () => dialog.open(to, game));
  return button;
}

/** The dialog of this page, made on its first use. @type {ChallengeDialog | null} */
let shared = null;

/**
 * Returns the page's challenge dialog over its RelayClient (the games offered are the relay's).
 * @param {any} client
 */
export function pageDialog(client) {
  shared ??= new ChallengeDialog(document, client, () => client.games());
  return shared;
}

/** Returns this browser's player's public id, or null without a player key. */
export async function ownId() {
  const key = playerKey();
  return key === null ? null : publicId(key);
}

/**
 * Fills `row` with a "Challenge" button for each player of a match who sat with a player key
 * (GET /v1/matches/{id} names them; `only`: that seat alone), this browser's player left out;
 * hides it when there is none. A match the relay cannot read leaves it hidden.
 * @param {HTMLElement} row @param {any} client the page's RelayClient @param {string} match
 * @param {number | null} [only]
 */
export async function challengeRow(row, client, match, only = null) {
  row.hidden = true;
  let info;
  try {
    info = await client.matchInfo(match);
  } catch {
    return;
  }
  const mine = await ownId();
  const dialog = pageDialog(client);
  /** @type {HTMLElement[]} */
  const buttons = [];
  for (const seat of [0, 1]) {
    const id = Array.isArray(info?.players) ? info.players[seat] : null;
    if ((only !== null && seat !== only) || typeof id !== "string" || id === mine) continue;
    const name = Array.isArray(info.names) && typeof info.names[seat] === "string" ? info.names[seat] : null;
    buttons.push(challengeButton(row.ownerDocument, dialog, { id, name }, info.game, true));
  }
  row.replaceChildren(...buttons);
  row.hidden = buttons.length === 0;
}
