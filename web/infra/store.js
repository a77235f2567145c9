// What the browser keeps. The fights live in IndexedDB, the browser's own database
// (docs/RELIABILITY.md, "Where the fights live"), under the names localStorage gave them
// before: the open fight (web/infra/open-fight.js: its last whole save text and the
// changes the engine answered since, one record a tap; engine/save.py writes and reads
// the text they compose to) and its checkpoint, a save that could not be read (kept
// aside, exportable), the list of fights and the other fights' texts
// (web/infra/fight-list.js), and the cast models. The small settings stay in localStorage,
// read before the first paint: the language, the theme, the live table, and a copy of
// the open fight's last board, painted at once while the engine starts (a cache, never
// the truth: the fight's own text says whether it is still that fight's board).
// Storage that is unavailable or full never stops the page: each call says what happened.
// IndexedDB refused, blocked, emptied during a visit or opened by a newer version elsewhere:
// the page goes on and says so (docs/RELIABILITY.md, « When the database misbehaves »).
import { BASE, CHECKPOINT, KEY, OpenFight, STEP, STEPS_ASIDE, BOARD as STEPS_BOARD, readOpen } from "./open-fight.js";
import { TEST_BUILD } from "./hooks.js";
import { painted as framePainted, whenIdle } from "./later.js";
import { Keys } from "./storage-keys.js";

export { CHECKPOINT, KEY };
const ASIDE = "riposte.encounter.unreadable";
const MODELS = "riposte.models";
const INDEX = "riposte.fights";
const LANG = "riposte.lang";
const THEME = "riposte.theme"; // web/boot/theme.js reads it too
const GUIDE = "riposte.guide"; // "seen": the game master closed the guide « Comment ça marche »
const BOARD = "riposte.board"; // the cache of the open fight's last board: { board, length, tail }
// "indexeddb" once a fight was kept there: a database found empty afterwards was emptied
// by the browser or by hand, not a first visit (lostFights).
const WHERE = "riposte.stored";
// In the database: the date the fights moved there from localStorage (written with them).
// Every write checks it is still there, in its own transaction: a database emptied under
// the page (the browser's « clear site data », Safari's seven days) is noticed before the
// page writes into it (DbKeys, `wiped`).
const MOVED = "riposte.moved";
// The fights' own keys, as localStorage held them before they moved (and holds them still
// where IndexedDB is missing): the open fight, its checkpoint, the save set aside, the
// list (riposte.fights, riposte.fights.unreadable) and each other fight (riposte.fight.<id>).
const FIGHTS = (key) => key === KEY || key === CHECKPOINT || key === ASIDE || key.startsWith("riposte.fight");
// How long the page waits for the database to open: an open queued behind another page's
// change of version (a connection that never closes) otherwise waits for ever, silently.
export const OPEN_WAIT = 4000;
// Another tab's page is told of each key written, as localStorage's storage event did: one
// channel per page, which never hears its own messages.
let keysChannel;
function channel() {
  keysChannel ??= typeof BroadcastChannel === "function" ? new BroadcastChannel("riposte.keys") : null;
  return keysChannel;
}

// --- what the storage tells the page -------------------------------------------------------
// Notices (keys of web/lang, with their parameters) said once each: where the fights are
// kept when IndexedDB is refused, a database emptied or taken by another version, fights
// found in localStorage after the move, records set aside. `onNotice(listener)` hears
// those said before it listened too.
const notices = [];
const noticeListeners = [];
const noticed = new Set();

function notice(key, ...params) {
  if (noticed.has(key) && key !== "storageWiped") return; // a database emptied twice is said twice
  noticed.add(key);
  notices.push({ key, params });
  for (const listener of noticeListeners) listener({ key, params });
}

export function onNotice(listener) {
  noticeListeners.push(listener);
  for (const told of notices) listener(told);
}

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

const local = new Keys();

// The keys that start with `prefix` (the fights' keys are short ASCII names).
const startingWith = (prefix) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

// A request as a promise (its result, or its error).
function promisifyRequest(request) {
  return new Promise((resolve, reject) => {
    request.oncomplete = request.onsuccess = () => resolve(request.result);
    request.onabort = request.onerror = () => reject(request.error ?? new DOMException("aborted", "AbortError"));
  });
}

