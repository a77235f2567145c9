// The memory snapshot that repeat visits restore (web/boot/boot.mjs), in Cache Storage under a
// key naming the Pyodide version, the engine wheel's hash and the standard library's zip,
// so a new deployment never restores an old engine.
//
// It is made in the worker's own interpreter during a cold boot, once micropip
// has installed the engine wheel and before PyScript touches the interpreter: Pyodide
// snapshots only a heap whose JavaScript objects it can find again (booted with
// `_makeSnapshot`, micropip dropped from `sys.modules`, the packages it loaded forgotten
// for that moment). Before, a second Pyodide booted in a worker of its own once the page
// was idle: two interpreters at once, 470–510 MB at the table (docs/PERFORMANCE.md).
// Stored in the background; the page hears of it on a BroadcastChannel (web/boot/engine.js).
import { contents, headLength, packed, PAGE, place } from "./pages.js";

export const CACHE = "riposte-snapshot";
export const CHANNEL = "riposte-snapshot";

export async function saved(key) {
  try {
    return await (await caches.open(CACHE)).match(key);
  } catch {
    return undefined; // no Cache Storage (private mode): a normal boot
  }
}

export async function drop(key) {
  await caches.open(CACHE).then((cache) => cache.delete(key)).catch(() => undefined);
}

const SLICE = 4 << 20; // bytes read at a time

// The snapshot's bytes for `loadPyodide`'s `_loadSnapshot`, which Pyodide awaits once and
// copies into its memory; `release()`, once Pyodide is up, gives their 30 MB back there and
// then (a warm visit's memory, docs/PERFORMANCE.md). Measured in Chromium: the
// buffer `Response.arrayBuffer()` makes stays resident after it is dropped, and even after
// it is detached, until V8 next collects (seconds or minutes: it was still there at the
// table); a buffer of the page's own, detached (`transfer(0)`), is freed at once. So the
// snapshot is read into one (its stored head gives its size), 4 MB of stored pages at a time,
// and those slices go with the collections the read itself brings. Its pages of zeros were
// never stored (web/boot/pages.js, `packed`): 18 MB read, not 31, and the 13.7 MB of zeros
// take no memory. Not given as a
// promise: Pyodide keeps its options as long as Python runs (its `_api.config`), and a
// promise the bytes it resolved to; this thenable lets go of them.
export function readOnce(response) {
  let bytes = null;
  let read = (async () => {
    const blob = await response.blob();
    const front = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
    const { length, kept, start } = contents(new Uint8Array(await blob.slice(0, headLength(front)).arrayBuffer()), blob.size);
    bytes = new Uint8Array(length); // the pages left out stay zeros, never written
    for (let k = 0; k < kept.length; k += SLICE / PAGE) {
      const pages = new Uint8Array(await blob.slice(start + k * PAGE, start + (k + SLICE / PAGE) * PAGE).arrayBuffer());
      place(bytes, pages, kept.slice(k, k + SLICE / PAGE));
    }
    return bytes.buffer;
  })();
  read.catch(() => undefined); // said when awaited
  return {
    then(resolve, reject) {
      const reading = read;
      read = null;
      return reading.then(resolve, reject);
    },
    release() {
      bytes?.buffer.transfer?.(0);
      bytes = null;
    },
  };
}

// The heap of `py`, a cold boot's interpreter (booted with `_makeSnapshot`), with every
// engine module imported and said so (web/boot/boot.mjs skips nothing else on a restore), and
// `html`, which PyScript's own package imports after every restore.
export function make(py) {
  py.runPython(`import gc, html, importlib, pkgutil, sys
for name in [name for name in sys.modules if name.partition(".")[0] == "micropip"]:
    del sys.modules[name]
import engine
for module in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(module.name)
riposte_engine_imported = True
gc.collect()`);
  const loaded = { ...py.loadedPackages };
  for (const name of Object.keys(loaded)) delete py.loadedPackages[name];
  try {
    return py.makeMemorySnapshot();
  } finally {
    Object.assign(py.loadedPackages, loaded);
  }
}

// An earlier release's mark that V8 had written its WebAssembly code cache (no
// longer read), dropped with the old snapshots.
const OPTIMISED = "riposte-optimised";

// Stored under `key` (the old ones dropped), and said: { ok, bytes } or { ok: false, error }.
export async function store(key, snapshot, error) {
  let said;
  try {
    if (!snapshot) throw error;
    const cache = await caches.open(CACHE);
    for (const old of await cache.keys()) await cache.delete(old);
    await caches.delete(OPTIMISED).catch(() => undefined);
    await cache.put(key, new Response(new Blob(packed(snapshot)))); // its pages of zeros left out (web/boot/pages.js)
    said = { ok: true, bytes: snapshot.byteLength };
  } catch (failure) {
    said = { ok: false, error: String(failure?.message ?? failure) };
  }
  try {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(said);
    channel.close();
  } catch {
    /* no BroadcastChannel: the page is not told, the next visit restores all the same */
  }
}
