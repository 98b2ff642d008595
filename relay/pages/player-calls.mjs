// The calls of a player key (docs/protocol.md, "Player keys"): its matches, its ratings and
// the leaderboards, and the keys it blocked or muted; and the relay's list of games. RelayClient (relay-client.mjs) has them
// with the match's calls. No DOM.

import { ProtocolError } from "./errors.mjs";
import { NOT_AN_ANSWER, Transport } from "./transport.mjs";

/**
 * One key a player blocked or muted (GET and POST /v1/player/blocks): its public `id` (12
 * characters), the `name` it had when blocked (null: none), the `kind` ("block": never paired
 * again and its chat hidden; "mute": its chat hidden only), and `at` when (seconds since the
 * epoch).
 * @typedef {{readonly id: string, readonly name: string | null, readonly kind: "block" | "mute",
 *   readonly at: number}} Blocked
 */

/**
 * Returns a blocks answer's list, each entry checked; throws ProtocolError if it is not one.
 * @param {any} answer
 * @returns {readonly Blocked[]}
 */
function checkedBlocks(answer) {
  const entries = answer?.blocks;
  const good = (/** @type {any} */ entry) =>
    typeof entry?.id === "string" &&
    (entry.name === null || typeof entry.name === "string") &&
    (entry.kind === "block" || entry.kind === "mute") &&
    typeof entry.at === "number";
  if (!Array.isArray(entries) || !entries.every(good)) throw new ProtocolError(NOT_AN_ANSWER("blocks", answer));
  return Object.freeze(
    entries.map((/** @type {any} */ entry) =>
      Object.freeze({ id: entry.id, name: entry.name, kind: entry.kind, at: entry.at }),
    ),
  );
}

/** Speaks the calls of a player key to one relay (see Transport for the retries). */
export class PlayerCalls extends Transport {
  /**
   * Returns the matches a player key seated that the relay still holds, as it lists them
   * (GET /v1/player/matches): the key's turn first, then the partner's, waiting, finished.
   * @param {string} player
   * @param {AbortSignal} [signal]
   * @returns {Promise<any[]>}
   */
  async playerMatches(player, signal = undefined) {
    const answer = await this.call("GET", "/v1/player/matches", player, null, { signal });
    if (!Array.isArray(answer?.matches)) {
      throw new ProtocolError(NOT_AN_ANSWER("player matches", answer));
    }
    return answer.matches;
  }

  /**
   * Returns the games the relay hosts (GET /v1/games), each as the relay describes it ({name,
   * title, summary, page, view, ...}), retried through transient faults as every call is.
   * @param {AbortSignal} [signal]
   * @returns {Promise<any[]>}
   */
  async games(signal = undefined) {
    const answer = await this.call("GET", "/v1/games", null, null, { signal });
    if (!Array.isArray(answer?.games)) throw new ProtocolError(NOT_AN_ANSWER("games", answer));
    return answer.games;
  }

  /**
   * Returns the game's leaderboard (GET /v1/games/{game}/leaderboard): {game, players: [{rank,
   * id, name, rating, deviation, games, shown}]}, established ratings only, best first (at
   * most `limit`; the relay's default when null).
   * @param {string} game @param {number | null} [limit] @param {AbortSignal} [signal]
   * @returns {Promise<{game: string, players: {rank: number, id: string, name: string | null,
   *   rating: number, deviation: number, games: number, shown: string}[]}>}
   */
  async leaderboard(game, limit = null, signal = undefined) {
    let path = `/v1/games/${encodeURIComponent(game)}/leaderboard`;
    if (limit !== null && limit !== undefined) path += `?limit=${limit}`;
    const answer = await this.call("GET", path, null, null, { signal });
    if (!Array.isArray(answer?.players)) throw new ProtocolError(NOT_AN_ANSWER("leaderboard", answer));
    return answer;
  }

  /**
   * Returns a player key's ratings (GET /v1/player/ratings): one per game it played rated
   * (`game` only, when given), each {game, rating, deviation, games, provisional, shown, at,
   * history: [{match, at, score, before, after, opponent}], newest first}; [] for an unknown key.
   * @param {string} player @param {string | null} [game] @param {AbortSignal} [signal]
   * @returns {Promise<{game: string, rating: number, deviation: number, games: number,
   *   provisional: boolean, shown: string, at: number, history: {match: string, at: number,
   *   score: number, before: number, after: number, opponent: number}[]}[]>}
   */
  async ratings(player, game = null, signal = undefined) {
    let path = "/v1/player/ratings";
    if (game !== null && game !== undefined) path += `?game=${encodeURIComponent(game)}`;
    const answer = await this.call("GET", path, player, null, { signal });
    if (!Array.isArray(answer?.ratings)) throw new ProtocolError(NOT_AN_ANSWER("ratings", answer));
    return answer.ratings;
  }

  /**
   * Returns the keys a player key blocked or muted (GET /v1/player/blocks), newest first.
   * @param {string} player the player key
   * @param {AbortSignal} [signal]
   * @returns {Promise<readonly Blocked[]>}
   */
  async blocks(player, signal = undefined) {
    return checkedBlocks(await this.call("GET", "/v1/player/blocks", player, null, { signal }));
  }

  /**
   * Blocks (`kind` "block": never paired again, its chat hidden) or mutes ("mute": its chat
   * hidden only) the key that sat opposite the player key in `match` (POST /v1/player/blocks);
   * a block replaces a mute and the other way round. Returns the key's blocks and mutes now.
   * The key must have sat in the match (player/not_seated), the partner with a key of its own
   * (block/no_key).
   * @param {string} player the player key
   * @param {string} match
   * @param {"block" | "mute"} kind
   * @returns {Promise<readonly Blocked[]>}
   */
  async block(player, match, kind) {
    return checkedBlocks(await this.call("POST", "/v1/player/blocks", player, { kind, match }));
  }

  /**
   * Lifts the player key's block or mute of the public `id`; returns its blocks and mutes now.
   * @param {string} player the player key
   * @param {string} id the public id blocked or muted
   * @returns {Promise<readonly Blocked[]>}
   */
  async unblock(player, id) {
    return checkedBlocks(await this.call("POST", "/v1/player/blocks", player, { kind: "none", id }));
  }

}
