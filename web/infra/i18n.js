// The page's words: one catalogue per language (web/lang/*.js), French by default.
// Static text in index.html names its key in data-i18n (text) or data-i18n-label
// (aria-label); everything else asks t(key, ...params).
//
// French is in the page's own modules; another language is a module of its own, fetched
// only once it is chosen (`loadLanguage`: the saved language at start, or the menu's), so
// that a first visit in French never loads it (docs/PERFORMANCE.md).
import { isolate, own, plain } from "./dom.js";
import fr from "../lang/fr.js";
import { FIGHT_N } from "../lang/fight-names.js";

// Looked up by own keys only: the language comes from storage ("__proto__" is French).
const LOADERS = Object.freeze(Object.assign(Object.create(null), { en: () => import("../lang/en.js") }));
// The catalogues loaded so far.
const LANGUAGES = Object.assign(Object.create(null), { fr });

// Loads the catalogue of `code` if it is a language and not loaded yet; a catalogue that
// cannot be fetched (offline before the service worker held it) leaves French. Resolves
// once setLanguage(code) can word the page in it.
export async function loadLanguage(code) {
  const load = own(LOADERS, code);
  if (!load || own(LANGUAGES, code)) return;
  try {
    LANGUAGES[code] = (await load()).default;
  } catch {
    // not fetched: the page stays in French, said so by the menu's choice
  }
}

// The page's language is the one its <html lang> says (index.html: French), which
// setLanguage sets: one truth, no state of this module's own. Where there is no page (the
// tests of tests/web/, in Node), French.
function catalogue() {
  return own(LANGUAGES, globalThis.document?.documentElement.lang) ?? fr;
}

// Sets the page's language (an unknown code: French) and words its static text in it.
// Returns the code set.
export function setLanguage(code) {
  const words = own(LANGUAGES, code) ?? fr;
  document.documentElement.lang = words.code;
  document.title = words.title;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  return words.code;
}

export function language() {
  return catalogue().code;
}

export function t(key, ...params) {
  const value = own(catalogue(), key) ?? own(fr, key);
  return typeof value === "function" ? value(...params) : value;
}

// A game term by the engine's id (characteristics, skills, kinds, ...); unknown ids as
// they are. Own keys only: a skill the user named "constructor" is shown as typed.
// A fight's name as the list shows it: the default name of its number in any language
// (« Combat 1 », "Fight 1", given when it was made) in the page's language, any other as it is.
export function fightName(name, n) {
  return Object.values(FIGHT_N).some((fightN) => fightN(n) === name) ? t("fightN", n) : name;
}

export function term(table, id) {
  return own(own(catalogue(), table), id) ?? own(own(fr, table), id) ?? id;
}

// Why the engine refuses (a command, a save, a sheet's field, an action on the board: its
// verdict), in this language: the sentence of its reason's key (`refusals`, the engine's
// catalogues engine/lang/*.json) with its params filled in by the engine's own rules
// (engine/errors.py `sentence`), but that a field, an option and an action are named in
// the page's words and user text is isolated. Without a key (an engine older than the
// page), the engine's own message.
export function refusal(error) {
  if (!error) return "";
  if (typeof error.key === "string" && own(catalogue().refusals, error.key) !== undefined) return reason(error.key, error.params);
  return plain(error.message ?? error.reason ?? "");
}

// The sentence of the reason `key` with its `params`; `label(path)` names a field (the
// fighter form has labels of its own).
export function reason(key, params = {}, label = fieldLabel) {
  const sentence = own(catalogue().refusals, key) ?? own(fr.refusals, key) ?? key;
  return sentence.replace(/\{(\w+)\}/g, (_, name) => filled(name, own(params ?? {}, name), label));
}

// A sentence told as a clause of another: its first letter in lower case, without its full stop.
export function clause(sentence) {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1).replace(/\.$/, "");
}

function filled(name, value, label) {
  if (name === "field" || name === "option") return label(String(value));
  if (name === "action") return actionName(String(value));
  if (name === "why") return clause(reason(String(value), {}, label)); // another reason
  if (name === "refused") return value && typeof value === "object" ? reason(String(value.key), value.params, label) : "";
  if (Array.isArray(value)) return value.join(", ");
  return typeof value === "string" ? isolate(value) : String(value ?? "");
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
