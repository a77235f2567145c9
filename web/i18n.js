// The page's words: one catalogue per language (web/lang/*.js), French by default.
// Static text in index.html names its key in data-i18n (text) or data-i18n-label
// (aria-label); everything else asks t(key, ...params).
import { isolate, own, plain } from "./dom.js";
import en from "./lang/en.js";
import fr from "./lang/fr.js";

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
  return own(words.errors, error.code) ?? plain(error.message ?? error.reason);
}

// An action by its engine id (R4).
export function actionName(id) {
  return term("actions", id);
}
