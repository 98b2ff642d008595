// Time controls and clocks in the JavaScript host: the formatter and clock arithmetic, then two
// hosts on a real relay (MOVEWIRE_RELAY, set by test_node_suite.py) reading both clocks and a
// match lost on time. The same behaviours as tests/sdk/test_clocks.py.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import { BoardGame } from "../../relay/pages/board-game.mjs";
import * as endings from "../../relay/pages/endings.mjs";
import {
  Clock,
  formatLeft,
  parseEvent,
  ProtocolError,
  Reason,
  RelayHost,
  Result,
  State,
  TimeControl,
  Timing,
} from "../../relay/pages/movewire.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";
import { until } from "./helpers.mjs";

const RELAY = process.env.MOVEWIRE_RELAY;
const skip = RELAY ? false : "MOVEWIRE_RELAY names no relay (pytest runs this suite with one)";
const FISCHER = TimeControl.fischer(300, 3);
const DAYS = TimeControl.deadline(3 * 86400);

describe("TimeControl", () => {
  test("reads the forms a player writes, as the Python SDK does", () => {
    assert.deepEqual(TimeControl.parse("5+3"), FISCHER);
    assert.deepEqual(TimeControl.parse("10"), TimeControl.fischer(600));
    assert.deepEqual(TimeControl.parse(" 3D "), DAYS);
    assert.deepEqual(TimeControl.parse("12h"), TimeControl.deadline(43200));
    for (const bad of ["5-3", "3w", "", "d3"]) {
      assert.throws(() => TimeControl.parse(bad), /a clock is 'M\+S'.*'Nd' \/ 'Nh'/);
    }
  });

  test("goes to and from the protocol's time_control", () => {
    assert.deepEqual(FISCHER.toJson(), { kind: "fischer", base: 300, increment: 3 });
    assert.deepEqual(DAYS.toJson(), { kind: "deadline", per_move: 259200 });
    assert.deepEqual(TimeControl.fromJson(DAYS.toJson()), DAYS);
    assert.equal(TimeControl.fromJson(null), null);
    assert.throws(() => TimeControl.fromJson({ kind: "hourglass" }), RangeError);
    assert.equal(String(FISCHER), "5 min + 3 s");
    assert.equal(String(TimeControl.fischer(600)), "10 min");
    assert.equal(String(DAYS), "3 days a move");
  });

  test("events carry the control and the seconds left; a bad one is a ProtocolError", () => {
    const started = parseEvent({ seq: 1, type: "started", first: 0, time_control: FISCHER.toJson(), left: [300, 300] });
    assert.deepEqual([started.timeControl, started.left], [FISCHER, [300, 300]]);
    const plain = parseEvent({ seq: 1, type: "started", first: 0, time_control: null, left: null });
    assert.deepEqual([plain.timeControl, plain.left], [null, null]);
    const move = parseEvent({ seq: 2, type: "move", seat: 0, move: "00", end: false, left: 290.5 });
    assert.equal(move.left, 290.5);
    assert.equal(parseEvent({ seq: 3, type: "pass", seat: 1 }).left, null);
    assert.throws(() => parseEvent({ seq: 2, type: "pass", seat: 0, left: "soon" }), ProtocolError);
    assert.throws(
      () => parseEvent({ seq: 1, type: "started", first: 0, time_control: FISCHER.toJson(), left: [1] }),
      ProtocolError,
    );
  });
});

describe("formatLeft", () => {
  test("writes Fischer time as m:ss or h:mm:ss", () => {
    assert.equal(formatLeft(293.9, FISCHER), "4:53");
    assert.equal(formatLeft(5, FISCHER), "0:05");
    assert.equal(formatLeft(3723, FISCHER), "1:02:03");
    assert.equal(formatLeft(-2, FISCHER), "0:00");
  });

  test("writes a correspondence deadline in days and hours, then hours and minutes", () => {
    assert.equal(formatLeft(2 * 86400 + 4 * 3600 + 59, DAYS), "2 days 4 hours");
    assert.equal(formatLeft(86400, DAYS), "1 day");
    assert.equal(formatLeft(86400 + 3600, DAYS), "1 day 1 hour");
    assert.equal(formatLeft(5 * 3600 + 12 * 60, DAYS), "5 hours 12 minutes");
    assert.equal(formatLeft(12 * 60 + 30, DAYS), "12 minutes");
    assert.equal(formatLeft(1, DAYS), "1 second");
  });
});

