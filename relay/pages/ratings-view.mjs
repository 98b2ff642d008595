// Ratings in the lobby: each game card's leaderboard (GET /v1/games/{game}/leaderboard),
// "Your games"' ratings with their recent history (GET /v1/player/ratings), and the choice
// of opponents near one's rating for "Play a random opponent" (docs/ratings.md). Names and
// ratings are text, never markup.

import { nameElement } from "./names.mjs";
import { changeWords, scoreWords } from "./ratings.mjs";

/** How many players a card's leaderboard lists. */
export const BOARD_SIZE = 10;
/** What an empty leaderboard says. */
export const NO_RATED = "No rated players yet.";
/** What "Your games" says without a rating. */
export const NO_RATINGS = "No rated games yet.";
/** How many rated games of a rating's history "Your games" shows. */
export const HISTORY_SHOWN = 5;
/** The least time between two reads of one game's leaderboard, in milliseconds. */
const BOARD_EVERY_MS = 5000;

/**
 * The choices of "Rated" beside "Play a random opponent": [value, words]. "" is a casual match
 * (no player key, not rated: two tabs of one browser can meet, as a key never meets itself);
 * "any" is rated against anyone; a number is rated against opponents within that many points.
 */
export const NEAR_CHOICES = Object.freeze([
  ["", "No (casual)"],
  ["any", "Yes, any rating"],
  ["100", "Yes, within ±100"],
  ["200", "Yes, within ±200"],
  ["400", "Yes, within ±400"],
]);

/**
 * Returns the fragment a "Rated" choice adds to "Play a random opponent": "" for casual,
 * "&rated=1" for any rating, "&within=N" near one's own.
 * @param {string} value
 */
export function ratedFragment(value) {
  if (value === "") return "";
  return value === "any" ? "&rated=1" : `&within=${value}`;
}

/**
 * Returns the leaderboard's heading and list for a game card (`kind` "board"), empty for now.
 * @param {string} name the game key
 * @returns {[HTMLElement, HTMLElement]}
 */
export function boardList(name) {
  const title = document.createElement("h3");
  title.id = `board-${name}`;
  title.textContent = "Leaderboard";
  const list = document.createElement("ol");
  list.className = "board-list";
  list.dataset.board = name;
  list.setAttribute("aria-labelledby", title.id);
  list.setAttribute("aria-live", "polite");
  list.append(emptyItem(NO_RATED));
  return [title, list];
}

/**
 * Returns the "Rated" choice beside a card's "Play a random opponent" link: choosing rated play
 * makes the link seek with the player key (#play&rated=1), or within that many points of the
 * player's rating (#play&within=N).
 * @param {HTMLAnchorElement} link the card's "Play a random opponent"
 * @param {string} title the game's title, for the label
 */
export function nearChoice(link, title) {
  const select = document.createElement("select");
  select.dataset.near = "";
  select.setAttribute("aria-label", `Rated at ${title}`);
  for (const [value, words] of NEAR_CHOICES) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = words;
    select.append(option);
  }
  const base = link.getAttribute("href") ?? "";
  select.addEventListener("change", () => {
    link.href = base + ratedFragment(select.value);
  });
  const label = document.createElement("label");
  label.className = "near-choice";
  label.append("Rated ", select);
  return label;
}

/** Returns a list's item saying it is empty. @param {string} text */
function emptyItem(text) {
  const li = document.createElement("li");
  li.className = "empty";
  li.textContent = text;
  return li;
}

/**
 * Returns the list item of one player of a leaderboard: "1. Ann · 1873 · 30 games".
 * @param {{rank: number, id?: string, name?: string | null, shown: string, games: number}} player
 * @param {((player: any) => Node | null) | null} [extra] what to add to the row (a button)
 */
export function boardItem(player, extra = null) {
  const li = document.createElement("li");
  li.dataset.rank = String(player.rank);
  const games = player.games === 1 ? "1 game" : `${player.games} games`;
  // A name as every page shows it (names.mjs): "Anonymous" for none, a long one cut. One
  // span: the lobby's rows are flex boxes, whose items would be spread apart.
  const words = document.createElement("span");
  words.className = "entry-words";
  words.append(`${player.rank}. `, nameElement(document, player.name || null), ` · ${player.shown} · ${games}`);
  li.append(words);
  // The lobby's "Challenge" button, for a player with an id (not this browser's own).
  const more = extra?.(player);
  if (more) li.append(" ", more);
  return li;
}

