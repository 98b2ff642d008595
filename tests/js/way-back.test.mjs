// The lobby's way back to a match left on (way-back.mjs), without a DOM: which of a player
// key's matches have one, the seconds a table gives an away seat, and the words shown and said;
// the live tickets a browser keeps for it (page-links.mjs), and how they join the key's matches.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { RelayRefusedError } from "../../relay/pages/errors.mjs";
import {
  LIVE_FOR_MS,
  LIVE_LIMIT,
  LIVE_TICKETS,
  forgetLive,
  keepLive,
  liveTicket,
  liveTickets,
  pageName,
} from "../../relay/pages/page-links.mjs";
import { parsePlayerMatch } from "../../relay/pages/players.mjs";
import { parseTable } from "../../relay/pages/table.mjs";
import {
  awaySeconds,
  byMatch,
  goneFor,
  leftWords,
  matchesOn,
  ticketRow,
  wayBackSaid,
  wayBackWords,
} from "../../relay/pages/way-back.mjs";
import { MemoryStorage } from "./helpers.mjs";

const row = (match, status, timeControl = null) =>
  parsePlayerMatch({ match, game: "xand0", seat: 1, status, turn: 0, your_turn: false, time_control: timeControl });

describe("the way back", () => {
  test("is offered for a live match played or ending, never a correspondence one", () => {
    const rows = [
      row("playing", "playing"),
      row("clocked", "playing", { kind: "fischer", base: 300, increment: 3 }),
      row("ending", "ending"),
      row("waiting", "waiting"),
      row("finished", "finished"),
      row("post", "playing", { kind: "deadline", per_move: 86400 }),
    ];
    assert.deepEqual(
      matchesOn(rows).map((entry) => entry.match),
      ["playing", "clocked", "ending"],
    );
  });

  test("counts down only while the relay shows the seat away, and may abandon", () => {
    const table = (presence) => parseTable({ version: 2, names: [null, null], presence, chat: [] });
    const away = table([{ here: true }, { here: false, since: 1763864410.2, abandon_in: 27.4 }]);
    assert.equal(awaySeconds(away, 1), 27.4);
    assert.equal(awaySeconds(away, 0), null);
    const never = table([{ here: true }, { here: false, since: 1763864410.2, abandon_in: null }]);
    assert.equal(awaySeconds(never, 1), null);
    assert.equal(awaySeconds(null, 1), null);
  });

  test("says what it is in words, whole seconds rounded up and never below 0", () => {
    assert.equal(wayBackWords("X and 0"), "Your match of X and 0 is on: go back");
    assert.equal(leftWords(26.2), "27 s left to come back");
    assert.equal(leftWords(-3), "0 s left to come back");
    assert.equal(wayBackSaid("X and 0", null), "Your match of X and 0 is on.");
    assert.equal(wayBackSaid("X and 0", 27), "Your match of X and 0 is on: 27 s left to come back.");
  });
});

const TOKEN = "t".repeat(43);
const live = (match, seat = 0, more = {}) => ({
  game: "xand0",
  match,
  seat,
  token: TOKEN,
  page: "xand0.html",
  room: null,
  clock: "",
  ...more,
});

