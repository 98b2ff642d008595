// The JavaScript host replays the scenario corpus (tests/support/host_scenarios/) against the
// scenario relay (tests/support/scenario_relay.py, started here): the same events in give the
// states, calls, dialogs, writes and outcome each scenario expects.
// tests/sdk/test_host_scenarios.py replays the same files with the Python host.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { RelayHost, Timing } from "../../relay/pages/movewire.mjs";
import { Recorder, ScenarioGame } from "./scenario_game.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CORPUS = new URL("../support/host_scenarios/", import.meta.url);
const SCENARIOS = readdirSync(CORPUS)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => [file.slice(0, -5), JSON.parse(readFileSync(new URL(file, CORPUS), "utf8"))]);

/** Short polls and quick retries, as the Python runner's. */
const TIMING = new Timing({ pollWait: 1, requestTimeout: 5, backoffBase: 0.01, backoffCap: 0.2, giveUp: 10 });

/** Starts the scenario relay; resolves {url, stop}. */
async function startRelay() {
  const python = process.env.MOVEWIRE_PYTHON ?? "python3";
  const child = spawn(python, ["-m", "tests.support.scenario_relay"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the scenario relay exited (${code})`)));
  });
  return { url, stop: () => child.kill() };
}

/** Plays a scenario with a JavaScript RelayHost; resolves what it did, as the corpus writes it. */
async function replay(url, name, scenario) {
  const rec = new Recorder();
  const host = new RelayHost({
    relay: url,
    gameKey: name,
    timing: TIMING,
    createGame: (h, firstMove) => new ScenarioGame(h, firstMove, scenario.game, rec),
    onDialog: (text) => rec.dialog(text),
    onState: (state) => rec.state(state),
  });
  rec.host = host;
  const timer = setTimeout(() => host.close(), 15000);
  const outcome = await host.play();
  clearTimeout(timer);
  assert.ok(outcome !== null, `${name} did not end within 15 s`);
  const { writes } = await (await fetch(`${url}/record/${host.ticket.match}`)).json();
  return {
    states: rec.states,
    calls: rec.calls,
    writes,
    outcome: { result: outcome.result, reason: outcome.reason, by: outcome.by, message: outcome.message },
    retried: host.retries > 0,
  };
}

describe("the scenario corpus, replayed by the JavaScript host", () => {
  let relay;
  before(async () => {
    relay = await startRelay();
  });
  after(() => relay?.stop());

  test("holds at least 12 scenarios", () => {
    assert.ok(SCENARIOS.length >= 12);
  });

  for (const [name, scenario] of SCENARIOS) {
    test(name, async () => {
      assert.deepEqual(await replay(relay.url, name, scenario), scenario.expect);
    });
  }
});
