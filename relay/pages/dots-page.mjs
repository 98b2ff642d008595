// The Dots and Boxes page.

import { createDotsView, lineWords } from "./dots-view.mjs";
import * as rules from "./dots.mjs";
import { runPage } from "./play.mjs";

runPage({
  key: "dots",
  version: "1",
  title: "Dots and Boxes",
  rules,
  sides: ["X", "O"],
  where: lineWords,
  said: (who, side, move) => `${who} drew ${lineWords(move)}.`,
  taken: "That line is drawn already.",
  createView: createDotsView,
});
