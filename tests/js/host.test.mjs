// The JavaScript RelayHost's state machine, driven through an in-memory protocol v1 fake.
// The same behaviours as the Python SDK's tests/sdk/test_state_machine.py and test_faults.py.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as endings from "../../relay/pages/endings.mjs";
import {
  HostStateError,
  NotYourTurnError,
  Reason,
  Result,
  State,
  STATE_NAMES,
  Timing,
} from "../../relay/pages/movewire.mjs";
import { FakeRelay } from "./fake_relay.mjs";
import { pair, recordingHost, until } from "./helpers.mjs";

const POLL = (method, path) => method === "GET" && path.endsWith("/events");
const MOVE = (method, path) => method === "POST" && path.endsWith("/moves");

async function turns(a, b, moves) {
  for (const [i, text] of moves.entries()) {
    const [mover, other] = i % 2 === 0 ? [a, b] : [b, a];
    await until(() => mover.state === State.PLAYING_TO_MOVE, `turn ${i}`);
    mover.move(text);
    await until(() => other.game.received.at(-1) === text, `move ${i} received`);
  }
}

describe("State", () => {
  test("has the six FMNetGames values", () => {
    assert.deepEqual(
      { ...State },
      {
        NOT_CONNECTED: 0,
        LISTENING: 1,
        PLAYING_TO_MOVE: 2,
        PLAYING_WAIT_MOVE: 3,
        WAITING_SERVER_RESPONSE: 4,
        GAME_ENDED: 5,
      },
    );
    assert.equal(STATE_NAMES[State.GAME_ENDED], "GAME_ENDED");
    assert.ok(Object.isFrozen(State));
  });
});

