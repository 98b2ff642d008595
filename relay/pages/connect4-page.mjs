// The Connect Four page.

import * as rules from "./connect4.mjs";
import { COLOURS, createConnect4View } from "./connect4-view.mjs";
import { runPage } from "./play.mjs";

runPage({
  key: "connect4",
  version: "1",
  title: "Connect Four",
  rules,
  sides: COLOURS,
  where: (column) => `in column ${column + 1}`,
  taken: "That column is full.",
  createView: createConnect4View,
});