// Why the database stopped answering: "refused" (the browser refuses IndexedDB: open throws
// or fails), "blocked" (its open did not answer within OPEN_WAIT: another page holds it
// through a change of version), "versionchange" (another page opened a newer version:
// this one closed its connection so as not to block it, and writes no more).
class Stopped extends Error {
  constructor(why) {
    super(why);
    this.why = why;
  }
}

// The database `name` and its one object store "keys": (mode, callback(store)) -> the
// callback's promise, in a transaction. The connection closes as soon as another page asks
// for a newer version (`versionchange`: a future release, another site of the same origin),
// and this page then writes no more (said, with a reload); a connection the browser closed
// (its data deleted) is opened again at the next call.
function openStore(name, stopped) {
  let dbp = null;
  let done = null; // a Stopped: every call refused from then on
  const open = () => {
    if (done) return Promise.reject(done);
    if (dbp) return dbp;
    dbp = new Promise((resolve, reject) => {
      let request;
      try {
        request = indexedDB.open(name);
      } catch {
        reject(new Stopped("refused"));
        return;
      }
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        reject(new Stopped("blocked"));
      }, OPEN_WAIT);
      request.onupgradeneeded = () => request.result.createObjectStore("keys");
      request.onsuccess = () => {
        clearTimeout(timer);
        const db = request.result;
        if (late) {
          db.close(); // given up on: never left to block another page
          return;
        }
        db.onversionchange = () => {
          db.close();
          done = new Stopped("versionchange");
          dbp = null;
          stopped("versionchange");
        };
        db.onclose = () => {
          dbp = null;
        };
        resolve(db);
      };
      request.onerror = (event) => {
        clearTimeout(timer);
        event?.preventDefault?.(); // said by the page, not an error left unhandled
        reject(new Stopped("refused"));
      };
    });
    dbp.catch((error) => {
      dbp = null;
      if (error?.why === "blocked") done ??= error; // one wait a visit: this page keeps to localStorage
    });
    return dbp;
  };
  return (mode, callback) => open().then((db) => callback(db.transaction("keys", mode).objectStore("keys")));
}

// What a refused write was: "full", "wiped" (the database emptied under the page: nothing
// written), or "unavailable".
function writeFailure(error) {
  if (error?.name === "QuotaExceededError") return "full";
  return error?.wiped ? "wiped" : "unavailable";
}

// IndexedDB as web/infra/fight-list.js takes storage (storage-keys.js): the same calls,
// each a promise that says what happened. A write is one transaction: all of it lands
// or none of it (setMany, update). Once the fights are kept there (`guard`), every write
// first checks that the database still holds the date of the move, in the same
// transaction: an emptied database answers "wiped", nothing written.
export class DbKeys {
  constructor(name = "riposte", stopped = () => undefined) {
    this.why = null; // why the database stopped answering (Stopped), once it did
    this.store = openStore(name, (why) => {
      this.why = why;
      stopped(why);
    });
    this.guard = false;
  }

  // `drops` and the keys starting with `prefix` (if any) removed, then `puts` written, in
  // one transaction. `force`: without the check (the move, the rescue of a wiped database).
  async update(puts, drops, prefix = null, force = false) {
    try {
      await this.store("readwrite", (keys) => {
        let wiped = false;
        if (this.guard && !force) {
          const moved = keys.get(MOVED); // answered before the writes below are done
          moved.onsuccess = () => {
            if (moved.result !== undefined) return;
            wiped = true;
            keys.transaction.abort();
          };
        }
        for (const key of drops) keys.delete(key);
        if (prefix) keys.delete(startingWith(prefix));
        for (const [key, value] of puts) keys.put(value, key);
        return promisifyRequest(keys.transaction).catch((error) => {
          throw wiped ? Object.assign(new Error("wiped"), { wiped: true }) : error;
        });
      });
    } catch (error) {
      this.noteStopped(error);
      return writeFailure(error);
    }
    channel()?.postMessage(puts.map(([key]) => key));
    return "ok";
  }

  noteStopped(error) {
    if (error instanceof Stopped) this.why ??= error.why;
  }

