// The board's verdicts as the engine's worker sends them (engine/wire.py), put back on
// each fighter by the page (web/infra/verdicts.js unpack). tests/test_wire.py checks the
// same against the engine's own boards.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Held, unpack, unpackedText } from "../../web/infra/verdicts.js";

const packed = () => ({
  order: ["a", "b"],
  combatants: { a: { id: "a", actions: [0, 1] }, b: { id: "b", actions: [1, 1] } },
  verdicts: { actions: ["pass", "act"], table: [{ allowed: true }, { allowed: false, key: "not_your_turn" }] },
});

test("each fighter gets its verdict for every action, and the table goes", () => {
  const board = unpack(packed());
  assert.deepEqual(board.combatants.a.actions, { pass: { allowed: true }, act: { allowed: false, key: "not_your_turn" } });
  assert.deepEqual(board.combatants.b.actions, { pass: { allowed: false, key: "not_your_turn" }, act: { allowed: false, key: "not_your_turn" } });
  assert.equal("verdicts" in board, false);
});

test("a board without a table is left as it is, as is a fighter whose verdicts are whole", () => {
  const whole = { order: ["a"], combatants: { a: { id: "a", actions: { pass: { allowed: true } } } } };
  assert.deepEqual(unpack(structuredClone(whole)), whole);
  assert.equal(unpack(null), null);
  assert.equal(unpack(undefined), undefined);
  const mixed = packed();
  mixed.combatants.c = { id: "c", actions: { pass: { allowed: true } } };
  assert.deepEqual(unpack(mixed).combatants.c.actions, { pass: { allowed: true } });
});

test("an answer's text comes back with its board whole", () => {
  const answer = JSON.parse(unpackedText(JSON.stringify({ ok: true, board: packed() })));
  assert.equal(answer.ok, true);
  assert.deepEqual(answer.board.combatants.a.actions.pass, { allowed: true });
  assert.equal(JSON.parse(unpackedText('{"ok":false}')).ok, false);
});

test("a fighter sent as 0 is the one of the board held, the same object", () => {
  const held = new Held();
  const first = held.take({ ...packed(), mark: 1 });
  assert.equal(held.mark, 1);
  assert.equal("mark" in first, false);
  const next = held.take({ ...packed(), combatants: { a: 0, b: { id: "b", actions: [0, 0] } }, mark: 2, since: 1 });
  assert.equal(next.combatants.a, first.combatants.a);
  assert.deepEqual(next.combatants.b.actions, { pass: { allowed: true }, act: { allowed: true } });
  assert.equal("since" in next, false);
  assert.equal(held.mark, 2);
});

test("a board kept from one not held is refused, and the next is taken whole", () => {
  const held = new Held();
  held.take({ ...packed(), mark: 1 });
  assert.throws(() => held.take({ ...packed(), combatants: { a: 0, b: { id: "b", actions: [0, 0] } }, mark: 3, since: 2 }));
  assert.equal(held.mark, null);
  assert.throws(() => new Held().take({ ...packed(), combatants: { a: 0, b: { id: "b", actions: [0, 0] } }, mark: 2, since: 1 }));
  assert.throws(() => unpack({ ...packed(), combatants: { c: 0 }, since: 1 }, { mark: 1, combatants: { a: {} } }));
  const whole = held.take({ ...packed(), mark: 4 });
  assert.deepEqual(whole.combatants.a.actions.pass, { allowed: true });
  assert.equal(held.mark, 4);
  const unmarked = held.take({ order: ["a"], combatants: { a: { id: "a" } } }); // no verdicts: as it is, the board held stays
  assert.deepEqual(unmarked.combatants.a, { id: "a" });
  assert.equal(held.mark, 4);
});
