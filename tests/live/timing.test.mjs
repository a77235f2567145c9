// The live table's timings (web/live/timing.js): one factor, read from one switch before
// the page's scripts run, scales the table's rhythm alike and leaves the limits on what
// real time governs; anything but a number in (0, 1] leaves every timing as it is.
import { test } from "node:test";
import assert from "node:assert/strict";

const MODULE = new URL("../../web/live/timing.js", import.meta.url);
let loads = 0;

// The module as a page whose switch is `value` (undefined: not set) reads it.
async function timingWith(value) {
  if (value === undefined) delete globalThis.__riposteLiveTimeScale;
  else globalThis.__riposteLiveTimeScale = value;
  try {
    return await import(`${MODULE.href}?load=${++loads}`); // a fresh evaluation each time
  } finally {
    delete globalThis.__riposteLiveTimeScale;
  }
}

const RHYTHM = ["HEARTBEAT", "SILENT", "INVITATION_LIFE", "REMOTE_LIFE", "ANSWER_LATE"];
const LIMITS = ["GATHER_LIMIT", "CONNECT_LIMIT", "SPARE_WAIT", "REMOVED_WAIT", "MATE_OFFER_LIFE", "MATE_AGAIN", "RELAY_AGAIN", "TAB_WAIT", "HANDOFF_WAIT",
  "SCAN_EVERY", "DOUBLE_TAP", "RESTART_AGAIN", "REMOTE_AGAIN"];

test("a real table: the heartbeat every 4 s, silent after 10 s", async () => {
  const timing = await timingWith(undefined);
  assert.equal(timing.SCALE, 1);
  assert.equal(timing.HEARTBEAT, 4000);
  assert.equal(timing.SILENT, 10_000);
  assert.ok(timing.SILENT > 2 * timing.HEARTBEAT, "a phone is silent only after two missed heartbeats");
  // A pairing that does not connect is said within 20 s on both phones.
  assert.ok(timing.CONNECT_LIMIT <= 20_000 && timing.ANSWER_LATE <= 20_000);
  // « Inviter à distance » says « valable 8 heures » (web/lang/fr.js liveInviteRemoteHint).
  assert.equal(timing.REMOTE_LIFE, 8 * 3600_000);
  assert.ok(timing.REMOTE_LIFE > 4 * timing.INVITATION_LIFE, "a chat's invitation outlives one at the table");
});

test("the switch scales every rhythm alike, and no limit", async () => {
  const real = await timingWith(undefined);
  const fast = await timingWith(0.1);
  assert.equal(fast.SCALE, 0.1);
  for (const name of RHYTHM) assert.equal(fast[name], real[name] * 0.1, name);
  for (const name of LIMITS) assert.equal(fast[name], real[name], name);
  const exported = Object.keys(real).filter((name) => name !== "SCALE").sort();
  assert.deepEqual(exported, [...RHYTHM, ...LIMITS].sort(), "every timing is one or the other");
});

test("anything but a number in (0, 1] leaves the table's timings as they are", async () => {
  for (const value of [0, -1, 2, Number.NaN, Infinity, "0.1", null, { valueOf: () => 0.1 }]) {
    const timing = await timingWith(value);
    assert.equal(timing.SCALE, 1, String(value));
    assert.equal(timing.HEARTBEAT, 4000, String(value));
  }
});