  // `keys` and those starting with `prefix` (if any), read in one transaction.
  async scan(keys, prefix = null) {
    try {
      const items = await this.store("readonly", (store) => {
        const range = prefix ? startingWith(prefix) : null;
        return Promise.all([...keys.map((key) => promisifyRequest(store.get(key))),
          ...(range ? [promisifyRequest(store.getAllKeys(range)), promisifyRequest(store.getAll(range))] : [])]).then((got) => {
          const found = Object.fromEntries(keys.map((key, i) => [key, got[i]]));
          if (range) got[keys.length].forEach((key, i) => { found[key] = got[keys.length + 1][i]; });
          return Object.fromEntries(Object.entries(found).filter(([, value]) => value !== undefined && value !== null));
        });
      });
      return { items, unavailable: false };
    } catch (error) {
      this.noteStopped(error);
      return { items: {}, unavailable: true };
    }
  }

  async get(key) {
    try {
      return { value: (await this.store("readonly", (store) => promisifyRequest(store.get(key)))) ?? null };
    } catch (error) {
      this.noteStopped(error);
      return { value: null, unavailable: true };
    }
  }

  set(key, value) {
    return this.setMany([[key, value]]);
  }

  setMany(entries, force = false) {
    return this.update(entries, [], null, force);
  }

  async remove(key) {
    try {
      await this.store("readwrite", (store) => {
        store.delete(key);
        return promisifyRequest(store.transaction);
      });
      return "ok";
    } catch (error) {
      this.noteStopped(error);
      return "unavailable";
    }
  }

  async names(prefix) {
    try {
      return (await this.store("readonly", (store) => promisifyRequest(store.getAllKeys(startingWith(prefix))))).filter((key) => typeof key === "string");
    } catch (error) {
      this.noteStopped(error);
      return [];
    }
  }
}

// Where the fights are kept: IndexedDB, moved there from localStorage on the first start
// that finds them there (one transaction, with the date it happened: a start cut short
// finds nothing moved and moves them again; localStorage keeps them until that
// transaction is done, then lets them go). Where IndexedDB cannot be opened (refused,
// or its open blocked by another page) or the move cannot be written (storage full),
// localStorage keeps them, as before, and the page says so. Fights found in localStorage
// after the move (a tab of an older release, still open, writes there) are read and kept
// (`keepLeft`), never dropped unread.
let chosen = null;
let lost = false;

export function fightStorage() {
  chosen ??= choose();
  return chosen;
}

// True where the page may open IndexedDB (a browser that blocks a site's storage throws
// as soon as it is named).
function databases() {
  try {
    return typeof globalThis.indexedDB?.open === "function";
  } catch {
    return false;
  }
}

// The fights kept in localStorage for this visit: said once, with why (IndexedDB refused,
// or blocked by another page), unless localStorage is refused too (said by the save).
function localOnly(why) {
  if (!get(LANG).unavailable) notice(why === "blocked" ? "storageBlocked" : "storageLocal");
  return local;
}

async function choose() {
  if (!databases()) return localOnly("refused");
  // Another page opened a newer version: this page lets it in and writes in localStorage
  // from then on (the whole fight at each tap), where its next start finds it (keepLeft).
  const db = new DbKeys("riposte", (why) => {
    if (why !== "versionchange") return;
    chosen = Promise.resolve(local);
    notice("storageVersionChange");
  });
  const moved = await db.get(MOVED);
  if (moved.unavailable) return localOnly(db.why);
  const left = local.names("riposte.").filter(FIGHTS);
  if (moved.value === null) {
    const entries = left.map((key) => [key, local.get(key).value]).filter(([, value]) => value !== null);
    lost = entries.length === 0 && get(WHERE).value === "indexeddb" && (await db.names("riposte.")).length === 0;
    if ((await db.setMany([...entries, [MOVED, new Date().toISOString()]])) !== "ok") return local;
    if (entries.length) markKept();
  } else if (left.length && !(await keepLeft(db, left))) {
    return local; // not written: they stay where they are, and the page keeps to localStorage this time
  }
  for (const key of left) local.remove(key); // moved (now, or by a start that stopped before this)
  db.guard = true;
  return db;
}

// The commands of a save text, or null (not a save).
function commandsOf(text) {
  try {
    const commands = JSON.parse(text)?.commands;
    return Array.isArray(commands) ? commands.map((command) => JSON.stringify(command)) : null;
  } catch {
    return null;
  }
}

// How the save text `left` stands to `kept`: "newer" (the same fight, with more commands),
// "within" (every command of it is in `kept`: nothing of it would be lost) or "other".
function relation(kept, left) {
  const a = commandsOf(kept);
  const b = commandsOf(left);
  if (!a || !b) return "other";
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) if (a[i] !== b[i]) return "other";
  return b.length > a.length ? "newer" : "within";
}

