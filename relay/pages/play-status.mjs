// What a game page says of its match (play.mjs): the status line, the window title, the
// buttons each state offers, who plays which side, the room's link and the clocks.

import { ClockView } from "./clock-view.mjs";
import { LEVEL_NAMES } from "./computer.mjs";
import { RECONNECTING, SENDING_OFFLINE } from "./connection.mjs";
import { State, changeWords } from "./movewire.mjs";
import { roomFragment } from "./page-links.mjs";
import { RATING_CHANGE, STATUS, THINKING } from "./play-words.mjs";

/** The status line, the buttons and the clocks of a game page, drawn from its match. */
export class PageStatus {
  #page;
  #el;
  #clockView;
  #turnAlert;

  /**
   * @param {any} page the game page's GAME (play.mjs)
   * @param {import("./play-elements.mjs").PageElements} el the page's elements
   * @param {import("./turn-alert.mjs").TurnAlert} turnAlert the page's turn alert
   */
  constructor(page, el, turnAlert) {
    this.#page = page;
    this.#el = el;
    this.#clockView = new ClockView(el.clocks, page.sides);
    this.#turnAlert = turnAlert;
  }

  /**
   * Draws the match's state: the status line, the title, the buttons, the sides and the clocks.
   * @param {import("./play-match.mjs").PageMatch} match the page's match
   * @param {{label: string}} opponent what the page calls the other side
   */
  update(match, opponent) {
    const el = this.#el;
    const { host, game, room, level, lost } = match;
    const state = match.state;
    el.status.textContent = this.#statusText(match);
    this.#clockView.opponent = opponent.label;
    this.#clockView.update(host, game?.side ?? 0);
    document.body.dataset.state = host === null ? "IDLE" : Object.keys(State)[state];
    document.body.dataset.thinking = String(match.thinking);
    document.body.dataset.reachable = String(host?.reachable ?? true);
    const turn = state === State.PLAYING_TO_MOVE ? "Your turn · " : "";
    document.title = this.#turnAlert.title(`${turn}${this.#page.title} · movewire`);
    el.sound.checked = this.#turnAlert.sound;
    el.notify.hidden = !this.#turnAlert.canAsk;

    const started = game !== null;
    const over = match.over;
    el.start.hidden = host !== null;
    el.share.hidden = !(state === State.LISTENING && room !== null && level === null);
    el.cancel.hidden = !(state === State.LISTENING && host?.ticket !== null);
    el.resign.hidden = !started || over;
    el.again.hidden = host === null || !over || lost || level !== null;
    el.computerAgain.hidden = host === null || !over || lost || level === null;
    el.retry.hidden = !lost;
    el.toLobby.hidden = !match.forgotten;
    const rating = over ? match.rating : null;
    el.ratingChange.hidden = rating === null;
    el.ratingChange.textContent = rating === null ? "" : RATING_CHANGE(changeWords(rating.before, rating.after));
    el.board.hidden = !started;
    const against = level === null ? "" : ` against the computer (${/** @type {any} */ (LEVEL_NAMES)[level]})`;
    el.you.textContent = started
      ? `You play ${this.#page.sides[game.side]}${against}${game.side === 0 ? ", moving first" : ""}.`
      : "";
    if (room !== null) {
      const link = new URL(location.href);
      link.hash = roomFragment(room, match.clockChoice);
      el.shareLink.value = link.href;
    }
  }

  /** Returns the status line: the state's words, or a notice, the end, the computer thinking. */
  #statusText(/** @type {import("./play-match.mjs").PageMatch} */ match) {
    const { host, notice } = match;
    const state = match.state;
    if (host === null) return notice ?? "Choose how to play.";
    /** @type {string} */
    let text = /** @type {any} */ (STATUS)[state];
    if (state === State.GAME_ENDED) text = match.endText() ?? text;
    else if (state === State.NOT_CONNECTED && notice !== null) text = notice;
    if (state === State.PLAYING_WAIT_MOVE && match.thinking) text = THINKING;
    const away = !host.reachable && !match.lost;
    if (away && state !== State.GAME_ENDED && state !== State.NOT_CONNECTED) {
      text = state === State.WAITING_SERVER_RESPONSE ? SENDING_OFFLINE : RECONNECTING;
    }
    return text;
  }
}
