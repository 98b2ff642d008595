// The table in the JavaScript host: read with the log (versions, chat gathered once each),
// offers and their answers, takebacks handed to the game as undo(count) (exactly, in Dots and
// Boxes too), takebacks declined for a game without undo, and claims dated by the turn. The
// pure parts alone; the rest against a real relay (MOVEWIRE_RELAY, set by test_node_suite.py).

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import { BoardGame } from "../../relay/pages/board-game.mjs";
import { ComputerGame } from "../../relay/pages/computer.mjs";
import * as c4 from "../../examples/connect4/page/connect4.mjs";
import * as dots from "../../examples/dots/page/dots.mjs";
import {
  canUndo,
  HostStateError,
  history,
  Reason,
  RelayHost,
  RelayRefusedError,
  Result,
  State,
  Timing,
  turnAfter,
} from "../../relay/pages/movewire.mjs";
import { parseTable, TableKeeper } from "../../relay/pages/table.mjs";
import * as x0 from "../../examples/xand0/page/xand0.mjs";
import * as x0Engine from "../../examples/xand0/page/xand0-engine.mjs";
import { RecordingGame, until } from "./helpers.mjs";

const RELAY = process.env.MOVEWIRE_RELAY;
const skip = RELAY ? false : "MOVEWIRE_RELAY names no relay (pytest runs this suite with one)";
const TIMING = new Timing({ pollWait: 5 });
const NO_VIEW = { update() {} };
const WAIT_MS = 5000;

function rawTable(version, extra = {}) {
  return {
    version,
    names: ["Ann", null],
    presence: [{ here: true }, { here: false, since: 100.5, abandon_in: 20 }],
    offer: null,
    chat: [],
    claim_in: null,
    ...extra,
  };
}

const line = (n, text, seat = 0) => ({ n, seat, text, at: 1, time: 1000 + n });

describe("TableKeeper", () => {
  test("drops an older table, and gathers chat lines once each, in order", () => {
    const keeper = new TableKeeper();
    assert.equal(keeper.version, 0);
    assert.equal(keeper.chatSeen, 0);
    const first = keeper.take(rawTable(3, { chat: [line(1, "hi"), line(2, "there", 1)] }), 1000);
    assert.deepEqual(first.chat.map((l) => l.text), ["hi", "there"]);
    assert.deepEqual(first.fresh.map((l) => l.n), [1, 2]);
    assert.equal(keeper.chatSeen, 2);
    // An answer with every line again (an offer's answer reads the whole chat): none twice.
    const second = keeper.take(rawTable(4, { chat: [line(1, "hi"), line(2, "there", 1), line(3, "gg")] }), 2000);
    assert.deepEqual(second.chat.map((l) => l.n), [1, 2, 3]);
    assert.deepEqual(second.fresh.map((l) => l.text), ["gg"]);
    assert.equal(keeper.take(rawTable(2, { chat: [line(4, "late")] }), 3000), null);
    assert.equal(keeper.version, 4);
    assert.equal(keeper.chatSeen, 3);
  });

  test("turns countdowns into moments, and a table of the same version reads them anew", () => {
    const keeper = new TableKeeper();
    const read = keeper.take(rawTable(5, { claim_in: 12.5 }), 10_000);
    assert.equal(read.claimAt, 22_500);
    assert.equal(read.presence[1].abandonAt, 30_000);
    assert.equal(read.presence[0].abandonAt, null);
    assert.equal(read.names[0], "Ann");
    const again = keeper.take(rawTable(5, { claim_in: 300 }), 11_000);
    assert.equal(again.claimAt, 311_000);
    assert.deepEqual(again.fresh, []);
  });

  test("refuses what is not a table", () => {
    for (const raw of [null, { version: "1" }, rawTable(1, { names: ["a"] }), rawTable(1, { offer: { kind: "tea" } })]) {
      assert.throws(() => parseTable(raw), /not protocol v1/);
    }
    const read = parseTable(rawTable(1, { offer: { kind: "takeback", by: 1, at: 4, state: "offered", count: 2 } }));
    assert.deepEqual(read.offer, { kind: "takeback", by: 1, at: 4, state: "offered", count: 2 });
  });
});

