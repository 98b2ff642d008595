// Tickets that save: JSON text, and a Web Storage (localStorage's interface) under a key.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  forgetTicket,
  loadTicket,
  saveTicket,
  ticketFromJSON,
  ticketToJSON,
} from "../../relay/pages/movewire.mjs";
import { MemoryStorage } from "./helpers.mjs";

const TICKET = Object.freeze({ match: "m4tch-Id_1", seat: 1, token: "t".repeat(43) });

describe("tickets", () => {
  test("round-trip through JSON text", () => {
    const text = ticketToJSON(TICKET);
    assert.deepEqual(JSON.parse(text), { ...TICKET });
    const back = ticketFromJSON(text);
    assert.deepEqual(back, TICKET);
    assert.ok(Object.isFrozen(back));
  });

  test("anything but a saved ticket is refused by name", () => {
    for (const [text, why] of [
      ["", /not JSON/],
      ["[1]", /not a JSON object/],
      ['{"seat": 0, "token": "t"}', /'match' is not a match id/],
      ['{"match": "m", "seat": 2, "token": "t"}', /'seat' is not 0 or 1/],
      ['{"match": "m", "seat": 0, "token": 5}', /'token' is not a token/],
    ]) {
      assert.throws(() => ticketFromJSON(text), (error) => error instanceof TypeError && why.test(error.message));
    }
  });

  test("save, load and forget in a storage under a key", () => {
    const storage = new MemoryStorage();
    assert.equal(loadTicket("xand0", storage), null);
    saveTicket("xand0", TICKET, storage);
    assert.deepEqual(loadTicket("xand0", storage), TICKET);
    forgetTicket("xand0", storage);
    assert.equal(loadTicket("xand0", storage), null);
  });

  test("a garbled saved value loads as none and is removed", () => {
    const storage = new MemoryStorage();
    storage.setItem("xand0", "{not json");
    assert.equal(loadTicket("xand0", storage), null);
    assert.equal(storage.getItem("xand0"), null);
  });

  test("localStorage is the default storage", () => {
    const storage = new MemoryStorage();
    globalThis.localStorage = storage;
    try {
      saveTicket("c4", TICKET);
      assert.deepEqual(loadTicket("c4"), TICKET);
      assert.equal(storage.getItem("c4"), ticketToJSON(TICKET));
    } finally {
      delete globalThis.localStorage;
    }
  });
});
