// docs/javascript.md's JavaScript: the sealed-count example runs as written (an async
// receiveMove over WebCrypto, the end claim, a salt kept with the ticket and resumed), and
// the list of movewire.mjs's exports is the module's.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import * as movewire from "../../relay/pages/movewire.mjs";
import { Game, loadTicket, Reason, Result, saveTicket, State } from "../../relay/pages/movewire.mjs";
import { rejected } from "../../relay/pages/endings.mjs";
import { FakeRelay } from "./fake_relay.mjs";
import { MemoryStorage, recordingHost, until } from "./helpers.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs", "javascript.md"), "utf8");

/** Returns the docs' example module, written beside nothing but movewire.mjs's real path. */
async function example() {
  const found = /<!-- example: sealed-js -->\n```js\n([\s\S]*?)```/.exec(DOC);
  assert.ok(found, "docs/javascript.md has no sealed-js example");
  const host = pathToFileURL(join(ROOT, "relay", "pages", "movewire.mjs")).href;
  const code = found[1].replace('from "./movewire.mjs"', `from ${JSON.stringify(host)}`);
  const file = join(mkdtempSync(join(tmpdir(), "movewire-doc-")), "sealed.mjs");
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

describe("the docs' sealed-count example", () => {
  test("plays to an agreed draw, each side's salt kept with its ticket", async () => {
    const { Sealed } = await example();
    const relay = new FakeRelay();
    const create = (host, first) => new Sealed(host, first);
    const a = recordingHost({ fetch: relay.fetch, createGame: create });
    const b = recordingHost({ fetch: relay.fetch, createGame: create });
    const [outA, outB] = await Promise.all([a.play(), b.play()]);
    assert.deepEqual([outA.reason, outB.reason], [Reason.AGREED, Reason.AGREED]);
    assert.deepEqual([outA.result, outB.result], [Result.DRAWN, Result.DRAWN]);
    assert.equal(a.game.transcript, b.game.transcript); // both hashed the same moves, in order
    assert.equal(a.game.count, 10);
    assert.ok(a.kept && b.kept && a.kept !== b.kept);
    assert.equal(a.record.tickets.at(-1).kept, a.kept);
  });

  test("a side closed mid-match resumes from its saved ticket with the same salt", async () => {
    const { Sealed } = await example();
    const relay = new FakeRelay();
    const storage = new MemoryStorage();
    let reached = false;
    class Slow extends Sealed {
      enable() {
        if (this.count >= 4) reached = true;
        else super.enable();
      }
    }
    const a = recordingHost({
      fetch: relay.fetch,
      createGame: (host, first) => new Slow(host, first),
      onTicket: (ticket) => saveTicket("sealed", ticket, storage),
    });
    const b = recordingHost({ fetch: relay.fetch, createGame: (host, first) => new Sealed(host, first) });
    const playing = a.play();
    const other = b.play();
    await until(() => reached, "four numbers said");
    const salt = a.kept;
    a.close();
    assert.equal(await playing, null);
    const ticket = loadTicket("sealed", storage);
    assert.equal(ticket.kept, salt);
    const again = recordingHost({ fetch: relay.fetch, resume: ticket, createGame: (host, first) => new Sealed(host, first) });
    const [outA, outB] = await Promise.all([again.play(), other]);
    assert.deepEqual([outA.reason, outB.reason], [Reason.AGREED, Reason.AGREED]);
    assert.equal(again.game.salt, salt);
    assert.equal(again.game.transcript, b.game.transcript); // restored by an async restore()
  });

  test("a cheater's number and a false end claim are rejected with their reasons", async () => {
    const { Sealed } = await example();
    for (const [move, end, reason] of [
      ["5 x", false, "5 does not follow 0"],
      ["1 x", true, "the count ends at 10, and only there"],
    ]) {
      class Cheat extends Game {
        enable() {
          this.host.move(move, end);
        }
        disable() {}
        receiveMove() {
          return State.PLAYING_TO_MOVE;
        }
      }
      const relay = new FakeRelay();
      const cheat = recordingHost({ fetch: relay.fetch, createGame: (host, first) => new Cheat(host, first) });
      const cheating = cheat.play();
      await until(() => cheat.ticket !== null, "the cheat's seat");
      const honest = recordingHost({ fetch: relay.fetch, createGame: (host, first) => new Sealed(host, first) });
      const [theirs, mine] = await Promise.all([cheating, honest.play()]);
      assert.deepEqual(honest.record.dialogs, [rejected(1, false, reason)]);
      assert.deepEqual([mine.reason, theirs.reason, theirs.detail], [Reason.DISPUTED, Reason.DISPUTED, reason]);
      assert.deepEqual(cheat.record.dialogs, [`Your partner's game rejected your move 1: ${reason}. Disputed.`]);
    }
  });
});

describe("docs/javascript.md", () => {
  test("lists exactly what movewire.mjs exports", () => {
    const section = /### What `movewire.mjs` exports\n([\s\S]*?)\nOther files:/.exec(DOC);
    assert.ok(section, "docs/javascript.md has no list of movewire.mjs's exports");
    const listed = section[1].split("\n").filter((line) => /^- |^  /.test(line)).join(" ");
    const names = [...listed.matchAll(/`([A-Za-z_]+)`/g)].map((found) => found[1]);
    assert.deepEqual([...names].sort(), Object.keys(movewire).sort());
  });
});