// Fights found in localStorage once they live in IndexedDB: an older release's tab, still
// open after a deployment, goes on writing there. Each is read and compared with the
// database's: the open fight, when it is the same fight with more commands, becomes the
// open fight; a fight whose every command the database holds is dropped (nothing of it
// lost); any other is kept as a fight of the list, named after the older list
// (« … (retrouvé) »: web/infra/fight-list.js `prepare` lists it), and said. One
// transaction: true once written (then localStorage lets them go).
async function keepLeft(db, left) {
  const { items, unavailable } = await db.scan([KEY, BASE, STEPS_BOARD, ASIDE], "riposte.fight");
  if (unavailable) return false;
  const open = readOpen(items).text;
  const names = oldNames(local.get(INDEX).value);
  const texts = new Set(Object.entries(items).filter(([key]) => key.startsWith("riposte.fight.")).map(([, text]) => text));
  const puts = [];
  const drops = [];
  let prefix = null;
  const found = {}; // key in the database -> name in the older list
  let newer = false;
  let n = 0;
  const keep = (text, name) => {
    let key;
    do key = `riposte.fight.retrouve${(n += 1)}`; while (items[key] !== undefined);
    puts.push([key, text]);
    texts.add(text);
    if (name) found[key] = name;
  };
  for (const key of left) {
    const text = local.get(key).value;
    if (text === null) continue;
    if (key === KEY) {
      const how = open === null ? "newer" : text === open ? "within" : relation(open, text);
      if (how === "newer") {
        puts.push([KEY, text], [BASE, text]);
        drops.push(STEPS_BOARD, CHECKPOINT);
        prefix = STEP;
        newer = true;
      } else if (how === "other") keep(text, names.current);
    } else if (key === ASIDE) {
      if (items[ASIDE] === undefined) puts.push([ASIDE, text]);
      else if (items[ASIDE] !== text) keep(text, null);
    } else if (key.startsWith("riposte.fight.") && !texts.has(text) && text !== open) {
      keep(text, names[key.slice("riposte.fight.".length)] ?? null);
    }
    // the checkpoint (a shortcut) and the older list (its fights are kept one by one) go
  }
  if (!puts.length) return true;
  const kept = puts.filter(([key]) => key.startsWith("riposte.fight.retrouve")).length;
  if (Object.keys(found).length) puts.push([FOUND_NAMES, JSON.stringify(found)]);
  if ((await db.update(puts, drops, prefix, true)) !== "ok") return false;
  if (newer || kept) notice("storageFoundLeft", newer, kept);
  markKept();
  return true;
}

// The names an older release's list gave its fights: { id: name, current: the open one's }.
function oldNames(text) {
  const names = {};
  try {
    const list = JSON.parse(text ?? "null");
    for (const fight of Array.isArray(list?.fights) ? list.fights : []) {
      if (typeof fight?.id === "string" && typeof fight.name === "string") names[fight.id] = fight.name;
    }
    if (typeof list?.current === "string" && names[list.current] !== undefined) names.current = names[list.current];
  } catch {
    /* no list: no names */
  }
  return names;
}

// The names of the fights found by keepLeft, for the list (web/infra/fight-list.js `prepare`).
export const FOUND_NAMES = "riposte.fights.found";

// A fight is kept in IndexedDB: said once in localStorage, for lostFights.
let said = false;

function markKept() {
  if (!said && get(WHERE).value !== "indexeddb") set(WHERE, "indexeddb");
  said = true;
}

// True when the fights had moved to IndexedDB and this start found the database empty: the
// browser (or its user) deleted it. Known once fightStorage() has resolved.
export function lostFights() {
  return lost;
}

// The list of fights as this page last read or wrote it: written again with the open fight
// when the database was emptied under the page (`rescue`).
let knownIndex = null;

// The fights' storage, each call once the choice is made.
const chosenKeys = {
  get: async (key) => {
    const got = await (await fightStorage()).get(key);
    if (key === INDEX && !got.unavailable) knownIndex = got.value;
    return got;
  },
  set: async (key, value) => {
    const stored = await (await fightStorage()).set(key, value);
    if (key === INDEX && stored === "ok") knownIndex = value;
    return stored;
  },
  remove: async (key) => (await fightStorage()).remove(key),
  names: async (prefix) => (await fightStorage()).names(prefix),
  update: async (puts, drops, prefix, force) => (await fightStorage()).update(puts, drops, prefix, force),
  scan: async (names, prefix) => (await fightStorage()).scan(names, prefix),
};