describe("RelayHost", () => {
  test("listens after seeking, then enables the first mover and disables the other", async () => {
    const relay = new FakeRelay({ coin: 1 });
    const a = recordingHost({ fetch: relay.fetch });
    assert.equal(a.state, State.NOT_CONNECTED);
    a.play();
    await until(() => a.ticket !== null, "a seat");
    assert.equal(a.state, State.LISTENING);
    assert.deepEqual(a.record.tickets, [a.ticket]);
    const b = recordingHost({ fetch: relay.fetch });
    b.play();
    await until(() => a.game !== null && b.game !== null, "both games");
    // The coin gave seat 1 (b) the first move.
    assert.equal(b.game.firstMove, true);
    assert.equal(a.game.firstMove, false);
    assert.equal(b.state, State.PLAYING_TO_MOVE);
    assert.equal(a.state, State.PLAYING_WAIT_MOVE);
    assert.deepEqual(b.game.calls, ["enable"]);
    assert.deepEqual(a.game.calls, ["disable"]);
    assert.deepEqual(a.record.states, [State.LISTENING, State.PLAYING_WAIT_MOVE]);
    a.close();
    b.close();
  });

  test("a move out of turn throws NotYourTurnError and sends nothing", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    const before = relay.count("POST");
    assert.throws(() => b.move("11"), NotYourTurnError);
    assert.equal(relay.count("POST"), before);
    assert.equal(b.state, State.PLAYING_WAIT_MOVE);
    // A move sent and not yet answered: a second one is out of turn too.
    a.move("00");
    assert.equal(a.state, State.WAITING_SERVER_RESPONSE);
    assert.throws(() => a.move("01"), NotYourTurnError);
    assert.throws(() => a.move("\uD800"), RangeError, "a lone surrogate is not text");
    assert.throws(() => a.move(11), TypeError);
    await until(() => b.state === State.PLAYING_TO_MOVE, "b's turn");
    assert.equal(relay.count("POST /v1/matches/m1/moves"), 1);
    a.close();
    b.close();
  });

  test("a move waits for the relay, then the partner receives it once and is enabled", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    a.move("11");
    assert.equal(a.state, State.WAITING_SERVER_RESPONSE);
    assert.deepEqual(a.game.calls, ["enable", "disable"]);
    await until(() => a.state === State.PLAYING_WAIT_MOVE, "a accepted");
    await until(() => b.state === State.PLAYING_TO_MOVE, "b's turn");
    assert.deepEqual(b.game.calls, ["disable", "receive:11", "enable"]);
    b.move("00");
    await until(() => a.state === State.PLAYING_TO_MOVE, "a's turn again");
    assert.deepEqual(a.game.received, ["00"]);
    assert.equal(a.cursor, 3);
    a.close();
    b.close();
  });

  test("moves travel byte-exact, whatever text they hold", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    const text = 'ünïcode 🎲 "quoted" {"json": true}\n<b>markup</b>';
    a.move(text);
    await until(() => b.game.received.length === 1, "the move");
    assert.equal(b.game.received[0], text);
    a.close();
    b.close();
  });

  test("an end move the partner's game agrees with ends the match agreed", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.GAME_ENDED } });
    a.game.result = () => Result.WON;
    b.game.result = () => Result.LOST;
    a.move("22", true);
    const [outA, outB] = await Promise.all([a.done, b.done]);
    assert.equal(a.state, State.GAME_ENDED);
    assert.equal(b.state, State.GAME_ENDED);
    const confirm = relay.requests.find((r) => r.line.endsWith("/confirm"));
    assert.deepEqual(confirm.body, { after: 2, agree: true });
    assert.equal(outA.reason, Reason.AGREED);
    assert.equal(outA.result, Result.WON);
    assert.equal(outB.result, Result.LOST);
    assert.equal(outB.byMe, true);
    assert.deepEqual(a.record.dialogs, []);
    assert.deepEqual(b.record.dialogs, []);
  });

  test("an end move the partner's game does not agree with ends the match disputed", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.PLAYING_TO_MOVE } });
    a.move("22", true);
    const [outA, outB] = await Promise.all([a.done, b.done]);
    const confirm = relay.requests.find((r) => r.line.endsWith("/confirm"));
    assert.deepEqual(confirm.body, { after: 2, agree: false, reason: endings.NOT_OVER });
    assert.equal(outB.reason, Reason.DISPUTED);
    assert.equal(outA.result, Result.UNKNOWN);
    assert.deepEqual(a.record.dialogs, [
      "Your partner's game rejected your move 1: the game is not over. Disputed.",
    ]);
    assert.deepEqual([outA.at, outA.detail], [2, endings.NOT_OVER]);
    assert.deepEqual(b.record.dialogs, [endings.SELF_DISPUTED]);
    // The disputing game was never enabled on a finished match.
    assert.deepEqual(b.game.calls, ["disable", "receive:22"]);
  });

  test("game over on a move that did not end it disputes that move: disputed for both", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.GAME_ENDED } });
    a.move("11");
    const [outA, outB] = await Promise.all([a.done, b.done]);
    const confirm = relay.requests.find((r) => r.line.endsWith("/confirm"));
    assert.deepEqual(confirm.body, { after: 2, agree: false, reason: endings.UNCLAIMED_END });
    assert.deepEqual(b.record.dialogs, [endings.localDispute(1)]);
    assert.equal(outB.reason, Reason.DISPUTED);
    assert.equal(outB.message, endings.localDispute(1));
    assert.equal(outA.reason, Reason.DISPUTED);
    assert.deepEqual(a.record.dialogs, [
      `Your partner's game rejected your move 1: ${endings.UNCLAIMED_END}. Disputed.`,
    ]);
    assert.equal(relay.count("POST /v1/matches/m1/resign"), 0);
  });

  test("a game with no legal move passes, and the partner is enabled without a move", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.PLAYING_WAIT_MOVE } });
    a.move("3");
    await until(() => a.state === State.PLAYING_TO_MOVE, "a's turn after b's pass");
    assert.equal(b.state, State.PLAYING_WAIT_MOVE);
    const passes = relay.requests.filter((r) => r.line.endsWith("/pass"));
    assert.deepEqual(passes.map((r) => r.body), [{ after: 2 }]);
    assert.deepEqual(a.game.received, []);
    assert.deepEqual(a.game.calls, ["enable", "disable", "enable"]);
    a.move("4");
    await until(() => b.game.received.length === 2, "b receives again");
    await until(() => relay.count("POST /v1/matches/m1/pass") === 2, "the second pass");
    a.close();
    b.close();
  });

  test("resigning ends the match at once; the partner is told it won", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    b.resign();
    assert.equal(b.state, State.GAME_ENDED);
    b.resign(); // twice is harmless
    const [outA, outB] = await Promise.all([a.done, b.done]);
    assert.deepEqual(a.record.dialogs, [endings.PARTNER_RESIGNED]);
    assert.deepEqual(b.record.dialogs, []);
    assert.equal(outA.result, Result.WON);
    assert.equal(outB.result, Result.LOST);
    assert.equal(outB.byMe, true);
    assert.equal(a.game.calls.at(-1), "disable");
    assert.equal(relay.count("POST /v1/matches/m1/resign"), 1);
    b.resign(); // once over, nothing
    assert.equal(relay.count("POST /v1/matches/m1/resign"), 1);
  });

  test("an abandoning partner ends the match with a dialog and disables the game", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    b.close();
    relay.end(a.ticket.match, "abandoned", 1);
    const outcome = await a.done;
    assert.deepEqual(a.record.dialogs, [endings.PARTNER_ABANDONED]);
    assert.equal(outcome.result, Result.WON);
    assert.equal(a.state, State.GAME_ENDED);
    assert.deepEqual(a.game.calls, ["enable", "disable"]);
  });

  test("transient faults are retried and every event reaches the game once, in order", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    relay.failNext(POLL, { status: 503, code: "server/unavailable" }, 2);
    relay.failNext(POLL, "network", 2);
    relay.failNext(POLL, { status: 429, code: "limit/polls", retryAfter: 2 });
    relay.failNext(MOVE, "lost", 2);
    relay.failNext(MOVE, { status: 500, code: "server/internal" });
    relay.failNext(MOVE, { status: 502, code: "http/error", html: true });
    const moves = ["00", "10", "11", "20", "22", "21", "01"];
    await turns(a, b, moves);
    assert.deepEqual(b.game.received, ["00", "11", "22", "01"]);
    assert.deepEqual(a.game.received, ["10", "20", "21"]);
    // Each move was applied once although two answers were lost and others failed.
    const log = relay.matches.get(a.ticket.match).log;
    assert.equal(log.filter((e) => e.type === "move").length, moves.length);
    const delays = a.time.delays.concat(b.time.delays);
    assert.ok(delays.some((ms) => ms >= 2000), "Retry-After is honoured");
    assert.equal(relay.faults.reduce((n, f) => n + f.times, 0), 0, "every fault was met");
    assert.ok(a.retries + b.retries >= 9);
    a.close();
    b.close();
  });

  test("a move posted while the relay is away waits unsent, told through onReachable", async () => {
    const relay = new FakeRelay();
    const told = [];
    // Real time, short sleeps: the host retries without end while the test watches.
    const clock = { now: () => performance.now(), sleep: () => new Promise((r) => setTimeout(r, 1)) };
    const [a, b] = await pair(relay, { a: { clock, onReachable: (up) => told.push(up) } });
    await until(() => a.state === State.PLAYING_TO_MOVE, "a's turn");
    relay.failNext(MOVE, "network", 1_000_000);
    a.move("11");
    await until(() => told.length === 1, "the outage told");
    assert.deepEqual(told, [false]);
    assert.equal(a.reachable, false);
    await new Promise((resolve) => setTimeout(resolve, 400)); // past the 250 ms a held post takes
    assert.equal(a.state, State.WAITING_SERVER_RESPONSE, "a failing post is not taken for held");
    relay.faults.length = 0; // the relay is back
    await until(() => b.game.received.includes("11"), "the move delivered");
    await until(() => a.state === State.PLAYING_WAIT_MOVE, "a's move taken");
    assert.deepEqual(told, [false, true]);
    assert.equal(a.reachable, true);
    // Held the first time; sent unheld (wait=0) while the relay was away, so that the post
    // that got through said so at once.
    const posts = relay.requests.filter((r) => r.line.endsWith("/moves"));
    assert.equal(posts[0].wait, "6");
    assert.ok(posts.length > 2 && posts.slice(1).every((r) => r.wait === "0"));
    const log = relay.matches.get(a.ticket.match).log;
    assert.deepEqual(log.filter((e) => e.type === "move").map((e) => e.move), ["11"]);
    a.close();
    b.close();
  });

  test("a seek whose answer was lost is sent again and takes one seat, not two", async () => {
    const relay = new FakeRelay();
    relay.failNext((method, path) => path === "/v1/seek", "lost");
    const [a, b] = await pair(relay);
    assert.equal(relay.count("POST /v1/seek"), 3);
    assert.equal(relay.matches.size, 1, "the retried seek found its own seat");
    assert.equal(a.ticket.seat, 0);
    assert.equal(b.ticket.seat, 1);
    assert.match(a.ticket.token, /^[A-Za-z0-9_-]{43}$/);
    a.close();
    b.close();
  });

  test("backoff is full jitter under a doubling, capped ceiling, and honours Retry-After", () => {
    const timing = new Timing();
    const top = () => 0.999999;
    assert.equal(timing.backoff(0, () => 0), 0);
    assert.ok(timing.backoff(0, top) < 0.2);
    assert.ok(timing.backoff(3, top) > 1.5 && timing.backoff(3, top) < 1.6);
    assert.ok(timing.backoff(30, top) <= timing.backoffCap);
    assert.ok(timing.backoff(0, () => 0, 3) >= 3);
    assert.equal(timing.pollTimeout, 9); // the hold asked for (6 s), and 3 s for its answer
    assert.throws(() => new Timing({ pollWait: 0 }), RangeError);
  });

  test("a relay out of reach for good ends the match with a dialog, not a hang", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    relay.failNext(POLL, "network", 100_000);
    relay.failNext(MOVE, "network", 100_000);
    a.move("11");
    const outcome = await a.done;
    assert.equal(outcome.reason, Reason.CONNECTION_LOST);
    assert.equal(a.state, State.GAME_ENDED);
    assert.match(a.record.dialogs[0], /^Lost the connection to the relay for good: no answer/);
    // Gave up after about a minute of backoff, each delay capped.
    assert.ok(a.time.t < 70_000 && a.time.t > 40_000, `gave up after ${a.time.t} ms`);
    assert.ok(Math.max(...a.time.delays) <= 5000);
    b.close();
  });

  test("an unreachable relay ends the seek with CONNECTION_LOST", async () => {
    const relay = new FakeRelay();
    relay.failNext(() => true, "network", 100_000);
    const host = recordingHost({ fetch: relay.fetch });
    const outcome = await host.play();
    assert.equal(outcome.reason, Reason.CONNECTION_LOST);
    assert.equal(outcome.match, null);
    assert.equal(host.state, State.NOT_CONNECTED);
  });

  test("a resumed host restores the log's moves and plays on; nothing is sent twice", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    await turns(a, b, ["00", "10", "11"]);
    a.close();
    const again = recordingHost({ fetch: relay.fetch, resume: a.ticket });
    again.done = again.play();
    await until(() => again.game !== null, "the rebuilt game");
    assert.deepEqual(again.game.calls, ["restore:mine:00,theirs:10,mine:11", "disable"]);
    assert.equal(again.state, State.PLAYING_WAIT_MOVE);
    b.move("20");
    await until(() => again.state === State.PLAYING_TO_MOVE, "the resumed side's turn");
    again.move("22", true);
    await Promise.all([again.done, b.done]);
    assert.equal(relay.count("POST /v1/matches/m1/moves"), 5);
  });

  test("a resumed host answers the partner's last move it never answered", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    a.close();
    b.close();
    const id = a.ticket.match;
    relay.matches.get(id).turn = 1;
    relay.append(id, { type: "move", seat: 0, move: "6", end: false });
    const again = recordingHost({
      fetch: relay.fetch,
      resume: b.ticket,
      answer: () => State.PLAYING_WAIT_MOVE,
    });
    again.play();
    await until(() => relay.count("POST /v1/matches/m1/pass") === 1, "the pass");
    assert.deepEqual(again.game.calls.slice(0, 2), ["disable", "receive:6"]);
    const pass = relay.requests.find((r) => r.line.endsWith("/pass"));
    assert.deepEqual(pass.body, { after: 2 });
    again.close();
  });

  test("resuming a finished match gives its outcome and sends nothing", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    b.resign();
    await Promise.all([a.done, b.done]);
    const posts = relay.count("POST");
    const again = recordingHost({ fetch: relay.fetch, resume: a.ticket });
    const outcome = await again.play();
    assert.equal(outcome.reason, Reason.RESIGNED);
    assert.equal(outcome.result, Result.WON);
    assert.deepEqual(again.record.dialogs, [endings.PARTNER_RESIGNED]);
    assert.equal(relay.count("POST"), posts);
  });

  test("a match the relay no longer knows ends with ERROR and a dialog", async () => {
    const relay = new FakeRelay();
    const host = recordingHost({ fetch: relay.fetch, resume: { match: "x", seat: 0, token: "t" } });
    const outcome = await host.play();
    assert.equal(outcome.reason, Reason.ERROR);
    assert.equal(host.state, State.NOT_CONNECTED);
    assert.match(host.record.dialogs[0], /refused.*match\/unknown/);
  });

  test("a third seeker of a private room is refused with room/full", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { room: "den" });
    const c = recordingHost({ fetch: relay.fetch, room: "den" });
    const outcome = await c.play();
    assert.equal(outcome.reason, Reason.ERROR);
    assert.match(c.record.dialogs[0], /room\/full/);
    a.close();
    b.close();
  });

  test("cancelling while listening withdraws the seek", async () => {
    const relay = new FakeRelay({ holdMs: 10_000 });
    const a = recordingHost({ fetch: relay.fetch });
    const done = a.play();
    await until(() => a.ticket !== null, "a seat");
    a.cancel();
    const outcome = await done;
    assert.equal(outcome.reason, Reason.CANCELLED);
    assert.equal(a.state, State.NOT_CONNECTED);
    assert.equal(relay.matches.get(a.ticket.match).status, "expired");
    a.cancel(); // once over, nothing
    assert.equal(relay.count("POST /v1/matches/m1/cancel"), 1);
  });

  test("cancel after the partner came resigns the new match", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    a.cancel();
    assert.equal(a.state, State.GAME_ENDED);
    const [outA, outB] = await Promise.all([a.done, b.done]);
    assert.equal(outA.reason, Reason.RESIGNED);
    assert.equal(outB.result, Result.WON);
  });

  test("a seek the relay dropped is sought again", async () => {
    const relay = new FakeRelay();
    const a = recordingHost({ fetch: relay.fetch });
    a.play();
    await until(() => a.ticket !== null, "a seat");
    const first = a.ticket;
    relay.matches.get(first.match).status = "expired";
    await until(() => a.ticket !== first, "a second seek");
    assert.equal(a.state, State.LISTENING);
    a.close();
  });

  test("a receiveMove answer outside the three allowed rejects play()", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay, { b: { answer: () => State.LISTENING } });
    a.move("11");
    await assert.rejects(b.done, /must return State.PLAYING_TO_MOVE/);
    a.close();
  });

  test("close() stops the host: play() resolves with null and the game hears nothing", async () => {
    const relay = new FakeRelay();
    const [a, b] = await pair(relay);
    b.close();
    assert.equal(await b.done, null);
    a.move("11");
    await until(() => a.state === State.PLAYING_WAIT_MOVE, "a's move accepted");
    assert.deepEqual(b.game.calls, ["disable"]);
    a.close();
  });

  test("play() runs once per host", async () => {
    const relay = new FakeRelay();
    const a = recordingHost({ fetch: relay.fetch });
    a.play();
    await assert.rejects(a.play(), HostStateError);
    a.close();
  });
});
