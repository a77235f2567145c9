// The page's words: one catalogue per language (web/lang/*.js), French by default.
// Static text in index.html names its key in data-i18n (text) or data-i18n-label
// (aria-label); everything else asks t(key, ...params).
import en from "./lang/en.js";
import fr from "./lang/fr.js";

export const LANGUAGES = { fr, en };
let words = fr;

export function setLanguage(code) {
  words = LANGUAGES[code] ?? fr;
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
  const value = words[key] ?? fr[key];
  return typeof value === "function" ? value(...params) : value;
}

// A game term by the engine's id (characteristics, skills, kinds, ...); unknown ids as they are.
export function term(table, id) {
  return words[table]?.[id] ?? fr[table]?.[id] ?? id;
}

// An engine refusal or a save error: French as the engine wrote it, else by its code.
export function refusal(error) {
  if (!error) return "";
  return words.errors[error.code] ?? error.message;
}

// An action by its engine id (R4).
export function actionName(id) {
  return term("actions", id);
}
