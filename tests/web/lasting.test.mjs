// Storage that lasts (web/infra/lasting.js): who is told of Safari's seven days, when the
// browser is asked to keep the storage, and what is said of a browser that cannot say.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { keepStorage, sevenDays, storageState } from "../../web/infra/lasting.js";

const DAY = 24 * 3600 * 1000;
const media = (standalone) => () => ({ matches: standalone });
const browser = Object.getOwnPropertyDescriptor(globalThis, "navigator");

// navigator.storage as a browser gives it: `kept` (persisted), `grant` (persist's answer);
// each ask counted.
function storage({ kept = false, grant = false } = {}) {
  const fake = { asked: 0 };
  fake.persisted = async () => kept;
  fake.persist = async () => {
    fake.asked += 1;
    kept = grant;
    return grant;
  };
  fake.estimate = async () => ({ usage: 1200, quota: 5000 });
  Object.defineProperty(globalThis, "navigator", { value: { storage: fake }, configurable: true });
  return fake;
}

// store.js's two functions for the date of the last ask, in memory.
function memory(asked = null) {
  const kept = { asked };
  return { persistAsked: () => kept.asked, savePersistAsked: (iso) => { kept.asked = iso; return "ok"; }, kept };
}

afterEach(() => {
  if (browser) Object.defineProperty(globalThis, "navigator", browser);
  else delete globalThis.navigator;
});

test("Safari's engine, not from the home screen, deletes after seven days; nothing else does", () => {
  const apple = { vendor: "Apple Computer, Inc." };
  assert.equal(sevenDays(apple, media(false)), true);
  assert.equal(sevenDays(apple, media(true)), false); // display-mode standalone
  assert.equal(sevenDays({ ...apple, standalone: true }, media(false)), false); // iOS's home screen
  assert.equal(sevenDays({ vendor: "Google Inc." }, media(false)), false);
  assert.equal(sevenDays({ vendor: "" }, media(false)), false); // Firefox
  assert.equal(sevenDays(undefined, undefined), false);
});

test("asked once, then not within a week of a refusal, then again", async () => {
  const now = Date.parse("2026-12-04T20:00:00Z");
  const fake = storage();
  const store = memory();
  assert.equal(await keepStorage(store, now), false);
  assert.equal(fake.asked, 1);
  assert.equal(store.kept.asked, new Date(now).toISOString());
  assert.equal(await keepStorage(store, now + 6 * DAY), false);
  assert.equal(fake.asked, 1);
  assert.equal(await keepStorage(store, now + 8 * DAY), false);
  assert.equal(fake.asked, 2);
});

test("kept already: never asked; granted: kept from then on", async () => {
  const kept = storage({ kept: true });
  assert.equal(await keepStorage(memory()), true);
  assert.equal(kept.asked, 0);
  const granted = storage({ grant: true });
  assert.equal(await keepStorage(memory()), true);
  assert.equal(await keepStorage(memory()), true);
  assert.equal(granted.asked, 1);
});

test("an ask dated in the future (a clock set back) does not stop the asking", async () => {
  const fake = storage();
  assert.equal(await keepStorage(memory("2099-01-01T00:00:00.000Z"), Date.parse("2026-12-04T20:00:00Z")), false);
  assert.equal(fake.asked, 1);
});

test("what a browser without navigator.storage says: nothing known, nothing asked", async () => {
  Object.defineProperty(globalThis, "navigator", { value: {}, configurable: true });
  assert.deepEqual(await storageState(), { used: null, quota: null, persisted: null });
  assert.equal(await keepStorage(memory()), null);
  storage();
  assert.deepEqual(await storageState(), { used: 1200, quota: 5000, persisted: false });
});
