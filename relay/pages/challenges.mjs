// Challenges in the lobby: the challenges made to this browser's player (accept, decline) and
// by it (withdraw), followed live on the relay's one wait (GET /v1/player/challenges?after=V,
// held until they change, as the lobby's lists are), never by a timer; the players it follows
// and its recent opponents, each with a "Challenge" button (challenge-dialog.mjs). Accepting
// opens the match's game page; a challenge of this page's accepted meanwhile opens it too.
// Names are text, never markup.

import { answerChallenge, challenges, follow, follows, opponents } from "./challenge-calls.mjs";
import { CLOCKS, challengeButton, clockAt } from "./challenge-dialog.mjs";
import { loadName, nameElement, shownName } from "./names.mjs";
import { playerKey, resumeHref } from "./players.mjs";

/** @typedef {import("./challenge-calls.mjs").Challenge} Challenge */

/** Returns a challenge's clock in words ("5 min + 3 s", "No clock"). @param {any} control */
export function clockWords(control) {
  if (control === null || control === undefined) return "No clock";
  const value = control.kind === "fischer" ? `fischer:${control.base}:${control.increment}` : `deadline:${control.per_move}`;
  const known = CLOCKS.find(([key]) => key === value);
  if (known !== undefined) return known[1];
  return control.kind === "fischer" ? `${control.base} s + ${control.increment} s` : `${control.per_move} s a move`;
}

/**
 * Returns who moves first, as the challenge's reader says it (`mine`: it made the challenge).
 * @param {string} colour @param {boolean} mine
 */
export function colourWords(colour, mine) {
  if (colour === "random") return "first move at random";
  return (colour === "first") === mine ? "you move first" : "they move first";
}

/** What a settled challenge says, by its state. */
const SETTLED = Object.freeze({ accepted: "accepted", declined: "declined", withdrawn: "withdrawn", lapsed: "lapsed" });

/**
 * Fills a list with its entries; an empty list is hidden with its heading (their group), and
 * the section with it when every group is empty: a player with nothing here sees nothing.
 */
function items(/** @type {HTMLElement} */ list, /** @type {any[]} */ entries, /** @type {(e: any) => Node} */ make) {
  list.replaceChildren(...entries.map(make));
  const group = list.closest(".challenge-group");
  if (group instanceof HTMLElement) group.hidden = entries.length === 0;
  const section = list.closest("section");
  if (section !== null) section.hidden = [...section.querySelectorAll(".challenge-group")].every((g) => g instanceof HTMLElement && g.hidden);
}

/** Returns a button of words calling `act` once per click. */
function button(/** @type {Document} */ document, /** @type {string} */ words, /** @type {string} */ label, /** @type {() => void} */ act) {
  const found = document.createElement("button");
  found.type = "button";
  found.textContent = words;
  found.setAttribute("aria-label", label);
  found.addEventListener("click", act);
  return found;
}

/**
 * The Challenges section of the lobby.
 * `lobby` gives a game's title and page, the challenge dialog, and what to do when the lists
 * cannot be read (`failed`, given the error and a retry).
 */
export class ChallengeBox {
  #section;
  #client;
  #lobby;
  /** Challenges of this key's seen open here: one accepted meanwhile opens its match. */
  #open = new Set();
  /** Whether the lists are followed already. */
  #following = false;

  /**
   * @param {HTMLElement} section
   * @param {any} client the lobby's RelayClient
   * @param {{titleOf: (game: string) => string, pageOf: (game: string) => string | undefined,
   *   dialog: import("./challenge-dialog.mjs").ChallengeDialog,
   *   failed: (error: Error, retry: () => void) => void}} lobby
   */
  constructor(section, client, lobby) {
    this.#section = section;
    this.#client = client;
    this.#lobby = lobby;
  }

  /** Returns a list of the section. @param {string} kind */
  #list(kind) {
    return /** @type {HTMLElement} */ (this.#section.querySelector(`.${kind}-list`));
  }

  /** Opens a match of an accepted challenge on its game page. @param {Challenge} found @param {number} seat */
  #go(found, seat) {
    location.assign(resumeHref({ match: found.match, game: found.game, seat }, this.#lobby.pageOf(found.game)));
  }

  /** Returns the words of a challenge's terms. @param {Challenge} found @param {boolean} mine */
  #terms(found, mine) {
    const rated = found.rated ? "rated" : "casual";
    return `${this.#lobby.titleOf(found.game)} · ${clockWords(found.time_control)} · ${rated} · ${colourWords(found.colour, mine)}`;
  }

