// The Connect Four page.

import { GAME } from "./connect4-game.mjs";
import { runPage } from "./play.mjs";

runPage(GAME);
