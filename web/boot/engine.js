// The bridge to the rules engine: Python (engine wheel + web/boot/bridge.py) in a PyScript
// worker on the self-hosted Pyodide. One call per tap, JSON strings in and out.
// A call that throws, or whose worker stays silent for QUIET ms (no answer, no sign of
// work: a dead or stuck worker), rejects with EngineFault: the page keeps the encounter it
// saved and offers a reload. A worker at work says so while it works (its replays, on a
// BroadcastChannel of this page's own): however long the work, it is not a fault. Without
// BroadcastChannel, no sign comes, and a call is given QUIET ms.
import { HOOKED, TEST_BUILD } from "../infra/hooks.js";
import { Held } from "../infra/verdicts.js";

const here = (path) => new URL(path, import.meta.url).href;
const QUIET = 15_000;
// A call this long shows how far the worker is (`onWork`).
const SHOWN_AFTER = 500;
// The longest start (PyScript, Pyodide, the engine wheel, the bridge): past it, the start has failed.
export const START_LIMIT = 25_000;

export class EngineFault extends Error {}

// A start that failed: `reason` is "timeout" (`detail`: the limit in seconds), "missing"
// (`detail`: the file and its HTTP status) or "error" (`detail`: what was thrown).
export class StartFailure extends Error {
  constructor(reason, detail) {
    super(`${reason}: ${detail}`);
    this.reason = reason;
    this.detail = detail;
  }
}

// What went wrong, from what PyScript or the browser threw: "[404] Unable to fetch URL"
// (PyScript's words) names the file, the rest is passed on as it is.
function failure(error) {
  const text = String(error?.message ?? error ?? "");
  const missing = /\[(\d+)\] Unable to fetch (\S+)/.exec(text);
  if (missing) return new StartFailure("missing", { file: new URL(missing[2], document.baseURI).pathname, status: missing[1] });
  return new StartFailure("error", text.slice(0, 200));
}

// Python started at once (web/boot/early.js calls this before the page's other modules are
// even fetched): the engine, or a StartFailure for a file that did not load (PyScript
// rejects it with nobody to catch it, so the page would wait forever: the listener is
// there from the first instant) or a throw. The promise is marked handled: whoever awaits
// it later (boot/start.js) gets the failure, and the page no unhandled rejection.
export function launch() {
  let unhandled;
  const failed = new Promise((_, reject) => {
    unhandled = (event) => {
      if (event.reason instanceof EngineFault) return;
      event.preventDefault();
      reject(failure(event.reason));
    };
    window.addEventListener("unhandledrejection", unhandled);
  });
  const started = startEngine().catch((error) => Promise.reject(failure(error)));
  const engine = Promise.race([started, failed]).finally(() => window.removeEventListener("unhandledrejection", unhandled));
  engine.catch(() => undefined);
  return engine;
}

// The launched engine, or its StartFailure. Past `limit` ms, `late(StartFailure
// "timeout")` is called (a runtime file aborted inside the worker leaves no trace in the
// page: only the limit tells), and the start goes on: a slow phone under load may still
// get there, and then the page carries on as usual.
export function within(engine, late, limit = START_LIMIT) {
  const timer = setTimeout(() => late(new StartFailure("timeout", Math.round(limit / 1000))), limit);
  return engine.finally(() => clearTimeout(timer));
}

// What the worker says once a cold boot's memory snapshot is stored (web/boot/snapshot.js):
// { ok, bytes } or { ok: false, error }. Listened to before the worker starts.
function snapshotStored() {
  if (!("BroadcastChannel" in globalThis)) return new Promise(() => undefined);
  const channel = new BroadcastChannel("riposte-snapshot");
  return new Promise((resolve) => {
    channel.onmessage = (event) => {
      channel.close();
      resolve(event.data);
    };
  });
}

// PyScript's core opens a database of its own as soon as it is imported (`pyscript.fs`'s
// mounts: IndexedDB "IDBMap/@pyscript.fs"), which the engine never uses; where the browser
// refuses IndexedDB (private modes, managed browsers, a damaged profile), that open throws
// or fails, and PyScript's import or an unhandled rejection would stop the engine's
// start. So before PyScript loads, that one open is made harmless: refused or failed, it
// answers nothing (PyScript then waits on it, never rejects). Riposte's own database is
// opened as before, and its refusal said (web/infra/store.js).
const PYSCRIPT_DATABASE = "IDBMap/";