describe("undo in the log", () => {
  test("history and the turn leave out the moves an undo takes back", () => {
    const events = [
      { type: "move", seq: 2, seat: 0, move: "11", end: false },
      { type: "move", seq: 3, seat: 1, move: "00", end: false },
      { type: "move", seq: 4, seat: 0, move: "22", end: false },
      { type: "undo", seq: 5, seat: 1, count: 2 },
    ];
    assert.deepEqual(history(events, 0).map((p) => p.move), ["11"]);
    assert.deepEqual(turnAfter(0, events), [1, false]);
  });

  test("a board game steps back exactly the plies taken back, passes included", () => {
    const host = stubHost();
    const game = new BoardGame(host, true, dots, NO_VIEW);
    // X draws h00; O h10; X v00; O v01 closes the box: X passes, O moves again.
    myMove(game, "h00");
    assert.equal(game.receiveMove("h10"), State.PLAYING_TO_MOVE);
    myMove(game, "v00");
    assert.equal(game.receiveMove("v01"), State.PLAYING_WAIT_MOVE); // the host passes for X
    assert.equal(game.plies.length, 5);
    assert.equal(game.board.boxOwner(0, 0), dots.SECOND);
    game.undo(2); // the pass and O's box
    assert.equal(game.board.toText(), dots.Board.fromMoves(["h00", "h10", "v00"]).toText());
    assert.deepEqual(game.moves.map((m) => m.move), ["h00", "h10", "v00"]);
    assert.deepEqual(game.last, dots.parseMove("v00"));
    game.undo(3);
    assert.equal(game.board.ply, 0);
    assert.equal(game.last, null);
    assert.throws(() => game.undo(1), RangeError);
  });

  test("a game enabled where its position leaves the turn with the partner passes", () => {
    const host = stubHost();
    const game = new BoardGame(host, true, dots, NO_VIEW);
    myMove(game, "h00");
    game.receiveMove("h10");
    myMove(game, "v00");
    game.receiveMove("v01"); // O closed the box; X passed
    game.undo(1); // X's pass taken back: X has the relay's turn, the board O's
    host.state = State.PLAYING_TO_MOVE;
    game.enable();
    assert.deepEqual(host.sent, ["h00", "v00", "pass"]);
    assert.equal(game.enabled, false);
    assert.equal(game.plies.length, 5);
  });

  test("Connect Four and the computer step back as the log does", () => {
    const game = new BoardGame(stubHost(), false, c4, NO_VIEW);
    game.receiveMove("3");
    myMove(game, "3");
    game.receiveMove("4");
    game.undo(2);
    assert.equal(game.board.ply, 1);
    assert.equal(game.board.pieceAt(3, 0), c4.FIRST);
    assert.equal(game.last, 3);
    assert.equal(game.hasPlayed, false);
    const think = () => new Promise(() => {}); // never answers: no move of its own here
    const computer = new ComputerGame(stubHost(), true, { rules: c4, think });
    for (const text of ["3", "4", "3"]) {
      computer.board = computer.board.push(c4.parseMove(text));
      computer.moves.push(text);
      computer.plies.push({ board: computer.board, moves: computer.moves.length });
    }
    computer.undo(2);
    assert.deepEqual(computer.moves, ["3"]);
    assert.equal(computer.board.ply, 1);
    assert.equal(computer.considerOffer({ kind: "takeback", by: 1, at: 4, state: "offered", count: 2 }), true);
  });

  test("canUndo tells games that take moves back from those that do not", () => {
    assert.equal(canUndo(new BoardGame(stubHost(), true, x0, NO_VIEW)), true);
    assert.equal(canUndo(new RecordingGame(stubHost(), true)), false);
  });
});

/** Plays this side's move as the page does once the host enabled the game. */
function myMove(game, text) {
  game.host.game = game;
  game.host.state = State.PLAYING_TO_MOVE;
  game.enable();
  assert.ok(game.play(game.rules.parseMove(text)), text);
}

/** A GameHost stand-in that records what the game sends. */
function stubHost() {
  return {
    state: State.PLAYING_WAIT_MOVE,
    sent: [],
    table: null,
    move(text) {
      this.sent.push(text);
      this.state = State.WAITING_SERVER_RESPONSE;
      this.game?.disable(); // as RelayHost does
    },
    passTurn() {
      this.sent.push("pass");
      this.state = State.WAITING_SERVER_RESPONSE;
      this.game?.disable();
    },
    showDialog() {},
  };
}

// -- against a real relay -----------------------------------------------------------------

