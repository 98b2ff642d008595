// The part every game page shares: the status line, the start section (with the player's name
// and the clock choice) and the share section, the opponent's name and presence with Mute,
// Block and Report, both clocks, the board's place and its hint line, the offers and the
// claim, the rematch and "Play the computer again" sections, the actions, the chat and the
// resign dialog. A game page holds only its header and an empty <main data-help="..."> that
// fillPage() fills, so that the pages are not copies of each other; <main data-computer> adds
// "Play the computer" and its level to the start section.

import { CLOCK_CHOICES } from "./clock-view.mjs";

const LEVEL_OPTIONS = `
        <option value="easy">Easy</option>
        <option value="medium" selected>Medium</option>
        <option value="strong">Strong</option>
`;

const MAIN = `
  <p id="status" class="status" role="status" aria-live="polite" tabindex="-1">Loading...</p>
  <p id="you" class="you"></p>
  <p id="rating-change" class="rating-change" role="status" aria-live="polite" hidden></p>
  <p id="table-line" class="table-line" hidden>
    <span id="opponent-name" class="opponent-name"></span>
    <span id="presence" class="presence"></span>
  </p>
  <p id="presence-spoken" class="visually-hidden" aria-live="polite"></p>
  <section id="moderation" class="moderation" hidden aria-label="Your opponent">
    <div class="actions moderation-actions">
      <button id="mute" type="button">Mute</button>
      <button id="block" type="button">Block</button>
      <button id="report" type="button" aria-expanded="false" aria-controls="report-form">Report</button>
    </div>
    <form id="report-form" class="report-form" hidden aria-label="Report your opponent to the relay's host">
      <fieldset>
        <legend>Report your opponent for</legend>
        <label><input type="radio" name="report-about" value="play" checked> their play</label>
        <label><input type="radio" name="report-about" value="name"> their name</label>
        <label><input type="radio" name="report-about" value="chat"> their chat</label>
      </fieldset>
      <label for="report-text">What happened (optional)</label>
      <textarea id="report-text" rows="2"></textarea>
      <div class="actions">
        <button type="submit" class="primary">Send report</button>
        <button id="report-cancel" type="button">Cancel</button>
      </div>
    </form>
    <p id="moderation-note" class="moderation-note" role="status" aria-live="polite"></p>
  </section>

  <section id="start" class="start" hidden aria-label="Start a match">
    <div class="name-row">
      <label for="player-name">Your name</label>
      <input id="player-name" autocomplete="nickname" spellcheck="false">
    </div>
    <div class="clock-row">
      <label for="time-control">Clock</label>
      <select id="time-control"></select>
    </div>
    <div class="clock-row near-row">
      <label for="near-rating">Rated</label>
      <select id="near-rating">
        <option value="">No (casual)</option>
        <option value="any">Yes, any rating</option>
        <option value="100">Yes, within ±100</option>
        <option value="200">Yes, within ±200</option>
        <option value="400">Yes, within ±400</option>
      </select>
    </div>
    <button id="play-random" type="button" class="primary">Play a random opponent</button>
    <button id="play-private" type="button">Create a private room</button>
  </section>

  <section id="share" class="share" hidden aria-label="Invite a friend">
    <label for="share-link">Send this link to your opponent; opening it joins the room:</label>
    <div class="share-row">
      <input id="share-link" type="url" readonly>
      <button id="copy-link" type="button">Copy link</button>
    </div>
  </section>

  <div id="clocks" class="clocks" hidden>
    <p class="clock"><span class="clock-who"></span> <span class="clock-time"></span></p>
    <p class="clock"><span class="clock-who"></span> <span class="clock-time"></span></p>
    <p class="clock-spoken visually-hidden" aria-live="polite"></p>
  </div>
  <div id="board" class="board" hidden></div>
  <p id="hint" class="hint" aria-live="polite"></p>
  <p id="last-move" class="last-move" aria-live="polite"></p>

  <section id="offer" class="offer" hidden aria-label="Offers">
    <p id="offer-status" class="offer-status" role="status" aria-live="polite"></p>
    <p id="claim-status" class="claim-status"></p>
    <div class="actions">
      <button id="offer-accept" type="button" class="primary" hidden>Accept</button>
      <button id="offer-decline" type="button" hidden>Decline</button>
      <button id="offer-withdraw" type="button" hidden>Withdraw</button>
      <button id="claim" type="button" class="primary" hidden>Claim the win</button>
    </div>
  </section>

  <section id="rematch" class="rematch" hidden aria-label="Rematch">
    <p id="rematch-status" class="rematch-status" role="status" aria-live="polite"></p>
    <div class="actions">
      <button id="rematch-offer" type="button" class="primary">Rematch</button>
      <button id="rematch-accept" type="button" class="primary" hidden>Accept</button>
      <button id="rematch-decline" type="button" hidden>Decline</button>
    </div>
  </section>

  <section id="computer-again" class="computer-again" hidden aria-label="Play the computer again">
    <button id="again-computer" type="button" class="primary">Play the computer again</button>
    <span class="pick">
      <label for="again-level">Level</label>
      <select id="again-level">${LEVEL_OPTIONS}</select>
    </span>
  </section>

  <div class="actions">
    <button id="cancel" type="button" hidden>Cancel</button>
    <button id="offer-draw" type="button" hidden>Offer draw</button>
    <button id="ask-takeback" type="button" hidden>Ask to take back</button>
    <button id="resign" type="button" hidden>Resign</button>
    <button id="again" type="button" class="primary" hidden>Play again</button>
    <button id="retry" type="button" class="primary" hidden>Retry</button>
    <a id="to-lobby" class="button" href="./" hidden>Back to the lobby</a>
  </div>
  <section id="chat" class="chat" hidden aria-labelledby="chat-title">
    <h2 id="chat-title" class="chat-title">Chat</h2>
    <ol class="chat-lines" aria-live="polite" aria-relevant="additions" hidden></ol>
    <p class="chat-hidden" hidden></p>
    <form class="chat-form">
      <label for="chat-text" class="visually-hidden">Say something to your opponent</label>
      <input id="chat-text" maxlength="300" autocomplete="off">
      <button type="submit">Send</button>
    </form>
    <p class="chat-note" hidden></p>
  </section>
  <p class="help"></p>
  <div class="alerts" role="group" aria-label="Your turn">
    <label><input id="turn-sound" type="checkbox"> Sound on your turn</label>
    <button id="turn-notify" type="button" hidden>Notify me on my turn</button>
  </div>
`;

