// The journal's words (web/views/journal-view.js entryText) for the entries the engine
// makes (engine/journal.py): a charge with its distance (R4.2), a round that ended because
// nobody in it could act any more (R2.4, D21: a fighter who passed keeps its P.I. but is
// out of the round), in French and in English. Run by `node --test tests/web/`
// (tests/test_js_units.py).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { entryText } from "../../web/views/journal-view.js";
import { loadLanguage } from "../../web/infra/i18n.js";

// English is fetched once chosen, as the page does (web/infra/i18n.js).
await loadLanguage("en");

const CHARGE = { round: 1, kind: "action", name: "Aldric", action: "charge", category: "complexe", cost: 10, pays: "pi",
  pi_before: 9, pi_after: -1, hope_before: 2, hope_after: 2, tests: [], outcome: {}, target: "Orque", against: null,
  distance: 5, by_player: false };
const SPENT = { round: 1, kind: "round_ended", reason: "pi" };

function inLanguage(code) {
  globalThis.document = { documentElement: { lang: code } };
}

afterEach(() => {
  delete globalThis.document;
});

const plain = (text) => text.replace(/[\u2068\u2069]/g, "");

test("a charge says how far it went", () => {
  inLanguage("fr");
  assert.equal(plain(entryText(CHARGE)), "Aldric fait : Charge — 10 P.I. (9 → -1) · sur Orque · à 5 m");
  inLanguage("en");
  assert.equal(plain(entryText(CHARGE)), "Aldric does: Charge — 10 I.P. (9 → -1) · on Orque · 5 m away");
  assert.doesNotMatch(entryText({ ...CHARGE, action: "observer", target: null, distance: null }), / m away/);
});

test("a round spent says nobody can act, not that nobody has P.I. (a fighter who passed keeps them)", () => {
  inLanguage("fr");
  assert.equal(entryText(SPENT), "Tour terminé : plus personne ne peut agir (P.I. épuisés ou tour passé).");
  inLanguage("en");
  assert.equal(entryText(SPENT), "Round over: nobody can act any more (no I.P. left, or passed).");
});

test("the game master's end of a round names who could still act (R2.4), a PNJ's P.I. kept from the players", () => {
  const ended = { round: 2, kind: "round_ended", reason: "mj",
    holding: [{ id: "aldric", name: "Aldric", pi: 7 }, { id: "orque", name: "Orque", pi: null }] };
  inLanguage("fr");
  assert.equal(plain(entryText(ended)), "Le MJ termine le tour. Encore à agir : Aldric (7 P.I.), Orque.");
  assert.equal(entryText({ round: 2, kind: "round_ended", reason: "mj" }), "Le MJ termine le tour.");
  inLanguage("en");
  assert.equal(plain(entryText(ended)), "The GM ends the round. Could still act: Aldric (7 I.P.), Orque.");
});

test("an action that lost an aim says so (R4.1, D13)", () => {
  inLanguage("fr");
  const dodge = { ...CHARGE, action: "esquiver", category: "interruption", target: null, distance: null, aim_lost: 2 };
  assert.match(entryText(dodge), / · visée \+2 perdue$/);
});
