// The Dots and Boxes page.

import { createDotsView } from "./dots-view.mjs";
import * as rules from "./dots.mjs";
import { runPage } from "./play.mjs";

runPage({
  key: "dots",
  version: "1",
  title: "Dots and Boxes",
  rules,
  sides: ["X", "O"],
  where: (move) => `the line ${rules.formatMove(move)}`,
  createView: createDotsView,
});
