// The page's words: one catalogue per language (web/lang/*.js), French by default.
// Static text in index.html names its key in data-i18n (text) or data-i18n-label
// (aria-label); everything else asks t(key, ...params).
import { isolate, own, plain } from "./dom.js";
import en from "../lang/en.js";
import fr from "../lang/fr.js";

// Looked up by own keys only: the language comes from storage ("__proto__" is French).
export const LANGUAGES = Object.freeze(Object.assign(Object.create(null), { fr, en }));
let words = fr;

export function setLanguage(code) {
  words = own(LANGUAGES, code) ?? fr;
  document.documentElement.lang = words.code;
  document.title = words.title;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  return words.code;
}

export function language() {
  return words.code;
}

export function t(key, ...params) {
  const value = own(words, key) ?? own(fr, key);
  return typeof value === "function" ? value(...params) : value;
}

// A game term by the engine's id (characteristics, skills, kinds, ...); unknown ids as
// they are. Own keys only: a skill the user named "constructor" is shown as typed.
export function term(table, id) {
  return own(own(words, table), id) ?? own(own(fr, table), id) ?? id;
}

// An engine refusal or a save error, or an action the board refuses (its verdict): by its
// reason's key (engine/errors.py REASONS) in this language, else by its code, else as
// the engine wrote it (French).
export function refusal(error) {
  if (!error) return "";
  const reasons = own(words, "reasons") ?? {};
  if (typeof error.key === "string" && Object.hasOwn(reasons, error.key)) {
    // Names and weapons in the reason are user text: isolated (dom.js isolate).
    const params = Object.fromEntries(Object.entries(error.params ?? {}).map(([k, v]) => [k, typeof v === "string" ? isolate(v) : v]));
    return reasons[error.key](params, reasons);
  }
  // A value refused names its field (engine/values.py): in the page's words.
  const p = error.params;
  if (p && typeof p.field === "string" && (error.code === "bad_value" || error.code === "bad_command")) {
    const label = fieldLabel(p.field);
    if (error.code === "bad_command") return t("missingOption", label);
    return t("fieldError", typeof p.check === "string" ? p.check : "invalid", label, p); // as the form says it
  }
  return own(words.errors, error.code) ?? plain(error.message ?? error.reason);
}

// A field of the engine's commands by its path ("characteristics.tir", "weapons[0].name",
// "distance"), as the form and the sheet label it; user text (a skill's name) isolated.
export function fieldLabel(path) {
  const field = path.replace(/^(combatant|changes)\./, "");
  const weapon = /^weapons\[(\d+)\]\.(\w+)$/.exec(field);
  if (weapon) {
    const part = own({ name: "weaponName", kind: "kind", skill: "skill" }, weapon[2]) ?? "weapon";
    return t("fieldOfWeapon", t(part), Number(weapon[1]) + 1);
  }
  const [head, ...rest] = field.split(".");
  const key = rest.join(".");
  if (head === "characteristics" && key) return term("characteristics", key);
  if (head === "skills" && key) return own(t("skills"), key) !== undefined ? term("skills", key) : `${t("skill")} ${isolate(key)}`;
  if (head === "rolls") return t("die");
  if (head === "declarations") return t("weapon");
  const named = { name: "name", side: "side", initiative_bonus: "initiativeBonus", wounds: "wounds", hope: "hope", weapons: "weaponsLegend" };
  if (Object.hasOwn(named, field)) return t(named[field]);
  return own(t("options"), field) ?? isolate(field);
}

// An action by its engine id (R4).
export function actionName(id) {
  return term("actions", id);
}
