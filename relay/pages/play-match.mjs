// A game page's seat and match (play.mjs): seeking or resuming one, the host and the computer
// that play it, what the tab keeps of it, and how it ends. The page's other parts read its fields.
// A live match against a person is kept in localStorage too, from its start to its end
// (page-links.mjs keepLive), so that the lobby offers a way back once its tab is closed.

import { BoardGame } from "./board-game.mjs";
import { choiceOf, chosenControl } from "./clock-view.mjs";
import { FORGOTTEN, PAGE_TIMING } from "./connection.mjs";
import { endedHost, finishedGame, finishedRecord } from "./finished.mjs";
import { BANNED, bannedNotice } from "./moderation-panel.mjs";
import { Reason, RelayHost, State } from "./movewire.mjs";
import { asOpponent, resignedWords } from "./opponent-words.mjs";
import { forgetLive, keepLive, liveTicket, newRoomName, pageName, relayBeside, save } from "./page-links.mjs";
import { seatComputer } from "./play-computer.mjs";
import { FORGOTTEN_MOVE, LOST, NOT_RECEIVED, NO_PLAYER_KEY, REFUSALS, STATUS } from "./play-words.mjs";
import { ensurePlayerKey, playerKey } from "./players.mjs";
import { afterLeaving, leaveSeeks } from "./waiting-room.mjs";

/**
 * What the tab keeps of its match (sessionStorage, page-links.mjs): the seat, and the choices it
 * was sought with; a finished match adds its end's words and moves (finished.mjs), and once
 * rated, how it moved this side's rating.
 * @typedef {{match: string, seat: number, token: string, room: string | null, finished: boolean,
 *   level: string | null, listed?: boolean, clock?: string, correspondence?: boolean,
 *   withdrawn?: boolean, ended?: string, side?: number | null, moves?: unknown[],
 *   rating?: RatingChange | null}} Saved
 */

/** @typedef {{before: number, after: number}} RatingChange a rating before and after a match */

/** How long a finished match's rating is waited for while the relay rates it, in milliseconds. */
export const RATING_WAIT_MS = 5000;

/**
 * How the match was sought, to seek the same again on Retry.
 * @typedef {{roomName: string | null, computerLevel: string | null, listed: boolean, clock: string}} Seeking
 */

/**
 * What the match part is handed by its page.
 * @typedef {object} MatchParts
 * @property {any} page the game page's GAME (play.mjs)
 * @property {import("./play-elements.mjs").PageElements} el the page's elements
 * @property {{update: Function}} view the board view a BoardGame draws on
 * @property {() => string | null} myName the player's name as typed (null for none)
 * @property {import("./turn-alert.mjs").TurnAlert} turnAlert told of this side's turns
 * @property {any} client the page's own RelayClient, for a seek's withdrawal
 * @property {() => void} changed called when the page must be drawn again
 * @property {() => void} starting called as a match starts, to clear what showed the last one
 * @property {(ticket: {match: string, seat: number, token: string}) => void} finished
 *   called with the seat of a match played to its end, to follow its rematch
 */

/** A game page's match: the host, the computer, what the tab keeps, and the page's notices. */
export class PageMatch {
  /** @type {any} the RelayHost of the match, or a finished match's stand-in; null before one */
  host = null;
  /** @type {any} the BoardGame of the match, null before it starts */
  game = null;
  /** @type {string | null} what the status line says in place of the state's words */
  notice = null;
  /** @type {string | null} the private room, null for a random opponent */
  room = null;
  /** @type {Saved | null} */
  saved = null;
  /** @type {string | null} the computer's level when playing the computer, else null */
  level = null;
  /** @type {any} the computer's seat, when playing it */
  computer = null;
  /** Whether the computer is thinking over its move. */
  thinking = false;
  /** The clock sought, as CLOCK_CHOICES names it ("" for none). */
  clockChoice = "";
  /** @type {Seeking | null} */
  seeking = null;
  /** Whether the connection was given up: Retry takes the match up again. */
  lost = false;
  /** Whether the relay no longer knows the match. */
  forgotten = false;
  /** Whether a match taken up again (a reload) is still on its first turn, which is not news. */
  quiet = false;
  /** @type {RatingChange | null} how the finished match moved this side's rating, once rated */
  rating = null;
  /** @type {string | null} the match whose ticket this page last kept in localStorage */
  #kept = null;
  #parts;

  /** @param {MatchParts} parts */
  constructor(parts) {
    this.#parts = parts;
  }

  /** Whether the match is against the computer. */
  get againstComputer() {
    return this.level !== null;
  }

  /** The host's State, NOT_CONNECTED before a match. */
  get state() {
    return this.host === null ? State.NOT_CONNECTED : this.host.state;
  }

