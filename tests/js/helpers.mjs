// Shared test helpers: a game that records what its host does to it, and bounded waiting.

import { Game, RelayHost, State } from "../../relay/pages/movewire.mjs";

/** A Game that records every call; receiveMove answers with `answer(text)`. */
export class RecordingGame extends Game {
  constructor(host, firstMove, answer = () => State.PLAYING_TO_MOVE) {
    super(host, firstMove);
    this.calls = [];
    this.answer = answer;
  }

  enable() {
    this.calls.push("enable");
  }

  disable() {
    this.calls.push("disable");
  }

  receiveMove(text) {
    this.calls.push(`receive:${text}`);
    return this.answer(text);
  }

  restore(history) {
    const words = history.map((p) => `${p.mine ? "mine" : "theirs"}:${p.isPass ? "pass" : p.move}`);
    this.calls.push(`restore:${words.join(",")}`);
  }

  /** Returns the moves received, in order. */
  get received() {
    return this.calls.filter((c) => c.startsWith("receive:")).map((c) => c.slice(8));
  }
}

/** Resolves once predicate() holds; rejects naming `what` after timeoutMs. */
export async function until(predicate, what, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Returns a clock whose sleeps take no time but move `now` on, recording each delay. */
export function fakeClock() {
  const clock = {
    t: 0,
    delays: [],
    now: () => clock.t,
    sleep: async (ms) => {
      clock.delays.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

/**
 * Returns a RelayHost whose dialogs and states are recorded on it (its fake time as `time`);
 * `resume` takes a ticket.
 */
export function recordingHost(options) {
  const record = { dialogs: [], states: [], tickets: [] };
  const clock = fakeClock();
  const settings = {
    gameKey: "test",
    version: "1",
    clock,
    createGame: (h, first) => new RecordingGame(h, first, options.answer),
    onDialog: (text) => record.dialogs.push(text),
    onState: (state) => record.states.push(state),
    onTicket: (ticket) => record.tickets.push(ticket),
    ...options,
  };
  const host = options.resume
    ? RelayHost.resume(options.resume, settings)
    : new RelayHost(settings);
  return Object.assign(host, { record, time: clock });
}

/** Starts two hosts seeking the same game; resolves when both games exist. */
export async function pair(relay, options = {}) {
  const a = recordingHost({ fetch: relay.fetch, ...options, ...(options.a ?? {}) });
  const b = recordingHost({ fetch: relay.fetch, ...options, ...(options.b ?? {}) });
  a.done = a.play();
  await until(() => a.ticket !== null, "the first seat");
  b.done = b.play();
  await until(() => a.game !== null && b.game !== null, "both games");
  return [a, b];
}

/** A Web Storage stand-in: localStorage's getItem, setItem and removeItem over a Map. */
export class MemoryStorage {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}
