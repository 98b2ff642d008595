// The X and 0 page.

import { runPage } from "./play.mjs";
import { GAME } from "./xand0-game.mjs";

runPage(GAME);
