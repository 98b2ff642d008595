// The Dots and Boxes page.

import { GAME } from "./dots-game.mjs";
import { runPage } from "./play.mjs";

runPage(GAME);
