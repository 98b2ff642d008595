// The events' module and the client's copy of the `ended` reasons are one list (the copy stays
// in relay-client.mjs, where tests/relay/core/test_reasons.py reads it).

import assert from "node:assert/strict";
import { test } from "node:test";
import { ENDED_REASONS } from "../../relay/pages/events.mjs";
import { ENDED_REASONS as CLIENT_REASONS, parseEvent, Timing } from "../../relay/pages/relay-client.mjs";
import * as events from "../../relay/pages/events.mjs";
import * as timing from "../../relay/pages/timing.mjs";

test("the client lists the ended reasons the events module reads", () => {
  assert.deepEqual(CLIENT_REASONS, ENDED_REASONS);
});

test("the client still exports what moved to the events and timing modules", () => {
  assert.equal(parseEvent, events.parseEvent);
  assert.equal(Timing, timing.Timing);
});