  /** Whether no match is being played: over, or not connected. */
  get over() {
    return this.state === State.GAME_ENDED || this.state === State.NOT_CONNECTED;
  }

  /** Returns the words of the match's end: a resignation, a notice or the game's result. */
  endText() {
    const outcome = this.host?.outcome ?? null;
    if (outcome?.reason === Reason.RESIGNED && outcome.byMe) return resignedWords(this.againstComputer);
    return this.notice ?? this.game?.resultText ?? null;
  }

  /** Keeps (or with null forgets) the tab's match. */
  keep(/** @type {Saved | null} */ saved) {
    this.saved = saved;
    save(this.#parts.page.key, saved);
  }

  /**
   * Takes up a match of this browser (the lobby's way back, "Your games"): by the seat's ticket
   * this browser keeps (localStorage, page-links.mjs liveTicket), else its player key the
   * seat's bearer. The link names only the match and the seat, never a token.
   */
  resumeMine(/** @type {{match: string, seat: number}} */ want) {
    const kept = liveTicket(want.match, want.seat);
    if (kept !== null && kept.game === this.#parts.page.key) {
      const { match, seat, token, room, clock } = kept;
      this.keep({ match, seat, token, room, finished: false, level: null, clock });
      history.replaceState(null, "", location.pathname + location.search);
      this.play(room, this.saved, null, false, clock);
      return;
    }
    const key = playerKey();
    if (key === null) {
      this.notice = NO_PLAYER_KEY;
      this.#parts.changed();
      return;
    }
    this.keep({ match: want.match, seat: want.seat, token: key, room: null, finished: false, level: null, correspondence: true });
    history.replaceState(null, "", location.pathname + location.search);
    this.play(null, this.saved);
  }

  /** Takes a saved match up again, with the choices it was sought with. */
  resume(/** @type {Saved} */ from) {
    this.quiet = true; // its turn, if it is one, is not news
    this.play(from.room ?? null, from, from.level ?? null, from.listed === true, from.clock ?? "");
  }

  /** Plays the seat of an accepted rematch: the same seat and token, the first move swapped. */
  takeRematch(/** @type {{match: string, seat: number, token: string}} */ ticket) {
    this.keep({ ...ticket, room: null, finished: false, level: null });
    this.play(null, this.saved);
  }

  /** Comes back to a seek withdrawn as the page was left: plays it, or seeks the same again. */
  async rejoin(/** @type {Saved} */ left) {
    this.#parts.el.status.textContent = STATUS[State.LISTENING];
    if ((await afterLeaving(this.#parts.client, left)) === "resume") {
      this.keep({ ...left, withdrawn: false });
      this.resume(/** @type {Saved} */ (this.saved));
      return;
    }
    this.keep(null);
    // Against the computer, a new room: the computer takes the other seat afresh.
    const roomName = left.level ? newRoomName() : (left.room ?? null);
    this.play(roomName, null, left.level ?? null, left.listed === true, left.clock ?? "");
  }

  /** Withdraws the seek of a page being left (pagehide); a reload comes back to it (rejoin). */
  leave() {
    const ticket = this.host?.ticket ?? null;
    const saved = this.saved;
    if (this.host?.state !== State.LISTENING || ticket === null || saved === null || saved.match !== ticket.match) return;
    // A correspondence seek waits for days, listed under "Your games": it outlives the page.
    if (saved.correspondence) return;
    const seats = [ticket];
    const computer = this.computer;
    if (computer?.host.state === State.LISTENING && computer.host.ticket !== null) seats.push(computer.host.ticket);
    leaveSeeks(this.#parts.client, seats);
    // Stopped too: its poll, answered "expired" by the withdrawal, must not seek afresh from
    // a page that is going away (a seek nobody would ever play).
    this.host.close();
    if (seats.length > 1) computer.host.close();
    this.keep({ ...saved, withdrawn: true });
  }

  /** Seeks or takes up the same match again after the connection was given up. */
  retry() {
    if (this.saved !== null) this.resume(this.saved);
    else if (this.seeking !== null) {
      const { roomName, computerLevel, listed, clock } = this.seeking;
      this.play(roomName, null, computerLevel, listed, clock);
    }
  }

  /** Seeks another match like the last: the same room, level and clock. */
  again() {
    this.keep(null);
    // A match resumed after a reload knows its control only from the relay: seek the same.
    const clock = this.clockChoice || choiceOf(this.host?.clock?.control ?? null);
    this.play(this.room, null, this.level, false, clock);
  }

  /** Withdraws the seek, and the computer's; a partner come meanwhile plays on. */
  cancel() {
    if (this.host?.state !== State.LISTENING) return;
    this.host.cancel();
    this.computer?.host.cancel();
  }

  /** Shows a finished match kept by the tab: its end, its final board, the ways to play on. */
  showFinished(/** @type {Saved} */ kept) {
    this.level = kept.level ?? null;
    this.room = kept.room ?? null;
    this.host = endedHost(kept);
    this.game = finishedGame(kept, this.host, this.#parts.page.rules, this.#parts.view);
    this.notice = kept.ended ?? null;
    this.rating = kept.rating ?? null;
    if (this.level === null) this.#parts.finished(this.host.ticket);
    this.#parts.changed();
  }

  /**
   * Seeks a match (in `roomName`, or with a random opponent when null), or takes up
   * `resumeFrom`; against the computer at `computerLevel`; `listed` in the lobby; on `clock`.
   * @param {string | null} roomName
   * @param {Saved | null} [resumeFrom]
   * @param {string | null} [computerLevel]
   * @param {boolean} [listed]
   * @param {string} [clock]
   */
  play(roomName, resumeFrom = null, computerLevel = null, listed = false, clock = "") {
    this.#parts.starting();
    this.host?.close();
    this.computer?.close();
    this.computer = null;
    this.thinking = false;
    this.level = computerLevel;
    this.notice = null;
    this.lost = false;
    this.forgotten = false;
    this.rating = null;
    this.game = null;
    this.room = roomName;
    // The computer plays with a Fischer clock or none (it keeps no seat for days).
    const fischer = chosenControl(clock)?.kind === "fischer";
    this.clockChoice = computerLevel === null || fischer ? clock : "";
    this.seeking = { roomName, computerLevel, listed, clock };
    /** @type {any} */
    let current = null;
    const options = this.#options(roomName, computerLevel, listed, () => this.host === current);
    current = resumeFrom === null ? new RelayHost(options) : RelayHost.resume(resumeFrom, options);
    this.host = current;
    if (computerLevel !== null) {
      const onThinking = (/** @type {boolean} */ now) => {
        this.thinking = now;
        this.#parts.changed();
      };
      const control = chosenControl(this.clockChoice);
      const page = this.#parts.page;
      this.computer = seatComputer(page, roomName, computerLevel, resumeFrom !== null, control, onThinking);
    }
    this.#parts.changed();
    current.play().then(
      (/** @type {any} */ outcome) => this.#finish(current, outcome),
      (/** @type {Error} */ error) => {
        // The game's own code failed (an illegal move from the partner, say).
        current.close();
        this.notice = `This game cannot go on: ${error.message}`;
        this.#parts.changed();
      },
    );
  }

  /**
   * Returns the RelayHost options of a seek (or a seat taken up) with the page's choices.
   * @param {string | null} roomName
   * @param {string | null} computerLevel
   * @param {boolean} listed
   * @param {() => boolean} isCurrent whether the host these options make is still the page's
   */
  #options(roomName, computerLevel, listed, isCurrent) {
    const { page, el, changed } = this.#parts;
    const clockChoice = this.clockChoice;
    const correspondence = chosenControl(clockChoice)?.kind === "deadline";
    // A random opponent may be sought rated, and near this player's rating (docs/ratings.md).
    const near = roomName === null && computerLevel === null ? (el.near?.value ?? "") : "";
    const within = near === "" || near === "any" ? 0 : Number(near);
    return {
      relay: relayBeside(location.href),
      gameKey: page.key,
      version: page.version,
      room: roomName,
      public: listed,
      timeControl: chosenControl(clockChoice),
      timing: PAGE_TIMING,
      // A rated or correspondence seat is listed under this browser's player key ("Your games"):
      // a rating belongs to a key. A casual one has none, so that two tabs of one browser can
      // play each other (the relay never pairs a key with itself).
      player: computerLevel === null && (near !== "" || correspondence) ? ensurePlayerKey() : null,
      ratingRange: Number.isInteger(within) && within > 0 ? { within } : null,
      name: this.#parts.myName(),
      onTable: () => {
        if (isCurrent()) changed();
      },
      createGame: (/** @type {any} */ h, /** @type {boolean} */ firstMove) => {
        this.game = new BoardGame(h, firstMove, page.rules, this.#parts.view);
        return this.game;
      },
      onState: (/** @type {number} */ state) => {
        if (isCurrent() && (state === State.PLAYING_TO_MOVE || state === State.PLAYING_WAIT_MOVE)) this.#keepLive();
        if (isCurrent()) {
          if (state === State.PLAYING_TO_MOVE && !this.quiet) this.#parts.turnAlert.yourTurn();
          // The log read on taking the match up is handled at once (a partner's move not yet
          // answered among it): turns from then on are news.
          if (state !== State.LISTENING && this.quiet) setTimeout(() => (this.quiet = false), 0);
        }
        changed();
      },
      onReachable: () => changed(),
      onDialog: (/** @type {string} */ text) => {
        const refused = /\b(\w+\/\w+)\b/.exec(text)?.[1];
        // A match the relay forgot before its end: the relay restarted (or lost its store).
        this.forgotten = refused === "match/unknown" && this.saved?.finished !== true;
        // A ban of the host's: how long and why, as the relay says (the seek is not sent again).
        const banned = refused === BANNED ? bannedNotice(text) : null;
        const plain = refused === undefined ? undefined : /** @type {any} */ (REFUSALS)[refused];
        this.notice = this.forgotten ? FORGOTTEN : (banned ?? plain ?? asOpponent(text, this.againstComputer));
        changed();
      },
      onTicket: (/** @type {{match: string, seat: number, token: string}} */ ticket) => {
        const kept = { room: roomName, finished: false, level: computerLevel, listed, clock: clockChoice };
        this.keep({ ...ticket, ...kept, correspondence });
        if (roomName === null && location.hash !== "") {
          // A reload must resume this match, not seek another.
          history.replaceState(null, "", location.pathname + location.search);
        }
        changed(); // the seek is saved: Cancel can withdraw it now
      },
    };
  }

  /**
   * Keeps the started match's ticket in localStorage, once a page's match, for the lobby's way
   * back: not a match against the computer (local to the page), nor a correspondence one (the
   * player key lists it).
   */
  #keepLive() {
    const ticket = this.host?.ticket ?? null;
    if (ticket === null || this.level !== null || this.saved?.correspondence || this.#kept === ticket.match) return;
    this.#kept = ticket.match;
    const page = pageName(location.pathname);
    if (page === null) return;
    const { match, seat, token } = ticket;
    keepLive({ game: this.#parts.page.key, match, seat, token, page, room: this.room, clock: this.clockChoice });
  }

  /** Keeps what a match's end leaves: its record, a seat to retry, or nothing. */
  #finish(/** @type {any} */ current, /** @type {any} */ outcome) {
    if (current !== this.host || outcome === null) return;
    // A move the relay never received (refused, or lost as the relay restarted) is taken off
    // the board, and said so; one a lost connection may still send stays.
    if (outcome.reason !== Reason.CONNECTION_LOST && current.turnLost && this.#takeBack()) {
      this.notice = this.forgotten ? FORGOTTEN_MOVE : `${this.endText() ?? STATUS[State.GAME_ENDED]} ${NOT_RECEIVED}`;
    }
    // Over (or refused, or cancelled): no way back to it. A lost connection may come back.
    if (outcome.reason !== Reason.CONNECTION_LOST && current.ticket !== null) {
      forgetLive(current.ticket.match, current.ticket.seat);
    }
    if (outcome.isFinished) {
      // A reload then shows this end, and nothing is seated again.
      if (this.saved !== null) this.keep({ ...this.saved, ...finishedRecord(this.game, this.endText()) });
    } else if (outcome.reason !== Reason.CONNECTION_LOST) {
      // Cancelled or refused: the seat is of no more use (a lost connection may come back).
      this.keep(null);
    }
    if (outcome.reason === Reason.CONNECTION_LOST) {
      // Given up after minutes of retries: the seat is kept, and Retry takes it up again.
      this.lost = true;
      this.notice = LOST(this.saved !== null);
    }
    if (outcome.isFinished && this.level === null && current.ticket !== null) {
      this.#parts.finished(current.ticket);
      this.#readRating(current);
    }
    if (outcome.reason === Reason.CANCELLED && !outcome.message) {
      this.host = null;
      this.room = null;
      history.replaceState(null, "", location.pathname + location.search);
    }
    this.#parts.changed();
  }

  /** Takes this side's last move off the board (its game's undo); returns whether it did. */
  #takeBack() {
    const game = this.game;
    if (game === null || game.plies.length === 0 || !game.plies.at(-1).mine) return false;
    game.undo(1);
    return true;
  }

  /**
   * Shows how the finished match moved this side's rating, once the relay has rated it (it
   * may take a moment: read again for RATING_WAIT_MS at most); nothing for a match not rated.
   */
  async #readRating(/** @type {any} */ current) {
    if (playerKey() === null) return; // without a key in this browser, no seat of it is rated
    let change = null;
    try {
      change = await current.ratingChange(RATING_WAIT_MS);
    } catch {
      return; // a relay away or without ratings: nothing to show
    }
    if (change === null || current !== this.host) return;
    this.rating = { before: change.before, after: change.after };
    if (this.saved?.finished) this.keep({ ...this.saved, rating: this.rating });
    this.#parts.changed();
  }
}
