// Words for the engine's values, in the current language (see i18n.js).
import { isolate, own } from "./dom.js";
import { t, term } from "./i18n.js";

// A skill of the rules by its word; a weapon's own skill by the weapon's name (the form
// gives it the weapon's id: "epee" is « Épée »); another the user named, as typed (and
// isolated). `weapons`: the fighter's, when known.
export function skillLabel(name, weapons = []) {
  if (own(t("skills"), name) !== undefined) return term("skills", name);
  const weapon = weapons.find((w) => w.skill === name);
  return isolate(weapon ? weapon.name : name);
}

export function costLabel(verdict) {
  if (verdict.pays === "espoir") return t("costHope");
  if (verdict.pays === "rien") return t("costNothing");
  return t("costPi", verdict.cost);
}

// "Mêlée 7 / Épée 3, charge +4, difficulté 2" (D14: the engine names the test).
export function testLabel(test, weapons = []) {
  const parts = [];
  const left = test.characteristic ? `${term("characteristics", test.characteristic)} ${test.characteristic_value}` : "";
  const right = test.skill ? `${skillLabel(test.skill, weapons)} ${test.skill_level}` : "";
  parts.push([left, right].filter(Boolean).join(" / "));
  for (const m of test.modifiers) parts.push(`${term("modifiers", m.id)} ${m.value > 0 ? "+" : "−"}${Math.abs(m.value)}`);
  if (test.difficulty !== null && test.difficulty !== undefined) parts.push(t("difficulty", test.difficulty));
  const what = parts.filter(Boolean).join(", ");
  return test.id ? t("testNamed", term("tests", test.id), what) : what;
}
