// The page's catalogues (web/infra/i18n.js): French is in the page's modules, English is
// fetched only once it is chosen (loadLanguage), and a fight's default name is known in
// every language, English not loaded too. Run by `node --test tests/web/`.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { fightName, language, loadLanguage, t } from "../../web/infra/i18n.js";
import { FIGHT_N } from "../../web/lang/fight-names.js";
import en from "../../web/lang/en.js";
import fr from "../../web/lang/fr.js";

function inLanguage(code) {
  globalThis.document = { documentElement: { lang: code } };
}

afterEach(() => {
  delete globalThis.document;
});

test("English before its catalogue is loaded: French; once loaded: English", async () => {
  inLanguage("en");
  assert.equal(language(), "fr");
  assert.equal(t("undo"), "Annuler");
  // A default name from an English session, shown in the page's language.
  assert.equal(fightName("Fight 3", 3), "Combat 3");
  assert.equal(fightName("Fight 3", 4), "Fight 3"); // a name the user gave
  await loadLanguage("en");
  assert.equal(language(), "en");
  assert.equal(t("undo"), "Undo");
  assert.equal(fightName("Combat 3", 3), "Fight 3");
});

test("a code that is no language loads nothing and leaves French", async () => {
  await loadLanguage("__proto__");
  await loadLanguage("de");
  inLanguage("de");
  assert.equal(language(), "fr");
});

test("the default names are the catalogues' own", () => {
  for (const n of [1, 7, 120]) {
    assert.equal(FIGHT_N.fr(n), fr.fightN(n));
    assert.equal(FIGHT_N.en(n), en.fightN(n));
  }
  assert.deepEqual(Object.keys(FIGHT_N).sort(), [en.code, fr.code].sort());
});
