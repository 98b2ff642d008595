// Ratings as a page shows them: a seek's rating range, a rating's change and history in
// words. Pure functions: no DOM, no networking (docs/ratings.md).

/**
 * @typedef {{within?: number, min?: number, max?: number}} RatingRange the ratings an opponent
 *   may have: `within` points of the seeker's own, or from `min` to `max` (either may be left out)
 */

/** The message of a rating range that is none. @param {unknown} given */
export const BAD_RANGE = (given) =>
  "a rating range is within=N (1 to 4000) alone, or min and/or max (0 to 4000, min at most " +
  `max), not ${JSON.stringify(given)}`;

/**
 * Returns whether a value is a whole number from `low` to 4000.
 * @param {unknown} value @param {number} low
 */
function whole(value, low) {
  return Number.isInteger(value) && /** @type {number} */ (value) >= low && /** @type {number} */ (value) <= 4000;
}

/**
 * Returns a seek's `rating_range` field for a range; throws RangeError for one the relay
 * would refuse.
 * @param {RatingRange} range
 * @returns {{within: number} | {min?: number, max?: number}}
 */
export function ratingRangeJson(range) {
  const { within, min, max } = range ?? {};
  const bounds = [min, max].filter((value) => value !== undefined && value !== null);
  if (within !== undefined && within !== null) {
    if (bounds.length > 0 || !whole(within, 1)) throw new RangeError(BAD_RANGE(range));
    return { within };
  }
  const good = bounds.length > 0 && bounds.every((value) => whole(value, 0));
  if (!good || (bounds.length === 2 && /** @type {number} */ (min) > /** @type {number} */ (max))) {
    throw new RangeError(BAD_RANGE(range));
  }
  /** @type {{min?: number, max?: number}} */
  const json = {};
  if (min !== undefined && min !== null) json.min = min;
  if (max !== undefined && max !== null) json.max = max;
  return json;
}

/**
 * Returns a rating change in words: "1500 → 1742 (+242)", whole points rounded down as the
 * relay shows ratings.
 * @param {number} before @param {number} after
 */
export function changeWords(before, after) {
  const from = Math.floor(before);
  const to = Math.floor(after);
  const delta = to - from;
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  return `${from} → ${to} (${sign}${Math.abs(delta)})`;
}

/**
 * Returns a rated game's score in words: "won", "drawn" or "lost".
 * @param {number} score 1, 0.5 or 0
 */
export function scoreWords(score) {
  return score > 0.5 ? "won" : score < 0.5 ? "lost" : "drawn";
}
