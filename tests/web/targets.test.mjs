// The fighters a card and the action sheet offer as targets (web/views/board-view.js
// targetsOf): the engine's list (the board's `targets`, engine/view.py), in its order,
// never one of the page's making; a board without one (painted from a save) or a list
// that is not one offers none, and an id not on the board is left out.
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { targetsOf } from "../../web/views/board-view.js";

const fighter = (id, side, more = {}) => ({ id, name: id, side, hors_combat: false, engaged_with: [], ...more });
const COMBATANTS = { a: fighter("a", "pj"), b: fighter("b", "pj"), c: fighter("c", "pnj"), d: fighter("d", "pnj", { hors_combat: true }) };

test("the targets are the engine's, in its order", () => {
  const board = { order: ["a", "b", "c", "d"], combatants: COMBATANTS, targets: { a: ["b", "d", "c"] } };
  assert.deepEqual(targetsOf(board, COMBATANTS.a).map((f) => f.id), ["b", "d", "c"]);
});

test("no list, a list that is not one, or an id off the board: nothing made up, nothing thrown", () => {
  const base = { order: ["a", "b", "c"], combatants: COMBATANTS };
  assert.deepEqual(targetsOf(base, COMBATANTS.a), []);
  assert.deepEqual(targetsOf({ ...base, targets: null }, COMBATANTS.a), []);
  assert.deepEqual(targetsOf({ ...base, targets: { a: "b" } }, COMBATANTS.a), []);
  assert.deepEqual(targetsOf({ ...base, targets: { a: ["zz", "__proto__", "c"] } }, COMBATANTS.a).map((f) => f.id), ["c"]);
});
