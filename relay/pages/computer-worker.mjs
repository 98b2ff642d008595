// The computer's thinking, in a module Web Worker so that the page stays responsive: it is
// sent {id, game, level, moves[, budget]} (the match's moves so far, as move strings), loads
// the game's engine module by URL (computer-engines.mjs) and answers {id, move} with the
// computer's move string, or {id, error}.

import { answer } from "./computer-engines.mjs";

self.addEventListener("message", async ({ data }) => self.postMessage(await answer(data)));
