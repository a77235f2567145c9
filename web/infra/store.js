// What the browser keeps (localStorage): the encounter's save text as the engine hands it
// over after every change (engine/save.py writes and reads it), a save that could not
// be read (kept aside, exportable), the cast models and the language. Storage that is
// unavailable or full never stops the page: each call says what happened.
import { Keys } from "./storage-keys.js";

export const KEY = "riposte.encounter";
const ASIDE = "riposte.encounter.unreadable";
export const CHECKPOINT = "riposte.checkpoint"; // the state after the log's first commands (engine/table.py)
const MODELS = "riposte.models";
const LANG = "riposte.lang";
const THEME = "riposte.theme"; // web/boot/theme.js reads it too
const GUIDE = "riposte.guide"; // "seen": the game master closed the guide « Comment ça marche »

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

// localStorage as web/infra/fight-list.js takes it (web/infra/storage-keys.js).
export const keys = new Keys();

// The saved encounter: its text for the engine, and its last board for a first paint.
export function load() {
  const { value, unavailable } = get(KEY);
  return { text: value, board: boardOf(value), unavailable: Boolean(unavailable) };
}

// The board painted in a save text, or null (web/infra/fight-list.js reads a found fight's).
export function boardOf(text) {
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

// The guide « Comment ça marche » (controllers/welcome.js): closed once, it opens only when asked.
export function guideSeen() {
  return get(GUIDE).value === "seen";
}

export function saveGuideSeen() {
  return set(GUIDE, "seen");
}

// The date of the last backup of every fight to a file (« Exporter la liste des combats »),
// and of the last time the browser was asked to keep the site's storage
// (web/infra/lasting.js): ISO dates, or null.
const BACKUP = "riposte.backup";
const PERSIST_ASKED = "riposte.persist.asked";

function date(key) {
  const value = get(key).value;
  return typeof value === "string" && value.length <= 40 && !Number.isNaN(Date.parse(value)) ? value : null;
}

export function lastBackup() {
  return date(BACKUP);
}

export function saveBackup(iso) {
  return set(BACKUP, iso);
}

// When the game master was told that Safari deletes the fights after seven days without
// a visit (controllers/fights.js): told once.
const SEVEN_DAYS = "riposte.seven-days.told";

export function sevenDaysTold() {
  return date(SEVEN_DAYS);
}

export function saveSevenDaysTold(iso) {
  return set(SEVEN_DAYS, iso);
}

export function persistAsked() {
  return date(PERSIST_ASKED);
}

export function savePersistAsked(iso) {
  return set(PERSIST_ASKED, iso);
}

// The list of fights (issues #13, #25): its keys and its transactions are web/infra/fight-list.js's.

// listener(): another tab changed the list.
export function onFightsChange(listener) {
  window.addEventListener("storage", (event) => {
    if (event.key === "riposte.fights") listener();
  });
}

// --- the live table (issue #23, web/live/) ------------------------------------------------
// The game master's page keeps its table (the players' phones it knows by their
// certificates' fingerprints, the PJ each plays and its name, who is muted, whether the PNJ's details
// are shown) so that a reload forgets nobody; a player's page keeps, per table (the game
// master's fingerprint), the PJ it plays and the invitations it used, so that a new tab or
// a reload claims it again by itself; the STUN server the game master chose, and those a
// player agreed to. Each is checked when it is read, as when it was written: a value that
// is not what this page would have written is ignored.
const LIVE_TABLE = "riposte.live.table";
const LIVE_TABLES = "riposte.live.tables";
const LIVE_STUN = "riposte.live.stun";
const LIVE_STUN_OK = "riposte.live.stun-ok";
const MAX_TABLES = 20;
const FP = /^[0-9a-f]{64}$/;
const PJ_ID = (id) => id === null || (typeof id === "string" && id.length > 0 && id.length <= 64);

function json(key) {
  try {
    return JSON.parse(get(key).value ?? "null");
  } catch {
    return null;
  }
}

export function liveTable() {
  const kept = json(LIVE_TABLE);
  const players = [];
  for (const p of Array.isArray(kept?.players) ? kept.players.slice(0, 64) : []) {
    const fine = p && FP.test(p.fp) && Number.isInteger(p.number) && p.number > 0 && p.number < 1000 && PJ_ID(p.claim ?? null);
    if (!fine || players.some((q) => q.fp === p.fp || q.number === p.number)) continue;
    const name = typeof p.name === "string" && p.name.length <= 60 ? p.name : null;
    players.push({ fp: p.fp, number: p.number, claim: p.claim ?? null, muted: p.muted === true, name });
  }
  const mode = ["off", "confirm", "auto"].includes(kept?.mode) ? kept.mode : "confirm";
  return { pnjDetails: kept?.pnjDetails === true, mode, players };
}

export function saveLiveTable(table) {
  return set(LIVE_TABLE, JSON.stringify(table));
}

// A player's page: the game master's fingerprint → {claim, used: [invitation ids], at}.
export function liveTables() {
  const kept = json(LIVE_TABLES);
  const tables = Object.create(null);
  if (!kept || typeof kept !== "object" || Array.isArray(kept)) return tables;
  for (const [fp, table] of Object.entries(kept)) {
    if (!FP.test(fp) || !table || typeof table !== "object" || !PJ_ID(table.claim ?? null)) continue;
    const used = Array.isArray(table.used) ? table.used.filter((id) => typeof id === "string" && /^[0-9a-f]{8}$/.test(id)).slice(-16) : [];
    tables[fp] = { claim: table.claim ?? null, used, at: Number.isFinite(table.at) ? table.at : 0 };
  }
  return tables;
}

// Keeps what a player's page knows of table `fp` (the MAX_TABLES most recent tables).
export function saveLiveTableOf(fp, table) {
  const tables = liveTables();
  tables[fp] = { ...table, at: Date.now() };
  const kept = Object.entries(tables).sort((a, b) => b[1].at - a[1].at).slice(0, MAX_TABLES);
  return set(LIVE_TABLES, JSON.stringify(Object.fromEntries(kept)));
}

// The STUN server the game master chose ("" for none): `check` is web/live/signal.js
// validStun (the store knows no address syntax).
export function liveStun(check) {
  const value = get(LIVE_STUN).value ?? "";
  return check(value) ? value : "";
}

export function saveLiveStun(stun) {
  if (stun) return set(LIVE_STUN, stun);
  try {
    localStorage.removeItem(LIVE_STUN);
    return "ok";
  } catch {
    return "unavailable";
  }
}

// The STUN servers this phone's user agreed to use when an invitation asks for one.
export function stunAgreed(stun) {
  const kept = json(LIVE_STUN_OK);
  return Array.isArray(kept) && kept.includes(stun);
}

export function agreeToStun(stun) {
  const kept = json(LIVE_STUN_OK);
  const list = Array.isArray(kept) ? kept.filter((s) => typeof s === "string" && s !== stun).slice(-7) : [];
  return set(LIVE_STUN_OK, JSON.stringify([...list, stun]));
}
