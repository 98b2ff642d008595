// Dots and Boxes as the relay's shared pages see it: the GAME that its page runs (runPage, the
// page kit's play.mjs) and that the replay page imports to show a match (the package's `view`).

import { createDotsView, lineWords } from "./dots-view.mjs";
import * as rules from "./dots.mjs";

/** The game's description for the page kit (docs/javascript.md#the-page-kit). */
export const GAME = Object.freeze({
  key: "dots",
  version: "1",
  title: "Dots and Boxes",
  rules,
  sides: ["X", "O"],
  where: lineWords,
  said: (who, side, move) => `${who} drew ${lineWords(move)}.`,
  taken: "That line is drawn already.",
  stylesheet: new URL("./dots.css", import.meta.url).href,
  createView: createDotsView,
});
