// Plays one X and 0 match with the JavaScript host between two seats, against the relay at
// MOVEWIRE_RELAY (an https:// URL in tests/hosting/test_tls_edge.py); prints the outcomes as
// JSON, or the error that stopped it. Node's fetch checks the certificate against the system's
// CAs and NODE_EXTRA_CA_CERTS.

import { randomUUID } from "node:crypto";

import { BoardGame } from "../../relay/pages/board-game.mjs";
import { RelayHost, State, Timing } from "../../relay/pages/movewire.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";
import { until } from "./helpers.mjs";

const room = randomUUID();
const dialogs = [];
const options = {
  relay: process.env.MOVEWIRE_RELAY,
  gameKey: "tls-xand0",
  version: "1",
  room,
  timing: new Timing({ pollWait: 5, giveUp: 3 }),
  createGame: (host, first) => new BoardGame(host, first, x0, { update() {} }),
  onDialog: (text) => dialogs.push(text),
};
// What the runtime's fetch says of the relay's certificate ("" when it is trusted).
let refusal = "";
try {
  await fetch(`${process.env.MOVEWIRE_RELAY}/healthz`);
} catch (error) {
  refusal = String(error.cause?.code ?? error.cause ?? error);
}
const a = new RelayHost(options);
const b = new RelayHost(options);
const playing = [a.play(), b.play()];
try {
  await until(() => (a.game !== null && b.game !== null) || a.outcome || b.outcome, "the start", 8000);
  if (a.game === null || b.game === null) {
    const outcomes = await Promise.all(playing);
    console.log(JSON.stringify({ started: false, refusal, outcomes, dialogs }));
  } else {
    const [first, second] = a.game.firstMove ? [a, b] : [b, a];
    for (const [i, text] of ["00", "10", "11", "20", "22"].entries()) {
      const mover = i % 2 === 0 ? first : second;
      await until(() => mover.state === State.PLAYING_TO_MOVE, `turn ${i}`, 8000);
      mover.game.play(x0.parseMove(text));
    }
    const outcomes = await Promise.all(playing);
    console.log(JSON.stringify({ started: true, refusal, outcomes, dialogs }));
  }
} catch (error) {
  console.log(JSON.stringify({ error: String(error), dialogs }));
  process.exitCode = 1;
}
