// The bridge to the rules engine: Python (engine wheel + web/boot/bridge.py) in a PyScript
// worker on the self-hosted Pyodide. One call per tap, JSON strings in and out.
// A call that throws, or gets no answer in TIMEOUT ms (a dead worker), rejects with
// EngineFault: the page keeps the encounter it saved and offers a reload.
const here = (path) => new URL(path, import.meta.url).href;
const TIMEOUT = 15_000;
// The longest start (PyScript, Pyodide, the engine wheel, the bridge), issue #12 item 5.
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

// Safari (WebKit) has no requestIdleCallback: there a plain timer (docs/BROWSERS.md).
export const whenIdle = globalThis.requestIdleCallback?.bind(globalThis) ?? ((run) => setTimeout(run, 1000));

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

export async function startEngine() {
  const snapshot = snapshotStored();
  const { PyWorker } = await import("../../runtime/pyscript/core.js");
  await customElements.whenDefined("py-script");
  // The interpreter is web/boot/boot.mjs: it restores Python from the memory snapshot a
  // previous visit made, when Cache Storage has one for this Pyodide and this engine
  // wheel, or boots it, has micropip install the wheel and makes the snapshot for the next
  // visit (`snapshot`, once stored). pyscript.toml: the worker's config.
  const loader = here("./boot.mjs");
  const worker = await PyWorker(here("./bridge.py"), { type: "pyodide", config: here("../../pyscript.toml"), version: loader });
  const sync = worker.sync;
  // The request as text, the answer as text: what crosses the worker boundary.
  async function raw(text) {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new EngineFault("timeout")), TIMEOUT);
    });
    try {
      return await Promise.race([sync.call(text), late]);
    } catch (error) {
      throw error instanceof EngineFault ? error : new EngineFault(error?.message ?? String(error));
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    snapshot,
    raw,
    async call(request) {
      // Each fight read whole is marked: the tests count them (a tab that follows another
      // reads the fight only when asked something, web/infra/session.js).
      if (request.op === "load") performance.mark("riposte:load");
      const answer = JSON.parse(await raw(JSON.stringify(request)));
      if (answer?.error?.code === "internal") throw new EngineFault(answer.error.message);
      return answer;
    },
  };
}
