// The memory snapshot that repeat visits restore (web/boot/boot.mjs), in Cache Storage under a
// key naming the Pyodide version, the engine wheel's hash and the standard library's zip,
// so a new deployment never restores an old engine.
//
// It is made in the worker's own interpreter during a cold boot (issue #28), once micropip
// has installed the engine wheel and before PyScript touches the interpreter: Pyodide
// snapshots only a heap whose JavaScript objects it can find again (booted with
// `_makeSnapshot`, micropip dropped from `sys.modules`, the packages it loaded forgotten
// for that moment). Before, a second Pyodide booted in a worker of its own once the page
// was idle: two interpreters at once, 470–510 MB at the table (docs/PERFORMANCE.md).
// Stored in the background; the page hears of it on a BroadcastChannel (web/boot/engine.js).
import { clear, contents, FIRST, headLength, packed, place } from "./pages.js";

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

// The bytes of `blob` in a buffer of the worker's own: a buffer `Blob.arrayBuffer()` makes
// stays resident once dropped, and even once detached, until V8 next collects; one the
// worker made is freed at once when detached (measured, docs/PERFORMANCE.md). Read with a
// BYOB reader where the browser has one (Chromium): the stream fills that buffer itself;
// elsewhere 4 MB at a time, copied in.
export async function readAll(blob) {
  let buffer = new ArrayBuffer(blob.size); // zeros until read: no memory until written
  let got = 0;
  let reader = null;
  try {
    reader = blob.stream().getReader({ mode: "byob" });
  } catch {
    /* no byte stream: slices below */
  }
  if (reader) {
    while (got < blob.size) {
      const { value, done } = await reader.read(new Uint8Array(buffer, got, Math.min(SLICE, blob.size - got)));
      if (done) break;
      buffer = value.buffer; // the same memory, handed back
      got += value.byteLength;
    }
    reader.cancel().catch(() => undefined);
  } else {
    for (; got < blob.size; got = Math.min(got + SLICE, blob.size)) {
      new Uint8Array(buffer).set(new Uint8Array(await blob.slice(got, got + SLICE).arrayBuffer()), got);
    }
  }
  if (got !== blob.size) throw new Error("a snapshot cut short");
  return new Uint8Array(buffer);
}

// A stored snapshot opened for a restore (issue #28: a warm visit's time and memory). Its
// front, Pyodide's header, is what `loadPyodide`'s `_loadSnapshot` is given (the build's
// Pyodide sizes Python's memory from its WebAssembly, not from the snapshot's length). Its
// stored pages are read at once, while Pyodide starts (the read takes little of the worker's
// thread: in a trace, 17.9 MB in 100–130 ms beside Emscripten's start of 250); `place(heap)`
// puts them straight into Python's memory once that start has made it (the build has
// Pyodide's loader call `globalThis.ripostePlace` then, just before the restore), in about
// 20 ms, zeroes what the start wrote where the snapshot has zeros, and frees the read.
// Before, the whole snapshot was read first (31.5 MB, 17.9 of them resident) and Pyodide's
// start waited for it; the copy was one more step. `restore(heap, rest)`, Pyodide's restore
// as the build patched it, then only checks that the pages were placed, and says how many
// it left alone (`restore.left`, for the tests).
export async function opened(response) {
  const blob = await response.blob();
  const length = headLength(new Uint8Array(await blob.slice(0, FIRST).arrayBuffer()));
  const { front, memory, kept, start } = contents(new Uint8Array(await blob.slice(0, length).arrayBuffer()), blob.size);
  const read = readAll(blob.slice(start));
  read.catch(() => undefined); // said when awaited
  let placed = false;
  const restore = () => {
    if (!placed) throw new Error("the snapshot's pages were not placed");
  };
  return {
    front: front.slice(),
    restore,
    async place(heap) {
      const into = new Uint8Array(heap.buffer, heap.byteOffset, memory); // throws if Python's memory is smaller
      const pages = await read;
      place(into, pages, kept, memory);
      pages.buffer.transfer?.(0); // 17.9 MB given back now
      restore.left = clear(into, kept, memory);
      placed = true;
    },
  };
}

// The heap of `py`, a cold boot's interpreter (booted with `_makeSnapshot`), with every
// engine module imported and said so (web/boot/boot.mjs skips nothing else on a restore), and
// `html`, which PyScript's own package imports after every restore (issue #14).
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

// Stored under `key` (the old ones dropped), and said: { ok, bytes } or { ok: false, error }.
export async function store(key, snapshot, error) {
  let said;
  try {
    if (!snapshot) throw error;
    const cache = await caches.open(CACHE);
    for (const old of await cache.keys()) await cache.delete(old);
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

// The WebAssembly code cache (issue #28). V8 keeps the optimised code of pyodide.asm.wasm
// beside the service worker's copy (Cache Storage), and a repeat visit then skips most of
// its compile; but V8 writes it only once about 1 MB of the module has been optimised,
// which a restored start never runs (a trace: none written in 5 repeat visits; written
// after about 200 taps, and read by every visit after). The first visit's compile came
// from the network, whose cache a service worker's answer does not read. So, once per
// Pyodide, a repeat visit runs the engine a while in the background (a few seconds after
// its start, in slices, taps answered between them) and marks it done.
const OPTIMISED = "riposte-optimised";
const ROUNDS = 20;
// Taps, as the engine's public contract takes them (a JSON command in, a board out).
const WORK = `import json, random
import engine
def work():
    state = engine.new_encounter()
    for i in range(12):
        state = engine.apply(state, {"type": "add_combatant", "combatant": {"name": f"F{i}"}})["state"]
    result = engine.apply(state, {"type": "start_round"}, random.Random(i))
    json.loads(json.dumps(engine.view(result["state"])))
work`;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function optimise(py, wasm) {
  const cache = await caches.open(OPTIMISED).catch(() => null);
  if (!cache || (await cache.match(wasm))) return;
  await pause(3000);
  const globals = py.toPy({});
  const work = py.runPython(WORK, { globals });
  try {
    for (let round = 0; round < ROUNDS; round++) {
      work();
      await pause(30);
    }
  } finally {
    work.destroy();
    globals.destroy();
  }
  for (const old of await cache.keys()) await cache.delete(old);
  await cache.put(wasm, new Response(""));
}
