// The JavaScript host against a real relay (MOVEWIRE_RELAY, set by test_node_suite.py).

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import { BoardGame } from "../../relay/pages/board-game.mjs";
import * as c4 from "../../examples/connect4/page/connect4.mjs";
import * as endings from "../../relay/pages/endings.mjs";
import {
  loadTicket,
  NotYourTurnError,
  Reason,
  RelayHost,
  Result,
  State,
  saveTicket,
  Timing,
} from "../../relay/pages/movewire.mjs";
import { RelayClient } from "../../relay/pages/relay-client.mjs";
import { RematchWatch } from "../../relay/pages/rematch.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";
import { MemoryStorage, RecordingGame, until } from "./helpers.mjs";

const RELAY = process.env.MOVEWIRE_RELAY;
const skip = RELAY ? false : "MOVEWIRE_RELAY names no relay (pytest runs this suite with one)";
const NO_VIEW = { update() {} };

const TIMING = new Timing({ pollWait: 5 });

function options(rules, room, record) {
  return {
    relay: RELAY,
    gameKey: `js-${rules === x0 ? "xand0" : "connect4"}`,
    version: "1",
    room,
    timing: TIMING,
    createGame: (hst, first) => new BoardGame(hst, first, rules, NO_VIEW),
    onDialog: (text) => record.dialogs.push(text),
  };
}

function host(rules, room) {
  const record = { dialogs: [] };
  return Object.assign(new RelayHost(options(rules, room, record)), { record });
}

function resumed(rules, ticket) {
  const record = { dialogs: [] };
  return Object.assign(RelayHost.resume(ticket, options(rules, null, record)), { record });
}

async function seated(rules, extra = {}) {
  const room = randomUUID();
  const a = host(rules, room, extra);
  const b = host(rules, room, extra);
  a.done = a.play();
  await until(() => a.ticket !== null, "a's seat", 5000);
  b.done = b.play();
  await until(() => a.game !== null && b.game !== null, "the start", 5000);
  return a.game.firstMove ? [a, b] : [b, a];
}

async function playOut(first, second, moves, rules) {
  for (const [i, text] of moves.entries()) {
    const mover = i % 2 === 0 ? first : second;
    await until(() => mover.state === State.PLAYING_TO_MOVE, `turn ${i}`, 5000);
    assert.equal(mover.game.play(rules.parseMove(text)), true, `move ${i}: ${text}`);
  }
  return Promise.all([first.done, second.done]);
}

