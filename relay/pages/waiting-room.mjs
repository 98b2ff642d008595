// The waiting room: a seek is withdrawn when its page is left (pagehide: closed, navigated
// away, reloaded), so that nobody is paired with a player who has gone. A page that comes back
// to such a seek (a reload) finds out what became of it: a partner who came before the
// withdrawal is played; otherwise the page seeks afresh, with the same choices.

import { RelayRefusedError } from "./errors.mjs";

/**
 * Sends the withdrawal of each waiting seat in `tickets` as the page goes away: one keepalive
 * request each, which the browser delivers after the page is gone.
 */
export function leaveSeeks(client, tickets) {
  for (const ticket of tickets) client.leave(ticket);
}

/**
 * Resolves what became of a seek withdrawn as its page was left: "resume" (a partner came
 * before the withdrawal: take the match up) or "seek" (withdrawn: seek afresh). The withdrawal
 * is sent once more (repeating it is harmless), in case the first has not reached the relay.
 */
export async function afterLeaving(client, ticket) {
  try {
    await client.cancel(ticket);
    return "seek";
  } catch (error) {
    // 409: a partner came before the withdrawal, and the match went on. Not a refusal: the
    // relay is away, and the resumed seat waits for it like any other.
    if (!(error instanceof RelayRefusedError) || error.status === 409) return "resume";
    return "seek"; // match/expired (withdrawn), match/unknown (forgotten)
  }
}