// The database emptied under the page (the browser's « clear site data », Safari's seven
// days, CDP Storage.clearDataForOrigin), found by the next write: what is written with the
// open fight this tab keeps (OpenFight.again): the date of the move, the list as this page
// knows it, naming the fights whose texts are written again (the open one: the others'
// texts went with the database, and are said lost, never listed), and the models.
let rescuedList = null;

async function rescue() {
  const entries = [[MOVED, new Date().toISOString()]];
  rescuedList = null;
  try {
    const list = JSON.parse(knownIndex ?? "null");
    if (list && Array.isArray(list.fights)) {
      const { switching, ...index } = list;
      const fights = list.fights.filter((fight) => fight?.id === list.current);
      rescuedList = { text: JSON.stringify({ ...index, fights }), lost: list.fights.length - fights.length };
      entries.push([INDEX, rescuedList.text]);
    }
  } catch {
    /* no list known: the next start makes one from the open fight */
  }
  if (modelList?.length) entries.push([MODELS, JSON.stringify(modelList)]);
  return entries;
}

function rescued(stored, text) {
  if (stored === "ok") {
    markKept();
    if (rescuedList) knownIndex = rescuedList.text;
    for (const listener of fightsListeners) listener(); // the list read again: as written now
  }
  notice("storageWiped", stored === "ok" && text !== null, rescuedList?.lost ?? 0);
}

// Local listeners of the list of fights (onFightsChange): told when this page wrote it anew.
const fightsListeners = [];

// The open fight: its last whole text and a record a tap in IndexedDB, its whole text
// each time in localStorage (web/infra/open-fight.js). Its last write, measured once the
// board's copy is written too (afterWrite).
let lastWrite = null;
const open = new OpenFight({
  storage: chosenKeys,
  appends: async () => (await fightStorage()) !== local,
  written: (began, chars, stored) => {
    lastWrite = { began, chars, stored };
  },
  left: local,
  rescue,
  rescued,
  told: (what, ...params) => notice(what === "gap" ? "storageGap" : what, ...params),
  // A tap's write begins once its board is painted: the database's work is not on the way
  // from the tap to the board (a page that goes away before it lands: `leaving`).
  pace: framePainted,
});

// The page goes away (a reload, a tab closed, a phone's page frozen) with a write of the
// fight it shows not yet landed: that fight is kept in localStorage for the next start
// (OpenFight.leaving), with the copy of its board painted first. A copy of the board
// still waiting for the page to be idle is made now.
function leaving() {
  if (open.leaving() || copyWaiting) copyNow();
}

// The copy of the open fight's board for the next start, once a write of it landed: made
// when the page is idle, from the fight as it is then (the taps of a burst copy it once:
// about 23 kB written to localStorage on the main thread, with 30 fighters).
let copyWaiting = false;

function cacheLater() {
  if (copyWaiting) return;
  copyWaiting = true;
  whenIdle(() => copyWaiting && copyNow());
}

function copyNow() {
  copyWaiting = false;
  cacheBoard(open.painted() ? null : boardOf(open.text()));
}
globalThis.addEventListener?.("pagehide", leaving);
globalThis.document?.addEventListener("freeze", leaving);

// The fights' storage as web/infra/fight-list.js takes it: the open fight as the text
// its records compose to.
export const keys = open;

// listener(keys): another tab wrote these keys of the fights' storage.
function onKeys(listener) {
  channel()?.addEventListener("message", (event) => {
    if (Array.isArray(event.data)) listener(event.data);
  });
}

// The saved fight's text for the engine: { text, unavailable }. This tab keeps it, and
// writes what follows it.
export async function load() {
  const { value, unavailable } = await open.open();
  return { text: value, unavailable: Boolean(unavailable) };
}

// The board to paint before the saved fight is read: the cache of its last board, or,
// before the fights moved to IndexedDB, the board in localStorage's save. { board,
// matches(text) }: whether `text`, the fight read afterwards, is the fight of that board.
export function firstBoard() {
  let cached = null;
  try {
    cached = JSON.parse(get(BOARD).value ?? "null");
  } catch {
    /* a cache cut short: none */
  }
  if (cached?.board && Number.isInteger(cached.length) && typeof cached.tail === "string") {
    return { board: cached.board, matches: (text) => typeof text === "string" && text.length === cached.length && text.endsWith(cached.tail) };
  }
  const text = get(KEY).value;
  return { board: boardOf(text), matches: (read) => read === text };
}