/** When each game's leaderboard was last read, and the read waiting for its turn. */
const boards = new Map();

/**
 * Reads a game's leaderboard into its list, at most once every few seconds (a later call
 * within them reads once they are over); a failed read keeps what the list shows.
 * @param {{leaderboard(game: string, limit?: number | null): Promise<{players: any[]}>}} client
 * @param {HTMLElement} list the card's `.board-list`
 * @param {((player: any) => Node | null) | null} [extra] what to add to each row (boardItem)
 */
export function refreshBoard(client, list, extra = null) {
  const game = list.dataset.board ?? "";
  const known = boards.get(game) ?? { at: -Infinity, timer: null };
  boards.set(game, known);
  if (known.timer !== null) return;
  const wait = Math.max(0, known.at + BOARD_EVERY_MS - Date.now());
  known.timer = setTimeout(async () => {
    known.at = Date.now();
    try {
      const { players } = await client.leaderboard(game, BOARD_SIZE);
      const top = players.slice(0, BOARD_SIZE);
      list.replaceChildren(...(top.length === 0 ? [emptyItem(NO_RATED)] : top.map((player) => boardItem(player, extra))));
      list.dataset.state = "listed";
    } catch {
      // A relay without ratings, or away for now: the list keeps what it shows.
    } finally {
      known.timer = null;
    }
  }, wait);
}

/**
 * Returns the list item of one of the player's ratings: "Connect Four: 1742? · 1 game", and
 * its latest rated matches, each with its change, the opponent's rating and its replay.
 * @param {{game: string, shown: string, games: number, provisional: boolean,
 *   history?: {match: string, score: number, before: number, after: number, opponent: number}[]}} rating
 * @param {string} title the game's title
 */
export function ratingItem(rating, title) {
  const li = document.createElement("li");
  li.className = "rating";
  li.dataset.game = rating.game;
  const games = rating.games === 1 ? "1 rated game" : `${rating.games} rated games`;
  const head = document.createElement("span");
  head.className = "rating-head";
  head.append(`${title}: `);
  const shown = document.createElement("strong");
  shown.className = "rating-value";
  shown.textContent = rating.shown;
  if (rating.provisional) shown.title = "Provisional: a few more games make it sure";
  head.append(shown, ` · ${games}`);
  li.append(head);
  const history = (rating.history ?? []).slice(0, HISTORY_SHOWN);
  if (history.length > 0) {
    const list = document.createElement("ul");
    list.className = "rating-history";
    list.setAttribute("aria-label", `Your latest rated games of ${title}`);
    for (const game of history) {
      const item = document.createElement("li");
      item.dataset.match = game.match;
      const opponent = Math.floor(game.opponent);
      const said = `${scoreWords(game.score)} against ${opponent}: ${changeWords(game.before, game.after)}`;
      const link = document.createElement("a");
      link.className = "button";
      link.href = `replay.html#match=${encodeURIComponent(game.match)}`;
      link.textContent = "Replay";
      link.setAttribute("aria-label", `Replay the ${title} match ${said}`);
      item.append(`${said[0].toUpperCase()}${said.slice(1)} `, link);
      list.append(item);
    }
    li.append(list);
  }
  return li;
}

/**
 * Shows the player's ratings in "Your games"' `.ratings-list`; a relay without ratings (or
 * one away) leaves it saying there are none.
 * @param {{ratings(player: string): Promise<any[]>}} client
 * @param {HTMLElement} list
 * @param {string | null} key the player key, or null
 * @param {(game: string) => string} titleOf a game's title by its key
 */
export async function showRatings(client, list, key, titleOf) {
  let ratings = [];
  if (key !== null) {
    try {
      ratings = await client.ratings(key);
    } catch {
      ratings = [];
    }
  }
  list.replaceChildren(
    ...(ratings.length === 0 ? [emptyItem(NO_RATINGS)] : ratings.map((r) => ratingItem(r, titleOf(r.game)))),
  );
  list.dataset.state = "listed";
}
