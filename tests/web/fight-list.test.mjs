// The open fight's entry in the list of fights (web/infra/fight-list.js `touch`): written
// when what the list shows of it changes (its round, its fighters, the minute of its
// date), not at every tap.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FightList } from "../../web/infra/fight-list.js";

const INDEX = "riposte.fights";

// A list whose storage counts the writes of the list itself, on a clock the test sets.
function list(updated) {
  const writes = [];
  const keys = {
    async set(key, value) {
      if (key === INDEX) writes.push(JSON.parse(value));
      return "ok";
    },
    async get() {
      return { value: null };
    },
  };
  const clock = { now: "2026-12-06T19:40:05.000Z" };
  const fights = new FightList({ keys, engine: null, words: {}, now: () => clock.now });
  fights.index = { next: 2, current: "f1", fights: [{ id: "f1", name: "Combat 1", created: updated, updated, round: 1, fighters: 2 }] };
  return { fights, writes, clock };
}

const board = (round, fighters) => ({ round, combatants: Object.fromEntries(Array.from({ length: fighters }, (_, i) => [`c${i}`, {}])) });

test("the taps of a minute that change neither the round nor the fighters write the entry once", async () => {
  const { fights, writes, clock } = list("2026-12-06T19:39:59.000Z");
  await fights.touch(board(1, 2), "text");
  assert.equal(writes.length, 1); // a new minute: its date is written
  assert.equal(writes[0].fights[0].updated, "2026-12-06T19:40:05.000Z");
  clock.now = "2026-12-06T19:40:41.000Z";
  await fights.touch(board(1, 2), "text");
  await fights.touch(board(1, 2), "text");
  assert.equal(writes.length, 1);
  assert.equal(fights.index.fights[0].updated, "2026-12-06T19:40:05.000Z"); // shown as 19:40 either way
});

test("a new round, a fighter more or the next minute writes the entry", async () => {
  const { fights, writes, clock } = list("2026-12-06T19:40:00.000Z");
  await fights.touch(board(2, 2), "text");
  assert.deepEqual([writes.length, writes.at(-1).fights[0].round], [1, 2]);
  await fights.touch(board(2, 3), "text");
  assert.deepEqual([writes.length, writes.at(-1).fights[0].fighters], [2, 3]);
  clock.now = "2026-12-06T19:41:00.000Z";
  await fights.touch(board(2, 3), "text");
  assert.deepEqual([writes.length, writes.at(-1).fights[0].updated], [3, "2026-12-06T19:41:00.000Z"]);
});

test("a date that is not an ISO date is written anew", async () => {
  const { fights, writes } = list("2026-12-06");
  await fights.touch(board(1, 2), "text");
  assert.equal(writes.length, 1);
});
