// The lobby: a card for each game the relay hosts (GET /v1/games: its installed game
// packages), and in it a random opponent to play, open a private or public room, join
// an open public game, watch a live match, or replay one just finished; "Your games",
// the correspondence matches of this browser's player key, each opened in one click
// (your-games.mjs); and at the top, a way back to each live match of this browser still played
// (way-back.mjs: the key's, and those whose tickets the game pages keep), with the seconds left
// to come back once the relay shows the seat away. The lists follow the relay's lobby by long-polling it
// (GET /v1/lobby?game=G&after=V), never by reloading. While the relay does not answer, a notice
// says so and the polls are sent again; they pick up where they were. The pages' service worker
// keeps them for offline use (offline.mjs): offline, the lobby says so and Your games shows the
// list it read last, with when.
// The player's name, typed here, is kept for every seek of the game pages; the lists show the
// players' names, as text. Challenges (challenges.mjs): those made to this browser's player
// and by it, followed live, its followed players and recent opponents; every leaderboard row
// has a "Challenge" button (challenge-dialog.mjs).

import { ChallengeDialog, challengeButton, ownId } from "./challenge-dialog.mjs";
import { ChallengeBox } from "./challenges.mjs";
import { setUpLobbyChoices } from "./computer-choice.mjs";
import { ConnectionNotice, PAGE_TIMING, lostFor } from "./connection.mjs";
import { ConnectionLostError } from "./errors.mjs";
import { nameElement, nameField, shownName } from "./names.mjs";
import { newRoomName, relayBeside, storageKey } from "./page-links.mjs";
import { keepGames, keptGames } from "./kept.mjs";
import { OfflineLine, isOffline, registerWorker } from "./offline.mjs";
import { usePlayerKey } from "./players.mjs";
import { RelayClient } from "./relay-client.mjs";
import { boardList, nearChoice, refreshBoard } from "./ratings-view.mjs";
import { WayBack } from "./way-back.mjs";
import { YourGames, clockAt } from "./your-games.mjs";

/** Each game's page by game key ("connect4.html"), as GET /v1/games names it. */
const pages = new Map();

/** Each game's view module by game key (GET /v1/games' `view`, null: none): its sides' words. */
const views = new Map();

/** Returns the page of a game: its package's, else `<game>.html`. */
function pageOf(game) {
  return pages.get(game) ?? `${game}.html`;
}

/** Returns an element made of a tag, its attributes, and its children (text is text). */
function make(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, "");
    else if (value !== false && value !== null) element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}

/** Returns one of a game's lobby lists: its heading and its list, empty for now. */
function lobbyList(kind, heading, name) {
  const title = make("h3", { id: `${kind}-${name}` }, heading);
  const list = make("ul", { class: `${kind}-list`, "aria-labelledby": `${kind}-${name}`, "aria-live": "polite" });
  list.append(make("li", { class: "empty" }, "None right now."));
  return [title, list];
}

/**
 * Returns the lobby card of a game of GET /v1/games ({name, title, summary, page, computer,
 * refereed}):
 * play a random opponent, open a private or public room, play the computer (when its page
 * offers it), go back to a match, and its open games, live and finished matches.
 */
export function gameCard({ name, title, summary, page, computer, refereed }) {
  const card = make("li", { class: "card", id: `game-${name}` }, make("h2", {}, title), make("p", {}, summary));
  // Whether a result can be trusted: this relay checks every game-ending move by the rules.
  card.append(
    make(
      "p",
      { class: "checked" },
      refereed ? "Results are checked by the rules." : "Results are as the players' games report them.",
    ),
  );
  const random = make("a", { class: "button primary", href: `${page}#play` }, "Play a random opponent");
  card.append(
    random,
    nearChoice(random, title),
    make("button", { type: "button", "data-private": name }, "Create a private room"),
    make("button", { type: "button", "data-public": name }, "Create a public game"),
  );
  if (computer) {
    const choice = make("div", { class: "computer-choice" });
    const select = (kind, label) => make("select", { "data-choice": kind, "aria-label": `${label} ${title}` });
    choice.append(
      make("a", { class: "button", href: `${page}#computer`, "data-computer": name, "data-page": page }, "Play the computer"),
      make("label", {}, "Level ", select("level", "Level of the computer at")),
      make("label", {}, "Clock ", select("clock", "Clock against the computer at")),
    );
    card.append(choice);
  }
  card.append(
    make("a", { class: "resume", "data-resume": name, href: page, hidden: true }, "Back to your match"),
    make(
      "div",
      { class: "lobby-lists", "data-lobby": name },
      ...lobbyList("open", "Open games", name),
      ...lobbyList("live", "Live matches", name),
      ...lobbyList("recent", "Just finished", name),
      ...boardList(name),
    ),
  );
  return card;
}

