// The board's verdicts as the engine's worker sends them (engine/wire.py), put back on
// each fighter by the page (web/infra/verdicts.js unpack). tests/test_wire.py checks the
// same against the engine's own boards.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { unpack, unpackedText } from "../../web/infra/verdicts.js";

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