describe("Clock", () => {
  test("runs down the seat to move only", () => {
    const clock = new Clock(FISCHER, [300, 300], 0, 1000);
    assert.deepEqual(clock.left(3500), [297.5, 300]);
    assert.deepEqual(new Clock(FISCHER, [300, 300], null, 1000).left(9000), [300, 300]);
    assert.deepEqual(new Clock(FISCHER, [1, 300], 0, 0).left(5000), [0, 300]);
  });

  test("takes the mover's time from the log and gives the turn to the other seat", () => {
    const clock = new Clock(FISCHER, [300, 300], 0, 0);
    const after = clock.after({ type: "move", seq: 2, seat: 0, move: "00", end: false, left: 299 }, 2000);
    assert.deepEqual([after.read, after.turn, after.left(3000)], [[299, 300], 1, [299, 299]]);
    const ending = clock.after({ type: "move", seq: 2, seat: 0, move: "00", end: true, left: 299 }, 2000);
    assert.equal(ending.turn, null);
    const over = clock.after({ type: "ended", seq: 2, reason: "resigned", seat: 1 }, 4000);
    assert.deepEqual([over.read, over.turn], [[296, 300], null]);
    const days = new Clock(DAYS, [259200, 259200], 1, 0).after({ type: "pass", seq: 2, seat: 1, left: 1000 }, 0);
    assert.deepEqual([days.read, days.turn], [[259200, 1000], 0]);
  });

  test("as this side sends: Fischer adds the increment, a deadline starts the partner afresh", () => {
    const sent = new Clock(FISCHER, [100, 200], 0, 0).sent(0, false, 10_000);
    assert.deepEqual([sent.read, sent.turn], [[93, 200], 1]);
    const days = new Clock(DAYS, [5000, 7], 0, 0).sent(0, false, 0);
    assert.deepEqual([days.read, days.turn], [[5000, 259200], 1]);
    assert.equal(new Clock(FISCHER, [100, 200], 0, 0).sent(0, true, 0).turn, null);
  });
});

function host(room, timeControl) {
  return new RelayHost({
    relay: RELAY,
    gameKey: "js-xand0",
    version: "1",
    room,
    timeControl,
    timing: new Timing({ pollWait: 5 }),
    createGame: (hst, first) => new BoardGame(hst, first, x0, { update() {} }),
  });
}

async function seated(timeControl) {
  const room = randomUUID();
  const a = host(room, timeControl);
  const b = host(room, timeControl);
  a.done = a.play();
  await until(() => a.ticket !== null, "a's seat", 5000);
  b.done = b.play();
  await until(() => a.game !== null && b.game !== null, "the start", 5000);
  return a.game.firstMove ? [a, b] : [b, a];
}

describe("clocks against a real relay", { skip }, () => {
  test("both hosts read both clocks, the seat to move's running down", async () => {
    const [first, second] = await seated(TimeControl.fischer(60, 2));
    for (const h of [first, second]) {
      assert.deepEqual(h.clock.control, TimeControl.fischer(60, 2));
      assert.equal(h.clock.turn, first.ticket.seat);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [running, still] = [first.clock.left()[first.ticket.seat], first.clock.left()[second.ticket.seat]];
    assert.ok(running < 59.8 && running > 55, `first mover's clock ${running}`);
    assert.equal(still, 60);
    first.game.play(x0.parseMove("00"));
    await until(() => second.state === State.PLAYING_TO_MOVE, "second's turn", 5000);
    const read = second.clock.read[first.ticket.seat];
    assert.ok(read > 60 && read <= 62, `first mover's time after the move with the increment: ${read}`);
    assert.equal(second.clock.turn, second.ticket.seat);
    assert.ok(Math.abs(first.clock.left()[first.ticket.seat] - read) < 1, "both hosts agree");
    second.resign();
    await Promise.all([first.done, second.done]);
    assert.equal(first.clock.turn, null);
  });

  test("a host that runs out of time loses the match with the timeout message", async () => {
    const [first, second] = await seated(TimeControl.fischer(1, 0));
    const [lost, won] = await Promise.all([first.done, second.done]);
    assert.deepEqual([lost.result, lost.reason, lost.message], [Result.LOST, Reason.TIMEOUT, endings.SELF_TIMEOUT]);
    assert.deepEqual([won.result, won.reason, won.message], [Result.WON, Reason.TIMEOUT, endings.PARTNER_TIMEOUT]);
    assert.equal(first.clock.turn, null);
  });

  test("a deadline control reads as days and hours", async () => {
    const [first, second] = await seated(DAYS);
    assert.equal(formatLeft(first.clock.left()[second.ticket.seat], DAYS), "3 days");
    assert.match(formatLeft(second.clock.left()[first.ticket.seat], DAYS), /^(3 days|2 days 23 hours)$/);
    first.resign();
    await Promise.all([first.done, second.done]);
  });
});
