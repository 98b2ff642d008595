// An offer made right after this side's own move: made at the position after that move, once
// the relay has it, never refused as stale for a move still on its way. Mirrors
// sdk/host/offering.py and SeatedCalls._offer (docs/sdk.md, "The table").
//
// A host posts its move and goes on at once; the relay applies the move when the post arrives.
// An offer sent meanwhile names a position the relay does not have yet, or one it has moved
// past: the relay refuses it `409 turn/stale`. The log then says which: only this side's own
// moves and passes since, and the offer is made again at the log's end; the own move not yet
// there, and it is waited for, briefly. A partner's move in between is a real change of
// position: the refusal stands.

import { RelayRefusedError } from "./errors.mjs";
import { State } from "./game.mjs";

/** How long an offer waits for this side's own move to reach the relay, in ms. */
export const SETTLE_MS = 3000;

/** Milliseconds between looks while the own move is on its way. */
const STEP_MS = 50;

const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Offers a draw or asks a takeback at the position after this side's own move, if one is being
 * sent: once the move is posted (bounded by SETTLE_MS), and again at the log's end when the
 * relay had the move sooner or later than the offer. Rejects with the relay's refusal when the
 * partner's play changed the position.
 * @param {import("./relay-client.mjs").RelayClient} client
 * @param {import("./relay-client.mjs").Ticket} ticket
 * @param {"draw" | "takeback"} kind
 * @param {{state: number, last: number, cursor: number}} machine the host's machine
 * @returns {Promise<{table: import("./table.mjs").RawTable, after: number}>} the table, and the
 *   position the offer was made at
 */
export async function offerSettled(client, ticket, kind, machine) {
  const deadline = Date.now() + SETTLE_MS;
  while (machine.state === State.WAITING_SERVER_RESPONSE && Date.now() < deadline) await pause(20);
  const after = machine.last;
  const known = Math.min(machine.cursor, after);
  /** @type {unknown} */
  let stale;
  try {
    return { table: await client.offer(ticket, kind, after), after };
  } catch (error) {
    if (!(error instanceof RelayRefusedError) || error.code !== "turn/stale") throw error;
    stale = error;
  }
  for (;;) {
    const later = await client.events(ticket, known, 0);
    const last = later.at(-1)?.seq ?? known;
    if (last === after) break;
    if (last > after) {
      const own = later.every((event) => (event.type === "move" || event.type === "pass") && event.seat === ticket.seat);
      if (!own) throw stale; // the partner's play changed the position: the offer lapsed
      return { table: await client.offer(ticket, kind, last), after: last };
    }
    if (Date.now() > deadline) throw stale;
    await pause(STEP_MS); // this side's move is still on its way to the relay
  }
  return { table: await client.offer(ticket, kind, after), after };
}
