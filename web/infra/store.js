// What the browser keeps (localStorage): the encounter's save text as the engine hands it
// over after every change (engine/save.py writes and reads it), a save that could not
// be read (kept aside, exportable), the cast models and the language. Storage that is
// unavailable or full never stops the page: each call says what happened.
const KEY = "riposte.encounter";
const ASIDE = "riposte.encounter.unreadable";
const CHECKPOINT = "riposte.checkpoint"; // the state after the log's first commands (engine/table.py)
const MODELS = "riposte.models";
const LANG = "riposte.lang";
const THEME = "riposte.theme"; // web/boot/theme.js reads it too

function get(key) {
  try {
    return { value: localStorage.getItem(key) };
  } catch {
    return { value: null, unavailable: true };
  }
}

function set(key, value) {
  try {
    localStorage.setItem(key, value);
    return "ok";
  } catch (error) {
    return error?.name === "QuotaExceededError" ? "full" : "unavailable";
  }
}

// The saved encounter: its text for the engine, and its last board for a first paint.
export function load() {
  const { value, unavailable } = get(KEY);
  return { text: value, board: boardOf(value), unavailable: Boolean(unavailable) };
}

function boardOf(text) {
  try {
    return text ? JSON.parse(text)?.board ?? null : null;
  } catch {
    return null;
  }
}

export function save(text) {
  return set(KEY, text);
}

// The checkpoint kept beside the log so that a reload need not replay it all: null drops
// it. Only a shortcut (the engine ignores one that does not match the log): a write that
// fails drops it rather than keep an older one, and is not reported.
export function saveCheckpoint(text) {
  try {
    if (text === null || set(CHECKPOINT, text) !== "ok") localStorage.removeItem(CHECKPOINT);
  } catch {
    /* storage unavailable: nothing kept, nothing to drop */
  }
}

export function checkpoint() {
  return get(CHECKPOINT).value;
}

export function keepAside(text) {
  return set(ASIDE, text);
}

export function aside() {
  return get(ASIDE).value;
}

export function models() {
  try {
    const list = JSON.parse(get(MODELS).value ?? "[]");
    return Array.isArray(list) ? list.filter((m) => m && typeof m.name === "string") : [];
  } catch {
    return [];
  }
}

export function saveModels(list) {
  return set(MODELS, JSON.stringify(list));
}

export function savedLanguage() {
  return get(LANG).value ?? "fr";
}

export function saveLanguage(code) {
  return set(LANG, code);
}

// The colour theme: "system" (the phone's), "light" or "dark". web/boot/theme.js reads the same
// key before the first paint.
export function savedTheme() {
  const theme = get(THEME).value;
  return theme === "light" || theme === "dark" ? theme : "system";
}

export function saveTheme(theme) {
  return set(THEME, theme);
}

// --- the list of fights (issue #13) ------------------------------------------------------
// The open fight stays where it always was (riposte.encounter, riposte.checkpoint): a
// returning user's save opens exactly as before. The list is an index (riposte.fights:
// which fight is open, and each fight's name, dates, round and number of fighters) and,
// for every fight not open, its save text under riposte.fight.<id> (docs/RELIABILITY.md).
const FIGHTS = "riposte.fights";
const FIGHT = "riposte.fight.";

export function fights() {
  try {
    const index = JSON.parse(get(FIGHTS).value ?? "null");
    if (index && typeof index.current === "string" && Array.isArray(index.fights)) return index;
  } catch {
    /* unreadable: made again from the open fight */
  }
  return null;
}

export function saveFights(index) {
  return set(FIGHTS, JSON.stringify(index));
}

export function fightText(id) {
  return get(FIGHT + id).value;
}

export function saveFightText(id, text) {
  return set(FIGHT + id, text);
}

export function dropFight(id) {
  try {
    localStorage.removeItem(FIGHT + id);
  } catch {
    /* storage unavailable: nothing to drop */
  }
}

// listener(): another tab changed the list.
export function onFightsChange(listener) {
  window.addEventListener("storage", (event) => {
    if (event.key === FIGHTS) listener();
  });
}
