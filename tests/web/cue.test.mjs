// The cue of a PJ's turn (web/infra/cue.js) and the turn clock's words (web/views/clock-view.js
// minutes). Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cue } from "../../web/infra/cue.js";
import { minutes } from "../../web/views/clock-view.js";

function counted() {
  const seen = { beeps: [], buzzes: [] };
  globalThis.AudioContext = class {
    constructor() { this.currentTime = 0; this.destination = {}; }
    resume() { return Promise.resolve(); }
    createGain() { return { gain: { value: 1 }, connect() {} }; }
    createOscillator() {
      const o = { frequency: { value: 0 }, connect() {}, start: () => seen.beeps.push(o.frequency.value), stop() {} };
      return o;
    }
  };
  Object.defineProperty(globalThis, "navigator", { configurable: true, value: { vibrate: (p) => seen.buzzes.push(p) || true } });
  return seen;
}

test("off, or no cue from the engine: nothing sounds, nothing buzzes", () => {
  const seen = counted();
  assert.deepEqual(cue("pj_turn", "off"), []);
  assert.deepEqual(cue(undefined, "both"), []);
  assert.deepEqual(seen, { beeps: [], buzzes: [] });
});

test("each setting does what it says, once per cue", () => {
  const seen = counted();
  assert.deepEqual(cue("pj_turn", "sound"), ["sound"]);
  assert.deepEqual(cue("pj_turn", "vibrate"), ["vibrate"]);
  assert.deepEqual(cue("answer", "both"), ["sound", "vibrate"]);
  assert.equal(seen.beeps.length, 2);
  assert.deepEqual(seen.buzzes, [150, [80, 60, 80]]); // an answer waiting buzzes twice
});

test("no vibration where the browser has none, no sound where WebAudio is missing", () => {
  counted();
  delete globalThis.AudioContext;
  Object.defineProperty(globalThis, "navigator", { configurable: true, value: {} });
  assert.deepEqual(cue("pj_turn", "both"), []);
});

test("the clock's minutes and seconds", () => {
  assert.equal(minutes(0), "0:00");
  assert.equal(minutes(59_999), "0:59");
  assert.equal(minutes(61_000), "1:01");
  assert.equal(minutes(-5), "0:00");
});