// The board painted in a save text, or null (web/infra/fight-list.js reads a found fight's).
export function boardOf(text) {
  try {
    return text ? JSON.parse(text)?.board ?? null : null;
  } catch {
    return null;
  }
}

// The engine's answer to a change of the open fight written (its whole `save` text, or its
// `log`: what changed; with its new `checkpoint` when it has one: undefined, unchanged;
// null, none any more), then, once the page is idle, the copy of its board. One save after
// the other, in the order asked: a later tap's save never lands under an earlier one.
// Resolves "ok", "full" or "unavailable" (the fight's; the checkpoint is a shortcut,
// dropped when it cannot be kept); null at once when the answer does not follow what this
// tab keeps (the engine is then asked for the whole text: Session.resync).
export function save(answer) {
  const stored = open.save(answer);
  return stored && stored.then(afterWrite);
}

// Not written (a save held back), but kept in mind: `rewrite` writes it whole.
export function follow(answer) {
  return open.save(answer, false);
}

// The open fight as this tab keeps it, written whole (a save held back, released); null
// when this tab does not know it.
export function rewrite() {
  const stored = open.rewrite();
  return stored && stored.then(afterWrite);
}

async function afterWrite(stored) {
  if (stored === "ok") {
    cacheLater();
    if ((await fightStorage()) !== local) markKept();
  }
  // How long the last save took, until the database said it was written (`make bench`, on
  // the test build: web/infra/hooks.js).
  if (TEST_BUILD && lastWrite) {
    performance.clearMeasures("riposte:write");
    performance.measure("riposte:write", { start: lastWrite.began, detail: { chars: lastWrite.chars, stored: lastWrite.stored } });
  }
  lastWrite = null;
  return stored;
}

// The text of the open fight as this tab keeps it (null: not known), for the tabs that follow.
export function openText() {
  return open.text();
}

// The engine opened the fight as storage holds it (the start): its answer numbered `seq`.
export function known(seq) {
  open.known(seq);
}

// The list of fights wrote the fight the engine's `answer` opened (a switch).
export function wrote(answer) {
  open.wrote(answer);
  cacheBoard(answer.board);
}

// The copy of the open fight's board painted at the next start, with the length and the
// end of the open fight's text it goes with (`text`; else the one this tab keeps). A
// convenience: a write that fails is dropped, and the start then paints nothing before the engine.
// After a tap, the board the fight's text ends with is written as that text holds it: not
// the engine's board encoded again, which holds every fighter's verdicts (about eight times
// the text; on a phone's CPU, several ms of each tap), and the board and the shape are the
// same text's.
export function cacheBoard(board, text = null) {
  const painted = text === null ? open.painted() : null;
  if (painted) {
    if (set(BOARD, `{"board":${painted.board},"length":${painted.length},"tail":${JSON.stringify(painted.tail)}}`) !== "ok") local.remove(BOARD);
    return;
  }
  const shape = typeof text === "string" ? { length: text.length, tail: text.slice(-64) } : open.shape();
  if (!board || !shape || set(BOARD, JSON.stringify({ board, ...shape })) !== "ok") {
    local.remove(BOARD);
  }
}

// The checkpoint kept beside the log so that a reload need not replay it all: null drops
// it. Only a shortcut (the engine ignores one that does not match the log): a write that
// fails drops it rather than keep an older one, and is not reported.
export function saveCheckpoint(text) {
  return text === null ? open.remove(CHECKPOINT) : open.set(CHECKPOINT, text).then((stored) => (stored === "ok" ? stored : open.remove(CHECKPOINT)));
}

export async function checkpoint() {
  return (await keys.get(CHECKPOINT)).value;
}

export function keepAside(text) {
  return keys.set(ASIDE, text);
}

// The save set aside (unreadable), or else the records set aside after a gap: for export.
export async function aside() {
  return (await keys.get(ASIDE)).value ?? (await keys.get(STEPS_ASIDE)).value;
}

