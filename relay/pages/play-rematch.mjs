// The end of a game page's match (play.mjs): the rematch it follows with the same opponent,
// its buttons and words, the seat of an accepted rematch handed back to the page, and a link
// to the finished match's replay (which names its id), and a "Challenge" of the opponent on
// other terms (challenge-dialog.mjs) when it sat with a player key.

import { challengeRow } from "./challenge-dialog.mjs";
import { PAGE_TIMING } from "./connection.mjs";
import { BANNED, bannedWords } from "./moderation-panel.mjs";
import { relayBeside } from "./page-links.mjs";
import { RelayClient } from "./relay-client.mjs";
import { RematchWatch, rematchView } from "./rematch.mjs";

/** @typedef {{match: string, seat: number, token: string}} Seat */

/** The rematch of a game page's finished match: followed, offered, accepted or declined. */
export class PageRematch {
  /** @type {RematchWatch | null} follows the rematch of the match just finished */
  #watch = null;
  /** @type {string | null} why an offer or answer was refused, until the rematch changes */
  #said = null;
  #el;
  #changed;
  #accepted;
  /** The link to the finished match's replay, in the rematch's section. */
  #replay = document.createElement("a");
  /** The opponent's "Challenge" button, beside it. */
  #challenge = document.createElement("span");

  /**
   * @param {import("./play-elements.mjs").PageElements} el the page's elements
   * @param {() => void} changed called when the page must be drawn again
   * @param {(ticket: Seat) => void} accepted called with this side's seat in an accepted rematch
   */
  constructor(el, changed, accepted) {
    this.#el = el;
    this.#changed = changed;
    this.#accepted = accepted;
    el.rematchOffer.addEventListener("click", () => this.#answer(true));
    el.rematchAccept.addEventListener("click", () => this.#answer(true));
    el.rematchDecline.addEventListener("click", () => this.#answer(false));
    this.#replay.className = "replay-link";
    this.#replay.textContent = "Replay this match";
    // Beside the rematch's buttons, on their row: the end's choices fit the screen as before.
    (el.rematchOffer.parentElement ?? el.rematch).append(this.#replay);
    this.#challenge.className = "challenge-players";
    this.#challenge.hidden = true;
    this.#replay.after(this.#challenge);
  }

  /** Follows the rematch of the finished match `ticket` was seated in. */
  follow(/** @type {Seat} */ ticket) {
    const watch = new RematchWatch({
      relay: relayBeside(location.href),
      timing: PAGE_TIMING,
      ticket,
      onChange: (found) => {
        if (watch !== this.#watch) return;
        this.#said = null;
        // The same seat and token in the new match: no new seek, the first move swapped.
        if (found.state === "accepted") this.#accepted(/** @type {Seat} */ (watch.ticketIn(found)));
        else this.#changed();
      },
    });
    this.#watch = watch;
    watch.follow();
    const client = new RelayClient({ relay: relayBeside(location.href), timing: PAGE_TIMING });
    challengeRow(this.#challenge, client, ticket.match, 1 - ticket.seat);
  }

  /** Stops following the last match's rematch, as another match starts. */
  close() {
    this.#watch?.close();
    this.#watch = null;
    this.#said = null;
  }

  /** Shows the rematch's words and buttons once the match is `over`. */
  update(/** @type {boolean} */ over) {
    const el = this.#el;
    const watch = this.#watch;
    el.rematch.hidden = watch === null || !over;
    if (watch !== null) {
      const shown = rematchView(watch.current, watch.seat);
      el.rematchStatus.textContent = this.#said ?? shown.text;
      el.rematchOffer.hidden = !shown.offer;
      el.rematchAccept.hidden = !shown.accept;
      el.rematchDecline.hidden = !shown.decline;
      this.#replay.href = `replay.html#match=${encodeURIComponent(watch.match)}`;
    }
    // Once a match is over, the same opponent again is the main choice; a stranger the lesser.
    el.again.classList.toggle("primary", el.rematch.hidden);
  }

  /** Offers or accepts a rematch (`offer`), or declines one; a refusal is said in its place. */
  #answer(/** @type {boolean} */ offer) {
    const watch = this.#watch;
    if (watch === null) return;
    this.#said = null;
    (offer ? watch.offer() : watch.decline()).catch((/** @type {any} */ error) => {
      if (watch !== this.#watch) return;
      // A ban of the host's is told in the relay's words: how long and why.
      const why = error?.code === BANNED ? bannedWords(error.detail) : error.message;
      this.#said = `No rematch: ${why}`;
      this.#changed();
    });
  }
}
