// The dock's last line (web/controllers/board.js lastLine) and the tests a chip shows
// (web/views/labels.js testsLabel): what to roll, as the engine names it (D14), with each
// weapon's skill by the weapon's name; the aim reached (D17) and the conditions ended (D25),
// in French and in English. Run by `node --test tests/web/` (tests/test_js_units.py).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { lastLine } from "../../web/controllers/board.js";
import { testsLabel } from "../../web/views/labels.js";
import { loadLanguage } from "../../web/infra/i18n.js";

// English is fetched once chosen, as the page does (web/infra/i18n.js).
await loadLanguage("en");

const EPEE = { id: "epee", name: "Épée", kind: "melee", skill: "epee" };
const BOARD = {
  combatants: {
    aldric: { id: "aldric", name: "Aldric", weapons: [EPEE] },
    orque: { id: "orque", name: "Orque", weapons: [] },
  },
};
const test_ = (skill, level, modifiers = [], id = null, characteristic = "melee", value = 7) => ({
  id, characteristic, characteristic_value: value, skill, skill_level: level, difficulty: null, modifiers,
});
const CHARGE = [test_("course", 2, [], "portee"), test_("epee", 3, [{ id: "charge", value: 4, rule: "R4.2" }])];
const TAKEN = { type: "action_taken", actor: "aldric", action: "charge", cost: 10, pays: "pi", pi_before: 9, pi_after: -1,
  hope_before: 2, hope_after: 2, tests: CHARGE };
const COMMAND = { type: "act", actor: "aldric", action: "charge", target: "orque", distance: 3, test_result: 0 };

function inLanguage(code) {
  globalThis.document = { documentElement: { lang: code } };
}

afterEach(() => {
  delete globalThis.document;
});

test("the tests of a charge, its weapon's skill by the weapon's name", () => {
  assert.equal(testsLabel(CHARGE, [EPEE]), "portée : Mêlée 7 / Course 2 · Mêlée 7 / Épée 3, charge +4");
  assert.equal(testsLabel([{ ...CHARGE[1], skill_name: "Épée longue" }]), "Mêlée 7 / Épée longue 3, charge +4");
  assert.equal(testsLabel(undefined), "");
});

test("the last line says what was done, what it cost and what to roll", () => {
  assert.equal(lastLine(BOARD, COMMAND, [TAKEN]),
    "Aldric — Charge → Orque : 10 P.I. (9 → -1) · tests : portée : Mêlée 7 / Course 2 · Mêlée 7 / Épée 3, charge +4.");
  inLanguage("en");
  assert.equal(lastLine(BOARD, COMMAND, [TAKEN]),
    "Aldric — Charge → Orque: 10 I.P. (9 → -1) · tests: range: Melee 7 / Running 2 · Melee 7 / Épée 3, charge +4.");
});

test("an aim at its cap is said, and so are the conditions that end with the round", () => {
  const aim = { type: "action_taken", actor: "aldric", action: "ajuster_tir", cost: 5, pays: "pi", pi_before: 1, pi_after: -4,
    hope_before: 2, hope_after: 2, tests: [] };
  const events = [aim, { type: "aim_adjusted", actor: "aldric", weapon: "arc", bonus: 3, capped: true },
    { type: "round_ended", round: 2, reason: "pi" }, { type: "condition_ended", id: "orque", text: "étourdi", round: 2 }];
  assert.equal(lastLine(BOARD, { type: "act", actor: "aldric", action: "ajuster_tir" }, events),
    "Aldric — Ajuster un tir : 5 P.I. (1 → -4) · visée déjà au maximum, +3. Fin : « étourdi » pour Orque.");
  assert.equal(lastLine(BOARD, { type: "end_round" }, events.slice(2)), "Fait : fin du tour. Fin : « étourdi » pour Orque.");
});

test("a round the game master ends says who could still act, and that undo takes it back (R2.4)", () => {
  const board = { combatants: { aldric: { ...BOARD.combatants.aldric, pi: 7 }, orque: { ...BOARD.combatants.orque, pi: 1 } } };
  const plain = (text) => text.replace(/[\u2068\u2069]/g, "");
  const ended = (holding) => [{ type: "round_ended", round: 1, reason: "mj", holding }];
  assert.equal(plain(lastLine(board, { type: "end_round" }, ended(["aldric", "orque"]))),
    "Fait : fin du tour. Encore à agir (« Annuler » reprend le tour) : Aldric (7 P.I.), Orque (1 P.I.).");
  assert.equal(plain(lastLine(board, { type: "end_round" }, ended(["orque"]))),
    "Fait : fin du tour. Encore à agir (« Annuler » reprend le tour) : Orque (1 P.I.).");
  assert.equal(lastLine(board, { type: "end_round" }, ended([])), "Fait : fin du tour.");
  inLanguage("en");
  assert.equal(plain(lastLine(board, { type: "end_round" }, ended(["aldric"]))),
    "Done: end of the round. Could still act (“Undo” takes the round back): Aldric (7 I.P.).");
});

test("an action that lost an aim says so after it (R4.1, D13)", () => {
  const dodge = { type: "action_taken", actor: "aldric", action: "esquiver", cost: 1, pays: "espoir", pi_before: 0, pi_after: 0,
    hope_before: 2, hope_after: 1, tests: [] };
  const events = [{ type: "aim_lost", actor: "aldric", bonus: 2 }, dodge];
  assert.equal(lastLine(BOARD, { type: "interrupt", actor: "aldric", action: "esquiver" }, events),
    "Aldric — Esquiver : 1 point d'Espoir (Espoir 2 → 1) · visée +2 perdue.");
});