export function guardPyScriptDatabase() {
  let factory;
  try {
    factory = globalThis.indexedDB;
  } catch {
    factory = undefined; // naming it throws: a stand-in below
  }
  const silent = () => ({}); // a request that never answers
  if (!factory || typeof factory.open !== "function") {
    // No IndexedDB at all: PyScript's open answers nothing; any other open throws, as the
    // browser would have (web/infra/store.js then keeps the fights in localStorage).
    const stand = { open(name) {
      if (String(name).startsWith(PYSCRIPT_DATABASE)) return silent();
      throw new DOMException("IndexedDB is not available", "InvalidStateError");
    } };
    try {
      Object.defineProperty(globalThis, "indexedDB", { value: stand, configurable: true });
    } catch {
      /* cannot be replaced: PyScript's import says why it stopped */
    }
    return;
  }
  const open = factory.open;
  try {
    factory.open = function guarded(name, ...rest) {
      if (!String(name).startsWith(PYSCRIPT_DATABASE)) return open.call(this, name, ...rest);
      let real;
      try {
        real = open.call(this, name, ...rest);
      } catch {
        return silent();
      }
      const request = silent(); // PyScript sets its handlers here: passed on success only
      real.onupgradeneeded = (event) => request.onupgradeneeded?.(event);
      real.onsuccess = (event) => request.onsuccess?.(event);
      real.onerror = (event) => event.preventDefault(); // failed: harmless, never said as an error
      return request;
    };
  } catch {
    /* a factory that cannot be changed: PyScript opens as it does */
  }
}

// PyScript's core, once imported, watches the whole page (a MutationObserver on the
// document and on each shadow root, every attribute of every element) for the `py-*`
// event attributes and the `<script type="py">` it runs on the page itself, and reads each
// element added with an XPath query over its subtree. Riposte runs its Python in a worker
// and has neither: that watch only cost each tap the reading of the cards it drew. So the
// observer PyScript makes while its core is imported watches nothing; every other
// observer, and every one made later, is the browser's own.
const WHOLE_PAGE = (target, options) => (target === document || (globalThis.ShadowRoot !== undefined && target instanceof ShadowRoot))
  && options?.childList === true && options.subtree === true && options.attributes === true && options.attributeFilter === undefined;

export function unwatchPage() {
  const Native = globalThis.MutationObserver;
  if (typeof Native !== "function") return () => undefined;
  class Unwatching extends Native {
    observe(target, options) {
      if (WHOLE_PAGE(target, options)) return undefined;
      return super.observe(target, options);
    }
  }
  globalThis.MutationObserver = Unwatching;
  return () => {
    if (globalThis.MutationObserver === Unwatching) globalThis.MutationObserver = Native;
  };
}

