// Moves posted held for the reply (?wait=): one request per move, one request per seat at a
// time, and every event handed to the game once, in order, whatever answers are lost.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import { Game, RelayHost, State, Timing } from "../../relay/pages/movewire.mjs";
import { FakeRelay } from "./fake_relay.mjs";
import { until } from "./helpers.mjs";

const RELAY = process.env.MOVEWIRE_RELAY;
const skip = RELAY ? false : "MOVEWIRE_RELAY names no relay (pytest runs this suite with one)";
const ROUNDS = 10;
const MOVE = (method, path) => method === "POST" && path.endsWith("/moves");

/** A bot that moves from enable() itself, as a computer player does, and records replies. */
class Bot extends Game {
  constructor(host, firstMove, thinkMs = null) {
    super(host, firstMove);
    this.thinkMs = thinkMs;
    this.moves = firstMove
      ? [...Array.from({ length: ROUNDS }, (_, i) => `a${i}`), "a-end!"]
      : Array.from({ length: ROUNDS }, (_, i) => `b${i}`);
    this.received = [];
  }

  enable() {
    const move = this.moves.shift();
    if (this.thinkMs === null) this.host.move(move, move.endsWith("!"));
    else setTimeout(() => this.host.move(move, move.endsWith("!")), this.thinkMs);
  }

  disable() {}

  receiveMove(text) {
    this.received.push(text);
    return text.endsWith("!") ? State.GAME_ENDED : State.PLAYING_TO_MOVE;
  }
}

const ORDER = Array.from({ length: ROUNDS }, (_, i) => [`a${i}`, `b${i}`]).flat().concat("a-end!");

/** Wraps a fetch, recording each request's line and each seat's requests in flight. */
function counting(fetchFn) {
  const seen = { lines: [], inFlight: new Map(), most: new Map() };
  seen.fetch = async (url, init = {}) => {
    const { pathname, search } = new URL(url, "http://fake");
    seen.lines.push(`${init.method ?? "GET"} ${pathname}${search}`);
    const token = init.headers?.Authorization;
    if (token) {
      const now = (seen.inFlight.get(token) ?? 0) + 1;
      seen.inFlight.set(token, now);
      seen.most.set(token, Math.max(now, seen.most.get(token) ?? 0));
    }
    try {
      const response = await fetchFn(url, init);
      const text = await response.text();
      return new Response(text, { status: response.status, headers: response.headers });
    } finally {
      if (token) seen.inFlight.set(token, seen.inFlight.get(token) - 1);
    }
  };
  return seen;
}

async function playBots(settings) {
  const room = randomUUID();
  const make = () =>
    new RelayHost({
      gameKey: "js-bots",
      version: "1",
      room,
      createGame: (h, first) => new Bot(h, first),
      onDialog: () => {},
      ...settings,
    });
  const a = make();
  const b = make();
  const aDone = a.play();
  await until(() => a.ticket !== null, "the first seat", 5000);
  const outcomes = await Promise.all([aDone, b.play()]);
  return [a.game.firstMove ? [a, b] : [b, a], outcomes];
}

function checkDelivered([first, second], outcomes) {
  assert.deepEqual(outcomes.map((o) => o.reason), ["agreed", "agreed"]);
  assert.deepEqual(second.game.received, ORDER.filter((_, i) => i % 2 === 0));
  assert.deepEqual(first.game.received, ORDER.filter((_, i) => i % 2 === 1));
}

describe("held move posts, on the fake relay", () => {
  test("each move is one request, and polls do not grow with the match", async () => {
    const relay = new FakeRelay();
    const seen = counting(relay.fetch);
    const [hosts, outcomes] = await playBots({ fetch: seen.fetch, timing: new Timing({ pollWait: 5 }) });
    checkDelivered(hosts, outcomes);
    const held = seen.lines.filter((l) => /^POST .*\/moves\?wait=5&table=\d+&chat=\d+$/.test(l));
    const polls = seen.lines.filter((l) => l.startsWith("GET") && l.includes("/events?"));
    assert.equal(held.length, ORDER.length);
    assert.equal(seen.lines.filter((l) => /\/moves$/.test(l)).length, 0, "no plain move post");
    assert.ok(polls.length <= 6, polls.join("\n"));
  });

  test("a seat never holds two requests at once", async () => {
    const relay = new FakeRelay();
    const [hosts, outcomes] = await playBots({ fetch: relay.fetch, timing: new Timing({ pollWait: 5 }) });
    checkDelivered(hosts, outcomes);
    assert.equal(relay.mostInFlight.size, 2);
    assert.deepEqual([...relay.mostInFlight.values()], [1, 1]);
  });

  test("lost, refused (429, 503) held moves are retried and skip or repeat no event", async () => {
    const relay = new FakeRelay();
    relay.failNext(MOVE, "lost", 6);
    relay.failNext(MOVE, { status: 429, code: "limit/polls", retryAfter: 0 }, 2);
    relay.failNext(MOVE, { status: 503, code: "server/unavailable" }, 2);
    const fast = new Timing({ pollWait: 5, backoffBase: 0.001, backoffCap: 0.01 });
    const [hosts, outcomes] = await playBots({ fetch: relay.fetch, timing: fast });
    checkDelivered(hosts, outcomes);
    assert.equal(relay.faults.reduce((n, f) => n + f.times, 0), 0, "every fault was met");
    const log = relay.matches.get(hosts[0].ticket.match).log;
    assert.deepEqual(log.filter((e) => e.type === "move").map((e) => e.move), ORDER);
  });

  test("held moves that run out with no reply hand on every reply once", async () => {
    // The relay holds 5 ms, each game thinks 15 ms: every held post runs out empty, and the
    // reply comes through the poll that follows it.
    const relay = new FakeRelay({ holdMs: 5 });
    const seen = counting(relay.fetch);
    const [hosts, outcomes] = await playBots({
      fetch: seen.fetch,
      timing: new Timing({ pollWait: 1 }),
      createGame: (h, first) => new Bot(h, first, 15),
    });
    checkDelivered(hosts, outcomes);
    const held = seen.lines.filter((l) => /^POST .*\/moves\?wait=1&table=\d+&chat=\d+$/.test(l));
    assert.equal(held.length, ORDER.length);
    assert.ok(seen.lines.filter((l) => l.includes("/events?")).length >= ORDER.length);
  });
});

describe("held move posts, on a real relay", { skip }, () => {
  test("each move is one request, and a seat holds one request at a time", async () => {
    const seen = counting(globalThis.fetch);
    const [hosts, outcomes] = await playBots({
      relay: RELAY,
      fetch: seen.fetch,
      timing: new Timing({ pollWait: 5 }),
    });
    checkDelivered(hosts, outcomes);
    const held = seen.lines.filter((l) => /^POST .*\/moves\?wait=5&table=\d+&chat=\d+$/.test(l));
    assert.equal(held.length, ORDER.length);
    assert.ok(seen.lines.filter((l) => l.includes("/events?")).length <= 6, seen.lines.join("\n"));
    assert.deepEqual([...seen.most.values()], [1, 1]);
  });
});