describe("the live tickets a browser keeps", () => {
  test("are kept from localStorage's text, one a match's seat, and forgotten", () => {
    const storage = new MemoryStorage();
    const now = Date.now();
    assert.deepEqual(liveTickets(storage), []);
    keepLive(live("a"), storage, now - 3000);
    keepLive(live("b", 1, { room: "r00m", clock: "5+3" }), storage, now - 2000);
    keepLive(live("a"), storage, now - 1000); // kept again (a reload): now the newest
    assert.deepEqual(
      liveTickets(storage, now).map((ticket) => [ticket.match, ticket.seat, ticket.at]),
      [
        ["b", 1, now - 2000],
        ["a", 0, now - 1000],
      ],
    );
    assert.deepEqual(liveTicket("b", 1, storage), { ...live("b", 1, { room: "r00m", clock: "5+3" }), at: now - 2000 });
    assert.equal(liveTicket("b", 0, storage), null);
    forgetLive("b", null, storage);
    assert.deepEqual(
      liveTickets(storage).map((ticket) => ticket.match),
      ["a"],
    );
    forgetLive("a", 0, storage);
    assert.equal(storage.getItem(LIVE_TICKETS), null); // none left: the key goes too
  });

  test("are at most LIVE_LIMIT, the oldest dropped, and none older than a day", () => {
    const storage = new MemoryStorage();
    for (let n = 0; n < LIVE_LIMIT + 3; n++) keepLive(live(`m${n}`), storage, 1000 + n);
    const kept = liveTickets(storage, 2000);
    assert.equal(kept.length, LIVE_LIMIT);
    assert.deepEqual([kept[0].match, kept.at(-1)?.match], ["m3", `m${LIVE_LIMIT + 2}`]);
    // A day after the first of them: it is dropped, from the storage too.
    assert.equal(liveTickets(storage, 1003 + LIVE_FOR_MS).length, LIVE_LIMIT - 1);
    assert.equal(JSON.parse(String(storage.getItem(LIVE_TICKETS))).length, LIVE_LIMIT - 1);
  });

  test("drop what is not one: damaged text, a bad seat or token, a page that is not a page's name", () => {
    const storage = new MemoryStorage();
    storage.setItem(LIVE_TICKETS, "{not json");
    assert.deepEqual(liveTickets(storage), []);
    assert.equal(storage.getItem(LIVE_TICKETS), null);
    const at = Date.now();
    const bad = [
      { ...live("s"), seat: 2 },
      { ...live("t"), token: "" },
      { ...live("p"), page: "javascript:alert(1)" },
      { ...live("q"), page: "//elsewhere.example/x.html" },
      { ...live("r"), room: "no room!" },
      { ...live("g"), game: 5 },
      live("w"), // no time kept
      null,
    ].map((entry) => (entry === null || entry.match === "w" ? entry : { ...entry, at }));
    storage.setItem(LIVE_TICKETS, JSON.stringify([...bad, { ...live("ok"), at }]));
    assert.deepEqual(
      liveTickets(storage).map((ticket) => ticket.match),
      ["ok"],
    );
    keepLive({ ...live("x"), page: "../x.html" }, storage); // never kept
    assert.equal(liveTicket("x", null, storage), null);
  });

  test("name their page as the lobby links to it", () => {
    assert.equal(pageName("/xand0.html"), "xand0.html");
    assert.equal(pageName("/under/prefix/connect4.html"), "connect4.html");
    assert.equal(pageName("/"), null);
  });
});

describe("the way back by kept tickets", () => {
  test("reads a kept match as the relay says it, with the page that played it", () => {
    const info = { match: "a", game: "xand0", status: "playing", time_control: null };
    const row = ticketRow({ ...live("a", 1), page: "mine.html" }, info);
    assert.deepEqual(
      [row.match, row.game, row.seat, row.status, row.timeControl, row.page],
      ["a", "xand0", 1, "playing", null, "mine.html"],
    );
    const ended = ticketRow(live("a"), { ...info, status: "finished" });
    const post = ticketRow(live("b"), { ...info, time_control: { kind: "deadline", per_move: 86400 } });
    assert.deepEqual(matchesOn([row, ended, post]), [row]);
  });

  test("forgets a match the relay forgot or let expire, never one it did not answer", () => {
    assert.equal(goneFor(new RelayRefusedError(404, "match/unknown", "no such match")), true);
    assert.equal(goneFor(new RelayRefusedError(410, "match/expired", "expired")), true);
    assert.equal(goneFor(new RelayRefusedError(429, "rate/limited", "slow down")), false);
    assert.equal(goneFor(new Error("network")), false);
  });

  test("shows a match once, the key's seat first, both seats of a browser playing itself", () => {
    const key = row("a", "playing");
    const kept = [ticketRow(live("a", 1), { status: "playing" }), ticketRow(live("c", 0), { status: "playing" })];
    const both = [ticketRow(live("d", 0), { status: "playing" }), ticketRow(live("d", 1), { status: "playing" })];
    assert.deepEqual(
      byMatch([key], [...kept, ...both]).map((rows) => rows.map((each) => [each.match, each.seat])),
      [[["a", 1]], [["c", 0]], [["d", 0], ["d", 1]]],
    );
  });
});
