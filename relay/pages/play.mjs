// The game page: seeks or resumes a match, and drives the status line, buttons and board.
//
// The match id and seat token live in sessionStorage, so reloading the tab resumes the
// same match (the board rebuilt from the log) and a second tab is a second player.
// A private room is named in the page's fragment (#room=NAME): the fragment never reaches
// a server log or a Referer header, and opening the link joins the room. While the relay does
// not answer, the status line says so and every request is sent again (connection.mjs).
// A seek or a rematch refused by the host's ban says so in the relay's words, once.
//
// GamePage is a front over its parts, each a module: play-match.mjs (the seat and the match),
// play-board.mjs (the board and the last move), play-status.mjs (the status line, buttons and
// clocks), play-panels.mjs (the table, the chat, Mute, Block and Report), play-rematch.mjs (the
// rematch after the end), play-controls.mjs (the buttons and the tab's events), and
// play-elements.mjs, play-words.mjs, play-computer.mjs.
import { RelayClient, Timing } from "./movewire.mjs";
import { cleanChoice, saveChoice } from "./computer-choice.mjs";
import { isShownFinished } from "./finished.mjs";
import { nameField } from "./names.mjs";
import { opponentOf } from "./opponent-words.mjs";
import { fillPage } from "./page-shell.mjs";
import { PageBoard } from "./play-board.mjs";
import { wireControls } from "./play-controls.mjs";
import { byId, pageElements } from "./play-elements.mjs";
import { PageMatch } from "./play-match.mjs";
import { PagePanels } from "./play-panels.mjs";
import { PageRematch } from "./play-rematch.mjs";
import { PageStatus } from "./play-status.mjs";
import { TurnAlert } from "./turn-alert.mjs";
import { loadSaved, newRoomName, parseFragment, relayBeside, shouldResume } from "./page-links.mjs";

export { LOST, NO_PLAYER_KEY, REFUSALS, STATUS, THINKING } from "./play-words.mjs";
// What the page tests (tests/js/page.test.mjs) and the game pages read of the page's links.
export { computerKey, newRoomName, parseFragment, relayBeside, ROOM_NAME, roomFragment } from "./page-links.mjs";
export { shouldResume, storageKey } from "./page-links.mjs";

/**
 * A game as its page describes it once (`GAME` of examples/<game>/page/<game>-game.mjs).
 * @typedef {object} PageGame
 * @property {string} key the game key, e.g. "xand0"
 * @property {string} version the version of its move strings
 * @property {string} title the game's name, for the window title
 * @property {any} rules the rules module (Board, parseMove, formatMove)
 * @property {string[]} sides the name of each side, e.g. ["X", "O"]
 * @property {(move: any) => string} where words for where a move went
 * @property {(who: string, side: number, move: any) => string} [said] the last move's words
 *   ("You drew ..."); by default "You played X at row 2, column 3."
 * @property {string} [taken] what a click on a move that is not legal is told; by default
 *   "That move is not possible."
 * @property {string} [stylesheet] the URL of the board's stylesheet, which the replay adds
 * @property {(element: HTMLElement, actions: {onPlay: (move: unknown) => void,
 *   opponent: () => string}) => {update: Function}} createView draws the board in `element`
 */

/**
 * What the page's fragment asks for (parseFragment, page-links.mjs).
 * @typedef {{kind: "room", room: string, listed?: boolean, clock: string}
 *   | {kind: "resume", match: string, seat: number}
 *   | {kind: "play", within: number | null, rated: boolean}
 *   | {kind: "computer", level: string | null, clock: string | null}
 *   | {kind: "none"}} Want
 */

/** A game page: its match, and the parts that show it and take the player's choices. */
export class GamePage {
  #page;
  #el;
  #match;
  #status;
  #rematch;
  #panels;

  /** Fills the page's document around a board for `page`, and wires its parts. */
  constructor(/** @type {PageGame} */ page) {
    fillPage(document);
    const el = pageElements(document);
    const changed = () => this.render();
    // The page's own calls (a seek's withdrawal) are brief: when they fail, the host takes over.
    const client = new RelayClient({ relay: relayBeside(location.href), timing: new Timing({ giveUp: 3 }) });
    const turnAlert = new TurnAlert({ title: page.title, onChange: changed });
    /** @type {() => ReturnType<typeof opponentOf>} */
    const opponent = () => opponentOf(match.againstComputer);
    const board = new PageBoard(page, el, () => match.game, opponent);
    const rematch = new PageRematch(el, changed, (ticket) => {
      match.takeRematch(ticket);
      el.status.focus?.();
    });
    /** @type {PageMatch} */
    const match = new PageMatch({
      page,
      el,
      view: board.view,
      myName: nameField(/** @type {HTMLInputElement} */ (byId(document, "player-name"))),
      turnAlert,
      client,
      changed,
      starting: () => {
        rematch.close();
        panels.reset();
      },
      finished: (ticket) => rematch.follow(ticket),
    });
    const panels = new PagePanels(document, match, { client, opponent, changed });
    wireControls(el, match, { turnAlert, opponent });
    this.#page = page;
    this.#el = el;
    this.#match = match;
    this.#status = new PageStatus(page, el, turnAlert);
    this.#rematch = rematch;
    this.#panels = panels;
  }

  /** Draws the page from its match: the status line, the buttons, the rematch and the panels. */
  render() {
    const match = this.#match;
    this.#status.update(match, opponentOf(match.againstComputer));
    this.#rematch.update(match.over);
    this.#panels.update();
  }

  /** Starts as the tab asks: a kept match resumed or shown, or what the fragment names. */
  start() {
    const el = this.#el;
    const match = this.#match;
    this.#panels.load(); // whose chat this browser's player key hides: read once, as the page starts
    const want = /** @type {Want} */ (parseFragment(location.hash));
    const saved = loadSaved(this.#page.key);
    match.saved = saved;
    if (saved !== null && shouldResume(saved, want) && isShownFinished(saved)) {
      match.showFinished(saved);
    } else if (saved !== null && shouldResume(saved, want)) {
      if (saved.withdrawn) match.rejoin(saved);
      else match.resume(saved);
    } else {
      match.keep(null);
      if (want.kind === "room") match.play(want.room, null, null, want.listed === true, want.clock);
      else if (want.kind === "resume") match.resumeMine(want);
      else if (want.kind === "play") {
        if (el.near !== null && want.within !== null) el.near.value = String(want.within);
        else if (el.near !== null && want.rated) el.near.value = "any";
        match.play(null, null, null, false, el.timeControl.value);
      } else if (want.kind === "computer" && el.computer && el.level !== null) {
        // From the lobby's "Play the computer": a reload then resumes this match.
        history.replaceState(null, "", location.pathname + location.search);
        const choice = saveChoice(cleanChoice({ level: want.level ?? el.level.value, clock: want.clock ?? "" }));
        el.level.value = choice.level;
        match.play(newRoomName(), null, choice.level, false, choice.clock);
      } else this.render();
    }
  }
}

/**
 * Runs a game page: builds it around the board of `page` and starts it.
 * @param {PageGame} page
 */
export function runPage(page) {
  new GamePage(page).start();
}