/** Returns a fetch that records each request line and can hold back the answers of polls. */
function recorded() {
  const seen = { lines: [], gate: null };
  seen.fetch = async (url, init = {}) => {
    const { pathname, search } = new URL(url);
    seen.lines.push(`${init.method ?? "GET"} ${pathname}${search}`);
    const response = await fetch(url, init);
    const text = await response.text();
    if (pathname.endsWith("/events") && search.includes("table=") && seen.gate !== null) {
      // Held back until the gate opens, or the host stops the poll (as a real fetch is).
      await new Promise((resolve, reject) => {
        seen.gate.then(resolve);
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    }
    return new Response(text, { status: response.status, headers: response.headers });
  };
  return seen;
}

function host(game, room, extra = {}) {
  const record = { tables: [], dialogs: [] };
  const made = new RelayHost({
    relay: RELAY,
    gameKey: `js-table-${game.key}`,
    version: "1",
    room,
    timing: TIMING,
    createGame: (h, first) => game.create(h, first),
    onDialog: (text) => record.dialogs.push(text),
    onTable: (table) => record.tables.push(table),
    ...extra,
  });
  return Object.assign(made, { record, seen: extra.seen ?? null });
}

const X0 = { key: "xand0", create: (h, first) => new BoardGame(h, first, x0, NO_VIEW) };
const DOTS = { key: "dots", create: (h, first) => new BoardGame(h, first, dots, NO_VIEW) };

/** Seats two hosts in a room; resolves [first mover, second] once both play. */
async function seated(games, extra = [{}, {}]) {
  const room = randomUUID();
  const a = host(games[0], room, extra[0]);
  const b = host(games[1] ?? games[0], room, extra[1]);
  a.done = a.play();
  await until(() => a.ticket !== null, "a's seat", WAIT_MS);
  b.done = b.play();
  await until(() => a.game !== null && b.game !== null, "the start", WAIT_MS);
  await until(() => a.table !== null && b.table !== null, "both tables", WAIT_MS);
  return a.game.firstMove ? [a, b] : [b, a];
}

async function play(mover, text, other) {
  await until(() => mover.state === State.PLAYING_TO_MOVE, `${text}: the mover's turn`, WAIT_MS);
  mover.game.play(mover.game.rules.parseMove(text));
  await until(() => other.game.moves.at(-1)?.move === text, `${text} received`, WAIT_MS);
}

function close(...hosts) {
  for (const one of hosts) one.close();
}

describe("the table through a real relay", { skip }, () => {
  test("names from the seeks, and chat both ways, gathered once each in order", async () => {
    const seenA = recorded();
    const [a, b] = await seated([X0], [{ name: "Ann", fetch: seenA.fetch }, { name: "Bob" }]);
    for (const side of [a, b]) {
      assert.deepEqual([...side.table.names].sort(), ["Ann", "Bob"]);
    }
    assert.equal(await a.say("good luck"), 1);
    assert.equal(await b.say("<b>you too</b>"), 2);
    assert.equal(await a.say("  third  "), 3);
    for (const side of [a, b]) {
      await until(() => side.table.chat.length === 3, "three lines", WAIT_MS);
      assert.deepEqual(side.table.chat.map((l) => [l.n, l.text]), [[1, "good luck"], [2, "<b>you too</b>"], [3, "third"]]);
      // Each line was told once: the fresh lines of every table told add up to the chat.
      const told = side.record.tables.flatMap((t) => t.fresh.map((l) => l.n));
      assert.deepEqual(told, [1, 2, 3]);
      const versions = side.record.tables.map((t) => t.version);
      assert.deepEqual(versions, [...versions].sort((x, y) => x - y));
    }
    // Every poll named the table version and chat line it had: growing, from 0.
    const polls = seenA.lines.filter((l) => l.includes("/events?") && l.includes("table="));
    const named = polls.map((l) => Number(/table=(\d+)/.exec(l)[1]));
    assert.equal(named[0], 0);
    assert.ok(named.at(-1) >= 4, polls.join("\n"));
    assert.ok(polls.some((l) => /chat=3/.test(l)), polls.join("\n"));
    close(a, b);
  });

  test("a draw offered and agreed ends the match drawn for both", async () => {
    const [a, b] = await seated([X0]);
    await play(a, "11", b);
    const table = await b.offerDraw();
    assert.deepEqual(table.offer, { kind: "draw", by: b.ticket.seat, at: 2, state: "offered", count: null });
    await until(() => a.table.offer?.state === "offered", "the offer at a", WAIT_MS);
    await assert.rejects(b.offerDraw().then(() => b.askTakeback()), (e) => e instanceof RelayRefusedError && e.code === "offer/pending");
    assert.equal(await a.answerOffer(true), 3);
    const outcomes = await Promise.all([a.done, b.done]);
    assert.deepEqual(outcomes.map((o) => [o.result, o.reason]), [
      [Result.DRAWN, Reason.DRAWN],
      [Result.DRAWN, Reason.DRAWN],
    ]);
    assert.equal(a.table.offer.state, "accepted");
    assert.deepEqual(a.record.dialogs, ["The draw was agreed."]);
  });

  test("a takeback accepted steps both games back and gives the asker the turn", async () => {
    const [a, b] = await seated([X0]);
    await play(a, "11", b);
    await play(b, "00", a);
    // b asks on a's turn: its own move only.
    await b.askTakeback();
    await until(() => a.table.offer?.kind === "takeback", "the request at a", WAIT_MS);
    assert.equal(a.table.offer.count, 1);
    await a.answerOffer(true);
    for (const side of [a, b]) {
      await until(() => side.game.moves.length === 1, "the move taken back", WAIT_MS);
      assert.equal(side.game.board.toText(), x0.Board.fromMoves(["11"]).toText());
    }
    await until(() => b.state === State.PLAYING_TO_MOVE, "b's turn again", WAIT_MS);
    assert.equal(a.state, State.PLAYING_WAIT_MOVE);
    await play(b, "22", a);
    // a asks on its own turn: its move and b's reply; b declines.
    await a.askTakeback();
    await until(() => b.table.offer?.state === "offered", "the request at b", WAIT_MS);
    assert.equal(b.table.offer.count, 2);
    await b.answerOffer(false);
    await until(() => a.table.offer?.state === "declined", "the decline at a", WAIT_MS);
    await assert.rejects(a.askTakeback(), (e) => e instanceof RelayRefusedError && e.code === "offer/declined");
    await play(a, "02", b);
    assert.deepEqual(b.game.moves.map((m) => m.move), ["11", "22", "02"]);
    close(a, b);
  });

  test("a takeback in Dots and Boxes steps back exactly, passes and all", async () => {
    const [f, s] = await seated([DOTS]);
    for (const [mover, other, move] of [[f, s, "h00"], [s, f, "h10"], [f, s, "v00"], [s, f, "v01"]]) {
      await play(mover, move, other);
    }
    // s closed the box: f's host passed for it, and s moves again.
    await until(() => s.state === State.PLAYING_TO_MOVE, "s moves again", WAIT_MS);
    // f asks back its pass: f has the relay's turn, but the board leaves it with s, so f
    // passes again at once, and s has the turn as before.
    await f.askTakeback();
    await until(() => s.table.offer?.state === "offered", "the request at s", WAIT_MS);
    assert.equal(s.table.offer.count, 1);
    await s.answerOffer(true);
    await until(() => s.state === State.PLAYING_TO_MOVE && s.cursor >= 8, "s's turn after the pass", WAIT_MS);
    // s asks back its box and f's pass.
    await s.askTakeback();
    await until(() => f.table.offer?.state === "offered" && f.table.offer.count === 2, "s's request", WAIT_MS);
    await f.answerOffer(true);
    const three = dots.Board.fromMoves(["h00", "h10", "v00"]).toText();
    for (const side of [f, s]) {
      await until(() => side.game.board.toText() === three, "three lines", WAIT_MS);
    }
    await until(() => s.state === State.PLAYING_TO_MOVE, "s to move", WAIT_MS);
    await play(s, "h30", f);
    assert.equal(f.game.board.toText(), dots.Board.fromMoves(["h00", "h10", "v00", "h30"]).toText());
    close(f, s);
  });

  test("a host whose game has no undo declines a takeback by itself, and asks none", async () => {
    const plain = { key: "xand0", create: (h, first) => new RecordingGame(h, first) };
    const room = randomUUID();
    const a = host(X0, room);
    const b = host(plain, room);
    a.done = a.play();
    await until(() => a.ticket !== null, "a's seat", WAIT_MS);
    b.done = b.play();
    await until(() => a.game !== null && b.game !== null && a.table !== null, "the start", WAIT_MS);
    if (!a.game.firstMove) {
      await until(() => b.state === State.PLAYING_TO_MOVE, "b's turn", WAIT_MS);
      b.move("00");
    }
    await until(() => a.state === State.PLAYING_TO_MOVE, "a's turn", WAIT_MS);
    a.game.play({ col: 1, row: 1 });
    await until(() => b.state === State.PLAYING_TO_MOVE, "b's turn", WAIT_MS);
    await a.askTakeback();
    await until(() => a.table.offer?.state === "declined", "the decline", WAIT_MS);
    assert.equal(a.table.offer.by, a.ticket.seat);
    assert.equal(b.canUndo, false);
    await assert.rejects(b.askTakeback(), HostStateError);
    close(a, b);
  });

  test("a takeback accepted just before this side's move voids it, and the game undoes it too", async () => {
    const [seenA, seenB] = [recorded(), recorded()];
    const [asker, other] = await seated([X0], [
      { fetch: seenA.fetch, seen: seenA },
      { fetch: seenB.fetch, seen: seenB },
    ]);
    await play(asker, "11", other);
    await play(other, "00", asker);
    // The asker asks on its own turn (its 11 and the other's 00); the answers to its polls are
    // held back, so that it moves before it hears of the acceptance.
    let release;
    const gated = asker.seen;
    gated.gate = new Promise((resolve) => (release = resolve));
    await asker.askTakeback();
    await until(() => other.table.offer?.state === "offered", "the request", WAIT_MS);
    await other.answerOffer(true);
    asker.game.play({ col: 2, row: 2 }); // refused: the undo took its place
    await until(() => asker.game.moves.length === 0 && asker.state === State.PLAYING_TO_MOVE, "all taken back", WAIT_MS);
    gated.gate = null;
    release();
    await until(() => other.game.moves.length === 0, "the other steps back", WAIT_MS);
    await play(asker, "02", other);
    assert.deepEqual(other.game.moves.map((m) => m.move), ["02"]);
    close(asker, other);
  });

  test("the computer accepts a takeback, and a draw only when it is not ahead", async () => {
    let value = 0;
    const computer = {
      key: "xand0",
      create: (h, first) => new ComputerGame(h, first, {
        rules: x0,
        think: async (moves) => x0.formatMove(x0Engine.chooseMove(x0.Board.fromMoves(moves), "strong")),
        judge: async () => value,
      }),
    };
    const [first, second] = await seated([X0, computer]);
    const [person, bot] = first.game instanceof ComputerGame ? [second, first] : [first, second];
    await until(() => person.state === State.PLAYING_TO_MOVE, "the person's turn", WAIT_MS);
    assert.ok(person.game.play(person.game.board.legalMoves()[0]));
    await until(() => person.state === State.PLAYING_TO_MOVE, "the computer's reply", WAIT_MS);
    const before = person.game.moves.length;
    await person.askTakeback();
    await until(() => person.table.offer?.state === "accepted", "the takeback accepted", WAIT_MS);
    await until(() => person.game.moves.length === before - 2 && bot.game.moves.length === before - 2, "both back", WAIT_MS);
    await until(() => person.state === State.PLAYING_TO_MOVE, "the person's turn again", WAIT_MS);
    value = -5; // the person, to move, is behind: the computer is ahead, and wants no draw
    await person.offerDraw();
    await until(() => person.table.offer?.state === "declined", "the draw declined", WAIT_MS);
    assert.ok(person.game.play(person.game.board.legalMoves()[0]));
    await until(() => person.state === State.PLAYING_TO_MOVE, "the computer's reply", WAIT_MS);
    value = 0; // even: a draw is welcome
    await person.offerDraw();
    const outcome = await person.done;
    assert.equal(outcome.reason, Reason.DRAWN);
    assert.equal((await bot.done).reason, Reason.DRAWN);
  });

  test("the claim time is read for each turn of the partner's, and a claim before it is refused", async () => {
    const [a, b] = await seated([X0]);
    assert.ok(a.table.claimIn > 250, `claim in ${a.table.claimIn}`);
    await play(a, "11", b);
    // a's move began b's turn: a reads when it may claim against b, afresh.
    await until(() => a.table.claimAt !== null && a.table.claimIn > 250, "a's claim time", WAIT_MS);
    await assert.rejects(a.claim(), (e) => e instanceof RelayRefusedError && e.code === "claim/not_stalled");
    await play(b, "00", a);
    // b's reply began a's own turn: a's claim time of b's turn is gone.
    await until(() => a.state === State.PLAYING_TO_MOVE && a.table.claimAt === null, "the old claim gone", WAIT_MS);
    close(a, b);
  });
});
