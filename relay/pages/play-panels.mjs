// The panels around a game page's board (play.mjs): the table (table-panel.mjs), the chat
// (chat-panel.mjs), and Mute, Block and Report (moderation-panel.mjs), wired to its match.

import { ChatPanel, speaker } from "./chat-panel.mjs";
import { ModerationPanel } from "./moderation-panel.mjs";
import { byId } from "./play-elements.mjs";
import { TablePanel } from "./table-panel.mjs";

/** The table, chat and moderation panels of a game page, drawn from its match. */
export class PagePanels {
  #match;
  #opponent;
  #table;
  #chat;
  #moderation;

  /**
   * @param {Document} document the game page
   * @param {import("./play-match.mjs").PageMatch} match the page's match
   * @param {object} parts
   * @param {any} parts.client the page's own RelayClient, for the moderation calls
   * @param {() => {name: string, label: string}} parts.opponent what the page calls the other side
   * @param {() => void} parts.changed called when the page must be drawn again
   */
  constructor(document, match, { client, opponent, changed }) {
    this.#match = match;
    this.#opponent = opponent;
    this.#table = TablePanel.inPage(document, {
      host: () => match.host,
      game: () => match.game,
      opponent,
      againstComputer: () => match.againstComputer,
    });
    /** Says a line at the table of the match (a Promise). */
    const say = (/** @type {string} */ text) => match.host.say(text);
    this.#chat = new ChatPanel(byId(document, "chat"), /** @type {any} */ (say));
    this.#moderation = ModerationPanel.inPage(document, {
      client,
      host: () => match.host,
      game: () => match.game,
      againstComputer: () => match.againstComputer,
      changed,
    });
  }

  /** Reads whose chat this browser's player key hides: once, as the page starts. */
  load() {
    this.#moderation.load();
  }

  /** Clears what the panels showed of the last match, as another starts. */
  reset() {
    this.#table.reset();
    this.#chat.clear();
    this.#moderation.reset();
  }

  /** Draws the panels from the match's host and its table. */
  update() {
    const match = this.#match;
    const host = match.host;
    this.#table.update();
    this.#moderation.update();
    // The chat is between two people (none against the computer); once the match is over
    // its field closes, and it shows only if something was said.
    const started = match.game !== null;
    const over = match.over;
    const lines = host?.table?.chat ?? [];
    this.#chat.hidden = !started || match.againstComputer || (over && lines.length === 0);
    const seat = host?.ticket?.seat ?? null;
    const names = host?.table?.names ?? null;
    const label = this.#opponent().label;
    const said = (/** @type {any} */ line) => speaker(line, seat, names, [label, label]);
    const hiding = /** @type {any} */ (this.#moderation.hiding);
    this.#chat.show(lines, said, started && !over && typeof host?.say === "function", hiding);
  }
}
