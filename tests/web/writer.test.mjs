// The writer's saves to the tabs that follow (web/infra/writer.js): a tab that took the lock
// at its start posts nothing until a tab says it follows, then its last save at once and
// every save after; a save made before a change of role is never sent as the fight.
// Node's BroadcastChannel joins the objects of one process, as the browser joins tabs; the
// roles are set as the Web Lock would set them. Without a document, a save goes at once
// (web/infra/later.js).
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Writers } from "../../web/infra/writer.js";

const CHANNEL = "riposte.fight";

// A tab: its Writers with Web Locks present, and the saves it was told as a follower.
function tab() {
  const writers = new Writers();
  writers.locks = {}; // present: the roles below are the lock's
  const told = [];
  const waiting = [];
  writers.onSave((text) => {
    told.push(text);
    for (const w of waiting.splice(0)) w();
  });
  // Resolves once `n` saves were told.
  const until = async (n) => {
    while (told.length < n) await new Promise((resolve) => waiting.push(resolve));
  };
  return { writers, told, until };
}

// Everything posted on the channel, in order; `next(type, text)` resolves with the first
// message of that type (and that text, when given) not yet taken, and those it skipped.
// Each test's texts are its own: a message of a test before may still be on its way.
function spy() {
  const channel = new BroadcastChannel(CHANNEL);
  const heard = [];
  const waiting = [];
  channel.onmessage = (event) => {
    heard.push(event.data);
    for (const w of waiting.splice(0)) w();
  };
  let taken = 0;
  const next = async (type, text = undefined) => {
    for (;;) {
      const i = heard.findIndex((m, n) => n >= taken && m?.type === type && (text === undefined || m.text === text || m.id === text));
      if (i >= 0) {
        const skipped = heard.slice(taken, i);
        taken = i + 1;
        return { message: heard[i], skipped };
      }
      await new Promise((resolve) => waiting.push(resolve));
    }
  };
  return { channel, next };
}

// A mark posted from `writers`' own channel: whatever it posted before comes before it.
function mark(writers, id) {
  writers.channel.postMessage({ type: "mark", id });
}

// The saves among `messages` whose text starts with `prefix` (this test's).
const saves = (messages, prefix) => messages.filter((m) => m.type === "save" && m.text.startsWith(prefix));

const closeAll = (...tabs) => {
  for (const t of tabs) t.writers.channel.close();
};

test("a writer alone posts nothing; a tab that follows gets its last save at once, then each save", async () => {
  const bus = spy();
  const a = tab();
  a.writers.set("writer", "start");
  a.writers.publish("one: save 1", "shown 1");
  mark(a.writers, 1);
  const first = await bus.next("mark", 1);
  assert.deepEqual(saves(first.skipped, "one:"), [], "nothing posted while no tab follows");

  const b = tab();
  b.writers.set("follower", "start"); // says so on the channel
  await bus.next("save", "one: save 1");
  a.writers.publish("one: save 2", "shown 2");
  await bus.next("save", "one: save 2");
  await b.until(2);
  assert.deepEqual(b.told, ["one: save 1", "one: save 2"]);
  closeAll(a, b);
  bus.channel.close();
});

test("a tab handed the lock never sends a save it made before as the fight", async () => {
  const bus = spy();
  const a = tab();
  const b = tab();
  a.writers.set("writer", "start");
  b.writers.set("follower", "start");
  await bus.next("following");
  a.writers.publish("two: a's save", "shown");
  await bus.next("save", "two: a's save");
  // b takes over, writes; then b's tab goes and a is handed the lock back.
  b.writers.set("writer", "took");
  a.writers.set("follower", "stolen");
  b.writers.publish("two: b's save", "shown");
  await bus.next("save", "two: b's save");
  b.writers.set("follower", "freed");
  a.writers.set("writer", "freed");
  // A new tab follows a: a has made no save as this writer, so it sends none.
  let handled;
  const done = new Promise((resolve) => {
    handled = resolve;
  });
  const followedBy = a.writers.followedBy.bind(a.writers);
  a.writers.followedBy = () => {
    followedBy();
    handled();
  };
  const c = tab();
  c.writers.set("follower", "start");
  await done;
  mark(a.writers, 3);
  const after = await bus.next("mark", 3);
  assert.deepEqual(saves(after.skipped, "two:"), []);
  assert.deepEqual(saves(c.told.map((text) => ({ type: "save", text })), "two:"), []);
  // Its next save goes: a tab follows.
  a.writers.publish("two: a's new save", "shown");
  await bus.next("save", "two: a's new save");
  closeAll(a, b, c);
  bus.channel.close();
});

test("a follower is told what the writer shows: the board, the counts, the attacks' answers, the turn's clock; never the cue or the save", async () => {
  const a = tab();
  const b = tab();
  const shown = [];
  b.writers.onSave((text, fields) => shown.push(fields));
  a.writers.set("writer", "took"); // followed from the start: a took over
  b.writers.set("follower", "stolen");
  const board = { order: ["c1"], combatants: { c1: { name: "Aldric" } }, verdicts: [] };
  const answer = {
    board, undo: 3, redo: 0, last: { type: "pass" }, next: null, used: { c1: "parer" }, attackers: { c2: "c1" },
    gone: {}, turn: { id: "c1", since: 1000, limit: 60 }, cue: "pj_turn", save: "the writer's save", log: ["x"],
  };
  a.writers.publish("three: save", JSON.stringify(answer));
  await b.until(1);
  const [fields] = shown;
  assert.deepEqual(fields.turn, { id: "c1", since: 1000, limit: 60 });
  assert.deepEqual(fields.attackers, { c2: "c1" });
  assert.deepEqual(fields.used, { c1: "parer" });
  assert.equal(fields.undo, 3);
  for (const key of ["cue", "save", "log"]) assert.equal(key in fields && fields[key] !== undefined, false, key);
  closeAll(a, b);
});