/** Wires the cards' buttons, the computer's choices and the way back to a match. */
function wireCards(root) {
  for (const button of root.querySelectorAll("button[data-private]")) {
    button.addEventListener("click", () => {
      location.assign(`${pageOf(button.dataset.private)}#room=${newRoomName()}`);
    });
  }
  for (const button of root.querySelectorAll("button[data-public]")) {
    button.addEventListener("click", () => {
      location.assign(`${pageOf(button.dataset.public)}#room=${newRoomName()}&public`);
    });
  }
  // "Play the computer" at the level and clock chosen beside it, remembered for next time.
  setUpLobbyChoices(root);
  // A match still going on in this tab gets a way back to it.
  for (const link of root.querySelectorAll("a[data-resume]")) {
    try {
      const saved = JSON.parse(sessionStorage.getItem(storageKey(link.dataset.resume)) ?? "null");
      if (saved && !saved.finished) {
        link.hidden = false;
        link.href = `${pageOf(link.dataset.resume)}${saved.room ? `#room=${saved.room}` : ""}`;
      }
    } catch {
      // Nothing to resume.
    }
  }
}

// The player's name, kept for the game pages' seeks.
const nameInput = document.getElementById("player-name");
if (nameInput !== null) nameField(nameInput);

/** Returns a time as hours and minutes, e.g. "14:05". */
function clockTime(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** Returns the list items of a lobby list, or one saying it is empty. */
function items(list, entries, make) {
  if (entries.length === 0) {
    const empty = document.createElement("li");
    empty.className = "empty";
    empty.textContent = "None right now.";
    list.replaceChildren(empty);
  } else {
    list.replaceChildren(...entries.map(make));
  }
}

/**
 * Returns the names of a lobby entry's players (null for a player without one): an open game's
 * seeker alone (seat 0: its seat 1 is empty, not nameless), a match's two; none from a relay
 * whose entries carry no names.
 */
function namesOf(entry, open = false) {
  if (!Array.isArray(entry.names)) return [];
  return entry.names.slice(0, open ? 1 : 2).map((name) => (typeof name === "string" ? name : null));
}

/** Returns the players of a lobby entry as words: "Ann vs Bob", "Ann vs Anonymous" (names.mjs). */
function playersOf(entry, open = false) {
  return namesOf(entry, open).map(shownName).join(" vs ");
}

/**
 * Returns a row's words: its players' names (each cut with an ellipsis when long, whole in its
 * title: names.mjs), then `more` (words about them: "rated 1500?"), then `rest`.
 */
function rowWords(entry, open, more, rest) {
  const words = document.createElement("span");
  words.className = "entry-words";
  const names = namesOf(entry, open);
  names.forEach((name, index) => words.append(index > 0 ? " vs " : "", nameElement(document, name)));
  // "Ann, rated 1500? · Opened at 14:05". Names are text (a string appended is a text node).
  const lead = names.length > 0 ? more.map((part) => `, ${part}`).join("") : more.join(", ");
  const joint = names.length > 0 || more.length > 0 ? " · " : "";
  words.append(`${lead}${joint}${rest}`);
  return words;
}

function openItem(game, entry) {
  const li = document.createElement("li");
  li.dataset.match = entry.match;
  const link = document.createElement("a");
  link.className = "button";
  const page = pageOf(game);
  link.href = entry.room === null ? `${page}#play` : `${page}#room=${encodeURIComponent(entry.room)}`;
  link.textContent = "Join";
  // The waiting seeker's rating in the game, as shown ("1500?"), when it has one.
  const rating = typeof entry.rating === "string" && entry.rating ? entry.rating : null;
  const who = [playersOf(entry, true), rating === null ? "" : `rated ${rating}`].filter(Boolean).join(", ");
  const by = who ? ` by ${who}` : "";
  link.setAttribute("aria-label", `Join the game opened${by} at ${clockTime(entry.since)}`);
  const more = rating === null ? [] : [`rated ${rating}`];
  li.append(rowWords(entry, true, more, `Opened at ${clockTime(entry.since)}`), " ", link);
  return li;
}

/** Returns the list item of a live or finished match, linking to its replay page. */
function matchItem(entry, verb) {
  const li = document.createElement("li");
  li.dataset.match = entry.match;
  const link = document.createElement("a");
  link.className = "button";
  link.href = `replay.html#match=${encodeURIComponent(entry.match)}`;
  link.textContent = verb;
  const moves = entry.moves === 1 ? "1 move" : `${entry.moves} moves`;
  const who = playersOf(entry);
  link.setAttribute(
    "aria-label",
    `${verb} the match${who ? ` of ${who}` : ""} started at ${clockTime(entry.since)}, ${moves}`,
  );
  li.append(rowWords(entry, false, [], `Started ${clockTime(entry.since)} · ${moves}`), " ", link);
  return li;
}

/** Returns what the lobby says when following it failed for good. */
function failed(error) {
  return error instanceof ConnectionLostError ? lostFor() : `The lobby could not be read: ${error.message}`;
}

/** The longest the game cards wait for their lists' first read before they show, in ms. */
const FIRST_READ_MS = 1000;

/** Follows one game's lobby, redrawing its lists at each change; calls `read` after each read. */
async function follow(client, box, read = () => {}) {
  const game = box.dataset.lobby;
  const open = box.querySelector(".open-list");
  const live = box.querySelector(".live-list");
  const recent = box.querySelector(".recent-list");
  let version = null;
  for (;;) {
    let lobby;
    try {
      lobby = await client.lobby(game, version, version === null ? null : client.timing.pollWait);
    } catch (error) {
      // Given up after minutes of retries: Retry follows again from the lobby's start.
      box.dataset.state = "offline";
      notice.lost(failed(error), () => follow(client, box));
      read();
      return;
    }
    delete box.dataset.state;
    // Unchanged: poll again. (A lower version means the relay's lobby started afresh.)
    if (version !== null && lobby.version === version) continue;
    version = lobby.version;
    items(open, lobby.open, (entry) => openItem(game, entry));
    items(live, lobby.live, (entry) => matchItem(entry, "Watch"));
    items(recent, lobby.recent, (entry) => matchItem(entry, "Replay"));
    // A match just finished may have moved the leaderboard: read it again (at most every few s).
    const board = box.querySelector(".board-list");
    if (board !== null) refreshBoard(client, board, (player) => boardChallenge(player, game));
    box.dataset.version = String(version);
    read();
  }
}

/** This browser's player's public id, once known: its own leaderboard row has no button. */
let mineId = null;

/** Returns the "Challenge" button of a leaderboard row (none for this browser's own). */
function boardChallenge(player, game) {
  if (typeof player.id !== "string" || player.id === mineId) return null;
  return challengeButton(document, dialog, { id: player.id, name: player.name ?? null }, game);
}

/** Returns a game's title, as its card says it, else as the games kept last say it (its key
 * when neither has it). */
function titleOf(game) {
  const card = document.getElementById(`game-${game}`)?.querySelector("h2")?.textContent;
  return card ?? keptGames().find((kept) => kept?.name === game)?.title ?? game;
}

/**
 * Lists the games the relay hosts (GET /v1/games) as cards, each following its lobby. The read
 * is retried through transient faults (a network change, a restarting relay); once the client
 * gives up, the notice offers to try again.
 */
async function showGames(client, list) {
  let games;
  try {
    games = await client.games();
  } catch (error) {
    list.dataset.state = "offline";
    notice.lost(`The games could not be read: ${error.message}`, () => showGames(client, list));
    return;
  }
  keepGames(games);
  knowGames(games);
  gamesRead = games;
  list.replaceChildren(...games.map(gameCard));
  if (games.length === 0) list.append(make("li", { class: "card empty" }, "This relay hosts no game yet."));
  wireCards(list);
  // The cards show whole, once each has read its lists (or after FIRST_READ_MS): lists filled
  // in sight would move what follows them in their cards (a layout shift).
  list.dataset.state = "reading";
  const boxes = [...list.querySelectorAll("[data-lobby]")];
  const reads = boxes.map((box) => new Promise((read) => follow(client, box, read)));
  const late = new Promise((done) => setTimeout(done, FIRST_READ_MS));
  Promise.race([Promise.all(reads), late]).then(() => {
    list.dataset.state = "listed";
  });
}

/** Learns each game's page and view module (GET /v1/games' list). */
function knowGames(games) {
  for (const game of games) pages.set(game.name, game.page);
  for (const game of games) views.set(game.name, game.view ? new URL(game.view, `${client.relay}/`).href : null);
}

const notice = new ConnectionNotice(document.querySelector("main"));
const client = new RelayClient({
  relay: relayBeside(location.href),
  timing: PAGE_TIMING,
  onReachable: (reachable) => {
    document.body.dataset.reachable = String(reachable);
    notice.reconnecting(!reachable);
  },
});
registerWorker();
mineId = await ownId().catch(() => null);
/** The games of the relay (GET /v1/games' list), once read: the challenge dialog offers them. */
let gamesRead = [];
const dialog = new ChallengeDialog(document, client, async () => (gamesRead.length ? gamesRead : client.games()));
const mine = document.getElementById("your-games");
const yourGames =
  mine === null
    ? null
    : new YourGames(mine, client, {
        titleOf,
        pageOf: (game) => pages.get(game),
        viewOf: (game) => views.get(game),
        failed: (error, retry) => notice.lost(failed(error), retry),
        dialog,
      });
// Offline: the games can be played once back online; Your games shows the list read last.
let keptAt = null;
const offline = new OfflineLine(document.querySelector("main"), () => {
  const kept = keptAt === null ? "" : ` Your games shows the list read at ${clockAt(keptAt)}.`;
  return `You are offline: games can be played once you are back online.${kept}`;
});
if (isOffline() && yourGames !== null) {
  knowGames(keptGames());
  keptAt = await yourGames.showKept();
  offline.update();
}

const gameList = document.getElementById("games");
if (gameList !== null) await showGames(client, gameList);

// The way back to a live match of this browser (a tab closed on it), read every few seconds.
const wayBackBox = document.getElementById("way-back");
const wayBackSaid = document.getElementById("way-back-said");
const wayBack =
  wayBackBox === null || wayBackSaid === null
    ? null
    : new WayBack(wayBackBox, wayBackSaid, { client, titleOf, pageOf: (game) => pages.get(game) });
wayBack?.start();

// Challenges to and by this browser's player, followed live on the relay's one wait.
const challengeSection = document.getElementById("challenges");
if (challengeSection !== null) {
  const box = new ChallengeBox(challengeSection, client, {
    titleOf,
    pageOf: (game) => pages.get(game),
    dialog,
    failed: (error, retry) => notice.lost(failed(error), retry),
  });
  box.follow();
  // A browser's first challenge may make its player key: its lists are followed from then.
  dialog.sent = () => box.follow();
}

if (mine !== null && yourGames !== null) {
  yourGames.show();
  const form = mine.querySelector("form");
  // A key refused stays refused only until it is edited: a form whose field holds a custom
  // error is never submitted, so the error must go with the text it was about.
  form.querySelector("input").addEventListener("input", (event) => event.target.setCustomValidity(""));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = form.querySelector("input");
    try {
      usePlayerKey(input.value);
      input.setCustomValidity("");
      input.value = "";
      yourGames.show();
      wayBack?.refresh();
    } catch (error) {
      input.setCustomValidity(error.message);
      input.reportValidity();
    }
  });
}