  /** Returns the item of a challenge made to this key. @param {Challenge} found */
  #incoming(found) {
    const document = this.#section.ownerDocument;
    const li = document.createElement("li");
    li.dataset.challenge = found.id;
    li.dataset.state = found.state;
    const who = shownName(found.from.name);
    const words = document.createElement("span");
    words.className = "entry-words";
    words.append(nameElement(document, found.from.name), ` challenges you: ${this.#terms(found, false)}`);
    if (found.state === "open") {
      words.append(` · until ${clockAt(found.until)}`);
      li.append(words, " ",
        button(document, "Accept", `Accept the challenge of ${who}`, () => this.#answer(found, "accept")),
        button(document, "Decline", `Decline the challenge of ${who}`, () => this.#answer(found, "decline")),
        button(document, "Block", `Decline and block ${who}`, () => this.#answer(found, "decline", true)));
    } else {
      words.append(` · ${SETTLED[found.state]}`);
      li.append(words);
      if (found.state === "accepted" && found.match !== null) li.append(" ", this.#matchLink(found, 1));
    }
    return li;
  }

  /** Returns the item of a challenge this key made. @param {Challenge} found */
  #outgoing(found) {
    const document = this.#section.ownerDocument;
    const li = document.createElement("li");
    li.dataset.challenge = found.id;
    li.dataset.state = found.state;
    const who = shownName(found.to.name);
    const words = document.createElement("span");
    words.className = "entry-words";
    words.append("To ", nameElement(document, found.to.name ?? null), `: ${this.#terms(found, true)}`);
    if (found.state === "open") {
      words.append(` · waiting until ${clockAt(found.until)}`);
      li.append(words, " ", button(document, "Withdraw", `Withdraw your challenge to ${who}`, () => this.#answer(found, "withdraw")));
    } else {
      words.append(` · ${SETTLED[found.state]}`);
      li.append(words);
      if (found.state === "accepted" && found.match !== null) li.append(" ", this.#matchLink(found, 0));
    }
    return li;
  }

  /** Returns the link to an accepted challenge's match. @param {Challenge} found @param {number} seat */
  #matchLink(found, seat) {
    const link = this.#section.ownerDocument.createElement("a");
    link.className = "button";
    link.href = resumeHref({ match: found.match, game: found.game, seat }, this.#lobby.pageOf(found.game));
    link.textContent = "Open the match";
    return link;
  }

  /** Accepts, declines (with `block`, blocking the challenger too) or withdraws; an accept opens the match. */
  async #answer(/** @type {Challenge} */ found, /** @type {"accept" | "decline" | "withdraw"} */ action, block = false) {
    const key = playerKey();
    if (key === null) return;
    try {
      const settled = await answerChallenge(this.#client, key, found.id, action, loadName(), block);
      if (action === "accept" && settled.match !== null) this.#go(settled, 1);
    } catch (/** @type {any} */ error) {
      this.#say(`The challenge could not be answered: ${error?.detail ?? error?.message}`);
    }
  }

  /** Says a line above the lists (role=status). @param {string} text */
  #say(text) {
    const line = this.#section.querySelector(".challenges-said");
    if (line !== null) line.textContent = text;
  }

  /** Draws the key's challenges; one of its own accepted meanwhile opens its match. */
  #draw(/** @type {{incoming: Challenge[], outgoing: Challenge[]}} */ found) {
    items(this.#list("incoming"), found.incoming, (c) => this.#incoming(c));
    items(this.#list("outgoing"), found.outgoing, (c) => this.#outgoing(c));
    for (const mine of found.outgoing) {
      if (mine.state === "open") this.#open.add(mine.id);
      else if (mine.state === "accepted" && mine.match !== null && this.#open.has(mine.id)) {
        this.#open.clear();
        this.#go(mine, 0);
        return;
      }
    }
  }

  /** Returns the item of a followed player or a recent opponent. */
  #someone(/** @type {{id: string, name: string | null, game?: string}} */ who, /** @type {boolean} */ followed) {
    const document = this.#section.ownerDocument;
    const li = document.createElement("li");
    li.dataset.player = who.id;
    const words = document.createElement("span");
    words.className = "entry-words";
    words.append(nameElement(document, who.name), who.game ? ` · ${this.#lobby.titleOf(who.game)}` : "");
    const name = shownName(who.name);
    const toggle = followed
      ? button(document, "Unfollow", `Stop following ${name}`, () => this.#follow(who, false))
      : button(document, "Follow", `Follow ${name}`, () => this.#follow(who, true));
    li.append(words, " ", challengeButton(document, this.#lobby.dialog, who, who.game ?? null), toggle);
    return li;
  }

  /** Follows a player or stops, and draws the lists again. */
  async #follow(/** @type {{id: string, name: string | null}} */ who, /** @type {boolean} */ on) {
    const key = playerKey();
    if (key === null) return;
    try {
      await follow(this.#client, key, who.id, on, who.name);
      await this.people();
    } catch (/** @type {any} */ error) {
      this.#say(`Not done: ${error?.detail ?? error?.message}`);
    }
  }

  /** Reads and draws the players the key follows and its recent opponents. */
  async people() {
    const key = playerKey();
    if (key === null) return;
    const [followed, recent] = await Promise.all([follows(this.#client, key), opponents(this.#client, key)]);
    items(this.#list("follows"), followed, (who) => this.#someone(who, true));
    const followedIds = new Set(followed.map((who) => who.id));
    items(this.#list("opponents"), recent.filter((who) => !followedIds.has(who.id)), (who) => this.#someone(who, false));
  }

  /**
   * Follows the key's challenges, drawing them at each change, until the relay cannot be
   * reached for good (then `failed` offers to follow again). A browser without a player key yet
   * has none to follow.
   */
  async follow() {
    const key = playerKey();
    if (key === null || this.#following) return;
    this.#following = true;
    this.people().catch(() => {});
    let version = null;
    for (;;) {
      let found;
      try {
        found = await challenges(this.#client, key, version, version === null ? null : this.#client.timing.pollWait);
      } catch (/** @type {any} */ error) {
        this.#section.dataset.state = "offline";
        this.#following = false;
        this.#lobby.failed(error, () => this.follow());
        return;
      }
      this.#section.dataset.state = "listed";
      // Unchanged: poll again. (A lower version means the relay's lists started afresh.)
      if (version !== null && found.version === version) continue;
      version = found.version;
      this.#section.dataset.version = String(version);
      this.#draw(found);
      // An accepted challenge makes a recent opponent.
      this.people().catch(() => {});
    }
  }
}
