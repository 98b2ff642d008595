// The elements of a game page that play.mjs drives, found by id once as the page starts.

/** Returns the element with `id`; throws when the page has none. */
export function byId(/** @type {Document} */ document, /** @type {string} */ id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element;
}

/** @typedef {ReturnType<typeof pageElements>} PageElements */

/**
 * Returns the game page's elements by role (those only some pages have are null when absent).
 * @param {Document} document
 */
export function pageElements(document) {
  return {
    status: byId(document, "status"),
    you: byId(document, "you"),
    // How a rated match moved this side's rating, once it is over and rated.
    ratingChange: byId(document, "rating-change"),
    start: byId(document, "start"),
    random: byId(document, "play-random"),
    private: byId(document, "play-private"),
    share: byId(document, "share"),
    shareLink: /** @type {HTMLInputElement} */ (byId(document, "share-link")),
    copy: byId(document, "copy-link"),
    board: byId(document, "board"),
    last: byId(document, "last-move"),
    resign: byId(document, "resign"),
    cancel: byId(document, "cancel"),
    again: byId(document, "again"),
    confirm: /** @type {HTMLDialogElement} */ (byId(document, "confirm-resign")),
    computer: document.getElementById("play-computer"), // on pages that offer the computer
    level: /** @type {HTMLSelectElement | null} */ (document.getElementById("computer-level")),
    rematch: byId(document, "rematch"),
    rematchStatus: byId(document, "rematch-status"),
    rematchOffer: byId(document, "rematch-offer"),
    rematchAccept: byId(document, "rematch-accept"),
    rematchDecline: byId(document, "rematch-decline"),
    timeControl: /** @type {HTMLSelectElement} */ (byId(document, "time-control")),
    // "Rated" (a random opponent's seek only: casual, rated, or rated near one's rating).
    near: /** @type {HTMLSelectElement | null} */ (document.getElementById("near-rating")),
    clocks: byId(document, "clocks"),
    retry: byId(document, "retry"),
    toLobby: byId(document, "to-lobby"),
    sound: /** @type {HTMLInputElement} */ (byId(document, "turn-sound")),
    notify: byId(document, "turn-notify"),
    hint: byId(document, "hint"),
    computerAgain: byId(document, "computer-again"),
    againComputer: byId(document, "again-computer"),
    againLevel: /** @type {HTMLSelectElement} */ (byId(document, "again-level")),
  };
}
