// What a game page shows of the table around its match (table.mjs): the opponent's name and
// whether it is here ("Opponent disconnected: 47 s to come back"), the draw offers and
// takebacks with their buttons and outcomes in plain words, and the claim against an opponent
// who stalls. The words are pure functions (node tests them); TablePanel puts them on the page.
// Names are text: always set with textContent, never as markup.

import { State } from "./movewire.mjs";
import { nameElement, shownName } from "./names.mjs";

/** How long "Opponent is back" shows once the opponent returns, in milliseconds. */
export const BACK_SHOWN_MS = 4000;

/** The claim countdown shows from this many seconds before the claim opens. */
export const CLAIM_SHOWN_S = 60;

/** Plainer words for the refusals an offer, an answer or a claim can meet, by error code. */
export const OFFER_REFUSALS = Object.freeze({
  "offer/pending": "An offer is already waiting for an answer.",
  "offer/declined": "That was declined at this position: make a move first.",
  "offer/none": "That offer is no longer standing.",
  "offer/not_playing": "Offers are made only while the match is played.",
  "offer/too_fast": "Too many offers in a short time: wait a moment.",
  "takeback/none": "There is no move of yours to take back.",
  "turn/stale": "The position changed meanwhile: try again.",
  "claim/not_stalled": "Your opponent still has time to move.",
});

/** Returns whole seconds left until `at` (performance.now() milliseconds), never below 0. */
export function secondsUntil(at, now) {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Returns the words of a seat's presence: "Opponent disconnected: 47 s to come back" (counting
 * down to its abandonment), "Opponent is away." (a correspondence match), "Opponent is back"
 * for a moment after it returned (`backAt`, when it did), or "" while it is simply here.
 * Without a label (beside a name already shown): "disconnected: 47 s to come back", "away",
 * "back".
 */
export function presenceWords(presence, label, now, backAt = null) {
  if (presence === null || presence === undefined) return "";
  if (!presence.here) {
    if (presence.abandonAt === null || presence.abandonAt === undefined) return label ? `${label} is away.` : "away";
    const words = `disconnected: ${secondsUntil(presence.abandonAt, now)} s to come back`;
    return label ? `${label} ${words}` : words;
  }
  if (backAt === null || now - backAt >= BACK_SHOWN_MS) return "";
  return label ? `${label} is back` : "back";
}

const WHAT = { draw: "the draw", takeback: "the takeback" };

/**
 * Returns what the page says of the last offer, and which buttons it shows: {text, accept,
 * withdraw}. `last` is the log's last event this side knows, `seat` this side's, `name` the
 * opponent as the page calls it ("Your opponent", "The computer"). A standing offer shows to
 * the one it is made to with Accept and Decline, and to its maker with Withdraw; its outcome
 * shows until the next move; a lapsed one, nothing.
 */
export function offerView(offer, seat, last, name) {
  const none = { text: "", accept: false, withdraw: false };
  if (offer === null || offer === undefined) return none;
  const mine = offer.by === seat;
  const lower = name.toLowerCase();
  const { kind, state, at } = offer;
  if (state === "offered") {
    if (at !== last) return none; // the position moved on: it lapsed
    if (mine) {
      const text = kind === "draw" ? "You offered a draw" : "You asked to take back your last move";
      return { text: `${text}: waiting for ${lower}...`, accept: false, withdraw: true };
    }
    if (kind === "draw") return { text: `${name} offers a draw.`, accept: true, withdraw: false };
    const reply = offer.count === 2 ? " and your reply" : "";
    return { text: `${name} asks to take back their last move${reply}.`, accept: true, withdraw: false };
  }
  if (state === "accepted" && kind === "takeback") {
    if (last !== at + 1) return none; // the undo is the last event until the next move
    return { text: offer.count === 2 ? "Moves taken back." : "Move taken back.", accept: false, withdraw: false };
  }
  if (at !== last) return none;
  if (state === "declined") {
    if (mine) {
      const text = kind === "draw" ? `${name} declined the draw.` : `${name} declined to take back your move.`;
      return { text, accept: false, withdraw: false };
    }
    return { text: `You declined ${WHAT[kind]}.`, accept: false, withdraw: false };
  }
  if (state === "withdrawn") {
    const what = kind === "draw" ? "draw offer" : "takeback request";
    const text = mine ? `You withdrew your ${what}.` : `${name} withdrew the ${what}.`;
    return { text, accept: false, withdraw: false };
  }
  return none;
}

/**
 * Returns the claim against a stalling opponent as the page shows it: {text, claim}. Shown
 * only on the opponent's turn in a match without a clock, from CLAIM_SHOWN_S seconds before
 * the claim opens (a countdown), then with the Claim the win button.
 */
export function claimView(claimAt, now, name) {
  if (claimAt === null || claimAt === undefined) return { text: "", claim: false };
  const left = secondsUntil(claimAt, now);
  if (left > CLAIM_SHOWN_S) return { text: "", claim: false };
  if (left > 0) {
    return { text: `${name} has not moved for a while: you may claim the win in ${left} s.`, claim: false };
  }
  return { text: `${name} has not moved in time: you may claim the win.`, claim: true };
}

/** Returns the words of a refusal the player meets (an offer, an answer, a claim). */
export function refusalWords(error) {
  return OFFER_REFUSALS[error?.code] ?? `Not done: ${error?.detail ?? error?.message ?? error}`;
}

/**
 * The table as a game page shows it. `elements` are the page's: line (the opponent's line),
 * name (the opponent's name in it), presence (the badge), spoken (a polite live region that
 * says when the opponent goes and comes back), offer (the offer
 * section), status (its words), accept, decline, withdraw, claim, claimStatus, offerDraw,
 * askTakeback. `page` says how: {host() (the RelayHost, or null), game() (null before the
 * start), opponent() ({name, label} of opponent-words.mjs), againstComputer()}.
 */
