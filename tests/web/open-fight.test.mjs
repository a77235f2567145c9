// The open fight kept by its changes (web/infra/open-fight.js): two changes merged are one
// change; a record refused is said and the next one holds it (no gap); a whole text refused
// makes the next write whole; after COMPACT records the whole text is written again and the
// records dropped, in one write; an answer that does not follow what the tab keeps is
// refused at once. Over a storage of the test's own (web/infra/storage-keys.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { BOARD, COMPACT, KEY, LEFT, OpenFight, STEP, compose, merge, readOpen } from "../../web/infra/open-fight.js";
import { Keys } from "../../web/infra/storage-keys.js";

// localStorage's calls over a Map, each transaction refused while `refuse(puts)` says so.
function storage(refuse = () => false) {
  const items = new Map();
  const backing = {
    get length() { return items.size; },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
  const keys = new Keys(() => backing);
  const update = keys.update.bind(keys);
  keys.update = (puts, drops, prefix) => (refuse(puts) ? "full" : update(puts, drops, prefix));
  return { keys, items };
}

// The engine's fight as a save text after `commands` (each a JSON text), and the change
// from the first `from` of them (engine/save.py Written.change).
const HEAD = '{"app":"riposte","format":3,"commands":[';
const save = (commands, board) => `${HEAD}${commands.join(",")}],"board":${board}}`;
function change(commands, from, board) {
  const add = commands.slice(from).join(",");
  return { keep: HEAD.length + commands.slice(0, from).join(",").length, add: (from && add ? "," : "") + add, board };
}

test("two changes merged are the one change that does both", () => {
  const whole = save(["{\"a\":1}", "{\"b\":2}"], "null");
  const steps = [
    change(["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"], 2, "{\"r\":1}"),
    change(["{\"a\":1}"], 1, "{\"r\":2}"),
    change(["{\"a\":1}", "{\"d\":\"🗡\"}"], 1, "{\"r\":3}"),
  ];
  const once = compose(whole, steps, "{\"r\":3}");
  assert.equal(once, save(["{\"a\":1}", "{\"d\":\"🗡\"}"], "{\"r\":3}"));
  const merged = steps.reduce((m, s) => merge(m, s), null);
  assert.equal(compose(whole, [merged], merged.board), once);
});

test("a record refused is said, the next one holds it; a reader gets the engine's text", async () => {
  let full = false;
  const { keys } = storage(() => full);
  const open = new OpenFight({ storage: keys });
  const commands = ["{\"n\":0}"];
  open.save({ seq: 1, save: save(commands, "0") });
  let seq = 1;
  const tap = (board) => {
    commands.push(`{"n":${commands.length}}`);
    seq += 1;
    return open.save({ seq, log: change(commands, commands.length - 1, board) });
  };
  assert.equal(await tap("1"), "ok");
  full = true;
  assert.equal(await tap("2"), "full");
  full = false;
  assert.equal(await tap("3"), "ok");
  assert.equal((await open.get(KEY)).value, save(commands, "3"));
  assert.equal(readOpen(keys.scan([KEY, BOARD], STEP).items).steps, 2); // no gap: the refused change is in the second
  assert.equal(open.save({ seq: seq + 2, log: change(commands, 1, "4") }), null); // does not follow: refused at once
});

test("after COMPACT records, the whole text is written again and the records dropped", async () => {
  const { keys, items } = storage();
  const open = new OpenFight({ storage: keys });
  const commands = [];
  open.save({ seq: 0, save: save(commands, "0") });
  for (let n = 1; n <= COMPACT + 1; n++) {
    commands.push(`{"n":${n}}`);
    assert.equal(await open.save({ seq: n, log: change(commands, n - 1, String(n)) }), "ok");
  }
  assert.equal(items.get(KEY), save(commands, String(COMPACT + 1)));
  assert.equal([...items.keys()].filter((key) => key.startsWith(STEP)).length, 0);
  assert.equal((await open.get(KEY)).value, save(commands, String(COMPACT + 1)));
});

// A whole text, then one record after it: the storage, its open fight and the commands.
async function oneRecord() {
  const { keys, items } = storage();
  const open = new OpenFight({ storage: keys });
  const commands = ["{\"n\":0}"];
  open.save({ seq: 1, save: save(commands, "0") });
  commands.push("{\"n\":1}");
  assert.equal(await open.save({ seq: 2, log: change(commands, 1, "1") }), "ok");
  return { keys, items, open, commands };
}

test("records found after another whole text (an older page wrote it) are left out", async () => {
  const { keys, items, open, commands } = await oneRecord();
  assert.equal((await open.get(KEY)).value, save(commands, "1"));
  items.set(KEY, save(["{\"n\":9}"], "9")); // written whole by a page that knows no records
  assert.equal((await open.get(KEY)).value, save(["{\"n\":9}"], "9"));
  assert.equal(readOpen(keys.scan([KEY, BOARD], STEP).items).clean, false); // the next write is whole
});

test("a text another page wrote since is the fight when it reads; a corrupted one is written over", async () => {
  const { keys, items, open, commands } = await oneRecord();
  items.set(KEY, "{\"format\": 2, \"commands\": ["); // corrupted
  assert.equal((await open.get(KEY)).value, save(commands, "1"));
  commands.push("{\"n\":2}");
  assert.equal(await open.save({ seq: 3, log: change(commands, 2, "2") }), "ok");
  items.set(KEY, "{\"format\": 2, \"commands\": [");
  const reader = new OpenFight({ storage: keys });
  assert.equal((await reader.open()).value, save(commands, "2"));
  assert.equal(reader.gap, true); // the next write is whole, over the corrupted text
});

// A storage whose transactions wait until `land()` (a page that goes away first never
// hands them to the database).
function held() {
  const { keys, items } = storage();
  const update = keys.update.bind(keys);
  const waiting = [];
  keys.update = (puts, drops, prefix) => new Promise((resolve) => waiting.push(() => resolve(update(puts, drops, prefix))));
  // The transactions asked so far land (once the page's pending steps have asked them).
  const land = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    waiting.splice(0).forEach((go) => go());
  };
  return { keys, items, land };
}

