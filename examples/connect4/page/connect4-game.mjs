// Connect Four as the relay's shared pages see it: the GAME that its page runs (runPage, the
// page kit's play.mjs) and that the replay page imports to show a match (the package's `view`).

import * as rules from "./connect4.mjs";
import { COLOURS, createConnect4View } from "./connect4-view.mjs";

/** The game's description for the page kit (docs/javascript.md#the-page-kit). */
export const GAME = Object.freeze({
  key: "connect4",
  version: "1",
  title: "Connect Four",
  rules,
  sides: COLOURS,
  where: (column) => `in column ${column + 1}`,
  taken: "That column is full.",
  stylesheet: new URL("./connect4.css", import.meta.url).href,
  createView: createConnect4View,
});