const COMPUTER = `
    <div class="computer-row">
      <button id="play-computer" type="button">Play the computer</button>
      <label for="computer-level">Level</label>
      <select id="computer-level">${LEVEL_OPTIONS}</select>
    </div>
`;

/** Returns help text for the screen in hand: "Tap" for "Click" where the pointer is a finger. */
export function touchWords(text, window) {
  const touch = window?.matchMedia?.("(pointer: coarse)").matches ?? false;
  return touch ? text.replace(/\bClick\b/g, "Tap").replace(/\bclick\b/g, "tap") : text;
}

const DIALOG = `
<dialog id="confirm-resign" aria-labelledby="confirm-resign-title">
  <form method="dialog">
    <p id="confirm-resign-title">Resign this game? Your opponent wins.</p>
    <div class="actions">
      <button value="keep" autofocus>Keep playing</button>
      <button value="resign" class="danger">Resign</button>
    </div>
  </form>
</dialog>
`;

/** Fills the page's <main> with the shared parts, its help line, the clock choices and, when
 * it offers one, the computer; adds the dialog. */
export function fillPage(document) {
  const main = document.querySelector("main");
  const help = main.dataset.help ?? "";
  main.innerHTML = MAIN;
  main.querySelector(".help").textContent = touchWords(help, document.defaultView);
  const choices = main.querySelector("#time-control");
  for (const [value, label] of CLOCK_CHOICES) choices.add(new Option(label, value));
  if (main.dataset.computer !== undefined) {
    main.querySelector("#start").insertAdjacentHTML("beforeend", COMPUTER);
  }
  document.body.insertAdjacentHTML("beforeend", DIALOG);
}