export async function startEngine() {
  const snapshot = snapshotStored();
  guardPyScriptDatabase();
  const watching = unwatchPage();
  let PyWorker;
  try {
    ({ PyWorker } = await import("../../runtime/pyscript/core.js"));
  } finally {
    watching();
  }
  await customElements.whenDefined("py-script");
  // The interpreter is web/boot/boot.mjs: it restores Python from the memory snapshot a
  // previous visit made, when Cache Storage has one for this Pyodide and this engine
  // wheel, or boots it, has micropip install the wheel and makes the snapshot for the next
  // visit (`snapshot`, once stored). pyscript.toml: the worker's config.
  const loader = here("./boot.mjs");
  const worker = await PyWorker(here("./bridge.py"), { type: "pyodide", config: here("../../pyscript.toml"), version: loader });
  const sync = worker.sync;
  const life = new Life();
  if ("BroadcastChannel" in globalThis) {
    const name = `riposte-engine-${Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join("")}`;
    const channel = new BroadcastChannel(name);
    channel.onmessage = (event) => life.sign(event.data);
    // Not waited for: the worker takes it before the first call (calls are taken in order).
    sync.listen(name).catch(() => channel.close()); // no signs: a call is given QUIET ms
  }
  // The page's test hooks (web/infra/hooks.js) switched on in the worker too, which cannot
  // see the page's global: its Python then exposed for the tests (web/boot/bridge_hooks.py,
  // in the test build's bridge only).
  if (HOOKED) sync.hooks().catch(() => undefined);
  // The last board put back: the next answer sends only the fighters it changed.
  const held = new Held();
  // The request as text, the answer as text: what crosses the worker boundary.
  async function raw(text) {
    const watch = life.watch();
    try {
      return await Promise.race([sync.call(text), watch.dead]);
    } catch (error) {
      throw error instanceof EngineFault ? error : new EngineFault(error?.message ?? String(error));
    } finally {
      life.answered(watch);
    }
  }
  return {
    snapshot,
    raw,
    // listener({ done, total }) as a call that has lasted SHOWN_AFTER ms goes on, and
    // listener(null) once no call waits.
    onWork: (listener) => life.listeners.push(listener),
    async call(request) {
      calls += 1;
      // Each fight read whole is marked: the tests count them (a tab that follows another
      // reads the fight only when asked something, web/infra/session.js).
      if (TEST_BUILD && request.op === "load") performance.mark("riposte:load");
      // The page's clock goes with every call (engine/table.py: the times kept beside the
      // log, the turn clock); the rules never read it. `held`: the board this page holds,
      // whose unchanged fighters the answer leaves out (engine/wire.py).
      const text = await raw(JSON.stringify({ ...request, clock: Date.now(), ...(held.mark === null ? {} : { held: held.mark }) }));
      const answer = JSON.parse(text);
      if (answer?.error?.code === "internal") throw new EngineFault(answer.error.message);
      const whole = answer?.board?.since === undefined; // the text alone says the board
      try {
        held.take(answer?.board); // each verdict sent once, each fighter unchanged kept: put back
      } catch (error) {
        throw new EngineFault(error.message);
      }
      if (whole && answer && typeof answer === "object") Object.defineProperty(answer, ANSWERED, { value: text });
      return answer;
    },
  };
}

// An answer's text as the engine wrote it, kept on the answer (not enumerated: a copy of
// the answer leaves it out) when it says the whole board: the tabs that follow get the
// writer's answer as this text, a copy of a string, where the board as objects costs a
// structured clone of every fighter's verdicts (web/controllers/tabs.js). An answer that
// kept the fighters it did not change has none: its board goes as objects.
export const ANSWERED = Symbol("the answer's text");

// The calls made to the engine since the page opened (read by the benchmark: one per tap).
export let calls = 0;

// The worker's life as the page sees it: each call waiting for its answer is watched; a
// sign of work or any answer is news from the worker, and restarts every watch (the
// calls are answered in turn: one waits while another works); QUIET ms without news
// from the worker, and the calls waiting reject (`dead`).
class Life {
  constructor() {
    this.watches = new Set();
    this.listeners = [];
    this.since = 0; // when the oldest call still waiting was sent
    this.shown = false;
  }

  watch() {
    const watch = {};
    watch.dead = new Promise((_, reject) => {
      watch.restart = () => {
        clearTimeout(watch.timer);
        watch.timer = setTimeout(() => reject(new EngineFault("timeout")), QUIET);
      };
    });
    watch.dead.catch(() => undefined);
    if (!this.watches.size) this.since = performance.now();
    watch.restart();
    this.watches.add(watch);
    return watch;
  }

  answered(watch) {
    clearTimeout(watch.timer);
    this.watches.delete(watch);
    for (const other of this.watches) other.restart();
    this.since = performance.now();
    if (!this.watches.size && this.shown) {
      this.shown = false;
      for (const listener of this.listeners) listener(null);
    }
  }

  // A sign of work: `{"done", "total"}` as JSON text (web/boot/bridge.py).
  sign(text) {
    for (const watch of this.watches) watch.restart();
    let work;
    try {
      work = JSON.parse(text);
    } catch {
      return;
    }
    if (!this.watches.size || performance.now() - this.since < SHOWN_AFTER) return;
    if (!Number.isSafeInteger(work?.done) || !Number.isSafeInteger(work?.total) || work.total <= 0) return;
    this.shown = true;
    for (const listener of this.listeners) listener({ done: Math.min(work.done, work.total), total: work.total });
  }
}