export class TablePanel {
  #el;
  #page;
  #timer = null;
  #wasAway = false;
  #backAt = null;
  #said = ""; // an error shown in place of the offer's words, until the table changes
  #version = 0;

  constructor(elements, page) {
    this.#el = elements;
    this.#page = page;
    const act = (button, action) =>
      button.addEventListener("click", () => {
        const host = page.host();
        if (host === null) return;
        this.#said = "";
        action(host).catch((error) => {
          this.#said = refusalWords(error);
          this.update();
        });
        this.update();
      });
    act(elements.offerDraw, (host) => host.offerDraw());
    act(elements.askTakeback, (host) => host.askTakeback());
    act(elements.accept, (host) => host.answerOffer(true));
    act(elements.decline, (host) => host.answerOffer(false));
    act(elements.withdraw, (host) => host.answerOffer(false));
    act(elements.claim, (host) => host.claim());
  }

  /** Returns the panel of a page filled by page-shell.mjs (its elements found by id). */
  static inPage(document, page) {
    const ids = {
      line: "table-line",
      name: "opponent-name",
      presence: "presence",
      spoken: "presence-spoken",
      offer: "offer",
      status: "offer-status",
      claimStatus: "claim-status",
      accept: "offer-accept",
      decline: "offer-decline",
      withdraw: "offer-withdraw",
      claim: "claim",
      offerDraw: "offer-draw",
      askTakeback: "ask-takeback",
    };
    const elements = Object.fromEntries(Object.entries(ids).map(([key, id]) => [key, document.getElementById(id)]));
    return new TablePanel(elements, page);
  }

  /** Redraws from the host's table and state (and keeps the countdowns running). */
  update(now = performance.now()) {
    const el = this.#el;
    const host = this.#page.host();
    const game = this.#page.game();
    const table = host?.table ?? null;
    const state = host?.state ?? State.NOT_CONNECTED;
    const playing = game !== null && [State.PLAYING_TO_MOVE, State.PLAYING_WAIT_MOVE, State.WAITING_SERVER_RESPONSE].includes(state);
    const computer = this.#page.againstComputer();
    const { name, label } = this.#page.opponent();
    const seat = host?.ticket?.seat ?? 0;
    const last = host?.cursor ?? 0;
    if (table !== null && table.version !== this.#version) {
      this.#version = table.version;
      this.#said = "";
    }

    // The opponent's name and presence.
    const theirName = table?.names?.[1 - seat] ?? null;
    const presence = game !== null && !computer && playing ? (table?.presence?.[1 - seat] ?? null) : null;
    const away = presence !== null && !presence.here;
    if (this.#wasAway && !away && presence !== null) {
      this.#backAt = now;
      el.spoken.textContent = `${name} is back.`;
    } else if (!this.#wasAway && away) {
      el.spoken.textContent = `${name} disconnected.`;
    }
    this.#wasAway = away;
    // A person is always named: "Anonymous" without a name (names.mjs); the computer is not.
    const named = table === null || computer ? "" : `${label}: ${shownName(theirName)}`;
    if (el.name.textContent !== named) {
      if (named === "") el.name.replaceChildren();
      else el.name.replaceChildren(`${label}: `, nameElement(el.name.ownerDocument, theirName));
    }
    el.presence.textContent = presenceWords(presence, label, now, this.#backAt);
    el.presence.dataset.here = String(!away);
    el.line.hidden = game === null || (el.name.textContent === "" && el.presence.textContent === "");

    // Offers, their outcomes, and the claim.
    const offer = offerView(table?.offer ?? null, seat, last, name);
    const claim = state === State.PLAYING_WAIT_MOVE && host?.clock === null ? claimView(table?.claimAt ?? null, now, name) : claimView(null, now, name);
    el.status.textContent = this.#said || offer.text;
    el.accept.hidden = el.decline.hidden = !(offer.accept && playing);
    el.withdraw.hidden = !(offer.withdraw && playing);
    el.claimStatus.textContent = playing ? claim.text : "";
    const claimable = claim.claim && playing;
    if (claimable && el.claim.hidden) el.spoken.textContent = "You may claim the win now.";
    el.claim.hidden = !claimable;
    el.offer.hidden = game === null || (el.status.textContent === "" && el.claimStatus.textContent === "");

    const standing = table?.offer?.state === "offered" && table.offer.at === last;
    const declined = (kind) => {
      const o = table?.offer;
      return o?.state === "declined" && o.by === seat && o.kind === kind && o.at === last;
    };
    el.offerDraw.hidden = !playing;
    el.offerDraw.disabled = standing || declined("draw");
    el.askTakeback.hidden = !playing || !(host?.canUndo ?? false);
    el.askTakeback.disabled = standing || declined("takeback") || !(game?.hasPlayed ?? false);

    // Tick while something counts down.
    const backing = this.#backAt !== null && now - this.#backAt < BACK_SHOWN_MS;
    const claiming = state === State.PLAYING_WAIT_MOVE && (table?.claimAt ?? null) !== null;
    const counting = playing && (away || backing || claiming);
    if (counting && this.#timer === null) this.#timer = setInterval(() => this.update(), 500);
    else if (!counting && this.#timer !== null) this.stop();
  }

  /** Stops the countdowns (a new match, or the page going away). */
  stop() {
    clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Starts afresh for a new match: nobody away, nothing said. */
  reset() {
    this.stop();
    this.#wasAway = false;
    this.#backAt = null;
    this.#said = "";
    this.#version = 0;
    this.#el.spoken.textContent = "";
  }
}