describe("the host against a real relay", { skip }, () => {
  test("plays X and 0 to a win that both games agree on", async () => {
    const [first, second] = await seated(x0);
    const [won, lost] = await playOut(first, second, ["00", "10", "11", "20", "22"], x0);
    assert.equal(won.result, Result.WON);
    assert.equal(lost.result, Result.LOST);
    assert.equal(won.reason, Reason.AGREED);
    assert.equal(won.by, second.ticket.seat);
    assert.equal(first.game.resultText, "You win: three in a row.");
    // The winner's words went with its move: the agreed end carries them to both hosts.
    assert.deepEqual([won.detail, lost.detail], ["three in a row", "three in a row"]);
    assert.equal(lost.message, "You lose: three in a row.");
    assert.equal(first.state, State.GAME_ENDED);
  });

  test("plays Connect Four to a full-board draw", async () => {
    const [first, second] = await seated(c4);
    const moves = [..."532315310141250566206042303423260411544566"];
    const outcomes = await playOut(first, second, moves, c4);
    assert.deepEqual(outcomes.map((o) => o.result), [Result.DRAWN, Result.DRAWN]);
    assert.equal(second.game.resultText, "A draw: the board is full.");
  });

  test("a resumed host rebuilds the board from the log and plays on", async () => {
    const [first, second] = await seated(c4);
    for (const [i, text] of ["3", "3", "4"].entries()) {
      const mover = i % 2 === 0 ? first : second;
      await until(() => mover.state === State.PLAYING_TO_MOVE, `turn ${i}`, 5000);
      mover.game.play(Number(text));
    }
    await until(() => second.state === State.PLAYING_TO_MOVE, "second's turn", 5000);
    second.close();
    const storage = new MemoryStorage(); // the page's localStorage: the seat survives a reload
    saveTicket("connect4", second.ticket, storage);
    const again = resumed(c4, loadTicket("connect4", storage));
    again.done = again.play();
    await until(() => again.state === State.PLAYING_TO_MOVE, "the resumed turn", 5000);
    assert.equal(again.game.board.toText(), second.game.board.toText());
    const [lost, won] = await playOut(again, first, ["4", "5", "5", "6"], c4);
    assert.equal(won.result, Result.WON);
    assert.equal(lost.result, Result.LOST);
  });

  test("a move the partner's game finds illegal ends the match disputed for both", async () => {
    const [first, second] = await seated(x0);
    await until(() => first.state === State.PLAYING_TO_MOVE, "the first turn", 5000);
    first.move("99"); // not a cell: sent past the game, as a broken client would
    const [sent, disputed] = await Promise.all([first.done, second.done]);
    assert.equal(disputed.reason, Reason.DISPUTED);
    assert.equal(disputed.by, second.ticket.seat);
    assert.equal(sent.reason, Reason.DISPUTED);
    assert.equal(second.game.illegal, "99");
    assert.match(disputed.message, /^Your game rejected your partner's move 1: move "99" is not two digits/);
  });

  test("an illegal move sent with end is disputed, not agreed", async () => {
    const [first, second] = await seated(x0);
    await until(() => first.state === State.PLAYING_TO_MOVE, "the first turn", 5000);
    first.move("00", true); // claims a win on the first move, as a cheating client would
    const [sent, disputed] = await Promise.all([first.done, second.done]);
    assert.deepEqual([sent.reason, disputed.reason], [Reason.DISPUTED, Reason.DISPUTED]);
    assert.equal(disputed.by, second.ticket.seat);
    assert.equal(disputed.message, endings.SELF_DISPUTED);
  });

  test("a false pass is disputed; the passer is told", async () => {
    const [first, second] = await seated(x0);
    await until(() => first.state === State.PLAYING_TO_MOVE, "the first turn", 5000);
    first.passTurn(); // X has nine moves: the pass is false
    assert.equal(first.state, State.WAITING_SERVER_RESPONSE);
    assert.throws(() => first.passTurn(), NotYourTurnError);
    const [passer, disputer] = await Promise.all([first.done, second.done]);
    assert.equal(disputer.reason, Reason.DISPUTED);
    assert.equal(disputer.message, endings.rejected(1, true, "there was a move to make"));
    assert.equal(second.game.illegal, "pass");
    assert.equal(passer.reason, Reason.DISPUTED);
    // The disputer's reason reaches the passer once the relay passes it on (issue 26).
    const told = passer.detail
      ? "Your partner's game rejected your pass at move 1: there was a move to make. Disputed."
      : endings.PARTNER_DISPUTED;
    assert.deepEqual(first.record.dialogs, [told]);
  });

  test("a voluntary pass reaches the partner's receivePass, which takes the turn", async () => {
    const room = randomUUID();
    const heard = [];
    class Passer extends RecordingGame {
      enable() {
        super.enable();
        if (this.firstMove && !this.calls.includes("receivePass")) this.host.passTurn();
        else this.host.move("done", true);
      }
      receivePass() {
        this.calls.push("receivePass");
        heard.push(this.host.state);
        return State.PLAYING_TO_MOVE;
      }
      receiveMove(text) {
        super.receiveMove(text);
        return State.GAME_ENDED;
      }
    }
    const make = () =>
      new RelayHost({
        relay: RELAY,
        gameKey: "js-pass",
        room,
        timing: TIMING,
        createGame: (h, first) => new Passer(h, first),
      });
    const [a, b] = [make(), make()];
    const doneA = a.play();
    await until(() => a.ticket !== null, "a's seat", 5000);
    const outcomes = await Promise.all([doneA, b.play()]);
    assert.deepEqual(outcomes.map((o) => o.reason), [Reason.AGREED, Reason.AGREED]);
    const second = a.game.firstMove ? b : a;
    assert.deepEqual(second.game.calls.slice(0, 3), ["disable", "receivePass", "enable"]);
    assert.deepEqual(heard, [State.PLAYING_WAIT_MOVE]);
  });

  test("a move of any text reaches the partner byte-exact", async () => {
    const room = randomUUID();
    const text = 'ünïcode 🎲 "quoted"\n{"json": [1, 2]} <b>&amp;</b>';
    const make = () =>
      new RelayHost({
        relay: RELAY,
        gameKey: "js-opaque",
        room,
        timing: TIMING,
        createGame: (h, first) => new RecordingGame(h, first),
      });
    const a = make();
    const b = make();
    a.play();
    await until(() => a.ticket !== null, "a's seat", 5000);
    b.play();
    await until(() => a.game !== null && b.game !== null, "the start", 5000);
    const [mover, other] = a.state === State.PLAYING_TO_MOVE ? [a, b] : [b, a];
    mover.move(text);
    await until(() => other.game.received.length === 1, "the move", 5000);
    assert.equal(other.game.received[0], text);
    a.close();
    b.close();
  });

  test("a third seeker of a private room is refused: room/full", async () => {
    const room = randomUUID();
    const [a, b, c] = [host(x0, room), host(x0, room), host(x0, room)];
    a.play();
    await until(() => a.ticket !== null, "a's seat", 5000);
    b.play();
    await until(() => b.ticket !== null, "b's seat", 5000);
    const outcome = await c.play();
    assert.equal(outcome.reason, Reason.ERROR);
    assert.equal(c.state, State.NOT_CONNECTED);
    assert.match(c.record.dialogs[0], /409 room\/full/);
    a.close();
    b.close();
  });
});

describe("rematch and lobby against a real relay", { skip }, () => {
  test("both sides offer through RematchWatch and play the new match, first move swapped", async () => {
    const [x, o] = await seated(x0);
    x.resign();
    await Promise.all([x.done, o.done]);
    const heard = [[], []];
    const watches = [x, o].map(
      (side, i) => new RematchWatch({ relay: RELAY, ticket: side.ticket, timing: TIMING, onChange: (r) => heard[i].push(r) }),
    );
    const following = watches.map((watch) => watch.follow());
    await until(() => heard[1].length === 1, "o's first look", 5000);
    await watches[0].offer();
    await until(() => heard[1].some((r) => r.state === "offered" && r.offers[x.ticket.seat]), "o hears the offer", 5000);
    await watches[1].offer();
    await Promise.all(following);
    const accepted = watches[1].current;
    assert.equal(accepted.state, "accepted");
    assert.equal(accepted.first, o.ticket.seat, "the second mover moves first now");
    assert.equal(watches[0].current.match, accepted.match);
    const again = [resumed(x0, watches[0].ticketIn(accepted)), resumed(x0, watches[1].ticketIn(accepted))];
    const done = again.map((side) => side.play());
    await until(() => again.every((side) => side.game !== null), "the rematch starts", 5000);
    assert.equal(again[0].game.firstMove, false);
    assert.equal(again[1].game.firstMove, true);
    again[1].resign();
    await Promise.all(done);
  });

  test("a public seek is listed in the lobby, and the lobby's poll wakes at it", async () => {
    const client = new RelayClient({ relay: RELAY, timing: TIMING });
    const game = `js-lobby-${randomUUID().slice(0, 8)}`;
    const empty = await client.lobby(game);
    assert.deepEqual([empty.open, empty.live, empty.recent], [[], [], []]);
    const poll = client.lobby(game, empty.version, 5);
    const ticket = await client.seek(game, "1", "den", undefined, true);
    const lobby = await poll;
    assert.deepEqual(lobby.open.map((e) => [e.match, e.room, e.status]), [[ticket.match, "den", "waiting"]]);
  });
});
