// The list of fights (web/infra/fight-list.js) as a long-lived Node process, driven by
// tests/test_fight_list.py over JSON lines on stdin and stdout, so that a Hypothesis
// state machine in CPython runs the page's own transactions against the real engine
// (engine/table.py, answered by the Python side) and a storage that fails where it is told.
//
// Python -> Node, one JSON object a line:
//   {"id", "do": method of FightList, "args": [...]}  a transaction; runs at once (a second
//                                                      one sent before the first ends waits
//                                                      in the list's own queue)
//   {"id", "do": "save", "args": [answer]}           the engine's answer to a tap written as
//                                                      the session writes it (web/infra/
//                                                      open-fight.js), then the list's dates
//   {"id", "do": "known", "args": [seq]}              the engine loaded the open fight as
//                                                      stored: its answer `seq`
//   {"id", "do": "faults", "args": [faults]}          how the next writes fail (below)
//   {"id", "do": "restart", "args": [writable]}        a new page on this storage: prepare(),
//                                                      then the open fight read
//   {"id", "do": "view"}                               what a reload would find, on a copy
//   {"id", "do": "storage", "args": [items]}           a new page on these items
//   {"id", "do": "put", "args": [key, value]}          one item written behind the page's back
//   {"to", "answer"}                                   the engine's answer to a request
// Node -> Python:
//   {"engine": request, "k"}                           a request for the engine
//   {"done": id, "result", "storage"}                  the transaction's result, storage after
//
// faults: {"full": [n, ...]} the n-th setItem from now (1 = the next) throws
// QuotaExceededError; {"unavailable": true} every call throws (storage switched off);
// {"crash": n} the tab closes after its n-th write (setItem or removeItem) from now: the
// later ones do nothing. A transaction (update: the open fight's record, or its whole text
// with its records dropped) is one write: refused or lost whole.
import { createInterface } from "node:readline";
import { FightList } from "../web/infra/fight-list.js";
import { OpenFight } from "../web/infra/open-fight.js";
import { Keys } from "../web/infra/storage-keys.js";

class Storage {
  constructor(items = {}) {
    this.items = new Map(Object.entries(items));
    this.faults = {};
    this.sets = 0; // setItem calls since the faults were set
    this.writes = 0; // setItem and removeItem calls since then
  }

  off() {
    if (this.faults.unavailable) throw Object.assign(new Error("storage off"), { name: "SecurityError" });
  }

  // True when this write is lost: the tab closed before it.
  lost() {
    this.writes += 1;
    return this.faults.crash !== undefined && this.writes > this.faults.crash;
  }

  get length() {
    this.off();
    return this.items.size;
  }

  key(i) {
    this.off();
    return [...this.items.keys()][i] ?? null;
  }

  getItem(key) {
    this.off();
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    this.off();
    this.sets += 1;
    if ((this.faults.full ?? []).includes(this.sets)) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
    if (!this.lost()) this.items.set(String(key), String(value));
  }

  removeItem(key) {
    this.off();
    if (!this.lost()) this.items.delete(key);
  }

  // One transaction: `drops` and the keys starting with `prefix` removed, `puts` written.
  transact(puts, drops, prefix) {
    this.off();
    this.sets += 1;
    if ((this.faults.full ?? []).includes(this.sets)) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
    if (this.lost()) return;
    for (const key of [...drops, ...[...this.items.keys()].filter((name) => prefix && name.startsWith(prefix))]) this.items.delete(key);
    for (const [key, value] of puts) this.items.set(String(key), String(value));
  }

  dump() {
    return Object.fromEntries(this.items);
  }
}

// The page keeps its fights in IndexedDB (web/infra/store.js DbKeys): each call answers
// later, once its transaction is done, and other work (the engine's answers, another
// transaction's first steps) runs meanwhile. The same here, over the storage above.
const later = () => new Promise((resolve) => setImmediate(resolve));

class LaterKeys extends Keys {
  async get(key) {
    await later();
    return super.get(key);
  }

  async set(key, value) {
    await later();
    return super.set(key, value);
  }

  async remove(key) {
    await later();
    return super.remove(key);
  }

  async names(prefix) {
    await later();
    return super.names(prefix);
  }

  async update(puts, drops, prefix = null) {
    await later();
    try {
      this.storage().transact(puts, drops, prefix);
      return "ok";
    } catch (error) {
      return error?.name === "QuotaExceededError" ? "full" : "unavailable";
    }
  }

  async scan(keys, prefix = null) {
    await later();
    return new Keys(this.storage).scan(keys, prefix); // at once, as one transaction reads
  }
}

const words = {
  fightN: (n) => `Combat ${n}`,
  fightCopy: (name) => `${name} (copie)`,
  fightFound: (n) => `Combat retrouvé ${n}`,
  fightFoundOf: (name) => `${name} (retrouvé)`,
};

const out = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const waiting = new Map(); // k -> resolve
let asked = 0;

// The page's one engine, answered by the Python side, in the order asked.
const engine = {
  call(request) {
    asked += 1;
    out({ engine: request, k: asked });
    return new Promise((resolve) => waiting.set(asked, resolve));
  },
  exclusive: (task) => task(),
};

// The engine's limit of a name (Table.limits), as the Python side read it.
const nameMax = Number(process.env.FIGHT_NAME_MAX);
// A page on `store`: its open fight (web/infra/open-fight.js, as web/infra/store.js keeps it
// in IndexedDB) and its list of fights on it.
function page(store) {
  const open = new OpenFight({ storage: new LaterKeys(() => store) });
  const list = new FightList({ keys: open, engine, words, now: () => "2026-12-01T10:00:00.000Z", nameMax: () => nameMax });
  return { open, list };
}
let storage = new Storage();
let { open, list: fights } = page(storage);

async function run(message) {
  const { id, args = [] } = message;
  let result;
  if (message.do === "faults") {
    Object.assign(storage, { faults: args[0], sets: 0, writes: 0 });
    result = null;
  } else if (message.do === "save") {
    // As Session.take: the save written (its outcome said; null: it does not follow what
    // the page keeps), then the list's dates.
    const [answer] = args;
    result = await open.save(answer);
    if (result !== null) await fights.touch(answer.board, open.text());
  } else if (message.do === "known") {
    open.known(args[0]);
    result = null;
  } else if (message.do === "restart") {
    Object.assign(storage, { faults: {}, sets: 0, writes: 0 });
    ({ open, list: fights } = page(storage));
    result = await fights.prepare(args[0]);
    await open.open();
  } else if (message.do === "put") {
    storage.items.set(args[0], args[1]); // storage changed behind the page's back (a hand edit, an older page)
    result = null;
  } else if (message.do === "storage") {
    storage = new Storage(args[0]); // a profile as the test made it
    ({ open, list: fights } = page(storage));
    result = null;
  } else if (message.do === "view") {
    // What a reload would find, without touching this page's storage.
    const copy = new Storage(storage.dump());
    const other = page(copy).list;
    await other.prepare(true);
    result = { index: other.index, storage: copy.dump() };
  } else {
    result = await fights[message.do](...args);
    if (message.do === "switchTo" && result.ok && result.shown) open.wrote(result.shown); // Session.take(shown, true)
  }
  out({ done: id, result, index: fights.index, deleted: fights.deleted.length, storage: storage.dump() });
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if ("to" in message) {
    const resolve = waiting.get(message.to);
    waiting.delete(message.to);
    resolve(message.answer);
  } else {
    run(message).catch((error) => out({ done: message.id, error: String(error?.stack ?? error) }));
  }
});
