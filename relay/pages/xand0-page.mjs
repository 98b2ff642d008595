// The X and 0 page.

import { runPage } from "./play.mjs";
import * as rules from "./xand0.mjs";
import { SYMBOLS, createXand0View } from "./xand0-view.mjs";

runPage({
  key: "xand0",
  version: "1",
  title: "X and 0",
  rules,
  sides: SYMBOLS,
  where: (move) => `at row ${move.row + 1}, column ${move.col + 1}`,
  taken: "That square is taken.",
  createView: createXand0View,
});
