// The one cost formatter (web/views/labels.js costLabel): a price as the board's chips and
// the sheet show it, and what was paid as the dock, the live region and the journal say
// it, in French and in English (the language is the page's <html lang>: web/infra/i18n.js).
// Run by `node --test tests/web/` (tests/test_js_units.py runs it under pytest).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { costLabel, testLabel } from "../../web/views/labels.js";
import { loadLanguage } from "../../web/infra/i18n.js";

// English is fetched once chosen, as the page does (web/infra/i18n.js).
await loadLanguage("en");

// An action taken as the engine tells it (engine/events.py ActionTaken), by what it paid with.
const TAKEN = {
  pi: { pays: "pi", cost: 5, pi_before: 11, pi_after: 6, hope_before: 2, hope_after: 2 },
  espoir: { pays: "espoir", cost: 1, pi_before: 0, pi_after: 0, hope_before: 1, hope_after: 0 },
  rien: { pays: "rien", cost: 0, pi_before: 6, pi_after: 6, hope_before: 2, hope_after: 2 },
};

function inLanguage(code) {
  globalThis.document = { documentElement: { lang: code } };
}

afterEach(() => {
  delete globalThis.document;
});

test("a price and what was paid, in French (the page's language by default)", () => {
  assert.deepEqual(Object.values(TAKEN).map((price) => costLabel(price)), ["5 P.I.", "1 point d'Espoir", "rien"]);
  assert.deepEqual(Object.values(TAKEN).map((price) => costLabel(price, true)),
    ["5 P.I. (11 → 6)", "1 point d'Espoir (Espoir 1 → 0)", "rien"]);
  // A verdict carries the price without the counts: worded the same.
  assert.equal(costLabel({ pays: "pi", cost: 10 }), "10 P.I.");
});

test("a price and what was paid, in English", () => {
  inLanguage("en");
  assert.deepEqual(Object.values(TAKEN).map((price) => costLabel(price, true)),
    ["5 I.P. (11 → 6)", "1 Hope point (Hope 1 → 0)", "nothing"]);
  inLanguage("__proto__"); // not a language: French
  assert.equal(costLabel(TAKEN.pi), "5 P.I.");
});

test("a verdict that would lose an aim says so with its price (R4.1, D13), before it is taken", () => {
  assert.equal(costLabel({ pays: "espoir", cost: 1, loses_aim: 2 }), "1 point d'Espoir, perd la visée +2");
  assert.equal(costLabel({ pays: "pi", cost: 5, loses_aim: 1 }), "5 P.I., perd la visée +1");
  assert.equal(costLabel({ ...TAKEN.pi, loses_aim: 2 }, true), "5 P.I. (11 → 6)"); // what was paid: the price alone
  inLanguage("en");
  assert.equal(costLabel({ pays: "espoir", cost: 1, loses_aim: 2 }), "1 Hope point, loses aim +2");
});

test("a test names its values, or only its characteristic and skill when the game master keeps a PNJ's (D14, D26)", () => {
  const test_ = { id: null, characteristic: "melee", characteristic_value: 7, skill: "epee", skill_level: 3, skill_name: "Épée",
    difficulty: null, modifiers: [{ id: "charge", value: 4, rule: "R4.2" }] };
  assert.equal(testLabel(test_), "Mêlée 7 / Épée 3, charge +4");
  assert.equal(testLabel({ ...test_, characteristic_value: null, skill_level: null }), "Mêlée / Épée, charge +4");
});