// --- the cast models -----------------------------------------------------------------------
// A list of sheets, kept with the fights (in IndexedDB, where they are). They moved there
// from localStorage once: written there first, then dropped from localStorage (a start cut
// short before that finds them in both and keeps each model of either, localStorage's copy
// of a name first); a move refused leaves them in localStorage, which keeps them, and the
// next start tries again. Read once at the start (readModels, before the cast screen is
// drawn with them); `models()` answers from what was read, and each change is written
// first, then kept in memory, one after the other (changeModels).
function parseModels(text) {
  try {
    const list = JSON.parse(text ?? "[]");
    return Array.isArray(list) ? list.filter((m) => m && typeof m.name === "string") : [];
  } catch {
    return [];
  }
}

let modelsChosen = null;

function modelStorage() {
  modelsChosen ??= (async () => {
    const storage = await fightStorage();
    const left = get(MODELS).value;
    if (storage === local || left === null) return storage;
    const there = await storage.get(MODELS);
    if (there.unavailable) return local;
    const moved = parseModels(left);
    const names = new Set(moved.map((m) => m.name));
    const both = [...moved, ...parseModels(there.value).filter((m) => !names.has(m.name))];
    if (there.value !== JSON.stringify(both) && (await storage.set(MODELS, JSON.stringify(both))) !== "ok") {
      return local; // kept where they are
    }
    local.remove(MODELS);
    return storage;
  })();
  return modelsChosen;
}

let modelList = null;
let modelsRead = null;
let modelsSaving = Promise.resolve();

// The models read (once): resolves them.
export function readModels() {
  modelsRead ??= (async () => {
    const storage = await modelStorage();
    modelList = parseModels((await storage.get(MODELS)).value);
    return modelList;
  })();
  return modelsRead;
}

// The models, as read (none before readModels has resolved).
export function models() {
  return modelList ?? [];
}

// The models changed by `change(list) -> list` and written; kept only once written.
// Resolves "ok", "full" or "unavailable".
export function changeModels(change) {
  const done = modelsSaving.then(async () => {
    await readModels();
    const list = change(models());
    const stored = await (await modelStorage()).set(MODELS, JSON.stringify(list));
    if (stored === "ok") modelList = list;
    return stored;
  });
  modelsSaving = done.catch(() => null);
  return done;
}