// A whole text written, then a tap whose write has not landed: the page, its storage, the commands.
async function tapNotLanded() {
  const { keys, items, land } = held();
  const { keys: left, items: kept } = storage(); // the page's localStorage
  const page = new OpenFight({ storage: keys, left });
  const commands = ["{\"n\":0}"];
  const first = page.save({ seq: 1, save: save(commands, "0") });
  await land();
  assert.equal(await first, "ok");
  commands.push("{\"n\":1}");
  const tap = page.save({ seq: 2, log: change(commands, 1, "1") });
  return { keys, items, land, left, kept, page, commands, tap };
}

test("a tap shown but not written when its page goes away is the fight at the next start", async () => {
  const { keys, items, land, left, kept, page, commands } = await tapNotLanded();
  assert.equal(page.leaving(), true); // the page goes away: its write never lands
  assert.equal(JSON.parse(kept.get(LEFT)).text, save(commands, "1"));
  const next = new OpenFight({ storage: keys, left });
  assert.equal((await next.open()).value, save(commands, "1"));
  await land();
  await next.saving;
  assert.equal(readOpen(Object.fromEntries(items)).text, save(commands, "1")); // written whole
  assert.equal(kept.has(LEFT), false);
});

test("what a page left behind is dropped when its write landed, or another tab wrote since", async () => {
  for (const since of ["landed", "another tab"]) {
    const { keys, items, land, left, kept, page, commands, tap } = await tapNotLanded();
    assert.equal(page.leaving(), true);
    land(); // the write was handed to the database before the page went: it lands
    assert.equal(await tap, "ok");
    const other = save(["{\"n\":7}"], "7");
    if (since === "another tab") {
      const writer = new OpenFight({ storage: keys });
      const written = writer.save({ seq: 1, save: other });
      await land();
      assert.equal(await written, "ok");
    }
    const next = new OpenFight({ storage: keys, left });
    assert.equal((await next.open()).value, since === "landed" ? save(commands, "1") : other, since);
    assert.equal(kept.has(LEFT), false, since);
    assert.equal(readOpen(Object.fromEntries(items)).text, since === "landed" ? save(commands, "1") : other, since);
  }
});

test("a page that left its fight behind and lives on (frozen, then resumed) drops it once written", async () => {
  const { land, kept, page, tap } = await tapNotLanded();
  assert.equal(page.leaving(), true);
  assert.equal(kept.has(LEFT), true);
  await land();
  assert.equal(await tap, "ok");
  await page.saving;
  assert.equal(kept.has(LEFT), false);
  assert.equal(page.leaving(), false); // nothing unwritten: nothing left
  assert.equal(kept.has(LEFT), false);
});
