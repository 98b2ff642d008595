// X and 0 as the relay's shared pages see it: the GAME that its page runs (runPage, the page
// kit's play.mjs) and that the replay page imports to show a match (the package's `view`).

import * as rules from "./xand0.mjs";
import { SYMBOLS, createXand0View } from "./xand0-view.mjs";

/** The game's description for the page kit (docs/javascript.md#the-page-kit). */
export const GAME = Object.freeze({
  key: "xand0",
  version: "1",
  title: "X and 0",
  rules,
  sides: SYMBOLS,
  where: (move) => `at row ${move.row + 1}, column ${move.col + 1}`,
  taken: "That square is taken.",
  stylesheet: new URL("./xand0.css", import.meta.url).href,
  createView: createXand0View,
});