// listener(): another tab changed the models (read again, then told).
export function onModelsChange(listener) {
  const reread = async () => {
    await readModels();
    modelList = parseModels((await (await modelStorage()).get(MODELS)).value);
    listener();
  };
  onKeys((written) => {
    if (written.includes(MODELS)) reread();
  });
  window.addEventListener("storage", (event) => { // where they stayed in localStorage
    if (event.key === MODELS) reread();
  });
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

// The turn clock (controllers/clock.js): its limit in seconds, as this device's game master
// set it, or null (off, the default). Kept per device, as the theme: no fight holds it.
const CLOCK = "riposte.clock";
// The cue of a PJ's turn or a player's answer waiting (web/infra/cue.js): "sound",
// "vibrate", "both", or "off" (the default). Per device.
const CUE = "riposte.cue";
const CUES = ["sound", "vibrate", "both"];

export function savedClock() {
  const limit = Number(get(CLOCK).value ?? "");
  return Number.isInteger(limit) && limit > 0 ? limit : null;
}

export function saveClock(limit) {
  return set(CLOCK, limit === null ? "off" : String(limit));
}

export function savedCue() {
  const cue = get(CUE).value;
  return CUES.includes(cue) ? cue : "off";
}

export function saveCue(cue) {
  return set(CUE, cue);
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

// listener(): another tab changed the list of fights (web/infra/fight-list.js).
export function onFightsChange(listener) {
  fightsListeners.push(listener);
  onKeys((written) => {
    if (written.includes("riposte.fights")) listener();
  });
  window.addEventListener("storage", (event) => { // where the fights stayed in localStorage
    if (event.key === "riposte.fights") listener();
  });
}

// --- the live table (web/live/) ------------------------------------------------
// The game master's page keeps its table (the players' phones it knows by their
// certificates' fingerprints, the PJ each plays and its name, who is muted, whether the PNJ's details
// are shown) so that a reload forgets nobody; a player's page keeps, per table (the game
// master's fingerprint), the PJ it plays and the invitations it used, so that a new tab or
// a reload claims it again by itself, and the name its player gave the phone; the STUN or TURN server the game master chose, and those a
// player agreed to. Each is checked when it is read, as when it was written: a value that
// is not what this page would have written is ignored.
const LIVE_TABLE = "riposte.live.table";
const LIVE_TABLES = "riposte.live.tables";
const LIVE_STUN = "riposte.live.stun";
const LIVE_STUN_OK = "riposte.live.stun-ok";
const LIVE_TURN = "riposte.live.turn";
const LIVE_NAME = "riposte.live.name";
const LIVE_ALERT = "riposte.live.alert";
const LIVE_INVITATIONS = "riposte.live.invitations";
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

// The game master's live table as it was kept (engine/seating.py `kept`), read back by the
// engine (`restore`), which leaves out whatever does not read as a phone; null if none.
export function liveTable() {
  return json(LIVE_TABLE);
}

export function saveLiveTable(table) {
  return set(LIVE_TABLE, JSON.stringify(table));
}

// The game master's invitations sent through the chat (« Inviter à distance »), waiting:
// [{id, ufrag, pwd, at}], so that a reply that comes after this page reloaded still pairs
// (web/live/host.js `again`: a connection made with the invitation's own credentials and
// this page's certificate, kept across reloads). What the links carry anyway.
export function liveInvitations() {
  const kept = json(LIVE_INVITATIONS);
  if (!Array.isArray(kept)) return [];
  const ice = /^[A-Za-z0-9+/]{4,256}$/;
  return kept.filter((inv) => inv && typeof inv === "object" && /^[0-9a-f]{8}$/.test(inv.id) && ice.test(inv.ufrag)
    && ice.test(inv.pwd) && Number.isFinite(inv.at)).map(({ id, ufrag, pwd, at }) => ({ id, ufrag, pwd, at })).slice(-16);
}

export function saveLiveInvitations(invitations) {
  return set(LIVE_INVITATIONS, JSON.stringify(invitations.slice(-16)));
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

// The name this phone's player gave it (« Nom de ce téléphone »), carried in its answers
// and prefilled next time ("" for none); judged by the game master's engine
// (engine/seating.py phone_name), kept here as typed if it is text of a sane length.
export function liveName() {
  const value = get(LIVE_NAME).value ?? "";
  return value.length <= 200 ? value : "";
}

export function saveLiveName(name) {
  return set(LIVE_NAME, String(name));
}

// How a player's phone says its PJ's turn (web/live/alert.js): a vibration (on unless its
// player turned it off) and a beep (off unless they turned it on).
export function liveAlert() {
  const kept = json(LIVE_ALERT);
  return { vibrate: kept?.vibrate !== false, sound: kept?.sound === true };
}

export function saveLiveAlert({ vibrate, sound }) {
  return set(LIVE_ALERT, JSON.stringify({ vibrate: vibrate === true, sound: sound === true }));
}

// The STUN or TURN server the game master chose (null for none): {url, user, password},
// its address under LIVE_STUN, a TURN server's user name and password under LIVE_TURN
// (they travel in every invitation anyway). `check` is web/live/signal.js validServer (the
// store knows no address syntax).
export function liveServer(check) {
  const url = get(LIVE_STUN).value ?? "";
  const login = json(LIVE_TURN);
  const server = { url, user: login?.user ?? "", password: login?.password ?? "" };
  if (check(server)) return server;
  const stun = { url, user: "", password: "" };
  return check(stun) ? stun : null;
}

export function saveLiveServer(server) {
  try {
    if (!server) localStorage.removeItem(LIVE_STUN);
    if (!server?.user) localStorage.removeItem(LIVE_TURN);
  } catch {
    return "unavailable";
  }
  if (!server) return "ok";
  const kept = set(LIVE_STUN, server.url);
  const login = server.user ? set(LIVE_TURN, JSON.stringify({ user: server.user, password: server.password })) : "ok";
  return kept === "ok" ? login : kept;
}

// The STUN and TURN servers (their addresses) this phone's user agreed to use when an
// invitation asks for one.
export function stunAgreed(stun) {
  const kept = json(LIVE_STUN_OK);
  return Array.isArray(kept) && kept.includes(stun);
}

export function agreeToStun(stun) {
  const kept = json(LIVE_STUN_OK);
  const list = Array.isArray(kept) ? kept.filter((s) => typeof s === "string" && s !== stun).slice(-7) : [];
  return set(LIVE_STUN_OK, JSON.stringify([...list, stun]));
}
