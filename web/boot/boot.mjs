// Pyodide's loader as PyScript sees it: the interpreter module the page names (web/boot/engine.js),
// on every visit. PyScript imports it, uses its `version` and `loadPyodide`.
//
// Pyodide gets the part of the standard library the page needs (the build's
// stdlib-<hash>/python_stdlib.zip, tools/stdlib.txt); a module outside it is fetched from
// the rest when first imported (web/boot/riposte_stdlib.py, installed here).
//
// It restores a memory snapshot when Cache Storage holds one for this exact Pyodide, engine
// wheel and standard library (web/boot/snapshot.js), and boots Python from scratch otherwise:
// micropip installs the engine wheel (pyscript.toml: the wheel is installed by
// micropip), every engine module is imported, and this same interpreter makes the
// snapshot for the next visit before PyScript touches it (never a second
// Python beside the first), stored in the background. Then it reseeds `random` (its
// state is frozen in a snapshot). Any restore error (corrupted, foreign, another Pyodide
// build) falls back to a cold boot and drops the snapshot.
//
// Pyodide's own files (its WebAssembly, the standard library's zip) are read from the
// service worker's precache directly when it holds them (`fromPrecache`, which the build
// has Pyodide's loader call: tools/build_site.py, FETCH), not through the service worker:
// a warm visit then holds 20-40 MB less (docs/PERFORMANCE.md). V8 keeps no code
// cache for a WebAssembly read so: it compiles what runs, as it goes, and the engine is
// ready about 280 ms later on this machine, the saved board drawn as soon as before.
// PyScript's Python package is compiled by the cold boot, kept in the snapshot and written
// where Python looks for it on every boot (web/boot/riposte_pyscript.py): a warm visit
// compiles none of it.
//
// `globalThis.riposteBoot` says which it was ("cold", "restored", "fallback: why"), for
// web/boot/bridge.py to report.
import { loadPyodide as boot, version } from "../../runtime/pyodide/pyodide.mjs";
import { restore } from "./pages.js";
import { drop, make, readOnce, saved, store } from "./snapshot.js";

export { version };
// Written by the build (tools/build_site.py): the engine wheel beside this module, the
// snapshot's key, which names this Pyodide, this wheel and this standard library, and
// Pyodide's lock as the site ships it (`pyodide_lock`: micropip alone), given to Pyodide so
// that it fetches none before the engine is ready.
export const WHEEL = "../wheels/riposte_engine-0.1.0-py3-none-any.whl";
export const KEY = "runtime/snapshot/dev";
export const LOCK = null;

const here = new URL(import.meta.url);
// The snapshot's key, an address under the site (Cache Storage wants one).
const key = new URL(`../../${KEY}`, here).href;
// Pyodide's own files are in their versioned folder, not beside this module; the standard
// library in the build's folder for it.
const indexURL = new URL("../../runtime/pyodide/", here).href;
const stdLibURL = new URL("../../stdlib/python_stdlib.zip", here).href;
const rest = new URL("../../stdlib/python_stdlib_rest.zip", here).href;
// Pyodide's lock, and where its packages are (micropip, beside Pyodide).
const lock = LOCK ? { lockFileContents: LOCK, packageBaseUrl: indexURL } : {};

// Pyodide's fetch of its own files: from Cache Storage when the precache holds the file (a
// repeat visit, offline too), from the network otherwise (a first visit). Not a file asked
// with its hash (a package Pyodide loads checks it): fetched, and so checked.
async function fromPrecache(url, init) {
  if (!init?.integrity && globalThis.caches) {
    const kept = await caches.match(url).catch(() => undefined);
    if (kept) return kept;
  }
  return fetch(url, init);
}
globalThis.riposteFetch = fromPrecache;

// The rest of the standard library, fetched when first imported.
function findRest(py) {
  py.runPython(`import riposte_stdlib\nriposte_stdlib.install(${JSON.stringify(rest)})`);
}

// PyScript's package as the cold boot compiled it, written where Python looks for it before
// PyScript writes its source there and imports it (web/boot/riposte_pyscript.py): every boot.
function placeBytecode(py) {
  py.runPython("import riposte_pyscript\nriposte_pyscript.install()");
}

// A cold boot: micropip installs the engine wheel (vendored beside Pyodide), the engine is
// imported whole, and the snapshot is made from this interpreter.
async function cold(options) {
  // The wheel is fetched here, beside Pyodide's boot, and micropip installs it from
  // Pyodide's file system: the heap then holds no JavaScript object of the download, which
  // a snapshot could not hold (web/boot/snapshot.js).
  const wheel = fetch(new URL(WHEEL, here)).then((response) => {
    if (!response.ok) throw new Error(`[${response.status}] Unable to fetch ${response.url}`);
    return response.arrayBuffer();
  });
  wheel.catch(() => undefined); // said when awaited, below
  const py = await boot({ ...options, ...lock, indexURL, stdLibURL, _makeSnapshot: true });
  findRest(py);
  await py.loadPackage("micropip");
  const file = `/tmp/${WHEEL.split("/").pop()}`;
  py.FS.writeFile(file, new Uint8Array(await wheel));
  // In a function, so that no name keeps micropip (web/boot/snapshot.js drops it).
  await py.runPythonAsync(`async def install(url):
    import micropip
    await micropip.install(url)
await install("emfs:${file}")
del install`);
  py.FS.unlink(file);
  py.runPython("import riposte_pyscript\nriposte_pyscript.prepare()"); // compiled once: the snapshot keeps it
  let snapshot;
  try {
    snapshot = make(py);
  } catch (error) {
    store(key, null, error);
  }
  if (snapshot) store(key, snapshot); // in the background: Python goes on meanwhile
  placeBytecode(py);
  return py;
}

export async function loadPyodide(options = {}) {
  const snapshot = await saved(key);
  let py;
  if (!snapshot) {
    py = await cold(options);
    globalThis.riposteBoot = "cold";
  } else {
    try {
      const bytes = readOnce(snapshot);
      globalThis.riposteRestore = restore; // Pyodide's restore writes no page of zeros (web/boot/pages.js)
      try {
        py = await boot({ ...options, ...lock, indexURL, stdLibURL, _loadSnapshot: bytes });
      } finally {
        bytes.release(); // copied into Python's memory: 30 MB given back
      }
      // A snapshot of this build holds every engine module already imported, and says so.
      if (!py.runPython("'riposte_engine_imported' in globals()")) throw new Error("a snapshot without the engine");
      findRest(py);
      placeBytecode(py);
      globalThis.riposteBoot = "restored";
    } catch (error) {
      // Never try a bad snapshot twice: this boot makes a new one.
      await drop(key);
      py = await cold(options);
      globalThis.riposteBoot = `fallback: ${error?.message ?? error}`;
    }
  }
  py.runPython("import os, random\nrandom.seed(os.urandom(32))");
  return py;
}
